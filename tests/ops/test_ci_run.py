"""``.ci/run`` (issue 12, item 6): everything temporary goes into one scratch folder that
the script removes at exit, so a run leaves nothing in ``$TMPDIR`` (it used to leave
~190 MB: the venv, pytest's tmp_path folders, the tests' temporary files)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def _venv_reusing_this_one(folder: Path) -> Path:
    """A CI_VENV whose activate script puts this test run's interpreter and tools first on
    PATH: ``.ci/run`` uses them as they are (CI_INSTALL=0), installing nothing."""
    bindir = Path(sys.executable).parent
    (folder / "bin").mkdir(parents=True)
    (folder / "bin" / "activate").write_text(
        f'export VIRTUAL_ENV="{sys.prefix}"\nexport PATH="{bindir}:$PATH"\n'
    )
    return folder


def test_item6_ci_run_leaves_nothing_in_the_temporary_folder(tmp_path: Path) -> None:
    outer = tmp_path / "tmp"
    outer.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HOMEGAME_", "PYTEST_"))}
    env.update(
        TMPDIR=str(outer),
        CI_VENV=str(_venv_reusing_this_one(tmp_path / "venv")),
        CI_INSTALL="0",
        PYTHONPATH=str(REPO),
    )
    # a test that writes tmp_path folders and the daily backup's files: enough to leave
    # pytest-of-<user>/ and the backups behind if they went to $TMPDIR directly
    done = subprocess.run(
        [str(REPO / ".ci" / "run"), "tests/ops/test_backup.py", "-q"],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "passed" in done.stdout
    scratch = next(
        line.split(" in ", 1)[1].split(" (")[0]
        for line in done.stdout.splitlines()
        if line.startswith("== temporary files in ")
    )
    assert Path(scratch).parent == outer  # it did work under $TMPDIR ...
    assert list(outer.iterdir()) == []  # ... and took it all away


def test_item6_ci_run_cleans_up_after_a_failure_too(tmp_path: Path) -> None:
    outer = tmp_path / "tmp"
    outer.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HOMEGAME_", "PYTEST_"))}
    env.update(
        TMPDIR=str(outer),
        CI_VENV=str(tmp_path / "no-such-venv"),  # activating it fails: set -e stops the run
        CI_INSTALL="0",
    )
    done = subprocess.run(
        [str(REPO / ".ci" / "run")], cwd=REPO, env=env, capture_output=True, text=True
    )
    assert done.returncode != 0
    assert list(outer.iterdir()) == []
