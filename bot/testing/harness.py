"""Run a real discord.py client against a :class:`~bot.testing.fake_discord.FakeDiscord`.

discord.py reads its endpoints from two class attributes: ``discord.http.Route.BASE`` for
REST and ``DiscordWebSocket.DEFAULT_GATEWAY`` for the gateway (a plain ``Client`` never
asks ``GET /gateway/bot``; ``AutoShardedClient`` does, and the fake answers with its own
URL). :func:`discord_endpoints` points both at the fake and restores them afterwards;
:func:`running_client` logs a client in, connects it and waits until it is ready.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Iterator
from typing import TypeVar

import discord
import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

from bot.testing.fake_discord import FakeDiscord

ClientT = TypeVar("ClientT", bound=discord.Client)


@contextlib.contextmanager
def discord_endpoints(fake: FakeDiscord) -> Iterator[None]:
    """Point discord.py (process-wide) at ``fake`` for the duration of the block."""
    old_base, old_gateway = Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY
    Route.BASE = fake.api_base
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake.gateway_url)
    try:
        yield
    finally:
        Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = old_base, old_gateway


@contextlib.asynccontextmanager
async def running_client(
    fake: FakeDiscord,
    client: ClientT,
    *,
    timeout: float = 60.0,
    fast_ready: bool = True,
    fast_identify: bool = True,
) -> AsyncIterator[ClientT]:
    """Log ``client`` in with the fake's token, connect it, wait for READY and every guild,
    yield it, then close it and wait for its connection task to end.

    ``fast_ready``: discord.py waits ``guild_ready_timeout`` (2 s) after the last
    GUILD_CREATE because real Discord streams guilds lazily; the fake sends them all right
    after READY, so the wait is shortened to keep tests fast.

    ``fast_identify``: ``Client.before_identify_hook`` sleeps 5 s before every re-IDENTIFY
    to respect Discord's identify rate limit; the fake has none, so the instance's hook is
    replaced by one that returns at once (only when the bot did not override it)."""
    with discord_endpoints(fake):
        if fast_ready:
            state = client._connection
            state.guild_ready_timeout = min(state.guild_ready_timeout, 0.05)
        hook = type(client).before_identify_hook
        if fast_identify and hook is discord.Client.before_identify_hook:
            client.before_identify_hook = _identify_at_once  # type: ignore[method-assign]
        await client.login(fake.token)
        task = asyncio.create_task(client.connect(reconnect=True), name="fake-discord-client")
        ready = asyncio.create_task(client.wait_until_ready())
        try:
            done, _ = await asyncio.wait(
                {task, ready}, timeout=timeout, return_when="FIRST_COMPLETED"
            )
            if task in done:
                task.result()  # raises the connection error
                raise RuntimeError("discord.py client stopped before it was ready")
            if ready not in done:
                raise TimeoutError(f"discord.py client not ready within {timeout}s")
            yield client
        finally:
            ready.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await ready
            # bounded: a close that never ends fails the test instead of hanging the run
            # (a hang in an async fixture's teardown was seen once, with the bot connected)
            await asyncio.wait_for(client.close(), timeout)
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(task, timeout)


async def _identify_at_once(shard_id: int | None, *, initial: bool = False) -> None:
    return None
