"""Defect: a refused command stopped the table's timer (issue 11, item 1), through the fake
Discord: right after a game ends, a player seated at another table of the server presses
Join; it is refused, and the next game is still dealt when its short delay runs out (before
the fix the table stayed stuck until a restart). The other refusals are in
tests/tables/test_refusals_keep_timers.py."""

from __future__ import annotations

import time

from bot.testing.clock import VirtualClock
from tests.discord.conftest import World
from tests.discord.tablebot import eventually, hand_dm, table_bot
from tests.discord.test_guts_games import choose_all, open_and_fill, window_open

AUTOSTART = 1.5


async def test_refused_foreign_join_after_a_game_keeps_the_next_game_timer(
    world: World,
) -> None:
    fake = world.fake
    clock = VirtualClock(time.time())  # the next game's delay runs out when the test says
    async with table_bot(world, autostart_delay=AUTOSTART, clock=clock, sleep=clock.sleep) as bot:
        service = bot.service
        assert service is not None
        other = fake.add_channel(world.guild, "poker-2")
        opened = await fake.invoke(world.outsider, other, "razz")
        assert not (await opened.response()).ephemeral  # eve sits at her own table there
        table = await open_and_fill(world, "zoot")
        await (await fake.click_label(world.alice, table, "Start")).response()
        await eventually(lambda: all(window_open(hand_dm(world, u)) for u in world.players))
        view = await service.table_in_channel(world.channel.id)
        assert view is not None and view.hand_number == 1
        await choose_all(world, {"alice": "Lay down"})  # the showdown ends game 1
        ended = await service.view(view.table_id)
        assert ended.hand_number == 1 and not ended.to_act_user_ids and ended.deadline
        join = await (await fake.click_label(world.outsider, table, "Join")).response()
        assert join.ephemeral and "already play" in join.content, join.content
        assert (await service.view(view.table_id)).hand_number == 1
        clock.advance(AUTOSTART)
        await eventually(
            lambda: "Game 2" in table.embeds[0].get("description", ""),
            what="the next game dealt when its delay ran out",
        )
        await eventually(lambda: all(window_open(hand_dm(world, u)) for u in world.players))
        assert (await bot.store.audit(world.guild.id)).ok
