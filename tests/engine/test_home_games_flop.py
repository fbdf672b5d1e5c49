"""What home games play, the engine's part (issue 18 items 11-15; docs/rules.md 6.17-6.21):
the straddle, run it twice, bomb pots on one or two boards, seven-deuce and the rabbit
hunt, one test per rule on stacked decks.

Seats 1..n clockwise, the button on the last seat (seat 1 the small blind, seat 2 the big
blind). The deck: position 0's hole cards (seat 1), position 1's, ..., then the board cards
in the order they are dealt (two boards: each street board 1 then board 2; two runs: run
1 to the river, then run 2).
"""

from __future__ import annotations

import pytest

from bot.engine.actions import Action
from bot.engine.cards import CARDS, parse_cards
from bot.engine.errors import IllegalAction, InvalidConfig, NotYourTurn
from bot.engine.flop import FlopHand, FlopRules
from bot.engine.flop.sevendeuce import is_seven_deuce
from bot.engine.shuffle import seed_deck

NL = FlopRules(small_blind=5, big_blind=10)
HOLES = ["Ac Kc", "2d 3d", "Qh Qs", "4c 5c", "9d 9h", "Jh Td"]


def stacked(holes: list[str], board: str = "") -> list:  # type: ignore[type-arg]
    cards = [c for h in holes for c in parse_cards(h)] + parse_cards(board)
    return cards + [c for c in CARDS if c not in cards]


def deal(
    rules: FlopRules,
    stacks: list[int],
    holes: list[str] | None = None,
    board: str = "8s 8h 5d 6s Tc",
    **kwargs: object,
) -> FlopHand:
    n = len(stacks)
    holes = holes or HOLES[:n]
    hand = FlopHand(
        rules,
        [(s + 1, st) for s, st in enumerate(stacks)],
        dealer=n,
        deck=stacked(holes, board),
        **kwargs,  # type: ignore[arg-type]
    )
    hand.start()
    return hand


def play(hand: FlopHand, *moves: tuple[int, str] | tuple[int, str, int]) -> list:  # type: ignore[type-arg]
    out = []
    for move in moves:
        seat, kind, *amount = move
        out += hand.apply(Action(seat, kind, amount=amount[0] if amount else None))
    return out


def to_act(hand: FlopHand) -> int:
    (seat,) = hand.to_act()
    return seat


def check_down(hand: FlopHand) -> None:
    while not hand.is_over and hand.choice is None:
        seat = to_act(hand)
        p = hand.position(seat)
        hand.apply(Action(seat, "check" if hand.bets[p] >= hand.top else "call"))


# ------------------------------------------------------------------- 11. the straddle


def test_straddle_under_the_gun_is_twice_the_big_blind_and_acts_last_before_the_flop() -> None:
    hand = deal(NL, [500] * 4, straddle=3)
    assert hand.bets == [5, 10, 20, 0]
    order = []
    while hand.street == 1:
        seat = to_act(hand)
        order.append(seat)
        p = hand.position(seat)
        hand.apply(Action(seat, "check" if hand.bets[p] >= hand.top else "call"))
    # the player after the straddle opens; the straddler has the option, last
    assert order == [4, 1, 2, 3]
    assert hand.street_name == "flop" and hand.pot_total == 80


def test_straddle_sets_the_minimum_raise_one_straddle_over_it() -> None:
    hand = deal(NL, [500] * 4, straddle=3)
    assert hand.raise_range(4) == (40, 500)  # the price is 20, a raise is 20 more
    play(hand, (4, "raise", 60))
    assert hand.raise_range(1) == (100, 500)  # the last full raise (40) over 60


def test_straddler_may_raise_when_everyone_only_calls() -> None:
    hand = deal(NL, [500] * 4, straddle=3)
    play(hand, (4, "call"), (1, "call"), (2, "call"))
    kinds = {o.kind for o in hand.legal_actions(3) if o.allowed}
    assert kinds == {"fold", "check", "raise"}


def test_button_straddle_opens_under_the_gun_goes_to_the_blinds_and_the_button_acts_last() -> None:
    """The Mississippi straddle: under the gun first, round to the cutoff, then the small
    and the big blind; the button (the straddler) last."""
    hand = deal(FlopRules(straddle="button"), [500] * 5, straddle=5)
    assert hand.bets == [5, 10, 0, 0, 20]
    order = []
    while hand.street == 1:
        seat = to_act(hand)
        order.append(seat)
        p = hand.position(seat)
        hand.apply(Action(seat, "check" if hand.bets[p] >= hand.top else "call"))
    assert order == [3, 4, 1, 2, 5]
    # after the flop the first player left of the button opens, as ever
    assert to_act(hand) == 1


