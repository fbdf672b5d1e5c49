"""pokerkit-made stud hand histories for the replay tests: random legal play, seeded.

pokerkit deals its own cards here (the generator only fixes their order with the seeded
rng): a burn before 4th to 7th street, and when its stub runs out it reshuffles the burnt
and mucked cards and deals them again (``State._consume_cards``), so a card can appear a
second time in the history. Only when even those cannot give every live player a card
does it deal one board card (``d db``). The generator draws the cards pokerkit would draw
(stub first, then the reserve in a seeded order) so that a seed gives the same history.
"""

from __future__ import annotations

import random
import warnings
from collections import deque
from typing import Any

from pokerkit import Automation, HandHistory

AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)


def _draw(state: Any, k: int, rng: random.Random) -> list[Any]:
    """The next ``k`` cards as pokerkit deals them: the stub, then the reserve shuffled."""
    stub = list(state.deck_cards)
    if k <= len(stub):
        return stub[:k]
    reserve = sorted(state.reserved_cards, key=repr)
    rng.shuffle(reserve)
    return (stub + reserve)[:k]


def pokerkit_stud_history(
    game_type: Any,
    rng: random.Random,
    *,
    players: int | None = None,
    passive: float = 0.3,
    fold_rate: float | None = None,
) -> tuple[str, list[int], dict[str, bool]]:
    """Play one random hand of ``game_type`` (pokerkit's FixedLimitRazz,
    FixedLimitSevenCardStud, ...) in pokerkit: its PHH text, final stacks, what happened.

    ``fold_rate``: fold with this chance when folding is allowed (default: uniform over
    the legal moves); a low rate brings many players to 6th street, where folds leave
    mucked cards for pokerkit to deal again on 7th."""
    small = rng.choice([2, 4, 10])
    ante = rng.choice([0, 1, 2])
    bring_in = rng.randint(1, small - 1)
    n = players or rng.choice([2, 3, 4, 5, 6, 7, 8, 8, 8])
    # Short stacks (a few bets) so all-ins, ante all-ins and side pots happen often.
    stacks = [rng.randint(1, small * 12) for _ in range(n)]
    calm = rng.random() < passive  # check/call down so 8-handed 7th streets happen
    args = (AUTOMATIONS, True, ante, bring_in, small, small * 2)
    state = game_type.create_state(*args, stacks, n)
    order = sorted(state.deck_cards, key=repr)
    rng.shuffle(order)
    state.deck_cards = deque(order)
    seen = {"board": False, "side_pot": False, "redealt": False}
    dealt: set[Any] = set()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        while state.status:
            if state.can_burn_card():
                state.burn_card(_draw(state, 1, rng)[0])
                continue
            if state.can_deal_board():
                state.deal_board(_draw(state, 1, rng))
                seen["board"] = True
                continue
            if state.can_deal_hole():
                dealee = state.hole_dealee_index
                need = 3 if not state.hole_cards[dealee] else 1
                cards = _draw(state, need, rng)
                seen["redealt"] |= any(c in dealt for c in cards)
                dealt.update(cards)
                state.deal_hole(cards)
                continue
            if state.actor_index is None:
                break  # pragma: no cover - automations finish the hand
            choices = []
            if state.can_post_bring_in():
                choices.append("pb")
            if state.can_complete_bet_or_raise_to() and not calm:
                choices.append("cbr")
            if state.can_check_or_call():
                choices.append("cc")
            if state.can_fold() and not calm:
                choices.append("f")
            if fold_rate is not None and "f" in choices:
                choices.remove("f")
                pick = "f" if rng.random() < fold_rate else rng.choice(choices)
            else:
                pick = rng.choice(choices)
            if pick == "pb":
                state.post_bring_in()
            elif pick == "cbr":
                state.complete_bet_or_raise_to()
            elif pick == "cc":
                state.check_or_call()
            else:
                state.fold()
            if len(list(state.pots)) > 1:
                seen["side_pot"] = True
        game = game_type(*args)
        history = HandHistory.from_game_state(
            game, state, ante_trimming_status=True, finishing_stacks=list(state.stacks)
        )
        text = history.dumps()
    return text, list(state.stacks), seen
