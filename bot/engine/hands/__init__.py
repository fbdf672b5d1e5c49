"""Hand evaluation for Zoot (RULES §2), Wheelers (§3) and Razz's ace-to-five low (§4),
and for the flop and stud games: standard high (5-7 cards, Omaha 2+3) and eight-or-better
low (``high``, ``low8``).

Every evaluator takes a sequence of :class:`~bot.engine.cards.Card` (ints 0..51) and
returns an ``int`` score: higher is better, equal scores tie, suits never break ties.
Scores are dense ranks of one game (and one Wheelers ``wraparound`` setting): compare
like with like. Tables are built on first use (well under a second each), never at import.

Cards are assumed distinct (the deck and ``parse_cards`` guarantee it): for speed the
evaluators do not re-check, and a repeated card raises ``InvalidHand`` only when it makes
an impossible hand (five of a rank; for Zoot also a pair within one suit).
"""

from bot.engine.hands.high import high_name, high_score, omaha_high_score
from bot.engine.hands.low import best_low, board_key, low_name, low_score
from bot.engine.hands.low8 import low8_name, low8_score, omaha_low8_score
from bot.engine.hands.ranking import Ranking, guts_ranking
from bot.engine.hands.wheelers import (
    wheelers_name,
    wheelers_score,
    wheelers_strength,
    wheelers_type,
)
from bot.engine.hands.zoot import zoot_name, zoot_score, zoot_strength

__all__ = [
    "Ranking",
    "best_low",
    "board_key",
    "guts_ranking",
    "high_name",
    "high_score",
    "low8_name",
    "low8_score",
    "low_name",
    "low_score",
    "omaha_high_score",
    "omaha_low8_score",
    "wheelers_name",
    "wheelers_score",
    "wheelers_strength",
    "wheelers_type",
    "zoot_name",
    "zoot_score",
    "zoot_strength",
]
