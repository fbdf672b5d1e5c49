"""``python -m bot run`` as a deployed bot runs it, in its own process: Discord unreachable
(one WARNING line per login retry, each wait longer), start-up against the fake Discord
(one "logged in as" line and the invite link), and ``health`` right after a stop."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import socket
import sys
import time
from pathlib import Path

from bot.ops.health import heartbeat_path
from bot.testing import FakeDiscord

REPO = Path(__file__).resolve().parents[2]
HANG = 120.0
"""Seconds after which a child process is taken to hang: a guard, never a measure."""


def _env(tmp_path: Path, *, api_base: str, token: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("HOMEGAME_")}
    env.pop("DISCORD_TOKEN", None)
    env.update(
        HOMEGAME_DISCORD__TOKEN=token,
        HOMEGAME_DISCORD__API_BASE=api_base,
        HOMEGAME_DATABASE__PATH=str(tmp_path / "homegame.db"),
        HOMEGAME_BACKUP__DIR=str(tmp_path / "backups"),
        HOMEGAME_UI__IMAGES="false",  # no image workers: a lighter process
        PYTHONPATH=str(REPO),
    )
    return env


def _refused_url() -> str:
    """An http URL on 127.0.0.1 where nothing listens (connections are refused)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}/api/v10"


async def _start(tmp_path: Path, env: dict[str, str]) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        "run",
        cwd=tmp_path,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )


async def _stop(proc: asyncio.subprocess.Process) -> tuple[int, str]:
    if proc.returncode is None:
        proc.send_signal(signal.SIGTERM)
    _, err = await asyncio.wait_for(proc.communicate(), HANG)
    assert proc.returncode is not None
    return proc.returncode, err.decode()


async def _health(tmp_path: Path, env: dict[str, str]) -> tuple[int, str]:
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        "health",
        cwd=tmp_path,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(proc.communicate(), HANG)
    assert proc.returncode is not None
    return proc.returncode, (out + err).decode()


async def test_item4_discord_unreachable_is_one_warning_line_per_retry_with_growing_delays(
    tmp_path: Path,
) -> None:
    env = _env(tmp_path, api_base=_refused_url(), token="not-a-real-token-but-long-enough")
    proc = await _start(tmp_path, env)
    lines: list[str] = []
    assert proc.stderr is not None
    deadline = time.monotonic() + HANG
    # retries 1, 2, 3 are logged at about 0 s, 1 s and 3 s (waits of 1, 2 and 4 s): the
    # waits are the bot's real backoff; the test reads their lengths from the lines (so a
    # busy machine, which logs them later, gives the same answer) and only guards a hang
    while sum("retry" in line for line in lines) < 3 and time.monotonic() < deadline:
        raw = await asyncio.wait_for(proc.stderr.readline(), HANG)
        if not raw:
            break
        lines.append(raw.decode().rstrip("\n"))
    status, rest = await _stop(proc)
    lines += rest.splitlines()
    retries = [line for line in lines if "cannot reach Discord" in line]
    assert len(retries) >= 3, lines
    assert all(" WARNING " in line for line in retries)
    waits = [float(re.search(r"retry \d+ in (\d+) s", line)[1]) for line in retries]  # type: ignore[index]
    assert waits[:3] == [1.0, 2.0, 4.0]
    assert "Traceback" not in "\n".join(lines)
    # nothing else is logged per attempt: every line but the retries is a start/stop line
    others = [line for line in lines if "cannot reach Discord" not in line]
    assert len(others) <= 3, others
    assert status == 0  # stopped by SIGTERM while waiting to retry: a clean stop


async def test_item4_and_item5_start_up_line_invite_url_and_health_right_after_stop(
    tmp_path: Path,
) -> None:
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Home")
        fake.add_channel(guild, "poker")
        fake.add_guild("Other")
        env = _env(tmp_path, api_base=fake.api_base, token=fake.token)
        proc = await _start(tmp_path, env)
        beat = heartbeat_path(tmp_path / "homegame.db")
        deadline = time.monotonic() + HANG  # a guard: start-up takes longer on a busy machine
        while not beat.exists() and proc.returncode is None and time.monotonic() < deadline:
            await asyncio.sleep(0.2)
        assert beat.exists(), (await _stop(proc))[1]
        healthy, text = await _health(tmp_path, env)
        assert healthy == 0, text
        status, err = await _stop(proc)
        sick, why = await _health(tmp_path, env)
    assert status == 0, err
    logged_in = [line for line in err.splitlines() if "logged in as" in line]
    assert len(logged_in) == 1 and logged_in[0].endswith("logged in as Home Game in 2 servers")
    invite = f"https://discord.com/oauth2/authorize?client_id={fake.application_id}"
    assert f"{invite}&scope=bot+applications.commands&permissions=117760" in err
    # item 5: unhealthy as soon as the bot has stopped, not when the beat is 120 s old: the
    # stop removed the beat (no time limit decides it: a beat left behind would still be
    # fresh right after the stop, and health would say healthy)
    assert sick == 1 and "no heartbeat" in why
    assert not beat.exists()


def test_item4_invite_url_has_the_documented_permissions() -> None:
    from bot.app import INVITE_PERMISSIONS, invite_url

    assert INVITE_PERMISSIONS == 1024 + 2048 + 16384 + 32768 + 65536 == 117760
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert invite_url(42).replace("42", "APP_ID") in readme


def test_item4_gateway_reconnect_failure_is_one_warning_line_not_a_traceback() -> None:
    """discord.py logs a failed gateway (re)connection with its whole traceback (shard.py:
    ``_log.error('Attempting a reconnect ...', exc_info=e)``): one WARNING line instead."""
    import io
    import logging

    from bot.config import Settings
    from bot.ops.logs import setup_logging

    stream = io.StringIO()
    level = logging.getLogger().level
    handler = setup_logging(Settings(), stream=stream)
    try:
        try:
            raise ConnectionResetError(104, "Connection reset by peer")
        except ConnectionResetError as exc:
            logging.getLogger("discord.shard").error(
                "Attempting a reconnect for shard ID %s in %.2fs", 0, 3.5, exc_info=exc
            )
            logging.getLogger("discord.client").exception("Attempting a reconnect in %.2fs", 7.0)
    finally:
        logging.getLogger().removeHandler(handler)
        logging.getLogger().setLevel(level)
    lines = stream.getvalue().splitlines()
    assert len(lines) == 2, lines
    assert all(" WARNING discord." in line for line in lines)
    assert "in 3.50s (ConnectionResetError: [Errno 104] Connection reset by peer)" in lines[0]
    assert "Traceback" not in stream.getvalue()
