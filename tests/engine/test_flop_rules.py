"""Hold'em and Omaha rules, one test per rule, on stacked decks.

The deck order is: position 0's hole cards (the seat left of the button), position 1's,
..., then the five board cards.
"""

from __future__ import annotations

import random

import pytest

from bot.engine.actions import Action
from bot.engine.cards import CARDS, parse_cards
from bot.engine.errors import IllegalAction, NotYourTurn
from bot.engine.flop import BetOutOfRange, FlopHand, FlopRules, next_button


def deal(
    rules: FlopRules,
    stacks: list[int],
    holes: list[str],
    board: str = "8s 8h 5d 6s Tc",
) -> FlopHand:
    """Seats 1..n clockwise, the button on the last seat."""
    cards = [c for h in holes for c in parse_cards(h)] + parse_cards(board)
    deck = cards + [c for c in CARDS if c not in cards]
    n = len(stacks)
    hand = FlopHand(rules, [(s + 1, st) for s, st in enumerate(stacks)], dealer=n, deck=deck)
    hand.start()
    return hand


def play(hand: FlopHand, *moves: tuple[int, str] | tuple[int, str, int]) -> None:
    for move in moves:
        seat, kind, *amount = move
        hand.apply(Action(seat, kind, amount=amount[0] if amount else None))


NL = FlopRules(small_blind=5, big_blind=10)


def test_heads_up_button_posts_small_blind_acts_first_preflop_last_after() -> None:
    hand = deal(NL, [500, 500], ["As Ad", "Ks Kd"])
    # Seat 2 is the button: it posts the small blind and acts first before the flop.
    assert hand.bets == [10, 5]
    assert hand.to_act() == {2}
    play(hand, (2, "call"), (1, "check"))
    assert len(hand.board) == 3
    assert hand.to_act() == {1}  # after the flop the big blind acts first


def test_three_handed_blinds_left_of_button_and_first_to_act_left_of_big_blind() -> None:
    hand = deal(NL, [500, 500, 500, 500], ["As Ad", "Ks Kd", "Qs Qd", "Js Jd"])
    assert hand.bets == [5, 10, 0, 0]
    assert hand.to_act() == {3}


def test_button_moves_left_to_the_next_seat_dealt_in() -> None:
    assert next_button([1, 3, 5, 8], 3) == 5
    assert next_button([1, 3, 5, 8], 8) == 1
    assert next_button([1, 5, 8], 3) == 5  # seat 3 left: the button still moves one left


def test_no_limit_min_raise_equals_the_last_full_raise() -> None:
    hand = deal(NL, [1000] * 4, ["As Ad", "Ks Kd", "Qs Qd", "Js Jd"])
    assert hand.raise_range(3) == (20, 1000)  # the big blind is the first "raise"
    play(hand, (3, "raise", 45))  # a raise of 35
    assert hand.raise_range(4) == (80, 1000)  # at least another 35
    play(hand, (4, "raise", 80))
    assert hand.raise_range(1) == (115, 1000)


def test_all_in_short_raise_does_not_reopen_the_betting() -> None:
    hand = deal(NL, [1000, 1000, 1000, 130], ["As Ad", "Ks Kd", "Qs Qd", "Js Jd"])
    play(hand, (3, "raise", 100), (4, "raise", 130))  # all-in, a raise of 30 < 90
    play(hand, (1, "fold"), (2, "fold"))
    options = {o.kind: o for o in hand.legal_actions(3)}
    assert options["call"].allowed and not options["raise"].allowed
    assert "short all-in" in (options["raise"].reason or "")
    with pytest.raises(IllegalAction):
        hand.apply(Action(3, "raise", amount=300))


def test_short_all_in_reopens_for_players_yet_to_act() -> None:
    hand = deal(NL, [1000, 1000, 1000, 130], ["As Ad", "Ks Kd", "Qs Qd", "Js Jd"])
    play(hand, (3, "raise", 100), (4, "raise", 130))
    assert hand.raise_range(1) == (220, 1000)  # seat 1 has not acted: may raise a full 90


