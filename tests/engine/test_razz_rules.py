"""Named tests for every rule of RULES.md §4 (Razz), on real engines with stacked decks."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from bot.engine.actions import Action
from bot.engine.cards import CARDS, Card, parse_cards
from bot.engine.errors import GameOver, IllegalAction, InvalidConfig, NotYourTurn
from bot.engine.razz import RazzHand, RazzRules, draw_for_deal
from bot.engine.razz.phh import replay_phh_text


def stacked(streets: Sequence[Sequence[str]]) -> list[Card]:
    """A deck in our deal order: each street's cards, position by position (3rd street
    three cards each: down, down, up); the unused cards follow."""
    order = [c for street in streets for text in street for c in parse_cards(text)]
    return order + [c for c in CARDS if c not in set(order)]


def make(
    stacks: Sequence[int],
    streets: Sequence[Sequence[str]],
    rules: RazzRules | None = None,
) -> RazzHand:
    """Seats 1..n clockwise, the dealer is seat n, so seat 1 is position 0 (player 1)."""
    n = len(stacks)
    hand = RazzHand(
        rules or RazzRules(),
        [(s + 1, st) for s, st in enumerate(stacks)],
        dealer=n,
        deck=stacked(streets),
    )
    hand.start()
    return hand


def turn(hand: RazzHand) -> int:
    (seat,) = hand.to_act()
    return seat


def act(hand: RazzHand, kind: str, amount: int | None = None) -> None:
    hand.apply(Action(turn(hand), kind, amount=amount))


def passive_to_end(hand: RazzHand) -> None:
    """Everyone posts/checks/calls until the hand ends."""
    while not hand.is_over:
        seat = turn(hand)
        opts = {o.kind: o for o in hand.legal_actions(seat) if o.allowed}
        kind = next(k for k in ("bring_in", "check", "call") if k in opts)
        hand.apply(Action(seat, kind))


def opts(hand: RazzHand) -> dict[str, object]:
    return {o.kind: o for o in hand.legal_actions(turn(hand))}


# §4.2 stakes -------------------------------------------------------------------------


def test_rule_4_2_bring_in_must_be_less_than_small_bet() -> None:
    with pytest.raises(InvalidConfig) as err:
        RazzRules.create(bring_in=10, small_bet=10)
    assert err.value.field == "bring_in"
    assert str(err.value) == "bring_in: must be less than the small bet (10), got 10"


def test_rule_4_2_config_errors_name_field_and_value() -> None:
    with pytest.raises(InvalidConfig, match="decision_seconds"):
        RazzRules.create(decision_seconds=5)
    with pytest.raises(InvalidConfig, match="big_bet: must be at least the small bet"):
        RazzRules.create(big_bet=5)
    with pytest.raises(InvalidConfig, match="max_players"):
        RazzRules.create(max_players=9)
    with pytest.raises(InvalidConfig, match="colour"):
        RazzRules.create(colour="red")
    names = [name for name, _, _ in RazzRules().describe()]
    assert names[:4] == ["ante", "bring_in", "small_bet", "big_bet"]
    assert all(desc for _, _, desc in RazzRules().describe())


def test_rule_4_2_small_bet_on_3rd_4th_big_bet_from_5th() -> None:
    hand = make([500, 500], [["2c3c Kd", "4c5c 9d"], ["6c", "7c"], ["8c", "9c"]])
    act(hand, "bring_in")
    act(hand, "call")
    assert opts(hand)["bet"].amount == 10  # 4th
    act(hand, "check")
    act(hand, "check")
    assert opts(hand)["bet"].amount == 20  # 5th


# §4.3 first dealer ------------------------------------------------------------------


class _Stacked(random.Random):
    def __init__(self, top: str) -> None:
        super().__init__(0)
        self.top = parse_cards(top)

    def shuffle(self, x: list[Card]) -> None:  # type: ignore[override]
        x[:] = self.top + [c for c in x if c not in self.top]


def test_rule_4_3_lowest_card_deals_ace_low() -> None:
    dealer, events = draw_for_deal([3, 5, 8], _Stacked("2c Ah Kd"))
    assert dealer == 5
    assert events[0].public and events[0].data["cards"] == {"3": "2c", "5": "Ah", "8": "Kd"}


def test_rule_4_3_tied_low_cards_clubs_lowest() -> None:
    dealer, _ = draw_for_deal([3, 5, 8], _Stacked("4d 4c 4s"))
    assert dealer == 5


# §4.4 3rd street and the bring-in -----------------------------------------------------


def test_razz_bring_in_highest_upcard_spade_breaks_tie() -> None:
    hand = make([100, 100, 100], [["2c3c Jc", "4c5c Js", "6c7c 5d"]])
    assert hand.to_act() == {2}
    o = opts(hand)
    assert o["bring_in"].allowed and o["bring_in"].amount == 5
    assert o["complete"].allowed and o["complete"].to == 10
    assert not o["fold"].allowed and not o["check"].allowed
    with pytest.raises(IllegalAction, match="must post the bring-in or complete"):
        hand.apply(Action(2, "fold"))


def test_rule_4_4_king_brings_in_ace_is_low() -> None:
    hand = make([100, 100], [["2c3c Ad", "4c5c Kc"]])
    assert hand.to_act() == {2}


def test_rule_4_4_action_continues_to_the_bring_ins_left() -> None:
    hand = make([100, 100, 100, 100], [["2c3c 4d", "4c5c Kd", "6c7c 5d", "8c9c 6d"]])
    act(hand, "bring_in")
    assert hand.to_act() == {3}


def test_rule_4_4_bring_in_may_complete() -> None:
    hand = make([100, 100, 100], [["2c3c Jc", "4c5c Js", "6c7c 5d"]])
    act(hand, "complete")
    assert hand.bets[1] == 10
    o = opts(hand)
    assert o["raise"].allowed and o["raise"].to == 20 and not o["complete"].allowed


def test_rule_4_4_completion_after_the_bring_in() -> None:
    hand = make([100, 100, 100], [["2c3c Jc", "4c5c Js", "6c7c 5d"]])
    act(hand, "bring_in")
    o = opts(hand)
    assert o["complete"].allowed and o["complete"].amount == 10 and o["call"].amount == 5
    assert not o["raise"].allowed


# §4.5 who opens from 4th ---------------------------------------------------------------


def test_rule_4_5_6789_opens_before_3455() -> None:
    hand = make(
        [500, 500],
        [["AcAd 3s", "2c2d 6s"], ["4s", "7h"], ["5s", "8h"], ["5h", "9h"]],
    )
    act(hand, "bring_in")  # 6♠ brings in
    act(hand, "call")
    for _ in range(2):  # 4th and 5th: 3-4 / 3-4-5 open
        assert hand.to_act() == {1}
        act(hand, "check")
        act(hand, "check")
    assert hand.street == 6
    assert hand.to_act() == {2}  # 6-7-8-9 unpaired beats 3-4-5-5


def test_rule_4_5_paired_boards_lowest_pair_first_2_2_k_q_opens_before_3_3_4_5() -> None:
    hand = make(
        [500, 500],
        [["AcAd 2s", "4c4d 3s"], ["2h", "3h"], ["Ks", "4s"], ["Qs", "5s"]],
    )
    act(hand, "bring_in")  # 3♠ brings in
    act(hand, "call")
    for _ in range(2):  # 4th: 2-2 before 3-3; 5th: 2-2-K before 3-3-4
        assert hand.to_act() == {1}
        act(hand, "check")
        act(hand, "check")
    assert hand.street == 6
    assert hand.to_act() == {1}  # 2-2-K-Q: the lower pair opens before 3-3-4-5


def test_rule_4_5_exact_tie_first_clockwise_from_dealers_left() -> None:
    hand = make([500, 500, 500], [["AcAd 3s", "2c2d 3h", "4c4d Ks"], ["5s", "5h", "Qs"]])
    act(hand, "bring_in")
    act(hand, "call")
    act(hand, "call")
    assert hand.street == 4 and hand.to_act() == {1}  # 3-5 vs 3-5: seat 1 is left of dealer


# §4.6 the cap ------------------------------------------------------------------------


def test_rule_4_6_cap_one_bet_three_raises_bring_in_does_not_count() -> None:
    hand = make([1000] * 3, [["2c3c Jc", "4c5c Js", "6c7c 5d"]])
    act(hand, "bring_in")
    act(hand, "complete")  # the bet
    act(hand, "raise")
    act(hand, "raise")
    act(hand, "raise")  # third raise: capped now
    assert max(hand.bets) == 40
    o = opts(hand)
    assert not o["raise"].allowed and "capped" in str(o["raise"].reason)
    assert o["call"].allowed


def test_rule_4_6_no_heads_up_exception() -> None:
    hand = make([1000] * 2, [["2c3c Jc", "4c5c 3d"]])
    act(hand, "bring_in")
    act(hand, "complete")
    act(hand, "raise")
    act(hand, "raise")
    act(hand, "raise")
    assert not opts(hand)["raise"].allowed


# §4.7 all-in and side pots ------------------------------------------------------------


def test_rule_4_7_ante_all_in_trims_the_ante() -> None:
    hand = make([1, 100, 100], [["KcKd Ks", "2c3c Qd", "4c5c 9d"]])
    assert hand.stacks[0] == 0 and hand.contrib == [1, 2, 2]
    assert hand.to_act() == {2}  # the all-in K♠ cannot bring in: the next highest does
    passive_to_end(hand)
    assert sum(hand.stacks) == 201


def test_rule_4_7_side_pot_goes_to_the_best_hand_that_paid_into_it() -> None:
    # Seat 1 (best low) is all-in for 12; seats 2 and 3 play on for the side pot.
    hand = make(
        [12, 200, 200],
        [
            ["Ac2c 3c", "9c9d Kd", "TcTd Qd"],
            ["4c", "9h", "Th"],
            ["5c", "9s", "Ts"],
            ["6c", "Jc", "Jd"],
            ["7c", "Qc", "Ks"],
        ],
    )
    act(hand, "bring_in")  # K♦ (seat 2)
    act(hand, "complete")  # seat 3
    act(hand, "call")  # seat 1: all-in for 10 after the ante
    act(hand, "call")  # seat 2
    passive_to_end(hand)
    pots = hand.result["pots"]  # type: ignore[index]
    assert pots[0]["winners"] == [1] and pots[0]["amount"] == 36
    assert all(p["winners"] != [1] for p in pots[1:])
    assert sum(hand.stacks) == 412


def test_rule_4_7_raise_to_the_largest_amount_an_opponent_can_match() -> None:
    hand = make([1000, 13], [["2c3c 4d", "5c6c Kd"]], RazzRules(ante=0))
    act(hand, "complete")  # seat 2 (K♦) completes to 10 and has 3 behind
    with pytest.raises(IllegalAction, match="fixed limit allows 20 or 13"):
        hand.apply(Action(1, "raise", amount=15))
    act(hand, "raise", 13)  # "to" seat 2's all-in, as 85.phh's 'p2 cbr 750000'
    assert hand.bets == [13, 10]
    act(hand, "call")
    assert hand.is_over and sum(hand.stacks) == 1013


def test_rule_4_7_short_all_in_raise_does_not_reopen_the_betting() -> None:
    # pokerkit's reading: a raise reopens the betting when it is at least the last
    # increment (the completion from a bring-in of 5 to 10 is an increment of 5).
    hand = make([100, 100, 12], [["2c3c 4d", "7c8c 6d", "5c6c Kd"]], RazzRules(ante=0))
    act(hand, "bring_in")  # seat 3: 5, 7 behind
    act(hand, "complete")  # seat 1: 10
    act(hand, "call")  # seat 2: 10
    act(hand, "raise")  # seat 3: all-in to 12, an increment of 2
    o = opts(hand)  # seat 1 already acted: may only call or fold
    assert not o["raise"].allowed and "short all-in" in str(o["raise"].reason)
    assert o["call"].amount == 2


def test_rule_4_7_uncalled_bet_is_returned() -> None:
    hand = make([100, 100], [["2c3c 4d", "5c6c Kd"]])
    act(hand, "bring_in")
    act(hand, "complete")
    events = hand.apply(Action(2, "fold"))
    refunds = [e for e in events if e.kind == "refund"]
    assert refunds and refunds[0].chips[0].amount == -5 and refunds[0].data["seat"] == 1
    assert hand.stacks == [107, 93]


# §4.8 community card ------------------------------------------------------------------


def test_rule_4_8_community_card_when_the_deck_runs_out() -> None:
    hand = RazzHand(RazzRules(), [(s, 1000) for s in range(1, 9)], dealer=8, rng=random.Random(3))
    hand.start()
    passive_to_end(hand)
    assert hand.community is not None
    community = [e for e in hand.log if e.kind == "community"]
    assert len(community) == 1 and community[0].public and community[0].data["street"] == 7
    assert all(len(hand.down[p]) == 2 for p in range(8))  # no own 7th card
    assert "d db" in " ".join(hand.phh_actions)
    assert replay_phh_text(hand.to_phh()).match is True


# §4.9 showdown order and showdown_reveal ----------------------------------------------


SHOWDOWN = [
    ["2c3c Kd", "4c5c Qd", "6c7c Jd"],
    ["8c", "9c", "Tc"],
    ["2d", "3d", "4d"],
    ["5d", "6d", "7d"],
    ["8d", "9d", "Td"],
]


def test_rule_4_9_last_7th_street_bettor_shows_first() -> None:
    hand = make([500] * 3, SHOWDOWN)
    while hand.street < 7:
        seat = turn(hand)
        o = opts(hand)
        hand.apply(Action(seat, next(k for k in ("bring_in", "check", "call") if o[k].allowed)))
    act(hand, "check")  # the opener checks
    act(hand, "bet")  # the next one bets: he shows first
    bettor = hand.seat_ids[hand.last_aggressor]  # type: ignore[index]
    passive_to_end(hand)
    shows = [e.data["seat"] for e in hand.log if e.kind == "show"]
    assert shows[0] == bettor and len(shows) == 3
    order = [hand.seat_ids[p] for p in hand.showdown_order()]
    assert shows == order


def test_rule_4_9_without_a_bet_the_7th_street_opener_shows_first() -> None:
    hand = make([500] * 3, SHOWDOWN)
    passive_to_end(hand)
    shows = [e.data["seat"] for e in hand.log if e.kind == "show"]
    assert shows[0] == hand.seat_ids[hand.seventh_opener]  # type: ignore[index]


def test_rule_4_9_showdown_reveal_winners_lets_a_losing_hand_muck() -> None:
    hand = make([500] * 3, SHOWDOWN, RazzRules(showdown_reveal="winners"))
    passive_to_end(hand)
    # Seat 3 (J-T board) opens 7th and shows J-T-7-6-4; seat 1's K-8-5-3-2 cannot beat it
    # and is mucked; seat 2's 9-6-5-4-3 can, and is shown (and wins).
    seq = [(e.kind, e.data["seat"]) for e in hand.log if e.kind in ("show", "muck")]
    assert seq == [("show", 3), ("muck", 1), ("show", 2)]
    assert hand.result["pots"][0]["winners"] == [2]  # type: ignore[index]


# §4.10 split pots -----------------------------------------------------------------------


def test_rule_4_10_split_pot_odd_chip_to_first_winner_left_of_dealer() -> None:
    # Seats 1 and 2 both make 5-4-3-2-A; the pot is 3 antes of 1 + 3 bring-ins of 2 = 9.
    hand = make(
        [500, 500, 500],
        [
            ["Ac2c 3c", "Ad2d 3d", "KsKh Kc"],
            ["4c", "4d", "Qc"],
            ["5c", "5d", "Jc"],
            ["Qs", "Qh", "Tc"],
            ["Js", "Jh", "9c"],
        ],
        RazzRules(ante=1, bring_in=2, small_bet=4, big_bet=8),
    )
    passive_to_end(hand)
    (main,) = hand.result["pots"]  # type: ignore[index]
    assert main["amount"] == 9 and set(main["winners"]) == {1, 2}
    assert main["shares"] == {"1": 5, "2": 4}  # seat 1 is first left of the dealer (seat 3)


def _heads_up_showdown(a: str, b: str) -> list[int]:
    """Both all-in from the ante; seat 1 gets ``a`` and seat 2 gets ``b`` (7 cards each,
    in deal order). Returns the seats that won the pot."""
    ca, cb = a.split(), b.split()
    streets = [[" ".join(ca[:3]), " ".join(cb[:3])]]
    streets += [[ca[i], cb[i]] for i in range(3, 7)]
    hand = make([2, 2], streets)
    assert hand.is_over
    return list(hand.result["pots"][0]["winners"])  # type: ignore[index]


@pytest.mark.parametrize(
    ("winner", "loser"),
    [
        ("4s 5h 7c 9d Td Js Qh", "3s 3d 5s 6h 6s 8h Kd"),
        ("Ah 2h 3h 4h 5h Kc Kd", "Ac 2s 3d 5s 7d Qc Qd"),
        ("2d 3c 6h 8s Jh Jc Jd", "As 2s 3d 4s Qd Kc Kd"),
        ("4h 5c 6s 7s 8s 8c 8d", "3h 5h 6d 7c 9c 9d 9h"),
        ("2s 4s 6s 8s Ts Kc Qc", "Ac 3c 3d 5d Th Kd Qd"),  # 5th street: 2-4-6-8-T > A-3-3-5-T
    ],
)
def test_rule_4_11_source_examples_at_the_hand_level(winner: str, loser: str) -> None:
    assert _heads_up_showdown(winner, loser) == [1]
    assert _heads_up_showdown(loser, winner) == [2]


# check / can / do ----------------------------------------------------------------------


def test_razz_illegal_actions_change_nothing() -> None:
    hand = make([100, 100, 100], [["2c3c Jc", "4c5c Js", "6c7c 5d"]])
    before = hand.snapshot()
    with pytest.raises(NotYourTurn, match="seat 2's turn"):
        hand.apply(Action(1, "call"))
    with pytest.raises(NotYourTurn, match="not in this hand"):
        hand.apply(Action(9, "call"))
    with pytest.raises(IllegalAction, match="unknown action"):
        hand.apply(Action(2, "shove"))
    with pytest.raises(IllegalAction, match="fixed limit allows 10"):
        hand.apply(Action(2, "complete", amount=30))
    assert hand.can(Action(2, "check")) is not None
    assert hand.can(Action(2, "bring_in")) is None
    assert hand.snapshot() == before
    hand.apply(Action(2, "bring_in"))
    hand.apply(Action(3, "fold"))
    hand.apply(Action(1, "fold"))
    with pytest.raises(GameOver):
        hand.apply(Action(2, "check"))


def test_razz_default_action_bring_in_then_check_else_fold() -> None:
    hand = make([100, 100], [["2c3c 4d", "5c6c Kd"], ["7c", "8c"]])
    d = hand.default_action(2)
    assert d.kind == "bring_in" and d.timed_out
    hand.apply(d)
    assert hand.default_action(1).kind == "fold"
    act(hand, "call")
    assert hand.default_action(turn(hand)).kind == "check"
    hand.apply(hand.default_action(turn(hand)))
    assert any(e.data.get("timed_out") for e in hand.log if e.kind == "action")