def test_fixed_limit_straddle_is_the_first_raise_and_counts_toward_the_cap() -> None:
    fl = FlopRules(betting="fixed-limit", small_blind=5, big_blind=10)
    hand = deal(fl, [500] * 4, straddle=3)
    assert hand.raise_range(4) == (30, 30)  # one small bet over the straddle
    play(hand, (4, "raise"), (1, "raise"))  # to 30, then 40: the cap (blind + 3 raises)
    assert not any(o.allowed for o in hand.legal_actions(2) if o.kind == "raise")


@pytest.mark.parametrize(
    ("stacks", "seat"), [([500, 500], 1), ([500] * 5, 4), ([500] * 4, 2)], ids=str
)
def test_straddle_only_under_the_gun_or_on_the_button_with_three_players_or_more(
    stacks: list[int], seat: int
) -> None:
    with pytest.raises(InvalidConfig, match="straddle"):
        FlopHand(
            NL,
            [(s + 1, c) for s, c in enumerate(stacks)],
            dealer=len(stacks),
            deck=stacked(HOLES[: len(stacks)]),
            straddle=seat,
        )


# ---------------------------------------------------------------- 12. run it twice

ASK = FlopRules(small_blind=5, big_blind=10, run_it_twice="ask")


def _all_in_preflop(rules: FlopRules = ASK, board: str = "") -> FlopHand:
    # seat 3 (Q-Q) shoves, seat 1 (A-K) calls, seat 2 folds; the board is stacked
    hand = deal(rules, [500, 500, 500], board=board)
    play(hand, (3, "raise", 500), (1, "call"), (2, "fold"))
    return hand


def test_run_it_twice_all_in_before_the_river_asks_every_player_still_in() -> None:
    hand = _all_in_preflop()
    assert hand.choice == "runout" and hand.to_act() == frozenset({1, 3})
    assert hand.board == [] and not hand.is_over
    assert {o.kind for o in hand.legal_actions(1) if o.allowed} == set()
    assert hand.choice_kinds(1) == ("once", "twice")
    with pytest.raises(IllegalAction, match="Once or Twice"):
        hand.apply(Action(1, "call"))
    with pytest.raises(NotYourTurn):
        hand.apply(Action(2, "twice"))  # folded: not asked


def test_run_it_twice_all_twice_deals_two_runs_each_wins_half_of_each_pot() -> None:
    # run 1 gives A-K a king, run 2 keeps Q-Q ahead
    hand = _all_in_preflop(board="Kd 7s 2c 3h 4s  8d 7c 2h 3s 9c")
    play(hand, (1, "twice"))
    assert not hand.is_over  # seat 3 has not chosen
    events = play(hand, (3, "twice"))
    assert hand.is_over and hand.runs == 2
    assert [str(c) for c in hand.boards[0]] == ["Kd", "7s", "2c", "3h", "4s"]
    assert [str(c) for c in hand.boards[1]] == ["8d", "7c", "2h", "3s", "9c"]
    awards = [
        (e.data["board"], e.data["seat"], e.data["amount"]) for e in events if e.kind == "award"
    ]
    assert awards == [(1, 1, 505), (2, 3, 505)]
    assert hand.stacks == [505, 490, 505]
    assert next(e for e in events if e.kind == "runout").data["count"] == 2


def test_run_it_twice_odd_chip_goes_to_the_first_run() -> None:
    rules = FlopRules(small_blind=5, big_blind=10, ante=1, dead_antes=True, run_it_twice="ask")
    hand = deal(rules, [501, 501, 501], board="Kd 7s 2c 3h 4s  8d 7c 2h 3s 9c")
    play(hand, (3, "raise", 500), (1, "call"), (2, "fold"))
    play(hand, (1, "twice"), (3, "twice"))
    pot = hand.result["pots"][0]  # type: ignore[index]
    assert pot["amount"] == 1013
    assert [(b["board"], b["amount"]) for b in pot["boards"]] == [(1, 507), (2, 506)]


