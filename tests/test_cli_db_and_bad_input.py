"""The command line's database commands and its bad inputs (issue 12, items 2 and 3).

Item 2: ``db migrate|audit|backup`` find the database as ``run`` and ``health`` do (the
config file, ``HOMEGAME_DATABASE__PATH``, ``--db`` over both) and never create
``./homegame.db`` by themselves. Item 3: every bad input is one line on stderr, exit 2,
never a traceback, and nothing is created or changed."""

from __future__ import annotations

import asyncio
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.config import ConfigError, load_settings
from bot.store import Store

REPO = Path(__file__).resolve().parents[1]
GUILD = 7
TOKEN = "MTEyMzQ1Njc4OTAxMjM0NTY3OA.GAbcDe.abcdefghijklmnopqrstuvwxyz0123456789AB"


@pytest.fixture
def home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """A clean environment in an empty working directory."""
    for name in list(os.environ):
        if name.startswith("HOMEGAME_") or name == "DISCORD_TOKEN":
            monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def make_db(path: Path, *, members: int = 3) -> None:
    """A real league database: ``members`` wallets with their starting chips."""

    async def create() -> None:
        async with await Store.open(path) as store:
            for user in range(1, members + 1):
                async with store.transaction() as tx:
                    await tx.wallet(GUILD, user)

    path.parent.mkdir(parents=True, exist_ok=True)
    asyncio.run(create())


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def one_line(err: str) -> str:
    assert err.count("\n") == 1, err
    assert "Traceback" not in err
    return err


def run_process(cwd: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if not k.startswith("HOMEGAME_")}
    environ.pop("DISCORD_TOKEN", None)
    environ.update(PYTHONPATH=str(REPO), **env)
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=cwd,
        env=environ,
        capture_output=True,
        text=True,
        timeout=60,
    )


# ---------------------------------------------------------------- item 2: one settings path


