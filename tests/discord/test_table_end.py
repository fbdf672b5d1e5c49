"""``/table end`` (RULES 1.10) through the fake Discord: the table message shows the closed
state (no buttons), the hand DMs lose their controls, and nothing fails in the log."""

from __future__ import annotations

import logging

import pytest

from tests.discord.conftest import World
from tests.discord.tablebot import eventually, hand_dm, table_bot
from tests.discord.test_guts_games import open_and_fill, window_open


async def test_rule_1_10_table_end_mid_hand_edits_the_table_message_to_closed(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    fake = world.fake
    caplog.set_level(logging.WARNING)
    async with table_bot(world) as bot:
        table = await open_and_fill(world, "zoot")
        await (await fake.click_label(world.alice, table, "Start")).response()
        await eventually(lambda: all(window_open(hand_dm(world, u)) for u in world.players))
        rec = await fake.invoke(world.alice, world.channel, "table", subcommand="end")
        reply = await rec.response()
        assert not reply.ephemeral and "is closed" in reply.content
        await eventually(
            lambda: "This table is closed." in table.embeds[0].get("description", ""),
            what="the table message in its closed state",
        )
        assert table.buttons() == []
        await eventually(lambda: all(not hand_dm(world, u).buttons() for u in world.players))
        assert all("closed" in hand_dm(world, u).content for u in world.players)
        assert (await bot.store.audit(world.guild.id)).ok
    failures = [r for r in caplog.records if r.name.startswith("homegame")]
    assert failures == [], [r.getMessage() for r in failures]
