"""The Discord-level fixtures (a started fake Discord, a world of users in a server) for
the operations tests that drive the real bot, e.g. ``/league forget``."""

from tests.discord.conftest import fake_discord, world

__all__ = ["fake_discord", "world"]