def test_run_it_twice_anyone_choosing_once_runs_the_board_once() -> None:
    hand = _all_in_preflop(board="Kd 7s 2c 3h 4s")
    play(hand, (1, "twice"), (3, "once"))
    assert hand.runs == 1 and len(hand.boards) == 1 and hand.stacks == [1010, 490, 0]


def test_run_it_twice_timeout_chooses_once() -> None:
    hand = _all_in_preflop()
    assert hand.default_action(1) == Action(1, "once", timed_out=True)
    hand.apply(hand.default_action(1))
    hand.apply(hand.default_action(3))
    assert hand.runs == 1 and hand.is_over


def test_run_it_twice_on_the_flop_keeps_the_flop_for_both_runs() -> None:
    hand = deal(ASK, [500, 500, 500], board="Kd 7s 2c  3h 4s  8d 9c")
    play(hand, (3, "call"), (1, "call"), (2, "check"))  # to the flop
    play(hand, (1, "check"), (2, "check"), (3, "raise", 490), (1, "call"), (2, "fold"))
    play(hand, (1, "twice"), (3, "twice"))
    assert [str(c) for c in hand.boards[1]] == ["Kd", "7s", "2c", "8d", "9c"]


def test_run_it_twice_is_not_asked_after_an_all_in_on_the_river() -> None:
    hand = deal(ASK, [500, 500], holes=["Ac Kc", "Qh Qs"])
    play(hand, (2, "call"), (1, "check"))
    for _ in range(2):  # the flop and the turn
        play(hand, (1, "check"), (2, "check"))
    play(hand, (1, "bet", 490), (2, "call"))
    assert hand.is_over and hand.choice is None


def test_run_it_twice_hi_lo_each_runs_half_is_split_high_and_low() -> None:
    rules = FlopRules(game="omaha", split="hi-lo", betting="pot-limit", run_it_twice="ask")
    holes = ["Ac 2c Kd Kh", "9s 9h Ts Th"]
    hand = deal(rules, [60, 60], holes=holes, board="3d 4h 8s Jc Qd  5s 6s 7d Jh Qc")
    play(hand, (2, "raise", 30), (1, "raise", 60), (2, "call"))
    play(hand, (1, "twice"), (2, "twice"))
    parts = hand.result["pots"][0]["boards"]  # type: ignore[index]
    # each run's half (60) is split: A-2 makes the low on both runs
    assert [p["amount"] for p in parts] == [60, 60]
    assert [p["low_winners"] for p in parts] == [[1], [1]]
    assert sum(hand.stacks) == 120


def test_run_it_twice_snapshot_in_the_middle_of_the_choice_restores_it() -> None:
    hand = _all_in_preflop(board="Kd 7s 2c 3h 4s  8d 7c 2h 3s 9c")
    play(hand, (1, "twice"))
    again = FlopHand.restore(hand.snapshot())
    assert again.choice == "runout" and again.to_act() == frozenset({3})
    play(again, (3, "twice"))
    assert again.stacks == [505, 490, 505]


# --------------------------------------------------------------------- 13. bomb pots


def test_bomb_pot_every_player_antes_no_blinds_and_the_hand_starts_on_the_flop() -> None:
    hand = deal(NL, [500, 500, 500], bomb=20)
    assert hand.street_name == "flop" and len(hand.board) == 3
    assert hand.pot_total == 60 and hand.bets == [0, 0, 0] and hand.blinds == [0, 0, 0]
    assert to_act(hand) == 1  # the first left of the button
    assert hand.raise_range(1) == (10, 480)  # the smallest bet: the big blind


def test_bomb_pot_short_stack_antes_what_it_has_and_plays_for_the_main_pot() -> None:
    hand = deal(NL, [500, 500, 15], bomb=20)
    check_down(hand)
    pots = hand.result["pots"]  # type: ignore[index]
    assert [p["amount"] for p in pots] == [45, 10]


