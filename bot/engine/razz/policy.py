"""A computer player for Razz, for simulations and empty seats.

The usual Razz starting-hand sense: three different low cards, the lower the better (an
ace-deuce-trey best), a pair or a card above eight much worse. The three cards are ranked
among all three-card hands (:class:`~bot.engine.hands.odds.Percentiles`) and the rest is
the stud games' betting (:func:`bot.engine.stud.policy.decide`): only the best few
complete, some call the bring-in, fewer call a completion; from 4th street the equity
against the other boards, dealt out at random with ace-to-five low, decides. An up card
lower than every other showing makes a hand a little better (the others must respect it),
one higher than several a little worse. ``style="random"`` picks uniformly among the legal
kinds. Every random choice comes from the injected ``rng``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations
from typing import Final, Literal

from bot.engine.actions import Action
from bot.engine.cards import CARDS, Card
from bot.engine.hands.odds import Percentiles
from bot.engine.razz.hand import RazzHand
from bot.engine.stud.policy import Plan, decide

Style = Literal["tight", "loose", "random"]


def _low(card: int) -> int:
    rank = (card >> 2) + 2
    return 1 if rank == 14 else rank


def start_score(cards: Sequence[Card]) -> float:
    """Points of three Razz cards: higher is better. Three different ranks count from the
    highest down (A-2-3 best); a pair plays like two cards and a bad third.

    >>> from bot.engine.cards import parse_cards
    >>> s = start_score
    >>> s(parse_cards("Ac 2d 3h")) > s(parse_cards("6c 7d 8h")) > s(parse_cards("Ac Ad 2h"))
    True
    >>> s(parse_cards("Ac Ad 2h")) > s(parse_cards("Qc Jd Kh"))
    True
    """
    ranks = sorted({_low(int(c)) for c in cards}, reverse=True)
    if len(ranks) == 3:
        hi, mid, lo = ranks
        return -(hi + mid / 4 + lo / 16)
    if len(ranks) == 2:
        return -(10.0 + ranks[0] / 4)
    return -20.0


_TABLE: Final = Percentiles(lambda: [start_score(h) for h in combinations(CARDS, 3)])

#: Razz's 3rd street: as the stud games, but more hands call the bring-in (the bring-in
#: is the highest card, and a low board pulls the others in).
PLAN: Final = Plan(
    complete=0.15,
    complete_late=0.03,
    limp=0.3,
    bring_in_complete=0.06,
    call=0.2,
    bring_in_call=0.04,
    raise_=0.04,
    call_raise=0.08,
)


def start_share(hand: RazzHand, p: int) -> float:
    """The share of three-card hands ``p``'s cards beat, nudged by how the up card looks
    next to the others' (lowest showing: better; higher than most: worse)."""
    cards = [*hand.down[p], *hand.up[p]][:3]
    share = _TABLE.share(start_score(cards))
    if hand.up[p]:
        mine = _low(int(hand.up[p][0]))
        shown = [_low(int(hand.up[i][0])) for i in range(hand.n) if i != p and hand.up[i]]
        lower = sum(1 for r in shown if r < mine)
        if shown and lower == 0:
            share += 0.03
        share -= 0.01 * max(0, lower - 1)
    return max(0.0, min(1.0, share))


def choose(hand: RazzHand, seat: int, rng: random.Random, style: Style = "tight") -> Action:
    """The action ``seat`` takes now. ``style="random"`` picks uniformly among legal kinds."""
    if style == "random":
        kinds = hand.allowed_kinds(seat)
        return Action(seat, rng.choice(kinds)) if kinds else hand.default_action(seat)
    p = hand.position(seat)
    return decide(hand, seat, rng, share=start_share(hand, p), parts="low", style=style, plan=PLAN)
