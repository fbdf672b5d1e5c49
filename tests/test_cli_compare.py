"""``python -m bot compare``: the JSON contract, dense places, stdin groups, exit codes."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from bot.__main__ import main

ROOT = Path(__file__).resolve().parents[1]


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(["compare", *args])
    out = capsys.readouterr()
    return status, out.out, out.err


def test_compare_zoot_rule_2_3_json_shape_and_dense_places(capsys) -> None:
    status, out, _ = run(["zoot", "9s 8s 6s 3s 2s", "Kh Kd Kc 7h 7d", "9h8h6h3h2h"], capsys)
    assert status == 0
    result = json.loads(out)
    assert result["game"] == "zoot"
    assert [h["cards"] for h in result["hands"]] == [
        "9s 8s 6s 3s 2s",
        "Kh Kd Kc 7h 7d",
        "9h 8h 6h 3h 2h",
    ]
    assert [h["place"] for h in result["hands"]] == [1, 2, 1]
    assert result["hands"][0]["name"] == "one-suited flush, nine high"
    assert set(result["hands"][0]) == {"cards", "place", "name", "strength"}
    assert 0 < result["hands"][1]["strength"] < result["hands"][0]["strength"] < 1


def test_compare_wheelers_wraparound_option(capsys) -> None:
    _, plain, _ = run(["wheelers", "Ks Ad 2h 7c 9d", "4s 5d 9h Jc Kd"], capsys)
    _, wrap, _ = run(["wheelers", "--wraparound", "Ks Ad 2h 7c 9d", "4s 5d 9h Jc Kd"], capsys)
    assert [h["place"] for h in json.loads(plain)["hands"]] == [1, 2]
    wrapped = json.loads(wrap)["hands"]
    assert wrapped[0]["name"] == "three-card straight K-A-2 and odd cards 9, 7"


def test_compare_razz_rule_4_11_strength_null(capsys) -> None:
    status, out, _ = run(["razz", "3s 3d 5s 6h 6s 8h Kd", "4s 5h 7c 9d Td Js Qh"], capsys)
    hands = json.loads(out)["hands"]
    assert status == 0
    assert [h["place"] for h in hands] == [2, 1]
    assert hands[1]["name"] == "T-9-7-5-4" and hands[1]["strength"] is None


def test_compare_stud_high_best_five_of_seven_straight_over_two_pair(capsys) -> None:
    status, out, _ = run(["stud", "Kc Ks 9d 9h 2c 3d 7s", "6c 5d 4h 3s 2h Kd Qd"], capsys)
    hands = json.loads(out)["hands"]
    assert status == 0
    assert [h["place"] for h in hands] == [2, 1]
    assert hands[1]["name"] == "straight, six high"
    assert set(hands[0]) == {"cards", "place", "name", "strength"}  # no low: split high


def test_compare_stud_hi_lo_ranks_each_half_ties_share_the_low_place(capsys) -> None:
    hands_text = ["Kc Ks Kd Qs Qd 9h 9c", "Ac 2c 3d 5h 7s 8d Jd", "Ad 2d 3h 5c 7c Jc Qh"]
    status, out, _ = run(["stud", *hands_text, "--split", "hi-lo"], capsys)
    hands = json.loads(out)["hands"]
    assert status == 0
    assert [h["place"] for h in hands] == [1, 3, 2]
    assert [h["low"] for h in hands] == [None, "7-5-3-2-A", "7-5-3-2-A"]
    assert [h["low_place"] for h in hands] == [None, 1, 1]
    status, _, err = run(["razz", "--split", "hi-lo", "As 2s 3d 4s 5s"], capsys)
    assert status == 2 and "--split applies to stud only" in err
    status, _, err = run(["stud", "As 2s 3d 4s 5s", "--split", "low"], capsys)
    assert status == 2 and "--split must be high or hi-lo" in err


@pytest.mark.parametrize(
    ("args", "token"),
    [
        (["zoot", "As Kd Qc Jh Xs"], "Xs"),
        (["zoot", "As Kd Qc Jh Ts", "As 2c 3c 4c 5c"], "As"),
        (["wheelers", "As Kd Qc Jh"], "got 4"),
        (["razz", "As Kd Qc Jh"], "got 4"),
    ],
)
def test_compare_bad_arguments_exit_2_naming_the_token(args, token, capsys) -> None:
    status, out, err = run(args, capsys)
    assert status == 2 and out == ""
    assert token in err


def test_compare_unknown_game_exit_2_by_subprocess() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "bot", "compare", "poker", "As Kd Qc Jh Ts"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 2 and "poker" in proc.stderr and proc.stdout == ""


def test_compare_stdin_groups_with_an_error_line_in_the_middle(monkeypatch, capsys) -> None:
    lines = "As2d3c4h5s | 9cTdJhQsKc\nAs Kd Qc Jh Ts | As 2c 3c 4c 5c\n\n7s7d8h8c9d|2s4d6h9cJd\n"
    monkeypatch.setattr(sys, "stdin", io.StringIO(lines))
    status, out, _ = run(["wheelers"], capsys)
    rows = [json.loads(line) for line in out.splitlines()]
    assert len(rows) == 3
    assert [h["place"] for h in rows[0]["hands"]] == [1, 2]
    assert rows[0]["hands"][0]["name"] == "the Wheel"
    assert "As" in rows[1]["error"] and set(rows[1]) == {"error"}
    assert [h["place"] for h in rows[2]["hands"]] == [1, 2]
    assert status == 1  # documented: some line was bad


def test_compare_help_after_game_documents_stdin_and_exit_status(capsys) -> None:
    status, out, _ = run(["wheelers", "--help"], capsys)
    assert status == 0 and "stdin" in out and "Exit status" in out
