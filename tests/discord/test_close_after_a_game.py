"""Issue 12, item 8: closing a table after a game, through the fake Discord. The host asks
``/table end`` once the next game has been dealt: that game is voided, and the table
message and every player's hand DM end in a clean closed state (the DMs do not keep the
voided game's cards and "beats …%", the table message ends with what went back, not with
"alice antes 10")."""

from __future__ import annotations

from tests.discord.conftest import World
from tests.discord.tablebot import eventually, field, hand_dm, table_bot
from tests.discord.test_guts_games import choose_all, open_and_fill, window_open


async def test_table_closed_after_the_next_game_was_dealt_ends_clean_with_the_refunds(
    world: World,
) -> None:
    fake = world.fake
    async with table_bot(world, autostart_delay=0.2) as bot:
        table = await open_and_fill(world, "zoot")
        await (await fake.click_label(world.alice, table, "Start")).response()
        await eventually(lambda: all(window_open(hand_dm(world, u)) for u in world.players))
        await choose_all(world, {"alice": "Lay down"})  # game 1 ends at the showdown
        await eventually(
            lambda: (
                "Game 2" in table.embeds[0].get("description", "")
                and all(window_open(hand_dm(world, u)) for u in world.players)
            ),
            what="game 2 dealt and shown",
        )
        rec = await fake.invoke(world.alice, world.channel, "table", subcommand="end")
        assert "is closed" in (await rec.response()).content
        await eventually(
            lambda: "This table is closed." in table.embeds[0].get("description", ""),
            what="the table message in its closed state",
        )
        recent = (field(table, "Recent") or "").splitlines()
        assert recent[-1].startswith("Table closed"), recent
        assert "voided as the table closed" in recent[-2], recent
        assert not any("antes" in line for line in recent[-2:])
        for user in world.players:
            dm = await eventually(
                lambda user=user: "closed" in hand_dm(world, user).content and hand_dm(world, user),
                what=f"{user.name}'s DM closed",
            )
            assert not dm.buttons() and not dm.selects()
            assert "voided" in dm.content
            assert field(dm, "Cards") is None and field(dm, "Strength") is None, dm.embeds
            assert not dm.attachments
        posts = [m.content for m in fake.channel_messages(world.channel)]
        assert any("voided as the table closed" in p for p in posts)
        assert (await bot.store.audit(world.guild.id)).ok