def test_pot_limit_max_bet_is_the_pot_after_calling() -> None:
    rules = FlopRules(game="omaha", betting="pot-limit", small_blind=5, big_blind=10)
    holes = ["As Ad 2c 3c", "Ks Kd 4c 5c", "Qs Qd 6c 8c", "Js Jd Th 9h"]
    hand = deal(rules, [1000] * 4, holes)
    # Call 10, then the pot (5 + 10 + 10 = 25) on top: raise to 35.
    assert hand.raise_range(3) == (20, 35)
    play(hand, (3, "raise", 35))
    # Call 35, pot 5 + 10 + 35 + 35 = 85: to 120.
    assert hand.raise_range(4) == (60, 120)


def test_pot_limit_too_large_bet_refused_with_legal_range_changing_nothing() -> None:
    rules = FlopRules(game="omaha", betting="pot-limit", small_blind=5, big_blind=10)
    hand = deal(rules, [1000] * 3, ["As Ad 2c 3c", "Ks Kd 4c 5c", "Qs Qd 6c 8c"])
    before = hand.snapshot()
    with pytest.raises(BetOutOfRange) as info:
        hand.apply(Action(3, "raise", amount=500))
    assert (info.value.minimum, info.value.maximum) == (20, 35)
    assert "legal range is 20 to 35" in info.value.message
    assert hand.snapshot() == before
    with pytest.raises(BetOutOfRange, match="legal range is 20 to 35"):
        hand.apply(Action(3, "raise", amount=15))
    play(hand, (3, "raise", 35))  # the game goes on as before


def test_fixed_limit_small_then_big_bet_and_the_blind_and_three_raises_cap() -> None:
    rules = FlopRules(betting="fixed-limit", small_blind=5, big_blind=10)
    hand = deal(rules, [1000] * 3, ["As Ad", "Ks Kd", "Qs Qd"])
    assert hand.raise_range(3) == (20, 20)
    with pytest.raises(BetOutOfRange, match="only legal amount is 20"):
        hand.apply(Action(3, "raise", amount=30))
    play(hand, (3, "raise"), (1, "raise"), (2, "raise"))  # the blind + 3 raises = 40
    assert hand.bets == [30, 40, 20]
    # RRP: the big blind is the bet, so that is the cap (pokerkit allows a 4th raise)
    assert not {o.kind: o for o in hand.legal_actions(3)}["raise"].allowed
    play(hand, (3, "call"), (1, "call"))
    assert hand.street_name == "flop" and hand.raise_range(1) == (10, 10)
    play(hand, (1, "check"), (2, "check"), (3, "check"))
    assert hand.street_name == "turn" and hand.raise_range(1) == (20, 20)


def test_side_pots_three_way_all_in_each_pot_to_its_best_eligible_hand() -> None:
    # Seat 1 (short, best hand) wins the main pot; seat 2 beats seat 3 for the side pot.
    hand = deal(NL, [50, 200, 500], ["As Ad", "Ks Kd", "Qs Qd"], board="2c 7d 9h 3s 4h")
    play(hand, (3, "raise", 500), (1, "call"), (2, "call"))
    assert hand.is_over and hand.result is not None
    assert [p["amount"] for p in hand.result["pots"]] == [150, 300]
    assert hand.stacks == [150, 300, 300]
    assert hand.result["pots"][0]["winners"] == [1]
    assert hand.result["pots"][1]["winners"] == [2]


def test_run_to_showdown_when_betting_is_closed() -> None:
    hand = deal(NL, [100, 100], ["As Ad", "Ks Kd"], board="2c 7d 9h 3s 4h")
    play(hand, (2, "raise", 100), (1, "call"))
    kinds = [e.kind for e in hand.log]
    assert kinds.count("board") == 3 and kinds.count("betting") == 1
    assert hand.is_over and hand.stacks == [200, 0]


