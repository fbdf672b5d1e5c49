"""Issue 19, item 8: ``/league forget`` covers the open tables a member has left. Before,
it said "0 saved tables" and the open table kept "bob …" in its saved state and on its
table message until it closed. Now the open table is rewritten at once (in memory and in
its saved state), its message shows "forgotten member", and its next saves do not bring
the name back; the ledger stays as it was."""

from __future__ import annotations

from bot.store import FORGOTTEN
from tests.discord.conftest import World
from tests.discord.tablebot import cog, eventually, field, table_bot
from tests.discord.test_razz_table import play_razz_hand, start_razz
from tests.ops.test_forget_member import ledger_and_balances, stored_text


async def test_issue19_item8_forget_during_an_open_table_the_member_has_left(
    world: World,
) -> None:
    fake = world.fake
    players = [world.alice, world.bob, world.carol]
    async with table_bot(world, autostart_delay=600) as bot:
        table, view, _ = await start_razz(world, bot, players)
        await play_razz_hand(world, bot, table, view.table_id)  # to its end: bob is named
        left = await (await fake.click_label(world.bob, table, "Leave")).response()
        assert left.updated_message
        await cog(bot).updates.idle()
        assert "bob" in (field(table, "Recent") or "")
        assert '"bob"' in stored_text(world.db_path)
        ledger, balances = ledger_and_balances(world.db_path)

        reply = await (
            await fake.invoke(
                world.alice, world.channel, "league", {"member": world.bob}, subcommand="forget"
            )
        ).response()
        assert reply.ephemeral, reply.content
        assert "“bob”" in reply.content
        assert "in 1 saved table(s)" in reply.content  # the open one
        await cog(bot).updates.idle()
        # the saved state and the hand history, and the table message, no longer name him
        assert "bob" not in stored_text(world.db_path)
        await eventually(
            lambda: "bob" not in str(table.embeds[0]), what="the table message rewritten"
        )
        assert FORGOTTEN in (field(table, "Recent") or "")
        assert ledger_and_balances(world.db_path) == (ledger, balances)  # not a chip moved

        # the table plays on, and its next saves do not write the name back
        assert bot.service is not None
        live = await bot.service.view(view.table_id)
        assert live.status != "closed" and {s.user_id for s in live.seats} == {
            world.alice.id,
            world.carol.id,
        }
        joined = await (await fake.click_label(world.dave, table, "Join")).response()
        assert joined.updated_message  # a change, saved with the table's names
        await cog(bot).updates.idle()
        assert "bob" not in stored_text(world.db_path)
        assert (await bot.store.audit(world.guild.id)).ok
