"""Issue 19, item 7: closing a table is ONE post, with each player's balance after the
refund. Before: a Zoot table closed with a carried pot kept showing the last game's stacks
(bob 890 on the closed table, 970 in his wallet), the refund was posted twice and after the
"closed" post, and every close said chips went back, also when none did."""

from __future__ import annotations

import re

from bot.app import HomeGameBot
from tests.discord.conftest import World
from tests.discord.tablebot import cog, dm_cards, eventually, field, hand_dm, table_bot
from tests.discord.test_guts_games import SCORE, choose_all, open_and_fill, window_open

BACK = re.compile(r"(went|go) back", re.IGNORECASE)


async def wallets(bot: HomeGameBot, world: World) -> dict[str, int]:
    out = {}
    async with bot.store.read() as tx:
        for user in world.players:
            wallet = await tx.find_wallet(world.guild.id, user.id)
            assert wallet is not None
            assert wallet.balance == await tx.ledger_balance(wallet.id)
            out[user.name] = wallet.balance
    return out


async def test_issue19_item7_a_closed_zoot_table_posts_once_with_balances_after_the_refund(
    world: World,
) -> None:
    fake = world.fake
    # the next game waits: the table is closed between games, with the matched pot standing
    async with table_bot(world, autostart_delay=600) as bot:
        table = await open_and_fill(world, "zoot")
        await (await fake.click_label(world.alice, table, "Start")).response()
        await eventually(lambda: all(window_open(hand_dm(world, u)) for u in world.players))
        hands = {u.name: dm_cards(world, u) for u in world.players}
        scores = {name: SCORE["zoot"](cards) for name, cards in hands.items()}
        loser = min(scores, key=lambda n: scores[n])
        assert scores[loser] < max(scores.values())
        await choose_all(world, {loser: "Lay down"})  # the challenger loses and matches 40
        assert bot.service is not None
        view = await bot.service.table_in_channel(world.channel.id)
        assert view is not None
        await eventually(
            lambda: any(
                "match" in (m.content or "").lower() for m in fake.channel_messages(world.channel)
            ),
            what="the showdown result",
        )
        async with bot.store.read() as tx:
            (match,) = await tx.entries(table_id=view.table_id, kind="match")
        assert match.amount == 40
        await cog(bot).updates.idle()
        posts_before = len(fake.channel_messages(world.channel))

        rec = await fake.invoke(world.alice, world.channel, "table", subcommand="end")
        reply = await rec.response()
        await cog(bot).updates.idle()
        balances = await wallets(bot, world)
        assert sum(balances.values()) == 4000  # every chip is back in a wallet

        # one closing post: the command's public answer, the refund and every balance in it
        assert not reply.ephemeral
        text = reply.content
        assert text.startswith(f"Table #{view.table_id} is closed.")
        assert "The pot's 40 chips went back to whoever paid them in" in text
        listed = dict(
            (name, int(amount.replace(",", "")))
            for name, amount in re.findall(r"(\w+) ([\d,]+)", text.split("Balances: ", 1)[1])
        )
        assert listed == balances
        new_posts = fake.channel_messages(world.channel)[posts_before:]
        about_chips = [m.content for m in new_posts if BACK.search(m.content or "")]
        assert about_chips == [text], about_chips

        # the closed table message shows the balances after the refund, not the game's stacks
        await eventually(
            lambda: "This table is closed." in table.embeds[0].get("description", ""),
            what="the closed table message",
        )
        seats = field(table, "Seats") or ""
        shown = {
            m[1]: int(m[2].replace(",", ""))
            for m in re.finditer(r"^(\w+)\s+([\d,]+)", seats.strip("`\n"), re.MULTILINE)
        }
        assert shown == balances, seats
        assert (await bot.store.audit(world.guild.id)).ok


async def test_issue19_item7_a_close_with_an_empty_pot_does_not_say_chips_went_back(
    world: World,
) -> None:
    fake = world.fake
    async with table_bot(world) as bot:
        table = await open_and_fill(world, "zoot")
        reply = await (
            await fake.invoke(world.alice, world.channel, "table", subcommand="end")
        ).response()
        await cog(bot).updates.idle()
        assert reply.content.startswith("Table #") and "No chips were in the pot." in reply.content
        assert not any(BACK.search(m.content or "") for m in fake.channel_messages(world.channel))
        assert "alice 1,000" in reply.content and "dave 1,000" in reply.content
        assert table.embeds  # the table message stays, closed


async def test_issue19_item7_everyone_leaving_closes_with_one_post(world: World) -> None:
    fake = world.fake
    async with table_bot(world) as bot:
        rec = await fake.invoke(world.alice, world.channel, "zoot")
        table = (await rec.response()).message
        assert table is not None
        await (await fake.click_label(world.bob, table, "Join")).response()
        for user in (world.bob, world.alice):
            await (await fake.click_label(user, table, "Leave")).response()
        await cog(bot).updates.idle()
        closing = [m.content for m in fake.channel_messages(world.channel) if "closed" in m.content]
        assert len(closing) == 1, closing
        assert "Everyone left. No chips were in the pot." in closing[0]
