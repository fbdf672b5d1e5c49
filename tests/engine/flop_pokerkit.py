"""Random legal hands played by pokerkit 0.7.7 in its four flop variants, as PHH text.

Used by the replay tests (our engine must reach pokerkit's finishing stacks) and by
bench/engines.py. Short stacks, antes (sometimes a big-blind ante), random amounts
between pokerkit's minimum and maximum, 2 to 9 players: all-ins and side pots are common.
"""

from __future__ import annotations

import random
from typing import Any

from pokerkit import (
    Automation,
    FixedLimitOmahaHoldemHighLowSplitEightOrBetter,
    FixedLimitTexasHoldem,
    HandHistory,
    NoLimitTexasHoldem,
    PotLimitOmahaHoldem,
)

AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.CARD_BURNING,
    Automation.HOLE_DEALING,
    Automation.BOARD_DEALING,
    Automation.RUNOUT_COUNT_SELECTION,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)
GAMES: dict[str, Any] = {
    "NT": NoLimitTexasHoldem,
    "FT": FixedLimitTexasHoldem,
    "PO": PotLimitOmahaHoldem,
    "FO/8": FixedLimitOmahaHoldemHighLowSplitEightOrBetter,
}


def pokerkit_game(variant: str, rng: random.Random) -> tuple[Any, int]:
    """A pokerkit game of ``variant`` with random stakes, and a typical stack."""
    trimming = rng.random() < 0.5
    big = rng.choice([2, 4, 10])
    small = big // 2
    if rng.random() < 0.3:
        antes: Any = {1: big}  # a big-blind ante
        trimming = False  # pokerkit returns a lone ante when trimming
    else:
        antes = rng.choice([0, 0, 1])
    blinds = (small, big)
    if variant in ("FT", "FO/8"):
        game = GAMES[variant](AUTOMATIONS, trimming, antes, blinds, big, 2 * big)
    else:
        game = GAMES[variant](AUTOMATIONS, trimming, antes, blinds, big)
    return game, big


def play(variant: str, rng: random.Random, n: int | None = None) -> tuple[Any, Any]:
    """One random hand: (game, finished state)."""
    game, big = pokerkit_game(variant, rng)
    if n is None:
        n = rng.randint(2, 9)
    stacks = [rng.randint(1, big * 40) for _ in range(n)]
    state = game(stacks, n)
    while state.status:
        choices = []
        if state.can_fold() and max(state.bets) > state.bets[state.actor_index]:
            choices.append("f")
        if state.can_check_or_call():
            choices += ["cc", "cc"]
        fixed = variant in ("FT", "FO/8")
        if state.can_complete_bet_or_raise_to() and not (
            # pokerkit 0.7.7 plays FO/8 with pot-limit betting (PotLimitPokerMixin);
            # we play it fixed-limit: the minimum amount, one bet and three raises.
            fixed and state.completion_betting_or_raising_count >= 4
        ):
            choices.append("cbr")
        if not choices:
            if state.can_select_runout_count():  # pragma: no cover - automated
                state.select_runout_count()
                continue
            raise AssertionError("pokerkit is stuck")
        pick = rng.choice(choices)
        if pick == "f":
            state.fold()
        elif pick == "cc":
            state.check_or_call()
        else:
            low = state.min_completion_betting_or_raising_to_amount
            high = state.max_completion_betting_or_raising_to_amount
            if fixed:
                high = low
            amount = high if rng.random() < 0.2 else rng.randint(low, high)
            state.complete_bet_or_raise_to(amount)
    return game, state


def random_phh(variant: str, rng: random.Random) -> tuple[str, list[int]]:
    """(PHH text, pokerkit's finishing stacks) of one random hand."""
    game, state = play(variant, rng)
    text = HandHistory.from_game_state(game, state).dumps()
    return text, list(state.stacks)
