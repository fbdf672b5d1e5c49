"""Evaluations per second: our Zoot, Wheelers and seven-card low against treys and pokerkit.

Run from the repository root: ``python bench/evaluators.py [--hands N] [--seed S]``.
Every evaluator gets the same random hands (each library's own card objects are built
beforehand, outside the timing). Rates are the best of a few repeats. The last line is
``RESULT zoot_vs_treys=R wheelers_vs_treys=R low7_vs_pokerkit=R holdem7_vs_treys=R
omaha_vs_pokerkit=R`` (ours / theirs). Targets (issue "Rules core"): zoot and wheelers
>= 1.0, low7 >= 100; (issue 13) holdem7 >= 3 against treys' seven-card evaluation,
omaha >= 100 against pokerkit's OmahaHoldemHand (four hole cards, five board cards).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import treys
from pokerkit import Card as PkCard
from pokerkit import OmahaHoldemHand, RegularLowHand, StandardHighHand

from bot.engine.cards import CARDS
from bot.engine.hands import low_score, wheelers_score, zoot_score
from bot.engine.hands.high import high_score, omaha_high_score


def rate(func: Callable[[Any], object], hands: Sequence[Any], repeats: int) -> float:
    """Evaluations per second, best of ``repeats`` passes over ``hands``."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        for hand in hands:
            func(hand)
        best = min(best, time.perf_counter() - start)
    return len(hands) / best


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=50_000, help="5-card hands (default 50000)")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    fives = [rng.sample(CARDS, 5) for _ in range(args.hands)]
    sevens = [rng.sample(CARDS, 7) for _ in range(max(args.hands // 25, 200))]

    # Warm the lazily built tables outside the timing.
    zoot_score(fives[0])
    wheelers_score(fives[0])
    low_score(sevens[0])
    high_score(sevens[0])
    omahas = [(h[:4], h[4:]) for h in (rng.sample(CARDS, 9) for _ in range(len(sevens)))]
    omaha_high_score(*omahas[0])

    treys_fives = [[treys.Card.new(str(c)) for c in h] for h in fives]
    pk_fives = [tuple(PkCard.parse("".join(str(c) for c in h))) for h in fives]
    pk_sevens = [tuple(PkCard.parse("".join(str(c) for c in h))) for h in sevens]
    treys_sevens = [[treys.Card.new(str(c)) for c in h] for h in sevens]
    pk_omahas = [
        ("".join(str(c) for c in hole), "".join(str(c) for c in board)) for hole, board in omahas
    ]
    evaluator = treys.Evaluator()
    empty: list[int] = []

    def treys5(hand: list[int]) -> int:
        return evaluator.evaluate(hand, empty)

    def treys7(hand: list[int]) -> int:
        return evaluator.evaluate(hand[:2], hand[2:])

    def ours_omaha(hb: tuple[list[int], list[int]]) -> int:
        return omaha_high_score(hb[0], hb[1])

    def pk_omaha(hb: tuple[str, str]) -> object:
        return OmahaHoldemHand.from_game(hb[0], hb[1])

    pk_share = max(len(fives) // 10, 200)  # pokerkit is slow: fewer hands, same kind
    rates = {
        "zoot": rate(zoot_score, fives, args.repeats),
        "wheelers": rate(wheelers_score, fives, args.repeats),
        "treys 5": rate(treys5, treys_fives, args.repeats),
        "pokerkit StandardHighHand 5": rate(StandardHighHand, pk_fives[:pk_share], 2),
        "low 7": rate(low_score, sevens, args.repeats),
        "pokerkit RegularLowHand 7": rate(
            lambda h: RegularLowHand.from_game(h), pk_sevens[: max(len(sevens) // 4, 50)], 2
        ),
        "high 7": rate(high_score, sevens, args.repeats),
        "treys 7": rate(treys7, treys_sevens, args.repeats),
        "omaha high (4 + 5)": rate(ours_omaha, omahas, args.repeats),
        "pokerkit OmahaHoldemHand (4 + 5)": rate(
            pk_omaha, pk_omahas[: max(len(omahas) // 20, 50)], 2
        ),
    }
    print(
        f"{len(fives)} random 5-card hands, {len(sevens)} random 7-card hands, "
        f"seed {args.seed}, best of {args.repeats}\n"
    )
    print("| evaluator | evaluations/s | µs each |")
    print("|---|---:|---:|")
    for name, r in rates.items():
        print(f"| {name} | {r:,.0f} | {1e6 / r:.2f} |")
    print()
    zoot = rates["zoot"] / rates["treys 5"]
    wheelers = rates["wheelers"] / rates["treys 5"]
    low7 = rates["low 7"] / rates["pokerkit RegularLowHand 7"]
    holdem7 = rates["high 7"] / rates["treys 7"]
    omaha = rates["omaha high (4 + 5)"] / rates["pokerkit OmahaHoldemHand (4 + 5)"]
    print(
        f"RESULT zoot_vs_treys={zoot:.2f} wheelers_vs_treys={wheelers:.2f} "
        f"low7_vs_pokerkit={low7:.2f} holdem7_vs_treys={holdem7:.2f} "
        f"omaha_vs_pokerkit={omaha:.2f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
