"""Slow, obviously-correct readings of RULES §2 and §3, used as the reference that the fast
table-driven evaluators are checked against (exhaustively in test_hands_exhaustive.py).

Nothing here shares code with bot.engine.hands: Zoot is classified the textbook way from
the cards; Wheelers tries every partition of the five cards into blocks and keeps the
partitions whose blocks are all straights or single (odd) cards.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence

from bot.engine.cards import Card, parse_cards

# ---------------------------------------------------------------- Zoot (RULES §2)

STANDARD_ORDER = (
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


def zoot_reference(cards: Sequence[Card]) -> tuple[int, ...]:
    """(-number of suits, standard category index, tie-break ranks): larger is better."""
    assert len(cards) == 5 and len(set(cards)) == 5
    suits = {c.suit for c in cards}
    ranks = sorted((c.rank for c in cards), reverse=True)
    counts = Counter(ranks)
    shape = sorted(counts.values(), reverse=True)
    is_flush = len(suits) == 1
    straight_top = 0
    if len(counts) == 5:
        if ranks[0] - ranks[4] == 4:
            straight_top = ranks[0]
        elif ranks == [14, 5, 4, 3, 2]:
            straight_top = 5  # the wheel is five high in standard poker
    if straight_top and is_flush:
        category, tie = "straight flush", [straight_top]
    elif shape == [4, 1]:
        category, tie = "four of a kind", []
    elif shape == [3, 2]:
        category, tie = "full house", []
    elif is_flush:
        category, tie = "flush", ranks
    elif straight_top:
        category, tie = "straight", [straight_top]
    elif shape == [3, 1, 1]:
        category, tie = "three of a kind", []
    elif shape == [2, 2, 1]:
        category, tie = "two pair", []
    elif shape == [2, 1, 1, 1]:
        category, tie = "one pair", []
    else:
        category, tie = "high card", ranks
    if not tie:  # grouped: the larger group first, then the higher rank
        tie = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    return (-len(suits), STANDARD_ORDER.index(category), *tie)


# ---------------------------------------------------------------- Wheelers (RULES §3)


def set_partitions(items: list[int]) -> Iterator[list[list[int]]]:
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for partition in set_partitions(rest):
        yield [[first], *partition]
        for i in range(len(partition)):
            yield [*partition[:i], [first, *partition[i]], *partition[i + 1 :]]


def straight_top(ranks: list[int], wraparound: bool) -> int | None:
    """Top card of a straight made of exactly these ranks, or None if they are not one."""
    if len(set(ranks)) != len(ranks):
        return None  # equal ranks are never in the same straight (§3.1)
    n = len(ranks)
    high = sorted(ranks)
    if high[-1] - high[0] == n - 1:
        return high[-1]  # ace high (or no ace)
    low = sorted(1 if r == 14 else r for r in ranks)
    if low[-1] - low[0] == n - 1:
        return low[-1]  # ace low: A-2-3 tops at 3
    if wraparound:
        # Around the corner (§3.3): consecutive on the cycle 2..K-A-2..; the top is the
        # last card of the run going up, i.e. the one whose successor is not in it.
        cycle = list(range(2, 15))
        members = set(ranks)
        ends = [r for r in members if cycle[(cycle.index(r) + 1) % 13] not in members]
        starts = [r for r in members if cycle[(cycle.index(r) - 1) % 13] not in members]
        if len(ends) == 1 and len(starts) == 1:
            return ends[0]
    return None


TYPE_BY_SHAPE = {
    (5,): 2,
    (4, 1): 3,
    (3, 2): 4,
    (3, 1, 1): 5,
    (2, 2, 1): 6,
    (2, 1, 1, 1): 7,
    (1, 1, 1, 1, 1): 8,
}


def wheelers_reference(cards: Sequence[Card], *, wraparound: bool = False) -> tuple[int, ...]:
    """The best reading over every partition into straights and odd cards; larger key is
    better: (-type, straight tops by length then top, odd cards high to low)."""
    assert len(cards) == 5 and len(set(cards)) == 5
    ranks = [c.rank for c in cards]
    best: tuple[int, ...] | None = None
    for partition in set_partitions(list(range(5))):
        straights: list[tuple[int, int]] = []  # (length, top)
        odds: list[int] = []
        for block in partition:
            block_ranks = [ranks[i] for i in block]
            if len(block) == 1:
                odds.append(block_ranks[0])  # an odd ace counts high (§3.2)
                continue
            top = straight_top(block_ranks, wraparound)
            if top is None:
                break
            straights.append((len(block), top))
        else:
            shape = tuple(sorted([n for n, _ in straights] + [1] * len(odds), reverse=True))
            kind = TYPE_BY_SHAPE[shape]
            if kind == 2 and sorted(ranks) == [2, 3, 4, 5, 14]:
                key: tuple[int, ...] = (-1,)  # the Wheel; two Wheels tie (§3.4)
            else:
                tops = [t for _, t in sorted(straights, reverse=True)]
                key = (-kind, *tops, *sorted(odds, reverse=True))
            if best is None or key > best:
                best = key
    assert best is not None
    return best


def test_reference_reads_rules_section_3_table() -> None:
    table = {
        "As 2d 3c 4h 5s": 1,
        "9c Td Jh Qs Kc": 2,
        "5s 6d 7h 8c Kd": 3,
        "Qd Kh Ac 2s 3d": 4,
        "7d 8h 9c 2s Kd": 5,
        "4s 5d 9h Tc Kd": 6,
        "4s 5d 9h Jc Kd": 7,
        "2s 4d 6h 9c Jd": 8,
        "7s 7d 8h 8c 9d": 4,
    }
    for text, kind in table.items():
        assert -wheelers_reference(parse_cards(text))[0] == kind, text


def test_reference_reads_rule_2_3_flush_over_full_house() -> None:
    flush = zoot_reference(parse_cards("9s 8s 6s 3s 2s"))
    full_house = zoot_reference(parse_cards("Kh Kd Kc 7h 7d"))
    assert flush > full_house
