"""``/rules holdem``, ``/rules omaha`` and ``/rules compare`` / ``python -m bot compare`` for
the flop games (issue 13): the cardroom choices are written down, Omaha's default betting
is pot-limit, and a comparison takes a board."""

from __future__ import annotations

import json

import pytest

from bot.__main__ import main
from bot.render import rulebook
from cogs.rules import compare_text, default_rules


@pytest.mark.parametrize("game", ["holdem", "omaha"])
def test_rules_of_flop_games_write_down_the_cardroom_choices(game: str) -> None:
    text = "\n".join(rulebook.part_text(p) for p in rulebook.PARTS[game])
    for choice in (
        "Heads-up",  # the button posts the small blind and acts first before the flop
        "last full bet or raise",  # minimum raise
        "does **not reopen**",  # an incomplete all-in raise
        "odd chip goes to the high half",  # odd chips
        "**The dead button** (Robert's Rules of Poker's rule",  # issue 18 item 7
        "**Fixed limit: the half-bet rule**",  # issue 18 item 4: 6.7 names each structure's
        "**No-limit and pot-limit: the full-raise rule**",
        "**Each pot is split on its own**",  # item 5
        "even when checking is free",  # item 6
        "the blind and three raises",  # item 1
        "the raising has no cap",  # item 2
        "the others still owe the full big blind",  # item 3
    ):
        assert choice in text, choice


def test_omaha_house_rules_default_to_pot_limit_and_holdem_to_no_limit() -> None:
    assert ("betting", "pot-limit") in {(n, v) for n, v, _ in default_rules("omaha")}
    assert ("betting", "no-limit") in {(n, v) for n, v, _ in default_rules("holdem")}


def test_compare_omaha_uses_two_hole_cards_and_names_the_low(capsys) -> None:
    board = "board: Ks 7d 2c 9h 4s"
    # four hearts in the hand make no flush: only two of them play (6.2)
    status = main(["compare", "omaha", board, "Ah Qh Jh Th", "As Ad 3c 5d"])
    result = json.loads(capsys.readouterr().out)
    assert status == 0 and result["board"] == "Ks 7d 2c 9h 4s"
    assert [(h["place"], h["name"], h["low"]) for h in result["hands"]] == [
        (2, "high card ace", None),
        (1, "pair of aces", "7-4-3-2-A"),
    ]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["omaha", "As Ad 3c 5d"], "Omaha needs a board"),
        (["omaha", "board: Ks 7d 2c", "As Ad 3c"], "hand 1 has 3 cards: a hand here has 4"),
        (["holdem", "board: Ks 7d 2c", "Ks Qd"], "'Ks': appears in the board and hand 1"),
        (["holdem", "board: Ks 7d", "As Qd"], "a board has 3 to 5 cards, got 2"),
    ],
)
def test_compare_flop_bad_input_is_named_and_exits_2(args, message, capsys) -> None:
    assert main(["compare", *args]) == 2
    assert message in capsys.readouterr().err


def test_rules_compare_text_shows_the_board_and_the_winner() -> None:
    text = compare_text("holdem", "board: Ks 7d 2c 9h 4s | As Kh | 7h 7c")
    assert text.splitlines()[0] == "Board: `K♠ 7♦ 2♣ 9♥ 4♠`"
    assert "three sevens outranks pair of kings." in text
