"""A computer player for Hold'em and Omaha, for simulations and empty seats.

Plain poker sense, no solver: before the flop, pairs, high cards and suited or connected
cards; after it, the category of the best hand made so far (a low counts in hi-lo). A
"tight" player continues with good hands and bets its strong ones; a "loose" one calls
and bets more often. Bets are sized between the minimum and the pot, within the legal
range. The random choices come from the injected ``rng``.
"""

from __future__ import annotations

import random
from typing import Literal

from bot.engine.actions import Action
from bot.engine.flop.hand import FlopHand
from bot.engine.flop.showdown import scores
from bot.engine.hands.high import high_key

Style = Literal["tight", "loose", "random"]


def _preflop_strength(hand: FlopHand, p: int) -> float:
    cards = hand.hole[p]
    ranks = sorted((c.rank for c in cards), reverse=True)
    value = sum(r - 2 for r in ranks[:2]) / 24  # two highest cards, 0..1
    if len({c.rank for c in cards}) < len(cards):
        value += 0.35  # a pair
    if len({c.suit for c in cards}) < len(cards):
        value += 0.1  # suited cards
    if hand.rules.split == "hi-lo" and sum(1 for c in cards if c.low_rank <= 3) >= 2:
        value += 0.25  # 2-3: the makings of the nut low
    return min(value, 1.0)


def strength(hand: FlopHand, p: int) -> float:
    """0..1: how good ``p``'s hand looks now."""
    if len(hand.board) < 3:
        return _preflop_strength(hand, p)
    high, low = scores(hand, p)
    category = high_key(high)[0]  # 0 high card .. 8 straight flush
    value = (0.15, 0.45, 0.65, 0.75, 0.8, 0.85, 0.92, 0.97, 1.0)[category]
    if low is not None:
        value = max(value, 0.55 + low / 120)
    return value


def choose(hand: FlopHand, seat: int, rng: random.Random, style: Style = "tight") -> Action:
    """The action ``seat`` takes now. ``style="random"`` picks uniformly among legal kinds
    (and a uniform amount in the legal range)."""
    opts = {o.kind: o for o in hand.legal_actions(seat) if o.allowed}
    if not opts:
        return hand.default_action(seat)
    span = hand.raise_range(seat)
    aggressive = next((k for k in ("bet", "raise") if k in opts), None)
    if style == "random":
        kind = rng.choice(list(opts))
        if kind == aggressive and span is not None:
            return Action(seat, kind, amount=rng.randint(*span))
        return Action(seat, kind)
    p = hand.position(seat)
    value = strength(hand, p) + rng.uniform(-0.15, 0.15)
    loose = style == "loose"
    owed = opts["call"].amount or 0 if "call" in opts else 0
    pot = hand.pot_total
    price = owed / (pot + owed) if owed else 0.0
    if aggressive is not None and span is not None and value > (0.6 if loose else 0.72):
        low, high = span
        target = max(low, min(high, max(hand.bets) + (pot * rng.choice((1, 2))) // 3))
        return Action(seat, aggressive, amount=target)
    if "check" in opts:
        return Action(seat, "check")
    if value > price + (0.2 if loose else 0.35):
        return Action(seat, "call")
    return Action(seat, "fold")
