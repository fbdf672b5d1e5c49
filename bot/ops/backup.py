"""The daily database backup: SQLite's online backup API into a folder, keeping the last N.

Pure parts (tested directly): :func:`next_run` (when the next backup is due),
:func:`backup_name` and :func:`prune` (which files to delete). :func:`make_backup` writes
one backup with :meth:`bot.store.Store.backup` and prunes; :class:`DailyBackup` is the
asyncio task ``python -m bot run`` starts, and whose :meth:`~DailyBackup.stop` lets a
backup in progress finish before the store is closed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot.config import BackupSettings
from bot.store import Store

log = logging.getLogger("homegame.backup")

PREFIX = "homegame-"
SUFFIX = ".db"
_NAME = re.compile(r"^homegame-(\d{8}T\d{6}Z)(?:-(\d+))?\.db$")


def next_run(now: datetime, hour_utc: int) -> datetime:
    """The first ``hour_utc``:00:00 UTC strictly after ``now`` (an aware datetime)."""
    if not 0 <= hour_utc <= 23:
        raise ValueError(f"hour_utc must be 0..23, got {hour_utc}")
    if now.tzinfo is None:
        raise ValueError("now must be timezone-aware")
    now = now.astimezone(UTC)
    due = now.replace(hour=hour_utc, minute=0, second=0, microsecond=0)
    return due if due > now else due + timedelta(days=1)


def backup_name(when: datetime) -> str:
    """``homegame-20250102T040000Z.db``: names sort in time order."""
    return f"{PREFIX}{when.astimezone(UTC):%Y%m%dT%H%M%SZ}{SUFFIX}"


def backups_in(folder: Path) -> list[Path]:
    """The backups in ``folder`` made by this module, oldest first (other files are never
    touched)."""
    if not folder.is_dir():
        return []

    def key(p: Path) -> tuple[str, int]:
        m = _NAME.match(p.name)
        assert m is not None
        return m.group(1), int(m.group(2) or 0)

    found = [p for p in folder.iterdir() if p.is_file() and _NAME.match(p.name)]
    return sorted(found, key=key)


def prune(folder: Path, keep: int) -> list[Path]:
    """Delete all but the newest ``keep`` backups in ``folder``; returns the deleted paths."""
    if keep < 1:
        raise ValueError(f"keep must be at least 1, got {keep}")
    old = backups_in(folder)[:-keep]
    for path in old:
        path.unlink(missing_ok=True)
    return old


async def make_backup(store: Store, folder: Path, keep: int, *, when: datetime) -> Path:
    """Back ``store`` up into ``folder`` (created if needed) as :func:`backup_name`\\(when),
    then :func:`prune` to ``keep``; returns the new file."""
    folder.mkdir(parents=True, exist_ok=True)
    base = backup_name(when)
    out = folder / base
    n = 1
    while out.exists():  # two backups in the same second (a manual one, a retry)
        out = folder / f"{base[: -len(SUFFIX)]}-{n}{SUFFIX}"
        n += 1
    await store.backup(out)
    for gone in prune(folder, keep):
        log.info("deleted old backup %s", gone)
    return out


class DailyBackup:
    """Backs the store up every day at ``settings.hour_utc``; ``start()`` / ``stop()``."""

    def __init__(
        self,
        store: Store,
        settings: BackupSettings,
        *,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.settings = settings
        self.clock = clock
        self.made: list[Path] = []
        self._stop = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def now(self) -> datetime:
        return datetime.fromtimestamp(self.clock(), UTC)

    def start(self) -> None:
        if not self.settings.enabled or self._task is not None:
            return
        self._stop.clear()
        self._task = asyncio.create_task(self._loop(), name="daily-backup")

    async def _loop(self) -> None:
        while not self._stop.is_set():
            due = next_run(self.now(), self.settings.hour_utc)
            log.info("next database backup at %s", due.isoformat())
            delay = max(0.0, (due - self.now()).total_seconds())
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stop.wait(), timeout=delay)
            if self._stop.is_set():
                return
            await self.run_once()

    async def run_once(self) -> Path | None:
        """One backup now; a failure is logged (the bot keeps running) and returns None."""
        try:
            path = await make_backup(
                self.store, self.settings.dir, self.settings.keep, when=self.now()
            )
        except Exception:
            log.exception("database backup into %s failed", self.settings.dir)
            return None
        self.made.append(path)
        log.info("database backed up to %s", path)
        return path

    async def stop(self) -> None:
        """Stop the schedule; a backup being written is finished first (never cancelled)."""
        self._stop.set()
        task, self._task = self._task, None
        if task is not None:
            await task
