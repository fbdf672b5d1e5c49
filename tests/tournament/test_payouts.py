"""Issue 20 item 5 (payouts and bounties): the standard table by field size, every method
paying the prize pool exactly in whole chips, shared places, knockout bounties."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournament.payouts import (
    PAYOUT_METHODS,
    PayoutMethod,
    pay_finishes,
    payout_shares,
    places_paid,
    prizes,
    split_bounty,
)
from bot.tournament.places import Finish


@pytest.mark.parametrize(
    ("entries", "percent"),
    [
        (2, (100,)), (3, (100,)), (4, (65, 35)), (6, (65, 35)), (7, (50, 30, 20)),
        (10, (50, 30, 20)), (11, (45, 27, 17, 11)), (20, (45, 27, 17, 11)),
        (21, (38, 24, 16, 12, 10)), (25, (38, 24, 16, 12, 10)),
        (26, (36, 23, 15, 11, 8, 7)), (30, (36, 23, 15, 11, 8, 7)),
    ],
)  # fmt: skip
def test_standard_payout_table_by_field_size(entries: int, percent: tuple[int, ...]) -> None:
    assert payout_shares("standard", entries) == tuple(Fraction(p, 100) for p in percent)
    assert prizes("standard", entries, 100 * entries) == tuple(p * entries for p in percent)


@pytest.mark.parametrize(("entries", "places"), [(31, 7), (45, 7), (50, 8), (100, 15), (200, 30)])
def test_standard_pays_about_fifteen_percent_of_a_large_field(entries: int, places: int) -> None:
    assert places_paid("standard", entries) == places
    shares = payout_shares("standard", entries)
    assert all(a > b for a, b in itertools.pairwise(shares))
    # the min-cash is worth more than a buy-in when the pool is the buy-ins
    assert shares[-1] * entries > 1


def test_standard_places_never_fall_as_the_field_grows() -> None:
    paid = [places_paid("standard", n) for n in range(2, 501)]
    assert paid == sorted(paid) and paid[0] == 1
    firsts = [payout_shares("standard", n)[0] for n in range(4, 501)]
    assert firsts == sorted(firsts, reverse=True)  # the winner's share only shrinks


def test_winner_takes_all_and_top_3() -> None:
    assert prizes("winner-takes-all", 45, 4500) == (4500,)
    assert prizes("top-3", 45, 1000) == (500, 300, 200)
    assert prizes("top-3", 3, 300) == (188, 112)  # 62.5 % / 37.5 %: remainder to 1st
    assert prizes("top-3", 2, 200) == (200,)


def test_rounding_down_with_the_remainder_to_first_place() -> None:
    assert prizes("standard", 8, 803) == (403, 240, 160)  # 401.5 240.9 160.6: 2 chips left
    assert prizes("standard", 5, 1) == (1, 0)


@settings(max_examples=500, deadline=None)
@given(
    method=st.sampled_from(PAYOUT_METHODS),
    entries=st.integers(2, 200),
    pool=st.integers(0, 10**9),
)
def test_every_method_pays_the_prize_pool_exactly_in_whole_chips(
    method: PayoutMethod, entries: int, pool: int
) -> None:
    out = prizes(method, entries, pool)
    assert sum(out) == pool
    assert all(isinstance(p, int) and p >= 0 for p in out)
    assert list(out) == sorted(out, reverse=True)  # never more for a worse place
    assert 1 <= len(out) == places_paid(method, entries) < max(entries, 2)
    assert sum(payout_shares(method, entries)) == 1


def test_shared_places_split_the_prizes_of_the_places_they_cover() -> None:
    """Two players busted in the same hand with the same chips share 2nd-3rd: (300 + 201)
    split 251 / 250, the odd chip to the first in seat order."""
    finishes = [Finish(1, 1), Finish(2, 2, 2), Finish(3, 2, 2), Finish(4, 4)]
    assert pay_finishes((500, 300, 201), finishes) == {1: 500, 2: 251, 3: 250}


def test_a_tie_on_the_bubble_shares_the_last_paid_prize() -> None:
    finishes = [Finish(1, 1), Finish(2, 2), Finish(3, 3, 3), Finish(4, 3, 3), Finish(5, 3, 3)]
    assert pay_finishes((500, 300, 200), finishes) == {1: 500, 2: 300, 3: 67, 4: 67, 5: 66}


@settings(max_examples=300, deadline=None)
@given(
    method=st.sampled_from(PAYOUT_METHODS),
    entries=st.integers(2, 120),
    pool=st.integers(0, 10**7),
    cuts=st.lists(st.integers(1, 5), min_size=1, max_size=60),
)
def test_shared_places_still_pay_the_pool_exactly(
    method: PayoutMethod, entries: int, pool: int, cuts: list[int]
) -> None:
    finishes: list[Finish] = [Finish(1, 1)]
    place, number = 2, 2
    for size in cuts:
        size = min(size, entries - place + 1)
        if size <= 0:
            break
        finishes += [Finish(number + i, place, size) for i in range(size)]
        place, number = place + size, number + size
    while place <= entries:
        finishes.append(Finish(number, place))
        place, number = place + 1, number + 1
    paid = pay_finishes(prizes(method, entries, pool), finishes)
    assert sum(paid.values()) == pool


def test_knockout_bounty_goes_to_the_player_who_busts_them() -> None:
    assert split_bounty(50, {9: 1200}) == {9: 50}


def test_a_split_pot_splits_the_bounty_evenly_odd_chip_by_seat_order() -> None:
    assert split_bounty(51, {4: 600, 2: 600}) == {4: 26, 2: 25}
    assert split_bounty(50, {4: 601, 2: 600}) == {4: 25, 2: 25}


def test_side_pots_split_the_bounty_by_the_chips_each_won() -> None:
    """The busted player's 900 chips: 600 went to the main pot's winner, 300 to the side
    pot's: the bounty is split 2 : 1."""
    assert split_bounty(30, {1: 600, 2: 300}) == {1: 20, 2: 10}
    assert split_bounty(10, {1: 600, 2: 300}) == {1: 7, 2: 3}  # 6.67 / 3.33


@settings(max_examples=300, deadline=None)
@given(
    bounty=st.integers(0, 10**6),
    taken=st.dictionaries(st.integers(1, 9), st.integers(1, 10**6), min_size=1, max_size=5),
)
def test_a_bounty_is_paid_exactly_and_fairly(bounty: int, taken: dict[int, int]) -> None:
    out = split_bounty(bounty, taken)
    assert sum(out.values()) == bounty and set(out) == set(taken)
    total = sum(taken.values())
    for w, c in taken.items():
        assert abs(out[w] - Fraction(bounty * c, total)) < 1  # largest remainders
