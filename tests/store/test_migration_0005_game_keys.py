"""Migration 0005 (issue 13): a table's game is checked by the code's list (GAMES), not by
a CHECK naming the first three games. Applied to a database of schema 3 that holds a Razz
table with seats and a pot, it keeps every row and every foreign key, and a Stud table can
then be stored; an unknown game is still refused (by create_table) and an empty one by the
database."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.store import GAMES, Store, StoreError, migrations

GUILD = 3101
ANN = 41


def schema_3_database(path: Path) -> None:
    with sqlite3.connect(path, isolation_level=None) as raw:
        raw.execute("PRAGMA foreign_keys = ON")
        for m in migrations():
            if m.version <= 3:
                for statement in m.statements():
                    raw.execute(statement)
        raw.execute("PRAGMA user_version = 3")
        raw.execute(
            "INSERT INTO leagues (guild_id, created_at, updated_at) VALUES (?, 0, 0)", (GUILD,)
        )
        raw.execute(
            "INSERT INTO tables (id, guild_id, channel_id, game, status, created_at, updated_at)"
            " VALUES (1, ?, 501, 'razz', 'open', 0, 0)",
            (GUILD,),
        )
        raw.execute(
            "INSERT INTO seats (table_id, seat_no, user_id, is_computer, joined_at)"
            " VALUES (1, 0, ?, 0, 0)",
            (ANN,),
        )
        with pytest.raises(sqlite3.IntegrityError, match="CHECK"):
            raw.execute(
                "INSERT INTO tables (guild_id, channel_id, game, created_at, updated_at)"
                " VALUES (?, 502, 'stud', 0, 0)",
                (GUILD,),
            )


async def test_migration_0005_lets_a_stud_table_be_stored_and_keeps_every_row(
    tmp_path: Path,
) -> None:
    path = tmp_path / "old.db"
    schema_3_database(path)
    store = await Store.open(path)
    try:
        assert store.applied[-1] == 5
        assert "stud" in GAMES
        async with store.transaction() as tx:
            table = await tx.create_table(GUILD, 502, "stud", host_id=ANN, rules={"split": "hi-lo"})
            assert table.game == "stud"
            with pytest.raises(StoreError, match="unknown game"):
                await tx.create_table(GUILD, 503, "snap", host_id=ANN, rules={})
        async with store.read() as tx:
            rows = await tx._all("SELECT id, game FROM tables ORDER BY id")
            assert [tuple(r) for r in rows] == [(1, "razz"), (table.id, "stud")]
            assert await tx.league_table_of(GUILD, ANN) == 1  # the 0003 trigger still works
    finally:
        await store.close()
    with sqlite3.connect(path) as raw:
        assert raw.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert raw.execute("PRAGMA foreign_key_check").fetchall() == []
        with pytest.raises(sqlite3.IntegrityError, match="CHECK"):
            raw.execute(
                "INSERT INTO tables (guild_id, channel_id, game, created_at, updated_at)"
                " VALUES (?, 504, '', 0, 0)",
                (GUILD,),
            )
