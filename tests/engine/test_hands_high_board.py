"""Seven-card Stud's opener order (the highest showing hand acts first from 4th street)
against pokerkit's FixedLimitSevenCardStud opener lookup."""

from __future__ import annotations

import random

import pytest

from bot.engine.cards import CARDS, parse_cards
from bot.engine.errors import InvalidHand
from bot.engine.hands.high_board import high_board_key


def test_stud_board_pair_beats_high_cards_and_higher_pair_first() -> None:
    k = high_board_key
    assert k(parse_cards("2s 2d")) > k(parse_cards("As Kd"))
    assert k(parse_cards("3s 3d 2h 4c")) > k(parse_cards("2s 2d Ah Kc"))
    assert k(parse_cards("2s 2d 3h 3c")) > k(parse_cards("As Ad Kh Qc"))  # two pair
    assert k(parse_cards("2s 2d 2h")) > k(parse_cards("As Ad Kh"))  # trips
    assert k(parse_cards("As Kd Qh")) > k(parse_cards("As Kd Jh"))  # high cards, top down
    assert k(parse_cards("9s Th Jh Qh")) < k(parse_cards("2s 2h 3c 4d"))  # no straights
    assert k(parse_cards("7s 2d")) == k(parse_cards("2h 7c"))  # suits never


def test_stud_board_refuses_bad_boards() -> None:
    with pytest.raises(InvalidHand):
        high_board_key([])
    with pytest.raises(InvalidHand, match="appears twice"):
        high_board_key([CARDS[0], CARDS[0]])


def test_stud_board_order_is_pokerkits_opener_order() -> None:
    from pokerkit.state import _HighHandOpeningLookup  # the FixedLimitSevenCardStud order

    lookup = _HighHandOpeningLookup()
    rng = random.Random(7)
    for _ in range(3000):
        n = rng.randint(1, 4)
        a, b = rng.sample(CARDS, n), rng.sample(CARDS, n)
        pa = lookup.get_entry("".join(str(c) for c in a))
        pb = lookup.get_entry("".join(str(c) for c in b))
        ka, kb = high_board_key(a), high_board_key(b)
        assert (ka < kb) == (pa < pb) and (ka == kb) == (pa == pb), (a, b)
