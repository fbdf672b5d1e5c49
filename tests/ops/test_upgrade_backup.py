"""Upgrading (issue 12, item 1): an existing database is backed up before its schema is
migrated, by ``db migrate`` and by ``run`` (both open it through ``Store.open`` with the
backup folder of the settings); a new or current database is not."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.store import migrations

GUILD = 5


def old_database(path: Path) -> None:
    """A database made by the first release: migration 0001 only, with a league in it."""
    first = migrations()[0]
    raw = sqlite3.connect(path, isolation_level=None)
    for statement in first.statements():
        raw.execute(statement)
    raw.execute(f"PRAGMA user_version = {first.version}")
    now = 1_700_000_000
    raw.execute(
        "INSERT INTO leagues (guild_id, created_at, updated_at) VALUES (?, ?, ?)",
        (GUILD, now, now),
    )
    raw.close()


@pytest.fixture
def home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    for name in list(os.environ):
        if name.startswith("HOMEGAME_") or name == "DISCORD_TOKEN":
            monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOMEGAME_DATABASE__PATH", str(tmp_path / "homegame.db"))
    monkeypatch.setenv("HOMEGAME_BACKUP__DIR", str(tmp_path / "backups"))
    return tmp_path


def test_item1_upgrade_backs_up_the_old_database_before_migrating(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    if len(migrations()) < 2:
        pytest.skip("one migration only: nothing to upgrade from")
    db = home / "homegame.db"
    old_database(db)
    assert main(["db", "migrate"]) == 0
    out = capsys.readouterr().out
    copies = sorted((home / "backups").glob("homegame-before-schema-*.db"))
    assert len(copies) == 1 and f"backup taken before migrating: {copies[0]}" in out
    with sqlite3.connect(copies[0]) as copy:
        assert copy.execute("PRAGMA user_version").fetchone()[0] == 1  # the old schema
        assert copy.execute("SELECT guild_id FROM leagues").fetchall() == [(GUILD,)]
        assert copy.execute("PRAGMA quick_check").fetchone()[0] == "ok"
    copy.close()
    with sqlite3.connect(db) as now:
        assert now.execute("PRAGMA user_version").fetchone()[0] == migrations()[-1].version
    now.close()
    # current now: opening again takes no further copy
    assert main(["db", "migrate"]) == 0
    assert len(list((home / "backups").iterdir())) == 1


def test_item1_new_database_takes_no_backup(home: Path) -> None:
    assert main(["db", "migrate"]) == 0
    assert not (home / "backups").exists()


def test_item1_unwritable_backup_folder_stops_the_migration_and_changes_nothing(
    home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    if len(migrations()) < 2:
        pytest.skip("one migration only: nothing to upgrade from")
    db = home / "homegame.db"
    old_database(db)
    before = db.read_bytes()
    (home / "blocker").write_text("a file where the backup folder should be")
    monkeypatch.setenv("HOMEGAME_BACKUP__DIR", str(home / "blocker"))
    assert main(["db", "migrate"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no backup could be written" in err
    assert db.read_bytes() == before
