"""The state a flop-game hand keeps, declared once for the modules that read or write it.

:class:`~bot.engine.flop.hand.FlopHand` sets these attributes; its action options
(:mod:`bot.engine.flop.options`), its showdown (:mod:`bot.engine.flop.showdown`) and its
snapshots (:mod:`bot.engine.flop._snapshot`) work on them. They import this declaration, not
the hand, so the hand can import them without an import cycle (as stud's ``StudCore``).
"""

from __future__ import annotations

from typing import Any, ClassVar

from bot.engine.cards import Card
from bot.engine.flop.rules import FlopRules


class FlopState:
    """The attributes of one hand (positions count clockwise from the button's left)."""

    POTS_APART: ClassVar[bool]
    rules: FlopRules
    n: int
    dealer: int
    seat_ids: tuple[int, ...]
    starting: list[int]
    stacks: list[int]
    bets: list[int]
    contrib: list[int]
    blinds: list[int]
    dead: int
    folded: list[bool]
    hole: list[list[Card]]
    board: list[Card]
    street: int
    actors: list[int]
    acted: set[int]
    top: int
    """The price of the round: the highest bet, or the full big blind before the flop."""
    level: int
    """Fixed limit: the "to" total of the round's last full bet or raise (the big blind
    before the flop); the next raise is one bet over it."""
    capped: bool
    """No more bets or raises this round (fixed limit)."""
    raise_size: int
    aggressions: int
    shorts: list[int]
    posts: tuple[int, ...]
    bb_pos: int
    """Positions that posted a big blind out of turn (a player new to the table)."""
    opener: int | None
    shown_early: bool
    phh_actions: list[str]
    result: dict[str, Any] | None
    _deck: list[Card]
    _next: int
    _street_bet: int
