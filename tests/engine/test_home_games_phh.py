"""Hand histories of what home games play (issue 18 items 11-13; docs/hand-history.md,
"House games"): ``python -m bot replay`` reproduces straddled hands, hands run twice and
double-board bomb pots, refuses histories that break their rules with a line naming the
field or action, and pokerkit 0.7.7's game state reaches the same stacks where it plays
the same rule: its straddles (``blinds_or_straddles``), its runout support (``Mode.
CASH_GAME``, ``select_runout_count``) and its boards (``starting_board_count``).

pokerkit reads a button straddle otherwise (it opens the action left of the straddle, the
small blind; we play the Mississippi order): those hands are replayed by us only.
"""

from __future__ import annotations

import random
import subprocess
import sys
import tomllib
import warnings
from pathlib import Path
from typing import Any

import pytest
from pokerkit import (
    Automation,
    FixedLimitTexasHoldem,
    HandHistory,
    Mode,
    NoLimitTexasHoldem,
    PotLimitOmahaHoldem,
)

from bot.engine.actions import Action
from bot.engine.flop import FlopHand, FlopRules
from bot.engine.flop.phh import hand_to_phh, replay_flop_phh_text
from bot.engine.flop.policy import choose
from bot.engine.razz.phh import PHHError
from tests.engine.readings import pokerkit_class

#: Our engine with pokerkit's readings (tests/engine/readings.py): pokerkit must reach
#: its stacks exactly.
PokerkitFlopHand = pokerkit_class(FlopHand)
GAMES: dict[str, Any] = {
    "NT": NoLimitTexasHoldem,
    "FT": FixedLimitTexasHoldem,
    "PO": PotLimitOmahaHoldem,
}
AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)
RULES = {
    "NT": {"game": "holdem", "betting": "no-limit"},
    "FT": {"game": "holdem", "betting": "fixed-limit"},
    "PO": {"game": "omaha", "betting": "pot-limit"},
}


def pokerkit_stacks(text: str) -> list[int]:
    """pokerkit's finishing stacks for one of our histories, played action by action on
    its game state in cash-game mode (where it selects runout counts): the runout count
    ``runout_count`` says, ``starting_board_count`` boards, a bomb pot's round before the
    flop checked (pokerkit has one)."""
    data = tomllib.loads(text)
    variant = data["variant"]
    fixed = variant.startswith("F")
    bets = (data["small_bet"], data["big_bet"]) if fixed else (data["min_bet"],)
    n = len(data["starting_stacks"])
    state = GAMES[variant].create_state(
        AUTOMATIONS,
        data["ante_trimming_status"],
        data["antes"],
        data["blinds_or_straddles"],
        *bets,
        data["starting_stacks"],
        n,
        mode=Mode.CASH_GAME,
        starting_board_count=data.get("starting_board_count", 1),
    )
    runs = data.get("runout_count", 1)

    def settle() -> None:
        while True:
            if state.can_burn_card():
                state.burn_card("??")
            elif state.can_select_runout_count():
                state.select_runout_count(runs)
            else:
                return

    for action in data["actions"]:
        words = action.split()
        settle()
        if words[:2] == ["d", "dh"]:
            state.deal_hole(words[3])
        elif words[:2] == ["d", "db"]:
            while data.get("_bomb_pot") and state.actor_index is not None:
                state.check_or_call()  # pokerkit's round before the flop, checked
            settle()
            state.deal_board(words[2])
        elif words[1] == "sm":
            continue  # pokerkit shows by itself
        elif words[1] == "f":
            state.fold()
        elif words[1] == "cc":
            state.check_or_call()
        elif words[1] == "cbr":
            state.complete_bet_or_raise_to(int(words[2]))
    settle()
    assert not state.status, "pokerkit's hand is not over"
    return list(state.stacks)


def _play(
    hand_class: type[FlopHand],
    rules: FlopRules,
    rng: random.Random,
    *,
    straddle: bool = False,
    bomb: int = 0,
    boards: int = 1,
    twice: float = 0.8,
) -> FlopHand:
    n = rng.randint(3, 9) if straddle else rng.randint(2, 9)
    stacks = [rng.randint(1, rules.big_blind * 25) for _ in range(n)]
    if straddle:
        stacks[2] = max(stacks[2], 2 * rules.big_blind + 1)
    hand = hand_class(
        rules,
        [(s + 1, c) for s, c in enumerate(stacks)],
        n,
        rng=rng,
        straddle=3 if straddle else None,
        bomb=bomb,
        boards=boards,
    )
    hand.start()
    style = rng.choice(["tight", "loose", "random"])
    runs = "twice" if rng.random() < twice else "once"
    while not hand.is_over:
        if hand.choice == "runout":
            for seat in sorted(hand.to_act()):
                hand.apply(Action(seat, runs if seat != min(hand.to_act()) else "twice"))
            continue
        (seat,) = hand.to_act()
        hand.apply(choose(hand, seat, rng, style))
    return hand


