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

Prints a markdown table; the last line is ``RESULT p99_vs_bare=R`` (R: the worst ratio of
the two p99s over the three levels). Target: within 2x.
"""

from __future__ import annotations

import argparse
import asyncio
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

LEVELS = (1, 10, 50)
ACTIONS = ("Check", "Call", "Bring in", "Complete", "Bet", "Fold")
STAKES = {"ante": 1, "bring_in": 2, "small_bet": 4, "big_bet": 8}


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def world(fake: FakeDiscord, tables: int) -> list[tuple[FakeChannel, FakeUser, FakeUser]]:
    guild = fake.add_guild("Bench")
    out = []
    for k in range(tables):
        channel = fake.add_channel(guild, f"table-{k}")
        pair = fake.add_user(f"a{k}"), fake.add_user(f"b{k}")
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


async def bare_level(tables: int, clicks: int) -> list[float]:
    async with FakeDiscord() as fake:
        seats = world(fake, tables)
        client = discord.AutoShardedClient(intents=discord.Intents(guilds=True))
        async with running_client(fake, client):
            client.add_view(BareButton())
            messages = []
            for channel, _, _ in seats:
                sent = await client.get_partial_messageable(channel.id).send(
                    "bench", view=BareButton()
                )
                messages.append(fake.messages[sent.id])

            async def player(message: FakeMessage, users: tuple[FakeUser, FakeUser]) -> None:
                for i in range(clicks):
                    rec = await fake.click(users[i % 2], message, "bare:check")
                    await rec.response()

            start = len(fake.interactions)
            await asyncio.gather(
                *(player(m, (a, b)) for m, (_, a, b) in zip(messages, seats, strict=True))
            )
            records = list(fake.interactions.values())[start:]
        return [r.latency for r in records if r.latency is not None]


# ----------------------------------------------------------------------------- home game


async def home_game_level(tables: int, clicks: int, tmp: Path) -> list[float]:
    async with FakeDiscord() as fake:
        seats = world(fake, tables)
        store = await Store.open(tmp / f"bench-{tables}.db")
        relay = PublishRelay()
        seeds = random.Random(tables)
        service = TableService(
            store,
            rng_factory=lambda: random.Random(seeds.random()),
            subscriber=relay,
            autostart_delay=0.05,
        )
        settings = Settings(
            discord=DiscordSettings(token=fake.token, api_base=fake.api_base),
            database=DatabaseSettings(path=tmp / f"bench-{tables}.db"),
        )
        bot = HomeGameBot(settings=settings, store=store, service=service, relay=relay)
        try:
            async with running_client(fake, bot):
                table_messages = []
                for channel, a, b in seats:
                    reply = await (await fake.invoke(a, channel, "razz", STAKES)).response()
                    assert reply.message is not None
                    table = reply.message
                    await (await fake.click_label(b, table, "Join")).response()
                    await (await fake.click_label(a, table, "Start")).response()
                    table_messages.append(table)
                start = len(fake.interactions)

                async def player(table: FakeMessage, users: tuple[FakeUser, FakeUser]) -> None:
                    done = 0
                    while done < clicks:
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
                            print("no action enabled:", labels, view.phase, file=sys.stderr)
                            await asyncio.sleep(0.01)
                            continue
                        await (await fake.click_label(user, table, label)).response()
                        done += 1

                await asyncio.gather(
                    *(player(t, (a, b)) for t, (_, a, b) in zip(table_messages, seats, strict=True))
                )
                records = list(fake.interactions.values())[start:]
                latencies = [r.latency for r in records if r.latency is not None]
                assert len(latencies) == len(records) == tables * clicks
        finally:
            await service.stop_service()
            await store.close()
        return latencies


async def main(clicks: int) -> None:
    logging.basicConfig(level=logging.ERROR)
    rows = []
    ratios = []
    with tempfile.TemporaryDirectory() as tmp:
        for tables in LEVELS:
            per_table = max(10, clicks // tables)
            started = time.perf_counter()
            bare = await bare_level(tables, per_table)
            ours = await home_game_level(tables, per_table, Path(tmp))
            took = time.perf_counter() - started
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
