"""Issue 20 item 3 (tables): the seat draw, TDA balancing (the player due the big blind
next moves to the short table's worst seat; stud by position), breaking tables as players
bust, down to the final table -- deterministic given the rng."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournament.balance import (
    Move,
    Table,
    apply_moves,
    initial_seating,
    next_big_blind,
    plan,
    seat_newcomer,
    table_to_break,
    worst_seat,
)


def full(
    number: int,
    players: range,
    *,
    last_big_blind: int | None = None,
    button: int | None = None,
    in_hand: bool = False,
) -> Table:
    """A 9-seat table with ``players`` in seats 1, 2, 3 ..."""
    seats = dict(zip(range(1, len(players) + 1), players, strict=True))
    return Table(number, seats, 9, button=button, last_big_blind=last_big_blind, in_hand=in_hand)


def test_tda_balancing_the_player_due_the_big_blind_next_moves_to_the_worst_seat() -> None:
    """9 against 7: at table 1 the big blind was seat 4, so seat 5 posts it next and moves;
    at table 2 the big blind was seat 2, so the empty seat 8 is the one that would post the
    big blind soonest (seat 9 later): the worst position."""
    long = full(1, range(11, 20), last_big_blind=4, button=2)
    short = Table(2, {1: 21, 2: 22, 3: 23, 4: 24, 5: 25, 6: 26, 7: 27}, 9, last_big_blind=2)
    moves = plan([long, short], rng=random.Random(0)).moves
    assert moves == (Move(15, 1, 5, 2, 8, "balance"),)


def test_the_worst_seat_may_be_the_very_next_big_blind_and_is_never_the_small_blind() -> None:
    """Seat 4 is empty between the last big blind (3) and the next one (5): a player put
    there posts the big blind in the very next hand (TDA allows it); the small blind of the
    next hand is the last big blind's seat, never offered."""
    t = Table(2, {1: 1, 2: 2, 3: 3, 5: 5, 6: 6}, 9, last_big_blind=3, button=1)
    assert worst_seat(t) == 4
    t_busted_bb = Table(2, {1: 1, 2: 2, 5: 5, 6: 6}, 9, last_big_blind=3, button=1)
    assert worst_seat(t_busted_bb) == 4  # not seat 3, the dead small blind's


def test_no_move_when_tables_differ_by_one_player() -> None:
    a = full(1, range(11, 20), last_big_blind=1)
    b = full(2, range(21, 29), last_big_blind=1)
    assert plan([a, b], rng=random.Random(0)).moves == ()


def test_balancing_moves_until_no_table_is_two_shorter() -> None:
    tables = [
        full(1, range(11, 20), last_big_blind=3),
        full(2, range(21, 30), last_big_blind=5),
        Table(3, {1: 31, 2: 32, 3: 33, 4: 34, 5: 35}, 9, last_big_blind=1),
    ]
    result = plan(tables, rng=random.Random(0))
    after = apply_moves(tables, result.moves)
    assert sorted(t.count for t in after) == [7, 8, 8]
    assert [m.to_table for m in result.moves] == [3, 3]
    # the second move comes from the other long table (ties: the lower number first)
    assert [m.from_table for m in result.moves] == [1, 2]
    # both land in table 3's worst seats, in the order they post the big blind
    assert [m.to_seat for m in result.moves] == [6, 7]


def test_stud_only_games_move_players_by_position() -> None:
    long = Table(1, {1: 11, 2: 12, 3: 13, 4: 14, 5: 15, 6: 16, 7: 17, 8: 18}, 8)
    short = Table(2, {1: 21, 2: 22, 4: 24, 5: 25, 6: 26, 8: 28}, 8)
    assert plan([long, short], rng=random.Random(0), by_position=True).moves == (
        Move(13, 1, 3, 2, 3, "balance"),
    )


def test_a_table_in_a_hand_gives_no_player_until_its_hand_ends() -> None:
    long = full(1, range(11, 20), last_big_blind=4, in_hand=True)
    short = Table(2, {1: 21, 2: 22, 3: 23, 4: 24, 5: 25, 6: 26, 7: 27}, 9, last_big_blind=2)
    waiting = plan([long, short], rng=random.Random(0))
    assert waiting.moves == () and waiting.waiting_for == (1,)
    short_in_hand = Table(2, dict(short.seats), 9, last_big_blind=2, in_hand=True)
    done = plan([full(1, range(11, 20), last_big_blind=4), short_in_hand], rng=random.Random(0))
    assert len(done.moves) == 1  # the short table may be in a hand: the player waits to be dealt


