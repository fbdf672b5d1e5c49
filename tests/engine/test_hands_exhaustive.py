"""Every one of the 2,598,960 five-card hands through the fast Zoot and Wheelers
evaluators, checked against the slow references of test_hands_reference.py.

The fast evaluators are called on every hand. The references are memoised on what RULES
says a hand's value depends on (Zoot: the ranks and the number of suits, §2.1-2.2;
Wheelers: the ranks, §3): each class is evaluated on the first real hand met. "Agree"
means the same order and the same ties: fast score -> reference key must be a bijection
that preserves order.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations
from math import comb

import pytest

from bot.engine.cards import CARDS, Card
from bot.engine.hands import wheelers_score, zoot_score
from bot.engine.hands.wheelers import wheelers_class_counts
from bot.engine.hands.zoot import zoot_class_counts
from tests.engine.test_hands_reference import (
    STANDARD_ORDER,
    wheelers_reference,
    zoot_reference,
)

ALL = comb(52, 5)


def _check_same_order(pairs: dict[int, tuple[int, ...]], what: str) -> None:
    """``pairs``: fast score -> reference key (one per score). The mapping must be
    injective and increasing: equal scores <=> equal keys, larger score <=> larger key."""
    keys = [pairs[s] for s in sorted(pairs)]
    assert len(set(keys)) == len(keys), f"{what}: two scores for one reference class"
    assert keys == sorted(keys), f"{what}: fast order differs from the reference order"


@pytest.fixture(scope="module")
def census() -> dict[str, object]:
    """One pass over all hands: per (score, class) the number of hands and a sample."""
    ws = wheelers_score
    z_count: Counter[tuple[int, tuple[int, ...], int]] = Counter()
    w_count: Counter[tuple[int, int, tuple[int, ...]]] = Counter()
    sample: dict[tuple[int, ...], tuple[Card, ...]] = {}
    for hand in combinations(CARDS, 5):
        a, b, c, d, e = hand
        ranks = (a >> 2, b >> 2, c >> 2, d >> 2, e >> 2)
        suits = len({a & 3, b & 3, c & 3, d & 3, e & 3})
        z_count[zoot_score(hand), ranks, suits] += 1
        w_count[ws(hand), ws(hand, wraparound=True), ranks] += 1
        key = (*ranks, suits)
        if key not in sample:
            sample[key] = hand
    return {"zoot": z_count, "wheelers": w_count, "sample": sample}


@pytest.mark.slow
def test_zoot_fast_agrees_with_reference_on_all_2598960_hands(census: dict) -> None:
    z_count = census["zoot"]
    sample = census["sample"]
    pairs: dict[int, tuple[int, ...]] = {}
    per_score: Counter[int] = Counter()
    per_category: Counter[str] = Counter()
    per_suits_type: Counter[tuple[int, str]] = Counter()
    for (score, ranks, suits), n in z_count.items():
        ref = zoot_reference(sample[(*ranks, suits)])
        assert pairs.setdefault(score, ref) == ref, (score, ranks, suits)
        per_score[score] += n
        per_category[STANDARD_ORDER[ref[1]]] += n
        per_suits_type[suits, STANDARD_ORDER[ref[1]]] += n
    _check_same_order(pairs, "zoot")
    assert sum(per_score.values()) == ALL
    # The combinatorial class counts behind zoot_strength equal the census.
    assert zoot_class_counts() == [per_score[s] for s in range(len(pairs))]
    # Standard poker's well-known counts, summed over the suit counts.
    assert per_category == {
        "straight flush": 40,
        "four of a kind": 624,
        "full house": 3744,
        "flush": 5108,
        "straight": 10200,
        "three of a kind": 54912,
        "two pair": 123552,
        "one pair": 1098240,
        "high card": 1302540,
    }
    # RULES §2.2's table: what is possible per number of suits.
    possible = {s: {t for (s2, t) in per_suits_type if s2 == s} for s in (1, 2, 3, 4)}
    assert possible[1] == {"straight flush", "flush"}
    assert possible[2] == {"straight", "two pair", "one pair", "high card"}
    assert possible[3] == {
        "full house",
        "straight",
        "three of a kind",
        "two pair",
        "one pair",
        "high card",
    }
    assert possible[4] == possible[3] | {"four of a kind"}
    assert per_suits_type[1, "flush"] + per_suits_type[1, "straight flush"] == 4 * comb(13, 5)


@pytest.mark.slow
@pytest.mark.parametrize("wraparound", [False, True], ids=["corner_off", "corner_on"])
def test_wheelers_fast_agrees_with_reference_on_all_2598960_hands(
    census: dict, wraparound: bool
) -> None:
    w_count = census["wheelers"]
    sample = census["sample"]
    by_ranks: dict[tuple[int, ...], tuple[Card, ...]] = {}
    for key, hand in sample.items():
        by_ranks.setdefault(key[:5], hand)
    pairs: dict[int, tuple[int, ...]] = {}
    per_score: Counter[int] = Counter()
    per_type: Counter[int] = Counter()
    refs: dict[tuple[int, ...], tuple[int, ...]] = {}
    for (plain, wrap, ranks), n in w_count.items():
        score = wrap if wraparound else plain
        ref = refs.get(ranks)
        if ref is None:
            ref = refs[ranks] = wheelers_reference(by_ranks[ranks], wraparound=wraparound)
        assert pairs.setdefault(score, ref) == ref, (score, ranks)
        per_score[score] += n
        per_type[-ref[0]] += n
    _check_same_order(pairs, "wheelers")
    assert sum(per_score.values()) == ALL
    assert wheelers_class_counts(wraparound=wraparound) == [per_score[s] for s in range(len(pairs))]
    assert sorted(per_type) == list(range(1, 9))
    assert per_type[1] == 4**5  # the Wheel: A-2-3-4-5 in any suits
    # Five-card straights 2-6 .. T-A (9 of them), plus J-A-2, Q-A-3, K-A-4 around the corner.
    assert per_type[2] == (12 if wraparound else 9) * 4**5
