"""Admin voids, ``/table end`` and two tables at once with the issue-13 games, through the
fake Discord: a Hold'em hand voided after a typed raise gives back every chip; a HORSE
hand voided by ``/league void`` is dealt again by the same dealer in the same game, and the
orbit goes on; ``/table end`` in the middle of an Omaha hand refunds the pot; a Hold'em
and a Stud table run side by side in two channels, a player of one refused at the other
(one live league table per member)."""

from __future__ import annotations

import logging

import pytest

from bot.app import HomeGameBot
from bot.testing import FakeMessage
from tests.discord.conftest import World
from tests.discord.tablebot import assert_all_acknowledged, eventually, footer_state, table_bot
from tests.discord.test_flop_games import amounts, open_table, type_amount
from tests.discord.test_mixed_tables import (
    STAKES,
    Clock,
    balances_match_the_ledger,
    betting_hand,
    clocked,
    fresh_table,
    hand_games,
    next_hand_started,
    play_hand,
    service,
)
from tests.discord.test_mixed_tables import open_table as open_mixed


async def wallets(bot: HomeGameBot, world: World, users: list) -> dict[str, int]:  # type: ignore[type-arg]
    async with bot.store.read() as tx:
        return {u.name: (await tx.wallet(world.guild.id, u.id)).balance for u in users}


async def raise_and_call(world: World, bot: HomeGameBot, table: FakeMessage, tid: int) -> None:
    """The first to act types a raise to 30, the next calls: chips are in the pot."""
    fake = world.fake
    view = await service(bot).view(tid)
    (uid,) = view.to_act_user_ids
    await eventually(lambda: footer_state(table) == view.version, what="table")
    menu = await amounts(world, fake.users[uid], table, "Raise")
    assert await type_amount(world, fake.users[uid], menu, "30") == "You raise to 30."
    view = await service(bot).view(tid)
    (uid,) = view.to_act_user_ids
    await eventually(lambda: footer_state(table) == view.version, what="table")
    assert (await (await fake.click_label(fake.users[uid], table, "Call")).response()).content == ""


async def test_hand_void_mid_holdem_hand_gives_every_chip_back_and_the_table_goes_on(
    world: World,
) -> None:
    fake = world.fake
    players = [world.alice, world.bob, world.carol]
    async with table_bot(world, autostart_delay=0.2) as bot:
        table = await open_table(world, "holdem", {}, players)
        start = await wallets(bot, world, players)
        await (await fake.click_label(world.alice, table, "Start")).response()
        view = await service(bot).table_in_channel(world.channel.id)
        assert view is not None
        tid = view.table_id
        await raise_and_call(world, bot, table, tid)
        assert (await service(bot).view(tid)).pot >= 65
        done = await (
            await fake.invoke(world.alice, world.channel, "hand", {"action": "void"})
        ).response()
        assert "voided hand 1" in done.content, done.content
        assert await wallets(bot, world, players) == start
        await balances_match_the_ledger(world, bot, tid)
        # the table deals on: hand 2 is played to the end
        await next_hand_started(bot, tid, 1)
        await betting_hand(world, bot, tid)
        await balances_match_the_ledger(world, bot, tid)
        async with bot.store.read() as tx:
            statuses = [h.status for h in await tx.hands(tid)]
        assert statuses[:2] == ["voided", "finished"], statuses
    assert_all_acknowledged(world)


