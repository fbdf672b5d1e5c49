"""Fixed-limit Razz (RULES.md §4): rules, the hand engine, pots, PHH and a computer policy."""

from bot.engine.razz.hand import RazzHand, draw_for_deal
from bot.engine.razz.pots import Pot, build_pots
from bot.engine.razz.rules import RazzRules

__all__ = ["Pot", "RazzHand", "RazzRules", "build_pots", "draw_for_deal"]
