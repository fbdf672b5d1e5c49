"""Issue 19, item 15 ("One line"): an operator's mistake is said once, and a reader that
stops early is no error of ours.

- ``run`` on a file that is not SQLite said it twice on stderr: a log line and the plain
  ``homegame: ...`` line. Every start-up refusal and every stop an operator can mend
  (a refused token, Discord unreachable) is now one plain line.
- ``sim ... | head`` ended in a BrokenPipeError traceback (and "Exception ignored" at the
  interpreter's last flush). Every command piped into a reader that has gone stops quietly.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _env(**extra: str) -> dict[str, str]:
    environ = {k: v for k, v in os.environ.items() if not k.startswith("HOMEGAME_")}
    environ.pop("DISCORD_TOKEN", None)
    environ.update(PYTHONPATH=str(REPO), **extra)
    return environ


def test_item15_run_on_a_file_that_is_not_sqlite_says_so_in_one_line(tmp_path: Path) -> None:
    db = tmp_path / "homegame.db"
    db.write_bytes(b"this is not SQLite " * 300)
    done = subprocess.run(
        [sys.executable, "-m", "bot", "run"],
        cwd=tmp_path,
        env=_env(
            HOMEGAME_DATABASE__PATH=str(db),
            HOMEGAME_DISCORD__TOKEN="abc-long-enough-token",
            HOMEGAME_DISCORD__API_BASE="http://127.0.0.1:9/api/v10",
        ),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("is not a SQLite database") == 1, done.stderr
    assert done.stderr == f"homegame: {db} is not a SQLite database\n"
    assert db.read_bytes() == b"this is not SQLite " * 300  # nothing changed


def _into_a_closed_pipe(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run ``python -m bot ARGS`` with stdout a pipe whose reader has already gone, as
    ``| head -1`` is once it has its line: every write fails (EPIPE), deterministically."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        return subprocess.run(
            [sys.executable, "-m", "bot", *args],
            cwd=cwd,
            env=_env(),
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
        )
    finally:
        os.close(write_end)


def test_item15_sim_piped_into_head_ends_without_a_broken_pipe_traceback(tmp_path: Path) -> None:
    done = _into_a_closed_pipe("sim", "razz", "--hands", "3", "--seed", "1", cwd=tmp_path)
    assert "Traceback" not in done.stderr, done.stderr
    assert "BrokenPipeError" not in done.stderr and "Exception ignored" not in done.stderr
    assert done.stderr == ""
    # the simulation itself went well (its audit is OK): the reader chose to stop reading
    assert done.returncode == 0


def test_item15_every_command_piped_into_head_ends_without_a_traceback(tmp_path: Path) -> None:
    for args in (["--help"], ["sim", "--help"], ["compare", "--help"], ["replay", "--help"]):
        done = _into_a_closed_pipe(*args, cwd=tmp_path)
        assert "Traceback" not in done.stderr, (args, done.stderr)
        assert "Exception ignored" not in done.stderr, (args, done.stderr)
