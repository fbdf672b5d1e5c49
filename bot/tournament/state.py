"""The state of a tournament: immutable records the director's steps take and return
(:mod:`bot.tournament.director`, :mod:`bot.tournament.entries`), and the helpers they
share. The integration stores a :class:`Tournament` as it is (every field is plain data).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Literal

from bot.tournament.clock import Pause, open_through_level, period_end_time
from bot.tournament.config import TournamentConfig
from bot.tournament.errors import NOTHING_CHANGED, Refused
from bot.tournament.movements import Fund, Movement, MovementKind

Status = Literal["created", "registering", "running", "finished", "cancelled"]


@dataclass(frozen=True)
class Bust:
    """How an entry went out: in the ``order``-th hand that eliminated someone, at ``at``,
    in a hand begun at ``hand_started_at`` with ``started_with`` chips."""

    order: int
    at: int
    hand_started_at: int
    started_with: int
    position: int = 0
    """Its place among the hand's knockouts (seat order from the button's left)."""
    declined: bool = False
    """The player said they will not rebuy (nor re-enter now)."""


@dataclass(frozen=True)
class Entry:
    """One entry: ``paid`` league chips into the prize pool, ``bounty`` held on its head."""

    number: int
    player: int
    entered_at: int
    paid: int
    bounty: int
    rebuys: int = 0
    add_on: bool = False
    bust: Bust | None = None
    closed: bool = False
    """Its player re-entered: this entry stays out."""
    bounties_won: int = 0

    @property
    def alive(self) -> bool:
        return self.bust is None


@dataclass(frozen=True)
class Tournament:
    config: TournamentConfig
    status: Status = "created"
    entries: tuple[Entry, ...] = ()
    started_at: int | None = None
    pauses: tuple[Pause, ...] = ()
    eliminating_hands: int = 0
    """How many hands eliminated someone (the next bust order)."""
    finished_at: int | None = None

    @property
    def prize_pool(self) -> int:
        """Buy-ins + rebuys + add-ons (bounties held apart): the pool's size, also once
        paid out (a finished or cancelled tournament's movements say where it went)."""
        return sum(e.paid for e in self.entries)

    @property
    def bounty_fund(self) -> int:
        """The bounties held now (each on its entry's head; 0 once paid out)."""
        return sum(e.bounty for e in self.entries)

    @property
    def alive(self) -> tuple[Entry, ...]:
        return tuple(e for e in self.entries if e.alive)

    @property
    def players(self) -> frozenset[int]:
        return frozenset(e.player for e in self.entries)

    @property
    def paused(self) -> bool:
        return bool(self.pauses) and self.pauses[-1].end is None

    def entry(self, number: int) -> Entry:
        """Entry ``number`` (a ``KeyError`` for one the tournament does not have)."""
        for e in self.entries:
            if e.number == number:
                return e
        raise KeyError(number)

    def latest_entry(self, player: int) -> Entry | None:
        """The player's newest entry (None: never entered)."""
        return max((e for e in self.entries if e.player == player), key=_num, default=None)


def _num(e: Entry) -> int:
    return e.number


@dataclass(frozen=True)
class Outcome:
    """A step's result: the new state, the ledger movements, the entry it made or changed,
    the tournament chips to give that entry, and whether it needs a seat."""

    tournament: Tournament
    movements: tuple[Movement, ...] = ()
    entry: Entry | None = None
    chips: int = 0
    needs_seat: bool = False


@dataclass(frozen=True)
class Knockout:
    """Entry ``entry`` lost its last chip in a hand it started with ``started_with`` chips;
    ``taken_by`` maps each entry that won some of its chips to how many (seat order)."""

    entry: int
    started_with: int
    taken_by: Mapping[int, int]


# ------------------------------------------------------------------------------ helpers


def with_entry(t: Tournament, entry: Entry) -> Tournament:
    """``t`` with ``entry`` in place of the entry of its number."""
    return replace(t, entries=tuple(entry if e.number == entry.number else e for e in t.entries))


def movement(kind: MovementKind, entry: Entry, amount: int, fund: Fund) -> tuple[Movement, ...]:
    """The movement of ``amount`` for ``entry``'s player, or none for 0 chips (a free roll)."""
    return (Movement(kind, entry.player, entry.number, amount, fund),) if amount else ()


def refuse(cls: type[Refused], text: str) -> Refused:
    """A refusal whose message says that nothing changed."""
    return cls(f"{text} {NOTHING_CHANGED}")


def started(t: Tournament) -> int:
    """When a running (or finished) tournament started."""
    assert t.started_at is not None
    return t.started_at


def late_registration_open(t: Tournament, *, now: float) -> bool:
    """Registration is open: before the start, or through the end of level
    ``late_registration_levels`` of a running tournament."""
    if t.status == "registering":
        return True
    if t.status != "running":
        return False
    return open_through_level(
        t.config.structure,
        t.config.late_registration_levels,
        start=started(t),
        pauses=t.pauses,
        at=now,
    )


def rebuy_period_end(t: Tournament) -> int | None:
    """When the rebuy period closes (the end of level ``rebuy_until_level``); None before
    the start or while a pause leaves it unknown."""
    if t.started_at is None:
        return None
    return period_end_time(
        t.config.structure, t.config.rebuy_level, start=t.started_at, pauses=t.pauses
    )


def rebuy_open(t: Tournament, now: float) -> bool:
    """The rebuy period is open at ``now`` (through the end of ``rebuy_until_level``)."""
    return t.status == "running" and open_through_level(
        t.config.structure, t.config.rebuy_level, start=started(t), pauses=t.pauses, at=now
    )


def bust_in_period(t: Tournament, bust: Bust) -> bool:
    """The hand that busted the entry began in the rebuy period."""
    return open_through_level(
        t.config.structure,
        t.config.rebuy_level,
        start=started(t),
        pauses=t.pauses,
        at=bust.hand_started_at,
    )


def decision_deadline(t: Tournament, bust: Bust) -> int:
    """Until when a busted player may come back past the end of its period."""
    return bust.at + t.config.rebuy_decision_seconds


def new_entry(t: Tournament, player: int, now: float) -> Outcome:
    """A new entry for ``player``: the buy-in and the bounty paid in, the starting stack,
    and a seat when the tournament runs (late registration, re-entry)."""
    entry = Entry(
        number=max((e.number for e in t.entries), default=0) + 1,
        player=player,
        entered_at=int(now),
        paid=t.config.buy_in,
        bounty=t.config.bounty,
    )
    moves = movement("buy-in", entry, t.config.buy_in, "prize pool") + movement(
        "bounty-in", entry, t.config.bounty, "bounties"
    )
    t = replace(t, entries=(*t.entries, entry))
    return Outcome(t, moves, entry, t.config.starting_stack, needs_seat=t.status == "running")