def test_double_board_bomb_pot_splits_each_pot_between_the_boards_odd_chip_to_board_one() -> None:
    # board 1 pairs Q-Q's queen, board 2 makes 9-9 trips: each takes half
    holes = ["Qh Qs", "9d 9h", "2c 3d"]
    board = "Qd 7s 4c  9s Kh 5d  2h  Jc  8c  Ac"
    hand = deal(NL, [500, 500, 507], holes=holes, board=board, bomb=31, boards=2)
    assert [str(c) for c in hand.boards[0]] == ["Qd", "7s", "4c"]
    assert [str(c) for c in hand.boards[1]] == ["9s", "Kh", "5d"]
    check_down(hand)
    assert [str(c) for c in hand.boards[0]] == ["Qd", "7s", "4c", "2h", "8c"]
    assert [str(c) for c in hand.boards[1]] == ["9s", "Kh", "5d", "Jc", "Ac"]
    pot = hand.result["pots"][0]  # type: ignore[index]
    assert pot["amount"] == 93
    assert [(b["board"], b["amount"], b["winners"]) for b in pot["boards"]] == [
        (1, 47, [1]),
        (2, 46, [2]),
    ]
    assert hand.stacks == [500 - 31 + 47, 500 - 31 + 46, 507 - 31]


def test_double_board_hand_is_not_run_twice() -> None:
    rules = FlopRules(run_it_twice="ask")
    hand = deal(rules, [500, 500], holes=["Qh Qs", "9d 9h"], bomb=20, boards=2)
    play(hand, (1, "raise", 480), (2, "call"))
    assert hand.is_over and hand.choice is None and hand.runs == 1


# --------------------------------------------------------------------- 14. seven-deuce

SEVEN_DEUCE = FlopRules(small_blind=5, big_blind=10, seven_deuce=25)


def test_seven_deuce_is_seven_and_deuce_of_different_suits() -> None:
    assert is_seven_deuce(parse_cards("7s 2h")) and is_seven_deuce(parse_cards("2c 7d"))
    assert not is_seven_deuce(parse_cards("7s 2s")) and not is_seven_deuce(parse_cards("7s 3h"))


def test_seven_deuce_at_showdown_is_paid_by_every_other_player_dealt_in() -> None:
    holes = ["7c 2d", "Kd Qd", "4s 4h"]
    hand = deal(SEVEN_DEUCE, [500, 500, 500], holes=holes, board="7s 7h 2c 9d Jc")
    play(hand, (3, "fold"), (1, "call"), (2, "check"))
    check_down(hand)
    bounty = next(e for e in hand.log if e.kind == "seven_deuce")
    assert bounty.data["paid"] == {"2": 25, "3": 25} and bounty.data["total"] == 50
    assert [(m.seat, m.amount, m.kind) for m in bounty.chips] == [
        (2, 25, "seven_deuce"),
        (3, 25, "seven_deuce"),
        (1, -50, "seven_deuce"),
    ]
    # the folded player paid too; the pot (20) and the bounty (50)
    assert hand.stacks == [500 + 10 + 50, 490 - 25, 500 - 25]
    assert hand.result["seven_deuce"][0]["seat"] == 1  # type: ignore[index]


def test_seven_deuce_a_player_short_of_it_pays_what_they_have() -> None:
    holes = ["7c 2d", "Kd Qd", "4s 4h"]
    hand = deal(SEVEN_DEUCE, [500, 500, 8], holes=holes, board="7s 7h 2c 9d Jc")
    play(hand, (3, "fold"), (1, "call"), (2, "check"))
    check_down(hand)
    bounty = next(e for e in hand.log if e.kind == "seven_deuce")
    assert bounty.data["paid"] == {"2": 25, "3": 8}


def test_seven_deuce_suited_is_not_paid() -> None:
    holes = ["7d 2d", "Kc Qc", "4s 4h"]
    hand = deal(SEVEN_DEUCE, [500, 500, 500], holes=holes, board="7s 7h 2c 9d Jc")
    play(hand, (3, "fold"), (1, "call"), (2, "check"))
    check_down(hand)
    assert not any(e.kind == "seven_deuce" for e in hand.log)


def test_seven_deuce_uncontested_winner_is_asked_to_show_and_showing_is_paid() -> None:
    holes = ["Kd Qd", "4s 4h", "7c 2d"]
    hand = deal(SEVEN_DEUCE, [500, 500, 500], holes=holes)
    play(hand, (3, "raise", 40), (1, "fold"), (2, "fold"))
    assert hand.choice == "show" and hand.to_act() == frozenset({3}) and not hand.is_over
    events = play(hand, (3, "show"))
    assert hand.is_over
    assert [e.kind for e in events] == ["reveal", "seven_deuce", "hand_over"]
    assert hand.stacks == [495 - 25, 490 - 25, 515 + 50]
    assert hand.phh_actions[-1] == "p3 sm 7c2d"


