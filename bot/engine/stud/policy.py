"""A computer player for Seven-card Stud and Stud Hi-Lo, for simulations and empty seats.

The usual stud starting-hand sense, kept simple: a pair or better, three to a flush or a
straight, or (in Hi-Lo) three distinct cards of eight or lower continue on 3rd street;
later a hand continues when it is made (a pair of at least the best showing pair, or
better) or still draws to a low (Hi-Lo), and bets when it looks ahead of every board it
faces. The random choice among close options comes from the injected ``rng``.
"""

from __future__ import annotations

import random
from typing import Literal

from bot.engine.actions import Action
from bot.engine.cards import Card
from bot.engine.hands.high import high_key, high_score
from bot.engine.hands.high_board import high_board_key
from bot.engine.stud.betting import StudHand

Style = Literal["tight", "loose"]


def _made(cards: list[Card]) -> int:
    """A rough strength of the best made hand: 0 high cards, 1 a pair, 2 two pair, 3 trips,
    4 and up as the high categories (straight, flush, ...)."""
    if len(cards) >= 5:
        return high_key(high_score(cards))[0]
    counts: dict[int, int] = {}
    for c in cards:
        counts[c >> 2] = counts.get(c >> 2, 0) + 1
    groups = sorted(counts.values(), reverse=True)
    if groups[0] >= 3:
        return 3
    if groups[0] == 2:
        return 2 if len(groups) > 1 and groups[1] == 2 else 1
    return 0


def _draws(cards: list[Card]) -> bool:
    """Three or four cards (3rd, 4th street) to a flush or to a straight (the ace high or
    low); from 5th street a draw alone does not continue."""
    if len(cards) > 4:
        return False
    suits: dict[int, int] = {}
    for c in cards:
        suits[c & 3] = suits.get(c & 3, 0) + 1
    if max(suits.values()) >= 3:
        return True
    ranks = {(c >> 2) + 2 for c in cards}
    if 14 in ranks:
        ranks.add(1)
    return any(len(ranks & set(range(lo, lo + 5))) >= 3 for lo in range(1, 11))


def _low_cards(cards: list[Card]) -> int:
    """Distinct ranks of eight or lower, the ace low."""
    return len({(c >> 2) + 2 if c >> 2 != 12 else 1 for c in cards} & set(range(1, 9)))


def choose(hand: StudHand, seat: int, rng: random.Random, style: Style = "tight") -> Action:
    """The action ``seat`` takes now (a legal one; the timeout's default when none is)."""
    opts = {o.kind for o in hand.legal_actions(seat) if o.allowed}
    if not opts:
        return hand.default_action(seat)
    p = hand.position(seat)
    up = hand.up[p]
    mine = [*hand.down[p], *up]
    if hand.community is not None:
        mine.append(hand.community)
    made = _made(mine)
    hi_lo = "low" in hand.PARTS
    low = _low_cards(mine) if hi_lo else 0
    # A low still going: every card so far a distinct low one, but one or two strays.
    low_live = hi_lo and low >= min(5, len(mine)) - (1 if len(mine) <= 4 else 2)
    others = [
        high_board_key(hand.up[i])
        for i in range(hand.n)
        if i != p and not hand.folded[i] and hand.up[i]
    ]
    ahead = not others or high_board_key(up) >= max(others)
    loose = style == "loose"
    if hand.street == 3:
        strong = made >= 1 and (ahead or made >= 2)
        playable = made >= 1 or _draws(mine) or low_live
    else:
        strong = made >= 2 or (made >= 1 and ahead) or (low_live and low >= 4)
        playable = made >= 1 or low_live or (hand.street <= 4 and _draws(mine))
    if loose:
        playable = playable or rng.random() < 0.3
    for kind in ("complete", "bet", "raise"):
        if kind in opts and strong and rng.random() < (0.8 if loose else 0.6):
            return Action(seat, kind)
    if "bring_in" in opts:
        return Action(seat, "bring_in")
    if "check" in opts:
        return Action(seat, "check")
    if "call" in opts and (playable or rng.random() < (0.2 if loose else 0.05)):
        return Action(seat, "call")
    if "fold" in opts:
        return Action(seat, "fold")
    return Action(seat, next(iter(sorted(opts))))
