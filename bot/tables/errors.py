"""Typed refusals of the TableService. Each has a short ``message`` for the user.

The engine's own refusals (:class:`~bot.engine.errors.NotYourTurn`,
:class:`~bot.engine.errors.IllegalAction`, :class:`~bot.engine.errors.InvalidCard`) and the
store's (:class:`~bot.store.TableExists`) are raised unchanged and re-exported here, so the
adapters import every refusal from one place.
"""

from __future__ import annotations

from bot.engine.errors import (
    GameError,
    HomeGameError,
    IllegalAction,
    InsufficientChips,
    InvalidCard,
    InvalidConfig,
    NotYourTurn,
)
from bot.store.errors import TableExists

__all__ = [
    "AlreadySeated",
    "ChipsInPlay",
    "GameError",
    "HomeGameError",
    "IllegalAction",
    "InvalidCard",
    "InvalidConfig",
    "NoChips",
    "NotAllowed",
    "NotSeated",
    "NotYourTurn",
    "StaleAction",
    "TableClosed",
    "TableExists",
    "TableFull",
    "UnpayableHand",
]


class NotSeated(GameError):
    """The user does not sit at this table."""


class StaleAction(GameError):
    """The button's state version is not the table's current one."""

    def __init__(self, message: str = "this button is from an earlier state of the table") -> None:
        super().__init__(message)


class TableClosed(GameError):
    """The table does not exist (any more) or has been closed."""


class TableFull(GameError):
    """Every seat of the table is taken."""


class AlreadySeated(GameError):
    """The user already sits here (or at another of the league's live tables)."""


class NoChips(InsufficientChips):
    """The user's wallet is empty: nothing to play with."""


class NotAllowed(GameError):
    """Only the host (or a league manager) may do this."""


class ChipsInPlay(InsufficientChips):
    """``/chips take`` would leave a seated player's wallet below what their live hand may
    still need (see :meth:`bot.tables.service.TableService.take_chips`)."""


class UnpayableHand(InsufficientChips):
    """A payment of the hand failed because a wallet holds fewer chips than the game knew
    of (changed outside the game): the hand was voided (see
    :meth:`bot.tables.service.TableService._settle_short_wallet`)."""
