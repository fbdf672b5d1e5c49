"""Defect: a wallet smaller than the game expects made a hand unfinishable (issue 11,
item 2), through the fake Discord: ``/chips take`` on a player dealt into the hand being
played is refused with one line naming the table and the most that can be taken now, and
nothing changes; after the hand (here: voided) the same take goes through."""

from __future__ import annotations

import time

from bot.testing.clock import VirtualClock
from tests.discord.conftest import World
from tests.discord.tablebot import eventually, hand_dm, table_bot
from tests.discord.test_guts_games import open_and_fill, window_open


async def test_chips_take_refuses_to_take_a_seated_players_chips_in_play(world: World) -> None:
    fake = world.fake
    # the next hand's delay runs on a clock the test moves: after the void, the take must
    # come before hand 2 is dealt, however long a busy machine takes to send it
    clock = VirtualClock(time.time())
    async with table_bot(world, clock=clock, sleep=clock.sleep) as bot:
        service = bot.service
        assert service is not None
        table = await open_and_fill(world, "zoot")
        await (await fake.click_label(world.alice, table, "Start")).response()
        await eventually(lambda: all(window_open(hand_dm(world, u)) for u in world.players))
        view = await service.table_in_channel(world.channel.id)
        assert view is not None
        take = {"user": world.carol, "amount": 500, "reason": "house rules"}
        rec = await fake.invoke(world.alice, world.channel, "chips", take, subcommand="take")
        reply = await rec.response()
        assert reply.ephemeral
        assert f"table #{view.table_id}" in reply.content and "at most 0 chips" in reply.content
        async with bot.store.read() as tx:
            assert (await tx.wallet(world.guild.id, world.carol.id)).balance == 990
        await service.void_hand(view.table_id, world.alice.id, may_manage=True)
        rec = await fake.invoke(world.alice, world.channel, "chips", take, subcommand="take")
        reply = await rec.response()
        assert not reply.ephemeral and "balance 500" in reply.content, reply.content
        assert (await bot.store.audit(world.guild.id)).ok
