"""Migration 0008 (issue 18 item 10, the verifiable shuffle): the tables opened with
``verifiable:on`` and each of their hands' seed, in two tables of their own. Applied to a
database holding tables and hands, it keeps every row (each table not verifiable, each hand
without a seed); applied again it changes nothing; the store writes and reads both; a
``SELECT * FROM hands`` shows no seed; a seed that is not 64 lowercase hex digits is
refused by the schema itself."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.engine.shuffle import new_seed
from bot.store import Store, migrations

GUILD = 8001


def schema_7_database(path: Path) -> None:
    with sqlite3.connect(path, isolation_level=None) as raw:
        raw.execute("PRAGMA foreign_keys = ON")
        for m in migrations():
            if m.version < 8:
                for statement in m.statements():
                    raw.execute(statement)
        raw.execute("PRAGMA user_version = 7")
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


async def test_migration_0008_keeps_rows_and_keeps_seeds_apart(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    schema_7_database(path)
    store = await Store.open(path)
    try:
        assert 8 in store.applied
        async with store.read() as tx:
            old = await tx.table(1)
            (hand,) = await tx.hands(1)
        assert old.verifiable is False and old.status == "closed"
        assert hand.seed is None and hand.history == "variant = 'NT'"
        seed = new_seed()
        async with store.transaction() as tx:
            opened = await tx.create_table(GUILD, 102, "zoot", verifiable=True)
            plain = await tx.create_table(GUILD, 103, "zoot")
            dealt = await tx.begin_hand(opened.id, seed=seed)
            other = await tx.begin_hand(plain.id)
        assert opened.verifiable and not plain.verifiable
        assert dealt.seed == seed and other.seed is None
        async with store.read() as tx:
            assert (await tx.hand(dealt.id)).seed == seed
            assert (await tx.running_hand(opened.id)) == dealt
            assert [h.seed for h in await tx.hands(opened.id)] == [seed]
            assert (await tx.table(opened.id)).verifiable
    finally:
        await store.close()
    with sqlite3.connect(path) as raw:
        raw.row_factory = sqlite3.Row
        row = raw.execute("SELECT * FROM hands WHERE id = ?", (dealt.id,)).fetchone()
        columns = row.keys()  # a Row's ``in`` looks at its values
        assert "seed" not in columns and seed not in [str(v) for v in tuple(row)]
        for bad in ("AB" * 32, "0" * 63, "g" * 64, "", None):
            with pytest.raises(sqlite3.IntegrityError, match=r"CHECK|NOT NULL"):
                raw.execute("INSERT INTO hand_seeds (hand_id, seed) VALUES (1, ?)", (bad,))
        with pytest.raises(sqlite3.IntegrityError, match=r"UNIQUE|PRIMARY"):
            raw.execute("INSERT INTO hand_seeds (hand_id, seed) VALUES (?, ?)", (dealt.id, seed))
        # applied again (a database whose version was set back): nothing changes
        for statement in migrations()[7].statements():
            raw.execute(statement)
        assert raw.execute("SELECT count(*) FROM hand_seeds").fetchone()[0] == 1
    raw.close()
