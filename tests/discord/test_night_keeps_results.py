"""Issue 19 items 4 and 20 through the fake Discord, as an organizer meets them.

Item 4: a night settled with ``/night end``, after which ``/leaderboard``, ``/stats`` and
its chart still show the night's results (the settle-up paid the money; the wallets went
back to where the night began). Item 20: ``/night end`` while a Razz hand at ``ante:0``
waits for its bring-in (an empty pot) is refused naming the table, the hand goes on, and
balances equal the ledger after each step."""

from __future__ import annotations

import re
from datetime import UTC, datetime

from bot.app import HomeGameBot
from bot.render.charts import render_balance_chart
from bot.testing import FakeUser
from tests.discord.conftest import World
from tests.discord.tablebot import table_bot
from tests.discord.test_night import play_hand
from tests.discord.test_razz_table import open_razz


async def ledger_balances(bot: HomeGameBot, world: World, users: list[FakeUser]) -> dict[str, int]:
    """Each wallet's balance, checked against its ledger rows, and the audit."""
    out = {}
    async with bot.store.read() as tx:
        for user in users:
            wallet = await tx.find_wallet(world.guild.id, user.id)
            assert wallet is not None
            assert wallet.balance == await tx.ledger_balance(wallet.id)
            out[user.name] = wallet.balance
    assert (await bot.store.audit(world.guild.id)).ok
    return out


async def test_a_settled_night_keeps_its_results_on_the_leaderboard_stats_and_chart(
    world: World,
) -> None:
    fake = world.fake
    players = [world.alice, world.bob, world.carol]
    async with table_bot(world, autostart_delay=0.2) as bot:
        await (
            await fake.invoke(world.alice, world.channel, "night", subcommand="start")
        ).response()
        table, _ = await open_razz(world, players)
        await (await fake.click_label(world.alice, table, "Start")).response()
        assert bot.service is not None
        view = await bot.service.table_in_channel(world.channel.id)
        assert view is not None
        await play_hand(world, bot, table, view.table_id, 1)
        await play_hand(world, bot, table, view.table_id, 2)
        closed = await (
            await fake.invoke(world.alice, world.channel, "table", subcommand="end")
        ).response()
        assert "is closed" in closed.content
        async with bot.store.read() as tx:
            nets: dict[int, int] = {}
            for hand in await tx.hands(view.table_id):
                if hand.status == "finished":
                    for r in await tx.hand_results(hand.id):
                        nets[r.user_id] = nets.get(r.user_id, 0) + r.net
        assert any(nets.values())
        end = await (
            await fake.invoke(world.alice, world.channel, "night", subcommand="end")
        ).response(timeout=15)
        assert "Night #1 is over" in end.content
        # the settle-up paid the money: every wallet is where the night began
        assert set((await ledger_balances(bot, world, players)).values()) == {1000}

        board = await (await fake.invoke(world.bob, world.channel, "leaderboard")).response()
        lines = {
            int(m[2]): (int(m[1]), int(m[3].replace(",", "")))
            for m in re.finditer(r"^(\d+)\. <@(\d+)>: net ([+-]?[\d,]+)", board.content, re.M)
        }
        assert {uid: net for uid, (_, net) in lines.items()} == {
            u.id: nets.get(u.id, 0) for u in players
        }
        order = sorted(players, key=lambda u: -nets.get(u.id, 0))
        assert lines[order[0].id][0] == 1 and lines[order[-1].id][0] > 1, board.content

        winner = order[0]
        shown = await (await fake.invoke(winner, world.channel, "stats")).response(timeout=15)
        assert f"net +{nets[winner.id]:,}" in shown.content, shown.content
        (chart,) = [a for a in shown.attachments if a.filename == "balance.png"]
        async with bot.store.read() as tx:
            wallet = await tx.find_wallet(world.guild.id, winner.id)
            assert wallet is not None
            played = await tx.balance_points(wallet.id, payments=False)
        assert played[-1][1] == 1000 + nets[winner.id]
        expected = render_balance_chart(
            [(datetime.fromtimestamp(at, UTC), b) for at, b in played],
            title=f"{winner.name}: balance as played, season 1",
        )
        assert chart.data == expected


async def test_night_end_during_a_bring_in_is_refused_and_the_hand_goes_on(world: World) -> None:
    fake = world.fake
    players = [world.alice, world.bob, world.carol]
    async with table_bot(world, autostart_delay=0.2) as bot:
        stakes = {"ante": 0, "bring_in": 2, "small_bet": 4, "big_bet": 8}
        reply = await (await fake.invoke(world.alice, world.channel, "razz", stakes)).response()
        table = reply.message
        assert table is not None
        for user in players[1:]:
            await (await fake.click_label(user, table, "Join")).response()
        await (await fake.click_label(world.alice, table, "Start")).response()
        assert bot.service is not None
        view = await bot.service.table_in_channel(world.channel.id)
        assert view is not None and view.to_act_user_ids
        async with bot.store.read() as tx:
            assert sum(c.amount for c in await tx.pot_contributions(view.table_id)) == 0
        before = await ledger_balances(bot, world, players)
        # /settle record: for the season, before the night: refused, naming the table
        season = await (
            await fake.invoke(
                world.alice, world.channel, "settle", {"period": "season", "record": True}
            )
        ).response()
        assert season.ephemeral and f"table #{view.table_id}" in season.content, season.content
        await (
            await fake.invoke(world.alice, world.channel, "night", subcommand="start")
        ).response()

        refused = await (
            await fake.invoke(world.alice, world.channel, "night", subcommand="end")
        ).response()
        assert refused.ephemeral, refused.content
        assert f"table #{view.table_id}" in refused.content
        assert f"<#{world.channel.id}>" in refused.content
        assert "Nothing was changed" in refused.content
        record = await (
            await fake.invoke(world.alice, world.channel, "settle", {"record": True})
        ).response()
        assert record.ephemeral and "Nothing was changed" in record.content
        async with bot.store.read() as tx:
            assert await tx.open_night(world.guild.id) is not None
            assert await tx.entries(guild_id=world.guild.id, kind="settle") == []
        assert await ledger_balances(bot, world, players) == before
        # the hand goes on exactly as before: the bring-in is still to act
        after = await bot.service.view(view.table_id)
        assert after.to_act_user_ids == view.to_act_user_ids
        assert after.version == view.version
