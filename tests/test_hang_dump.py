"""The suite's hang report (tests/conftest.py): a test still running after
``HOMEGAME_HANG_DUMP_AFTER`` seconds writes every thread's stack and every task of its
event loop, with the line each task waits on, to the run's own stderr, even under pytest's
capture and in an xdist worker, and then goes on."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

SLOW_TEST = """
import asyncio

async def test_waits_on_a_future_a_timer_sets_later():
    loop = asyncio.get_running_loop()
    fut = loop.create_future()
    loop.call_later(3, fut.set_result, 1)
    await fut  # WAITS HERE
"""


def _run(tmp_path: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "test_slow.py").write_text(SLOW_TEST)
    env = dict(os.environ, HOMEGAME_HANG_DUMP_AFTER="1", PYTHONPATH=str(ROOT))
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "tests.conftest",
            "-p",
            "no:cacheprovider",
            "-o",
            "addopts=",
            "-o",
            "asyncio_mode=auto",
            *extra,
            str(tmp_path / "test_slow.py"),
        ],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def _check(run: subprocess.CompletedProcess[str]) -> None:
    out = run.stdout + run.stderr
    assert run.returncode == 0, out
    assert "test_waits_on_a_future_a_timer_sets_later still running after 1 s" in out
    assert "Current thread" in out or "Thread 0x" in out  # the threads' stacks
    assert "test_slow.py:8 test_waits_on_a_future_a_timer_sets_later" in out  # where it waits
    assert "Future.set_result(1)" in out  # what the loop has queued
    assert "1 passed" in out  # it went on


def test_a_test_running_past_the_limit_names_where_its_task_waits_and_goes_on(
    tmp_path: Path,
) -> None:
    _check(_run(tmp_path))


def test_the_report_reaches_the_run_from_an_xdist_worker(tmp_path: Path) -> None:
    _check(_run(tmp_path, "-n", "1"))
