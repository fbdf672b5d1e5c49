"""The TableService (the only place that mutates a table), its views and errors, the
uniform adapter over the game engines, and simulations with computer players."""

from bot.tables.errors import (
    AlreadySeated,
    ChipsInPlay,
    NoChips,
    NotAllowed,
    NotSeated,
    StaleAction,
    TableClosed,
    TableFull,
    UnpayableHand,
)
from bot.tables.service import TableService, TableSubscriber
from bot.tables.views import PrivateView, Published, SeatView, TableView

__all__ = [
    "AlreadySeated",
    "ChipsInPlay",
    "NoChips",
    "NotAllowed",
    "NotSeated",
    "PrivateView",
    "Published",
    "SeatView",
    "StaleAction",
    "TableClosed",
    "TableFull",
    "TableService",
    "TableSubscriber",
    "TableView",
    "UnpayableHand",
]