def test_a_table_breaks_when_its_players_fit_in_the_others() -> None:
    """18 seats at two tables hold 17 players: the highest-numbered table breaks, its
    players drawn at random into the empty seats, the tables kept balanced."""
    tables = [
        Table(1, {s: 10 + s for s in range(1, 7)}, 9, last_big_blind=2),
        Table(2, {s: 20 + s for s in range(1, 7)}, 9, last_big_blind=2),
        Table(3, {1: 31, 4: 34, 7: 37, 9: 39, 2: 32}, 9, last_big_blind=1),
    ]
    assert table_to_break(tables) == 3
    result = plan(tables, rng=random.Random(5))
    assert result.broken == (3,)
    assert {m.player for m in result.moves} == {31, 32, 34, 37, 39}
    assert all(m.reason == "break" for m in result.moves)
    after = [t for t in apply_moves(tables, result.moves) if t.number != 3]
    assert sorted(t.count for t in after) == [8, 9]
    again = plan(tables, rng=random.Random(5))
    assert again == result  # the same rng, the same draw


def test_a_breaking_table_in_a_hand_breaks_when_its_hand_ends() -> None:
    tables = [
        Table(1, {s: 10 + s for s in range(1, 7)}, 9),
        Table(2, {1: 21, 2: 22}, 9, in_hand=True),
    ]
    result = plan(tables, rng=random.Random(1))
    assert result.moves == () and result.broken == () and result.waiting_for == (2,)


def test_the_draw_for_seats_spreads_players_evenly_at_random() -> None:
    players = list(range(1, 46))
    tables = initial_seating(players, seats_per_table=9, rng=random.Random(2))
    assert [t.count for t in tables] == [9, 9, 9, 9, 9]
    assert sorted(p for t in tables for p in t.seats.values()) == players
    twelve = initial_seating(list(range(1, 13)), seats_per_table=9, rng=random.Random(2))
    assert [t.count for t in twelve] == [6, 6]
    other = initial_seating(list(range(1, 13)), seats_per_table=9, rng=random.Random(3))
    assert twelve != other
    assert twelve == initial_seating(list(range(1, 13)), seats_per_table=9, rng=random.Random(2))


def test_a_late_registrant_gets_a_random_seat_at_a_short_table_or_a_new_table() -> None:
    tables = [full(1, range(11, 20)), Table(2, {1: 21, 5: 25}, 9)]
    for seed in range(20):
        table, seat = seat_newcomer(tables, seats_per_table=9, rng=random.Random(seed))
        assert table == 2 and seat not in (1, 5)
    table, _ = seat_newcomer([full(1, range(11, 20))], seats_per_table=9, rng=random.Random(0))
    assert table == 2


def test_next_big_blind_before_the_first_hand_counts_from_the_button() -> None:
    t = Table(1, {2: 1, 4: 2, 6: 3, 8: 4}, 9, button=4)
    assert next_big_blind(t) == 8  # 6 posts the small blind
    assert next_big_blind(Table(1, {2: 1, 4: 2}, 9, button=4)) == 2  # heads-up: button is SB
    assert next_big_blind(Table(1, {2: 1, 4: 2, 6: 3}, 9)) == 4  # no button: as if on 6


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    players=st.integers(10, 60),
    seats=st.sampled_from([6, 8, 9]),
    stud=st.booleans(),
)
def test_busting_down_to_the_final_table_keeps_every_player_and_the_tables_balanced(
    seed: int, players: int, seats: int, stud: bool
) -> None:
    """Players bust at random, hands end at random tables; after each plan made with every
    table between hands, no table is two shorter than another, no seat holds two players,
    nobody is lost or doubled, and the tables break down to one, table 1."""
    rng = random.Random(seed)
    tables = list(initial_seating(list(range(players)), seats_per_table=seats, rng=rng))
    alive = set(range(players))
    while len(alive) > 1:
        t = rng.choice([t for t in tables if t.count])
        victim = rng.choice(list(t.seats))
        alive.discard(t.seats[victim])
        seats_left = {s: p for s, p in t.seats.items() if s != victim}
        bb = next_big_blind(t)
        tables = [
            Table(t.number, seats_left, t.max_seats, button=victim, last_big_blind=bb)
            if x.number == t.number
            else x
            for x in tables
        ]
        result = plan(tables, rng=rng, by_position=stud)
        tables = [x for x in apply_moves(tables, result.moves) if x.number not in result.broken]
        counts = [x.count for x in tables]
        assert max(counts) - min(counts) <= 1
        seated = [p for x in tables for p in x.seats.values()]
        assert sorted(seated) == sorted(alive)
        assert sum(x.max_seats for x in tables[:-1]) < len(alive) or len(tables) == 1
    assert [x.number for x in tables] == [1]
