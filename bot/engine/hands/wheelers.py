"""Wheelers ranking (RULES §3): hands ranked by the straights they contain.

A Wheelers hand's value depends only on its rank multiset. Instead of searching every way
to split each hand into straights, the table is built the other way round: every possible
*reading* (a set of straights plus odd cards, §3.1) is generated once, its rank multiset is
computed, and each multiset keeps its best reading. The tests check this against a direct
search over all partitions of every one of the 2,598,960 hands.

Key of a reading (larger is better): ``(-type, straight tops by length then top, odd cards
high to low)`` (§3.4); the Wheel's key is just ``(-1,)``. A straight's top is its highest
card; an ace-low straight (A-2-3) tops at its high card (3); with ``wraparound`` a straight
turning the corner tops at the last card reached going up through the ace (K-A-2 is "two
high", §3.3). An odd ace counts high (§3.2).

>>> from bot.engine.cards import parse_cards
>>> wheelers_type(parse_cards("7s 7d 8h 8c 9d"))
4
>>> wheelers_name(parse_cards("Qd Kh Ac 2s 3d"))
'three-card straight Q-K-A and two-card straight 2-3'
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from itertools import combinations_with_replacement
from typing import Final

from bot.engine.cards import RANK_CHARS, Card
from bot.engine.errors import InvalidHand
from bot.engine.hands._tables import (
    ALL_HANDS,
    RANK_PRIME,
    RANK_PRIMES,
    hands_with_ranks,
    not_a_hand,
    rank_multisets,
    rank_product,
    strength_table,
)

WHEEL, FIVE, FOUR_ONE, THREE_TWO, THREE_ONE_ONE, TWO_TWO_ONE, TWO_ONE, HIGH = range(1, 9)

#: Type of each shape (straight lengths, longest first).
_TYPE_OF_SHAPE: Final = {
    (4, 1): FOUR_ONE,
    (3, 2): THREE_TWO,
    (3, 1, 1): THREE_ONE_ONE,
    (2, 2, 1): TWO_TWO_ONE,
    (2, 1, 1, 1): TWO_ONE,
    (1, 1, 1, 1, 1): HIGH,
}

WheelersKey = tuple[int, ...]

# A straight: (top, ranks with the ace as 14). Tops are unique per length and setting.
_Run = tuple[int, tuple[int, ...]]


def _runs(length: int, wraparound: bool) -> list[_Run]:
    """Every straight of ``length`` cards (length >= 2)."""
    runs: list[_Run] = []
    # Positions 1..14, where 1 and 14 are both the ace (§3.2: ace high or low).
    for top in range(length, 15):
        ranks = tuple(14 if p == 1 else p for p in range(top - length + 1, top + 1))
        runs.append((top, ranks))
    if wraparound:
        # Turning the corner: K-A-2 ... ; the top is the last card after the ace (§3.3).
        for top in range(2, length):  # at least the K, the A and the 2
            below_ace = length - top  # cards from the king down
            ranks = tuple(range(14 - below_ace, 15)) + tuple(range(2, top + 1))
            runs.append((top, ranks))
    return runs


def _readings(wraparound: bool) -> Iterator[tuple[WheelersKey, tuple[int, ...]]]:
    """Every reading's key and its ranks (unsorted; may hold a rank more than 4 times)."""
    for top, ranks in _runs(5, wraparound):
        yield ((-WHEEL,) if set(ranks) == {14, 2, 3, 4, 5} else (-FIVE, top)), ranks
    odd_ranks = range(14, 1, -1)
    for shape, kind in _TYPE_OF_SHAPE.items():
        lengths = [n for n in shape if n > 1]
        n_odd = len(shape) - len(lengths)
        run_choices: list[list[tuple[_Run, ...]]] = []
        # Straights of equal length: unordered choices (higher top first).
        distinct_lengths = sorted(set(lengths), reverse=True)
        for length in distinct_lengths:
            k = lengths.count(length)
            options = sorted(_runs(length, wraparound), reverse=True)
            run_choices.append(list(combinations_with_replacement(options, k)))
        for odds in combinations_with_replacement(odd_ranks, n_odd):
            for combo in _product(run_choices):
                tops = tuple(run[0] for group in combo for run in group)
                ranks = tuple(r for group in combo for run in group for r in run[1]) + odds
                yield (-kind, *tops, *odds), ranks


def _product(choices: list[list[tuple[_Run, ...]]]) -> Iterator[list[tuple[_Run, ...]]]:
    if not choices:
        yield []
        return
    for first in choices[0]:
        for rest in _product(choices[1:]):
            yield [first, *rest]


@dataclass
class _Table:
    score: dict[int, int] = field(default_factory=dict)  # rank product -> score
    keys: list[WheelersKey] = field(default_factory=list)  # score -> key
    counts: list[int] = field(default_factory=list)  # score -> number of hands
    strength: list[float] = field(default_factory=list)
    numer: list[int] = field(default_factory=list)


_PLAIN: Final = _Table()
_WRAP: Final = _Table()


