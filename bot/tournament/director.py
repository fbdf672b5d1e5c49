"""The tournament director: a pure state machine over an immutable :class:`Tournament`.

Statuses: ``created`` -> ``registering`` -> ``running`` -> ``finished``, or ``cancelled``
from any but ``finished``. A break is not a status: the clock says when one is on
(:mod:`bot.tournament.clock`).

Every step is a function ``step(tournament, ..., now=...) -> Outcome``: the new state, the
league-chip :class:`~bot.tournament.movements.Movement` records to book by the ledger, and
what the tables must do (chips to add, a seat to find). A refused step raises a
:class:`~bot.tournament.errors.Refused` with the sentence to show and changes nothing; for
each, ``why_not_...`` answers the same question without raising (the buttons enable
themselves from it: check / can / do).

The choices where the issue is silent (TDA sets no rule for them, this is common practice):

* A buy-in is paid **at registration**; unregistering (before the start only) pays it back.
* A **rebuy** is allowed while the rebuy period is open to an entry that is busted or has
  **at most the starting stack** (between hands); one busted in a hand that began in the
  period may still rebuy for ``rebuy_decision_seconds`` after, even past the period's end.
* A **re-entry** is a new entry (buy-in, bounty, the full starting stack, a random seat)
  for a player whose entry is out, while late registration is open; the old entry stays
  out and keeps its place.
* The tournament **ends** when one entry is left and nobody busted can still come back
  (within their decision time, unless they declined); registration closes with it.
* ``/tournament cancel`` pays back what the funds hold to whoever paid it in; a bounty
  already won stays won.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from bot.tournament.clock import Pause, next_change_time
from bot.tournament.config import TournamentConfig
from bot.tournament.entries import why_not_re_enter, why_not_rebuy
from bot.tournament.errors import (
    AlreadyRegistered,
    NotRegistered,
    RegistrationClosed,
    RegistrationFull,
    WrongStatus,
)
from bot.tournament.movements import Movement
from bot.tournament.payouts import pay_finishes, prizes, split_bounty
from bot.tournament.places import Elimination, Finish, final_places
from bot.tournament.state import (
    Bust,
    Entry,
    Knockout,
    Outcome,
    Tournament,
    decision_deadline,
    late_registration_open,
    movement,
    new_entry,
    refuse,
    started,
    with_entry,
)

# ----------------------------------------------------------------------- registration


def create(config: TournamentConfig) -> Tournament:
    """A new tournament, not yet open for registration."""
    return Tournament(config)


def open_registration(t: Tournament) -> Tournament:
    """Open the lobby: ``created`` -> ``registering``."""
    if t.status != "created":
        raise refuse(WrongStatus, f"The tournament is {t.status}, not waiting to open.")
    return replace(t, status="registering")


def why_not_register(t: Tournament, player: int, *, now: float) -> str | None:
    """Why ``player`` may not register now (None: they may)."""
    if not late_registration_open(t, now=now):
        return "Registration is closed."
    own = t.latest_entry(player)
    if own is not None:
        if own.alive:
            return "You are already registered."
        return "Your entry is out; press Re-enter to enter again."
    if len(t.players) >= t.config.max_players:
        n = t.config.max_players
        return f"Registration is full ({len(t.players)} of {n})."
    return None


def register(t: Tournament, player: int, *, now: float) -> Outcome:
    """Register ``player``: a new entry, the buy-in (and bounty) paid in. Running (late
    registration): the entry needs a seat and the starting stack.

    >>> from bot.tournament.presets import preset
    >>> c = TournamentConfig(game="holdem", buy_in=100, starting_stack=1000, bounty=20,
    ...                      structure=preset("turbo", "blinds", 1000), max_players=2)
    >>> t = open_registration(create(c))
    >>> out = register(t, 7, now=0)
    >>> [(m.ledger_text, m.delta) for m in out.movements]
    [('tournament buy-in', -100), ('tournament bounty', -20)]
    >>> t = register(out.tournament, 8, now=0).tournament
    >>> register(t, 9, now=0)
    Traceback (most recent call last):
    ...
    bot.tournament.errors.RegistrationFull: Registration is full (2 of 2). Nothing changed.
    """
    reason = why_not_register(t, player, now=now)
    if reason is not None:
        if reason.startswith("Registration is full"):
            raise refuse(RegistrationFull, reason)
        cls = RegistrationClosed if reason.startswith("Registration") else AlreadyRegistered
        raise refuse(cls, reason)
    return new_entry(t, player, now)


def unregister(t: Tournament, player: int) -> Outcome:
    """Take ``player``'s entry back before the start, paying back what it paid in."""
    entry = t.latest_entry(player)
    if entry is None:
        raise refuse(NotRegistered, "You are not registered.")
    if t.status != "registering":
        raise refuse(WrongStatus, "The tournament has started; an entry stays in.")
    moves = movement("refund", entry, entry.paid, "prize pool") + movement(
        "refund", entry, entry.bounty, "bounties"
    )
    rest = tuple(e for e in t.entries if e.number != entry.number)
    return Outcome(replace(t, entries=rest), moves, entry)


