"""The real bot with a real TableService on a real store, connected to the fake Discord,
plus helpers to read what each user sees (shared by the table tests)."""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from bot.app import HomeGameBot, PublishRelay
from bot.engine.cards import Card, parse_cards
from bot.store import Store
from bot.tables.service import TableService
from bot.testing import FakeMessage, FakeUser, running_client
from cogs._pace import PING_MARK
from cogs.tables import TablesCog
from tests.discord.conftest import World

ACK_LIMIT = 3.0
"""Discord drops an interaction not acknowledged within 3 seconds."""

HANG = 60.0
"""Seconds after which a wait for the bot is taken to hang: a guard against a test that
would never end, never a measure of speed (a passing wait returns as soon as its condition
holds, however busy the machine). Timers a test waits for run on a clock it moves
(``table_bot(clock=..., sleep=...)``, tests/tables/conftest.py's VirtualClock)."""


@contextlib.asynccontextmanager
async def table_bot(
    world: World,
    *,
    seed: int = 7,
    autostart_delay: float = 0.2,
    clock: Callable[[], float] = time.time,
    relay: PublishRelay | None = None,
    computer_delay: float = 0.01,
    rng_factory: Callable[[], random.Random] | None = None,
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
) -> AsyncIterator[HomeGameBot]:
    """Open the store, build the service (seeded shuffles) and the bot, connect; on exit
    close the bot, stop the service and close the store, as ``python -m bot run`` does.
    ``clock``: the whole bot's clock, as ``python -m bot run`` injects it (the store's rows,
    the service's deadlines, the bot's reminders); ``relay``: e.g. a privacy recorder;
    ``rng_factory``: the service's shuffles (e.g. chosen cards), seeded ones by default;
    ``sleep``: what the service's timers and the turn pings sleep with (with ``clock``: a
    VirtualClock the test moves, so a decision window runs out when the test says, not after
    real seconds).
    On a clean exit, every interaction answered so far was acknowledged within 3 s."""
    store = await Store.open(world.db_path, clock=clock)
    seeds = random.Random(seed)
    relay = relay if relay is not None else PublishRelay()
    service = TableService(
        store,
        clock=clock,
        rng_factory=rng_factory or (lambda: random.Random(seeds.random())),
        subscriber=relay,
        autostart_delay=autostart_delay,
        computer_delay=computer_delay,
        sleep=sleep,
    )
    if hasattr(relay, "service"):
        relay.service = service
    bot = HomeGameBot(
        settings=world.settings(), store=store, service=service, relay=relay, clock=clock
    )
    try:
        async with running_client(world.fake, bot) as running:
            yield running
            await cog(running).updates.idle()
        slow = [lat for lat in world.fake.ack_latencies() if lat >= ACK_LIMIT]
        assert not slow, f"interactions acknowledged after {ACK_LIMIT} s: {slow}"
    finally:
        await service.stop_service()
        await store.close()


def assert_all_acknowledged(world: World) -> int:
    """Every interaction the users made was acknowledged within Discord's 3 seconds;
    returns how many there were."""
    records = list(world.fake.interactions.values())
    late = [
        (r.command or r.custom_id, r.latency)
        for r in records
        if r.latency is None or r.latency >= ACK_LIMIT
    ]
    assert records and not late, late
    return len(records)


def cog(bot: HomeGameBot) -> TablesCog:
    # load_extension imports cogs.tables afresh, so its class is not this module's TablesCog
    found: Any = bot.get_cog("Tables")
    assert found is not None and type(found).__name__ == "TablesCog"
    return found  # type: ignore[no-any-return]


async def eventually(check: Callable[[], Any], *, timeout: float = HANG, what: str = "") -> Any:
    """Poll ``check`` (sync or async) until it returns something truthy (the bot works
    asynchronously); ``timeout`` is a hang guard (:data:`HANG`), not a deadline the bot
    must meet."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while True:
        try:
            value = check()
            if asyncio.iscoroutine(value):
                value = await value
        except (AssertionError, LookupError, ValueError):
            value = None
        if value:
            return value
        if loop.time() > end:
            raise AssertionError(f"timed out waiting for {what or check}")
        await asyncio.sleep(0.02)


def field(message: FakeMessage, name: str) -> str | None:
    for embed in message.embeds:
        for f in embed.get("fields", ()):
            if f.get("name") == name:
                return str(f.get("value"))
    return None


def hand_dm(world: World, user: FakeUser) -> FakeMessage:
    """The user's hand DM (edited in place; a turn ping is a DM of its own, not this)."""
    dms = [m for m in world.fake.dms(user) if not m.content.startswith(PING_MARK)]
    assert len(dms) == 1, f"{user.name} has {len(dms)} DMs (the hand DM is edited in place)"
    return dms[0]


def pings(world: World, user: FakeUser, *, include_deleted: bool = False) -> list[FakeMessage]:
    """The turn pings the user was sent as DMs (cogs/_pace.py), oldest first."""
    return [
        m
        for m in world.fake.dms(user, include_deleted=include_deleted)
        if m.content.startswith(PING_MARK)
    ]


def dm_cards(world: World, user: FakeUser) -> list[Card]:
    text = field(hand_dm(world, user), "Cards")
    assert text and "not dealt" not in text
    return parse_cards(text)


def footer_state(message: FakeMessage) -> int:
    text = str(message.embeds[0].get("footer", {}).get("text", ""))
    return int(text.rsplit("state ", 1)[1])


RAZZ_STAKES = {"ante": 1, "bring_in": 2, "small_bet": 4, "big_bet": 8}
RAZZ_ACTIONS = ("Check", "Call", "Bring in")


def razz_act_label(table: FakeMessage) -> str | None:
    """The label of the Razz action a bench-style player presses (Check, else Call, else
    Bring in), if the table message shows one enabled."""
    enabled = {b["label"] for b in table.buttons() if not b.get("disabled")}
    return next((x for x in RAZZ_ACTIONS if x in enabled), None)