def test_seven_deuce_every_uncontested_winner_is_asked_and_a_muck_pays_nothing() -> None:
    hand = deal(SEVEN_DEUCE, [500, 500, 500])  # seat 3 holds Q-Q: asked all the same
    play(hand, (3, "raise", 40), (1, "fold"), (2, "fold"))
    assert hand.choice == "show"
    assert hand.default_action(3) == Action(3, "muck", timed_out=True)
    play(hand, (3, "muck"))
    assert hand.is_over and hand.stacks == [495, 490, 515]


def test_seven_deuce_uncontested_shown_without_7_2_pays_nothing() -> None:
    hand = deal(SEVEN_DEUCE, [500, 500, 500])
    play(hand, (3, "raise", 40), (1, "fold"), (2, "fold"), (3, "show"))
    assert hand.is_over and hand.stacks == [495, 490, 515]
    assert hand.result["shown"]["3"]["cards"] == ["Qh", "Qs"]  # type: ignore[index]


def test_seven_deuce_is_a_holdem_rule() -> None:
    with pytest.raises(InvalidConfig, match="seven_deuce"):
        FlopRules.create(game="omaha", betting="pot-limit", seven_deuce=10)


# --------------------------------------------------------------------- 15. rabbit hunt


def test_rabbit_shows_the_cards_that_would_have_come_and_changes_no_chip() -> None:
    hand = deal(NL, [500, 500, 500], board="Kd 7s 2c 3h 4s")
    play(hand, (3, "call"), (1, "call"), (2, "check"))
    play(hand, (1, "raise", 50), (2, "fold"), (3, "fold"))
    stacks = list(hand.stacks)
    rabbit = hand.rabbit()
    assert rabbit == [
        {"street": "turn", "board": 1, "cards": ["3h"]},
        {"street": "river", "board": 1, "cards": ["4s"]},
    ]
    assert hand.stacks == stacks and hand.board == parse_cards("Kd 7s 2c")


def test_rabbit_before_the_flop_is_the_whole_board() -> None:
    hand = deal(NL, [500, 500, 500], board="Kd 7s 2c 3h 4s")
    play(hand, (3, "fold"), (1, "fold"))
    assert [r["cards"] for r in hand.rabbit()] == [["Kd", "7s", "2c"], ["3h"], ["4s"]]


def test_rabbit_of_a_double_board_follows_the_deal_order() -> None:
    board = "Qd 7s 4c  9s Kh 5d  2h  Jc  8c  Ac"
    hand = deal(NL, [500, 500], holes=["Qh Qs", "9d 9h"], board=board, bomb=20, boards=2)
    play(hand, (1, "raise", 50), (2, "fold"))
    assert [(r["street"], r["board"], r["cards"]) for r in hand.rabbit()] == [
        ("turn", 1, ["2h"]),
        ("turn", 2, ["Jc"]),
        ("river", 1, ["8c"]),
        ("river", 2, ["Ac"]),
    ]


def test_rabbit_nothing_to_hunt_after_the_river_and_refused_during_the_hand() -> None:
    hand = deal(NL, [500, 500, 500])
    with pytest.raises(IllegalAction):
        hand.rabbit()
    play(hand, (3, "call"), (1, "call"), (2, "check"))
    check_down(hand)
    assert hand.rabbit() == []


def test_rabbit_at_a_verifiable_table_is_the_seeds_next_cards() -> None:
    seed = "ab" * 32
    deck = seed_deck(seed)
    hand = FlopHand(NL, [(1, 500), (2, 500), (3, 500)], dealer=3, deck=deck)
    hand.start()
    play(hand, (3, "fold"), (1, "fold"))
    assert [c for r in hand.rabbit() for c in r["cards"]] == [str(c) for c in deck[6:11]]


def test_rabbit_with_a_shuffled_deck_is_the_deck_order_the_snapshot_keeps() -> None:
    import random

    hand = FlopHand(NL, [(1, 500), (2, 500), (3, 500)], dealer=3, rng=random.Random(9))
    hand.start()
    play(hand, (3, "call"), (1, "call"), (2, "check"))  # the flop is dealt
    stored = hand.snapshot()  # the undealt cards' order is fixed here
    play(hand, (1, "raise", 50), (2, "fold"), (3, "fold"))
    assert [c for r in hand.rabbit() for c in r["cards"]] == [
        stored["deck"][2 * 9 : 2 * 10],
        stored["deck"][2 * 10 : 2 * 11],
    ]