def _build(table: _Table, wraparound: bool) -> None:
    best: dict[int, WheelersKey] = {}
    for key, ranks in _readings(wraparound):
        product = 1
        for r in ranks:
            product *= RANK_PRIMES[r - 2]
        old = best.get(product)
        if old is None or key > old:
            best[product] = key
    classes: dict[WheelersKey, int] = {}
    by_product: dict[int, WheelersKey] = {}
    for ranks in rank_multisets(5):
        product = rank_product(ranks)
        key = best[product]
        by_product[product] = key
        classes[key] = classes.get(key, 0) + hands_with_ranks(ranks)
    ordered = sorted(classes)
    score_of = {key: score for score, key in enumerate(ordered)}
    strengths, numer = strength_table([classes[k] for k in ordered], ALL_HANDS)
    table.keys.extend(ordered)
    table.counts.extend(classes[k] for k in ordered)
    table.strength.extend(strengths)
    table.numer.extend(numer)
    table.score.update({p: score_of[k] for p, k in by_product.items()})


def _table(wraparound: bool) -> _Table:
    table = _WRAP if wraparound else _PLAIN
    if not table.score:
        _build(table, wraparound)
    return table


def wheelers_score(cards: Sequence[Card], *, wraparound: bool = False) -> int:
    """Score of a 5-card Wheelers hand: higher is better, equal scores tie.

    Scores of the two ``wraparound`` settings are separate scales: compare like with like.
    """
    if len(cards) != 5:
        raise InvalidHand(f"Wheelers hands have exactly 5 cards, got {len(cards)}")
    a, b, c, d, e = cards
    try:
        return (_WRAP if wraparound else _PLAIN).score[
            RANK_PRIME[a] * RANK_PRIME[b] * RANK_PRIME[c] * RANK_PRIME[d] * RANK_PRIME[e]
        ]
    except (KeyError, IndexError, TypeError):
        return _miss(cards, wraparound)


def _miss(cards: Sequence[Card], wraparound: bool) -> int:
    table = _WRAP if wraparound else _PLAIN
    if not table.score:
        _build(table, wraparound)
        return wheelers_score(cards, wraparound=wraparound)
    raise not_a_hand(cards, "Wheelers")


def wheelers_key(score: int, *, wraparound: bool = False) -> WheelersKey:
    return _table(wraparound).keys[score]


def wheelers_class_counts(*, wraparound: bool = False) -> list[int]:
    return list(_table(wraparound).counts)


def wheelers_strength_numerator(score: int, *, wraparound: bool = False) -> int:
    return _table(wraparound).numer[score]


def wheelers_type_of_score(score: int, *, wraparound: bool = False) -> int:
    return -wheelers_key(score, wraparound=wraparound)[0]


def wheelers_type(cards: Sequence[Card], *, wraparound: bool = False) -> int:
    """1 (the Wheel, best) .. 8 (high card), as in the table of RULES §3."""
    score = wheelers_score(cards, wraparound=wraparound)
    return wheelers_type_of_score(score, wraparound=wraparound)


def wheelers_strength(cards: Sequence[Card], *, wraparound: bool = False) -> float:
    """Share of all 2,598,960 hands this hand beats, ties counting half."""
    score = wheelers_score(cards, wraparound=wraparound)
    return _table(wraparound).strength[score]


def _run_text(length: int, top: int) -> str:
    """The cards of a straight from its length and top, lowest first: "Q-K-A", "K-A-2"."""
    ranks = []
    for i in range(length - 1, -1, -1):
        r = top - i
        if r < 2:
            r += 13  # below the two: the ace (1 -> 14), then the king, queen...
        ranks.append(RANK_CHARS[r - 2])
    return "-".join(ranks)


_LENGTH_WORDS: Final = {2: "two", 3: "three", 4: "four", 5: "five"}


def wheelers_name_of_score(score: int, *, wraparound: bool = False) -> str:
    key = wheelers_key(score, wraparound=wraparound)
    kind = -key[0]
    if kind == WHEEL:
        return "the Wheel"
    lengths = {
        FIVE: (5,),
        FOUR_ONE: (4,),
        THREE_TWO: (3, 2),
        THREE_ONE_ONE: (3,),
        TWO_TWO_ONE: (2, 2),
        TWO_ONE: (2,),
        HIGH: (),
    }[kind]
    tops = key[1 : 1 + len(lengths)]
    odds = [RANK_CHARS[r - 2] for r in key[1 + len(lengths) :]]
    if kind == HIGH:
        return "high card " + "-".join(odds)
    parts = [
        f"{_LENGTH_WORDS[n]}-card straight {_run_text(n, t)}"
        for n, t in zip(lengths, tops, strict=True)
    ]
    text = " and ".join(parts)
    if odds:
        text += f" and odd card{'s' if len(odds) > 1 else ''} " + ", ".join(odds)
    return text


def wheelers_name(cards: Sequence[Card], *, wraparound: bool = False) -> str:
    """How the hand was read, e.g. "three-card straight Q-K-A and two-card straight 2-3"."""
    score = wheelers_score(cards, wraparound=wraparound)
    return wheelers_name_of_score(score, wraparound=wraparound)
