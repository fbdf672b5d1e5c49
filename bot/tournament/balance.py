"""Seating, balancing and breaking tables: who moves where, decided from the tables' seats,
buttons and blinds, and an injected random number generator (so a test replays it).

The rules (TDA, "Balancing Tables" and "Breaking Tables", as this bot reads them):

* **Seats are drawn at random** at the start, the players spread so that no table has two
  more than another (:func:`initial_seating`). A late registrant or a re-entry gets a random
  empty seat at one of the tables with the fewest players (:func:`seat_newcomer`); with no
  empty seat anywhere a new table opens (balancing then fills it).
* **Balancing**: when a table is **two or more players shorter** than another, one player
  moves from the longest table to the shortest (ties: the lower table number), and again
  until no table is two shorter than another. In flop and mixed games the player who
  moves is the one **due the big blind next** at the long table, and they take the short
  table's **worst seat**: the empty seat that will post the big blind soonest, which may
  be the very next big blind and is never the small blind. In stud-only games (Stud, Stud
  Hi-Lo, Razz: no blinds) players move **by position**: the one in the same seat number as
  the short table's lowest open seat moves into it.
* A move takes a player only from a table **between hands**; a table in a hand is skipped
  (the next longest gives the player) and the integration asks again when its hand ends.
  The short table may be in a hand: the player sits down and is dealt in from the next.
* **Breaking**: as soon as the players fit in one table fewer, the table with the
  **highest number** breaks (a set order, the last opened first, so the final table is
  table 1) once it is between hands; its players are drawn in random order, each to a
  random empty seat of a table with the fewest players, so the tables stay balanced. Like a
  moved player they may land on any seat, the big blind or the button included.
* The **final table** is the last one left; nobody is redrawn for it.

A table before its first hand has no big blind yet: it counts from its button (the seat
after the button posts the small blind), or, with no button either, as if the button
were on its highest occupied seat.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal


@dataclass(frozen=True)
class Table:
    """One tournament table as the director sees it: ``seats`` maps seat (1 ..
    ``max_seats``) to player; ``last_big_blind`` is the seat that posted the big blind in the
    last hand (None before the first); ``in_hand`` says a hand is being played there."""

    number: int
    seats: Mapping[int, int]
    max_seats: int
    button: int | None = None
    last_big_blind: int | None = None
    in_hand: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "seats", dict(sorted(self.seats.items())))
        if any(not 1 <= s <= self.max_seats for s in self.seats):
            raise ValueError(f"table {self.number}: seats are 1 to {self.max_seats}")
        if len(set(self.seats.values())) != len(self.seats):
            raise ValueError(f"table {self.number}: a player sits once")

    @property
    def count(self) -> int:
        return len(self.seats)

    @property
    def empty_seats(self) -> tuple[int, ...]:
        return tuple(s for s in range(1, self.max_seats + 1) if s not in self.seats)

    def seat_of(self, player: int) -> int | None:
        return next((s for s, p in self.seats.items() if p == player), None)


MoveReason = Literal["balance", "break", "newcomer"]


@dataclass(frozen=True)
class Move:
    """``player`` goes from ``from_table`` seat ``from_seat`` to ``to_table`` seat
    ``to_seat``."""

    player: int
    from_table: int
    from_seat: int
    to_table: int
    to_seat: int
    reason: MoveReason


@dataclass(frozen=True)
class Plan:
    """What to do now: ``moves`` in order, then close the ``broken`` tables. ``waiting_for``
    lists tables in a hand that hold up a move or a break (ask again when their hand ends)."""

    moves: tuple[Move, ...] = ()
    broken: tuple[int, ...] = ()
    waiting_for: tuple[int, ...] = field(default=())


def _after(seat: int, candidates: Iterable[int], max_seats: int) -> int | None:
    """The first of ``candidates`` clockwise strictly after ``seat`` (wrapping round)."""
    pool = set(candidates)
    for step in range(1, max_seats + 1):
        s = (seat - 1 + step) % max_seats + 1
        if s in pool:
            return s
    return None


def _reference_big_blind(table: Table) -> int | None:
    """The seat to count the next big blind from: the last big blind, or before the first
    hand the seat that will post the small blind."""
    if table.last_big_blind is not None:
        return table.last_big_blind
    occupied = list(table.seats)
    if not occupied:
        return None
    button = table.button if table.button is not None else max(occupied)
    if len(occupied) == 2:  # heads-up: the button posts the small blind
        return button if button in table.seats else _after(button, occupied, table.max_seats)
    return _after(button, occupied, table.max_seats)


def next_big_blind(table: Table) -> int | None:
    """The seat of the player due the big blind next (None: an empty table).

    >>> t = Table(1, {1: 11, 3: 13, 5: 15, 8: 18}, 9, button=3, last_big_blind=5)
    >>> next_big_blind(t)
    8
    >>> next_big_blind(Table(1, {1: 11, 3: 13, 5: 15}, 9, button=1))  # before any hand
    5
    """
    ref = _reference_big_blind(table)
    if ref is None:
        return None
    return _after(ref, table.seats, table.max_seats)


def worst_seat(table: Table) -> int | None:
    """The empty seat that will post the big blind soonest (TDA's worst position for a
    moved player; never the small blind); None: the table is full.

    >>> worst_seat(Table(1, {1: 11, 3: 13, 5: 15, 8: 18}, 9, button=3, last_big_blind=5))
    6
    """
    empty = table.empty_seats
    if not empty:
        return None
    ref = _reference_big_blind(table)
    if ref is None:
        return empty[0]
    return _after(ref, empty, table.max_seats)


def _with_move(tables: dict[int, Table], move: Move) -> None:
    source, target = tables[move.from_table], tables[move.to_table]
    seats = dict(source.seats)
    del seats[move.from_seat]
    tables[source.number] = replace(source, seats=seats)
    seats = dict(target.seats)
    seats[move.to_seat] = move.player
    tables[target.number] = replace(target, seats=seats)


def apply_moves(tables: Iterable[Table], moves: Iterable[Move]) -> tuple[Table, ...]:
    """The tables after ``moves`` (a table left empty stays, with no one at it)."""
    out = {t.number: t for t in tables}
    for move in moves:
        _with_move(out, move)
    return tuple(out[n] for n in sorted(out))


def _balance_moves(tables: dict[int, Table], *, by_position: bool) -> tuple[list[Move], set[int]]:
    moves: list[Move] = []
    waiting: set[int] = set()
    while True:
        open_tables = [t for t in tables.values() if t.empty_seats]
        if not open_tables:
            return moves, waiting
        short = min(open_tables, key=lambda t: (t.count, t.number))
        longs = [t for t in tables.values() if t.count >= short.count + 2]
        if not longs:
            return moves, waiting
        idle = [t for t in longs if not t.in_hand]
        waiting |= {t.number for t in longs if t.in_hand}
        if not idle:
            return moves, waiting
        long = max(idle, key=lambda t: (t.count, -t.number))
        if by_position:
            pairs = [s for s in short.empty_seats if s in long.seats]
            from_seat = pairs[0] if pairs else next_big_blind(long)
            to_seat = pairs[0] if pairs else worst_seat(short)
        else:
            from_seat, to_seat = next_big_blind(long), worst_seat(short)
        assert from_seat is not None and to_seat is not None
        move = Move(long.seats[from_seat], long.number, from_seat, short.number, to_seat, "balance")
        moves.append(move)
        _with_move(tables, move)


def table_to_break(tables: Sequence[Table]) -> int | None:
    """The table that breaks now: the highest-numbered, once the players fit in the other
    tables' seats (None: no table can break).

    >>> table_to_break([Table(1, {1: 1, 2: 2}, 3), Table(2, {1: 3}, 3)])
    2
    >>> table_to_break([Table(1, {1: 1, 2: 2}, 3), Table(2, {1: 3, 2: 4}, 3)]) is None
    True
    """
    if len(tables) < 2:
        return None
    highest = max(tables, key=lambda t: t.number)
    players = sum(t.count for t in tables)
    room = sum(t.max_seats for t in tables if t is not highest)
    return highest.number if players <= room else None


def _break_moves(tables: dict[int, Table], number: int, rng: random.Random) -> list[Move]:
    broken = tables.pop(number)
    players = list(broken.seats.items())
    rng.shuffle(players)
    moves: list[Move] = []
    for from_seat, player in players:
        open_tables = [t for t in tables.values() if t.empty_seats]
        fewest = min(t.count for t in open_tables)
        target = rng.choice(sorted((t for t in open_tables if t.count == fewest), key=_number))
        move = Move(
            player, number, from_seat, target.number, rng.choice(target.empty_seats), "break"
        )
        moves.append(move)
        seats = dict(target.seats)
        seats[move.to_seat] = player
        tables[target.number] = replace(target, seats=seats)
    return moves


def _number(t: Table) -> int:
    return t.number


def plan(tables: Sequence[Table], *, rng: random.Random, by_position: bool = False) -> Plan:
    """Every move to make now: tables that can break break (each once it is between
    hands; until then nothing else moves), then the rest are balanced.

    >>> rng = random.Random(7)
    >>> tables = [Table(1, {s: 10 + s for s in range(1, 10)}, 9, last_big_blind=4),
    ...           Table(2, {1: 21, 2: 22, 3: 23, 4: 24, 5: 25, 6: 26, 7: 27}, 9,
    ...                 last_big_blind=2)]
    >>> plan(tables, rng=rng).moves  # 9 against 7: 15, due the big blind, to seat 8
    (Move(player=15, from_table=1, from_seat=5, to_table=2, to_seat=8, reason='balance'),)
    """
    state = {t.number: t for t in tables}
    moves: list[Move] = []
    broken: list[int] = []
    while (number := table_to_break(list(state.values()))) is not None:
        if state[number].in_hand:
            return Plan(tuple(moves), tuple(broken), (number,))
        moves += _break_moves(state, number, rng)
        broken.append(number)
    balance, waiting = _balance_moves(state, by_position=by_position)
    return Plan((*moves, *balance), tuple(broken), tuple(sorted(waiting)))


def initial_seating(
    players: Sequence[int], *, seats_per_table: int, rng: random.Random
) -> tuple[Table, ...]:
    """The draw for seats: as few tables as hold everyone, the players spread evenly (no
    table two more than another) and seated at random.

    >>> tables = initial_seating(list(range(1, 13)), seats_per_table=9, rng=random.Random(1))
    >>> [t.count for t in tables], sorted(p for t in tables for p in t.seats.values())[:3]
    ([6, 6], [1, 2, 3])
    """
    if seats_per_table < 2:
        raise ValueError("a table seats at least 2")
    drawn = list(players)
    rng.shuffle(drawn)
    count = max(1, -(-len(drawn) // seats_per_table))
    out: list[Table] = []
    for i in range(count):
        group = drawn[i::count]
        seats = rng.sample(range(1, seats_per_table + 1), len(group))
        out.append(Table(i + 1, dict(zip(seats, group, strict=True)), seats_per_table))
    return tuple(out)


def seat_newcomer(
    tables: Sequence[Table], *, seats_per_table: int, rng: random.Random
) -> tuple[int, int]:
    """(table, seat) for a late registrant or a re-entry: a random empty seat at a random
    table among those with the fewest players; a new table's number (one more than the
    highest) when every seat is taken.

    >>> seat_newcomer([Table(1, {1: 1, 2: 2}, 2)], seats_per_table=2, rng=random.Random(3))[0]
    2
    """
    open_tables = sorted((t for t in tables if t.empty_seats), key=_number)
    if not open_tables:
        number = max((t.number for t in tables), default=0) + 1
        return number, rng.randint(1, seats_per_table)
    fewest = min(t.count for t in open_tables)
    table = rng.choice([t for t in open_tables if t.count == fewest])
    return table.number, rng.choice(table.empty_seats)