def test_big_blind_ante_is_posted_by_the_big_blind_alone_and_is_dead_money() -> None:
    rules = FlopRules(small_blind=5, big_blind=10, ante=10, bb_ante=True)
    hand = deal(rules, [500, 500, 500], ["As Ad", "Ks Kd", "Qs Qd"])
    assert hand.stacks == [495, 480, 500]
    assert hand.pot_total == 25
    play(hand, (3, "fold"), (1, "fold"))
    assert hand.stacks == [495, 505, 500]  # the big blind takes back blind + ante + 5


def test_ante_for_everyone_counts_toward_each_player_pot() -> None:
    rules = FlopRules(small_blind=5, big_blind=10, ante=2)
    hand = deal(rules, [500, 500, 500], ["As Ad", "Ks Kd", "Qs Qd"])
    assert hand.stacks == [493, 488, 498] and hand.pot_total == 21


def test_omaha_hi_lo_quartered_pot_two_tied_lows() -> None:
    rules = FlopRules(game="omaha", betting="pot-limit", split="hi-lo", small_blind=5, big_blind=10)
    # Seats 1 and 2 hold the same low (A-2 with 3-5-8 on board: 8-5-3-2-A); seat 3 has
    # the high (a set of kings) and no low.
    holes = ["Ac 2d Qh Jh", "Ad 2c Td 9c", "Ks Kd 7s 6h"]
    hand = deal(rules, [100, 100, 100], holes, board="3h 5s 8d Kh Qs")
    play(hand, (3, "call"), (1, "call"), (2, "check"))
    for _ in range(3):
        play(hand, (1, "check"), (2, "check"), (3, "check"))
    assert hand.result is not None
    (pot,) = hand.result["pots"]
    assert pot["high_winners"] == [3] and pot["low_winners"] == [1, 2]
    # 30: high 15, low 15 quartered 8 (odd chip by position) and 7.
    assert hand.stacks == [98, 97, 105]


def test_hi_lo_odd_chip_goes_to_the_high_half() -> None:
    rules = FlopRules(
        game="omaha", betting="pot-limit", split="hi-lo", small_blind=5, big_blind=10, ante=1
    )
    holes = ["Ac 2d Qh Jh", "Ks Kd 7s 6h", "9c 9d Tc Ts"]
    hand = deal(rules, [100, 100, 100], holes, board="3h 5s 8d Kh Qs")
    play(hand, (3, "fold"), (1, "call"), (2, "check"))
    for _ in range(3):
        play(hand, (1, "check"), (2, "check"))
    # Pot 3 antes + 20 = 23: the high (seat 2) 12, the low (seat 1) 11.
    assert hand.stacks == [89 + 11, 89 + 12, 99]


def test_hi_lo_without_a_qualifying_low_the_high_hand_scoops() -> None:
    rules = FlopRules(
        game="omaha", betting="fixed-limit", split="hi-lo", small_blind=5, big_blind=10
    )
    holes = ["Ac 2d 4h 5c", "Ks Kd 7s 6h"]  # one low card on the board: no low
    hand = deal(rules, [100, 100], holes, board="3h 9s Td Kh Qs")
    play(hand, (2, "call"), (1, "check"))
    for _ in range(3):
        play(hand, (1, "check"), (2, "check"))
    assert hand.stacks == [90, 110]
    assert hand.result is not None and "low_winners" not in hand.result["pots"][0]


def test_omaha_plays_exactly_two_hole_cards() -> None:
    rules = FlopRules(game="omaha", betting="pot-limit", small_blind=5, big_blind=10)
    # Four hearts on the board and one in seat 1's hand: no flush in Omaha (two hole
    # cards must play), so seat 2's pair of aces beats seat 1's pair of twos.
    holes = ["Ah 2c 3d 4s", "As Ad 3c 7d"]
    hand = deal(rules, [100, 100], holes, board="Kh Qh Jh 9h 2d")
    play(hand, (2, "call"), (1, "check"))
    for _ in range(3):
        play(hand, (1, "check"), (2, "check"))
    assert hand.stacks == [90, 110]


