"""The computer players' choices in set situations (issue 18, item 9: "Computer players
play poker"): starting hands ranked as players rank them, position and price, bets sized as
fractions of the pot (never a shove for its own sake), all in only with a short stack or a
strong hand, and no fold when a check is free. The statistics over many hands are in
tests/engine/test_computers_play_poker.py.
"""

from __future__ import annotations

import random

import pytest

from bot.engine.actions import Action
from bot.engine.cards import CARDS, Card, parse_cards
from bot.engine.flop.hand import FlopHand
from bot.engine.flop.policy import chen_score, choose, omaha_score, starting_share
from bot.engine.flop.rules import FlopRules
from bot.engine.hands.odds import flop_equity, stud_equity
from bot.engine.razz import RazzHand, RazzRules
from bot.engine.razz.policy import choose as razz_choose
from bot.engine.razz.policy import start_score as razz_score
from bot.engine.stud.games import StudHighHand
from bot.engine.stud.policy import choose as stud_choose
from bot.engine.stud.policy import high_start_score
from bot.engine.stud.rules import StudRules

NL = FlopRules()  # no-limit Hold'em 5/10
PLO = FlopRules(game="omaha", betting="pot-limit")


def flop_hand(rules: FlopRules, holes: list[str], *, stacks: list[int] | None = None,
              board: str = "") -> FlopHand:  # fmt: skip
    """Seats 1..n clockwise, the button on the last: seat 1 the small blind, seat 2 the
    big blind, seat 3 first to act (with three players or more)."""
    cards = [c for h in holes for c in parse_cards(h)] + parse_cards(board)
    deck = cards + [c for c in CARDS if c not in cards]
    n = len(holes)
    stacks = stacks or [1000] * n
    hand = FlopHand(rules, [(s + 1, st) for s, st in enumerate(stacks)], dealer=n, deck=deck)
    hand.start()
    return hand


def stud_hand(cls: type, rules: StudRules, threes: list[str]) -> StudHighHand:
    """Seats 1..n, the dealer on the last: each three is two down cards, then the up card."""
    cards = [c for t in threes for c in parse_cards(t)]
    deck = cards + [c for c in CARDS if c not in cards]
    n = len(threes)
    hand = cls(rules, [(s + 1, 1000) for s in range(n)], dealer=n, deck=deck)
    hand.start()
    return hand


def play(hand: FlopHand | StudHighHand, *actions: Action) -> None:
    for action in actions:
        hand.apply(action)


TRASH = ["9c 4d", "8h 3s", "Jd 6c", "Tc 5h", "6s 2d", "7c 3h"]


# ---------------------------------------------------------------- starting hands


def test_holdem_starting_hands_rank_aces_first_and_seven_deuce_offsuit_last() -> None:
    def share(text: str) -> float:
        hand = flop_hand(NL, [text, "2c 3c"])
        return starting_share(hand, hand.position(1))

    assert share("As Ad") > 0.99
    assert share("As Ad") > share("Ks Kd") > share("Ah Kh") > share("Ts 9s") > share("7c 2d")
    assert share("7c 2d") < 0.05
    assert chen_score(parse_cards("Ah Kh")) > chen_score(parse_cards("Ad Kc"))  # suited


def test_omaha_prefers_double_suited_aces_and_connected_cards_to_dangling_trash() -> None:
    aces = omaha_score(parse_cards("As Ah Ks Kh"))
    rundown = omaha_score(parse_cards("Jh Tc 9h 8c"))
    dangler = omaha_score(parse_cards("Qs Jd Tc 2h"))
    trash = omaha_score(parse_cards("Kc 7d 3h 2s"))
    assert aces > rundown > dangler > trash
    # in hi-lo the ace with a deuce is the start of the nut low
    assert omaha_score(parse_cards("Ac 2c 5d Kd"), True) > omaha_score(
        parse_cards("Jc Tc 9d 8d"), True
    )


