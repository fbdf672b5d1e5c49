"""All-in equity (bot/league/equity.py): exact where it says exact, stable where it samples.

The preflop method counts boards by classes that rank alike (module docstring); these
tests hold it to the plain enumeration of every board: on decks made small by dead cards
(hundreds of spots: Hold'em and Omaha, hi-lo, side pots, up to four players) and on the
full deck (all 1,712,304 boards of a heads-up Hold'em all-in, 1,370,754 of a three-way).
"""

from __future__ import annotations

import random

import pytest

from bot.engine.cards import parse_cards
from bot.league import equity
from bot.league.equity import Pot, Runout, _boards_one_by_one, expected_chips


def cards(text: str) -> tuple[int, ...]:
    return tuple(parse_cards(text))


def test_turn_all_in_counts_the_44_rivers() -> None:
    spot = Runout(
        "holdem",
        cards=(cards("As Ah"), cards("Kd Kc")),
        board=cards("Ad Kh 2c 7s"),
        pots=(Pot(200, (0, 1)),),
    )
    result = expected_chips(spot)
    assert result.method == "exact" and result.runouts == 44 and result.error == 0
    assert result.expected == (equity.Fraction(200 * 43, 44), equity.Fraction(200, 44))


@pytest.mark.parametrize("seed", range(6))
def test_board_classes_equal_every_board_on_small_decks(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(40):
        game = rng.choice(["holdem", "omaha"])
        hi_lo = game == "omaha" and rng.random() < 0.5
        n = rng.choice([2, 3, 4])
        k = 2 if game == "holdem" else 4
        deck = list(range(52))
        rng.shuffle(deck)
        if rng.random() < 0.6:  # many of one suit left: flushes on most boards
            deck.sort(key=lambda c: (c & 3) != 0 and rng.random() < 0.8)
        hands = tuple(tuple(deck[i * k : (i + 1) * k]) for i in range(n))
        rest = deck[n * k :]
        dead = tuple(rest[: len(rest) - rng.choice([9, 11, 13])])
        pots = (Pot(100 + rng.randrange(60), tuple(range(n))),)
        if n >= 3:  # a side pot without the first player
            pots += (Pot(37, tuple(range(1, n))),)
        spot = Runout(game, cards=hands, pots=pots, dead=dead, hi_lo=hi_lo)
        assert expected_chips(spot).expected == _boards_one_by_one(spot).expected, spot


@pytest.mark.slow
@pytest.mark.parametrize(
    "hands",
    [("As Ks", "Qs Qc"), ("Ah Kh", "Qs Jd", "7c 7d")],
    ids=["suited-vs-pair", "three-way"],
)
def test_preflop_classes_equal_all_boards_of_the_full_deck(hands: tuple[str, ...]) -> None:
    spot = Runout(
        "holdem",
        cards=tuple(cards(h) for h in hands),
        pots=(Pot(3000, tuple(range(len(hands)))), Pot(500, (1, len(hands) - 1))),
    )
    fast = expected_chips(spot)
    assert fast.runouts == {2: 1_712_304, 3: 1_370_754}[len(hands)]
    assert fast.expected == _boards_one_by_one(spot).expected


def test_stud_enumerates_few_runouts_and_samples_many_stably(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # 6th street heads-up: 40 x 39 = 1,560 deals of the last card, counted one by one
    spot = Runout(
        "stud",
        cards=(cards("As Ad 7c 7h 2s 9d"), cards("Kh Qh Jh Th 3c 4d")),
        pots=(Pot(300, (0, 1)),),
    )
    exact = expected_chips(spot)
    assert exact.method == "exact" and exact.runouts == 40 * 39
    # forced to sample: seeded by the cards (the same figure twice), within a chip
    monkeypatch.setattr(equity, "EXACT_LIMIT", 0)
    sampled = expected_chips(spot)
    assert sampled.method == "sampled" and sampled.error <= equity.TARGET_ERROR
    assert sampled == expected_chips(spot)
    for a, b in zip(sampled.expected, exact.expected, strict=True):
        assert abs(float(a) - float(b)) <= 4 * equity.TARGET_ERROR


def test_razz_hi_lo_and_shares_of_a_tie() -> None:
    # the same low on both sides of a Razz river: each expects half the pot
    spot = Runout(
        "razz",
        cards=(cards("As 2d 3c 4h 5s Kd"), cards("Ah 2c 3d 4s 5h Qc")),
        pots=(Pot(100, (0, 1)),),
    )
    assert sum(expected_chips(spot).expected) == 100
    # Omaha hi-lo: only one side can make a low; every chip of the pot is expected by someone
    spot = Runout(
        "omaha",
        hi_lo=True,
        cards=(cards("Ah 2h Kd Kc"), cards("Qs Qd Js Jd")),
        board=cards("3c 4d 8s 9h"),
        pots=(Pot(400, (0, 1)),),
    )
    got = expected_chips(spot)
    assert got.runouts == 40 and sum(got.expected) == 400  # 52 - 8 hole - 4 board


def test_a_spot_that_cannot_be_dealt_is_refused() -> None:
    with pytest.raises(ValueError):
        Runout("holdem", cards=(cards("As Ad"), cards("As Kd")), pots=(Pot(10, (0, 1)),))
    with pytest.raises(ValueError):
        expected_chips(
            Runout(
                "holdem",
                cards=(cards("As Ad"), cards("Ks Kd")),
                board=cards("2c 3d 4h 5s 9c"),
                pots=(Pot(10, (0, 1)),),
            )
        )
