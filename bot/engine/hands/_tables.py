"""Per-card lookup tuples shared by the evaluators, and small counting helpers.

Every evaluator here turns a hand into ONE integer key with a few tuple lookups and
multiplications, then does ONE dict lookup. A rank gets a prime, so the product of the
primes of a hand's cards identifies its rank multiset (unique factorisation) whatever the
order of the cards (41**5 < 2**30: the products stay one-digit ints, the fast path). Zoot
also needs the number of different suits: a card's suit bit, OR-ed over the hand.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations_with_replacement
from math import comb
from typing import Final

from bot.engine.cards import CARDS, Card
from bot.engine.errors import InvalidHand

#: Prime of each rank 2..14 (index rank - 2); the ace is one rank whatever role it plays.
RANK_PRIMES: Final = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)

#: ``RANK_PRIME[card]``: the prime of the card's rank.
RANK_PRIME: Final[tuple[int, ...]] = tuple(RANK_PRIMES[c >> 2] for c in range(52))
#: ``SUIT_BIT[card]``: 1 << suit; the OR over a hand is its set of suits.
SUIT_BIT: Final[tuple[int, ...]] = tuple(1 << (c & 3) for c in range(52))

#: Number of five-card hands from a 52-card deck.
ALL_HANDS: Final = comb(52, 5)

RANK_ORDER: Final = range(2, 15)


def rank_multisets(size: int) -> Iterator[tuple[int, ...]]:
    """Every multiset of ``size`` ranks (2..14, ascending) with no rank more than 4 times."""
    for ranks in combinations_with_replacement(RANK_ORDER, size):
        if all(ranks[i] != ranks[i + 4] for i in range(size - 4)):
            yield ranks


def rank_product(ranks: Sequence[int]) -> int:
    p = 1
    for r in ranks:
        p *= RANK_PRIMES[r - 2]
    return p


def multiplicities(ranks: Sequence[int]) -> list[int]:
    """How many times each distinct rank occurs, largest first."""
    counts: dict[int, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    return sorted(counts.values(), reverse=True)


def hands_with_ranks(ranks: Sequence[int]) -> int:
    """Number of distinct 5-card hands (sets of cards) with exactly this rank multiset."""
    n = 1
    for m in multiplicities(ranks):
        n *= comb(4, m)
    return n


def describe(cards: Sequence[Card]) -> str:
    return " ".join(str(CARDS[c]) if 0 <= c < 52 else repr(c) for c in cards)


def not_a_hand(cards: Sequence[Card], game: str) -> InvalidHand:
    """The error for cards of the right count that form no hand (a repeated card)."""
    for c in cards:
        if not (isinstance(c, int) and 0 <= c < 52):
            return InvalidHand(f"{c!r} is not a card")
    seen: set[int] = set()
    for c in cards:
        if c in seen:
            return InvalidHand(f"{game}: the card {CARDS[c]} appears twice in {describe(cards)}")
        seen.add(c)
    return InvalidHand(f"{game}: {describe(cards)} is not a valid hand")  # pragma: no cover


def strength_table(counts: Sequence[int], total: int) -> tuple[list[float], list[int]]:
    """From per-score hand counts (index = score, ascending strength): the share of all
    hands each score beats, ties counting half, as a float and as an exact numerator over
    ``2 * total``."""
    floats: list[float] = []
    numer: list[int] = []
    below = 0
    for n in counts:
        twice = 2 * below + n
        numer.append(twice)
        floats.append(twice / (2 * total))
        below += n
    if below != total:  # pragma: no cover - a wrong table must never ship
        raise AssertionError(f"class counts add up to {below}, not {total}")
    return floats, numer
