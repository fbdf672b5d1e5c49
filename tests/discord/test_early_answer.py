"""A move at the table is acknowledged from its gateway frame (cogs._early): the deferred
update leaves before discord.py has parsed the click, only for a move the tables cog would
defer anyway; every other click is answered as before, and a move refused after its early
answer (a double click) is told so in a follow-up, the game unchanged."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.ops.priority import is_urgent
from bot.testing import FakeMessage, FakeUser
from tests.discord.conftest import World
from tests.discord.tablebot import (
    RAZZ_STAKES,
    cog,
    eventually,
    footer_state,
    razz_act_label,
    table_bot,
)


async def _heads_up(world: World, bot: Any) -> tuple[FakeMessage, FakeUser, FakeUser]:
    """Alice and Bob at a Razz table, hand 1 dealt: the table, who acts, who waits."""
    fake = world.fake
    reply = await (await fake.invoke(world.alice, world.channel, "razz", RAZZ_STAKES)).response()
    table = reply.message
    assert table is not None
    await (await fake.click_label(world.bob, table, "Join")).response()
    await (await fake.click_label(world.alice, table, "Start")).response()
    await eventually(lambda: razz_act_label(table) is not None, what="the bring-in")
    view = await bot.service.table_in_channel(world.channel.id)
    (uid,) = view.to_act_user_ids
    return (
        (table, world.alice, world.bob)
        if uid == world.alice.id
        else (table, world.bob, world.alice)
    )


async def test_a_move_is_acknowledged_from_its_frame_and_handled_after(world: World) -> None:
    fake = world.fake
    async with table_bot(world) as bot:
        table, actor, _ = await _heads_up(world, bot)
        urgent: list[bool] = []

        async def on_interaction(interaction: Any) -> None:
            urgent.append(is_urgent())

        bot.add_listener(on_interaction, "on_interaction")
        before, early = footer_state(table), cog(bot).answered_early
        label = razz_act_label(table)
        assert label is not None
        record = await fake.click_label(actor, table, label)
        reply = await record.response()
        assert reply.updated_message and not reply.ephemeral
        assert record.callback_type == 6  # a deferred update, then the table's edit
        assert cog(bot).answered_early == early + 1
        assert footer_state(table) > before
        # answered already: its handling queues as any other work (bot.ops.priority)
        assert urgent == [False]
        assert not cog(bot)._early  # taken by the click that it answered


async def test_a_move_out_of_turn_is_refused_at_once_not_answered_early(world: World) -> None:
    fake = world.fake
    async with table_bot(world) as bot:
        table, _, waiting = await _heads_up(world, bot)
        before, early = footer_state(table), cog(bot).answered_early
        label = razz_act_label(table)
        assert label is not None
        record = await fake.click_label(waiting, table, label)
        reply = await record.response()
        assert reply.ephemeral and "not your turn" in reply.content
        assert record.callback_type == 4  # the refusal is the answer itself
        assert cog(bot).answered_early == early
        assert footer_state(table) == before


async def test_a_double_click_of_a_move_acts_once(world: World) -> None:
    fake = world.fake
    async with table_bot(world) as bot:
        table, actor, _ = await _heads_up(world, bot)
        before = await bot.service.view(table_id_of(bot))
        label = razz_act_label(table)
        assert label is not None
        custom_id = str(table.button(label)["custom_id"])
        first, second = await asyncio.gather(
            fake.click(actor, table, custom_id), fake.click(actor, table, custom_id)
        )
        replies = [await first.response(), await second.response()]
        assert sorted(r.ephemeral for r in replies) == [False, True]
        refused = next(r for r in replies if r.ephemeral)
        assert refused.content  # told why, in a follow-up or as the answer
        after = await bot.service.view(table_id_of(bot))
        assert after.version == before.version + 1  # one move applied, not two
        assert first.latency is not None and second.latency is not None


async def test_an_early_answer_discord_refuses_changes_nothing(world: World) -> None:
    fake = world.fake
    async with table_bot(world) as bot:
        table, actor, _ = await _heads_up(world, bot)
        before = await bot.service.view(table_id_of(bot))
        fault = fake.inject(r"POST /interactions/\d+/[^/]+/callback", status=403, code=50001)
        label = razz_act_label(table)
        assert label is not None
        record = await fake.click_label(actor, table, label)
        await eventually(lambda: fault.hits == 1, what="the refused answer")
        await cog(bot).updates.idle()
        told = await record.response()  # the error handler's answer, as after a defer
        assert told.ephemeral and record.callback_type == 4
        assert (await bot.service.view(table_id_of(bot))).version == before.version
        assert not cog(bot)._early
        # the game goes on: the same move, clicked again, is applied
        again = await (await fake.click_label(actor, table, label)).response()
        assert again.updated_message and not again.ephemeral
        assert (await bot.service.view(table_id_of(bot))).version == before.version + 1


def table_id_of(bot: Any) -> int:
    (tid,) = cog(bot)._guild_of
    return int(tid)
