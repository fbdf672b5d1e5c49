"""``python -m bot health`` (the Dockerfile HEALTHCHECK) and the image's entry point, run
outside Docker: exit 0 with a sound database and a fresh heartbeat, 1 otherwise with one
line; ``python -m bot run`` without a token: one line, exit 2."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.ops.health import heartbeat_path
from bot.store import Store, migrations

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """A clean environment whose database is tmp_path/homegame.db (as the image sets it)."""
    for name in list(os.environ):
        if name.startswith("HOMEGAME_") or name == "DISCORD_TOKEN":
            monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)
    db = tmp_path / "homegame.db"
    monkeypatch.setenv("HOMEGAME_DATABASE__PATH", str(db))
    return db


def make_db(path: Path) -> None:
    async def create() -> None:
        store = await Store.open(path)
        await store.close()

    asyncio.run(create())


def beat(db: Path, age: float) -> None:
    heartbeat_path(db).write_text(f"{time.time() - age:.0f}\n")


def health(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["health", *args])
    out, err = capsys.readouterr()
    return status, out, err


def test_health_ok_with_fresh_heartbeat_and_sound_database(
    env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    make_db(env)
    beat(env, 5)
    status, out, err = health(capsys)
    assert (status, err) == (0, "")
    schema = migrations()[-1].version
    assert out.startswith(f"healthy: database ok (schema {schema})") and out.count("\n") == 1


def test_health_stale_heartbeat_is_exit_1_with_one_line(
    env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    make_db(env)
    beat(env, 300)
    status, out, err = health(capsys)
    assert status == 1 and out == ""
    assert err.count("\n") == 1 and "heartbeat 300 s ago (limit 120 s)" in err
    # the limit is configurable
    assert health(capsys, "--max-age", "600")[0] == 0


def test_health_no_heartbeat_yet_is_exit_1(env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    make_db(env)
    status, _, err = health(capsys)
    assert status == 1 and "no heartbeat file" in err


def test_health_missing_database_is_exit_1_and_creates_nothing(
    env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    beat(env, 1)
    status, _, err = health(capsys)
    assert status == 1 and err.count("\n") == 1 and f"no database at {env}" in err
    assert not env.exists()


def test_health_file_that_is_not_a_database_is_exit_1(
    env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    env.write_bytes(b"this is not SQLite " * 300)
    beat(env, 1)
    status, _, err = health(capsys)
    assert status == 1 and err.count("\n") == 1 and "database" in err


def test_health_corrupt_page_fails_quick_check(
    env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    make_db(env)
    data = bytearray(env.read_bytes())
    assert len(data) >= 3 * 4096
    page = 2 * 4096  # a table page (page 1 holds the header and the schema)
    data[page : page + 4096] = b"\xff" * 4096
    env.write_bytes(bytes(data))
    beat(env, 1)
    status, _, err = health(capsys)
    assert status == 1 and err.count("\n") == 1
    assert "quick_check" in err or "malformed" in err


def test_health_old_schema_is_exit_1(env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import sqlite3

    make_db(env)
    with sqlite3.connect(env) as db:
        db.execute("PRAGMA user_version = 0")
    beat(env, 1)
    status, _, err = health(capsys)
    expected = migrations()[-1].version
    assert status == 1 and f"schema version 0, expected {expected}" in err


def test_health_bad_settings_are_exit_1_not_2(
    env: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOMEGAME_BACKUP__KEEP", "zero")
    status, _, err = health(capsys)
    assert status == 1 and "backup.keep" in err and "HOMEGAME_BACKUP__KEEP" in err


def _entry_point(*args: str, db: Path) -> subprocess.CompletedProcess[str]:
    """``python -m bot ARGS`` as the image runs it (ENTRYPOINT ["python", "-m", "bot"])."""
    environ = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("HOMEGAME_") and k != "DISCORD_TOKEN"
    }
    environ |= {"HOMEGAME_DATABASE__PATH": str(db), "PYTHONPATH": str(REPO)}
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=db.parent,
        env=environ,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_image_entry_point_health_and_run_without_token(tmp_path: Path) -> None:
    db = tmp_path / "homegame.db"
    make_db(db)
    beat(db, 2)
    healthy = _entry_point("health", db=db)
    assert healthy.returncode == 0, healthy.stderr
    assert healthy.stdout.startswith("healthy:")
    beat(db, 1000)
    stale = _entry_point("health", db=db)
    assert stale.returncode == 1 and stale.stderr.startswith("unhealthy: last gateway heartbeat")
    run = _entry_point("run", db=db)
    assert run.returncode == 2
    assert run.stderr.count("\n") == 1 and "discord.token: missing" in run.stderr
