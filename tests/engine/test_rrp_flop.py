"""Hold'em and Omaha by Robert's Rules of Poker (issue 18, items 1-8), one test per rule,
on stacked decks. Each was written failing first (the engine played pokerkit 0.7.7's
readings), then the engine was fixed.

Seats 1..n clockwise, the button on the last seat: with three or more players seat 1
posts the small blind and seat 2 the big blind; heads-up seat 2 is the button and posts
the small blind. The deck: position 0's hole cards (seat 1), position 1's, ..., then the
board.
"""

from __future__ import annotations

import pytest

from bot.engine.actions import Action
from bot.engine.cards import CARDS, parse_cards
from bot.engine.errors import IllegalAction
from bot.engine.flop import FlopHand, FlopRules

FL = FlopRules(betting="fixed-limit", small_blind=5, big_blind=10)
NL = FlopRules(small_blind=5, big_blind=10)
CAPPED = "the betting is capped (one bet and three raises)"


def deal(
    rules: FlopRules,
    stacks: list[int],
    holes: list[str] | None = None,
    board: str = "8s 8h 5d 6s Tc",
) -> FlopHand:
    n = len(stacks)
    if holes is None:
        holes = ["2c 3c", "2d 3d", "2h 3h", "4c 7c", "4d 7d", "4h 7h", "9c Jc", "9d Jd", "9h Jh"]
        holes = holes[:n]
        if rules.game == "omaha":
            holes = ["2c 3c 4c 7c", "2d 3d 4d 7d", "2h 3h 4h 7h"][:n]
    cards = [c for h in holes for c in parse_cards(h)] + parse_cards(board)
    deck = cards + [c for c in CARDS if c not in cards]
    hand = FlopHand(rules, [(s + 1, st) for s, st in enumerate(stacks)], dealer=n, deck=deck)
    hand.start()
    return hand


def play(hand: FlopHand, *moves: tuple[int, str] | tuple[int, str, int]) -> None:
    for move in moves:
        seat, kind, *amount = move
        hand.apply(Action(seat, kind, amount=amount[0] if amount else None))


def option(hand: FlopHand, seat: int, kind: str):  # type: ignore[no-untyped-def]
    return next(o for o in hand.legal_actions(seat) if o.kind == kind)


# ---------------------------------------------------------------- 1. the fixed-limit cap


def test_fixed_limit_cap_is_the_blind_and_three_raises_preflop_with_three_players() -> None:
    """RRP: a bet and three raises; before the flop the big blind is the bet."""
    hand = deal(FL, [500, 500, 500])
    play(hand, (3, "raise"), (1, "raise"), (2, "raise"))
    assert hand.bets == [30, 40, 20]
    raise_ = option(hand, 3, "raise")
    assert not raise_.allowed and raise_.reason == CAPPED
    with pytest.raises(IllegalAction, match="capped"):
        hand.apply(Action(3, "raise"))
    play(hand, (3, "call"), (1, "call"))
    assert hand.street == 2  # the flop


def test_fixed_limit_cap_is_a_bet_and_three_raises_after_the_flop() -> None:
    hand = deal(FL, [500, 500, 500])
    play(hand, (3, "call"), (1, "call"), (2, "check"))
    play(hand, (1, "bet"), (2, "raise"), (3, "raise"), (1, "raise"))
    assert hand.bets == [40, 20, 30]
    assert option(hand, 2, "raise").reason == CAPPED


def test_fixed_limit_omaha_hi_lo_cap_is_the_blind_and_three_raises() -> None:
    rules = FlopRules(game="omaha", split="hi-lo", betting="fixed-limit", big_blind=10)
    hand = deal(rules, [500, 500, 500])
    play(hand, (3, "raise"), (1, "raise"), (2, "raise"))
    assert option(hand, 3, "raise").reason == CAPPED


# ---------------------------------------------------------------- 2. heads-up limit play


def test_heads_up_limit_raising_has_no_cap() -> None:
    """RRP: unlimited raising while only two players contest the round."""
    hand = deal(FL, [500, 500])
    for _ in range(4):
        play(hand, (2, "raise"), (1, "raise"))
    assert hand.bets == [90, 80]  # the blind and eight raises
    assert option(hand, 2, "raise").allowed


def test_heads_up_before_the_cap_is_reached_the_raising_goes_on() -> None:
    hand = deal(FL, [500, 500, 500])
    play(hand, (3, "raise"), (1, "fold"), (2, "raise"), (3, "raise"))
    # the blind and three raises, but only two players contest the round now
    assert hand.bets == [5, 30, 40]
    play(hand, (2, "raise"), (3, "raise"), (2, "raise"))
    assert hand.bets == [5, 70, 60]


