"""Eight-or-better low (5 to 7 cards, Omaha 2+3) against a slow reference and pokerkit.

The reference tries every allowed five-card combination, keeps those of five different
ranks all eight or lower (ace low) and compares them from the highest card down.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations

import pytest
from pokerkit import EightOrBetterLowHand, OmahaEightOrBetterLowHand

from bot.engine.cards import CARDS, Card, parse_cards
from bot.engine.errors import InvalidHand
from bot.engine.hands.low8 import low8_name, low8_ranks, low8_score, omaha_low8_score


def _reference5(five: Sequence[Card]) -> tuple[int, ...] | None:
    """Negated ranks highest first (larger = better low), or None if it does not qualify."""
    ranks = sorted((c.low_rank for c in five), reverse=True)
    if len(set(ranks)) != 5 or ranks[0] > 8:
        return None
    return tuple(-r for r in ranks)


def reference(cards: Sequence[Card]) -> tuple[int, ...] | None:
    keys = [k for f in combinations(cards, 5) if (k := _reference5(f)) is not None]
    return max(keys, default=None)


def reference_omaha(hole: Sequence[Card], board: Sequence[Card]) -> tuple[int, ...] | None:
    keys = [
        k
        for two in combinations(hole, 2)
        for three in combinations(board, 3)
        if (k := _reference5([*two, *three])) is not None
    ]
    return max(keys, default=None)


def _check(pairs: dict[int | None, tuple[int, ...] | None]) -> None:
    assert (None in pairs) == (None in pairs.values()) and pairs.get(None) is None
    scored = sorted(s for s in pairs if s is not None)
    keys = [pairs[s] for s in scored]
    assert len(set(keys)) == len(keys)
    assert keys == sorted(keys)  # type: ignore[type-var]


def _pk(cards: Sequence[Card]) -> str:
    return "".join(str(c) for c in cards)


@pytest.mark.slow
def test_low8_five_cards_agrees_with_reference_on_all_2598960_hands() -> None:
    seen: dict[tuple[int, ...], int | None] = {}
    for hand in combinations(CARDS, 5):
        s = low8_score(hand)
        key = tuple(sorted(c >> 2 for c in hand))
        if key not in seen:
            seen[key] = s
            ref = _reference5(hand)
            assert (s is None) == (ref is None), hand
            if s is not None:
                assert tuple(-r for r in low8_ranks(s)) == ref
        else:
            assert seen[key] == s  # suits never matter
    assert len({s for s in seen.values() if s is not None}) == 56


def test_low8_seven_cards_agrees_with_reference_on_20000_random_hands() -> None:
    rng = random.Random(8)
    pairs: dict[int | None, tuple[int, ...] | None] = {}
    low_cards = [c for c in CARDS if c.low_rank <= 8]
    for i in range(20_000):
        n = rng.choice((5, 6, 7))
        # Half the hands drawn mostly from low cards, so qualifying lows are common.
        pool = low_cards if i % 2 else CARDS
        hand = rng.sample(pool, n)
        ref = reference(hand)
        assert pairs.setdefault(low8_score(hand), ref) == ref, hand
    _check(pairs)
    assert len(pairs) == 57  # all 56 lows met, and "no low"


def test_omaha_low8_agrees_with_reference_on_20000_random_hands() -> None:
    rng = random.Random(9)
    pairs: dict[int | None, tuple[int, ...] | None] = {}
    low_cards = [c for c in CARDS if c.low_rank <= 8]
    for i in range(20_000):
        pool = low_cards + rng.sample(CARDS, 10) if i % 2 else CARDS
        cards = rng.sample(sorted(set(pool)), 4 + rng.choice((3, 4, 5)))
        hole, board = cards[:4], cards[4:]
        ref = reference_omaha(hole, board)
        assert pairs.setdefault(omaha_low8_score(hole, board), ref) == ref, (hole, board)
    _check(pairs)


def test_low8_orders_like_pokerkit_on_random_hands() -> None:
    rng = random.Random(4)
    low_cards = [c for c in CARDS if c.low_rank <= 8]
    for _ in range(2_000):
        cards = rng.sample(low_cards, 6) + rng.sample([c for c in CARDS if c.low_rank > 8], 3)
        rng.shuffle(cards)
        board, a, b = cards[:5], cards[5:7], cards[7:]
        sa, sb = low8_score([*a, *board]), low8_score([*b, *board])
        pa = _pk_low(EightOrBetterLowHand, a, board)
        pb = _pk_low(EightOrBetterLowHand, b, board)
        _same_outcome(sa, sb, pa, pb)


def test_omaha_low8_orders_like_pokerkit_on_random_hands() -> None:
    rng = random.Random(6)
    low_cards = [c for c in CARDS if c.low_rank <= 8]
    for _ in range(1_000):
        cards = rng.sample(low_cards, 9) + rng.sample([c for c in CARDS if c.low_rank > 8], 4)
        rng.shuffle(cards)
        board, a, b = cards[:5], cards[5:9], cards[9:]
        sa, sb = omaha_low8_score(a, board), omaha_low8_score(b, board)
        pa = _pk_low(OmahaEightOrBetterLowHand, a, board)
        pb = _pk_low(OmahaEightOrBetterLowHand, b, board)
        _same_outcome(sa, sb, pa, pb)


def _pk_low(cls: type, hole: Sequence[Card], board: Sequence[Card]) -> object | None:
    try:
        return cls.from_game(_pk(hole), _pk(board))  # type: ignore[no-any-return]
    except ValueError:  # pokerkit: no qualifying low
        return None


def _same_outcome(sa: int | None, sb: int | None, pa: object, pb: object) -> None:
    assert (sa is None) == (pa is None) and (sb is None) == (pb is None)
    if sa is not None and sb is not None:
        ours = (sa > sb) - (sa < sb)
        theirs = (pa > pb) - (pa < pb)  # type: ignore[operator]
        assert ours == theirs


def test_low8_straights_and_flushes_do_not_count_against_the_low() -> None:
    assert low8_name(low8_score(parse_cards("Ah 2h 3h 4h 5h"))) == "5-4-3-2-A"


def test_low8_pairs_do_not_qualify_and_nine_does_not_qualify() -> None:
    assert low8_score(parse_cards("Ah Ad 2c 3c 4c")) is None
    assert low8_score(parse_cards("9h 2d 3c 4c 5c")) is None
    assert low8_name(None) == "no low"


def test_omaha_low8_needs_two_different_low_hole_cards() -> None:
    board = parse_cards("2c 3d 4h Kc Qd")
    assert omaha_low8_score(parse_cards("Ah Ad Ks Kd"), board) is None
    assert low8_name(omaha_low8_score(parse_cards("Ah 5d Ks Kd"), board)) == "5-4-3-2-A"
    # Three low board cards are needed: only two here.
    assert omaha_low8_score(parse_cards("Ah 5d 6s 7d"), parse_cards("2c 3d Kh Kc Qd")) is None


def test_low8_wrong_card_count_is_invalid_hand() -> None:
    with pytest.raises(InvalidHand):
        low8_score(parse_cards("Ah 2d 3c 4s"))
    with pytest.raises(InvalidHand):
        omaha_low8_score(parse_cards("Ah 2d 3c 4s"), parse_cards("5h 6h"))
