"""Zoot ranking (RULES §2): fewer suits beat more; then standard poker order.

The value of a hand depends only on its rank multiset and its number of different suits,
so the table is built from the 6,175 rank multisets (x suit counts), never from the
2,598,960 hands. Scores are dense: 0 is the worst hand, equal scores tie.

>>> from bot.engine.cards import parse_cards
>>> zoot_score(parse_cards("9s 8s 6s 3s 2s")) > zoot_score(parse_cards("Kh Kd Kc 7h 7d"))
True
>>> zoot_name(parse_cards("9s 8s 6s 3s 2s"))
'one-suited flush, nine high'
"""

from __future__ import annotations

from collections.abc import Sequence
from math import comb
from typing import Final

from bot.engine.cards import RANK_NAMES, RANK_PLURALS, Card
from bot.engine.errors import InvalidHand
from bot.engine.hands._tables import (
    ALL_HANDS,
    RANK_PRIME,
    SUIT_BIT,
    multiplicities,
    not_a_hand,
    rank_multisets,
    rank_product,
    strength_table,
)

# Standard poker categories (higher is better).
HIGH_CARD, ONE_PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)

#: Standard key of a hand: (number of suits, category, tie-break ranks...); see _key.
ZootKey = tuple[int, ...]

#: product of RANK_PRIME over the hand -> score per suit mask (OR of SUIT_BIT, 1..15).
#: A dict of 6,175 small tuples, filled on first use. (One product of rank*suit primes
#: would save the suit lookups but needs 282k entries and two-digit ints: slower.)
_SCORE: Final[dict[int, tuple[int, ...]]] = {}
_POPCOUNT: Final = tuple(bin(m).count("1") for m in range(16))
#: score -> key (for names) and score -> number of hands (for strengths).
_KEYS: Final[list[ZootKey]] = []
_COUNTS: Final[list[int]] = []
_STRENGTH: Final[list[float]] = []
_STRENGTH_NUMER: Final[list[int]] = []

_SUIT_WORDS: Final = {1: "one", 2: "two", 3: "three", 4: "four"}