def test_cap_reached_three_handed_stays_after_a_fold_leaves_two() -> None:
    hand = deal(FL, [500, 500, 500])
    play(hand, (3, "raise"), (1, "raise"), (2, "raise"), (3, "fold"))
    assert option(hand, 1, "raise").reason == CAPPED


def test_heads_up_counts_the_players_who_are_not_all_in() -> None:
    """Three players in the pot, one of them all-in: the other two raise without a cap."""
    hand = deal(FL, [20, 500, 500])
    play(hand, (3, "raise"), (1, "call"))  # seat 1 is all-in for 20
    assert hand.stacks[0] == 0
    play(hand, (2, "raise"), (3, "raise"))  # the blind and three raises
    assert option(hand, 2, "raise").allowed


# ----------------------------------------------------------- 3. a short all-in big blind


def test_short_all_in_big_blind_others_still_owe_the_full_big_blind() -> None:
    hand = deal(NL, [500, 6, 500])
    assert hand.bets == [5, 6, 0]
    call = option(hand, 3, "call")
    assert (call.amount, call.to) == (10, 10)
    play(hand, (3, "call"))
    assert option(hand, 1, "call").amount == 5


def test_short_all_in_big_blind_minimum_raise_counts_from_the_full_big_blind() -> None:
    hand = deal(NL, [500, 6, 500])
    assert hand.raise_range(3) == (20, 500)
    fl = deal(FL, [500, 6, 500])
    assert option(fl, 3, "raise").to == 20


def test_short_all_in_big_blind_extra_calls_make_a_side_pot() -> None:
    hand = deal(NL, [500, 6, 500], ["As Ad", "2c 7d", "Ks Kd"], board="Qh Jc 4d 3s 9h")
    play(hand, (3, "call"), (1, "call"))
    play(hand, (1, "check"), (3, "check"), (1, "check"), (3, "check"), (1, "check"), (3, "check"))
    assert hand.is_over
    pots = hand.result["pots"]  # type: ignore[index]
    assert [p["amount"] for p in pots] == [18, 8]
    assert hand.stacks == [500 - 10 + 26, 0, 490]


def test_short_all_in_big_blind_heads_up_uncalled_part_goes_back() -> None:
    hand = deal(NL, [6, 500], ["As Ad", "Ks Kd"], board="Qh Jc 4d 3s 9h")
    play(hand, (2, "call"))
    assert hand.is_over
    assert hand.stacks == [12, 494]


# ----------------------------------------------------------- 4. all-ins in limit games


def _flop_bet_by_seat_1(stacks: list[int]) -> FlopHand:
    hand = deal(FL, stacks)
    play(hand, (3, "call"), (1, "call"), (2, "check"), (1, "bet"))
    return hand


def test_limit_all_in_raise_of_half_a_bet_counts_as_a_raise_and_reopens_the_betting() -> None:
    hand = _flop_bet_by_seat_1([500, 25, 500])
    play(hand, (2, "raise"))  # all in for 15: a raise of 5, half the bet of 10
    assert hand.bets == [10, 15, 0] and hand.stacks[1] == 0
    assert option(hand, 3, "raise").to == 25
    play(hand, (3, "call"))
    raise_ = option(hand, 1, "raise")
    assert raise_.allowed and raise_.to == 25  # seat 1 bet already: the betting reopened
    assert hand.aggressions == 2


def test_limit_all_in_raise_under_half_a_bet_does_not_reopen_the_betting() -> None:
    hand = _flop_bet_by_seat_1([500, 24, 500])
    play(hand, (2, "raise"))  # all in for 14: a raise of 4, less than half a bet
    # the next player raises a full bet over the bet, not over the all-in (RRP)
    assert option(hand, 3, "raise").to == 20
    play(hand, (3, "call"))
    raise_ = option(hand, 1, "raise")
    assert not raise_.allowed and raise_.reason == "a short all-in cannot be raised"
    assert hand.aggressions == 1


def test_limit_short_all_in_bet_may_be_completed_to_a_full_bet() -> None:
    hand = deal(FL, [500, 14, 500])
    play(hand, (3, "call"), (1, "call"), (2, "check"), (1, "check"), (2, "bet"))
    assert hand.bets == [0, 4, 0]  # all in for 4: less than half the bet of 10
    complete = option(hand, 3, "bet")
    assert complete.allowed and complete.to == 10
    play(hand, (3, "bet"))
    assert hand.aggressions == 1
    assert option(hand, 1, "raise").to == 20


