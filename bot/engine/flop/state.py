"""The state a flop-game hand keeps, declared once for the modules that read or write it.

:class:`~bot.engine.flop.hand.FlopHand` sets these attributes; its action options
(:mod:`bot.engine.flop.options`), its showdown (:mod:`bot.engine.flop.showdown`) and its
snapshots (:mod:`bot.engine.flop._snapshot`) work on them. They import this declaration, not
the hand, so the hand can import them without an import cycle (as stud's ``StudCore``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from bot.engine.cards import Card
from bot.engine.events import Event
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
    # ---- what home games play (bot/engine/flop/house.py)
    straddle_pos: int | None
    """The position that straddled (a blind of twice the big blind), or None."""
    bomb: int
    """A bomb pot's ante (0: not a bomb pot): no blinds, the hand starts at the flop."""
    boards: list[list[Card]]
    """Every board: ``boards[0]`` is ``board``; a double board or a second run adds one."""
    runs: int
    """How many times the board was run after an all-in (1, or 2: run it twice)."""
    choice: str | None
    """A decision the hand waits for outside the betting: "runout" (Once or Twice after
    an all-in) or "show" (an uncontested winner shows or mucks, seven-deuce); None."""
    choices: dict[int, str | None]
    """Position -> what it chose in the decision above (None: not yet)."""
    _ask_show: Callable[[int, list[Event]], None]
    """An uncontested winner at a seven-deuce table shows or mucks (house.py)."""
    _deck: list[Card]
    _next: int
    _street_bet: int
    _multi: bool
    """Two boards from the flop on (a double-board bomb pot): each street deals both."""
