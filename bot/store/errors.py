"""Typed errors of the store. Each carries a short ``message`` a user or admin may read.

Running out of chips is the engine's :class:`~bot.engine.errors.InsufficientChips`, raised
here too, so the adapters answer both layers' refusals in one place.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.engine.errors import HomeGameError, InsufficientChips

if TYPE_CHECKING:
    from bot.store.models import Account

__all__ = [
    "InsufficientChips",
    "InvalidAmount",
    "MigrationError",
    "NotFound",
    "Overdraft",
    "RebuyCooldown",
    "RebuyNotNeeded",
    "SeasonError",
    "SeatTaken",
    "SeatedElsewhere",
    "StaleVersion",
    "StoreError",
    "TableExists",
]


class StoreError(HomeGameError):
    """A store operation refused; nothing was changed by it."""


class MigrationError(StoreError):
    """The database schema cannot be brought to (or is newer than) this code's version."""


class NotFound(StoreError, LookupError):
    """A league, table, hand, seat or account that does not exist."""


class InvalidAmount(StoreError, ValueError):
    """A chip amount that is not a positive integer, or a bad ledger kind or reason."""


class StaleVersion(StoreError):
    """The table changed since it was loaded (optimistic version check failed)."""

    def __init__(self, table_id: int, expected: int, actual: int) -> None:
        super().__init__(
            f"table {table_id} is at version {actual}, not {expected}: it changed meanwhile"
        )
        self.table_id = table_id
        self.expected = expected
        self.actual = actual


class TableExists(StoreError):
    """A live table already runs in that channel."""


class SeatTaken(StoreError):
    """The seat is occupied, or the user already sits at the table."""


class SeatedElsewhere(SeatTaken):
    """The member already sits at another live league table of the server (one league
    seat per member and server, held by the database)."""

    def __init__(self, user_id: int, *, table_id: int, channel_id: int) -> None:
        super().__init__(f"user {user_id} already sits at table {table_id}")
        self.user_id = user_id
        self.table_id = table_id
        self.channel_id = channel_id


class SeasonError(StoreError):
    """A season cannot be ended now (e.g. chips still in a table's pot)."""


class RebuyCooldown(StoreError):
    """A rebuy asked for before the league's cooldown has passed."""

    def __init__(self, seconds_left: int) -> None:
        minutes, seconds = divmod(seconds_left, 60)
        wait = (
            f"{minutes} min {seconds} s"
            if minutes and seconds
            else (f"{minutes} min" if minutes else f"{seconds} s")
        )
        super().__init__(f"Your next rebuy is possible in {wait}. Nothing changed.")
        self.seconds_left = seconds_left


class RebuyNotNeeded(StoreError):
    """A rebuy asked for by a member whose wallet holds the rebuy amount or more: a rebuy
    tops a short (or busted) wallet up to the amount, it never adds to a full one."""

    def __init__(self, balance: int, amount: int) -> None:
        super().__init__(
            f"You have {balance:,} chips: a rebuy is for a member below {amount:,}, and tops"
            f" them up to {amount:,}. Nothing changed."
        )
        self.balance = balance
        self.amount = amount


class Overdraft(InsufficientChips, StoreError):
    """A payer without the chips a transfer needs (nothing was moved)."""

    def __init__(self, account: Account, *, have: int, needed: int) -> None:
        super().__init__(f"{account.label} has {have} chips; {needed} needed")
        self.account_id = account.id
        self.user_id = account.user_id
        self.have = have
        self.needed = needed