def start(t: Tournament, *, now: int) -> Outcome:
    """Start the clock (the host's **Start**, or ``starts_at``); at least 2 entries."""
    if t.status != "registering":
        raise refuse(WrongStatus, f"The tournament is {t.status}; it starts from registering.")
    if len(t.entries) < 2:
        raise refuse(
            WrongStatus,
            f"A tournament starts with at least 2 players ({len(t.entries)} registered).",
        )
    return Outcome(replace(t, status="running", started_at=now))


def pause(t: Tournament, *, now: int) -> Outcome:
    """``/tournament pause``: the clock stops (breaks too); no new hand starts."""
    if t.status != "running":
        raise refuse(WrongStatus, "Only a running tournament can pause.")
    if t.paused:
        raise refuse(WrongStatus, "The clock is already paused.")
    if (t.pauses and now < (t.pauses[-1].end or 0)) or now < started(t):
        raise refuse(WrongStatus, "The clock cannot pause before its last resume.")
    return Outcome(replace(t, pauses=(*t.pauses, Pause(now))))


def resume(t: Tournament, *, now: int) -> Outcome:
    """``/tournament resume``: the clock runs again; every later change moves by the pause."""
    if not t.paused:
        raise refuse(WrongStatus, "The clock is not paused.")
    last = t.pauses[-1]
    if now < last.start:
        raise refuse(WrongStatus, "The clock cannot resume before it paused.")
    return Outcome(replace(t, pauses=(*t.pauses[:-1], Pause(last.start, now))))


# ------------------------------------------------------------------------------ busts


def record_hand(
    t: Tournament, knockouts: Sequence[Knockout], *, hand_started_at: int, now: int
) -> Outcome:
    """A hand ended eliminating ``knockouts`` (seat order from the button's left): each is
    out, placed by the chips it started the hand with; its bounty goes to who won its chips.
    """
    if t.status != "running":
        raise refuse(WrongStatus, "The tournament is not running.")
    if not knockouts:
        return Outcome(t)
    out_now = {k.entry for k in knockouts}
    if len(out_now) != len(knockouts):
        raise ValueError("an entry is knocked out once")
    numbers = {e.number for e in t.entries}
    if not out_now <= numbers or not all(t.entry(n).alive for n in out_now):
        raise ValueError("only entries still in are knocked out")
    if len(t.alive) <= len(out_now):
        raise ValueError("a hand leaves at least one entry in")
    order = t.eliminating_hands + 1
    moves: list[Movement] = []
    for position, k in enumerate(knockouts):
        entry = t.entry(k.entry)
        takers = {n: c for n, c in k.taken_by.items() if c > 0}
        if any(n in out_now or n not in numbers or not t.entry(n).alive for n in takers):
            raise ValueError("a bounty goes to an entry still in")
        bounty = entry.bounty
        if bounty and takers:
            for number, share in split_bounty(bounty, takers).items():
                taker = t.entry(number)
                moves += movement("bounty", taker, share, "bounties")
                t = with_entry(t, replace(taker, bounties_won=taker.bounties_won + share))
            bounty = 0
        bust = Bust(order, now, hand_started_at, k.started_with, position)
        t = with_entry(t, replace(entry, bust=bust, bounty=bounty))
    return Outcome(replace(t, eliminating_hands=order), tuple(moves))


