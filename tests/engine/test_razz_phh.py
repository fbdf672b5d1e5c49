"""The 10 real WSOP 2023 Event #43 Razz hands replay through our engine (RULES §4)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from bot.engine.razz.phh import PHHError, replay_phh, replay_phh_text

DATA = Path(__file__).resolve().parents[2] / ".." / "shared" / "data" / "phh-razz"


def _replay(number: int) -> None:
    path = DATA / f"{number}.phh"
    if not path.is_file():
        pytest.skip(f"no shared PHH data at {DATA} (a fresh clone has no ../shared)")
    recorded = tomllib.loads(path.read_text())["finishing_stacks"]
    result = replay_phh(path)
    assert result.finishing_stacks == recorded
    assert result.match is True


def test_phh_wsop_2023_43_hand_20() -> None:
    _replay(20)


def test_phh_wsop_2023_43_hand_21() -> None:
    _replay(21)


def test_phh_wsop_2023_43_hand_22() -> None:
    _replay(22)


def test_phh_wsop_2023_43_hand_23() -> None:
    _replay(23)


def test_phh_wsop_2023_43_hand_24() -> None:
    _replay(24)


def test_phh_wsop_2023_43_hand_25() -> None:
    _replay(25)


def test_phh_wsop_2023_43_hand_26() -> None:
    _replay(26)


def test_phh_wsop_2023_43_hand_83() -> None:
    _replay(83)


def test_phh_wsop_2023_43_hand_84() -> None:
    _replay(84)


def test_phh_wsop_2023_43_hand_85_raise_to_opponents_all_in() -> None:
    """pokerkit 0.7.7 refuses 'p2 cbr 750000'; RULES §4.7 accepts it (see SOURCE.md)."""
    _replay(85)


def test_phh_reader_refuses_other_variants_and_hidden_cards() -> None:
    with pytest.raises(PHHError, match="field 'variant'"):
        replay_phh_text("variant = 'NT'\n", name="x.phh")
    text = (
        "variant = 'FR'\nantes = [1, 1]\nbring_in = 1\nsmall_bet = 2\nbig_bet = 4\n"
        "starting_stacks = [10, 10]\nactions = ['d dh p1 ????Ks', 'd dh p2 2c3c4c']\n"
    )
    with pytest.raises(PHHError, match=r"x.phh: action 1 'd dh p1 \?\?\?\?Ks'"):
        replay_phh_text(text, name="x.phh")