def test_stud_three_card_hands_rank_trips_pairs_draws_then_high_cards() -> None:
    def s(text: str) -> float:
        return high_start_score(parse_cards(text))

    assert s("5s 5d 5c") > s("As Ad 2c") > s("9s 9d Kc") > s("2s 2d 7c") > s("Ac 9d 4h")
    assert s("Js Ts 9s") > s("Ks Qs 4s") > s("Ac Kd 7h")  # straight flush draw, flush draw


def test_razz_three_card_hands_rank_the_lowest_different_cards_first() -> None:
    def s(text: str) -> float:
        return razz_score(parse_cards(text))

    assert s("Ac 2d 3h") > s("Ac 2d 5h") > s("4c 6d 8h") > s("Ac Ad 2h") > s("Qc Jd Kh")


# ---------------------------------------------------------------- before the flop


def test_first_in_aces_raise_to_two_and_a_half_big_blinds_not_all_in() -> None:
    hand = flop_hand(NL, ["2c 3c", "4c 5c", "As Ad", *TRASH[:3]])
    for seed in range(10):
        assert choose(hand, 3, random.Random(seed)) == Action(3, "raise", amount=25)


def test_first_in_seven_deuce_offsuit_folds_and_the_button_opens_wider() -> None:
    hand = flop_hand(NL, ["2c 3c", "4c 5c", "7c 2d", *TRASH[:3]])
    assert choose(hand, 3, random.Random(1)).kind == "fold"
    # K-8 suited: folded under the gun, raised on the button
    early = flop_hand(NL, ["2c 3c", "4c 5c", "Kd 8d", *TRASH[:3]])
    assert choose(early, 3, random.Random(1)).kind == "fold"
    late = flop_hand(NL, ["2c 3c", "4c 5c", "9c 4d", "8h 3s", "Jd 6c", "Kd 8d"])
    play(late, Action(3, "fold"), Action(4, "fold"), Action(5, "fold"))
    assert choose(late, 6, random.Random(1)) == Action(6, "raise", amount=30)


def test_pot_limit_omaha_opens_for_the_pot_and_folds_trash() -> None:
    hand = flop_hand(PLO, ["2c 3c 4d 5d", "6c 7h 8d Td", "As Ah Ks Kh", "Kc 7d 3h 2s"])
    assert choose(hand, 3, random.Random(2)) == Action(3, "raise", amount=35)
    play(hand, Action(3, "raise", amount=35))
    assert choose(hand, 4, random.Random(2)).kind == "fold"


def test_facing_a_raise_aces_re_raise_about_three_times_and_trash_folds() -> None:
    hand = flop_hand(NL, ["2c 3c", "4c 5c", "9c 4d", "Ks Kd", "8h 3s", "Jd 6c"])
    play(hand, Action(3, "raise", amount=25))
    action = choose(hand, 4, random.Random(3))
    assert action.kind == "raise" and action.amount is not None and 70 <= action.amount <= 80
    play(hand, action)
    assert choose(hand, 5, random.Random(3)).kind == "fold"


def test_a_short_stack_pushes_a_good_hand_and_folds_a_bad_one() -> None:
    """Ten big blinds: too short to raise and fold, so all in or out."""
    hand = flop_hand(
        NL, ["2c 3c", "4c 5c", "Ah Kh", *TRASH[:3]], stacks=[1000, 1000, 100, 1000, 1000, 1000]
    )
    assert choose(hand, 3, random.Random(4)) == Action(3, "raise", amount=100)
    hand = flop_hand(
        NL, ["2c 3c", "4c 5c", "8d 2h", *TRASH[:3]], stacks=[1000, 1000, 100, 1000, 1000, 1000]
    )
    assert choose(hand, 3, random.Random(4)).kind == "fold"


