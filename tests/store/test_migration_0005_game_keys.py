"""Migration 0005 (issue 13): the schema no longer lists the games, so Hold'em and Omaha
tables (and a ninth game later) can be stored, and the ledger takes 'blind' rows. Applied
to a database of schema 4 holding tables with seats, hands, pot accounts, ledger rows and
messages, it keeps every row and every reference to a table, keeps the live-table index,
the league-seat trigger and the append-only ledger, and still refuses a game key of the
wrong shape."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.store import Store, migrations

GUILD = 4001
ANN, BEN = 41, 42


def schema_4_database(path: Path) -> None:
    with sqlite3.connect(path, isolation_level=None) as raw:
        raw.execute("PRAGMA foreign_keys = ON")
        for m in migrations():
            if m.version <= 4:
                for statement in m.statements():
                    raw.execute(statement)
        raw.execute("PRAGMA user_version = 4")
        raw.execute(
            "INSERT INTO leagues (guild_id, created_at, updated_at) VALUES (?, 0, 0)", (GUILD,)
        )
        raw.execute(
            "INSERT INTO seasons (id, guild_id, number, started_at) VALUES (1, ?, 1, 0)", (GUILD,)
        )
        for tid, channel, game, status in ((1, 101, "razz", "running"), (2, 102, "zoot", "closed")):
            raw.execute(
                "INSERT INTO tables (id, guild_id, channel_id, game, status, snapshot,"
                " version, created_at, updated_at) VALUES (?, ?, ?, ?, ?, '{\"v\": 1}', 7, 0, 0)",
                (tid, GUILD, channel, game, status),
            )
        raw.execute(
            "INSERT INTO seats (table_id, seat_no, user_id, joined_at) VALUES (1, 0, ?, 0),"
            " (1, 1, ?, 0)",
            (ANN, BEN),
        )
        raw.execute(
            "INSERT INTO accounts (id, guild_id, kind, balance, created_at)"
            " VALUES (1, ?, 'house', -10, 0)",
            (GUILD,),
        )
        raw.execute(
            "INSERT INTO accounts (id, guild_id, kind, table_id, balance, created_at)"
            " VALUES (2, ?, 'pot', 1, 10, 0)",
            (GUILD,),
        )
        raw.execute(
            "INSERT INTO hands (id, table_id, number, game, started_at) VALUES (1, 1, 1, 'razz', 0)"
        )
        raw.execute(
            "INSERT INTO ledger (guild_id, season_id, from_account, to_account, amount, kind,"
            " table_id, hand_id, created_at) VALUES (?, 1, 1, 2, 10, 'ante', 1, 1, 0)",
            (GUILD,),
        )
        raw.execute(
            "INSERT INTO table_messages (table_id, kind, channel_id, message_id, updated_at)"
            " VALUES (1, 'table', 101, 9001, 0)"
        )


async def test_migration_0005_keeps_every_row_and_reference_admits_holdem_and_blinds(
    tmp_path: Path,
) -> None:
    path = tmp_path / "old.db"
    schema_4_database(path)
    store = await Store.open(path)
    try:
        assert 5 in store.applied
    finally:
        await store.close()
    with sqlite3.connect(path) as raw:
        raw.execute("PRAGMA foreign_keys = ON")
        assert raw.execute("PRAGMA foreign_key_check").fetchall() == []
        assert raw.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        rows = raw.execute("SELECT id, game, status, snapshot, version FROM tables").fetchall()
        assert rows == [(1, "razz", "running", '{"v": 1}', 7), (2, "zoot", "closed", '{"v": 1}', 7)]
        assert raw.execute("SELECT count(*) FROM ledger WHERE table_id = 1").fetchone() == (1,)
        assert raw.execute("SELECT table_id FROM league_seats ORDER BY user_id").fetchall() == [
            (1,),
            (1,),
        ]
        raw.execute(
            "INSERT INTO tables (guild_id, channel_id, game, created_at, updated_at)"
            " VALUES (?, 103, 'holdem', 0, 0)",
            (GUILD,),
        )
        with pytest.raises(sqlite3.IntegrityError, match="UNIQUE"):
            raw.execute(
                "INSERT INTO tables (guild_id, channel_id, game, created_at, updated_at)"
                " VALUES (?, 103, 'omaha', 0, 0)",
                (GUILD,),
            )
        with pytest.raises(sqlite3.IntegrityError, match="CHECK"):
            raw.execute(
                "INSERT INTO tables (guild_id, channel_id, game, created_at, updated_at)"
                " VALUES (?, 104, 'Hold em', 0, 0)",
                (GUILD,),
            )
        with pytest.raises(sqlite3.IntegrityError, match="FOREIGN KEY"):
            raw.execute("DELETE FROM tables WHERE id = 1")
        # the ledger kept its row and id, takes a blind, and is still append-only
        assert raw.execute("SELECT id, kind, amount FROM ledger").fetchall() == [(1, "ante", 10)]
        raw.execute(
            "INSERT INTO ledger (guild_id, season_id, from_account, to_account, amount, kind,"
            " table_id, hand_id, created_at) VALUES (?, 1, 1, 2, 5, 'blind', 1, 1, 0)",
            (GUILD,),
        )
        raw.execute(  # the settle-up's kind (0004) is still a ledger kind
            "INSERT INTO ledger (guild_id, season_id, from_account, to_account, amount, kind,"
            " created_at) VALUES (?, 1, 2, 1, 5, 'settle', 0)",
            (GUILD,),
        )
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            raw.execute("DELETE FROM ledger WHERE id = 1")
        with pytest.raises(sqlite3.IntegrityError, match="CHECK"):
            raw.execute(
                "INSERT INTO ledger (guild_id, season_id, from_account, to_account, amount,"
                " kind, created_at) VALUES (?, 1, 1, 2, 5, 'straddle', 0)",
                (GUILD,),
            )
        # the league-seat trigger on tables is back: closing the table frees its seats
        raw.execute("UPDATE tables SET status = 'closed' WHERE id = 1")
        assert raw.execute("SELECT count(*) FROM league_seats").fetchone() == (0,)
    raw.close()
