"""The fixed-limit stud games' shared machinery (RULES.md §4): rules, the deal, betting,
pots, the showdown, snapshots and hand histories. Razz (:mod:`bot.engine.razz`),
Seven-card Stud and Stud Hi-Lo (:mod:`bot.engine.stud.games`) are built on it."""

from bot.engine.stud.betting import StudHand
from bot.engine.stud.pots import Pot, build_pots
from bot.engine.stud.rules import StudRules

__all__ = ["Pot", "StudHand", "StudRules", "build_pots"]
