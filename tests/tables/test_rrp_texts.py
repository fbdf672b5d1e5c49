"""What the table says where Robert's Rules decide (issue 18, item 8): a hi-lo pot that
nobody has a low for is taken whole by the high hand, "takes the whole pot (no low)", not
"the high half"; an empty pot (everyone folded to a forced bet nobody called) says no chip
changed hands (issue 19, item 17)."""

from __future__ import annotations

from bot.engine.actions import Action
from bot.engine.cards import CARDS, parse_cards
from bot.engine.flop import FlopHand
from bot.engine.stud.games import StudHiLoHand
from bot.tables.flop import FlopFamily
from bot.tables.games import make_family
from bot.tables.stud import StudFamily

NAMES = {1: "Ann", 2: "Bob", 3: "Cy"}.__getitem__


def _deck(text: str) -> list:  # type: ignore[type-arg]
    cards = parse_cards(text)
    return cards + [c for c in CARDS if c not in cards]


def _check_down(fam: FlopFamily | StudFamily) -> list:  # type: ignore[type-arg]
    events = []
    while fam.hand_running:
        (seat,) = fam.to_act()
        kinds = {o.kind for o in fam.options(seat) if o.allowed}
        kind = next(k for k in ("bring_in", "check", "call") if k in kinds)
        events += fam.apply(Action(seat, kind))
    return events


def test_omaha_hi_lo_scoop_with_no_low_takes_the_whole_pot_no_low() -> None:
    fam = make_family("omaha", {"split": "hi-lo", "betting": "fixed-limit"})
    assert isinstance(fam, FlopFamily)
    # positions 0, 1, 2 (seats 1, 2, 3: the button is seat 3), then a board with no low
    deck = _deck("As Ad Kc Qc 2c 3c 4d 5d 6h 7h 8s 3d Ks Qd Jh 9c 9d")
    fam.engine = FlopHand(fam.rules, [(1, 500), (2, 500), (3, 500)], 3, deck=deck)
    fam.last_button = 3
    events = fam.engine.start() + _check_down(fam)
    text = fam.result_text(events, NAMES)
    assert text is not None
    assert "The pot (30): Ann takes the whole pot (no low)" in text
    assert "high half" not in text
    recent = [fam.describe(e, NAMES) for e in events]
    assert "Ann takes the whole pot (no low): 30" in recent


def test_stud_hi_lo_scoop_with_no_low_takes_the_whole_pot_no_low() -> None:
    fam = make_family("stud", {"split": "hi-lo", "ante": 1, "bring_in": 2, "small_bet": 10})
    assert isinstance(fam, StudFamily)
    streets = "AsAdKc" + "QcQdJs" + "9h9dTh" + "Ah" + "Qh" + "Td" + "Kd" + "Jh" + "Ts"
    streets += "KhJdTc" + "Ks" + "Jc" + "9c"  # 5th to 7th: no card under 9
    fam.engine = StudHiLoHand(fam.rules, [(1, 100), (2, 100), (3, 100)], 3, deck=_deck(streets))
    events = fam.engine.start() + _check_down(fam)
    text = fam.result_text(events, NAMES)
    assert text is not None
    assert "takes the whole pot (no low)" in text
    assert "high takes all" not in text and "high half" not in text


def test_an_empty_pot_says_no_chip_changed_hands() -> None:
    fam = make_family("holdem", {"small_blind": 0})
    assert isinstance(fam, FlopFamily)
    fam.engine = FlopHand(fam.rules, [(1, 500), (2, 500)], 2, deck=_deck("AsAdKcKd"))
    events = fam.engine.start()
    events += fam.apply(Action(2, "fold"))  # the button (small blind 0) folds
    assert fam.result_text(events, NAMES) == (
        "Everyone else folded: Ann takes back their uncalled 10; no chip changed hands"
    )
    assert [fam.describe(e, NAMES) for e in events if e.kind == "award"] == [None]
