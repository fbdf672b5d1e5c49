"""Typed errors raised by the core and answered in one place by the adapters.

Every error carries a short, user-facing ``message``; the Discord layer shows it as an
ephemeral reply, the CLI prints it. Nothing here is ever a traceback for a user.
"""

from __future__ import annotations


class HomeGameError(Exception):
    """Base of every error a user may be shown."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class InvalidCard(HomeGameError, ValueError):
    """A card string that is not a card, or a repeated card. ``token`` is the bad text."""

    def __init__(self, token: str, reason: str) -> None:
        super().__init__(f"{token!r}: {reason}")
        self.token = token
        self.reason = reason


class InvalidHand(HomeGameError, ValueError):
    """A hand with the wrong number of cards for the game."""


class InvalidConfig(HomeGameError, ValueError):
    """A house rule or stake that is out of range; ``field`` names it."""

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(f"{field}: {reason}")
        self.field = field
        self.reason = reason


class GameError(HomeGameError):
    """An action the game refuses; the state is unchanged."""


class NotYourTurn(GameError):
    """The seat may not act now."""


class IllegalAction(GameError):
    """The action is not one of the seat's legal actions now (the message says why)."""


class InsufficientChips(GameError):
    """The seat does not have the chips the action needs."""


class GameOver(GameError):
    """The hand or game has already ended."""


class SnapshotError(HomeGameError, ValueError):
    """A snapshot or hand history that cannot be restored; the message names the field."""
