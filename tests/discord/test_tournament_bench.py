"""bench/tournament.py, small (12 computers at 6-seat tables), so the bench cannot rot: it
runs the real bot against the fake Discord through a tournament's hands, a level change
while the tables deal and one while no table is in a hand (each at its stored time) and
ten paused minutes, and its own checks hold (a level change costs at most 2 requests a
table, no message is edited on a timer, a paused clock costs nothing)."""

from __future__ import annotations

from bench.tournament import MAX_PER_TABLE, check, measure


async def test_the_tournament_bench_runs_and_a_level_change_costs_at_most_two_a_table() -> None:
    m = await measure(12, 6, hands=2, seed=3)
    check(m)
    assert m.tables == 2 and m.hands >= 4
    assert m.requests["table edit"] > 0 and m.per_hand > 0
    # X is the whole tournament's requests over the hands of all its tables
    total = sum(n for k, n in m.requests.items() if k != "pictures")
    assert m.per_hand == total / m.hands
    assert m.per_hand_every_table == m.per_hand * m.tables
    # each table's own figure: the requests in its thread, its hands; the rest elsewhere
    assert sorted(m.by_table) == [1, 2]
    assert sum(n for n, _ in m.by_table.values()) + sum(m.elsewhere.values()) == total
    assert sum(h for _, h in m.by_table.values()) == m.hands
    assert m.level_change <= MAX_PER_TABLE * m.tables
    assert m.level_change_dealing <= MAX_PER_TABLE * m.tables


async def test_a_level_change_between_hands_costs_an_edit_a_table_and_the_lobbys() -> None:
    """The honest worst case: no table is in a hand, so nothing carries the new level but
    an edit of each table message, and the lobby's edit; no other request comes with it."""
    m = await measure(12, 6, hands=1, seed=5)
    check(m)
    assert m.level_change_routes == {"table edit": m.tables, "lobby edit": 1}
    assert m.level_change == m.tables + 1 <= MAX_PER_TABLE * m.tables
    assert m.edits["timer"] == 0 and m.edits["hand or click"] > 0
    assert m.quiet == 0
