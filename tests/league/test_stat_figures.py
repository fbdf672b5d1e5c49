"""Issue 22 item 6, "Must show": the statistics against values computed by hand on a fixed
set of hands (PokerTracker's definitions, rules §11 (/rules glossary)).

Each hand is written out below as its PHH; the comment beside it says who did what and
the counts that follow, worked out by hand.
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from bot.league.figures import Facts, StoredHand, Tally, guts_facts, hand_facts, poker_facts
from bot.league.glossary import FIGURES
from bot.league.hand_record import HandRecordError, read_hand

# A: no-limit, three players. p3 (button) opens to 30, p1 (small blind) 3-bets to 90, p2
# (big blind) folds, p3 calls; p1 bets the flop, p3 folds.
NT_THREE_BET = """
variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [5, 10, 0]
min_bet = 10
starting_stacks = [1000, 1000, 1000]
actions = ['d dh p1 AcAd', 'd dh p2 7c2h', 'd dh p3 KsKh', 'p3 cbr 30', 'p1 cbr 90', 'p2 f',
           'p3 cc', 'd db 9s7h2c', 'p1 cbr 100', 'p3 f']
finishing_stacks = [1100, 990, 910]
"""

# B: heads-up, the button (small blind) folds: a walk for the big blind.
NT_WALK = """
variant = 'NT'
antes = [0, 0]
blinds_or_straddles = [5, 10]
min_bet = 10
starting_stacks = [500, 500]
actions = ['d dh p1 9c9d', 'd dh p2 7h2s', 'p2 f']
finishing_stacks = [505, 495]
"""

# C: fixed limit, four players. p3 limps, p4 raises, p1 folds, p2 (big blind) calls, p3
# re-raises (a limper's 3-bet), p4 and p2 call. Flop: p2 checks, p3 bets, p4 raises, p2
# folds, p3 calls. Turn: p3 checks, p4 bets, p3 calls. River: both check; p4's aces win
# the 175 chips (5 + 3 x 30 + 2 x 20 + 2 x 20).
FT_LIMP_THREE_BET = """
variant = 'FT'
antes = [0, 0, 0, 0]
blinds_or_straddles = [5, 10, 0, 0]
small_bet = 10
big_bet = 20
starting_stacks = [1000, 1000, 1000, 1000]
actions = ['d dh p1 3c3d', 'd dh p2 TcTd', 'd dh p3 KsKh', 'd dh p4 AsAh', 'p3 cc', 'p4 cbr 20',
           'p1 f', 'p2 cc', 'p3 cbr 30', 'p4 cc', 'p2 cc', 'd db 2c7d9h', 'p2 cc', 'p3 cbr 10',
           'p4 cbr 20', 'p2 f', 'p3 cc', 'd db Jc', 'p3 cc', 'p4 cbr 20', 'p3 cc', 'd db Qd',
           'p3 cc', 'p4 cc', 'p4 sm AsAh', 'p3 sm KsKh']
finishing_stacks = [995, 970, 930, 1105]
"""

# D: Seven-card Stud. p2 brings in, p3 completes, p1 raises (the first raise), p2 folds
# facing it, p3 re-raises (the 3-bet), p1 calls. 4th: p1 checks, p3 bets, p1 calls. 5th:
# both check. 6th: p3 bets, p1 folds; p3's bet comes back.
STUD_THREE_BET = """
variant = 'F7S'
ante_trimming_status = true
antes = [1, 1, 1]
bring_in = 2
small_bet = 5
big_bet = 10
starting_stacks = [100, 100, 100]
actions = ['d dh p1 5c6dKd', 'd dh p2 8h9h2c', 'd dh p3 TsJdAh', 'p2 pb', 'p3 cbr 5', 'p1 cbr 10',
           'p2 f', 'p3 cbr 15', 'p1 cc', 'd dh p1 9s', 'd dh p3 Qh', 'p1 cc', 'p3 cbr 5', 'p1 cc',
           'd dh p1 4d', 'd dh p3 Jc', 'p1 cc', 'p3 cc', 'd dh p1 7h', 'd dh p3 3s', 'p3 cbr 10',
           'p1 f']
