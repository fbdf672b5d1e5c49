"""A computer player for Zoot and Wheelers.

Laying down wins the pot when every other live hand is beaten (or tied) and costs a match
of the pot otherwise. With ``s`` the hand's strength (the share of all hands it beats) and
``k`` live opponents, the chance that all are beaten is about ``s ** k``; the player lays
down when the expected gain ``p * pot - (1 - p) * risk`` is positive, where ``risk`` is
what the match would cost (the pot, or the whole balance when it cannot cover). Playing on
is the zero baseline. A small random jitter keeps the computer from being read exactly.
Discards are the ranking's ``best_discard``.
"""

from __future__ import annotations

import random

from bot.engine.actions import Action
from bot.engine.errors import GameError
from bot.engine.guts.game import GutsGame

#: How far the estimated win chance is jittered, up or down (a share of it).
JITTER = 0.05


def win_chance(strength: float, opponents: int) -> float:
    """The chance that a hand of ``strength`` beats ``opponents`` independent random hands.

    >>> round(win_chance(0.9, 2), 2)
    0.81
    """
    return max(0.0, min(1.0, strength)) ** max(0, opponents)


def lay_down_value(*, chance: float, pot: int, risk: int) -> float:
    """Expected chips of laying down compared with playing on (which counts as 0).

    >>> lay_down_value(chance=0.6, pot=100, risk=100)
    20.0
    """
    return chance * pot - (1.0 - chance) * risk


def choose(game: GutsGame, seat: int, rng: random.Random) -> Action:
    """The computer's action for ``seat`` now (raises ``GameError`` if it may not act)."""
    if seat not in game.to_act():
        raise GameError(f"seat {seat} may not act now")
    hand = game.hand(seat)
    if game.phase == "discard":
        return Action(seat, "discard", card=game.ranking.best_discard(hand))
    option = next(o for o in game.legal_actions(seat) if o.kind == "lay_down")
    if option.allowed:
        opponents = len(game.live) - 1
        chance = win_chance(game.ranking.strength(hand), opponents)
        chance *= 1.0 + rng.uniform(-JITTER, JITTER)
        risk = option.amount if option.amount is not None else game.pot
        if lay_down_value(chance=chance, pot=game.pot, risk=risk) > 0:
            return Action(seat, "lay_down")
    return Action(seat, "play_on")
