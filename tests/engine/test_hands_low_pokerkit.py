"""Seven-card ace-to-five low against pokerkit's RegularLowHand (RULES §4.1, §4.12).

pokerkit is slow (about 0.2 ms a seven-card hand), and RegularLowHand ignores suits, so
its verdict is memoised per rank multiset; our evaluator is called on every hand.
"""

from __future__ import annotations

import itertools
import random

from pokerkit import Card as PkCard
from pokerkit import RegularLowHand

from bot.engine.cards import CARDS, Card
from bot.engine.hands import low_score

PAIRS = 100_000


def test_rule_4_1_low_agrees_with_pokerkit_on_100000_random_seven_card_pairs() -> None:
    rng = random.Random(20240401)
    memo: dict[tuple[int, ...], RegularLowHand] = {}

    def theirs(hand: list[Card]) -> RegularLowHand:
        key = tuple(sorted(c.rank for c in hand))
        found = memo.get(key)
        if found is None:
            found = RegularLowHand.from_game(tuple(PkCard.parse("".join(map(str, hand)))))
            memo[key] = found
        return found

    score_to_hand: dict[int, RegularLowHand] = {}
    for _ in range(PAIRS):
        a, b = rng.sample(CARDS, 7), rng.sample(CARDS, 7)
        ours_a, ours_b = low_score(a), low_score(b)
        pk_a, pk_b = theirs(a), theirs(b)
        # pokerkit: a "greater" low hand is the better (lower) one, as our higher score.
        assert (ours_a > ours_b) == (pk_a > pk_b), (a, b)
        assert (ours_a == ours_b) == (pk_a == pk_b), (a, b)
        score_to_hand.setdefault(ours_a, pk_a)
        score_to_hand.setdefault(ours_b, pk_b)
    # Beyond the pairs: every score met maps to one pokerkit class, in the same order.
    ordered = [score_to_hand[s] for s in sorted(score_to_hand)]
    assert all(x < y for x, y in itertools.pairwise(ordered))
