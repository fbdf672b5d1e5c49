"""One hand of fixed-limit Razz (RULES.md §4): the shared stud hand
(:mod:`bot.engine.stud`) with Razz's bring-in (the highest up card), opener (the lowest
board) and showdown (ace-to-five low).

Where RULES.md is silent the engine does what pokerkit 0.7.7's ``FixedLimitRazz`` does
(RULES §4.12); each such place says "pokerkit:" in a comment.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from typing import Any, ClassVar, Final

from bot.engine.cards import CARDS, Card
from bot.engine.errors import InvalidConfig
from bot.engine.events import Event
from bot.engine.hands import board_key, low_score
from bot.engine.hands.low import low_name_of_score
from bot.engine.razz.rules import RazzRules
from bot.engine.stud.betting import StudHand
from bot.engine.stud.core import CODE, STREET_NAMES

__all__ = ["CODE", "STREET_NAMES", "UPCARD_ORDER", "RazzHand", "draw_for_deal"]

#: ``UPCARD_ORDER[card]``: the card's place in the bring-in order (§4.4, the higher brings
#: in): king high, ace low; then ♠ > ♥ > ♦ > ♣.
UPCARD_ORDER: Final[tuple[int, ...]] = tuple(c.low_rank * 4 + c.suit for c in CARDS)


def draw_for_deal(
    seats: Sequence[int], rng: random.Random | None = None
) -> tuple[int, list[Event]]:
    """RULES §4.3: one card to each seat; the lowest card deals (ace low, clubs lowest).

    Returns the dealer seat and one public event showing the cards.

    >>> dealer, events = draw_for_deal([4, 7, 9], random.Random(1))
    >>> dealer in (4, 7, 9), events[0].kind
    (True, 'draw_for_deal')
    """
    if len(seats) < 2 or len(set(seats)) != len(seats):
        raise InvalidConfig("seats", f"need two or more distinct seats, got {list(seats)}")
    cards = list(CARDS)
    (rng or secrets.SystemRandom()).shuffle(cards)
    drawn = dict(zip(seats, cards, strict=False))
    dealer = min(seats, key=lambda s: (drawn[s].low_rank, drawn[s].suit))
    event = Event(
        "draw_for_deal",
        {"cards": {str(s): str(c) for s, c in drawn.items()}, "dealer": dealer},
    )
    return dealer, [event]


class RazzHand(StudHand):
    """One hand of Razz. Build it, call :meth:`start`, then ``apply`` actions (the deck:
    see :class:`~bot.engine.stud.core.StudCore`)."""

    __slots__ = ()

    RULES: ClassVar[type[RazzRules]] = RazzRules
    VARIANT: ClassVar[str] = "FR"
    BRING_IN_ORDER: ClassVar[tuple[int, ...]] = UPCARD_ORDER
    PARTS: ClassVar[tuple[str, ...]] = ("low",)
    rules: RazzRules

    @staticmethod
    def opening_key(up: list[Card]) -> tuple[int, ...]:
        """§4.5: the lowest board opens (:func:`~bot.engine.hands.board_key`)."""
        return board_key(up)

    def scores(self, cards: list[Card]) -> tuple[int, ...]:
        return (low_score(cards),)

    def names(self, score: tuple[int, ...]) -> dict[str, Any]:
        # the name of the score of the same cards: low_name(cards) without scoring them again
        return {"low": low_name_of_score(score[0])}
