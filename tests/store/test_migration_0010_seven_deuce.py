"""Migration 0010 (issue 18 item 14, seven-deuce): the ledger learns the kind
``seven_deuce``. Applied to a database whose ledger holds rows, it keeps every row (ids,
kinds, amounts) and the append-only triggers; the schema then takes ``seven_deuce`` and
still refuses an unknown kind; the store moves a seven-deuce payment both ways through a
table's pot, and no other kind goes out of a pot the wrong way."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.store import Store, migrations
from bot.store.errors import InvalidAmount

GUILD = 8016


def schema_9_database(path: Path) -> None:
    """A database at schema 9: a league, its season, a table, two wallets and a hand's
    ledger rows (the starting chips, a blind, a bet, the award)."""
    with sqlite3.connect(path, isolation_level=None) as raw:
        raw.execute("PRAGMA foreign_keys = ON")
        for m in migrations():
            if m.version < 10:
                for statement in m.statements():
                    raw.execute(statement)
        raw.execute("PRAGMA user_version = 9")
        raw.execute(
            "INSERT INTO leagues (guild_id, created_at, updated_at) VALUES (?, 0, 0)", (GUILD,)
        )
        raw.execute(
            "INSERT INTO seasons (id, guild_id, number, started_at) VALUES (1, ?, 1, 0)", (GUILD,)
        )
        raw.execute(
            "INSERT INTO tables (id, guild_id, channel_id, game, status, created_at, updated_at)"
            " VALUES (1, ?, 101, 'holdem', 'running', 0, 0)",
            (GUILD,),
        )
        raw.execute(
            "INSERT INTO hands (id, table_id, number, game, status, started_at)"
            " VALUES (1, 1, 1, 'holdem', 'running', 0)"
        )
        accounts = [
            (1, "house", None, None, None, -2000),
            (2, "player", 1, 1, None, 1010),
            (3, "player", 1, 2, None, 990),
            (4, "pot", None, None, 1, 0),
        ]
        for aid, kind, season, user, table, balance in accounts:
            raw.execute(
                "INSERT INTO accounts (id, guild_id, kind, season_id, user_id, table_id,"
                " balance, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, 0)",
                (aid, GUILD, kind, season, user, table, balance),
            )
        rows = [
            (1, 2, 1000, "start", None),
            (1, 3, 1000, "start", None),
            (2, 4, 10, "blind", 1),
            (3, 4, 10, "bet", 1),
            (4, 2, 20, "award", 1),
        ]
        for payer, payee, amount, kind, hand in rows:
            raw.execute(
                "INSERT INTO ledger (guild_id, season_id, from_account, to_account, amount,"
                " kind, table_id, hand_id, created_at) VALUES (?, 1, ?, ?, ?, ?, 1, ?, 0)",
                (GUILD, payer, payee, amount, kind, hand),
            )
    raw.close()


async def test_migration_0010_keeps_the_ledger_and_learns_seven_deuce(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    schema_9_database(path)
    with sqlite3.connect(path) as raw:
        before = raw.execute("SELECT * FROM ledger ORDER BY id").fetchall()
        with pytest.raises(sqlite3.IntegrityError, match="CHECK"):
            raw.execute(
                "INSERT INTO ledger (guild_id, season_id, from_account, to_account, amount,"
                " kind, created_at) SELECT guild_id, season_id, from_account, to_account, 1,"
                " 'seven_deuce', 0 FROM ledger LIMIT 1"
            )
    raw.close()
    assert len(before) == 5  # the starting chips and the hand's three moves
    store = await Store.open(path)
    try:
        assert 10 in store.applied
        async with store.transaction() as tx:
            await tx.move_chips(1, 2, 5, "seven_deuce", hand_id=1)
            await tx.move_chips(1, 1, -5, "seven_deuce", hand_id=1)
            with pytest.raises(InvalidAmount, match="cannot go out of"):
                await tx.move_chips(1, 1, -5, "bet", hand_id=1)
    finally:
        await store.close()
    with sqlite3.connect(path) as raw:
        after = raw.execute("SELECT * FROM ledger ORDER BY id").fetchall()
        assert after[: len(before)] == before
        assert [r[6] for r in after[len(before) :]] == ["seven_deuce", "seven_deuce"]
        with pytest.raises(sqlite3.IntegrityError, match="CHECK"):
            raw.execute(
                "INSERT INTO ledger (guild_id, season_id, from_account, to_account, amount,"
                " kind, created_at) SELECT guild_id, season_id, from_account, to_account, 1,"
                " 'tip', 0 FROM ledger LIMIT 1"
            )
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            raw.execute("DELETE FROM ledger")
    raw.close()
