"""The real bot (no TableService: a bank night needs no table) on a real store, connected
to the fake Discord, with a clock the test moves; and what the night tests share: six
players, running ``python -m bot db audit`` on the database, reading a command's answer."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

from bot.__main__ import main as cli
from bot.app import EXTENSIONS, HomeGameBot
from bot.store import Store
from bot.testing import FakeUser, InteractionReply, running_client
from tests.discord.conftest import World

NO_TABLES = tuple(e for e in EXTENSIONS if e != "cogs.tables")


@contextlib.asynccontextmanager
async def night_bot(
    world: World,
    *,
    clock: Callable[[], float] = time.time,
    sleep: Callable[[float], Any] = asyncio.sleep,
) -> AsyncIterator[HomeGameBot]:
    """Open the store on ``clock``, build the bot with ``clock`` and ``sleep`` (its night
    reminders), connect; on exit close the bot and the store, as ``python -m bot run``
    does."""
    store = await Store.open(world.db_path, clock=clock)
    bot = HomeGameBot(
        settings=world.settings(),
        store=store,
        service=None,
        extensions=NO_TABLES,
        clock=clock,
        sleep=sleep,
    )
    try:
        async with running_client(world.fake, bot) as running:
            yield running
    finally:
        await store.close()


def six_players(world: World) -> list[FakeUser]:
    """alice (the admin and host), bob, carol, dave, frank and gina: members all."""
    fake = world.fake
    frank = fake.add_user("frank")
    gina = fake.add_user("gina")
    fake.add_member(world.guild, frank)
    fake.add_member(world.guild, gina)
    return [world.alice, world.bob, world.carol, world.dave, frank, gina]


async def db_audit(world: World) -> None:
    """``python -m bot db audit`` on the bot's database: the command's own code, run in a
    thread (it starts its own event loop), read-only beside the running bot."""
    status = await asyncio.to_thread(cli, ["db", "audit", "--db", str(world.db_path)])
    assert status == 0, "python -m bot db audit found a difference"


async def audit_subprocess(world: World) -> None:
    """The operator's audit, as run from a shell."""
    import sys

    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        "db",
        "audit",
        "--db",
        str(world.db_path),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await proc.communicate()
    assert proc.returncode == 0, (out, err)
    assert b"OK" in out


async def answer(
    world: World,
    user: FakeUser,
    name: str,
    options: dict[str, Any] | None = None,
    *,
    subcommand: str | None = None,
    timeout: float = 10.0,
) -> InteractionReply:
    record = await world.fake.invoke(user, world.channel, name, options, subcommand=subcommand)
    return await record.response(timeout=timeout)


def refused(reply: InteractionReply, *words: str) -> None:
    """An ephemeral one-line refusal that says what changed (nothing) and the ``words``."""
    assert reply.ephemeral, reply.content
    assert "Nothing" in reply.content and "changed" in reply.content, reply.content
    assert "\n" not in reply.content, reply.content
    for word in words:
        assert word in reply.content, (word, reply.content)
