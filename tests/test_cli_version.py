"""``homegame --version`` / ``python -m bot --version`` and the LICENSE that pyproject.toml
declares (issue 12, item 1)."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))


def _run(*command: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(REPO))
    return subprocess.run(command, capture_output=True, text=True, env=env, timeout=60)


def test_item1_python_m_bot_version_prints_the_project_version() -> None:
    done = _run(sys.executable, "-m", "bot", "--version")
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"homegame {PYPROJECT['project']['version']}\n"


def test_item1_installed_homegame_script_runs_with_version_and_help() -> None:
    assert PYPROJECT["project"]["scripts"]["homegame"] == "bot.__main__:main"
    script = Path(sys.executable).parent / "homegame"
    if not script.exists():
        pytest.skip("the project is not installed in this environment (pip install -e .)")
    done = _run(str(script), "--version")
    assert done.returncode == 0 and done.stdout == f"homegame {PYPROJECT['project']['version']}\n"
    done = _run(str(script), "db", "--help")
    assert done.returncode == 0 and done.stdout.startswith("usage: homegame db")


def test_item1_license_file_is_the_mit_license_pyproject_declares() -> None:
    assert PYPROJECT["project"]["license"] == "MIT"
    text = (REPO / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License\n")
    assert "Permission is hereby granted, free of charge" in text
