"""Issue 11, slow replies: a slash command whose work waits for the database answers within
Discord's 3 seconds even when the database is busy (it is deferred, then filled in). The
database stays busy until the command was acknowledged: a command that waited for it first
would never be."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.store import Store
from tests.discord.conftest import World
from tests.discord.tablebot import ACK_LIMIT, table_bot


async def _hold(store: Store, started: asyncio.Event, release: asyncio.Event) -> None:
    """Hold the store's writer lock until ``release``: the database is busy for as long as
    the test says (not 3.6 real seconds: a bot that waited for the database before its
    first answer would then never answer, whatever the machine's load)."""
    async with store.transaction() as tx:
        await tx.league(1)  # a real write transaction, holding the store's writer lock
        started.set()
        await release.wait()


@pytest.mark.parametrize(
    ("command", "options", "subcommand", "expect", "public"),
    [
        ("rebuy", {}, None, "rebuy", False),
        ("balance", {}, None, "chips", False),
        ("league", {}, "show", "League", False),
        ("zoot", {"ante": 10}, None, "", True),
        ("stud", {}, None, "", True),
        ("holdem", {}, None, "", True),
        ("horse", {}, None, "", True),
        ("dealers-choice", {"games": "razz zoot"}, None, "", True),
        ("leaderboard", {}, None, "", True),
        ("history", {}, None, "", False),
    ],
)
async def test_a_command_answers_within_3_seconds_while_the_database_is_busy(
    world: World,
    command: str,
    options: dict[str, Any],
    subcommand: str | None,
    expect: str,
    public: bool,
) -> None:
    async with table_bot(world, autostart_delay=60) as bot:
        # the league exists (as after a first table), so each command has work to do
        async with bot.store.transaction() as tx:
            await tx.current_season(world.guild.id)
            await tx.wallet(world.guild.id, world.alice.id)
        started, release = asyncio.Event(), asyncio.Event()
        holder = asyncio.create_task(_hold(bot.store, started, release))
        await started.wait()
        record = await world.fake.invoke(
            world.alice, world.channel, command, options, subcommand=subcommand
        )
        try:
            latency = await record.acknowledgement(timeout=ACK_LIMIT + 1)
        finally:
            busy = not holder.done()
            release.set()
            await holder
        assert busy  # it was answered while the store was still busy
        assert latency < ACK_LIMIT
        reply = await record.response()
        assert reply.ephemeral == (not public)
        assert expect in reply.content or reply.embeds
        assert not reply.content.startswith("Sorry")


def test_every_command_that_opens_a_table_is_deferred_publicly() -> None:
    # a table message must never go out as an ephemeral follow-up behind a slow database
    from bot.render.rulebook import GAME_TITLES
    from cogs._answer import PUBLIC_COMMANDS

    assert set(GAME_TITLES) <= PUBLIC_COMMANDS