@pytest.mark.parametrize("variant", ["NT", "FT", "PO"])
def test_straddled_hands_replay_in_our_engine_and_in_pokerkit_to_the_same_stacks(
    variant: str,
) -> None:
    rules = FlopRules(small_blind=2, big_blind=4, straddle="under-the-gun", **RULES[variant])
    rng = random.Random(f"straddle {variant}")
    for _ in range(60):
        hand = _play(PokerkitFlopHand, rules, rng, straddle=True)
        text = hand_to_phh(hand)
        assert "_straddle = 3" in text and "blinds_or_straddles = [2, 4, 8" in text
        assert replay_flop_phh_text(text, hand_class=PokerkitFlopHand).match is True
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            *_, final = HandHistory.loads(text)
        assert list(final.stacks) == hand.stacks, text


@pytest.mark.parametrize("variant", ["NT", "FT", "PO"])
def test_hands_run_twice_replay_and_pokerkit_runout_support_reaches_the_same_stacks(
    variant: str,
) -> None:
    rules = FlopRules(small_blind=2, big_blind=4, run_it_twice="ask", **RULES[variant])
    rng = random.Random(f"twice {variant}")
    ran_twice = 0
    for _ in range(150):
        hand = _play(PokerkitFlopHand, rules, rng)
        text = hand_to_phh(hand)
        assert replay_flop_phh_text(text, hand_class=PokerkitFlopHand).match is True
        if hand.runs == 2:
            ran_twice += 1
            assert "runout_count = 2" in text and "runouts = [" in text
        assert pokerkit_stacks(text) == hand.stacks, text
    assert ran_twice >= 10


@pytest.mark.parametrize("variant", ["NT", "PO"])
def test_double_board_bomb_pots_replay_and_pokerkit_starting_board_count_agrees(
    variant: str,
) -> None:
    rules = FlopRules(small_blind=2, big_blind=4, **RULES[variant])
    rng = random.Random(f"bomb {variant}")
    for _ in range(80):
        hand = _play(PokerkitFlopHand, rules, rng, bomb=rng.choice([4, 8]), boards=2)
        text = hand_to_phh(hand)
        assert "starting_board_count = 2" in text and "_bomb_pot = true" in text
        assert replay_flop_phh_text(text, hand_class=PokerkitFlopHand).match is True
        assert pokerkit_stacks(text) == hand.stacks, text


def test_our_rules_hands_with_every_house_game_replay_to_our_stacks() -> None:
    """Robert's Rules (our engine as the table plays it): the house games round-trip."""
    rng = random.Random("all")
    for betting in ("no-limit", "pot-limit", "fixed-limit"):
        rules = FlopRules(
            small_blind=2,
            big_blind=4,
            betting=betting,
            straddle="button",
            run_it_twice="ask",
            seven_deuce=6,
        )
        for k in range(60):
            kwargs: dict[str, Any] = [
                {"straddle": True},
                {"bomb": 6},
                {"bomb": 6, "boards": 2},
                {},
            ][k % 4]
            hand = _play(FlopHand, rules, rng, **kwargs)
            text = hand_to_phh(hand)
            replay = replay_flop_phh_text(text)
            assert replay.match is True, text


def _button_straddle_hand() -> str:
    rules = FlopRules(small_blind=5, big_blind=10, straddle="button")
    hand = FlopHand(rules, [(s, 500) for s in range(1, 6)], 5, rng=random.Random(3), straddle=5)
    hand.start()
    for kind in ("call", "call", "call", "call", "check"):
        (seat,) = hand.to_act()
        hand.apply(Action(seat, kind))
    while not hand.is_over:
        (seat,) = hand.to_act()
        hand.apply(Action(seat, "check"))
    return hand_to_phh(hand)


def test_button_straddle_history_replays_in_the_mississippi_order() -> None:
    text = _button_straddle_hand()
    assert "blinds_or_straddles = [5, 10, 0, 0, 20]" in text
    assert "'p3 cc', 'p4 cc', 'p1 cc', 'p2 cc', 'p5 cc'" in text
    assert replay_flop_phh_text(text).match is True


