"""Benchmark: interaction-to-response latency of the real bot through the fake Discord.

Run:  python bench/interactions.py [--clicks N]

For 1, 10 and 50 Razz tables played at once (two users each, in their own channels), the
player to act presses **Check**, **Call** or **Bring in** on the table message, over and
over, hands following each other; each click goes through the real discord.py client, the
tables cog, the TableService (lock, engine, one SQLite transaction) and back as an edit of
the clicked message. The latency is the fake Discord's: from sending the interaction on the
gateway to receiving the bot's first callback (what Discord's 3-second rule measures).

The floor is a minimal discord.py bot on the same fake with the same number of users
clicking a button at once, whose only work is ``interaction.response.defer()``.

Fairness: at each level both sides are set up first (each on its own fake Discord, in
this one process and event loop), warmed up with ``WARMUP`` untimed clicks
per table, then measured in INTERLEAVED slices (bot, bare, bare, bot, ...: the order
alternates) of the same number of clicks per table, so load changes hit both alike.
Between slices the bot's own background updates (DM edits, posts) are let finish, untimed.

Prints a markdown table; the last line is ``RESULT p99_vs_bare=R`` (R: the worst ratio of
the two p99s over the three levels). Target: within 2x.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import discord

from bot.app import HomeGameBot, PublishRelay
from bot.config import DatabaseSettings, DiscordSettings, Settings
from bot.store import Store
from bot.tables.service import TableService
from bot.testing import FakeChannel, FakeDiscord, FakeMessage, FakeUser, running_client
from bot.testing.harness import discord_endpoints

LEVELS = (1, 10, 50)
ACTIONS = ("Check", "Call", "Bring in", "Complete", "Bet", "Fold")
STAKES = {"ante": 1, "bring_in": 2, "small_bet": 4, "big_bet": 8}
WARMUP = 3
"""Untimed clicks per table before the timed ones, on both sides."""
SLICES = 10
"""Timed slices per side and level; the two sides alternate slice by slice."""


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def world(
    fake: FakeDiscord, tables: int, name: str
) -> list[tuple[FakeChannel, FakeUser, FakeUser]]:
    guild = fake.add_guild(name)
    out = []
    for k in range(tables):
        channel = fake.add_channel(guild, f"table-{k}")
        pair = fake.add_user(f"{name}-a{k}"), fake.add_user(f"{name}-b{k}")
        for user in pair:
            fake.add_member(guild, user)
        out.append((channel, *pair))
    return out


# ----------------------------------------------------------------------------- bare bot


class BareButton(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Check", custom_id="bare:check")
    async def check(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        await interaction.response.defer()


class BareSide:
    """The floor: a defer-only discord.py bot, one button message per table."""

    def __init__(self, fake: FakeDiscord, seats: list[tuple[FakeChannel, FakeUser, FakeUser]]):
        self.fake = fake
        self.seats = seats
        self.messages: list[FakeMessage] = []
        self.clicks = 0

    async def setup(self, stack: contextlib.AsyncExitStack) -> None:
        self.client = client = discord.AutoShardedClient(intents=discord.Intents(guilds=True))
        await stack.enter_async_context(running_client(self.fake, client))
        client.add_view(BareButton())
        for channel, _, _ in self.seats:
            sent = await client.get_partial_messageable(channel.id).send("bench", view=BareButton())
            self.messages.append(self.fake.messages[sent.id])

    async def run(self, per_table: int) -> list[float]:
        """``per_table`` clicks on every table at once; their latencies."""
        start = len(self.fake.interactions)

        async def player(message: FakeMessage, users: tuple[FakeUser, FakeUser]) -> None:
            for _ in range(per_table):
                self.clicks += 1
                rec = await self.fake.click(users[self.clicks % 2], message, "bare:check")
                await rec.acknowledgement()  # a bare defer is all this bot ever answers

        await asyncio.gather(
            *(player(m, (a, b)) for m, (_, a, b) in zip(self.messages, self.seats, strict=True))
        )
        records = list(self.fake.interactions.values())[start:]
        latencies = [r.latency for r in records if r.latency is not None]
        assert len(latencies) == len(records) == per_table * len(self.seats)
        return latencies

    async def settle(self) -> None:
        return None


# ----------------------------------------------------------------------------- home game


class BotSide:
    """The real bot: a Razz table per channel, the player to act clicking."""

    def __init__(
        self, fake: FakeDiscord, seats: list[tuple[FakeChannel, FakeUser, FakeUser]], db: Path
    ):
        self.fake = fake
        self.seats = seats
        self.db = db
        self.tables: list[FakeMessage] = []

    async def setup(self, stack: contextlib.AsyncExitStack) -> None:
        fake = self.fake
        store = await Store.open(self.db)
        stack.push_async_callback(store.close)
        relay = PublishRelay()
        seeds = random.Random(len(self.seats))
        self.service = service = TableService(
            store,
            rng_factory=lambda: random.Random(seeds.random()),
            subscriber=relay,
            autostart_delay=0.05,
        )
        stack.push_async_callback(service.stop_service)
        settings = Settings(
            discord=DiscordSettings(token=fake.token, api_base=fake.api_base),
            database=DatabaseSettings(path=self.db),
        )
        bot = HomeGameBot(settings=settings, store=store, service=service, relay=relay)
        await stack.enter_async_context(running_client(fake, bot))
        self.cog: Any = bot.get_cog("Tables")
        for channel, a, b in self.seats:
            reply = await (await fake.invoke(a, channel, "razz", STAKES)).response()
            assert reply.message is not None
            table = reply.message
            await (await fake.click_label(b, table, "Join")).response()
            await (await fake.click_label(a, table, "Start")).response()
            self.tables.append(table)

    async def run(self, per_table: int) -> list[float]:
        fake, service = self.fake, self.service
        start = len(fake.interactions)

        async def player(table: FakeMessage, users: tuple[FakeUser, FakeUser]) -> None:
            done = 0
            while done < per_table:
                view = await service.table_in_channel(table.channel.id)
                assert view is not None
                if not view.to_act_user_ids or f"state {view.version}" not in str(
                    table.embeds[0].get("footer")
                ):
                    await asyncio.sleep(0.01)  # between hands, or an edit under way
                    continue
                (uid,) = view.to_act_user_ids
                user = users[0] if users[0].id == uid else users[1]
                labels = {b["label"] for b in table.buttons() if not b.get("disabled")}
                label = next((x for x in ACTIONS if x in labels), None)
                if label is None:
                    await asyncio.sleep(0.01)  # the message shows a state nobody may act in
                    continue
                rec = await fake.click_label(user, table, label)
                reply = await rec.response()
                if reply.ephemeral:  # refused (e.g. a timer acted first): not a timed click
                    continue
                done += 1

        await asyncio.gather(
            *(player(t, (a, b)) for t, (_, a, b) in zip(self.tables, self.seats, strict=True))
        )
        records = list(fake.interactions.values())[start:]
        return [r.latency for r in records if r.latency is not None]

    async def settle(self) -> None:
        """Untimed: let the bot's background updates (DM edits, posts) finish and every
        table's next hand start (its 0.05 s timer), so nothing of the bot runs meanwhile."""
        while True:
            await self.cog.updates.idle()
            views = [await self.service.table_in_channel(t.channel.id) for t in self.tables]
            if all(
                v is not None
                and v.to_act_user_ids
                and f"state {v.version}" in str(t.embeds[0].get("footer"))
                for v, t in zip(views, self.tables, strict=True)
            ):
                return
            await asyncio.sleep(0.01)


