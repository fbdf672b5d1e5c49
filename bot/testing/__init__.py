"""A loopback fake Discord (REST + gateway) and helpers to drive the real discord.py client
against it; used by the Discord-level tests and the sandbox demo."""

from bot.testing.fake_discord import (
    FakeDiscord,
    Fault,
    InteractionRecord,
    InteractionReply,
    RequestRecord,
)
from bot.testing.fake_model import (
    ADMINISTRATOR,
    DEFAULT_BOT_PERMISSIONS,
    DEFAULT_EVERYONE,
    FakeChannel,
    FakeDiscordError,
    FakeGuild,
    FakeMember,
    FakeMessage,
    FakeRole,
    FakeUser,
    MessageView,
    StoredAttachment,
)
from bot.testing.harness import discord_endpoints, running_client

__all__ = [
    "ADMINISTRATOR",
    "DEFAULT_BOT_PERMISSIONS",
    "DEFAULT_EVERYONE",
    "FakeChannel",
    "FakeDiscord",
    "FakeDiscordError",
    "FakeGuild",
    "FakeMember",
    "FakeMessage",
    "FakeRole",
    "FakeUser",
    "Fault",
    "InteractionRecord",
    "InteractionReply",
    "MessageView",
    "RequestRecord",
    "StoredAttachment",
    "discord_endpoints",
    "running_client",
]
