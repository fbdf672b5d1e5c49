"""Fixtures for the bot's Discord-level tests: a started fake Discord, a world of users in
a server, a real store in a temp dir, and the real HomeGameBot connected to the fake."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.config import DatabaseSettings, DiscordSettings, Settings
from bot.store import Store
from bot.testing import ADMINISTRATOR, FakeChannel, FakeDiscord, FakeGuild, FakeUser


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    """A fake Discord on 127.0.0.1 (random port), stopped after the test."""
    fake = FakeDiscord()
    await fake.start()
    try:
        yield fake
    finally:
        await fake.stop()


@dataclass
class World:
    fake: FakeDiscord
    guild: FakeGuild
    channel: FakeChannel
    alice: FakeUser  # administrator (Manage Server)
    bob: FakeUser
    carol: FakeUser
    dave: FakeUser
    outsider: FakeUser  # a member who never sits down
    db_path: Path

    @property
    def players(self) -> list[FakeUser]:
        return [self.alice, self.bob, self.carol, self.dave]

    def settings(self) -> Settings:
        return Settings(
            discord=DiscordSettings(token=self.fake.token, api_base=self.fake.api_base),
            database=DatabaseSettings(path=self.db_path),
        )


@pytest.fixture
async def world(fake_discord: FakeDiscord, tmp_path: Path) -> World:
    guild = fake_discord.add_guild("Home")
    channel = fake_discord.add_channel(guild, "poker")
    users = {n: fake_discord.add_user(n) for n in ("alice", "bob", "carol", "dave", "eve")}
    fake_discord.add_member(guild, users["alice"], permissions=ADMINISTRATOR)
    for name in ("bob", "carol", "dave", "eve"):
        fake_discord.add_member(guild, users[name])
    return World(
        fake_discord,
        guild,
        channel,
        users["alice"],
        users["bob"],
        users["carol"],
        users["dave"],
        users["eve"],
        tmp_path / "homegame.db",
    )


@pytest.fixture
async def store(world: World) -> AsyncIterator[Store]:
    opened = await Store.open(world.db_path)
    try:
        yield opened
    finally:
        await opened.close()
