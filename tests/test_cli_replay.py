"""``python -m bot replay``: the JSON-lines contract and its exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.__main__ import main

DATA = Path(__file__).resolve().parents[1] / ".." / "shared" / "data" / "phh-razz"

TINY = """variant = 'FR'
antes = [1, 1]
bring_in = 1
small_bet = 2
big_bet = 4
starting_stacks = [10, 10]
actions = ['d dh p1 AcAdKs', 'd dh p2 2c3c4c', 'p1 pb', 'p2 f']
"""


def _lines(out: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def test_cli_replay_reports_match_recorded_and_null(tmp_path: Path, capsys) -> None:
    good = tmp_path / "good.phh"
    good.write_text(TINY + "finishing_stacks = [11, 9]\n")
    bare = tmp_path / "bare.phh"
    bare.write_text(TINY)
    assert main(["replay", str(good), str(bare)]) == 0
    rows = _lines(capsys.readouterr().out)
    assert rows == [
        {"file": str(good), "finishing_stacks": [11, 9], "recorded": [11, 9], "match": True},
        {"file": str(bare), "finishing_stacks": [11, 9], "recorded": None, "match": None},
    ]


def test_cli_replay_mismatch_exits_1(tmp_path: Path, capsys) -> None:
    wrong = tmp_path / "wrong.phh"
    wrong.write_text(TINY + "finishing_stacks = [10, 10]\n")
    assert main(["replay", str(wrong)]) == 1
    (row,) = _lines(capsys.readouterr().out)
    assert row["match"] is False and row["recorded"] == [10, 10]


def test_cli_replay_bad_action_exits_2_naming_file_and_action(tmp_path: Path, capsys) -> None:
    bad = tmp_path / "85.phh"
    bad.write_text(TINY.replace("'p2 f'", "'p2 cbr 9'"))
    assert main(["replay", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "85.phh: action 4 'p2 cbr 9'" in err and "fixed limit allows 2" in err


def test_cli_replay_unreadable_and_missing_field_exit_2(tmp_path: Path, capsys) -> None:
    missing = tmp_path / "missing.phh"
    missing.write_text(TINY.replace("small_bet = 2\n", ""))
    assert main(["replay", str(missing), str(tmp_path / "nope.phh")]) == 2
    err = capsys.readouterr().err
    assert "missing.phh: missing field 'small_bet'" in err
    assert "nope.phh: cannot read" in err


def test_cli_replay_all_real_wsop_hands_match(capsys) -> None:
    if not DATA.is_dir():
        pytest.skip(f"no shared PHH data at {DATA} (a fresh clone has no ../shared)")
    files = sorted(str(p) for p in DATA.glob("*.phh"))
    assert main(["replay", *files]) == 0
    rows = _lines(capsys.readouterr().out)
    assert len(rows) == 10 and all(r["match"] is True for r in rows)
