"""Benchmark: one showdown image (6 players x 5 cards) and one balance chart (300 points).

Run:  python bench/render.py [--runs N]
Prints the first (cold: fonts loaded, card faces drawn) and the median warm time of each,
in milliseconds, against a target of 50 ms each; the last line is
``RESULT showdown_ms=X chart_ms=Y`` (the medians).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.engine.cards import Deck
from bot.render.charts import render_balance_chart
from bot.render.images import render_showdown

TARGET_MS = 50.0


def timed(fn: Callable[[], bytes], runs: int) -> tuple[float, float, int]:
    """(cold ms, median warm ms, bytes of the image)."""
    start = time.perf_counter()
    size = len(fn())
    cold = (time.perf_counter() - start) * 1000
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return cold, statistics.median(times), size


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=25, help="timed runs after the first")
    args = parser.parse_args()

    deck = Deck(rng=random.Random(2024))
    hands = [(f"Player {i + 1}", deck.deal(5), "Two pair, kings and fives") for i in range(6)]
    rng = random.Random(7)
    balance, points = 1000, []
    start = datetime(2024, 3, 1, tzinfo=UTC)
    for i in range(300):
        balance = max(0, balance + rng.randint(-60, 65))
        points.append((start + timedelta(hours=6 * i), balance))

    sd_cold, sd_ms, sd_bytes = timed(lambda: render_showdown(hands, winner_indexes={2}), args.runs)
    ch_cold, ch_ms, ch_bytes = timed(
        lambda: render_balance_chart(points, title="Player 1 — spring season"), args.runs
    )
    for name, cold, warm, size in (
        ("showdown 6x5", sd_cold, sd_ms, sd_bytes),
        ("chart 300 pts", ch_cold, ch_ms, ch_bytes),
    ):
        verdict = "ok" if warm < TARGET_MS else "OVER TARGET"
        print(
            f"{name:14s} cold {cold:7.1f} ms  median {warm:6.1f} ms  "
            f"({size / 1024:.0f} KB, target < {TARGET_MS:.0f} ms: {verdict})"
        )
    print(f"RESULT showdown_ms={sd_ms:.1f} chart_ms={ch_ms:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
