"""Issue 20, "the shape of the code": every clock read goes through the injected clock, so a
test moves time for the whole bot. Through the fake Discord, with the real bot, service and
store built as ``python -m bot run`` builds them (one clock for all three): a rebuy's ledger
row carries the clock's time, the league's cooldown refuses a second rebuy until the clock
is moved a day on (not waited for), and the rebuy then made is stamped with the moved time,
in the database and in ``/history``; a table opened after the move is stored at the moved
time and counts its deadlines from it."""

from __future__ import annotations

import re
from typing import Any

from bot.app import HomeGameBot
from tests.discord.conftest import World
from tests.discord.tablebot import eventually, table_bot
from tests.discord.test_razz_table import short_stack


class Clock:
    """The whole bot's clock: it stands still until the test moves it, and moves the fake
    Discord's wall clock with it (message ages, snowflakes), so both sides agree on the
    time as they would in the real world."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.now = float(int(world.fake.now()))

    def __call__(self) -> float:
        return self.now

    def move_to(self, when: float) -> None:
        self.world.fake.advance(when - self.now)
        self.now = when


async def rebuy_times(bot: HomeGameBot, world: World) -> list[int]:
    async with bot.store.read() as tx:
        wallet = await tx.find_wallet(world.guild.id, world.bob.id)
        assert wallet is not None
        entries = await tx.entries(account_id=wallet.id)
    return sorted(e.created_at for e in entries if e.kind == "rebuy")


async def test_issue20_moving_the_injected_clock_moves_the_whole_bot(world: World) -> None:
    fake = world.fake
    clock = Clock(world)
    start = clock.now
    async with table_bot(world, clock=clock) as bot:
        await short_stack(bot, world, world.bob, 0)
        first = await (await fake.invoke(world.bob, world.channel, "rebuy")).response()
        assert "Nothing changed" not in first.content, first.content
        assert await rebuy_times(bot, world) == [start]

        async with bot.store.read() as tx:
            league = await tx.league(world.guild.id)
        cooldown = league.rebuy_cooldown_seconds
        assert cooldown == 24 * 3600  # the default: a day

        await short_stack(bot, world, world.bob, 0)
        clock.move_to(start + cooldown - 60)  # a minute short of the cooldown: refused
        early = await (await fake.invoke(world.bob, world.channel, "rebuy")).response()
        assert early.ephemeral and "1 min" in early.content and "Nothing changed" in early.content
        assert await rebuy_times(bot, world) == [start]

        clock.move_to(start + cooldown)  # moved, not waited for
        again = await (await fake.invoke(world.bob, world.channel, "rebuy")).response()
        assert "Nothing changed" not in again.content, again.content
        moved = int(start + cooldown)
        assert await rebuy_times(bot, world) == [start, moved]
        history = await (await fake.invoke(world.bob, world.channel, "history")).response()
        assert f"<t:{moved}:R>" in history.content and f"<t:{int(start)}:R>" in history.content

        # a table opened now: its row at the moved time, its countdown from it
        opened = await (await fake.invoke(world.alice, world.channel, "zoot")).response()
        assert opened.message is not None
        found = re.search(r"table #(\d+)", str(opened.embeds[0]["title"]))
        assert found, opened.embeds
        table_id = int(found[1])
        async with bot.store.read() as tx:
            table = await tx.table(table_id)
        assert table.created_at == moved
        table_message = opened.message
        for user in (world.alice, world.bob):
            await (await fake.click_label(user, table_message, "Join")).response()
        await (await fake.click_label(world.alice, table_message, "Start")).response()

        service = bot.service
        assert service is not None
        # the deal runs after the click's answer (a hang guard, not a time to beat)
        deadline = await eventually(
            lambda: _deadline(service, table_id), what="the first decision's deadline"
        )
        assert deadline is not None and moved < deadline <= moved + 600, deadline


async def _deadline(service: Any, table_id: int) -> float | None:
    return (await service.view(table_id)).deadline
