"""One object per guts game's ranking, so the Zoot/Wheelers engine need not branch.

>>> from bot.engine.cards import parse_cards
>>> r = guts_ranking("zoot")
>>> str(r.best_discard(parse_cards("As Ks Qs Js 2d")))
'2d'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from bot.engine.cards import CARDS, Card
from bot.engine.errors import InvalidConfig, InvalidHand
from bot.engine.hands import wheelers as _w
from bot.engine.hands import zoot as _z

GAMES = ("zoot", "wheelers")


@dataclass(frozen=True)
class Ranking:
    """The hand ranking of a guts game (RULES §2 or §3) with its house rules."""

    game: str
    wraparound: bool = False
    _score: Callable[[Sequence[Card]], int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.game not in GAMES:
            raise InvalidConfig("game", f"unknown guts game {self.game!r} (zoot or wheelers)")
        if self.game == "zoot":
            score: Callable[[Sequence[Card]], int] = _z.zoot_score
        elif self.wraparound:
            score = _wrap_score
        else:
            score = _w.wheelers_score
        object.__setattr__(self, "_score", score)

    def score(self, cards: Sequence[Card]) -> int:
        """Higher is better; equal scores tie (suits never break ties)."""
        return self._score(cards)

    def name(self, cards: Sequence[Card]) -> str:
        if self.game == "zoot":
            return _z.zoot_name(cards)
        return _w.wheelers_name(cards, wraparound=self.wraparound)

    def strength(self, cards: Sequence[Card]) -> float:
        """Share of all 2,598,960 five-card hands this hand beats, ties counting half."""
        if self.game == "zoot":
            return _z.zoot_strength(cards)
        return _w.wheelers_strength(cards, wraparound=self.wraparound)

    def _numerator(self, score: int) -> int:
        if self.game == "zoot":
            return _z.zoot_strength_numerator(score)
        return _w.wheelers_strength_numerator(score, wraparound=self.wraparound)

    def best_discard(self, cards: Sequence[Card], *, unseen: Iterable[Card] | None = None) -> Card:
        """The card to throw (RULES §1.5): the one whose removal keeps the best hand.

        For each card of the hand, the mean strength of the hand it leaves over every
        possible replacement (every card not in the hand, or the given ``unseen`` cards
        minus the hand); the card with the highest mean is thrown. Means are compared
        exactly (integer sums). Ties go to the lowest card: lowest rank, then suit
        ♣ < ♦ < ♥ < ♠.
        """
        hand = [CARDS[c] for c in cards]
        self.score(hand)  # validates count and cards
        held = set(hand)
        if unseen is None:
            pool = [c for c in CARDS if c not in held]
        else:
            pool = sorted({CARDS[c] for c in unseen} - held)
        if not pool:
            raise InvalidHand("no replacement card is possible: the unseen cards are all held")
        best: tuple[int, int] | None = None
        choice = hand[0]
        for i, card in enumerate(hand):
            rest = hand[:i] + hand[i + 1 :]
            rest.append(hand[0])
            total = 0
            for new in pool:
                rest[4] = new
                total += self._numerator(self._score(rest))
            rank = (total, -int(card))
            if best is None or rank > best:
                best, choice = rank, card
        return choice


def _wrap_score(cards: Sequence[Card]) -> int:
    return _w.wheelers_score(cards, wraparound=True)


def guts_ranking(game: str, *, wraparound: bool = False) -> Ranking:
    """The ranking of ``"zoot"`` or ``"wheelers"``; anything else is ``InvalidConfig``."""
    return Ranking(game, wraparound)
