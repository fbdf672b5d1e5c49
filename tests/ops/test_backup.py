"""The daily backup (issue 6, Operations): when it runs, what it keeps, and that a backup
made by the backup task opens and passes the audit."""

from __future__ import annotations

import asyncio
import sqlite3
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest

from bot.config import BackupSettings
from bot.ops.backup import DailyBackup, backup_name, backups_in, make_backup, next_run, prune
from bot.store import Store


def test_next_run_later_today_when_the_hour_is_still_ahead() -> None:
    now = datetime(2025, 3, 1, 2, 30, tzinfo=UTC)
    assert next_run(now, 4) == datetime(2025, 3, 1, 4, 0, tzinfo=UTC)


def test_next_run_tomorrow_when_the_hour_has_passed_or_is_now() -> None:
    assert next_run(datetime(2025, 3, 1, 4, 0, tzinfo=UTC), 4) == datetime(
        2025, 3, 2, 4, 0, tzinfo=UTC
    )
    assert next_run(datetime(2025, 12, 31, 23, 59, tzinfo=UTC), 23) == datetime(
        2026, 1, 1, 23, 0, tzinfo=UTC
    )


def test_next_run_converts_local_time_to_utc() -> None:
    paris = timezone(timedelta(hours=1))
    # 04:30 in UTC+1 is 03:30 UTC: the 04:00 UTC backup is still ahead today
    assert next_run(datetime(2025, 3, 1, 4, 30, tzinfo=paris), 4) == datetime(
        2025, 3, 1, 4, 0, tzinfo=UTC
    )


def test_next_run_refuses_naive_time_and_bad_hour() -> None:
    with pytest.raises(ValueError, match="timezone-aware"):
        next_run(datetime(2025, 3, 1), 4)
    with pytest.raises(ValueError, match=r"0\.\.23"):
        next_run(datetime(2025, 3, 1, tzinfo=UTC), 24)


def test_prune_keeps_the_newest_n_and_never_touches_other_files(tmp_path: Path) -> None:
    day = datetime(2025, 1, 1, 4, tzinfo=UTC)
    names = [backup_name(day + timedelta(days=i)) for i in range(5)]
    for name in reversed(names):  # creation order must not matter: names sort by time
        (tmp_path / name).write_bytes(b"x")
    (tmp_path / "notes.txt").write_text("mine")
    (tmp_path / "homegame.db").write_bytes(b"live database")
    deleted = prune(tmp_path, 2)
    assert [p.name for p in deleted] == names[:3]
    assert [p.name for p in backups_in(tmp_path)] == names[3:]
    assert (tmp_path / "notes.txt").exists() and (tmp_path / "homegame.db").exists()
    with pytest.raises(ValueError, match="at least 1"):
        prune(tmp_path, 0)


async def _store_with_chips(path: Path) -> Store:
    store = await Store.open(path)
    async with store.transaction() as tx:
        await tx.league(1)
        await tx.grant(1, 42, 1000, actor_id=7, reason="starting chips")
    return store


async def test_backup_made_by_the_task_opens_and_passes_the_audit(tmp_path: Path) -> None:
    store = await _store_with_chips(tmp_path / "live.db")
    folder = tmp_path / "backups"
    try:
        when = datetime(2025, 1, 1, 4, tzinfo=UTC)
        made = [
            await make_backup(store, folder, 2, when=when + timedelta(days=i)) for i in range(3)
        ]
    finally:
        await store.close()
    assert [p.name for p in backups_in(folder)] == [p.name for p in made[1:]]  # keep=2
    newest = made[-1]
    assert sqlite3.connect(newest).execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    copy = await Store.open(newest, migrate=False)
    try:
        report = await copy.audit()
        assert report.ok, report.format()
        assert [f.guild_id for f in report.leagues] == [1]
    finally:
        await copy.close()


async def test_daily_backup_runs_at_the_hour_and_stop_waits_for_it(tmp_path: Path) -> None:
    store = await _store_with_chips(tmp_path / "live.db")
    # a clock 50 ms before 04:00 UTC: the task sleeps 50 ms, then backs up
    start = datetime(2025, 1, 1, 3, 59, 59, 950000, tzinfo=UTC).timestamp()
    loop = asyncio.get_running_loop()
    t0 = loop.time()
    settings = BackupSettings(dir=tmp_path / "b", keep=3, hour_utc=4)
    task = DailyBackup(store, settings, clock=lambda: start + (loop.time() - t0))
    try:
        task.start()

        async def made() -> None:
            while not task.made:
                await asyncio.sleep(0.02)

        await asyncio.wait_for(made(), 120)  # a hang guard: the backup is due 0.05 s in
        await task.stop()
    finally:
        await store.close()
    assert [p.name for p in task.made] == ["homegame-20250101T040000Z.db"]
    assert backups_in(settings.dir) == task.made


async def test_disabled_backup_never_starts(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "live.db")
    try:
        task = DailyBackup(store, BackupSettings(enabled=False, dir=tmp_path / "b"))
        task.start()
        await task.stop()
        assert task.made == [] and not (tmp_path / "b").exists()
    finally:
        await store.close()
