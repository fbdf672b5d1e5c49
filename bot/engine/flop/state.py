"""The state a flop-game hand keeps, declared once for the modules that read or write it.

:class:`~bot.engine.flop.hand.FlopHand` sets these attributes; its action options
(:mod:`bot.engine.flop.options`), its showdown (:mod:`bot.engine.flop.showdown`) and its
snapshots (:mod:`bot.engine.flop._snapshot`) work on them. They import this declaration, not
the hand, so the hand can import them without an import cycle (as stud's ``StudCore``).
"""

from __future__ import annotations

from typing import Any

from bot.engine.cards import Card
from bot.engine.flop.rules import FlopRules


class FlopState:
    """The attributes of one hand (positions count clockwise from the button's left)."""

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
    raise_size: int
    aggressions: int
    shorts: list[int]
    opener: int | None
    shown_early: bool
    phh_actions: list[str]
    result: dict[str, Any] | None
    _deck: list[Card]
    _next: int
    _street_bet: int
