"""Issue 20 item 6 (league points): PokerStars Home Games' formula, a fixed table, prize
money; shared places; season standings with best-N."""

from __future__ import annotations

import math

import pytest

from bot.tournament.places import Finish
from bot.tournament.points import (
    DEFAULT_FIXED,
    Result,
    finish_points,
    hundredths,
    pokerstars_points,
    show,
    standings,
)


def reference_pokerstars(n: int, k: int, b: float) -> float:
    """The formula as PokerStars Home Games publishes it, written out again here:
    10 * (sqrt(n) / sqrt(k)) * (1 + log10(b + 0.25))."""
    return 10 * (math.sqrt(n) / math.sqrt(k)) * (1 + math.log10(b + 0.25))


@pytest.mark.parametrize(
    ("n", "k", "b"), [(10, 1, 10.0), (10, 10, 0.0), (45, 3, 5.0), (200, 17, 100.0), (2, 2, 1.0)]
)
def test_pokerstars_home_games_points_formula(n: int, k: int, b: float) -> None:
    assert pokerstars_points(n, k, b) == pytest.approx(reference_pokerstars(n, k, b))
    assert finish_points("pokerstars", Finish(1, k), entries=n, buy_in=b) == hundredths(
        reference_pokerstars(n, k, b)
    )


def test_pokerstars_points_worked_example() -> None:
    """10 entries at a buy-in of 10: the winner scores 10 x 3.1623 x 2.0107 = 63.58; last
    place at a free roll 10 x 1 x 0.3979 = 3.98."""
    assert show(finish_points("pokerstars", Finish(1, 1), entries=10, buy_in=10)) == "63.58"
    assert show(finish_points("pokerstars", Finish(1, 10), entries=10, buy_in=0)) == "3.98"


def test_pokerstars_points_fall_with_the_place_and_rise_with_the_field_and_the_buy_in() -> None:
    by_place = [pokerstars_points(20, k, 10) for k in range(1, 21)]
    assert by_place == sorted(by_place, reverse=True)
    assert pokerstars_points(40, 1, 10) > pokerstars_points(20, 1, 10)
    assert pokerstars_points(20, 1, 50) > pokerstars_points(20, 1, 10)


def test_fixed_points_table_by_place_default_and_configured() -> None:
    got = [finish_points("fixed", Finish(1, k), entries=9) for k in range(1, 10)]
    assert got == [100 * p for p in DEFAULT_FIXED] + [0, 0]
    table = (25, 18, 15, 12)
    assert finish_points("fixed", Finish(1, 2), entries=9, table=table) == 1800
    assert finish_points("fixed", Finish(1, 5), entries=9, table=table) == 0


def test_prize_money_points_are_the_prize_won() -> None:
    assert finish_points("prize", Finish(1, 1), entries=9, prize=450) == 45_000


def test_a_shared_place_scores_the_average_of_its_places() -> None:
    assert finish_points("fixed", Finish(1, 2, 2), entries=9) == 600  # (7 + 5) / 2
    assert finish_points("fixed", Finish(1, 7, 3), entries=9) == 33  # (1 + 0 + 0) / 3 = 0.33
    mean = (reference_pokerstars(9, 3, 5) + reference_pokerstars(9, 4, 5)) / 2
    assert finish_points("pokerstars", Finish(1, 3, 2), entries=9, buy_in=5) == hundredths(mean)


def test_points_round_half_up_to_the_hundredth() -> None:
    assert hundredths(0.125) == 13 and hundredths(0.115) == 12 and hundredths(2.675) == 268


RESULTS = [
    Result(player=1, tournament=1, points=1000, place=1),
    Result(player=2, tournament=1, points=700, place=2),
    Result(player=1, tournament=2, points=300, place=4),
    Result(player=2, tournament=2, points=1000, place=1),
    Result(player=1, tournament=3, points=100, place=6),
    Result(player=3, tournament=3, points=1300, place=1),
]


def test_season_standings_rank_by_points() -> None:
    rows = standings(RESULTS)
    assert [(r.rank, r.player, r.points, r.played) for r in rows] == [
        (1, 2, 1700, 2), (2, 1, 1400, 3), (3, 3, 1300, 1),
    ]  # fmt: skip


def test_points_best_of_counts_only_each_players_best_results() -> None:
    rows = standings(RESULTS, best_of=2)
    assert [(r.player, r.points, r.counted, r.played) for r in rows] == [
        (2, 1700, 2, 2), (1, 1300, 2, 3), (3, 1300, 1, 1),
    ]  # fmt: skip
    assert [r.rank for r in rows] == [1, 2, 2]  # equal totals share the rank


def test_equal_totals_share_a_rank_and_the_next_rank_skips() -> None:
    rs = [Result(1, 1, 500, 2), Result(2, 1, 500, 1), Result(3, 1, 100, 3)]
    assert [(r.rank, r.player) for r in standings(rs)] == [(1, 2), (1, 1), (3, 3)]
