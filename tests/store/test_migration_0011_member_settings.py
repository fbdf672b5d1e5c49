"""Migration 0011 (issue 22 item 3): a member's own settings, ``turn_ping`` and where their
last turn ping is. Applied to a database holding a league, a table and a hand, it keeps
every row; applied again it changes nothing; no row reads as the defaults; the schema
refuses a setting it does not know and a ping's channel without its message; ``/league
forget`` drops the member's row."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.store import Store, StoreError, forget_member, migrations

GUILD = 17001
BOB = 1702


def schema_10_database(path: Path) -> None:
    with sqlite3.connect(path, isolation_level=None) as raw:
        raw.execute("PRAGMA foreign_keys = ON")
        for m in migrations():
            if m.version < 11:
                for statement in m.statements():
                    raw.execute(statement)
        raw.execute("PRAGMA user_version = 10")
        raw.execute(
            "INSERT INTO leagues (guild_id, created_at, updated_at) VALUES (?, 0, 0)", (GUILD,)
        )
        raw.execute(
            "INSERT INTO tables (id, guild_id, channel_id, game, status, created_at, updated_at)"
            " VALUES (1, ?, 101, 'holdem', 'closed', 0, 0)",
            (GUILD,),
        )
        raw.execute(
            "INSERT INTO accounts (guild_id, kind, table_id, created_at) VALUES (?, 'pot', 1, 0)",
            (GUILD,),
        )
        raw.execute(
            "INSERT INTO hands (id, table_id, number, game, status, started_at, history)"
            " VALUES (1, 1, 1, 'holdem', 'finished', 0, 'variant = ''NT''')"
        )
    raw.close()


async def test_migration_0011_keeps_rows_and_member_settings_default_to_dm(
    tmp_path: Path,
) -> None:
    path = tmp_path / "old.db"
    schema_10_database(path)
    store = await Store.open(path)
    try:
        assert 11 in store.applied
        async with store.read() as tx:
            assert (await tx.table(1)).status == "closed"
            assert [h.id for h in await tx.hands(1)] == [1]
            fresh = await tx.member_settings(GUILD, BOB)
        assert (fresh.turn_ping, fresh.ping_channel_id, fresh.ping_message_id) == ("dm", None, None)
        async with store.transaction() as tx:
            await tx.set_turn_ping(GUILD, BOB, "mention")
            await tx.set_last_ping(GUILD, BOB, 55, 66)
        async with store.transaction() as tx:
            await tx.set_turn_ping(GUILD, BOB, "off")  # the ping's place is kept
            with pytest.raises(StoreError):
                await tx.set_turn_ping(GUILD, BOB, "loud")
        async with store.read() as tx:
            mine = await tx.member_settings(GUILD, BOB)
            other = await tx.member_settings(GUILD + 1, BOB)  # a member per server
        assert (mine.turn_ping, mine.ping_channel_id, mine.ping_message_id) == ("off", 55, 66)
        assert other.turn_ping == "dm"
        async with store.transaction() as tx:
            await forget_member(tx, GUILD, BOB)
        async with store.read() as tx:
            assert (await tx.member_settings(GUILD, BOB)).ping_message_id is None
    finally:
        await store.close()
    with sqlite3.connect(path) as raw:
        for bad in (
            "INSERT INTO member_settings (guild_id, user_id, turn_ping, updated_at)"
            " VALUES (1, 2, 'loud', 0)",
            "INSERT INTO member_settings (guild_id, user_id, ping_channel_id, updated_at)"
            " VALUES (1, 3, 9, 0)",
        ):
            with pytest.raises(sqlite3.IntegrityError, match="CHECK"):
                raw.execute(bad)
        raw.execute("PRAGMA user_version = 10")
    # applied again (a version set back): nothing changes, nothing is lost
    store = await Store.open(path)
    try:
        assert 11 in store.applied
        async with store.read() as tx:
            assert [h.id for h in await tx.hands(1)] == [1]
    finally:
        await store.close()
