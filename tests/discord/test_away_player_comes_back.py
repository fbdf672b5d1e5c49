"""Defect: a player the idle rule marked away could never come back from Discord.

RULES §1.11: a Zoot or Wheelers player who lets two lay-down windows in a row run out is
away and is not dealt in ("sits out until they come back"). The service had ``back``, but
no button or command reached it: the player stayed out for the rest of the night unless
they left and joined again (losing their seat). Now an away player presses **Join** on
the table message to come back: the channel is told, and they are dealt the next game.
Someone who is seated and not away is still told they are at the table, and nothing
changes.
"""

from __future__ import annotations

import time

from bot.tables.service import TableService
from bot.testing.clock import VirtualClock
from tests.discord.conftest import World
from tests.discord.tablebot import eventually, table_bot
from tests.discord.test_guts_games import open_and_fill


async def _one_game_without_dave(service: TableService, world: World, tid: int) -> None:
    """Alice lays down, Bob and Carol play on (Dave, if dealt in, lets his window run out);
    the game ends."""
    hand = (await service.view(tid)).hand_number
    for _ in range(50):
        if (await service.view(tid)).to_act_user_ids:
            break
        await service.tick(tid, force=True)
    await service.act(tid, world.alice.id, "lay_down")
    await service.act(tid, world.bob.id, "play_on")
    await service.act(tid, world.carol.id, "play_on")
    for _ in range(50):
        view = await service.view(tid)
        if view.hand_number == hand and view.result is not None:
            return
        await service.tick(tid, force=True)
    raise AssertionError("the game did not end")


async def test_rule_1_11_an_away_player_comes_back_by_pressing_join(world: World) -> None:
    fake = world.fake
    # the test drives every step (forced ticks): the table's own timers wait on a clock it
    # does not move, so none of them deals or times out behind its back (on a loaded
    # machine the 0.2 s autostart dealt first and the forced tick timed the game out)
    clock = VirtualClock(time.time())
    async with table_bot(world, clock=clock, sleep=clock.sleep) as bot:
        service = bot.service
        assert service is not None
        table = await open_and_fill(world, "zoot")
        await (await fake.click_label(world.alice, table, "Start")).response()
        view = await service.table_in_channel(world.channel.id)
        assert view is not None
        tid = view.table_id
        await _one_game_without_dave(service, world, tid)
        await service.tick(tid, force=True)  # the next game
        await _one_game_without_dave(service, world, tid)
        await eventually(
            lambda: any("sits out" in m.content for m in fake.channel_messages(world.channel)),
            what="the channel told Dave sits out",
        )
        # the next game is dealt without him
        await service.tick(tid, force=True)
        third = await service.view(tid)
        assert third.hand_number == 3 and third.to_act_user_ids
        assert world.dave.id not in third.to_act_user_ids
        assert third.seat_of(world.dave.id).status == "away"  # type: ignore[union-attr]

        # a seated player who is not away: told so, nothing changes
        refused = await (await fake.click_label(world.bob, table, "Join")).response()
        assert refused.ephemeral and "already at this table" in (refused.content or "")

        back = await (await fake.click_label(world.dave, table, "Join")).response()
        assert back.updated_message and not back.ephemeral, back.content
        await eventually(
            lambda: any(
                f"{world.dave.name} is back" in m.content
                for m in fake.channel_messages(world.channel)
            ),
            what="the channel told Dave is back",
        )
        # game 3 goes on without him; he is dealt game 4
        await _one_game_without_dave(service, world, tid)
        await service.tick(tid, force=True)
        fourth = await service.view(tid)
        assert fourth.hand_number == 4
        assert fourth.seat_of(world.dave.id).status not in ("away", "sitting_out")  # type: ignore[union-attr]
        # pressing Join again once back: he is at the table, nothing changes
        again = await (await fake.click_label(world.dave, table, "Join")).response()
        assert again.ephemeral and "already at this table" in (again.content or "")
        assert (await bot.store.audit(world.guild.id)).ok
