"""``python -m bot sandbox``, as a newcomer runs it: the real bot, service and store against
the built-in fake Discord, no token; for each game it plays to a showdown, prints what the
channel and the DMs show, closes the table, finds the ledger sound and exits 0."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def sandbox(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    environ = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("HOMEGAME_") and k != "DISCORD_TOKEN"  # no token needed
    }
    environ["PYTHONPATH"] = str(REPO)
    return subprocess.run(
        [sys.executable, "-m", "bot", "sandbox", *args],
        cwd=cwd,
        env=environ,
        capture_output=True,
        text=True,
        timeout=90,
    )


@pytest.mark.parametrize("game", ["zoot", "wheelers", "razz"])
def test_sandbox_plays_a_game_to_a_showdown_and_exits_0(game: str, tmp_path: Path) -> None:
    png = tmp_path / "showdown.png"
    done = sandbox(
        "--game", game, "--players", "3", "--hands", "1", "--seed", "1",
        "--showdown-png", str(png), "--timeout", "60",
        cwd=tmp_path,
    )  # fmt: skip
    out = done.stdout
    assert done.returncode == 0, out[-3000:] + done.stderr[-3000:]
    lines = out.splitlines()
    assert lines[0] == f"[sandbox] {game}, 3 players, 1 hand(s), seed 1"
    # the channel: the table message, then the result posted as a new message
    assert any(ln.startswith("[#poker] == ") and "table #1" in ln for ln in lines)
    results = [
        i
        for i, ln in enumerate(lines)
        if ln.startswith("[#poker] ") and " — " in ln and "==" not in ln and "(edit)" not in ln
    ]
    assert results, "no showdown line (name: cards — hand) in the channel"
    shown = lines[results[0] : results[0] + 12]
    assert any(" wins " in ln for ln in shown)
    # each player's own DM
    for name in ("alice", "bob", "carol"):
        assert any(ln.startswith(f"[DM {name}]") for ln in lines), name
    assert "[sandbox] 1 result(s) played; table closed" in out
    assert lines[-2:] == [
        "[sandbox] ledger audit: ok",
        f"[sandbox] showdown picture saved to {png}",
    ]
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert not list(tmp_path.glob("*.db"))  # its store lives in a temp dir, removed after


def test_sandbox_bad_arguments_exit_2_with_one_line(tmp_path: Path) -> None:
    done = sandbox("--game", "razz", "--players", "9", cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr == "sandbox: razz needs 2 to 8 players, got 9\n"