def test_item2_db_commands_use_homegame_database_path(
    home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db = home / "data" / "league.db"
    db.parent.mkdir()
    monkeypatch.setenv("HOMEGAME_DATABASE__PATH", str(db))
    status, out, _ = cli(capsys, "db", "migrate")
    assert status == 0 and str(db) in out and db.is_file()
    assert cli(capsys, "db", "audit")[0] == 0
    status, out, _ = cli(capsys, "db", "backup", "--out", str(home / "copy.db"))
    assert status == 0 and (home / "copy.db").is_file()
    assert not (home / "homegame.db").exists()  # never the silent ./homegame.db


def test_item2_db_commands_use_the_config_file_and_db_overrides_it(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = home / "bot.toml"
    config.write_text(f'[database]\npath = "{home / "configured.db"}"\n')
    make_db(home / "configured.db")
    status, out, _ = cli(capsys, "db", "audit", "--config", str(config))
    assert status == 0 and "ok" in out.lower()
    # --db wins over the settings: the other file is migrated, the configured one is not
    other = home / "other.db"
    assert cli(capsys, "db", "migrate", "--config", str(config), "--db", str(other))[0] == 0
    assert other.is_file()
    # ./config.toml is read too, as `run` reads it
    (home / "config.toml").write_text(f'[database]\npath = "{other}"\n')
    status, out, _ = cli(capsys, "db", "migrate")
    assert status == 0 and str(other) in out
    assert not (home / "homegame.db").exists()


def test_item2_db_audit_without_a_database_is_one_line_and_creates_nothing(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _, err = cli(capsys, "db", "audit")
    assert status == 2 and "no database at homegame.db" in one_line(err)
    assert list(home.iterdir()) == []


def test_item2_bad_settings_stop_db_commands_with_one_line(
    home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOMEGAME_BACKUP__KEEP", "zero")
    for action in ("migrate", "audit"):
        status, _, err = cli(capsys, "db", action)
        assert status == 2 and "HOMEGAME_BACKUP__KEEP" in one_line(err)
    assert list(home.iterdir()) == []


# ---------------------------------------------------------------- item 3: bad files


def _not_sqlite(path: Path) -> None:
    path.write_text("hello, I am a text file and not a database at all\n" * 10)


def _truncated(path: Path) -> None:
    make_db(path, members=300)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def _corrupted(path: Path) -> None:
    make_db(path, members=300)
    data = bytearray(path.read_bytes())
    page = 4 * 4096  # past page 1 (the header and the schema)
    data[page : page + 3 * 4096] = b"\xa5" * (3 * 4096)
    path.write_bytes(bytes(data))


def _newer(path: Path) -> None:
    make_db(path)
    raw = sqlite3.connect(path)
    raw.execute("PRAGMA user_version = 999")
    raw.close()


def _folder(path: Path) -> None:
    path.mkdir()


BAD_FILES = {
    "not_sqlite": (_not_sqlite, "is not a SQLite database"),
    "truncated": (_truncated, "is damaged"),
    "corrupted": (_corrupted, "is damaged"),
    "newer_schema": (_newer, "newer than this homegame knows"),
    "folder": (_folder, "is a folder"),
}


@pytest.mark.parametrize("case", sorted(BAD_FILES))
def test_item3_bad_database_file_is_one_line_exit_2_for_every_db_command(
    case: str, home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    make, expected = BAD_FILES[case]
    db = home / "homegame.db"
    make(db)
    before = sorted(p.name for p in home.iterdir())
    content = db.read_bytes() if db.is_file() else None
    actions = [["migrate"], ["audit"]]
    if case != "newer_schema":  # a newer database can still be copied: backup takes any
        actions.append(["backup", "--out", str(home / "copy.db")])
    for action in actions:
        status, _, err = cli(capsys, "db", *action, "--db", str(db))
        assert status == 2, (action, err)
        assert expected in one_line(err) and str(db) in err, (action, err)
    assert sorted(p.name for p in home.iterdir()) == before  # nothing created
    if content is not None:
        assert db.read_bytes() == content  # nothing changed


@pytest.mark.parametrize("case", ["truncated", "corrupted", "not_sqlite", "folder"])
def test_item3_run_refuses_a_damaged_database_at_start_up_naming_it(
    case: str, tmp_path: Path
) -> None:
    make, expected = BAD_FILES[case]
    db = tmp_path / "homegame.db"
    make(db)
    done = run_process(
        tmp_path,
        "run",
        HOMEGAME_DATABASE__PATH=str(db),
        HOMEGAME_DISCORD__TOKEN="abc-long-enough-token",
        HOMEGAME_DISCORD__API_BASE="http://127.0.0.1:9/api/v10",
    )
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    lines = [line for line in done.stderr.splitlines() if line.startswith("homegame:")]
    assert len(lines) == 1 and expected in lines[0] and str(db) in lines[0]
    assert "cannot reach Discord" not in done.stderr  # refused before connecting


def test_item3_backup_out_in_a_missing_folder_is_one_line(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    make_db(home / "homegame.db")
    out = home / "nowhere" / "copy.db"
    status, _, err = cli(capsys, "db", "backup", "--out", str(out))
    assert status == 2 and "does not exist" in one_line(err)
    assert not out.parent.exists()
    status, _, err = cli(capsys, "db", "backup", "--out", str(home))
    assert status == 2 and "is a folder" in one_line(err)


def test_item3_showdown_png_that_cannot_be_written_is_refused_before_the_game(
    tmp_path: Path,
) -> None:
    for target, expected in (
        (tmp_path / "missing" / "x.png", "does not exist"),
        (tmp_path, "is a folder"),
    ):
        done = run_process(
            tmp_path, "sandbox", "--game", "razz", "--players", "2", "--showdown-png", str(target)
        )
        assert done.returncode == 2 and done.stdout == ""  # no game was played
        assert done.stderr.count("\n") == 1 and expected in done.stderr


def _read_only_mount(folder: Path, command: str) -> subprocess.CompletedProcess[str]:
    """Run ``command`` (sh) with ``folder`` bind-mounted read-only in a private mount
    namespace: a real read-only file system (EROFS), which root cannot write either."""
    if shutil.which("unshare") is None:
        pytest.skip("unshare is not installed")
    script = (
        f"mount --bind '{folder}' '{folder}' && mount -o remount,bind,ro '{folder}' && {command}"
    )
    probe = subprocess.run(
        ["unshare", "-r", "-m", "sh", "-c", f"mount --bind '{folder}' '{folder}'"],
        capture_output=True,
    )
    if probe.returncode != 0:
        pytest.skip("no user and mount namespaces here for a read-only mount")
    environ = {k: v for k, v in os.environ.items() if not k.startswith("HOMEGAME_")}
    environ["PYTHONPATH"] = str(REPO)
    return subprocess.run(
        ["unshare", "-r", "-m", "sh", "-c", script],
        env=environ,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_item3_db_audit_reads_a_database_on_a_read_only_file_system(tmp_path: Path) -> None:
    data = tmp_path / "data"
    make_db(data / "homegame.db")
    # a -shm/-wal left by the bot, as in a volume mounted read-only for inspection
    assert not (data / "homegame.db-shm").exists()
    py = sys.executable
    done = _read_only_mount(data, f"{py} -m bot db audit --db '{data / 'homegame.db'}' --json")
    assert done.returncode == 0, done.stderr
    assert '"ok": true' in done.stdout
    assert sorted(p.name for p in data.iterdir()) == ["homegame.db"]
    # `run` cannot write there: one line, exit 2
    done = _read_only_mount(
        data,
        f"HOMEGAME_DISCORD__TOKEN=abcdefghijk HOMEGAME_DATABASE__PATH='{data / 'new.db'}' "
        f"{py} -m bot run",
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    lines = [line for line in done.stderr.splitlines() if line.startswith("homegame:")]
    assert len(lines) == 1 and "new.db" in lines[0], done.stderr
    assert "cannot be written" in lines[0] and "uid 10001" in lines[0]


def test_item3_config_error_never_echoes_a_value_that_looks_like_the_token() -> None:
    # the token pasted into the wrong setting
    for env in (
        {"HOMEGAME_DISCORD__API_BASE": TOKEN},
        {"HOMEGAME_DISCORD__DEV_GUILD_ID": TOKEN},
        {"HOMEGAME_DATABASE__PATH": "x", "HOMEGAME_LOG__LEVEL": TOKEN},
    ):
        with pytest.raises(ConfigError) as caught:
            load_settings(None, env=env)
        message = caught.value.message
        assert TOKEN not in message and TOKEN[:20] not in message
        assert "***" in message and "\n" not in message
    # the configured token itself, whatever its shape, in another field
    env = {"DISCORD_TOKEN": "short-secret-x", "HOMEGAME_LOG__LEVEL": "short-secret-x"}
    with pytest.raises(ConfigError) as caught:
        load_settings(None, env=env)
    assert "short-secret-x" not in caught.value.message


def test_item3_sim_history_dir_that_is_a_file_is_refused_before_the_run(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (home / "taken").write_text("a file")
    status, out, err = cli(
        capsys, "sim", "zoot", "--players", "2", "--hands", "1", "--history-dir", "taken"
    )
    assert status == 2 and out == "" and "--history-dir taken: is a file" in one_line(err)


def test_item3_health_on_a_folder_names_it(
    home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (home / "db").mkdir()
    monkeypatch.setenv("HOMEGAME_DATABASE__PATH", str(home / "db"))
    status, _, err = cli(capsys, "health")
    assert status == 1 and "is a folder" in one_line(err)