async def test_league_void_mid_horse_hand_deals_it_again_and_the_orbit_goes_on(
    world: World,
) -> None:
    clock = Clock(world)
    async with clocked(world, clock) as bot:
        tid, players = await open_mixed(world, bot, "horse", STAKES)
        for hand in (1, 2):
            await play_hand(world, bot, tid, players)
            await next_hand_started(bot, tid, hand, clock)
        third = await service(bot).view(tid)
        assert third.game == "holdem" and third.hand_number == 3
        # what each held before hand 3: its stack now and its blind in the pot
        before = {
            u.name: (await wallets(bot, world, [u]))[u.name]
            + next(s.bet for s in third.seats if s.user_id == u.id)
            for u in players
        }
        # hand 3 (the orbit's last Hold'em) has blinds and a call in; the admin voids it
        table = await fresh_table(world, bot, tid)
        (uid,) = third.to_act_user_ids
        rec = await world.fake.click_label(world.fake.users[uid], table, "Call")
        assert (await rec.response()).updated_message
        done = await (
            await world.fake.invoke(world.alice, world.channel, "league", subcommand="void")
        ).response()
        assert "voided hand 3" in done.content, done.content
        assert await wallets(bot, world, players) == before
        await balances_match_the_ledger(world, bot, tid)
        # the voided hand's dealer deals again, Hold'em again; then the orbit is over
        await next_hand_started(bot, tid, 3, clock)
        again = await service(bot).view(tid)
        assert again.game == "holdem" and again.dealer_seat == third.dealer_seat
        await play_hand(world, bot, tid, players)
        await next_hand_started(bot, tid, 4, clock)
        assert (await service(bot).view(tid)).game == "omaha"
        assert await hand_games(bot, tid) == ["holdem"] * 4 + ["omaha"]
        await balances_match_the_ledger(world, bot, tid)
    assert_all_acknowledged(world)


async def test_table_end_mid_omaha_hand_refunds_the_pot_and_closes(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    fake = world.fake
    caplog.set_level(logging.WARNING)
    players = [world.alice, world.bob, world.carol]
    async with table_bot(world, autostart_delay=30) as bot:
        table = await open_table(world, "omaha", {}, players)
        start = await wallets(bot, world, players)
        await (await fake.click_label(world.alice, table, "Start")).response()
        view = await service(bot).table_in_channel(world.channel.id)
        assert view is not None
        tid = view.table_id
        await raise_and_call(world, bot, table, tid)
        reply = await (
            await fake.invoke(world.alice, world.channel, "table", subcommand="end")
        ).response()
        assert not reply.ephemeral and "is closed" in reply.content, reply.content
        await eventually(
            lambda: "This table is closed." in table.embeds[0].get("description", ""),
            what="the closed table message",
        )
        assert not [b for b in table.buttons() if not b.get("disabled")]
        assert await wallets(bot, world, players) == start
        report = await bot.store.audit(world.guild.id)
        assert report.ok, report.format()
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert_all_acknowledged(world)


async def test_holdem_and_stud_tables_side_by_side_one_league_table_per_member(
    world: World,
) -> None:
    fake = world.fake
    second = fake.add_channel(world.guild, "poker-2")
    async with table_bot(world, autostart_delay=30) as bot:
        holdem = await open_table(world, "holdem", {}, [world.alice, world.bob])
        reply = await (await fake.invoke(world.carol, second, "stud", {})).response()
        stud = reply.message
        assert stud is not None and not reply.ephemeral
        assert (await (await fake.click_label(world.dave, stud, "Join")).response()).updated_message
        # Bob plays Hold'em next door: the Stud table refuses him, naming where he plays
        refused = await (await fake.click_label(world.bob, stud, "Join")).response()
        assert refused.ephemeral and f"<#{world.channel.id}>" in refused.content, refused.content
        h_view = await service(bot).table_in_channel(world.channel.id)
        s_view = await service(bot).table_in_channel(second.id)
        assert h_view is not None and s_view is not None
        assert [s.name for s in s_view.seats] == ["carol", "dave"]
        await (await fake.click_label(world.alice, holdem, "Start")).response()
        await (await fake.click_label(world.carol, stud, "Start")).response()
        # the two hands, click by click in turn, each to its end
        for _ in range(60):
            moved = False
            for tid, message in ((h_view.table_id, holdem), (s_view.table_id, stud)):
                view = await service(bot).view(tid)
                if view.hand_number != 1 or not view.to_act_user_ids:
                    continue
                (uid,) = view.to_act_user_ids
                await eventually(lambda m=message, v=view: footer_state(m) == v.version)
                labels = [str(b["label"]) for b in message.buttons() if not b.get("disabled")]
                label = next(x for x in ("Check", "Call", "Bring in") if x in labels)
                rec = await fake.click_label(fake.users[uid], message, label)
                assert (await rec.response()).updated_message
                moved = True
            if not moved:
                break
        async with bot.store.read() as tx:
            done = [h.status for t in (h_view, s_view) for h in await tx.hands(t.table_id)]
        assert done == ["finished", "finished"]
        for tid in (h_view.table_id, s_view.table_id):
            await balances_match_the_ledger(world, bot, tid)
    assert_all_acknowledged(world)
