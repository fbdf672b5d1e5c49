"""Migration 0003 (issue 11, item 3): one live league seat per member and server, held by
the database. Applied to a database of schema 2 that already holds seats, it records the
live league seats (the older one where a member already sat at two tables), leaves out
practice tables, computer players and closed tables, and from then on refuses a second."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.store import Store, migrations

GUILD, OTHER = 3001, 3002
ANN, BEN = 31, 32


def schema_2_database(path: Path) -> None:
    with sqlite3.connect(path, isolation_level=None) as raw:
        for m in migrations():
            if m.version <= 2:
                for statement in m.statements():
                    raw.execute(statement)
        raw.execute("PRAGMA user_version = 2")
        for guild in (GUILD, OTHER):
            raw.execute(
                "INSERT INTO leagues (guild_id, created_at, updated_at) VALUES (?, 0, 0)", (guild,)
            )
        tables = [
            (1, GUILD, 101, "open", 0),
            (2, GUILD, 102, "running", 0),  # Ann sits here too (the race of before)
            (3, GUILD, 103, "open", 1),  # practice
            (4, GUILD, 104, "closed", 0),
            (5, OTHER, 105, "open", 0),
        ]
        for tid, guild, channel, status, practice in tables:
            raw.execute(
                "INSERT INTO tables (id, guild_id, channel_id, game, status, practice,"
                " created_at, updated_at) VALUES (?, ?, ?, 'zoot', ?, ?, 0, 0)",
                (tid, guild, channel, status, practice),
            )
        seats = [
            (1, 0, ANN, 0, 10),
            (2, 0, ANN, 0, 20),
            (2, 1, BEN, 0, 5),
            (2, 2, -1, 1, 5),
            (3, 0, BEN, 0, 1),
            (4, 0, BEN, 0, 1),
            (5, 0, ANN, 0, 30),
        ]
        raw.executemany(
            "INSERT INTO seats (table_id, seat_no, user_id, is_computer, joined_at)"
            " VALUES (?, ?, ?, ?, ?)",
            seats,
        )


async def test_migration_0003_records_live_league_seats_and_refuses_a_second(
    tmp_path: Path,
) -> None:
    path = tmp_path / "old.db"
    schema_2_database(path)
    store = await Store.open(path)
    try:
        assert 3 in store.applied
        async with store.read() as tx:
            rows = await tx._all(
                "SELECT guild_id, user_id, table_id FROM league_seats ORDER BY 1, 2"
            )
            assert [tuple(r) for r in rows] == [(GUILD, ANN, 1), (GUILD, BEN, 2), (OTHER, ANN, 5)]
            assert await tx.league_table_of(GUILD, ANN) == 1
            assert await tx.league_table_of(GUILD, -1) is None
    finally:
        await store.close()
    with sqlite3.connect(path) as raw, pytest.raises(sqlite3.IntegrityError, match="league_seats"):
        raw.execute(
            "INSERT INTO seats (table_id, seat_no, user_id, joined_at) VALUES (1, 5, ?, 0)",
            (BEN,),
        )
