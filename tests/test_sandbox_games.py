"""``python -m bot sandbox`` deals every game (issue 13): Seven-card Stud, Hold'em, Omaha,
HORSE and dealer's choice, the users clicking the real controls: a no-limit Bet/Raise
through the amount menu and its modal, Stud's Big bet, the next dealer's game menu. Each
run exits 0 with the ledger audit ok; the transcript shows what matters for the game."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from tests.test_sandbox import REPO, sandbox


def ran(*args: str, cwd: Path) -> list[str]:
    done = sandbox(*args, cwd=cwd)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    lines = done.stdout.splitlines()
    assert lines[-1] == "[sandbox] ledger audit: ok"
    return lines


def table_versions(lines: list[str], title: str) -> list[list[str]]:
    """Each printed version of the table message whose title starts with ``title``."""
    out = []
    for i, line in enumerate(lines):
        if line.startswith("[#poker]") and f"== {title}" in line:
            block = []
            for ln in lines[i + 1 :]:
                if not ln.startswith(" "):
                    break
                block.append(ln.strip())
            out.append([line, *block])
    return out


def test_sandbox_no_limit_holdem_bets_by_the_amount_menu_and_the_typed_modal(
    tmp_path: Path,
) -> None:
    """Hold'em, seed 3: Alice raises by the menu's Pot button, Bob bets 38 (no named
    amount near it) through **Other amount…**; the board is dealt to the river; the same
    seed prints the same transcript, the clicker-only lines included."""
    args = ("--game", "holdem", "--players", "3", "--hands", "2", "--seed", "3")
    lines = ran(*args, cwd=tmp_path)
    assert lines[0] == "[sandbox] holdem, 3 players, 2 hand(s), seed 3"
    at = lines.index(
        "[only alice] Raise: how much? Raise to between 20 and 1,000 (your total this round)."
    )
    assert lines[at + 1].strip() == "[Min: 20] [Pot: 30] [All-in: 1,000] [Other amount…]"
    assert lines[at + 2] == "[only alice] You raise to 30."
    at = lines.index("[only bob] (Other amount…) types 38")
    assert lines[at - 2].startswith("[only bob] Bet: how much?")
    assert lines[at + 1] == "[only bob] You bet 38."
    # the table then says so, and shows the board
    after = "\n".join(lines[at + 2 : at + 30])
    assert "bob bets 38" in after, after
    boards = [ln for v in table_versions(lines, "Hold'em") for ln in v if ln.startswith("Board:")]
    assert any(len(b.split()) == 6 for b in boards), boards  # "Board:" and 5 cards
    assert "[sandbox] 2 result(s) played; table closed" in lines
    again = ran(*args, cwd=tmp_path)
    assert again == lines


def test_sandbox_pot_limit_omaha_hi_lo(tmp_path: Path) -> None:
    lines = ran(
        "--game", "omaha", "--split", "hi-lo", "--betting", "pot-limit",
        "--players", "3", "--hands", "2", "--seed", "1",
        cwd=tmp_path,
    )  # fmt: skip
    assert lines[0] == "[sandbox] omaha (hi-lo, pot-limit), 3 players, 2 hand(s), seed 1"
    versions = table_versions(lines, "Omaha — table #1")
    rules = [ln for v in versions for ln in v if ln.startswith("House rules:")]
    assert rules and "Betting: pot-limit, Split: high-low, eight or better for low" in rules[0]
    # a pot-limit raise: the menu's largest amount is the pot, and it was answered
    assert any(ln.startswith("[only ") and "how much?" in ln for ln in lines)
    assert any(re.fullmatch(r"\[only \w+\] You (bet|raise to) [\d,]+\.", ln) for ln in lines)
    assert "[sandbox] 2 result(s) played; table closed" in lines


def test_sandbox_stud_big_bet_button_is_clicked_when_offered(tmp_path: Path) -> None:
    """Seed 55: on 4th street a pair shows and the player to act, wanting to bet, presses
    **Big bet** (RULES 8.2): the table's next version says they bet to the big bet, 20."""
    lines = ran("--game", "stud", "--players", "4", "--hands", "2", "--seed", "55", cwd=tmp_path)
    versions = table_versions(lines, "Seven-card Stud")
    offered = [i for i, v in enumerate(versions) if "[Big bet]" in v[-1]]
    assert offered, "the Big bet button was never offered"
    took = [
        versions[i + 1]
        for i in offered
        if i + 1 < len(versions)
        and "4th street" in versions[i + 1][1]
        and re.fullmatch(r"\w+ bets 20", [ln for ln in versions[i + 1] if ln][-2])
    ]
    assert took, "nobody bet to the big bet after the button was offered"


