"""Issue 19, item 3: a mistyped database path does not start an empty league.

``run`` refuses a database whose folder does not exist in one line (as ``db backup --out``
does) and creates nothing; a backup folder that is a file (or cannot be made) is refused at
start-up, not at the first backup; at start-up one log line names the database file, its
schema version and how many members and hands it holds, and ``health`` reports the same.
The start-up line of a running bot: tests/ops/test_league_from_config_file.py.
"""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.cli.run import serve
from bot.config import BackupSettings, DatabaseSettings, DiscordSettings, Settings
from bot.ops.health import heartbeat_path
from bot.store import Store, migrations
from bot.tables.service import TableService

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.Gabcde.fake-token-for-the-path-tests-only"


def settings(db: Path, backups: Path, *, enabled: bool = True) -> Settings:
    return Settings(
        discord=DiscordSettings(token=TOKEN, api_base="http://127.0.0.1:9/api/v10"),
        database=DatabaseSettings(path=db),
        backup=BackupSettings(dir=backups, enabled=enabled),
    )


async def test_issue19_item3_run_refuses_a_database_folder_that_does_not_exist(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "dtaa" / "homegame.db"  # a typo of "data"
    # (a guard, not a measure: before the fix the bot went on to connect, retrying forever)
    status = await asyncio.wait_for(serve(settings(db, tmp_path / "backups")), 60)
    err = capsys.readouterr().err
    assert status == 2
    assert err == (
        f"homegame: database.path {db}: the folder {db.parent} does not exist; create it or"
        " correct the path. Nothing was created.\n"
    )
    assert not db.parent.exists() and not (tmp_path / "backups").exists()


async def test_issue19_item3_run_refuses_a_backup_folder_that_is_a_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    backups = tmp_path / "backups"
    backups.write_text("not a folder")
    db = tmp_path / "homegame.db"
    status = await asyncio.wait_for(serve(settings(db, backups)), 60)
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1
    assert err.startswith(f"homegame: backup.dir {backups} is a file, not a folder")
    assert not db.exists()  # refused before the database is opened
    # with backups off the same folder setting does not matter
    assert (await _refusal(settings(db, backups, enabled=False))) is None


async def test_issue19_item3_run_refuses_a_backup_folder_whose_parent_is_missing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    backups = tmp_path / "nowhere" / "backups"
    status = await asyncio.wait_for(serve(settings(tmp_path / "homegame.db", backups)), 60)
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1 and f"backup.dir {backups}" in err
    assert not backups.parent.exists()


async def _refusal(chosen: Settings) -> str | None:
    from bot.cli.run import check_paths
    from bot.config import ConfigError

    try:
        check_paths(chosen)
    except ConfigError as exc:
        return exc.message
    return None


async def test_issue19_item3_a_missing_backup_folder_is_made_at_start_up(tmp_path: Path) -> None:
    backups = tmp_path / "backups"
    assert await _refusal(settings(tmp_path / "homegame.db", backups)) is None
    assert backups.is_dir()


async def holding(db: Path, members: int, hands: int) -> None:
    """A database whose league has ``members`` wallets and ``hands`` hands (voided ones)."""
    store = await Store.open(db)
    try:
        service = TableService(store, timers=False)
        view = await service.open_table(
            guild_id=1, channel_id=2, host_id=100, host_name="host", game="razz"
        )
        for k in range(1, members):
            await service.join(view.table_id, 100 + k, f"player {k}")
        for _ in range(hands):
            await service.start(view.table_id, 100)
            await service.void_hand(view.table_id, 100, may_manage=True)
        await service.end(view.table_id, 100, may_manage=True)
        await service.stop_service()
    finally:
        await store.close()


async def test_issue19_item3_start_up_line_names_file_schema_members_and_hands(
    tmp_path: Path,
) -> None:
    db = tmp_path / "homegame.db"
    schema = migrations()[-1].version
    store = await Store.open(db)
    new = (await store.summary()).line()
    await store.close()
    assert new.startswith(f"database {db}, schema {schema}, 0 members, 0 hands")
    assert "a new, empty file" in new  # the mistyped path, seen at once
    await holding(db, members=3, hands=2)
    store = await Store.open(db)
    line = (await store.summary()).line()
    await store.close()
    assert line == f"database {db}, schema {schema}, 3 members, 2 hands"


def test_issue19_item3_health_reports_the_same_figures(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in list(os.environ):
        if name.startswith("HOMEGAME_") or name == "DISCORD_TOKEN":
            monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)
    db = tmp_path / "homegame.db"
    monkeypatch.setenv("HOMEGAME_DATABASE__PATH", str(db))
    asyncio.run(holding(db, members=2, hands=1))
    heartbeat_path(db).write_text(f"{time.time() - 3:.0f}\n")
    assert main(["health"]) == 0
    out = capsys.readouterr().out
    schema = migrations()[-1].version
    assert out.startswith(
        f"healthy: database ok (schema {schema}): {db}, schema {schema}, 2 members, 1 hand;"
    )
    assert out.count("\n") == 1
