"""Seven-card Stud (high) and Stud Hi-Lo eight-or-better: the shared stud hand with the
lowest up card bringing in, the highest showing hand opening from 4th street, the big bet
allowed on 4th street when a pair shows (Stud high only), and a high (or high-low split)
showdown.

Readings (RULES.md Stud): the bring-in is the lowest up card by rank, deuce low and ace
high, ties broken by suit ♣ < ♦ < ♥ < ♠ (pokerkit's ``Opening.LOW_CARD``; the clubs
card brings in). From 4th street the highest board opens (:mod:`bot.engine.hands.high_board`,
pokerkit's order); exact ties go to the first such player clockwise from the dealer's
left (pokerkit). The open pair on 4th street is the cardroom rule (pokerkit 0.7.7 does not
have it): any player may then bet or raise the big bet instead of the small one (an
``amount``; the plain action stays the small bet), and once a big bet is made every later
raise on 4th street is big. A history with such a big bet replays in our engine, not in
pokerkit. In Stud Hi-Lo an open pair does not change the limit (Robert's Rules of Poker,
seven-card stud high-low; cardrooms post it so). Hi-Lo: each pot is split high and low;
the odd chip goes to the high half; a pot none of whose contestants has an eight-or-better
low goes whole to the high hand (the cardroom rule, pot by pot: pokerkit decides that over
every hand shown instead).

Robert's Rules of Poker (issue 18): no cap heads-up, and a tie's odd chip goes to the
winning hand with the highest card by suit (of a low half: the lowest card by suit), each
pot on its own.
"""

from __future__ import annotations

from typing import Any, ClassVar, Final

from bot.engine.cards import Card
from bot.engine.hands.high import high_name, high_score
from bot.engine.hands.high_board import high_board_key
from bot.engine.hands.low8 import low8_name, low8_score
from bot.engine.stud.betting import StudHand
from bot.engine.stud.rules import StudRules

#: ``LOW_CARD_BRINGS_IN[card]``: the largest value brings in: the lowest rank (deuce low,
#: ace high), then the lowest suit (♣ < ♦ < ♥ < ♠). A card is ``(rank - 2) * 4 + suit``.
LOW_CARD_BRINGS_IN: Final[tuple[int, ...]] = tuple(51 - c for c in range(52))


class StudHighHand(StudHand):
    """One hand of fixed-limit Seven-card Stud (PHH variant ``F7S``)."""

    __slots__ = ()

    RULES: ClassVar[type[StudRules]] = StudRules
    VARIANT: ClassVar[str] = "F7S"
    BRING_IN_ORDER: ClassVar[tuple[int, ...]] = LOW_CARD_BRINGS_IN
    OPEN_PAIR_BIG_BET: ClassVar[bool] = True
    PARTS: ClassVar[tuple[str, ...]] = ("high",)
    MERGE_AFTER_SHOWDOWN: ClassVar[bool] = True
    HEADS_UP_UNCAPPED: ClassVar[bool] = True  # RRP (Razz keeps the cap: RULES 4.6)
    ODD_CHIP_BY_SUIT: ClassVar[bool] = True  # RRP, Ties (Razz: RULES 4.10)

    @staticmethod
    def opening_key(up: list[Card]) -> tuple[int, ...]:
        """The highest board opens: the smallest key is the negated highest board."""
        return tuple(-x for x in high_board_key(up))

    def scores(self, cards: list[Card]) -> tuple[int, ...]:
        return (high_score(cards),)

    def names(self, score: tuple[int, ...]) -> dict[str, Any]:
        return {"high": high_name(score[0])}


class StudHiLoHand(StudHighHand):
    """One hand of fixed-limit Stud Hi-Lo, eight or better (PHH variant ``F7S/8``)."""

    __slots__ = ()

    VARIANT: ClassVar[str] = "F7S/8"
    OPEN_PAIR_BIG_BET: ClassVar[bool] = False  # high stud's rule only (Robert's Rules)
    PARTS: ClassVar[tuple[str, ...]] = ("high", "low")

    def scores(self, cards: list[Card]) -> tuple[int, ...]:
        low = low8_score(cards)
        return (high_score(cards), -1 if low is None else low)

    def names(self, score: tuple[int, ...]) -> dict[str, Any]:
        low = score[1]
        return {"high": high_name(score[0]), "low": low8_name(low) if low >= 0 else None}
