"""``python -m bot db``: create/upgrade the database, audit the chip ledger, back it up.

Exit status: 0 all well; 1 the audit found differences; 2 bad input (missing file, ...).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path

from bot.engine.errors import HomeGameError
from bot.store import Store, backup_file

DEFAULT_DB = "homegame.db"


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "db", help="database: migrate, audit, backup", description=__doc__
    )
    sub = parser.add_subparsers(dest="db_command", metavar="ACTION", required=True)

    migrate = sub.add_parser("migrate", help="create the database or bring its schema up to date")
    migrate.add_argument("--db", default=DEFAULT_DB, help=f"database file (default {DEFAULT_DB})")
    migrate.set_defaults(handler=_migrate)

    audit = sub.add_parser(
        "audit", help="check every balance against the ledger and that chips are conserved"
    )
    audit.add_argument("--db", default=DEFAULT_DB, help=f"database file (default {DEFAULT_DB})")
    audit.add_argument("--guild", type=int, default=None, help="only this league (guild id)")
    audit.add_argument("--json", action="store_true", help="print the figures as JSON")
    audit.set_defaults(handler=_audit)

    backup = sub.add_parser("backup", help="copy the live database with SQLite's backup API")
    backup.add_argument("--db", required=True, help="database file to copy")
    backup.add_argument("--out", required=True, help="new file to write (must not exist)")
    backup.set_defaults(handler=_backup)


def _fail(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return 2


def _existing(path: str) -> Path | None:
    db = Path(path)
    return db if db.is_file() else None


def _migrate(args: argparse.Namespace) -> int:
    async def run() -> Store:
        store = await Store.open(args.db)
        await store.close()
        return store

    try:
        store = asyncio.run(run())
    except HomeGameError as exc:
        return _fail(exc.message)
    done = ", ".join(f"{v:04d}" for v in store.applied) or "none (already current)"
    print(f"{args.db}: schema version {store.schema_version}; migrations applied: {done}")
    return 0


def _audit(args: argparse.Namespace) -> int:
    db = _existing(args.db)
    if db is None:
        return _fail(f"no database at {args.db} (give its path with --db)")

    async def run() -> tuple[bool, str]:
        # migrate=False: an audit never upgrades the schema of the file it checks
        async with await Store.open(db, migrate=False) as store:
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
    db = _existing(args.db)
    if db is None:
        return _fail(f"no database at {args.db}")

    try:
        asyncio.run(backup_file(db, args.out))
    except HomeGameError as exc:
        return _fail(exc.message)
    print(f"backed up {args.db} to {args.out}")
    return 0
