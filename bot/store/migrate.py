"""The schema's migrations: the numbered SQL files in ``bot/store/migrations`` and the
runner that applies the pending ones (:class:`bot.store.db.Store` calls it when it opens a
database; ``python -m bot db migrate`` too).
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from importlib import resources

import aiosqlite

from bot.store.errors import MigrationError

_MIGRATION_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    name: str
    sql: str

    def statements(self) -> list[str]:
        """The file's statements, split where SQLite says one is complete (so a trigger's
        ``BEGIN ... END;`` body stays whole)."""
        out: list[str] = []
        buf = ""
        for line in self.sql.splitlines(keepends=True):
            buf += line
            if sqlite3.complete_statement(buf):
                out.append(buf.strip())
                buf = ""
        if buf.strip() and not all(
            ln.strip().startswith("--") or not ln.strip() for ln in buf.splitlines()
        ):
            raise MigrationError(f"migration {self.version:04d}_{self.name}: unfinished statement")
        return out

    @property
    def foreign_keys_off(self) -> bool:
        """The file asks (first line ``-- foreign_keys: off``) to run with foreign keys off:
        a table rebuild (SQLite cannot change a column's CHECK in place), which drops a
        table other tables reference. PRAGMA foreign_keys is a no-op inside a transaction,
        so the runner sets it around it and checks the keys before the commit."""
        return self.sql.lstrip().startswith("-- foreign_keys: off")


def migrations() -> tuple[Migration, ...]:
    """The migration files shipped in ``bot/store/migrations``, numbered 1, 2, 3 ... with no
    gap."""
    found: list[Migration] = []
    for entry in (resources.files("bot.store") / "migrations").iterdir():
        match = _MIGRATION_NAME.match(entry.name)
        if match:
            found.append(Migration(int(match[1]), match[2], entry.read_text(encoding="utf-8")))
    found.sort(key=lambda m: m.version)
    for expected, m in enumerate(found, start=1):
        if m.version != expected:
            raise MigrationError(f"migration {expected:04d} is missing")
    return tuple(found)


async def user_version(db: aiosqlite.Connection) -> int:
    async with db.execute("PRAGMA user_version") as cur:
        row = await cur.fetchone()
    assert row is not None
    return int(row[0])


async def migrate_schema(db: aiosqlite.Connection, *, dry: bool) -> tuple[int, ...]:
    """Apply each pending migration in one ``BEGIN IMMEDIATE`` transaction that also sets
    ``PRAGMA user_version``. The version is re-read inside the transaction, so two
    processes opening a new database at once do not both apply it."""
    known = migrations()
    latest = known[-1].version if known else 0
    applied: list[int] = []
    for m in known:
        if dry:
            version = await user_version(db)
            if version < latest:
                raise MigrationError(
                    f"schema version {version} is older than {latest}:"
                    " run `python -m bot db migrate`"
                )
            break
        if m.foreign_keys_off:
            await db.execute("PRAGMA foreign_keys = OFF")
        await db.execute("BEGIN IMMEDIATE")
        try:
            version = await user_version(db)
            if version > latest:
                raise MigrationError(
                    f"schema version {version} is newer than this code knows ({latest})"
                )
            if version >= m.version:
                await db.execute("COMMIT")
                continue
            for statement in m.statements():
                await db.execute(statement)
            if m.foreign_keys_off:
                async with db.execute("PRAGMA foreign_key_check") as cur:
                    broken = await cur.fetchall()
                if broken:
                    raise MigrationError(
                        f"migration {m.version:04d}_{m.name} breaks foreign keys: {broken[:3]}"
                    )
            await db.execute(f"PRAGMA user_version = {m.version}")
            await db.execute("COMMIT")
        except BaseException as exc:
            await db.execute("ROLLBACK")
            if isinstance(exc, sqlite3.Error):
                raise MigrationError(f"migration {m.version:04d}_{m.name} failed: {exc}") from exc
            raise
        finally:
            if m.foreign_keys_off:
                await db.execute("PRAGMA foreign_keys = ON")
        applied.append(m.version)
    version = await user_version(db)
    if version > latest:
        raise MigrationError(f"schema version {version} is newer than this code knows ({latest})")
    return tuple(applied)
