"""Razz hand histories (PHH variant ``FR``): the shared stud reader and writer
(:mod:`bot.engine.stud.replay`, :mod:`bot.engine.stud.phh_write`)."""

from bot.engine.stud.phh_write import hand_to_phh
from bot.engine.stud.replay import (
    PHHError,
    ReplayResult,
    replay_phh,
    replay_phh_data,
    replay_phh_text,
)

__all__ = [
    "PHHError",
    "ReplayResult",
    "hand_to_phh",
    "replay_phh",
    "replay_phh_data",
    "replay_phh_text",
]
