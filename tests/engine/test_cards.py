"""Card notation of RULES.md (ranks 2-9 T J Q K A or 10, suits s h d c or ♠ ♥ ♦ ♣) and
the seeded deck."""

from __future__ import annotations

import random

import pytest

from bot.engine.cards import (
    CARDS,
    Deck,
    cards_code,
    format_cards,
    make_card,
    parse_card,
    parse_cards,
)
from bot.engine.errors import InvalidCard


@pytest.mark.parametrize("text", ["Ah", "ah", "AH", "A♥", "A♥️", " Ah "])
def test_notation_ace_of_hearts_every_spelling(text: str) -> None:
    card = parse_card(text)
    assert (card.rank, card.suit, str(card), card.pretty) == (14, 2, "Ah", "A♥")


def test_notation_ten_as_T_or_10() -> None:
    assert parse_card("10h") == parse_card("Th") == parse_card("t♥") == make_card(10, 2)
    assert parse_card("10d").pretty == "10♦"


def test_parse_cards_spaced_and_written_together() -> None:
    assert (
        parse_cards("As 2d 3c 4h 5s") == parse_cards("As2d3c4h5s") == parse_cards("A♠,2♦ 3♣-4♥ 5♠")
    )
    assert [str(c) for c in parse_cards("10h10d")] == ["Th", "Td"]


def test_duplicate_card_is_refused_naming_it() -> None:
    with pytest.raises(InvalidCard) as err:
        parse_cards("As Kd as")
    assert err.value.token == "As" and "twice" in err.value.message
    assert len(parse_cards("As As", allow_duplicates=True)) == 2


@pytest.mark.parametrize(
    ("text", "token"),
    [("As Xd 3c", "Xd"), ("As 1h", "1h"), ("As Kx", "Kx"), ("As2d3z", "3z")],
)
def test_bad_token_is_named_in_the_message(text: str, token: str) -> None:
    with pytest.raises(InvalidCard) as err:
        parse_cards(text)
    assert err.value.token == token
    assert repr(token) in err.value.message


def test_format_round_trip_all_52_cards() -> None:
    text = format_cards(CARDS)
    assert parse_cards(text) == list(CARDS)
    assert parse_cards(format_cards(CARDS, pretty=True)) == list(CARDS)
    assert parse_cards(cards_code(CARDS)) == list(CARDS)
    assert all(CARDS[c] is c for c in CARDS) and sorted(set(CARDS)) == list(range(52))


def test_card_numbering_and_low_rank() -> None:
    assert make_card(2, 0) == 0 and make_card(14, 3) == 51
    assert parse_card("Ac").low_rank == 1 and parse_card("Kc").low_rank == 13
    with pytest.raises(InvalidCard):
        make_card(15, 0)


def test_deck_with_seeded_rng_is_deterministic_and_complete() -> None:
    first = Deck(rng=random.Random(7))
    second = Deck(rng=random.Random(7))
    assert first.cards == second.cards
    assert sorted(first.cards) == list(CARDS)
    assert first.deal(5) == second.deal(5) and len(first) == 47
    stacked = Deck(cards=parse_cards("As Kd"))
    assert [str(c) for c in stacked.deal(2)] == ["As", "Kd"]
    with pytest.raises(ValueError, match="cannot deal"):
        stacked.deal(1)
    stacked.add(parse_cards("2c 3c"), rng=random.Random(1))
    assert sorted(str(c) for c in stacked.deal(2)) == ["2c", "3c"]