finishing_stacks = [79, 97, 124]
"""

# E: Razz: p1 brings in, everyone folds: a walk for the bring-in.
RAZZ_WALK = """
variant = 'FR'
ante_trimming_status = true
antes = [1, 1, 1]
bring_in = 2
small_bet = 5
big_bet = 10
starting_stacks = [50, 50, 50]
actions = ['d dh p1 2c3dKd', 'd dh p2 4h5hQc', 'd dh p3 AsAdJh', 'p1 pb', 'p2 f', 'p3 f']
finishing_stacks = [52, 49, 49]
"""

# F: heads-up all-in on the turn. Kings (p1, big blind) against aces (p2, button) on
# Ad Kh 2c 7s: 44 rivers, only the last king (Ks) saves the kings. Pot 200 (100 each).
NT_ALL_IN_TURN = """
variant = 'NT'
antes = [0, 0]
blinds_or_straddles = [5, 10]
min_bet = 10
starting_stacks = [100, 100]
actions = ['d dh p1 KdKc', 'd dh p2 AsAh', 'p2 cc', 'p1 cc', 'd db AdKh2c', 'p1 cc', 'p2 cc',
           'd db 7s', 'p1 cbr 90', 'p2 cc', 'p1 sm KdKc', 'p2 sm AsAh', 'd db 3d']
finishing_stacks = [0, 200]
"""

ZERO = Facts()


def facts(text: str) -> list[Facts]:
    return poker_facts(read_hand(text))


def only(f: Facts, **values: object) -> None:
    """Every field of ``f`` is 0 but ``values`` (and ``hands`` 1)."""
    want = {"hands": 1, **values}
    for name in Facts.__dataclass_fields__:
        assert getattr(f, name) == want.get(name, getattr(ZERO, name)), name


def test_three_bet_in_holdem_is_the_re_raise_of_the_one_open_raise() -> None:
    p1, p2, p3 = facts(NT_THREE_BET)
    only(p1, vpip=1, pfr=1, three_bet_chances=1, three_bets=1, saw_flop=1, aggressive=1, net=100)
    # the big blind faced two raises when it acted: no 3-bet chance; it folded (no VPIP)
    only(p2, net=-10)
    only(p3, vpip=1, pfr=1, saw_flop=1, net=-90)


def test_a_walk_is_left_out_of_vpip_and_pfr() -> None:
    bb, button = facts(NT_WALK)
    only(bb, walks=1, net=5)
    only(button, net=-5)
    assert Tally.of([bb]).vpip_rate is None  # one hand, one walk: nothing to count over


def test_a_limper_re_raising_is_a_3_bet_and_the_big_blinds_call_a_missed_chance() -> None:
    p1, p2, p3, p4 = facts(FT_LIMP_THREE_BET)
    only(p1, three_bet_chances=1, net=-5)
    only(p2, vpip=1, three_bet_chances=1, saw_flop=1, net=-30)
    only(
        p3,
        vpip=1,
        pfr=1,
        three_bet_chances=1,
        three_bets=1,
        saw_flop=1,
        showdowns=1,
        aggressive=1,
        calls=2,
        net=-70,
    )
    only(p4, vpip=1, pfr=1, saw_flop=1, showdowns=1, showdown_wins=1, aggressive=2, net=105)


def test_stud_completion_is_the_bet_so_the_3_bet_is_the_re_raise_after_one_raise() -> None:
    p1, p2, p3 = facts(STUD_THREE_BET)
    only(p1, vpip=1, pfr=1, saw_flop=1, calls=1, net=-21)
    # the bring-in is forced: no VPIP; folding to the one raise was a 3-bet chance
    only(p2, three_bet_chances=1, net=-3)
    only(p3, vpip=1, pfr=1, three_bet_chances=1, three_bets=1, saw_flop=1, aggressive=2, net=24)


def test_the_bring_in_winning_when_all_fold_is_a_walk() -> None:
    p1, p2, p3 = facts(RAZZ_WALK)
    only(p1, walks=1, net=2)
    only(p2, net=-1)
    only(p3, net=-1)


def test_all_in_luck_is_won_minus_the_exact_equity_share() -> None:
    kings, aces = facts(NT_ALL_IN_TURN)
    # kings: 1 river in 44 wins the 200 chips; they put in 100
    expected_kings = float(Fraction(200, 44) - 100)
    assert kings.expected == pytest.approx(expected_kings, abs=1e-9)
    assert aces.expected == pytest.approx(-expected_kings, abs=1e-9)
    assert (kings.all_in_hands, kings.all_in_won, aces.all_in_won) == (1, -100, 100)
    assert (kings.aggressive, kings.calls, aces.calls) == (1, 0, 1)
    assert (kings.showdowns, kings.showdown_wins, aces.showdown_wins) == (1, 0, 1)
    luck = Tally.of([aces]).luck
    assert luck == pytest.approx(100 - (200 * 43 / 44 - 100))  # +4.55 chips: a lucky river


def test_zoot_lay_down_rate_and_challenge_success() -> None:
    history = """
