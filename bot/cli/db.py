"""``python -m bot db``: create/upgrade the database, audit the chip ledger, back it up.

Every action finds the database as ``run`` and ``health`` do: ``database.path`` from the
settings (``--config``, ``$HOMEGAME_CONFIG`` or ``./config.toml``, then
``HOMEGAME_DATABASE__PATH``); ``--db`` overrides it.

Exit status: 0 all well; 1 the audit found differences; 2 bad input (bad settings, missing
or damaged file, ...), always one line on stderr.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
import sys
from pathlib import Path

from bot.config import ConfigError, load_settings
from bot.engine.errors import HomeGameError
from bot.store import Store, backup_file


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "db", help="database: migrate, audit, backup", description=__doc__
    )
    sub = parser.add_subparsers(dest="db_command", metavar="ACTION", required=True)

    migrate = sub.add_parser("migrate", help="create the database or bring its schema up to date")
    _common(migrate)
    migrate.set_defaults(handler=_migrate)

    audit = sub.add_parser(
        "audit", help="check every balance against the ledger and that chips are conserved"
    )
    _common(audit)
    audit.add_argument("--guild", type=int, default=None, help="only this league (guild id)")
    audit.add_argument("--json", action="store_true", help="print the figures as JSON")
    audit.set_defaults(handler=_audit)

    backup = sub.add_parser("backup", help="copy the live database with SQLite's backup API")
    _common(backup)
    backup.add_argument("--out", required=True, help="new file to write (must not exist)")
    backup.set_defaults(handler=_backup)


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--config",
        metavar="PATH",
        default=None,
        help="TOML settings file (default: $HOMEGAME_CONFIG, else ./config.toml if present)",
    )
    parser.add_argument(
        "--db",
        metavar="PATH",
        default=None,
        help="database file (default: database.path of the settings)",
    )


def _fail(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return 2


def _settings_db(args: argparse.Namespace) -> tuple[Path, Path]:
    """The database file and the backup folder the settings name (``--db`` wins)."""
    settings = load_settings(args.config)
    db = Path(args.db) if args.db is not None else settings.database.path
    return db, settings.backup.dir


def _migrate(args: argparse.Namespace) -> int:
    try:
        db, backup_dir = _settings_db(args)
    except ConfigError as exc:
        return _fail(exc.message)

    async def run() -> Store:
        store = await Store.open(db, backup_dir=backup_dir)
        await store.close()
        return store

    try:
        store = asyncio.run(run())
    except HomeGameError as exc:
        return _fail(exc.message)
    done = ", ".join(f"{v:04d}" for v in store.applied) or "none (already current)"
    print(f"{db}: schema version {store.schema_version}; migrations applied: {done}")
    if store.pre_migration_backup is not None:
        print(f"backup taken before migrating: {store.pre_migration_backup}")
    return 0


def _audit(args: argparse.Namespace) -> int:
    try:
        db, _ = _settings_db(args)
    except ConfigError as exc:
        return _fail(exc.message)

    async def run() -> tuple[bool, str]:
        # read-only: an audit never upgrades, creates or writes the file it checks (and
        # still reads it on a read-only file system)
        async with await Store.open(db, read_only=True) as store:
            report = await store.audit(args.guild)
        text = json.dumps(report.to_json(), indent=2) if args.json else report.format()
        return report.ok, text

    try:
        ok, text = asyncio.run(run())
    except HomeGameError as exc:
        return _fail(exc.message)
    print(text)
    return 0 if ok else 1


def _backup(args: argparse.Namespace) -> int:
    try:
        db, _ = _settings_db(args)
    except ConfigError as exc:
        return _fail(exc.message)
    out = Path(args.out)
    folder = out.parent if str(out.parent) else Path(".")
    if out.is_dir():
        return _fail(f"--out {out} is a folder; name the new file to write")
    if not folder.is_dir():
        return _fail(f"--out {out}: the folder {folder} does not exist")
    from bot.store.preflight import inspect_file

    try:
        # the source is checked first: a damaged or foreign file is not "backed up"
        inspect_file(db, latest=None, must_exist=True)
        asyncio.run(backup_file(db, out))
    except HomeGameError as exc:
        return _fail(exc.message)
    except (OSError, sqlite3.Error) as exc:
        why = exc.strerror if isinstance(exc, OSError) else str(exc)
        return _fail(f"cannot write {out}: {why}")
    print(f"backed up {db} to {out}")
    return 0
