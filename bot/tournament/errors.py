"""The tournament director's refusals: typed, each with the sentence a user is shown.

They are :class:`~bot.engine.errors.HomeGameError` subclasses, so the adapters answer them in
their one place (``cogs/_errors.py``) like every other refusal: a short ephemeral sentence,
never a traceback. Every message says what changed (``Nothing changed.``).
"""

from __future__ import annotations

from bot.engine.errors import HomeGameError

NOTHING_CHANGED = "Nothing changed."


class TournamentError(HomeGameError):
    """Base of every refusal of the director; ``message`` is the whole sentence shown."""


class StructureError(TournamentError, ValueError):
    """A structure (a ``levels`` text, a preset, a level) that cannot be played; the message
    names the bad entry."""


class ConfigError(TournamentError, ValueError):
    """A tournament option out of range or at odds with another; ``field`` names it."""

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(f"{field}: {reason} {NOTHING_CHANGED}")
        self.field = field
        self.reason = reason


class Refused(TournamentError):
    """An action the director refuses now (register, rebuy, add-on, ...); the tournament is
    unchanged."""


class RegistrationClosed(Refused):
    """Registration (or late registration) is not open."""


class RegistrationFull(Refused):
    """``max_players`` entries are in."""


class NotRegistered(Refused):
    """The player has no entry the action needs."""


class AlreadyRegistered(Refused):
    """The player already has a live entry."""


class RebuyRefused(Refused):
    """No rebuy now (period over, limit reached, stack above the starting stack...)."""


class AddOnRefused(Refused):
    """No add-on now (not the add-on break, already taken...)."""


class ReEntryRefused(Refused):
    """No re-entry now (not busted, late registration over, limit reached...)."""


class WrongStatus(Refused):
    """The action does not fit the tournament's status (not started, finished...)."""
