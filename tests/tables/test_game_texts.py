"""The public sentences of a hand's end (bot/tables/games.py, bot/tables/stud.py): card
codes the engines write are shown as they are, without a parse; any other card text is
still read by parse_card, so the sentence is the same either way."""

from __future__ import annotations

import random

import pytest

from bot.engine.cards import parse_card
from bot.engine.errors import InvalidCard
from bot.engine.events import Event
from bot.engine.hands import low_name
from bot.render.text import cards_text, hand_name_text
from bot.tables.games import SeatShow, make_family
from bot.tables.stud import StudFamily


def _name(seat: int) -> str:
    return f"P{seat}"


def _razz() -> StudFamily:
    fam = make_family("razz", {})
    assert isinstance(fam, StudFamily)
    return fam


def _play_to_showdown(fam: StudFamily, seed: int) -> list[Event]:
    events = fam.start_hand({0: 1000, 1: 1000, 2: 1000}, frozenset(), random.Random(seed))
    while fam.hand_running:
        seat = min(fam.to_act())
        kinds = {o.kind for o in fam.options(seat) if o.allowed}
        kind = next(k for k in ("bring_in", "check", "call") if k in kinds)
        events.extend(fam.apply(fam.default_action(seat)._replace(kind=kind, timed_out=False)))
    return events


def test_razz_show_sentence_of_engine_codes_is_the_formatted_cards() -> None:
    fam = _razz()
    codes = ["Ah", "Td", "2c", "3s", "4h", "9d", "Kc"]
    text = fam.describe(Event("show", {"seat": 1, "cards": codes, "low": "9-4-3-2-A"}), _name)
    assert text == f"P1 shows {cards_text(parse_card(c) for c in codes)}: 9-4-3-2-A"
    assert "10♦" in text  # a ten reads 10, as on the cards (issue 12 item 9)


def test_razz_show_sentence_reads_other_card_text_with_parse_card() -> None:
    fam = _razz()
    event = Event("show", {"seat": 2, "cards": ["ah", "10d", "2♣"], "low": "x"})
    assert fam.describe(event, _name) == "P2 shows A♥ 10♦ 2♣: x"
    with pytest.raises(InvalidCard):
        fam.describe(Event("show", {"seat": 2, "cards": ["Zz"], "low": "x"}), _name)


def test_razz_showdown_texts_and_shown_cards_match_the_engine_hands() -> None:
    for seed in range(20):
        fam = _razz()
        events = _play_to_showdown(fam, seed)
        hand = fam.engine
        assert hand is not None and hand.result is not None and hand.result["showdown"]
        shows = [e for e in events if e.kind == "show"]
        assert shows
        lines = []
        for e in shows:
            seat = e.data["seat"]
            p = hand.position(seat)
            cards = [*hand.down[p], *hand.up[p]]
            # the name given is the name of the seat's own cards (RULES §4.1)
            assert e.data["low"] == low_name(cards)
            held = [parse_card(c) for c in e.data["cards"]]
            assert sorted(held) == sorted(cards)
            assert fam.describe(e, _name) == (
                f"P{seat} shows {cards_text(held)}: {hand_name_text(e.data['low'])}"
            )
            show = fam.seat_show(seat)
            assert isinstance(show, SeatShow)
            assert show.shown == tuple(held) and show.hand_name == e.data["low"]
            lines.append(f"P{seat}: {cards_text(held)} — {hand_name_text(e.data['low'])}")
        lines += [f"P{e.data['seat']} wins {e.data['amount']}" for e in events if e.kind == "award"]
        assert fam.result_text(events, _name) == "\n".join(lines)
