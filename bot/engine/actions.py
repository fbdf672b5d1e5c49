"""Actions a seat can take, and the "can" half of check / can / do.

Engines expose ``legal_actions(seat)``: every action kind the game knows at this point,
each either allowed or carrying the reason it is not (buttons enable themselves from it).
"""

from __future__ import annotations

from typing import NamedTuple

from bot.engine.cards import Card


class Action(NamedTuple):
    """A seat's move.

    ``kind`` is game-specific: guts ``lay_down``, ``play_on``, ``discard``; Razz
    ``bring_in``, ``complete``, ``fold``, ``check``, ``call``, ``bet``, ``raise``.
    ``card`` is the discarded card; ``amount`` a Razz "raise to" total when it differs from
    the fixed-limit one (an all-in short raise, RULES §4.7). ``timed_out`` marks the
    default action applied when a seat's time ran out (idle rules, RULES §1.11).

    An immutable named tuple (engines and bots build one per move; a frozen dataclass
    costs several times as much to build). Like any tuple it compares equal to a plain
    tuple of the same values.
    """

    seat: int
    kind: str
    card: Card | None = None
    amount: int | None = None
    timed_out: bool = False


class ActionOption(NamedTuple):
    """One action kind for one seat now: allowed, or the reason it is not.

    ``amount`` is what it costs (chips the seat would put in), ``to`` the seat's total
    bet on the street after it (Razz). ``cards`` lists the card choices (a discard) and
    ``suggested`` the one the table would pick on timeout. A no-limit or pot-limit bet/raise
    (Hold'em, Omaha) gives ``most``, the largest legal ``to`` total, and ``sizes``, the
    named amounts a button offers (``("min", 20), ("½ pot", 45), ...``, each a ``to``
    total). An immutable named tuple, like :class:`Action`.
    """

    kind: str
    allowed: bool
    reason: str | None = None
    amount: int | None = None
    to: int | None = None
    cards: tuple[Card, ...] = ()
    suggested: Card | None = None
    most: int | None = None
    sizes: tuple[tuple[str, int], ...] = ()
