"""``python -m bot verify FILE...`` (issue 18 item 10): one plain line per file saying
whether it matches; exit 0 when all match, 1 when any does not (a changed card or seed),
2 when a file cannot be checked (unreadable, not a history, no seed yet)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.__main__ import main
from tests.engine.test_verify import SEED, holdem, zoot


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_cli_verify_says_plainly_that_the_files_match(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a = _write(tmp_path, "hand-1.phh", holdem())
    b = _write(tmp_path, "hand-2.toml", zoot())
    assert main(["verify", str(a), str(b)]) == 0
    out, err = capsys.readouterr()
    lines = out.splitlines()
    assert lines[0].startswith(f"{a}: matches: the SHA-256 of the seed is the commitment")
    assert lines[1].startswith(f"{b}: matches: ") and "2 reshuffles" in lines[1]
    assert err == ""


def test_cli_verify_refuses_a_changed_card_or_seed_with_exit_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = holdem()
    first = re.search(r"'d dh p1 ([2-9TJQKA][cdhs])", text)
    assert first is not None
    other = "2c" if first[1] != "2c" else "3c"
    card = _write(tmp_path, "card.phh", text.replace(f"'d dh p1 {first[1]}", f"'d dh p1 {other}"))
    seed = _write(tmp_path, "seed.phh", text.replace(SEED, "1" + SEED[1:]))
    good = _write(tmp_path, "good.phh", text)
    assert main(["verify", str(good), str(card), str(seed)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(f"{good}: matches")
    assert lines[1] == (
        f"{card}: does not match: action 1 'd dh p1 {other}{text.split(first[1], 1)[1][:2]}':"
        f" the seed's deck deals {first[1]} here, the file shows {other}"
    )
    assert lines[2].startswith(f"{seed}: does not match: the SHA-256 of the seed is ")


def test_cli_verify_cannot_check_a_missing_or_unpublished_file_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    open_table = _write(
        tmp_path, "open.phh", re.sub(r"(?m)^_seed = .*\n", "", holdem())
    )  # as /history gives it while the table is open
    junk = _write(tmp_path, "junk.phh", "not = [toml")
    missing = tmp_path / "missing.phh"
    assert main(["verify", str(open_table), str(junk), str(missing)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    lines = err.splitlines()
    assert lines[0] == (
        f"{open_table}: cannot be verified: no '_seed' field: a verifiable table publishes"
        " each hand's seed when it closes (open the hand in /history then)"
    )
    assert lines[1].startswith(f"{junk}: cannot be verified: not a hand history (not TOML")
    assert lines[2] == f"{missing}: cannot be verified: cannot be read (No such file or directory)"
    # a mismatch among them decides: exit 1
    bad = _write(tmp_path, "bad.phh", holdem().replace(SEED, "2" + SEED[1:]))
    assert main(["verify", str(missing), str(bad)]) == 1


def test_cli_verify_help_and_no_file(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["verify", "--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert "usage: python -m bot verify" in out and "Exit status 0" in out
    with pytest.raises(SystemExit) as done:
        main(["verify"])
    assert done.value.code == 2
    assert "the following arguments are required: FILE" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "verify" in capsys.readouterr().out
