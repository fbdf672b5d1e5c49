"""Razz pots are the shared stud pots (:mod:`bot.engine.stud.pots`)."""

from bot.engine.stud.pots import Pot, build_pots, split

__all__ = ["Pot", "build_pots", "split"]