def test_the_big_blind_checks_its_option_with_a_weak_hand() -> None:
    hand = flop_hand(NL, ["Jh 8d", "9c 4d", "6s 2d"])
    play(hand, Action(3, "call"), Action(1, "call"))
    assert choose(hand, 2, random.Random(5)) == Action(2, "check")


# ---------------------------------------------------------------- after the flop


def _heads_up_flop(hole: str, other: str, board: str, rules: FlopRules = NL) -> FlopHand:
    """Heads-up (seat 1 the big blind, seat 2 the button): a limped pot of 20 at the flop,
    seat 1 to act."""
    hand = flop_hand(rules, [hole, other], board=board)
    play(hand, Action(2, "call"), Action(1, "check"))
    assert hand.board and hand.to_act() == {1}
    return hand


def test_a_set_bets_a_half_to_three_quarters_of_the_pot() -> None:
    bets = []
    for seed in range(20):
        hand = _heads_up_flop("Qs Qd", "7c 2d", "Qh 8c 3d 5s Kc")
        action = choose(hand, 1, random.Random(seed))
        assert action.kind in ("bet", "check"), action
        if action.kind == "bet":
            assert action.amount is not None and 10 <= action.amount <= 15  # the pot is 20
            bets.append(action)
    assert len(bets) >= 14  # now and then a check, to trap


def test_nothing_folds_to_a_pot_sized_river_bet_and_the_nuts_never_do() -> None:
    for seed in range(10):
        hand = flop_hand(NL, ["7c 2d", "As Ks"], board="Ah Kd 9s 4c 3h")
        play(hand, Action(2, "call"), Action(1, "check"))  # flop
        play(hand, Action(1, "check"), Action(2, "check"))
        play(hand, Action(1, "check"), Action(2, "check"))  # turn
        play(hand, Action(1, "check"), Action(2, "bet", amount=20))  # river: a pot bet
        assert choose(hand, 1, random.Random(seed)).kind == "fold"
        nuts = flop_hand(NL, ["As Ah", "Ks Kh"], board="Ad Kd 9s 4c 3h")
        play(nuts, Action(2, "call"), Action(1, "check"), Action(1, "check"))
        play(nuts, Action(2, "bet", amount=20))
        assert choose(nuts, 1, random.Random(seed)).kind in ("call", "raise")


def test_a_raise_that_would_commit_most_of_the_stack_goes_all_in_only_with_a_strong_hand() -> None:
    """A small stack left behind: a value raise puts it all in; air never moves in."""
    stacks = [80, 1000]
    for seed in range(10):
        hand = flop_hand(NL, ["8s 8d", "Ac Kc"], stacks=stacks, board="8h 8c 2d 5s 9h")
        play(hand, Action(2, "call"), Action(1, "check"), Action(1, "check"))
        play(hand, Action(2, "bet", amount=15))
        action = choose(hand, 1, random.Random(seed))
        assert action.kind in ("call", "raise")
        if action.kind == "raise":
            assert action.amount == 70  # everything: 80 less the 10 of the blind
        air = flop_hand(NL, ["7c 2d", "Ac Kc"], stacks=stacks, board="8h 8c Jd 5s 9h")
        play(air, Action(2, "call"), Action(1, "check"), Action(1, "check"))
        play(air, Action(2, "bet", amount=15))
        assert choose(air, 1, random.Random(seed)).kind == "fold"


@pytest.mark.parametrize(
    "rules",
    [NL, FlopRules(betting="fixed-limit"), PLO, FlopRules(game="omaha", split="hi-lo")],
    ids=["NT", "FT", "PO", "NO8"],
)
def test_flop_computers_never_fold_when_checking_is_free(rules: FlopRules) -> None:
    rng = random.Random(7)
    for _ in range(40):
        hand = FlopHand(rules, [(s, rng.randint(50, 1500)) for s in range(1, 7)], 6, rng=rng)
        hand.start()
        while not hand.is_over:
            (seat,) = hand.to_act()
            free = any(o.kind == "check" and o.allowed for o in hand.legal_actions(seat))
            action = choose(hand, seat, rng)
            assert hand.can(action) is None, action
            assert not (free and action.kind == "fold"), action
            hand.apply(action)


