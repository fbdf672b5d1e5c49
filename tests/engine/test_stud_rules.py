"""Named tests for Seven-card Stud and Stud Hi-Lo (issue 13: the lowest up card brings in,
the highest board opens, the open pair on 4th street, hi-lo splits, the community card),
on real engines with stacked decks."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from bot.engine.actions import Action
from bot.engine.cards import CARDS, Card, parse_cards
from bot.engine.errors import IllegalAction
from bot.engine.stud.betting import StudHand
from bot.engine.stud.games import StudHighHand, StudHiLoHand
from bot.engine.stud.replay import replay_phh_text
from bot.engine.stud.rules import StudRules

SMALL = StudRules(ante=1, bring_in=1, small_bet=2, big_bet=4)


def stacked(streets: Sequence[Sequence[str]]) -> list[Card]:
    """A deck in our deal order: each street's cards, position by position (3rd street
    three cards each: down, down, up); the unused cards follow."""
    order = [c for street in streets for text in street for c in parse_cards(text)]
    return order + [c for c in CARDS if c not in set(order)]


def make(
    cls: type[StudHand],
    stacks: Sequence[int],
    streets: Sequence[Sequence[str]],
    rules: StudRules = SMALL,
) -> StudHand:
    """Seats 1..n clockwise, the dealer is seat n, so seat 1 is position 0 (player 1)."""
    n = len(stacks)
    hand = cls(rules, [(s + 1, st) for s, st in enumerate(stacks)], dealer=n, deck=stacked(streets))
    hand.start()
    return hand


def turn(hand: StudHand) -> int:
    (seat,) = hand.to_act()
    return seat


def act(hand: StudHand, kind: str, amount: int | None = None) -> None:
    hand.apply(Action(turn(hand), kind, amount=amount))


def passive_to_end(hand: StudHand) -> None:
    while not hand.is_over:
        seat = turn(hand)
        allowed = hand.allowed_kinds(seat)
        hand.apply(Action(seat, next(k for k in ("bring_in", "check", "call") if k in allowed)))


def test_stud_lowest_up_card_brings_in_clubs_lowest_ace_high() -> None:
    hand = make(StudHighHand, [50, 50, 50], [["KcKd 2s", "QcQd 2c", "JcJd As"]])
    assert hand.to_act() == {2}  # 2♣ below 2♠; the ace is high, not low
    assert hand.allowed_kinds(2) == ("bring_in", "complete")


def test_stud_highest_showing_hand_acts_first_from_4th_street() -> None:
    hand = make(StudHighHand, [50, 50, 50], [["KcKd 2s", "QcQd Ah", "JcJd 3s"], ["2h", "Kh", "4s"]])
    act(hand, "bring_in")  # 2♠
    act(hand, "call")
    act(hand, "call")
    assert hand.street == 4
    assert hand.to_act() == {1}  # 2-2 showing beats A-K


def test_stud_highest_board_tie_first_clockwise_from_dealers_left() -> None:
    hand = make(StudHighHand, [50, 50, 50], [["2c2d As", "3c3d Ah", "4c4d 5s"], ["Kh", "Ks", "6s"]])
    act(hand, "bring_in")  # 5♠
    act(hand, "call")
    act(hand, "call")
    assert hand.to_act() == {1}  # A-K and A-K: seat 1 is the first left of the dealer


def test_stud_open_pair_on_4th_street_allows_the_big_bet() -> None:
    hand = make(StudHighHand, [50, 50], [["KcKd 2s", "QcQd 9h"], ["2h", "Th"]])
    act(hand, "bring_in")
    act(hand, "call")
    assert hand.street == 4 and hand.to_act() == {1}  # 2-2 opens
    bet = {o.kind: o for o in hand.legal_actions(1)}["bet"]
    assert bet.allowed and bet.to == 2  # the plain bet stays the small bet
    act(hand, "bet", 4)  # the big bet
    assert hand.bets[0] == 4
    raise_ = {o.kind: o for o in hand.legal_actions(2)}["raise"]
    assert raise_.to == 8  # after a big bet every raise is big
    with pytest.raises(IllegalAction, match="fixed limit allows 8"):
        act(hand, "raise", 6)


def test_stud_without_open_pair_4th_street_is_the_small_bet_only() -> None:
    hand = make(StudHighHand, [50, 50], [["KcKd 2s", "QcQd 9h"], ["3h", "Th"]])
    act(hand, "bring_in")
    act(hand, "call")
    with pytest.raises(IllegalAction, match="fixed limit allows 2"):
        act(hand, "bet", 4)


def test_stud_hi_lo_open_pair_on_4th_street_does_not_change_the_limit() -> None:
    # Robert's Rules (Seven-card stud high-low): the open pair's big bet is high stud's rule
    hand = make(StudHiLoHand, [50, 50], [["KcKd 2s", "QcQd 9h"], ["2h", "Th"]])
    act(hand, "bring_in")
    act(hand, "call")
    assert hand.street == 4 and hand.to_act() == {1}  # 2-2 showing opens
    assert not hand.open_pair_on_4th()
    with pytest.raises(IllegalAction, match="fixed limit allows 2"):
        act(hand, "bet", 4)
    act(hand, "bet")
    with pytest.raises(IllegalAction, match="fixed limit allows 4"):
        act(hand, "raise", 6)


def test_stud_open_pair_small_bet_may_be_raised_big() -> None:
    hand = make(StudHighHand, [50, 50], [["KcKd 2s", "QcQd 9h"], ["2h", "Th"]])
    act(hand, "bring_in")
    act(hand, "call")
    act(hand, "bet")  # small: 2
    act(hand, "raise", 6)  # raised by the big bet
    assert hand.bets[1] == 6


def test_stud_hi_lo_split_pot_odd_chip_to_high() -> None:
    # Pot: 3 antes + bring-in + call = 5; high (trip kings) 3, low (7-5-4-2-A) 2.
    hand = make(
        StudHiLoHand,
        [50, 50, 50],
        [
            ["KcKd 9s", "Ac2c 8h", "QcQd Js"],
            ["Ks", "4c"],
            ["9d", "5c"],
            ["Th", "7d"],
            ["Jh", "Td"],
        ],
    )
    act(hand, "bring_in")  # 8♥ is the lowest of 9♠, 8♥, J♠
    act(hand, "fold")
    act(hand, "call")
    passive_to_end(hand)
    assert hand.result is not None
    (pot,) = hand.result["pots"]
    assert pot["amount"] == 5
    assert pot["parts"] == [
        {"part": "high", "amount": 3, "winners": [1], "shares": {"1": 3}},
        {"part": "low", "amount": 2, "winners": [2], "shares": {"2": 2}},
    ]
    assert hand.result["shown"]["2"]["low"] == "7-5-4-2-A"
    assert hand.seat_stacks() == {1: 50 - 2 + 3, 2: 50 - 2 + 2, 3: 49}


def test_stud_hi_lo_no_qualifying_low_high_takes_all() -> None:
    hand = make(
        StudHiLoHand,
        [50, 50],
        [["KcKd 9s", "AcQc 8h"], ["Ks", "Jc"], ["9d", "Tc"], ["Th", "Jd"], ["Jh", "Td"]],
    )
    passive_to_end(hand)
    assert hand.result is not None
    (pot,) = hand.result["pots"]
    assert pot["parts"] == [
        {"part": "high", "amount": pot["amount"], "winners": [1], "shares": {"1": pot["amount"]}}
    ]
    assert hand.result["shown"]["2"]["low"] is None


def test_stud_hi_lo_side_pot_without_a_low_goes_to_its_high_hand() -> None:
    # Seat 1 (short, all-in) has the best low; seats 2 and 3 have no low: the side pot
    # between them goes whole to the better high (cardroom rule; pokerkit splits it).
    hand = make(
        StudHiLoHand,
        [3, 50, 50],
        [
            ["Ac2c 3d", "KcKd 9s", "QcQd Js"],
            ["4d", "Ks", "Qs"],
            ["7d", "9d", "Th"],
            ["Jc", "Td", "9h"],
            ["8c", "Jh", "8s"],
        ],
    )
    act(hand, "bring_in")  # 3♦ brings in
    act(hand, "call")
    act(hand, "complete")
    act(hand, "call")  # seat 1 is all-in for 3 in all
    act(hand, "call")
    assert hand.street == 4 and hand.to_act() == {2}  # K-9 opens
    act(hand, "bet")
    act(hand, "call")  # a side pot of 4 between seats 2 and 3
    passive_to_end(hand)
    assert hand.result is not None
    main, side = hand.result["pots"]
    assert side["parts"] == [
        {"part": "high", "amount": side["amount"], "winners": [2], "shares": {"2": side["amount"]}}
    ]
    assert [p["winners"] for p in main["parts"]] == [[2], [1]]


def test_stud_community_card_when_the_deck_runs_out() -> None:
    hand = StudHighHand(SMALL, [(s, 100) for s in range(1, 9)], dealer=8, deck=list(CARDS))
    hand.start()
    passive_to_end(hand)
    assert hand.community is not None  # 8 x 6 = 48 dealt, 4 left for 8 players
    assert all(len(hand.down[p]) + len(hand.up[p]) == 6 for p in range(8))
    text = hand.to_phh()
    assert text.startswith("variant = 'F7S'")
    assert replay_phh_text(text).match is True


def test_stud_hi_lo_snapshot_restores_and_plays_on_identically() -> None:
    import random

    rng = random.Random(3)
    hand = StudHiLoHand(SMALL, [(1, 40), (2, 40), (3, 40)], dealer=3, rng=rng)
    hand.start()
    act(hand, "bring_in")
    snap = hand.snapshot()
    copy = StudHiLoHand.restore(snap)
    for h in (hand, copy):
        passive_to_end(h)
    assert hand.result == copy.result
    assert hand.to_phh().startswith("variant = 'F7S/8'")
