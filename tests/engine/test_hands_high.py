"""Standard high (5 to 7 cards, Omaha 2+3) against a slow textbook reference and pokerkit.

The reference shares nothing with bot.engine.hands.high: it classifies five cards the
textbook way and takes the best over every allowed five-card combination. Five cards are
checked on all 2,598,960 hands; seven cards and Omaha on seeded random hands, also against
pokerkit's StandardHighHand / OmahaHoldemHand.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from itertools import combinations

import pytest
from pokerkit import OmahaHoldemHand, StandardHighHand

from bot.engine.cards import CARDS, Card, parse_cards
from bot.engine.errors import InvalidHand
from bot.engine.hands.high import (
    best_high,
    best_omaha_high,
    high_key,
    high_name,
    high_score,
    omaha_high_score,
)

ORDER = (
    "high card",
    "one pair",
    "two pair",
    "three of a kind",
    "straight",
    "flush",
    "full house",
    "four of a kind",
    "straight flush",
)


def reference5(cards: Sequence[Card]) -> tuple[int, ...]:
    """(category index, tie-break ranks): larger is better."""
    assert len(cards) == 5 and len(set(cards)) == 5
    ranks = sorted((c.rank for c in cards), reverse=True)
    counts = Counter(ranks)
    shape = sorted(counts.values(), reverse=True)
    flush = len({c.suit for c in cards}) == 1
    top = 0
    if len(counts) == 5:
        if ranks[0] - ranks[4] == 4:
            top = ranks[0]
        elif ranks == [14, 5, 4, 3, 2]:
            top = 5
    grouped = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    if top and flush:
        return (ORDER.index("straight flush"), top)
    if shape == [4, 1]:
        return (ORDER.index("four of a kind"), *grouped)
    if shape == [3, 2]:
        return (ORDER.index("full house"), *grouped)
    if flush:
        return (ORDER.index("flush"), *ranks)
    if top:
        return (ORDER.index("straight"), top)
    if shape == [3, 1, 1]:
        return (ORDER.index("three of a kind"), *grouped)
    if shape == [2, 2, 1]:
        return (ORDER.index("two pair"), *grouped)
    if shape == [2, 1, 1, 1]:
        return (ORDER.index("one pair"), *grouped)
    return (0, *ranks)


def reference_best(cards: Sequence[Card]) -> tuple[int, ...]:
    return max(reference5(five) for five in combinations(cards, 5))


def reference_omaha(hole: Sequence[Card], board: Sequence[Card]) -> tuple[int, ...]:
    return max(
        reference5([*two, *three])
        for two in combinations(hole, 2)
        for three in combinations(board, 3)
    )


def _same_order(pairs: dict[int, tuple[int, ...]]) -> None:
    keys = [pairs[s] for s in sorted(pairs)]
    assert len(set(keys)) == len(keys), "two scores for one reference class"
    assert keys == sorted(keys), "score order differs from the reference order"


def _pk(cards: Sequence[Card]) -> str:
    return "".join(str(c) for c in cards)


@pytest.mark.slow
def test_high_five_cards_agrees_with_reference_on_all_2598960_hands() -> None:
    census: Counter[tuple[int, tuple[int, ...], bool]] = Counter()
    sample: dict[tuple[tuple[int, ...], bool], tuple[Card, ...]] = {}
    score = high_score
    for hand in combinations(CARDS, 5):
        a, b, c, d, e = hand
        ranks = (a >> 2, b >> 2, c >> 2, d >> 2, e >> 2)
        flush = (a & 3) == (b & 3) == (c & 3) == (d & 3) == (e & 3)
        census[score(hand), ranks, flush] += 1
        sample.setdefault((ranks, flush), hand)
    pairs: dict[int, tuple[int, ...]] = {}
    per_category: Counter[str] = Counter()
    for (s, ranks, flush), n in census.items():
        ref = reference5(sample[ranks, flush])
        assert pairs.setdefault(s, ref) == ref, (s, ranks, flush)
        per_category[ORDER[ref[0]]] += n
    _same_order(pairs)
    assert sorted(pairs) == list(range(1, 7463))  # dense: 7,462 distinct hand values
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
    # high_key reads a score back as (category, tie-break ranks) in the same order.
    assert all(high_key(s)[0] == pairs[s][0] for s in pairs)


def test_high_seven_cards_agrees_with_best_of_21_reference_on_20000_random_hands() -> None:
    rng = random.Random(13)
    pairs: dict[int, tuple[int, ...]] = {}
    for _ in range(20_000):
        hand = rng.sample(CARDS, rng.choice((5, 6, 7, 7, 7)))
        ref = reference_best(hand)
        s = high_score(hand)
        assert pairs.setdefault(s, ref) == ref, hand
    _same_order(pairs)


def test_high_seven_cards_flush_heavy_hands_agree_with_reference() -> None:
    """Five to seven cards of one suit: straight flushes, flushes beside pairs and trips."""
    rng = random.Random(5)
    pairs: dict[int, tuple[int, ...]] = {}
    for _ in range(5_000):
        suit = rng.randrange(4)
        suited = rng.sample([c for c in CARDS if c.suit == suit], rng.randint(5, 7))
        rest = rng.sample([c for c in CARDS if c not in suited], 7 - len(suited))
        hand = suited + rest
        rng.shuffle(hand)
        ref = reference_best(hand)
        assert pairs.setdefault(high_score(hand), ref) == ref, hand
    _same_order(pairs)


def test_high_seven_cards_orders_like_pokerkit_on_5000_random_pairs() -> None:
    rng = random.Random(7)
    for _ in range(5_000):
        cards = rng.sample(CARDS, 9)
        board, a, b = cards[:5], cards[5:7], cards[7:]
        ours = high_score([*a, *board]) - high_score([*b, *board])
        pa = StandardHighHand.from_game(_pk(a), _pk(board))
        pb = StandardHighHand.from_game(_pk(b), _pk(board))
        theirs = (pa > pb) - (pa < pb)
        assert (ours > 0) - (ours < 0) == theirs, (a, b, board)


def test_omaha_high_agrees_with_reference_on_5000_random_hands() -> None:
    rng = random.Random(11)
    pairs: dict[int, tuple[int, ...]] = {}
    for i in range(5_000):
        if i % 2:  # every other board is flush-heavy: three or more of one suit
            suit = rng.randrange(4)
            board = rng.sample([c for c in CARDS if c.suit == suit], rng.randint(3, 5))
            board += rng.sample([c for c in CARDS if c not in board], 5 - len(board))
            hole = rng.sample([c for c in CARDS if c not in board], 4)
        else:
            cards = rng.sample(CARDS, 4 + rng.choice((3, 4, 5)))
            hole, board = cards[:4], cards[4:]
        ref = reference_omaha(hole, board)
        assert pairs.setdefault(omaha_high_score(hole, board), ref) == ref, (hole, board)
    _same_order(pairs)


def test_omaha_high_orders_like_pokerkit_on_1000_random_pairs() -> None:
    rng = random.Random(3)
    for _ in range(1_000):
        cards = rng.sample(CARDS, 13)
        board, a, b = cards[:5], cards[5:9], cards[9:]
        ours = omaha_high_score(a, board) - omaha_high_score(b, board)
        pa = OmahaHoldemHand.from_game(_pk(a), _pk(board))
        pb = OmahaHoldemHand.from_game(_pk(b), _pk(board))
        assert (ours > 0) - (ours < 0) == (pa > pb) - (pa < pb), (a, b, board)


def test_omaha_must_use_exactly_two_hole_cards_four_hearts_in_hand_is_no_flush() -> None:
    hole, board = parse_cards("Ah Kh Qh Jh"), parse_cards("2h 3c 7d 9s Td")
    assert high_name(omaha_high_score(hole, board)) == "high card ace"
    # Four to a flush on the board plays only three of them: a pair of aces, not a flush.
    hole, board = parse_cards("As Ad 2c 3c"), parse_cards("4h 7h 9h Jh Kd")
    assert high_name(omaha_high_score(hole, board)) == "pair of aces"


def test_wheel_is_five_high_straight_and_lowest_straight() -> None:
    wheel = high_score(parse_cards("Ah 2d 3c 4s 5h 9c 9d"))
    assert high_name(wheel) == "straight, five high"
    assert wheel < high_score(parse_cards("2d 3c 4s 5h 6h"))
    assert wheel > high_score(parse_cards("Ah Ad Ac Ks Qh"))


def test_best_five_cards_played() -> None:
    assert {str(c) for c in best_high(parse_cards("As Ks 2d 2c 7h 7d Qs"))} == {
        "As",
        "2d",
        "2c",
        "7h",
        "7d",
    }
    played = best_omaha_high(parse_cards("Ah Kh Qd Jd"), parse_cards("2h 3h 4h 9s 9c"))
    assert [str(c) for c in played] == ["Ah", "Kh", "2h", "3h", "4h"]


def test_high_wrong_card_count_or_repeated_card_is_invalid_hand() -> None:
    with pytest.raises(InvalidHand):
        high_score(parse_cards("As Ks Qs Js"))
    with pytest.raises(InvalidHand):
        high_score([CARDS[0]] * 5)
    with pytest.raises(InvalidHand):
        omaha_high_score(parse_cards("As"), parse_cards("2c 3c 4c"))
