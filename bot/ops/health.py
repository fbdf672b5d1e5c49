"""What ``python -m bot health`` checks (the Docker HEALTHCHECK): the database opens
read-only, passes ``PRAGMA quick_check`` and has the current schema, and the running bot's
heartbeat file (``<database>.heartbeat``, written by ``HomeGameBot`` while connected to
the gateway) is recent. Nothing here writes anything."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path

from bot.store.db import migrations
from bot.store.preflight import read_only_uri
from bot.store.summary import DatabaseSummary, summarize

DEFAULT_MAX_AGE = 120.0


class Unhealthy(Exception):
    """One line saying what is wrong."""


@dataclass(frozen=True)
class Health:
    schema_version: int
    heartbeat_age: float
    summary: DatabaseSummary | None = None
    """What the database holds (the figures ``run`` logs at start-up)."""

    def line(self) -> str:
        held = "" if self.summary is None else f": {self.summary.figures()}"
        return (
            f"healthy: database ok (schema {self.schema_version}){held}; "
            f"heartbeat {self.heartbeat_age:.0f} s ago"
        )


def heartbeat_path(db_path: Path) -> Path:
    return Path(f"{db_path}.heartbeat")


def check_database(db_path: Path) -> int:
    """The schema version of a sound, current database at ``db_path``; raises Unhealthy."""
    if db_path.is_dir():
        raise Unhealthy(f"{db_path} is a folder, not a database file")
    if not db_path.is_file():
        raise Unhealthy(f"no database at {db_path}")
    try:
        db = sqlite3.connect(f"{db_path.resolve().as_uri()}?mode=ro", uri=True, timeout=5)
    except sqlite3.Error as exc:
        raise Unhealthy(f"database {db_path} does not open read-only: {exc}") from None
    try:
        rows = db.execute("PRAGMA quick_check").fetchall()
        version = int(db.execute("PRAGMA user_version").fetchone()[0])
    except sqlite3.Error as exc:
        raise Unhealthy(f"database {db_path} is unreadable: {exc}") from None
    finally:
        db.close()
    verdict = "; ".join(str(r[0]) for r in rows[:3])
    if verdict != "ok":
        raise Unhealthy(f"database {db_path} fails quick_check: {verdict}")
    known = migrations()
    latest = known[-1].version if known else 0
    if version != latest:
        raise Unhealthy(f"database {db_path} has schema version {version}, expected {latest}")
    return version


def database_summary(db_path: Path, version: int) -> DatabaseSummary:
    """The members and hands of the (checked) database at ``db_path``, read-only."""
    try:
        db = sqlite3.connect(read_only_uri(db_path), uri=True, timeout=5)
        try:
            return summarize(db, db_path, version)
        finally:
            db.close()
    except sqlite3.Error as exc:
        raise Unhealthy(f"database {db_path} is unreadable: {exc}") from None


def heartbeat_age(path: Path, now: float) -> float:
    """Seconds since the bot last wrote ``path``; raises Unhealthy if it never did."""
    try:
        text = path.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        raise Unhealthy(
            f"no heartbeat file {path}: the bot is stopped or not connected to Discord"
        ) from None
    except OSError as exc:
        raise Unhealthy(f"heartbeat file {path} unreadable: {exc.strerror}") from None
    try:
        beat = float(text)
    except ValueError:
        raise Unhealthy(f"heartbeat file {path} holds {text[:40]!r}, not a time") from None
    return now - beat


def check(db_path: Path, *, now: float, max_age: float = DEFAULT_MAX_AGE) -> Health:
    """Both checks at the time ``now`` (the caller's clock, the one the bot writes its
    heartbeat with); raises :class:`Unhealthy` with the first problem found."""
    version = check_database(db_path)
    beat_file = heartbeat_path(db_path)
    age = heartbeat_age(beat_file, now)
    if age > max_age:
        raise Unhealthy(f"last gateway heartbeat {age:.0f} s ago (limit {max_age:.0f} s)")
    return Health(version, max(age, 0.0), database_summary(db_path, version))