def test_sandbox_horse_changes_game_after_an_orbit(tmp_path: Path) -> None:
    """Two players: each deals one fixed-limit Hold'em hand, then the table turns to
    Omaha Hi-Lo, and the title of the table message says so."""
    lines = ran("--game", "horse", "--players", "2", "--hands", "3", "--seed", "1", cwd=tmp_path)
    titles = [v[0].split("== ", 1)[1] for v in table_versions(lines, "HORSE: ")]
    games = [t.split(" — ")[0] for i, t in enumerate(titles) if i == 0 or titles[i - 1] != t]
    assert games[:2] == ["HORSE: Fixed-limit Hold'em", "HORSE: Fixed-limit Omaha Hi-Lo"], games
    assert "[sandbox] 3 result(s) played; table closed" in lines


def test_sandbox_dealers_choice_dealer_picks_or_lets_the_time_run_out(tmp_path: Path) -> None:
    """Seed 3: after the first Zoot game Bob, who deals next, does not pick: the time runs
    out and Zoot is dealt again; later Carol picks Razz from the menu and Razz is dealt."""
    lines = ran(
        "--game", "dealers-choice", "--players", "3", "--hands", "4", "--seed", "3", cwd=tmp_path
    )
    text = "\n".join(lines)
    menu = "[bob: pick the next game: Zoot, Wheelers, Razz, Hold'em, Omaha, Omaha Hi-Lo, Stud,"
    assert menu in text
    waited = lines.index("[sandbox] bob does not pick; the time will run out")
    assert "bob did not pick in time: Zoot again" in "\n".join(lines[waited:])
    picked = lines.index("[sandbox] carol picks Razz")
    later = "\n".join(lines[picked:])
    assert "carol picks Razz for their deal" in later
    assert "== Dealer's choice: Razz — table #1 ==" in later
    assert "[sandbox] 4 result(s) played; table closed" in lines


def test_sandbox_ends_cleanly_when_one_player_has_all_the_chips(tmp_path: Path) -> None:
    """Pot-limit Omaha heads-up, seed 55: one player has won every chip by the 20th game
    of the 40 asked for. Nobody can deal again: the run says so, closes the table and
    exits 0."""
    lines = ran("--game", "omaha", "--players", "2", "--hands", "40", "--seed", "55", cwd=tmp_path)
    assert "[sandbox] the game cannot go on: 1 player(s) with chips left" in lines
    assert "[sandbox] 20 result(s) played; table closed" in lines


def test_sandbox_new_games_bad_arguments_exit_2(tmp_path: Path) -> None:
    for args, why in (
        (("--game", "holdem", "--split", "hi-lo"), "--split applies to stud and omaha only"),
        (("--game", "stud", "--betting", "no-limit"), "--betting applies to holdem and omaha only"),
        (("--game", "holdem", "--players", "10"), "holdem needs 2 to 9 players, got 10"),
    ):
        done = sandbox(*args, cwd=tmp_path)
        assert done.returncode == 2, done.stderr
        assert done.stderr == f"sandbox: {why}\n"


def test_sandbox_piped_into_a_reader_that_stops_early_ends_without_a_traceback(
    tmp_path: Path,
) -> None:
    """``python -m bot sandbox | head``: once the reader has gone, the sandbox stops
    quietly (exit status 1), never with a BrokenPipeError traceback."""
    environ = {k: v for k, v in os.environ.items() if not k.startswith("HOMEGAME_")}
    environ["PYTHONPATH"] = str(REPO)
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot", "sandbox", "--game", "razz", "--players", "2"],
        cwd=tmp_path,
        env=environ,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None and proc.stderr is not None
    assert proc.stdout.readline().startswith("[sandbox] razz, 2 players")
    proc.stdout.close()  # the reader goes away, as `head -1` does
    err = proc.stderr.read()
    assert proc.wait(timeout=60) != 0
    assert "Traceback" not in err, err
