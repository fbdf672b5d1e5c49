"""Seven-card Stud, Stud Hi-Lo and Razz by Robert's Rules of Poker (issue 18, items 1-8),
one test per rule, on stacked decks; each was written failing first (the engine played
pokerkit 0.7.7's readings). Razz is played exactly by ../shared/RULES.md (4.6: the cap
holds heads-up too; 4.10: odd chips to the first winner from the dealer's left).

Seats 1..n clockwise, the dealer is seat n, so seat 1 is position 0.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from bot.engine.actions import Action
from bot.engine.cards import CARDS, Card, parse_cards
from bot.engine.errors import GameOver
from bot.engine.razz import RazzHand, RazzRules
from bot.engine.stud.betting import StudHand
from bot.engine.stud.games import StudHighHand, StudHiLoHand
from bot.engine.stud.rules import StudRules

RULES = StudRules(ante=1, bring_in=2, small_bet=10, big_bet=20)
CAPPED = "the betting is capped (one bet and three raises)"
#: 3rd street with no pair showing (the lowest up card, 2♣ of seat 1, brings in; Razz:
#: the highest, K♠ of seat 2)
THIRD = ["Ad Kd 2c", "Ah Kh Ks", "Ac Qc 9s", "5d 5h 8d"]


def stacked(streets: Sequence[Sequence[str]]) -> list[Card]:
    order = [c for street in streets for text in street for c in parse_cards(text)]
    return order + [c for c in CARDS if c not in set(order)]


def make(
    cls: type[StudHand],
    stacks: Sequence[int],
    streets: Sequence[Sequence[str]] | None = None,
    rules: StudRules = RULES,
) -> StudHand:
    n = len(stacks)
    deck = stacked(streets or [THIRD[:n]])
    hand = cls(rules, [(s + 1, st) for s, st in enumerate(stacks)], dealer=n, deck=deck)
    hand.start()
    return hand


def turn(hand: StudHand) -> int:
    (seat,) = hand.to_act()
    return seat


def act(hand: StudHand, *kinds: str) -> None:
    for kind in kinds:
        hand.apply(Action(turn(hand), kind))


def option(hand: StudHand, kind: str):  # type: ignore[no-untyped-def]
    return next(o for o in hand.legal_actions(turn(hand)) if o.kind == kind)


# ---------------------------------------------------------------- 1. the cap


def test_stud_cap_is_a_bet_and_three_raises_with_three_players() -> None:
    hand = make(StudHighHand, [500, 500, 500])
    act(hand, "bring_in", "complete", "raise", "raise", "raise")
    assert max(hand.bets) == 40
    assert option(hand, "raise").reason == CAPPED


# ---------------------------------------------------------------- 2. heads-up


@pytest.mark.parametrize("cls", [StudHighHand, StudHiLoHand], ids=["stud", "stud8"])
def test_stud_heads_up_raising_has_no_cap(cls: type[StudHand]) -> None:
    hand = make(cls, [500, 500])
    act(hand, "bring_in", "complete", "raise", "raise", "raise")  # the cap three-handed
    assert option(hand, "raise").allowed
    act(hand, "raise", "raise", "raise")
    assert max(hand.bets) == 70


def test_razz_heads_up_keeps_the_cap_rules_4_6() -> None:
    hand = make(RazzHand, [500, 500], rules=RazzRules(ante=1, bring_in=2))
    act(hand, "bring_in", "complete", "raise", "raise", "raise")
    assert option(hand, "raise").reason == CAPPED


def test_stud_heads_up_before_the_cap_is_reached_the_raising_goes_on() -> None:
    hand = make(StudHighHand, [500, 500, 500])
    act(hand, "bring_in", "complete", "fold", "raise", "raise", "raise")
    assert option(hand, "raise").allowed


# ------------------------------------------------------------ 4. all-ins (half a bet)

FOURTH = [["Ac Kc Qd", "2c 3c 5d", "4h 6h 9s"], ["Js", "7h", "Tc"]]


def test_stud_all_in_raise_of_half_a_bet_reopens_the_betting() -> None:
    hand = make(StudHighHand, [500, 18, 500], FOURTH)
    act(hand, "bring_in", "call", "call")  # seat 2's 5♦ brings in
    assert hand.street == 4 and turn(hand) == 1  # Q-J opens
    act(hand, "bet", "raise")  # seat 2: all in for 15, 5 over the bet of 10
    assert hand.stacks[1] == 0 and hand.bets == [10, 15, 0]
    assert option(hand, "raise").to == 25
    act(hand, "call")
    assert turn(hand) == 1 and option(hand, "raise").allowed


def test_stud_all_in_raise_under_half_a_bet_does_not_reopen() -> None:
    hand = make(StudHighHand, [500, 17, 500], FOURTH)
    act(hand, "bring_in", "call", "call", "bet", "raise")  # all in for 14: 4 over 10
    assert option(hand, "raise").to == 20  # a full raise over the bet, not over 14
    act(hand, "call")
    assert option(hand, "raise").reason == "a short all-in cannot be raised"


@pytest.mark.parametrize("cls", [StudHighHand, RazzHand], ids=["stud", "razz"])
def test_stud_short_all_in_completion_may_be_completed_to_a_full_bet(
    cls: type[StudHand],
) -> None:
    if cls is StudHighHand:
        hand = make(cls, [500, 5, 500])  # seat 1's 2♣ brings in
    else:  # Razz: seat 1's K♣ brings in
        streets = [["Ad 2d Kc", "Ah 3h 4s", "Ac 5c 6s"]]
        hand = make(cls, [500, 5, 500], streets, rules=RazzRules(ante=1, bring_in=2))
    act(hand, "bring_in")
    assert turn(hand) == 2
    act(hand, "complete")  # all in for 4: less than half of the bet of 10
    assert hand.stacks[1] == 0
    complete = option(hand, "complete")
    assert complete.allowed and complete.to == 10
    act(hand, "complete")
    assert hand.aggressions == 1


# ------------------------------------------------------- 5. each pot split on its own

SPLIT = [
    ["Ac Ks Qd", "As Kd Qh", "2c 2h 7s", "5h 6h Kc", "7c 7d Kh"],
    ["Jd", "Jc", "8d", "8c"],
    ["Ts", "Tc", "9h"],
    ["4h", "2d", "6c"],
    ["5c", "3s", "4d"],
]


def test_stud_pots_split_separately_odd_chip_to_the_highest_card_by_suit() -> None:
    """Seats 1 and 2 tie (A-K-Q-J-10) for a main pot of 33 and a side pot of 29: each
    pot's odd chip goes to seat 2, whose A♠ is the highest card (RRP, Ties), not to seat 1,
    the first from the dealer's left; and the two pots are not paid as one (31 each)."""
    hand = make(StudHighHand, [100, 100, 8, 100, 100], SPLIT)
    assert turn(hand) == 3  # the 7♠ brings in
    act(hand, "bring_in", "fold", "complete", "call", "call", "call")  # seat 3 all in
    assert hand.street == 4 and turn(hand) == 5  # K-8 opens
    act(hand, "check", "bet", "call", "fold")
    while not hand.is_over:
        act(hand, "check")
    pots = hand.result["pots"]  # type: ignore[index]
    assert [p["amount"] for p in pots] == [33, 29]
    assert [p["shares"] for p in pots] == [{"1": 16, "2": 17}, {"1": 14, "2": 15}]
    assert hand.stacks[:2] == [109, 111]


