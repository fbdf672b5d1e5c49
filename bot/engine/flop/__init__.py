"""Flop games: Texas Hold'em and Omaha (high, hi-lo), no-, pot- and fixed-limit."""

from bot.engine.flop.errors import BetOutOfRange
from bot.engine.flop.hand import FlopHand, next_button
from bot.engine.flop.rules import FlopRules

__all__ = ["BetOutOfRange", "FlopHand", "FlopRules", "next_button"]
