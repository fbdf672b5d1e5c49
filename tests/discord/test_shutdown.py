"""A bot that stops (``python -m bot run`` on SIGTERM, a restart) while it is answering a
command lets the command finish first, within ``HomeGameBot.shutdown_grace`` seconds:
nobody is left without an answer, and no error comes from a command cut off against the
closed connection and store."""

from __future__ import annotations

import logging

import pytest

from bot.app import HomeGameBot
from tests.discord.conftest import World
from tests.discord.tablebot import HANG, eventually, table_bot

CALLBACK = r"^POST /interactions/\d+/[^/]+/callback$"


async def test_a_command_being_answered_when_the_bot_stops_gets_its_answer(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    async with table_bot(world):
        # Discord asks the answer to wait (a 429): the command is still running when the
        # bot is told to stop
        limited = world.fake.inject(CALLBACK, status=429, retry_after=0.3)
        record = await world.fake.invoke(world.alice, world.channel, "razz")
        await eventually(lambda: limited.hits == 1, what="the answer held back")
    reply = await record.response()
    assert reply.message is not None and reply.message.embeds  # the table, answered
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, [r.getMessage() for r in errors]
    assert "still handled" not in caplog.text


async def test_a_stopping_bot_waits_for_a_command_no_longer_than_its_grace(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    """The grace is a bound: with none left (0 s), the bot stops at once and names the
    interaction it cut off."""
    caplog.set_level(logging.WARNING)
    async with table_bot(world) as bot:
        assert isinstance(bot, HomeGameBot)
        bot.shutdown_grace = 0.0
        limited = world.fake.inject(CALLBACK, status=429, retry_after=HANG)
        await world.fake.invoke(world.alice, world.channel, "razz")
        await eventually(lambda: limited.hits == 1, what="the answer held back")
    assert "stopping with 1 interaction(s) still handled: CommandTree-invoker" in caplog.text