def test_the_choice_is_a_function_of_the_hand_and_the_rng() -> None:
    hand = _heads_up_flop("Qs Jd", "7c 2d", "Qh 8c 3d 5s Kc")
    first = [choose(hand, 1, random.Random(seed)) for seed in range(8)]
    again = [choose(FlopHand.restore(hand.snapshot()), 1, random.Random(seed)) for seed in range(8)]
    assert first == [choose(hand, 1, random.Random(seed)) for seed in range(8)]
    assert all(a.kind in ("bet", "check") for a in again)


# ---------------------------------------------------------------- stud games


def test_stud_rolled_up_trips_complete_and_a_bad_hand_folds_to_the_completion() -> None:
    # seat 1 has the lowest up card (the deuce of clubs): it brings in
    hand = stud_hand(StudHighHand, StudRules(), ["9h 4d 2c", "7s 7d 7c", "Jh 3s 8d", "Qd 5c 6h"])
    assert hand.to_act() == {1}
    play(hand, Action(1, "bring_in"))
    assert stud_choose(hand, 2, random.Random(1)) == Action(2, "complete")
    play(hand, Action(2, "complete"))
    assert stud_choose(hand, 3, random.Random(1)) == Action(3, "fold")


def test_razz_a_king_up_brings_in_and_folds_to_a_completion_a_wheel_draw_completes() -> None:
    hand = stud_hand(RazzHand, RazzRules(), ["9h Qd Kc", "Ac 2d 3h", "Jh 9s Td", "Qc Jc Qh"])
    assert hand.to_act() == {1}  # the king brings in
    assert razz_choose(hand, 1, random.Random(2)) == Action(1, "bring_in")
    play(hand, Action(1, "bring_in"))
    assert razz_choose(hand, 2, random.Random(2)) == Action(2, "complete")
    play(hand, Action(2, "complete"), Action(3, "fold"), Action(4, "fold"))
    assert razz_choose(hand, 1, random.Random(2)) == Action(1, "fold")


def test_stud_computers_never_fold_when_checking_is_free() -> None:
    rng = random.Random(8)
    for cls, rules, choice in (
        (StudHighHand, StudRules(), stud_choose),
        (RazzHand, RazzRules(), razz_choose),
    ):
        for _ in range(30):
            hand = cls(rules, [(s, rng.randint(30, 600)) for s in range(1, 7)], 6, rng=rng)
            hand.start()
            while not hand.is_over:
                (seat,) = hand.to_act()
                free = any(o.kind == "check" and o.allowed for o in hand.legal_actions(seat))
                action = choice(hand, seat, rng)
                assert hand.can(action) is None, action
                assert not (free and action.kind == "fold"), action
                hand.apply(action)


# ---------------------------------------------------------------- equity


def test_flop_equity_of_aces_against_one_random_hand_is_about_85_percent() -> None:
    aces = flop_equity(parse_cards("As Ah"), [], 1, random.Random(9), trials=2000)
    assert 0.8 <= aces <= 0.9
    # against three hands, and against a hand from a narrow range on a board it hits
    assert flop_equity(parse_cards("As Ah"), [], 3, random.Random(9), trials=1000) < 0.7


def test_stud_equity_of_a_made_flush_beats_a_pair_showing() -> None:
    cards: list[Card] = parse_cards("2h 9h Kh 5h 7h")
    other = [parse_cards("Qc Qd Jh")]
    assert stud_equity(cards, other, (), random.Random(10), parts="high", trials=300) > 0.7
    low = stud_equity(parse_cards("Ac 2d 3h 4s"), [parse_cards("Kc Kd")], (), random.Random(10),
                      parts="low", trials=300)  # fmt: skip
    assert low > 0.8