async def level(tables: int, clicks: int, tmp: Path) -> tuple[list[float], list[float], float]:
    """Both sides of one level, measured in interleaved slices: (bare, bot, seconds)."""
    per_table = max(SLICES, clicks // tables)
    per_slice = [per_table // SLICES + (i < per_table % SLICES) for i in range(SLICES)]
    async with contextlib.AsyncExitStack() as stack:
        # one fake Discord per side (the fake serves one bot session); discord.py reads its
        # REST base from a class attribute at each request, so it points at the side being
        # measured, and the bot is settled (no update or timer due) before the bare side runs
        fakes = [await stack.enter_async_context(FakeDiscord()) for _ in range(2)]
        bare = BareSide(fakes[0], world(fakes[0], tables, "bare"))
        ours = BotSide(fakes[1], world(fakes[1], tables, "bot"), tmp / f"bench-{tables}.db")
        for side in (bare, ours):
            await side.setup(stack)
            await side.settle()
        for side in (bare, ours):  # first-use costs, untimed
            with discord_endpoints(side.fake):
                await side.run(WARMUP)
                await side.settle()
        timed: dict[str, list[float]] = {"bare": [], "bot": []}
        started = time.perf_counter()
        for i, n in enumerate(per_slice):
            order: list[tuple[str, BareSide | BotSide]] = [("bot", ours), ("bare", bare)]
            for name, side in order if i % 2 == 0 else order[::-1]:
                with discord_endpoints(side.fake):
                    timed[name].extend(await side.run(n))
                    await side.settle()
        took = time.perf_counter() - started
    return timed["bare"], timed["bot"], took


async def main(clicks: int) -> None:
    logging.basicConfig(level=logging.ERROR)
    rows = []
    ratios = []
    with tempfile.TemporaryDirectory() as tmp:
        for tables in LEVELS:
            bare, ours, took = await level(tables, clicks, Path(tmp))
            ratio = pct(ours, 0.99) / pct(bare, 0.99)
            ratios.append(ratio)
            rows.append(
                f"| {tables} | {len(ours)} | {pct(bare, 0.5) * 1e3:.1f} | "
                f"{pct(bare, 0.99) * 1e3:.1f} | {pct(ours, 0.5) * 1e3:.1f} | "
                f"{pct(ours, 0.99) * 1e3:.1f} | {ratio:.2f} | {took:.1f} |"
            )
    print(
        "| tables | clicks | bare p50 ms | bare p99 ms | bot p50 ms | bot p99 ms | p99 ratio | s |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    for row in rows:
        print(row)
    print(f"RESULT p99_vs_bare={max(ratios):.2f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clicks", type=int, default=200, help="clicks per level (>= 10/table)")
    asyncio.run(main(parser.parse_args().clicks))
