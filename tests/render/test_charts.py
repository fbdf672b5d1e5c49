"""Balance charts: one point, a whole season, dates or game numbers, bad input."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest

from bot.render.charts import HEIGHT, LOW, WIDTH, nice_step, render_balance_chart
from tests.render.pngs import colour_count, count_near, open_png, png_chunk_types, spread

START = datetime(2024, 3, 1, 20, 0, tzinfo=UTC)


def season(n: int, seed: int = 7) -> list[tuple[datetime | int, int]]:
    rng = random.Random(seed)
    balance, out = 1000, []
    for i in range(n):
        balance = max(0, balance + rng.randint(-80, 85))
        out.append((START + timedelta(hours=5 * i), balance))
    return out


def test_chart_with_one_point() -> None:
    img = open_png(render_balance_chart([(START, 1000)], title="Alice"))
    assert img.size == (WIDTH, HEIGHT)
    assert spread(img) > 5 and colour_count(img) > 20
    assert count_near(img, LOW, tol=12) == 0  # a single balance has no separate minimum


def test_chart_with_500_points() -> None:
    data = render_balance_chart(season(500), title="Alice — spring season")
    img = open_png(data)
    assert img.size == (WIDTH, HEIGHT)
    assert spread(img) > 10 and colour_count(img) > 100
    assert count_near(img, LOW, tol=12) > 20  # the minimum is marked
    assert set(png_chunk_types(data)) == {"IHDR", "IDAT", "IEND"}


def test_chart_with_game_numbers_and_naive_datetimes() -> None:
    by_game = [(i + 1, b) for i, (_, b) in enumerate(season(40))]
    assert open_png(render_balance_chart(by_game, title="by game")).size == (WIDTH, HEIGHT)
    naive = [(t.replace(tzinfo=None), b) for t, b in season(40)]
    assert open_png(render_balance_chart(naive, title="naive")).size == (WIDTH, HEIGHT)


def test_chart_same_input_same_bytes_and_different_data_differs() -> None:
    a = render_balance_chart(season(300), title="Bob")
    assert a == render_balance_chart(season(300), title="Bob")
    assert a != render_balance_chart(season(300, seed=8), title="Bob")
    assert a != render_balance_chart(season(300), title="Carol")


def test_chart_flat_and_negative_balances() -> None:
    flat = [(i, 500) for i in range(10)]
    assert open_png(render_balance_chart(flat, title="flat")).size == (WIDTH, HEIGHT)
    dip = [(0, 10), (1, -40), (2, 0)]
    assert open_png(render_balance_chart(dip, title="dip")).size == (WIDTH, HEIGHT)


@pytest.mark.parametrize(
    ("points", "message"),
    [
        ([], "no points to draw"),
        ([(1, 100.5)], r"point 0: balance 100\.5 is not an integer"),
        ([(1, True)], "is not an integer"),
        ([(2, 100), (1, 90)], "point 1 is earlier than point 0"),
        ([(START, 100), (3, 90)], r"point 1: x 3 is not a datetime"),
        ([(1, 100), (START, 90)], "is not a datetime or an integer"),
        ([(START, 1), (START.replace(tzinfo=None), 2)], "mixes naive and aware"),
        ([(1, 2, 3)], "not an \\(x, balance\\) pair"),
    ],
)
def test_chart_rejects_bad_input(points: list, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        render_balance_chart(points, title="bad")


@pytest.mark.parametrize(
    ("span", "step"), [(1, 0.2), (7, 2), (100, 20), (930, 200), (2600, 1000), (12_000, 5000)]
)
def test_nice_step_gives_round_ticks(span: float, step: float) -> None:
    assert nice_step(span) == pytest.approx(step)
