"""Engine throughput: random complete hands per second, our engines vs pokerkit.

Run: ``python bench/engines.py`` (from the repo root). A script, not a test.

Razz: our :class:`RazzHand` and pokerkit 0.7.7's ``FixedLimitRazz`` play complete hands
at 2, 4 and 8 players with the same random policy (uniformly one of the legal action
kinds), same stakes (ante 2, bring-in 5, bets 10/20) and stacks (300). The last line is
``RESULT razz2_vs_pokerkit=R razz4_vs_pokerkit=R razz8_vs_pokerkit=R`` (R = our hands per
second divided by pokerkit's).
"""

from __future__ import annotations

import random
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.engine.actions import Action
from bot.engine.razz import RazzHand, RazzRules

SECONDS = 1.5
STACK = 300


def _rate(play: Callable[[random.Random], None], seconds: float = SECONDS) -> float:
    rng = random.Random(7)
    for _ in range(5):  # warm up (lookup tables, imports)
        play(rng)
    hands = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        play(rng)
        hands += 1
    return hands / elapsed


# ---------------------------------------------------------------------------- Razz


def _ours(n: int) -> Callable[[random.Random], None]:
    rules = RazzRules()
    players = [(s, STACK) for s in range(n)]

    def play(rng: random.Random) -> None:
        hand = RazzHand(rules, players, dealer=0, rng=rng)
        hand.start()
        while not hand.is_over:
            (seat,) = hand.to_act()
            hand.apply(Action(seat, rng.choice(hand.allowed_kinds(seat))))

    return play


def _pokerkit(n: int) -> Callable[[random.Random], None]:
    from pokerkit import Automation, FixedLimitRazz

    automations = (
        Automation.ANTE_POSTING,
        Automation.BET_COLLECTION,
        Automation.BLIND_OR_STRADDLE_POSTING,
        Automation.CARD_BURNING,
        Automation.HOLE_DEALING,
        Automation.BOARD_DEALING,
        Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
        Automation.HAND_KILLING,
        Automation.CHIPS_PUSHING,
        Automation.CHIPS_PULLING,
    )

    def play(rng: random.Random) -> None:
        state = FixedLimitRazz.create_state(automations, True, 2, 5, 10, 20, [STACK] * n, n)
        while state.status:
            choices = []
            if state.can_post_bring_in():
                choices.append(state.post_bring_in)
            if state.can_complete_bet_or_raise_to():
                choices.append(state.complete_bet_or_raise_to)
            if state.can_check_or_call():
                choices.append(state.check_or_call)
            if state.can_fold():
                choices.append(state.fold)
            if not choices:
                break
            rng.choice(choices)()

    return play


def bench_razz() -> dict[int, tuple[float, float]]:
    """{players: (our hands/s, pokerkit hands/s)}."""
    out = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for n in (2, 4, 8):
            out[n] = (_rate(_ours(n)), _rate(_pokerkit(n)))
    return out


def main() -> int:
    razz = bench_razz()
    print("| game | players | ours (hands/s) | pokerkit (hands/s) | ratio |")
    print("|---|---:|---:|---:|---:|")
    for n, (ours, pk) in razz.items():
        print(f"| Razz | {n} | {ours:,.0f} | {pk:,.0f} | {ours / pk:.1f}x |")
    print(
        "RESULT "
        + " ".join(f"razz{n}_vs_pokerkit={ours / pk:.1f}" for n, (ours, pk) in razz.items())
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
