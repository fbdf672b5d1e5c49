"""Payouts: the prize pool by place, shared places, and knockout bounties -- whole league
chips, and the pool paid exactly, always.

``payouts: standard|winner-takes-all|top-3``:

* ``winner-takes-all``: the winner takes the pool.
* ``top-3``: 50 / 30 / 20 %; with 3 entries or fewer, one place fewer than the entries
  (2: the winner; 3: 50 / 30 scaled to the pool, 62.5 / 37.5 %).
* ``standard``, by the number of entries (:data:`STANDARD`):

  ==========  ======  ===============================
  entries     places  percent of the pool, 1st first
  ==========  ======  ===============================
  2-3         1       100
  4-6         2       65 35
  7-10        3       50 30 20
  11-20       4       45 27 17 11
  21-25       5       38 24 16 12 10
  26-30       6       36 23 15 11 8 7
  31 or more  15 %    place *i* in proportion to 1 / (*i* + 1/2)
  ==========  ======  ===============================

  From 31 entries about 15 % of the field is paid (15 % of the entries rounded half up,
  at least 7), place *i*'s share in proportion to 2 / (2 *i* + 1): each place is worth a
  little less than the one above it, the min-cash about twice the buy-in (common practice
  beside TDA, which sets no payout table).

**Rounding**: each place gets its share of the pool rounded down to a whole chip, and the
chips left over go to 1st place, so the prizes add up to the pool exactly and never
increase down the places.

**Shared places** (entries busted in the same hand with the same chips,
:mod:`bot.tournament.places`): the prizes of the places they cover are added and split
evenly; the odd chips go one each to the tied players in seat order from the button's left
of that hand (as an odd chip of a split pot).

**Bounties** (``bounty``, league chips paid on top of the buy-in and held apart from the
prize pool): the bounty of an eliminated entry goes to whoever won its chips in that hand;
when several did (a split pot, side pots), it is split in proportion to the chips each won
of it (an evenly split pot splits the bounty evenly), by largest remainders: each gets the
whole chips of their share, and the chips left go one each to the largest fractions (then
the larger winner, then seat order). The winner of the tournament also takes back their own
bounty.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from itertools import groupby
from typing import Final, Literal

from bot.tournament.places import Finish

PayoutMethod = Literal["standard", "winner-takes-all", "top-3"]
PAYOUT_METHODS: Final[tuple[PayoutMethod, ...]] = ("standard", "winner-takes-all", "top-3")

#: (fewest entries, most entries, percent of each place) of the standard table.
STANDARD: Final[tuple[tuple[int, int, tuple[int, ...]], ...]] = (
    (2, 3, (100,)),
    (4, 6, (65, 35)),
    (7, 10, (50, 30, 20)),
    (11, 20, (45, 27, 17, 11)),
    (21, 25, (38, 24, 16, 12, 10)),
    (26, 30, (36, 23, 15, 11, 8, 7)),
)
#: From this many entries, the standard table pays about :data:`LARGE_FIELD_PERCENT` %.
LARGE_FIELD: Final = 31
LARGE_FIELD_PERCENT: Final = 15
LARGE_FIELD_MIN_PLACES: Final = 7
TOP_3: Final = (50, 30, 20)


def places_paid(method: PayoutMethod, entries: int) -> int:
    """How many places ``method`` pays with ``entries`` entries.

    >>> [places_paid("standard", n) for n in (2, 5, 9, 15, 24, 30, 31, 45, 100, 200)]
    [1, 2, 3, 4, 5, 6, 7, 7, 15, 30]
    >>> places_paid("top-3", 2), places_paid("top-3", 3), places_paid("top-3", 40)
    (1, 2, 3)
    """
    if entries < 1:
        raise ValueError("a tournament has at least one entry")
    if method == "winner-takes-all" or entries <= 1:
        return 1
    if method == "top-3":
        return min(3, entries - 1)
    if entries >= LARGE_FIELD:
        return max(LARGE_FIELD_MIN_PLACES, (LARGE_FIELD_PERCENT * entries + 50) // 100)
    return next(len(p) for low, high, p in STANDARD if low <= entries <= high)


def payout_shares(method: PayoutMethod, entries: int) -> tuple[Fraction, ...]:
    """Each paid place's share of the pool, 1st first (they add up to 1).

    >>> [str(s) for s in payout_shares("standard", 8)]
    ['1/2', '3/10', '1/5']
    >>> [str(s) for s in payout_shares("top-3", 3)]
    ['5/8', '3/8']
    >>> round(float(payout_shares("standard", 100)[0]), 3)
    0.244
    """
    places = places_paid(method, entries)
    if method == "winner-takes-all" or places == 1:
        weights: Sequence[Fraction] = (Fraction(1),)
    elif method == "top-3":
        weights = [Fraction(p) for p in TOP_3[:places]]
    elif entries >= LARGE_FIELD:
        weights = [Fraction(2, 2 * i + 1) for i in range(1, places + 1)]
    else:
        weights = [Fraction(p) for p in next(p for lo, hi, p in STANDARD if lo <= entries <= hi)]
    total = sum(weights, Fraction(0))
    return tuple(w / total for w in weights)


def prizes(method: PayoutMethod, entries: int, pool: int) -> tuple[int, ...]:
    """The prize of each paid place in whole chips, 1st first: each share rounded down,
    the chips left to 1st. They add up to ``pool``.

    >>> prizes("standard", 9, 900)
    (450, 270, 180)
    >>> prizes("standard", 9, 1001)
    (501, 300, 200)
    >>> prizes("top-3", 3, 301)
    (189, 112)
    """
    if pool < 0:
        raise ValueError("a prize pool is never negative")
    shares = payout_shares(method, entries)
    out = [int(pool * s) for s in shares]  # Fraction -> int rounds toward zero: down
    out[0] += pool - sum(out)
    return tuple(out)


def pay_finishes(place_prizes: Sequence[int], finishes: Sequence[Finish]) -> dict[int, int]:
    """Each entry's prize (entries paid nothing are left out); a tie shares the prizes of
    the places it covers, the odd chips one each in the order ``finishes`` lists the tie.

    >>> pay_finishes((500, 300, 201), [Finish(1, 1), Finish(2, 2, 2), Finish(3, 2, 2)])
    {1: 500, 2: 251, 3: 250}
    >>> pay_finishes((700, 300), [Finish(1, 1), Finish(2, 2), Finish(3, 3, 2), Finish(4, 3, 2)])
    {1: 700, 2: 300}
    """
    out: dict[int, int] = {}
    ordered = sorted(finishes, key=lambda f: f.place)
    for (place, shared), group in groupby(ordered, key=lambda f: (f.place, f.shared)):
        tied = list(group)
        if len(tied) != shared:
            raise ValueError(f"place {place} is shared by {shared}, not {len(tied)}")
        combined = sum(place_prizes[place - 1 : place - 1 + shared])
        each, odd = divmod(combined, shared)
        for i, f in enumerate(tied):
            amount = each + (1 if i < odd else 0)
            if amount:
                out[f.entry] = amount
    return out


def split_bounty(bounty: int, taken: Mapping[int, int]) -> dict[int, int]:
    """A bounty split among the winners of the eliminated entry's chips, in proportion to
    the chips each won of them (``taken``: winner -> chips, in seat order), by largest
    remainders. They add up to ``bounty``.

    >>> split_bounty(100, {7: 1500})
    {7: 100}
    >>> split_bounty(101, {7: 750, 8: 750})  # a split pot: evenly, odd chip by seat order
    {7: 51, 8: 50}
    >>> split_bounty(100, {7: 51, 8: 50})  # an odd chip of the pot does not skew it
    {7: 50, 8: 50}
    >>> split_bounty(10, {7: 200, 8: 100})  # a side pot: more chips, more bounty
    {7: 7, 8: 3}
    """
    winners = {w: c for w, c in taken.items() if c > 0}
    if bounty < 0:
        raise ValueError("a bounty is never negative")
    if not winners:
        raise ValueError("a bounty goes to whoever won the eliminated entry's chips")
    total = sum(winners.values())
    exact = {w: Fraction(bounty * c, total) for w, c in winners.items()}
    out = {w: int(x) for w, x in exact.items()}
    order = list(winners)
    left = bounty - sum(out.values())
    by_fraction = sorted(order, key=lambda w: (-(exact[w] - out[w]), -winners[w], order.index(w)))
    for w in by_fraction[:left]:
        out[w] += 1
    return out