def test_split_pot_odd_chip_to_first_seat_left_of_button() -> None:
    rules = FlopRules(small_blind=5, big_blind=10, ante=1)
    holes = ["2c 3d", "2d 3c", "4s 4h"]
    hand = deal(rules, [100, 100, 100], holes, board="As Ks Qd Jc Th")  # board plays
    play(hand, (3, "fold"), (1, "call"), (2, "check"))
    for _ in range(3):
        play(hand, (1, "check"), (2, "check"))
    assert hand.stacks == [89 + 12, 89 + 11, 99]


def test_hole_cards_are_private_events_board_public() -> None:
    hand = deal(NL, [100, 100, 100], ["As Ad", "Ks Kd", "Qs Qd"])
    holes = [e for e in hand.log if e.kind == "deal_hole"]
    assert [e.visible_to for e in holes] == [1, 2, 3]
    assert all(e.data["seat"] == e.visible_to for e in holes)
    play(hand, (3, "call"), (1, "call"), (2, "check"))
    assert all(e.public for e in hand.log if e.kind == "board")


def test_not_your_turn_is_refused_and_fold_when_check_is_free_is_allowed() -> None:
    hand = deal(NL, [100, 100, 100], ["As Ad", "Ks Kd", "Qs Qd"])
    with pytest.raises(NotYourTurn):
        hand.apply(Action(1, "call"))
    play(hand, (3, "call"), (1, "call"))
    assert hand.can(Action(2, "fold")) is None  # RRP (rules 6.5): folding is always allowed


def test_snapshot_restore_continues_identically() -> None:
    rng = random.Random(3)
    rules = FlopRules(game="omaha", betting="pot-limit", split="hi-lo", ante=1)
    for _ in range(50):
        hand = FlopHand(rules, [(s, rng.randint(20, 400)) for s in (2, 4, 6, 8)], 4, rng=rng)
        hand.start()
        twin: FlopHand | None = None
        steps = 0
        while not hand.is_over:
            if steps == 2:
                twin = FlopHand.restore(hand.snapshot())
            (seat,) = hand.to_act()
            kinds = hand.allowed_kinds(seat)
            kind = rng.choice(kinds)
            span = hand.raise_range(seat)
            amount = rng.randint(*span) if kind in ("bet", "raise") and span else None
            events = hand.apply(Action(seat, kind, amount=amount))
            if twin is not None and not twin.is_over:
                assert twin.apply(Action(seat, kind, amount=amount)) == events
            steps += 1
        if twin is not None:
            assert twin.stacks == hand.stacks and twin.snapshot() == hand.snapshot()
        assert sum(hand.stacks) == sum(hand.starting)


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("deck", "AcAc", "field 'deck'"),
        ("stacks", [1, -5, 3], "field 'stacks'"),
        ("street", 9, "field 'street'"),
        ("actors", [7], "'actors'/'acted'"),
        ("hole", ["AcKd"], "field 'hole'"),
        ("rules", {"game": "stud"}, "field 'rules'"),
    ],
)
def test_restore_refuses_a_damaged_snapshot_naming_the_field(
    field: str, value: object, message: str
) -> None:
    from bot.engine.errors import SnapshotError

    hand = deal(NL, [100, 100, 100], ["As Ad", "Ks Kd", "Qs Qd"])
    snap = hand.snapshot()
    snap[field] = value
    with pytest.raises(SnapshotError, match=message):
        FlopHand.restore(snap)


def test_computer_player_finishes_every_game_and_keeps_every_chip() -> None:
    from bot.engine.flop.policy import choose

    rng = random.Random(8)
    for values in (
        {"betting": "no-limit"},
        {"betting": "fixed-limit"},
        {"game": "omaha", "betting": "pot-limit", "split": "hi-lo"},
    ):
        rules = FlopRules(**values)
        for style in ("tight", "loose", "random"):
            for _ in range(30):
                n = rng.randint(2, 9)
                hand = FlopHand(rules, [(s, rng.randint(30, 600)) for s in range(n)], 0, rng=rng)
                hand.start()
                while not hand.is_over:
                    (seat,) = hand.to_act()
                    action = choose(hand, seat, rng, style)  # type: ignore[arg-type]
                    assert hand.can(action) is None, action
                    hand.apply(action)
                assert sum(hand.stacks) == sum(hand.starting)
