"""Text rendering: cards, chip amounts, seat tables for embeds."""

from __future__ import annotations

import doctest

import pytest

import bot.render.text as text_module
from bot.engine.cards import parse_cards
from bot.render.text import SeatRow, cards_text, display_width, format_chips, seats_table


def test_doctests() -> None:
    assert doctest.testmod(text_module).failed == 0


def test_cards_text_uses_pretty_cards_and_ten_as_10() -> None:
    assert cards_text(parse_cards("As Kh Td 2c")) == "A♠ K♥ 10♦ 2♣"
    assert cards_text([]) == ""


def test_razz_down_cards_hidden_in_text() -> None:
    assert cards_text([None, None, *parse_cards("3d")], hidden="??") == "?? ?? 3♦"


@pytest.mark.parametrize(
    ("amount", "plain", "signed"),
    [
        (0, "0", "+0"),
        (999, "999", "+999"),
        (1000, "1,000", "+1,000"),
        (-12345, "-12,345", "-12,345"),
    ],
)
def test_chip_amounts_have_thousands_separators(amount: int, plain: str, signed: str) -> None:
    assert format_chips(amount) == plain
    assert format_chips(amount, signed=True) == signed


@pytest.mark.parametrize("bad", [1.5, True, "100"])
def test_chip_amounts_must_be_integers(bad: object) -> None:
    with pytest.raises(TypeError, match="chip amounts are integers"):
        format_chips(bad)  # type: ignore[arg-type]


def test_seats_table_aligns_stacks_in_a_code_block() -> None:
    out = seats_table(
        [SeatRow("Alice", 1250, "to act"), SeatRow("Bob", 980), SeatRow("Carolina", 12000, "away")]
    )
    assert out.startswith("```\n") and out.endswith("\n```")
    lines = out.splitlines()[1:-1]
    assert lines == [
        "Alice      1,250  to act",
        "Bob          980",
        "Carolina  12,000  away",
    ]


def test_seats_table_clips_long_names_and_aligns_wide_characters() -> None:
    out = seats_table(
        [SeatRow("A" * 40, 5), SeatRow("漢字ネーム", 10), SeatRow("Zoë", 15)], code_block=False
    )
    lines = out.splitlines()
    assert lines[0].startswith("A" * 15 + "…")
    # The stacks end in the same display column whatever the names are made of.
    ends = {display_width(line) for line in lines}
    assert len(ends) == 1


def test_seats_table_cannot_be_broken_by_backticks() -> None:
    out = seats_table([SeatRow("```evil\n", 1)])
    assert out.count("```") == 2


def test_seats_table_fits_embed_field_limit() -> None:
    rows = [SeatRow(f"Player number {i}", 1000 * i, "sitting out for a while") for i in range(60)]
    out = seats_table(rows)
    assert len(out) <= 1024
    assert out.splitlines()[-2].startswith("… and ") and out.splitlines()[-2].endswith(" more")


def test_seats_table_needs_a_seat() -> None:
    with pytest.raises(ValueError, match="at least one seat"):
        seats_table([])
