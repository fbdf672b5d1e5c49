"""Migrations: numbered files, applied once, version in PRAGMA user_version; STRICT tables,
an append-only ledger enforced by the database itself."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from bot.store import MigrationError, Store, migrations
from tests.store.conftest import ALICE, GUILD


def test_migration_files_are_numbered_from_one_without_gaps() -> None:
    found = migrations()
    assert [m.version for m in found] == list(range(1, len(found) + 1))
    assert found[0].name == "initial"


async def test_open_empty_file_applies_every_migration_and_sets_user_version(
    db_path: Path,
) -> None:
    store = await Store.open(db_path)
    latest = migrations()[-1].version
    assert store.applied == tuple(range(1, latest + 1))
    assert store.schema_version == latest
    await store.close()
    with sqlite3.connect(db_path) as raw:
        assert raw.execute("PRAGMA user_version").fetchone()[0] == latest
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        strict = raw.execute("SELECT name FROM sqlite_schema WHERE type = 'table'").fetchall()
        for (name,) in strict:
            sql = raw.execute("SELECT sql FROM sqlite_schema WHERE name = ?", (name,)).fetchone()
            assert sql[0].rstrip().endswith("STRICT"), name


async def test_reopen_is_idempotent_and_keeps_data(db_path: Path) -> None:
    store = await Store.open(db_path)
    async with store.transaction() as tx:
        await tx.wallet(GUILD, ALICE)
    await store.close()
    again = await Store.open(db_path)
    assert again.applied == ()
    async with again.read() as tx:
        wallet = await tx.find_wallet(GUILD, ALICE)
        assert wallet is not None and wallet.balance == 1000
    await again.close()


async def test_pragmas_foreign_keys_busy_timeout_synchronous(store: Store) -> None:
    async with store.read() as tx:
        assert (await tx._one("PRAGMA foreign_keys"))[0] == 1
        assert (await tx._one("PRAGMA busy_timeout"))[0] == 5000
        assert (await tx._one("PRAGMA synchronous"))[0] == 1  # NORMAL


async def test_newer_schema_than_the_code_is_refused(db_path: Path) -> None:
    with sqlite3.connect(db_path) as raw:
        raw.execute("PRAGMA user_version = 999")
    with pytest.raises(MigrationError, match="newer"):
        await Store.open(db_path)


async def test_open_without_migrate_refuses_an_outdated_schema(db_path: Path) -> None:
    sqlite3.connect(db_path).close()
    with pytest.raises(MigrationError, match="db migrate"):
        await Store.open(db_path, migrate=False)


async def test_strict_table_refuses_a_text_chip_amount(store: Store, db_path: Path) -> None:
    async with store.transaction() as tx:
        await tx.wallet(GUILD, ALICE)
    with sqlite3.connect(db_path) as raw, pytest.raises(sqlite3.IntegrityError, match="TEXT"):
        raw.execute(
            "INSERT INTO ledger (guild_id, season_id, from_account, to_account, amount, kind,"
            " created_at) VALUES (?, 1, 1, 2, 'lots', 'grant', 0)",
            (GUILD,),
        )


async def test_ledger_update_and_delete_are_refused_by_triggers(
    store: Store, db_path: Path
) -> None:
    async with store.transaction() as tx:
        await tx.wallet(GUILD, ALICE)
    with sqlite3.connect(db_path) as raw:
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            raw.execute("UPDATE ledger SET amount = 5000")
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            raw.execute("DELETE FROM ledger")
        assert raw.execute("SELECT amount FROM ledger").fetchall() == [(1000,)]


async def test_foreign_keys_refuse_a_ledger_row_for_a_missing_account(store: Store) -> None:
    async with store.transaction() as tx:
        await tx.wallet(GUILD, ALICE)
    with pytest.raises(sqlite3.IntegrityError, match="FOREIGN KEY"):
        async with store.transaction() as tx:
            await tx._insert(
                "INSERT INTO ledger (guild_id, season_id, from_account, to_account, amount,"
                " kind, created_at) VALUES (?, 1, 1, 999, 5, 'grant', 0)",
                (GUILD,),
            )


async def test_migration_2_keeps_a_version_1_hand_log_keyed_without_rowid(db_path: Path) -> None:
    """A database written by schema 1 (hand log with a rowid, ledger_table index) opens at the
    latest schema with its events intact, in order, still append-only."""
    from bot.engine.events import Event

    first = migrations()[0]
    events = [
        Event("deal", {"street": 3}, None),
        Event("down", {"cards": "2c3d"}, 1),
        Event("bet", {"amount": 5}, None),
    ]
    with sqlite3.connect(db_path) as raw:
        for statement in first.statements():
            raw.execute(statement)
        raw.execute("PRAGMA user_version = 1")
        raw.execute(
            "INSERT INTO leagues (guild_id, created_at, updated_at) VALUES (?, 1, 1)", (GUILD,)
        )
        raw.execute(
            "INSERT INTO tables (id, guild_id, channel_id, game, created_at, updated_at)"
            " VALUES (7, ?, 70, 'razz', 1, 1)",
            (GUILD,),
        )
        raw.execute(
            "INSERT INTO hands (id, table_id, number, game, started_at) VALUES (3, 7, 1, 'razz', 1)"
        )
        for seq, e in enumerate(events, start=1):
            raw.execute(
                "INSERT INTO hand_events (hand_id, seq, kind, visible_to, event, created_at)"
                " VALUES (3, ?, ?, ?, json(?), 1)",
                (seq, e.kind, e.visible_to, json.dumps(e.to_json())),
            )
    store = await Store.open(db_path)
    assert store.applied == tuple(range(2, migrations()[-1].version + 1))
    async with store.read() as tx:
        assert await tx.hand_events(3) == events
        assert await tx.hand_events(3, after=1) == events[1:]
    await store.close()
    with sqlite3.connect(db_path) as raw:
        sql = raw.execute("SELECT sql FROM sqlite_schema WHERE name = 'hand_events'").fetchone()[0]
        assert "WITHOUT ROWID" in sql
        indexes = {r[0] for r in raw.execute("SELECT name FROM sqlite_schema WHERE type='index'")}
        assert "ledger_table" not in indexes and "ledger_hand" in indexes
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            raw.execute("UPDATE hand_events SET kind = 'x' WHERE hand_id = 3")
