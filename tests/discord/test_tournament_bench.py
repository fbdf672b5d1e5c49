"""bench/tournament.py, small (12 computers at 6-seat tables), so the bench cannot rot: it
runs the real bot against the fake Discord through a tournament's hands, one level change
at its stored time and ten paused minutes, and its own checks hold (a level change costs
at most 2 requests a table, no message is edited on a timer, a paused clock costs
nothing)."""

from __future__ import annotations

from bench.tournament import MAX_PER_TABLE, check, measure


async def test_the_tournament_bench_runs_and_a_level_change_costs_at_most_two_a_table() -> None:
    m = await measure(12, 6, hands=2, seed=3)
    check(m)
    assert m.tables == 2 and m.hands >= 4
    assert m.requests["table edit"] > 0 and m.per_hand > 0
    assert m.level_change <= MAX_PER_TABLE * m.tables
    assert m.edits["timer"] == 0 and m.edits["hand or click"] > 0
    assert m.quiet == 0