variant = 'ZOOT'
antes = [10, 10, 10]
seats = [1, 2, 3]
starting_stacks = [200, 200, 200]
actions = ['d dh p1 9s8s6s3s2s', 'd dh p2 KhKdKc7h7d', 'd dh p3 AhQd9c5s3h', 'p1 po', 'p3 po',
           'p2 po # timeout', 'p1 sd 2s', 'p2 sd 7d', 'p3 sd 5s # timeout', 'd dh p1 Ts',
           'd dh p2 7c', 'd dh p3 2c', 'p2 ld', 'p1 po # timeout', 'p3 po # timeout']
finishing_stacks = [255, 105, 180]
"""
    seats, (p1, p2, p3) = guts_facts(history, {"challenger": 2, "winners": [1]})
    assert seats == [1, 2, 3]
    assert (p1.games, p1.windows, p1.laydowns, p1.challenges, p1.net) == (1, 2, 0, 0, 55)
    assert (p2.windows, p2.laydowns, p2.challenges, p2.challenge_wins) == (2, 1, 1, 0)
    assert (p3.windows, p3.laydowns, p3.net) == (2, 0, -20)
    t = Tally.of([p2])
    assert (t.laydown_rate, t.challenge_rate) == (0.5, 0.0)


def test_a_members_totals_over_the_fixed_hands() -> None:
    """One member sitting p1 in hands A, C and D and p2 in F (the aces): the figures by hand."""
    hands = [
        (NT_THREE_BET, "holdem", 0),
        (FT_LIMP_THREE_BET, "holdem", 0),
        (STUD_THREE_BET, "stud", 0),
        (NT_ALL_IN_TURN, "holdem", 1),
        (NT_WALK, "holdem", 0),
    ]
    mine = []
    for i, (text, game, position) in enumerate(hands):
        n = len(read_hand(text).starting)
        stored = StoredHand(
            hand_id=i + 1,
            game=game,
            history=text,
            seats=tuple(range(n)),
            users={s: (7 if s == position else 100 + s) for s in range(n)},
        )
        mine.append(hand_facts(stored)[7])
    t = Tally.of(mine)
    # hands 5, one walk (B): VPIP over 4 = A, D, F (the aces limp-called) -> 3/4
    assert (t.hands, t.walks, t.vpip, t.pfr) == (5, 1, 3, 2)
    assert FIGURES["vpip"].text(t) == "75.0%" and FIGURES["pfr"].text(t) == "50.0%"
    # 3-bet chances: A (re-raised) and C (folded the small blind): 1 of 2
    assert (t.three_bet_chances, t.three_bets, FIGURES["three_bet"].text(t)) == (2, 1, "50.0%")
    # saw the flop in A, D (4th street), F; showdown only in F, won it
    assert (t.saw_flop, t.showdowns, t.showdown_wins) == (3, 1, 1)
    assert (t.wtsd_rate, t.wsd_rate) == (pytest.approx(1 / 3), 1.0)
    # after the first round: A bet (1), D call (1), F call (1): AF 1/2
    assert (t.aggressive, t.calls, t.aggression) == (1, 2, 0.5)
    assert t.luck == pytest.approx(100 - (200 * 43 / 44 - 100))
    assert t.net == 100 - 5 - 21 + 100 + 5


def test_aggression_with_no_call_is_infinite_and_with_neither_undefined() -> None:
    assert math.isinf(Tally(aggressive=3).aggression or 0)
    assert Tally().aggression is None
    assert FIGURES["af"].text(Tally(aggressive=3)) == "∞"


def test_a_history_whose_chips_do_not_add_up_is_refused_and_counts_nothing() -> None:
    broken = NT_WALK.replace("finishing_stacks = [505, 495]", "finishing_stacks = [600, 495]")
    with pytest.raises(HandRecordError, match="do not add up"):
        read_hand(broken)
    stored = StoredHand(1, "holdem", broken, (0, 1), {0: 1, 1: 2})
    assert hand_facts(stored) == {}


def test_every_statistic_is_defined_in_the_rule_books_glossary_and_ranks_the_leaderboard() -> None:
    from pathlib import Path

    from bot.league.ranking import BY_CHOICES
    from cogs._ids import LB_BY

    book = (Path(__file__).resolve().parents[2] / "docs" / "rules.md").read_text(encoding="utf-8")
    glossary = book.split("## 11. Statistics: the glossary", 1)[1]
    for key, figure in FIGURES.items():
        assert figure.definition in glossary, key
        assert key in BY_CHOICES and key in LB_BY, key
    assert "**Head to head**" in glossary and "`min_hands:`" in glossary
    assert len(BY_CHOICES) <= 25  # Discord's limit of choices for one option