def decline(t: Tournament, player: int) -> Outcome:
    """The busted ``player`` will not come back now (no rebuy; the tournament need not
    wait for them). A re-entry later stays possible while registration is open."""
    entry = t.latest_entry(player)
    if entry is None or entry.bust is None or entry.closed:
        raise refuse(NotRegistered, "You have no busted entry to decline for.")
    return Outcome(
        with_entry(t, replace(entry, bust=replace(entry.bust, declined=True))), entry=entry
    )


# ------------------------------------------------------------------- the end, results


def can_come_back(t: Tournament, entry: Entry, *, now: float) -> bool:
    """Whether a busted ``entry`` may still rebuy or re-enter within its decision time."""
    bust = entry.bust
    if bust is None or bust.declined or entry.closed or now >= decision_deadline(t, bust):
        return False
    return (
        why_not_rebuy(t, entry.player, stack=0, now=now) is None
        or why_not_re_enter(t, entry.player, now=now) is None
    )


def is_over(t: Tournament, *, now: float) -> bool:
    """One entry left, and nobody busted can still come back."""
    return (
        t.status == "running"
        and len(t.alive) == 1
        and not any(can_come_back(t, e, now=now) for e in t.entries if not e.alive)
    )


def results(t: Tournament) -> tuple[tuple[Finish, int], ...]:
    """Every entry's finish and prize, best first (the tournament has one entry left)."""
    elim = [
        Elimination(e.number, e.bust.order, e.bust.started_with)
        for e in sorted(t.entries, key=_bust_seat_order)
        if e.bust is not None
    ]
    finishes = final_places([e.number for e in t.entries], elim)
    paid = pay_finishes(prizes(t.config.payouts, len(t.entries), t.prize_pool), finishes)
    return tuple((f, paid.get(f.entry, 0)) for f in finishes)


def _bust_seat_order(e: Entry) -> tuple[int, int]:
    """A hand's knockouts in the seat order :func:`record_hand` was given (odd chips)."""
    return (e.bust.order, e.bust.position) if e.bust else (0, 0)


def finish_if_over(t: Tournament, *, now: int) -> Outcome:
    """End the tournament when :func:`is_over`: pay the prizes (whole chips, the pool
    exactly) and the bounties still held to the winner (their own, and any nobody won)."""
    if not is_over(t, now=now):
        return Outcome(t)
    moves: list[Movement] = []
    for finish, prize in results(t):
        moves += movement("prize", t.entry(finish.entry), prize, "prize pool")
    winner = t.alive[0]
    held = t.bounty_fund
    moves += movement("bounty", winner, held, "bounties")
    entries = tuple(
        replace(e, bounty=0, bounties_won=e.bounties_won + (held if e is winner else 0))
        for e in t.entries
    )
    done = replace(t, status="finished", finished_at=now, entries=entries)
    return Outcome(done, tuple(moves), winner)


def cancel(t: Tournament, *, now: int) -> Outcome:
    """``/tournament cancel``: every chip the funds hold goes back to who paid it in."""
    if t.status in ("finished", "cancelled"):
        raise refuse(WrongStatus, f"The tournament is {t.status}.")
    moves: list[Movement] = []
    for e in t.entries:
        moves += movement("refund", e, e.paid, "prize pool")
        moves += movement("refund", e, e.bounty, "bounties")
    entries = tuple(replace(e, bounty=0) for e in t.entries)
    return Outcome(replace(t, status="cancelled", finished_at=now, entries=entries), tuple(moves))


def next_deadline(t: Tournament, *, now: float) -> int | None:
    """The next moment the director must look again without anyone clicking: the start
    (``starts_at``), the clock's next change, a busted player's decision time running out.
    The integration stores it like every timer."""
    times: list[int] = []
    if t.status == "registering" and t.config.starts_at is not None:
        times.append(t.config.starts_at)
    if t.status == "running":
        change = next_change_time(t.config.structure, start=started(t), pauses=t.pauses, at=now)
        if change is not None:
            times.append(change)
        times += [
            decision_deadline(t, e.bust)
            for e in t.entries
            if e.bust is not None and can_come_back(t, e, now=now)
        ]
    later = [x for x in times if x > now]
    return min(later) if later else None