def _standard(ranks: Sequence[int], suited: bool) -> tuple[int, ...]:
    """(category, tie-break ranks) as in standard poker; ``suited`` = all one suit."""
    counts: dict[int, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    grouped = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    if len(counts) == 5:
        high = sorted(ranks, reverse=True)
        top = 0
        if high[0] - high[4] == 4:
            top = high[0]
        elif high == [14, 5, 4, 3, 2]:
            top = 5  # A-2-3-4-5 is the five-high straight
        if top:
            return (STRAIGHT_FLUSH if suited else STRAIGHT, top)
        return (FLUSH if suited else HIGH_CARD, *high)
    pattern = tuple(sorted(counts.values(), reverse=True))
    category = {
        (2, 1, 1, 1): ONE_PAIR,
        (2, 2, 1): TWO_PAIR,
        (3, 1, 1): TRIPS,
        (3, 2): FULL_HOUSE,
        (4, 1): QUADS,
    }[pattern]
    return (category, *grouped)


def _key(ranks: Sequence[int], suits: int) -> ZootKey:
    """Fewer suits first (negated so that a larger key is a better hand)."""
    return (-suits, *_standard(ranks, suits == 1))


def _hands_with(ranks: Sequence[int], suits: int) -> int:
    """Hands with this rank multiset using exactly ``suits`` different suits.

    Inclusion-exclusion over the suits that may be used: with ``i`` allowed suits a rank
    held ``m`` times has comb(i, m) choices.
    """
    mults = multiplicities(ranks)
    exact = 0
    for i in range(suits + 1):
        ways = 1
        for m in mults:
            ways *= comb(i, m)
        exact += (-1) ** (suits - i) * comb(suits, i) * ways
    return comb(4, suits) * exact


def _build() -> None:
    classes: dict[ZootKey, int] = {}
    by_multiset: list[tuple[tuple[int, ...], dict[int, ZootKey]]] = []
    for ranks in rank_multisets(5):
        top = max(multiplicities(ranks))
        keys: dict[int, ZootKey] = {}
        for suits in range(max(top, 1), 5):
            n = _hands_with(ranks, suits)
            if n:
                key = _key(ranks, suits)
                keys[suits] = key
                classes[key] = classes.get(key, 0) + n
        by_multiset.append((ranks, keys))
    ordered = sorted(classes)
    score_of = {key: score for score, key in enumerate(ordered)}
    table: dict[int, tuple[int, ...]] = {}
    for ranks, keys in by_multiset:
        # Any set of k suits can hold this multiset when k is a valid suit count (the
        # suits are interchangeable); the other masks cannot occur with distinct cards.
        table[rank_product(ranks)] = tuple(
            score_of[keys[_POPCOUNT[mask]]] if _POPCOUNT[mask] in keys else -1 for mask in range(16)
        )
    strengths, numer = strength_table([classes[k] for k in ordered], ALL_HANDS)
    _KEYS.extend(ordered)
    _COUNTS.extend(classes[k] for k in ordered)
    _STRENGTH.extend(strengths)
    _STRENGTH_NUMER.extend(numer)
    _SCORE.update(table)  # last: a non-empty _SCORE means everything is ready


def _ensure() -> None:
    if not _SCORE:
        _build()


def _miss(cards: Sequence[Card]) -> int:
    if not _SCORE:
        _build()
        return zoot_score(cards)
    raise not_a_hand(cards, "Zoot")


def zoot_score(cards: Sequence[Card]) -> int:
    """Score of a 5-card Zoot hand: higher is better, equal scores tie."""
    if len(cards) != 5:
        raise InvalidHand(f"Zoot hands have exactly 5 cards, got {len(cards)}")
    a, b, c, d, e = cards
    try:
        p = RANK_PRIME
        s = SUIT_BIT
        score = _SCORE[p[a] * p[b] * p[c] * p[d] * p[e]][s[a] | s[b] | s[c] | s[d] | s[e]]
    except (KeyError, IndexError, TypeError):
        return _miss(cards)
    if score < 0:
        raise not_a_hand(cards, "Zoot")
    return score


def zoot_key(score: int) -> ZootKey:
    """The key a score stands for: (-suits, category, tie-break ranks...)."""
    _ensure()
    return _KEYS[score]


def zoot_class_counts() -> list[int]:
    """Number of 5-card hands per score (index = score)."""
    _ensure()
    return list(_COUNTS)


def zoot_strength(cards: Sequence[Card]) -> float:
    """Share of all 2,598,960 hands this hand beats, ties counting half."""
    return _STRENGTH[zoot_score(cards)]


def zoot_strength_numerator(score: int) -> int:
    """``2 * ALL_HANDS * strength`` as an exact integer (for exact comparisons)."""
    _ensure()
    return _STRENGTH_NUMER[score]


def zoot_name_of_score(score: int) -> str:
    key = zoot_key(score)
    suits, category, ranks = -key[0], key[1], key[2:]
    word = f"{_SUIT_WORDS[suits]}-suited"
    top = RANK_NAMES[ranks[0]]
    if category == STRAIGHT_FLUSH:
        kind = "royal flush" if ranks[0] == 14 else f"straight flush, {top} high"
    elif category == FLUSH:
        kind = f"flush, {top} high"
    elif category == STRAIGHT:
        kind = f"straight, {top} high"
    elif category == QUADS:
        kind = f"four of a kind, {RANK_PLURALS[ranks[0]]}"
    elif category == FULL_HOUSE:
        kind = f"full house, {RANK_PLURALS[ranks[0]]} over {RANK_PLURALS[ranks[1]]}"
    elif category == TRIPS:
        kind = f"three of a kind, {RANK_PLURALS[ranks[0]]}"
    elif category == TWO_PAIR:
        kind = f"two pair, {RANK_PLURALS[ranks[0]]} and {RANK_PLURALS[ranks[1]]}"
    elif category == ONE_PAIR:
        kind = f"one pair, {RANK_PLURALS[ranks[0]]}"
    else:
        kind = f"high card, {top}"
    return f"{word} {kind}"


def zoot_name(cards: Sequence[Card]) -> str:
    """E.g. "two-suited straight, queen high", "three-suited full house, kings over sevens"."""
    return zoot_name_of_score(zoot_score(cards))