def test_limit_all_in_of_half_a_bet_counts_toward_the_cap() -> None:
    hand = deal(FL, [500, 500, 500, 26])
    # seat 3 raises to 20, seat 4 (the button) raises all in to 26: 6 over 20, half a bet
    play(hand, (3, "raise"), (4, "raise"))
    assert hand.bets[3] == 26 and hand.aggressions == 3
    play(hand, (1, "raise"))  # to 36: the blind and three raises
    assert hand.bets[0] == 36
    assert option(hand, 2, "raise").reason == CAPPED
    # all in for less than half a bet (4 over 20): not a raise, so one more is allowed
    hand = deal(FL, [500, 500, 500, 24])
    play(hand, (3, "raise"), (4, "raise"), (1, "raise"))
    assert hand.bets == [30, 10, 20, 24] and hand.aggressions == 3
    assert option(hand, 2, "raise").allowed


def test_no_limit_all_in_under_a_full_raise_does_not_reopen() -> None:
    hand = deal(NL, [500, 500, 500, 45])
    play(hand, (3, "raise", 30), (4, "raise", 45))  # all in: 15 more, less than 20
    play(hand, (1, "call"), (2, "call"))
    assert option(hand, 3, "raise").reason == "a short all-in cannot be raised"


# ---------------------------------------------------------------- 5. separate pots


def test_pots_are_split_separately_each_with_its_own_odd_chip() -> None:
    """Main pot 65 and side pot 53, both tied by seats 2 and 4: each pot's odd chip goes
    to the first winner left of the button (seat 2), 33 + 27; not 59 each as one pot."""
    holes = ["5c 6c", "Tc 3d", "2s 2h", "Td 4c", "7c 8c"]
    hand = deal(NL, [100, 100, 15, 100, 100], holes, board="Ah Kd Qc Js 9h")
    play(hand, (3, "raise"), (4, "call"), (5, "call"), (1, "fold"), (2, "call"))
    assert hand.contrib == [5, 15, 15, 15, 15]
    play(hand, (2, "bet", 11), (4, "call"), (5, "call"))
    play(hand, (2, "bet", 10), (4, "call"), (5, "fold"))
    play(hand, (2, "check"), (4, "check"))
    pots = hand.result["pots"]  # type: ignore[index]
    assert [p["amount"] for p in pots] == [65, 53]
    assert [p["shares"] for p in pots] == [{"2": 33, "4": 32}, {"2": 27, "4": 26}]
    assert hand.stacks[1] - (100 - 36) == 60 and hand.stacks[3] - (100 - 36) == 58


# ------------------------------------------------------ 6. folding when checking is free


def test_folding_when_checking_is_free_is_allowed() -> None:
    hand = deal(NL, [500, 500, 500])
    play(hand, (3, "call"), (1, "call"))
    fold = option(hand, 2, "fold")
    assert fold.allowed
    assert "fold" in hand.allowed_kinds(2)
    play(hand, (2, "fold"))
    assert hand.folded == [False, True, False]
    assert hand.default_action(1).kind == "check"  # the timeout still checks


# ------------------------------------------------------ 8. reasons that say what is true


def test_player_who_cannot_cover_a_raise_is_told_you_can_only_call_all_in() -> None:
    hand = deal(NL, [60, 500, 500])
    play(hand, (3, "raise", 100))
    assert option(hand, 1, "raise").reason == "you can only call (all in)"


def test_every_other_player_all_in_or_folded_only_when_that_is_so() -> None:
    hand = deal(NL, [500, 500, 100])
    play(hand, (3, "raise", 100), (1, "fold"))
    assert option(hand, 2, "raise").reason == "every other player is all-in or has folded"
    # the others still have chips, but none can match more than the bet
    hand = deal(NL, [60, 50, 100, 500])
    play(hand, (3, "raise", 100))
    reason = option(hand, 4, "raise").reason
    assert reason == "no other player has chips left to call a raise"


def test_short_all_in_reason_only_when_a_short_all_in_happened() -> None:
    hand = deal(NL, [60, 500, 500])
    play(hand, (3, "raise", 100))
    assert option(hand, 1, "raise").reason != "a short all-in cannot be raised"


# ------------------------------------------------- issue 19 item 17: nobody can finish


def test_small_blind_zero_heads_up_small_blind_folds_the_hand_ends() -> None:
    rules = FlopRules(small_blind=0, big_blind=10)
    hand = deal(rules, [500, 500])
    events = hand.apply(Action(2, "fold"))
    assert hand.is_over
    assert all(m.amount != 0 for e in events for m in e.chips)
    assert hand.stacks == [500, 500]
    refund = next(e for e in events if e.kind == "refund")
    assert refund.data == {"seat": 1, "amount": 10}
