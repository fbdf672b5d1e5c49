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
        timeout=600,  # a hang guard (the sandbox gives up by itself first: --timeout)
    )


#: A seed whose first hand goes to a showdown (Razz's computers fold most hands early).
SHOWDOWN_SEED = {"zoot": 1, "wheelers": 1, "razz": 51}


@pytest.mark.parametrize("game", ["zoot", "wheelers", "razz"])
def test_sandbox_plays_a_game_to_a_showdown_and_exits_0(game: str, tmp_path: Path) -> None:
    png = tmp_path / "showdown.png"
    seed = str(SHOWDOWN_SEED[game])
    done = sandbox(
        "--game", game, "--players", "3", "--hands", "1", "--seed", seed,
        "--showdown-png", str(png), "--timeout", "300",
        cwd=tmp_path,
    )  # fmt: skip
    out = done.stdout
    assert done.returncode == 0, out[-3000:] + done.stderr[-3000:]
    lines = out.splitlines()
    assert lines[0] == f"[sandbox] {game}, 3 players, 1 hand(s), seed {seed}"
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


# ---------------------------------------------------------------- issue 12, item 7


@pytest.mark.parametrize("game", ["razz", "zoot", "wheelers"])
def test_issue12_item7_same_seed_prints_the_same_transcript(game: str, tmp_path: Path) -> None:
    """The sandbox acts only once the bot has settled and lets deadlines run out on its own
    clock: no timer races a click, no edit is coalesced with the next one, and the
    countdowns read the same, so the same seed prints the same bytes."""
    args = ("--game", game, "--players", "3", "--hands", "2", "--seed", "1")
    first = sandbox(*args, cwd=tmp_path)
    second = sandbox(*args, cwd=tmp_path)
    assert first.returncode == 0, first.stdout[-2000:] + first.stderr[-2000:]
    assert second.returncode == 0, second.stdout[-2000:] + second.stderr[-2000:]
    assert "[sandbox] 2 result(s) played; table closed" in first.stdout
    assert first.stdout == second.stdout


def test_issue12_item7_every_version_of_the_table_message_is_printed(tmp_path: Path) -> None:
    """A Razz hand played to a showdown: the table message went through every street, and
    each of its versions is printed in full, in order (none skipped, none cut to the lines
    not shown before, so a street's header and a repeated "checks" line never vanish)."""
    seed = str(SHOWDOWN_SEED["razz"])
    done = sandbox("--game", "razz", "--players", "3", "--hands", "1", "--seed", seed, cwd=tmp_path)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    lines = done.stdout.splitlines()
    versions = [
        i
        for i, ln in enumerate(lines)
        if ln.startswith("[#poker] ") and "== Razz — table #1 ==" in ln
    ]
    headers = [lines[i + 1].strip() for i in versions]
    streets = [h.split(" · ")[0] for h in headers if " · Hand 1 · " in h]
    firsts = [s for i, s in enumerate(streets) if i == 0 or streets[i - 1] != s]
    # (the table's last version, once it closes, reads "closed")
    assert [s for s in firsts if s != "closed"] == [
        "3rd street", "4th street", "5th street", "6th street", "7th street", "showdown"
    ]  # fmt: skip
    # each version is whole: every one of them lists the seats and the house rules
    for i in versions[3:]:
        block = []
        for ln in lines[i + 1 :]:
            if not ln.startswith(" "):
                break
            block.append(ln.strip())
        assert "Seats:" in block and any(b.startswith("House rules:") for b in block), block
    # "alice checks" is printed again in each later version that still shows it
    assert sum("alice checks" in ln for ln in lines) > 2


def test_issue12_item7_the_readme_sample_is_a_real_transcript(tmp_path: Path) -> None:
    """README's sandbox sample: the command it shows prints, in order, every run of lines
    of the sample (``...`` separates the runs left out)."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    command = ".venv/bin/python -m bot sandbox --game razz --players 3 --hands 1 --seed 51"
    assert f"```sh\n{command}\n```" in readme
    sample = readme.split(f"```sh\n{command}\n```", 1)[1].split("```text\n", 1)[1]
    sample = sample.split("```", 1)[0]
    runs: list[list[str]] = [[]]
    for line in sample.splitlines():
        if line == "...":
            runs.append([])
        else:
            runs[-1].append(line)
    done = sandbox(*command.split()[4:], cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    out = done.stdout.splitlines()
    at = 0
    for run in runs:
        found = next(
            (i for i in range(at, len(out) - len(run) + 1) if out[i : i + len(run)] == run), None
        )
        assert found is not None, (
            f"README sample lines not printed (in order); refresh the sample from `{command}`:\n"
            + "\n".join(run)
        )
        at = found + len(run)
    assert runs[0][0] == out[0] and runs[-1][-1] == out[-1]
