"""Rebuys, the add-on and re-entries: the steps that put more league chips into the prize
pool (and tournament chips on a stack) while a tournament runs. The rules they follow are
in :mod:`bot.tournament.director`'s docstring and the rule book (§10).
"""

from __future__ import annotations

from dataclasses import replace

from bot.tournament.clock import in_add_on_break
from bot.tournament.errors import AddOnRefused, RebuyRefused, ReEntryRefused
from bot.tournament.state import (
    Outcome,
    Tournament,
    bust_in_period,
    decision_deadline,
    late_registration_open,
    movement,
    new_entry,
    rebuy_open,
    refuse,
    started,
    with_entry,
)


def why_not_rebuy(
    t: Tournament, player: int, *, stack: int, now: float, after_bust: bool = False
) -> str | None:
    """Why ``player`` may not rebuy now with ``stack`` chips (None: they may).

    ``after_bust``: the click is a busted player's **Rebuy**, so it buys only while the
    entry is busted -- a second click of the same button is refused, not a second rebuy
    (a top-up of a live stack is its own choice).
    """
    cfg = t.config
    if cfg.rebuys == 0:
        return "This tournament has no rebuys."
    if t.status != "running":
        return "Rebuys are made while the tournament runs."
    entry = t.latest_entry(player)
    if entry is None or entry.closed:
        return "You have no entry in this tournament."
    if cfg.rebuys is not None and entry.rebuys >= cfg.rebuys:
        return f"You have made all your rebuys ({entry.rebuys} of {cfg.rebuys})."
    if entry.bust is None:
        if after_bust:
            return "Your rebuy is made: you are back in."
        if not rebuy_open(t, now):
            return f"Rebuys ended with level {cfg.rebuy_level}."
        if stack > cfg.starting_stack:
            return (
                f"A rebuy is for a stack of at most the starting stack ({cfg.starting_stack}); "
                f"you have {stack}."
            )
        return None
    if entry.bust.declined:
        return "You declined the rebuy."
    if rebuy_open(t, now):
        return None
    if bust_in_period(t, entry.bust) and now < decision_deadline(t, entry.bust):
        return None
    return f"Rebuys ended with level {cfg.rebuy_level}."


def rebuy(
    t: Tournament, player: int, *, stack: int, now: float, after_bust: bool = False
) -> Outcome:
    """A rebuy: ``rebuy_price`` into the pool for ``rebuy_chips``; a busted entry is back
    in (it needs its seat, or a new one) and pays a new bounty. ``after_bust``: see
    :func:`why_not_rebuy`."""
    reason = why_not_rebuy(t, player, stack=stack, now=now, after_bust=after_bust)
    if reason is not None:
        raise refuse(RebuyRefused, reason)
    entry = t.latest_entry(player)
    assert entry is not None
    cfg = t.config
    busted = entry.bust is not None
    moves = movement("rebuy", entry, cfg.rebuy_cost, "prize pool")
    bounty = entry.bounty
    if busted:
        moves += movement("bounty-in", entry, cfg.bounty, "bounties")
        bounty += cfg.bounty
    entry = replace(
        entry, rebuys=entry.rebuys + 1, paid=entry.paid + cfg.rebuy_cost, bust=None, bounty=bounty
    )
    return Outcome(with_entry(t, entry), moves, entry, cfg.rebuy_stack, needs_seat=busted)


def why_not_add_on(t: Tournament, player: int, *, now: float) -> str | None:
    """Why ``player`` may not take the add-on now (None: they may)."""
    cfg = t.config
    if not cfg.add_on:
        return "This tournament has no add-on."
    entry = t.latest_entry(player)
    if t.status != "running" or entry is None or not entry.alive:
        return "The add-on is for players still in."
    if entry.add_on:
        return "You have taken the add-on."
    if not in_add_on_break(
        cfg.structure, cfg.rebuy_level, start=started(t), pauses=t.pauses, at=now
    ):
        return f"The add-on is offered at the break after level {cfg.rebuy_level}."
    return None


def add_on(t: Tournament, player: int, *, now: float) -> Outcome:
    """The add-on at the break ending the rebuy period: ``add_on_price`` for
    ``add_on_chips``, once per entry, no bounty."""
    reason = why_not_add_on(t, player, now=now)
    if reason is not None:
        raise refuse(AddOnRefused, reason)
    entry = t.latest_entry(player)
    assert entry is not None
    cost = t.config.add_on_cost
    entry = replace(entry, add_on=True, paid=entry.paid + cost)
    moves = movement("add-on", entry, cost, "prize pool")
    return Outcome(with_entry(t, entry), moves, entry, t.config.add_on_stack)


def why_not_re_enter(t: Tournament, player: int, *, now: float) -> str | None:
    """Why ``player`` may not re-enter now (None: they may)."""
    cfg = t.config
    if cfg.re_entry == 0:
        return "This tournament has no re-entry."
    entry = t.latest_entry(player)
    if entry is None:
        return "Register first: a re-entry is for a player whose entry is out."
    if entry.alive:
        return "Your entry is still in."
    if not late_registration_open(t, now=now):
        return "Re-entry closed with late registration."
    again = sum(1 for e in t.entries if e.player == player) - 1
    if cfg.re_entry is not None and again >= cfg.re_entry:
        return f"You have re-entered as often as allowed ({again} of {cfg.re_entry})."
    return None


def re_enter(t: Tournament, player: int, *, now: float) -> Outcome:
    """A re-entry: a new entry (buy-in, bounty, starting stack, a random seat); the old
    one stays out and keeps its place."""
    reason = why_not_re_enter(t, player, now=now)
    if reason is not None:
        raise refuse(ReEntryRefused, reason)
    old = t.latest_entry(player)
    assert old is not None
    return new_entry(with_entry(t, replace(old, closed=True)), player, now)
