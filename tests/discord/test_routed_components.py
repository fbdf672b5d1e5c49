"""The table buttons and the discard menu are routed by their custom_id (cogs._items
route_component), not by discord.py's view store: a click reaches the tables cog without a
view rebuilt from the message, and no copy of a table message's or hand DM's view is kept
per message, however many times they are edited."""

from __future__ import annotations

from tests.discord.conftest import World
from tests.discord.tablebot import (
    RAZZ_STAKES,
    eventually,
    footer_state,
    hand_dm,
    razz_act_label,
    table_bot,
)

STAKES = RAZZ_STAKES


async def test_table_clicks_keep_no_view_per_message_in_discord_py(world: World) -> None:
    fake = world.fake
    players = {world.alice.id: world.alice, world.bob.id: world.bob}
    async with table_bot(world) as bot:
        reply = await (await fake.invoke(world.alice, world.channel, "razz", STAKES)).response()
        table = reply.message
        assert table is not None
        await (await fake.click_label(world.bob, table, "Join")).response()
        await (await fake.click_label(world.alice, table, "Start")).response()
        assert bot.service is not None
        clicks = 0
        while clicks < 6:
            view = await bot.service.table_in_channel(world.channel.id)
            assert view is not None
            label = razz_act_label(table)
            if not view.to_act_user_ids or label is None:
                before = table.latest
                await eventually(lambda b=before: table.latest is not b, what="the next deal")
                continue
            (uid,) = view.to_act_user_ids
            before = footer_state(table)
            reply = await (await fake.click_label(players[uid], table, label)).response()
            assert not reply.ephemeral, reply.message and reply.message.content
            await eventually(lambda b=before: footer_state(table) > b, what="the table edit")
            clicks += 1
        dms = [hand_dm(world, world.alice).id, hand_dm(world, world.bob).id]
        store = bot._connection._view_store
        for message_id in (table.id, *dms):
            assert message_id not in store._synced_message_views
            assert message_id not in store._views
        # the league's menus are still DynamicItems; the table controls are not among them
        routed = [c.__name__ for c in store._dynamic_items.values()]
        assert "TableButton" not in routed and "DiscardSelect" not in routed
