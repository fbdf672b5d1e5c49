"""Migration 0005 (issue 13): a table's game is any game key the service knows (HORSE,
dealer's choice, Hold'em... beside the three of schema 4). The rebuild of ``tables`` keeps
every row, the foreign keys that point at it, its indexes and the league-seat triggers."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.store import Store, migrations

GUILD = 4001
ANN, BEN = 41, 42


def schema_4_database(path: Path) -> None:
    with sqlite3.connect(path, isolation_level=None) as raw:
        for m in migrations():
            if m.version <= 4:
                for statement in m.statements():
                    raw.execute(statement)
        raw.execute("PRAGMA user_version = 4")
        raw.execute(
            "INSERT INTO leagues (guild_id, created_at, updated_at) VALUES (?, 0, 0)", (GUILD,)
        )
        for tid, channel, game, status in [
            (1, 101, "zoot", "running"),
            (2, 102, "razz", "closed"),
        ]:
            raw.execute(
                "INSERT INTO tables (id, guild_id, channel_id, game, rules, status, snapshot,"
                " version, created_at, updated_at) VALUES (?, ?, ?, ?, '{\"ante\": 10}', ?,"
                " '{\"v\": 1}', 7, 5, 6)",
                (tid, GUILD, channel, game, status),
            )
        raw.execute(
            "INSERT INTO seats (table_id, seat_no, user_id, is_computer, joined_at)"
            " VALUES (1, 0, ?, 0, 1)",
            (ANN,),
        )
        raw.execute(
            "INSERT INTO hands (table_id, number, game, started_at) VALUES (1, 1, 'zoot', 2)"
        )


async def test_migration_0005_accepts_mixed_game_keys_and_keeps_rows_keys_and_triggers(
    tmp_path: Path,
) -> None:
    path = tmp_path / "old.db"
    schema_4_database(path)
    store = await Store.open(path)
    try:
        assert 5 in store.applied
        async with store.read() as tx:
            rows = await tx._all(
                "SELECT id, game, rules, status, snapshot, version, created_at FROM tables"
                " ORDER BY id"
            )
            assert [tuple(r) for r in rows] == [
                (1, "zoot", '{"ante": 10}', "running", '{"v": 1}', 7, 5),
                (2, "razz", '{"ante": 10}', "closed", '{"v": 1}', 7, 5),
            ]
            assert await tx.league_table_of(GUILD, ANN) == 1
    finally:
        await store.close()
    with sqlite3.connect(path, isolation_level=None) as raw:
        raw.execute("PRAGMA foreign_keys = ON")
        assert raw.execute("PRAGMA foreign_key_check").fetchall() == []
        for tid, channel, game in [(3, 103, "horse"), (4, 104, "dealers-choice")]:
            raw.execute(
                "INSERT INTO tables (id, guild_id, channel_id, game, created_at, updated_at)"
                " VALUES (?, ?, ?, ?, 0, 0)",
                (tid, GUILD, channel, game),
            )
        # the one-live-table-per-channel index came back
        with pytest.raises(sqlite3.IntegrityError, match="channel_id"):
            raw.execute(
                "INSERT INTO tables (guild_id, channel_id, game, created_at, updated_at)"
                " VALUES (?, 103, 'razz', 0, 0)",
                (GUILD,),
            )
        with pytest.raises(sqlite3.IntegrityError, match="CHECK"):
            raw.execute(
                "INSERT INTO tables (guild_id, channel_id, game, created_at, updated_at)"
                " VALUES (?, 105, '', 0, 0)",
                (GUILD,),
            )
        # seats still point at tables (foreign key), and the league-seat triggers work
        with pytest.raises(sqlite3.IntegrityError, match="FOREIGN KEY"):
            raw.execute(
                "INSERT INTO seats (table_id, seat_no, user_id, joined_at) VALUES (99, 0, ?, 0)",
                (BEN,),
            )
        raw.execute(
            "INSERT INTO seats (table_id, seat_no, user_id, joined_at) VALUES (3, 0, ?, 0)",
            (BEN,),
        )
        assert raw.execute(
            "SELECT table_id FROM league_seats WHERE user_id = ?", (BEN,)
        ).fetchall() == [(3,)]
        raw.execute("UPDATE tables SET status = 'closed' WHERE id = 3")
        assert raw.execute("SELECT * FROM league_seats WHERE user_id = ?", (BEN,)).fetchall() == []
        assert raw.execute("PRAGMA foreign_keys").fetchone() == (1,)