def test_stud_hi_lo_low_half_odd_chip_to_the_lowest_card_by_suit() -> None:
    """Seats 1 and 2 tie for the low (8-6-4-2-A) and share the low half of 19: seat 2's A♣
    is the lowest card, so it gets the odd chip (RRP, Ties: low games)."""
    streets = [
        ["Ad Ks 2c", "Ac Kd 2d", "Jh Js Jd"],
        ["4c", "4h", "9c"],
        ["6h", "6s", "9d"],
        ["8d", "8c", "Tc"],
        ["Qs", "Qd", "Th"],
    ]
    hand = make(StudHiLoHand, [100, 100, 100], streets)
    act(hand, "bring_in", "call", "call", "bet", "call", "call")
    while not hand.is_over:
        act(hand, "check")
    (pot,) = hand.result["pots"]  # type: ignore[index]
    assert pot["amount"] == 39
    assert pot["shares"] == {"1": 9, "2": 10, "3": 20}


def test_razz_each_pot_own_odd_chip_to_the_first_from_the_dealers_left() -> None:
    """Razz keeps RULES.md 4.10: the odd chips go to the first tied winner clockwise from
    the dealer's left."""
    streets = [["Ac 2d Kc", "As 2h Ks", "Qc Qd Qh"], ["3c", "3s", "Jc"], ["4c", "4h", "Jd"]]
    streets += [["6c", "6h", "Js"], ["7c", "7h", "Tc"]]
    hand = make(RazzHand, [100, 100, 100], streets, rules=RazzRules(ante=1, bring_in=2))
    act(hand, "bring_in", "call", "call")
    while not hand.is_over:
        act(hand, "check")
    (pot,) = hand.result["pots"]  # type: ignore[index]
    assert pot["amount"] == 9 and pot["shares"] == {"1": 5, "2": 4}


# ---------------------------------------------------- 6. folding when checking is free


def test_stud_folding_when_checking_is_free_is_allowed() -> None:
    hand = make(StudHighHand, [500, 500, 500], FOURTH)
    act(hand, "bring_in", "call", "call")
    assert option(hand, "fold").allowed
    assert "fold" in hand.allowed_kinds(turn(hand))
    act(hand, "fold")
    assert hand.folded == [True, False, False]
    # the bring-in is forced: no fold there
    hand = make(StudHighHand, [500, 500, 500])
    assert not option(hand, "fold").allowed


# ----------------------------------------------------------------- 8. true reasons


def test_stud_player_who_cannot_cover_a_raise_is_told_you_can_only_call_all_in() -> None:
    hand = make(StudHighHand, [500, 500, 8])
    act(hand, "bring_in", "complete")
    assert turn(hand) == 3
    assert option(hand, "raise").reason == "you can only call (all in)"


def test_stud_every_other_player_all_in_or_folded_only_when_so() -> None:
    hand = make(StudHighHand, [500, 11, 500])
    act(hand, "bring_in", "complete", "fold")  # seat 2 completes all in for 10
    assert option(hand, "raise").reason == "every other player is all-in or has folded"


# --------------------------------------- issue 19 item 17: a hand nobody can finish


@pytest.mark.parametrize("cls", [StudHighHand, StudHiLoHand, RazzHand])
def test_ante_zero_everyone_folds_to_the_bring_in_and_the_hand_ends(
    cls: type[StudHand],
) -> None:
    rules = cls.RULES(ante=0, bring_in=2, small_bet=10, big_bet=20)
    hand = make(cls, [100, 100, 100], rules=rules)
    bring_in = turn(hand)
    act(hand, "bring_in")
    events = []
    while not hand.is_over:
        seat = turn(hand)
        events += hand.apply(Action(seat, "fold"))
    assert all(m.amount != 0 for e in events for m in e.chips)
    assert hand.stacks == [100, 100, 100]
    assert any(e.kind == "refund" and e.data["seat"] == bring_in for e in events)
    with pytest.raises(GameOver):
        hand.apply(Action(bring_in, "check"))
