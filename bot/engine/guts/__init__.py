"""Zoot and Wheelers: the shared guts procedure (RULES §1), rules, history and policy."""

from bot.engine.guts.after import NextGame, next_game
from bot.engine.guts.game import (
    GutsGame,
    GutsRanking,
    GutsResult,
    NotEnoughPlayers,
    ShownHand,
    load_ranking,
)
from bot.engine.guts.rules import GutsRules
from bot.engine.guts.setup import GutsSetup, close_table_refunds

__all__ = [
    "GutsGame",
    "GutsRanking",
    "GutsResult",
    "GutsRules",
    "GutsSetup",
    "NextGame",
    "NotEnoughPlayers",
    "ShownHand",
    "close_table_refunds",
    "load_ranking",
    "next_game",
]
