"""The fake's threads (issue 20: a tournament's tables play in threads the bot creates):
``POST /channels/{id}/threads`` (Discord API docs, "Start Thread without Message") makes a
public thread that the real discord.py client learns of (THREAD_CREATE) and may post in,
and the fake refuses what Discord refuses: no Create Public Threads (50013), a name of 0
or more than 100 characters or a bad archive duration (50035), a thread of a thread
(50024), posting in a thread without Send Messages in Threads (50013, even with Send
Messages), past a guild's 1,000 active threads (160006)."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot.testing.fake_model import (
    CREATE_PUBLIC_THREADS,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
)
from bot.testing.fake_rules import MAX_ACTIVE_THREADS
from tests.discord.tablebot import eventually
from tests.testing.test_fake_discord import World, world

__all__ = ["world"]


async def start_thread(world: World, channel_id: int, **body: Any) -> Any:
    payload = {"name": "Table 1", "auto_archive_duration": 1440, "type": 11, **body}
    return await world.bot.http.start_thread_without_message(
        channel_id,
        name=payload["name"],
        auto_archive_duration=payload["auto_archive_duration"],
        type=payload["type"],
    )


async def code_of(world: World, channel_id: int, **body: Any) -> int:
    with pytest.raises(discord.HTTPException) as caught:
        await start_thread(world, channel_id, **body)
    return caught.value.code


async def test_a_public_thread_is_made_the_client_sees_it_and_posts_in_it(world: World) -> None:
    data = await start_thread(world, world.channel.id, name="Tournament #1 table 1")
    assert data["type"] == 11 and data["parent_id"] == str(world.channel.id)
    (thread,) = world.fake.threads(world.channel)
    assert thread.name == "Tournament #1 table 1" and thread.is_thread
    guild = world.bot.get_guild(world.guild.id)
    assert guild is not None
    seen = await eventually(lambda: guild.get_thread(thread.id), what="THREAD_CREATE")
    assert isinstance(seen, discord.Thread) and seen.parent_id == world.channel.id
    sent = await seen.send("the table")
    assert world.fake.last_message(thread).content == "the table"
    assert sent.channel.id == thread.id


async def test_discords_refusals_of_a_thread(world: World) -> None:
    assert await code_of(world, world.channel.id, name="x" * 101) == 50035
    assert await code_of(world, world.channel.id, name="   ") == 50035
    assert await code_of(world, world.channel.id, auto_archive_duration=30) == 50035
    thread = world.fake.add_thread(world.channel, "a thread")
    assert await code_of(world, thread.id) == 50024  # no thread in a thread
    world.fake.set_bot_permissions(world.channel, deny=CREATE_PUBLIC_THREADS)
    assert await code_of(world, world.channel.id) == 50013
    assert not [t for t in world.fake.threads(world.channel) if t is not thread]


async def test_a_thread_needs_send_messages_in_threads_not_send_messages(world: World) -> None:
    thread = world.fake.add_thread(world.channel, "table 2")
    guild = world.bot.get_guild(world.guild.id)
    assert guild is not None
    seen = await eventually(lambda: guild.get_thread(thread.id), what="THREAD_CREATE")
    world.fake.set_bot_permissions(world.channel, deny=SEND_MESSAGES_IN_THREADS)
    with pytest.raises(discord.Forbidden) as caught:
        await seen.send("refused")
    assert caught.value.code == 50013
    world.fake.set_bot_permissions(
        world.channel, allow=SEND_MESSAGES_IN_THREADS, deny=SEND_MESSAGES
    )
    await seen.send("allowed without Send Messages")
    assert world.fake.last_message(thread).content == "allowed without Send Messages"


async def test_a_guild_has_at_most_a_thousand_active_threads(world: World) -> None:
    for n in range(MAX_ACTIVE_THREADS - len(world.guild.threads)):
        world.fake.add_thread(world.channel, f"t{n}")
    assert await code_of(world, world.channel.id) == 160006