def test_cli_replay_accepts_and_reproduces_straddle_run_twice_and_double_board(
    tmp_path: Path,
) -> None:
    rng = random.Random("cli")
    files = []
    for k, kwargs in enumerate([{"straddle": True}, {}, {"bomb": 8, "boards": 2}, {"bomb": 8}]):
        rules = FlopRules(small_blind=2, big_blind=4, run_it_twice="ask", straddle="under-the-gun")
        while True:
            hand = _play(FlopHand, rules, rng, twice=1.0, **kwargs)
            if kwargs or hand.runs == 2:
                break
        path = tmp_path / f"hand{k}.phh"
        path.write_text(hand_to_phh(hand))
        files.append(str(path))
    done = subprocess.run(
        [sys.executable, "-m", "bot", "replay", *files], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.count('"match": true') == 4


def _run_twice_text() -> str:
    rules = FlopRules(small_blind=5, big_blind=10, run_it_twice="ask")
    hand = FlopHand(rules, [(1, 500), (2, 500), (3, 500)], 3, rng=random.Random(2))
    hand.start()
    for kind, amount in (("raise", 500), ("call", None), ("fold", None)):
        (seat,) = hand.to_act()
        hand.apply(Action(seat, kind, amount=amount))
    for seat in (1, 3):
        hand.apply(Action(seat, "twice"))
    return hand_to_phh(hand)


@pytest.mark.parametrize(
    ("change", "names"),
    [
        (("blinds_or_straddles = [5, 10, 0]", "blinds_or_straddles = [5, 10, 30]"), "p3 posts 30"),
        (("runout_count = 2", "runout_count = 3"), "'runout_count' must be 1 or 2"),
        (("runouts = ['", "runouts = ['2c"), "field 'runouts'"),
        (("runout_count = 2\n", "runout_count = 1\n"), "another board"),
    ],
    ids=["straddle-3x", "runout-3", "runouts-wrong", "ran-once"],
)
def test_a_history_that_breaks_the_house_rules_is_refused_naming_the_field_or_action(
    change: tuple[str, str], names: str
) -> None:
    text = _run_twice_text()
    assert change[0] in text
    with pytest.raises(PHHError, match=names):
        replay_flop_phh_text(text.replace(*change, 1))


def test_a_bomb_pot_history_with_a_bet_before_the_flop_is_refused() -> None:
    rules = FlopRules(small_blind=5, big_blind=10)
    hand = FlopHand(rules, [(1, 500), (2, 500)], 2, rng=random.Random(1), bomb=20)
    hand.start()
    while not hand.is_over:
        (seat,) = hand.to_act()
        hand.apply(Action(seat, "check"))
    text = hand_to_phh(hand)
    first_board = text.index("'d db")
    checked = text[:first_board] + "'p1 cc', 'p2 cc', " + text[first_board:]
    assert replay_flop_phh_text(checked).match is True  # pokerkit's checked round: nothing
    bet = text[:first_board] + "'p1 cbr 20', " + text[first_board:]
    with pytest.raises(PHHError, match="no betting before the flop"):
        replay_flop_phh_text(bet)


def test_verifiable_hands_run_twice_or_on_two_boards_verify_against_their_seed() -> None:
    """A verifiable table deals from its seed's deck: the second run and the second board
    are the deck's next cards, as ``python -m bot verify`` recomputes them."""
    from bot.engine.shuffle import commitment, new_seed, seed_deck
    from bot.engine.verify import verify_text, with_shuffle_fields

    rules = FlopRules(small_blind=5, big_blind=10, run_it_twice="ask")
    checked = 0
    for k in range(40):
        seed = new_seed()
        kwargs: dict[str, Any] = {"bomb": 10, "boards": 2} if k % 2 else {}
        hand = FlopHand(rules, [(1, 300), (2, 300), (3, 300)], 3, deck=seed_deck(seed), **kwargs)
        hand.start()
        rng = random.Random(k)
        while not hand.is_over:
            if hand.choice == "runout":
                for seat in sorted(hand.to_act()):
                    hand.apply(Action(seat, "twice"))
                continue
            (seat,) = hand.to_act()
            hand.apply(choose(hand, seat, rng, "loose"))
        text = with_shuffle_fields(hand_to_phh(hand), commitment=commitment(seed), seed=seed)
        verdict = verify_text(text)
        assert verdict.matches, verdict.sentence()
        if hand.runs == 2 or len(hand.boards) == 2:
            checked += 1
    assert checked >= 20
