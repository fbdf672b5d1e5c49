"""A computer player for Razz, for simulations and empty seats.

The idea is the usual Razz starting-hand sense: count the distinct ranks of eight or
lower among your cards (ace low). A "tight" player continues with three such cards on 3rd
street and needs its hand to stay at least as good as the best board it faces; a "loose"
player continues more often and bets more. The random choice among close options comes
from the injected ``rng``.
"""

from __future__ import annotations

import random
from typing import Literal

from bot.engine.actions import Action
from bot.engine.hands import board_key
from bot.engine.razz.hand import RazzHand

Style = Literal["tight", "loose", "random"]


def _good_cards(ranks: list[int]) -> int:
    """How many distinct ranks of eight or lower (ace low)."""
    return len({r for r in ranks if r <= 8})


def choose(hand: RazzHand, seat: int, rng: random.Random, style: Style = "tight") -> Action:
    """The action ``seat`` takes now. ``style="random"`` picks uniformly among legal kinds."""
    if style == "random":
        kinds = hand.allowed_kinds(seat)
        return Action(seat, rng.choice(kinds)) if kinds else hand.default_action(seat)
    opts = {o.kind: o for o in hand.legal_actions(seat) if o.allowed}
    if not opts:
        return hand.default_action(seat)
    p = hand.position(seat)
    mine = [c.low_rank for c in (*hand.down[p], *hand.up[p])]
    good = _good_cards(mine)
    seen = len(mine)
    # The best-looking board among the others, to compare with our own.
    others = [
        board_key(tuple(hand.up[i]))
        for i in range(hand.n)
        if i != p and not hand.folded[i] and hand.up[i]
    ]
    ahead = not others or board_key(tuple(hand.up[p])) <= min(others)
    # "Needed": good cards a five-card low still wants from what we have seen.
    needed = min(5, seen)
    strength = good - needed  # 0 = every card so far is a distinct low card
    loose = style == "loose"
    aggressive = strength >= 0 and (ahead or rng.random() < (0.5 if loose else 0.2))
    keep_going = strength >= (-2 if loose else -1) or (ahead and strength >= -2)
    for kind in ("complete", "bet", "raise"):
        if kind in opts and aggressive and rng.random() < (0.8 if loose else 0.6):
            return Action(seat, kind)
    if "bring_in" in opts:
        return Action(seat, "bring_in")
    if "check" in opts:
        return Action(seat, "check")
    if "call" in opts and (keep_going or rng.random() < (0.25 if loose else 0.05)):
        return Action(seat, "call")
    if "fold" in opts:
        return Action(seat, "fold")
    return Action(seat, next(iter(opts)))
