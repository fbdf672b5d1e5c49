"""Practice tables (issue 7 item 4) and ``/hand action:void`` (issue 7's ``/hand void``,
issue 5's ``/hand``) through the fake Discord, the real bot, service and store.

A practice table seats computer players (played by the service itself) in the empty seats
and plays with play chips: a whole Zoot game and a whole Razz hand finish with the human
clicking, and the league's ledger (rows and balances) is exactly as before."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest

from bot.app import HomeGameBot
from bot.store import Store
from bot.testing import FakeMessage, FakeUser
from tests.discord.conftest import World
from tests.discord.tablebot import HANG, eventually, field, footer_state, hand_dm, table_bot
from tests.discord.test_guts_games import window_open
from tests.discord.test_razz_table import STAKES, enabled


async def ledger_state(store: Store) -> tuple[int, list[tuple[int, int]]]:
    """The ledger's row count and every house and player account's balance (a table's pot
    account exists from its opening; a practice pot must stay empty: checked by the audit)."""
    async with store.read() as tx:
        count = await tx._one("SELECT COUNT(*) AS n FROM ledger")
        rows = await tx._all("SELECT id, balance FROM accounts WHERE kind != 'pot' ORDER BY id")
    assert count is not None
    return int(count["n"]), [(int(r["id"]), int(r["balance"])) for r in rows]


async def join_league(store: Store, world: World, users: list[FakeUser]) -> None:
    """The players already hold league chips (the first sit-down's grant is done)."""
    async with store.transaction() as tx:
        for user in users:
            await tx.wallet(world.guild.id, user.id)


async def hand_finished(bot: HomeGameBot, table_id: int, timeout: float = HANG) -> Any:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while loop.time() < end:
        async with bot.store.read() as tx:
            hands = await tx.hands(table_id)
        if hands and hands[0].status != "running":
            return hands[0]
        await asyncio.sleep(0.02)
    raise AssertionError("the practice hand does not finish")


async def open_practice(world: World, game: str, options: dict[str, Any]) -> FakeMessage:
    reply = await (
        await world.fake.invoke(world.alice, world.channel, game, {**options, "practice": True})
    ).response()
    table = reply.message
    assert table is not None and not reply.ephemeral, reply.content
    description = str(table.embeds[0].get("description", ""))
    assert "Practice table" in description and "(practice)" in str(table.embeds[0]["title"])
    return table


async def test_practice_zoot_game_with_computers_finishes_and_the_ledger_is_untouched(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    fake = world.fake
    async with table_bot(world, autostart_delay=30) as bot:
        service = bot.service
        assert service is not None
        await join_league(bot.store, world, [world.alice])
        before = await ledger_state(bot.store)
        table = await open_practice(world, "zoot", {"ante": 10})
        seats = field(table, "Seats") or ""
        # no computers: option -> computers fill the table to four players
        assert "alice" in seats and all(f"Computer {k}" in seats for k in (1, 2, 3)), seats
        assert (
            await (await fake.click_label(world.alice, table, "Start")).response()
        ).updated_message
        dm = await eventually(
            lambda: window_open(hand_dm(world, world.alice)) and hand_dm(world, world.alice),
            what="alice's first window",
        )
        click = await (await fake.click_label(world.alice, dm, "Lay down")).response()
        assert click.updated_message, click.content
        view = await service.table_in_channel(world.channel.id)
        assert view is not None and view.practice
        tid = view.table_id
        hand = await hand_finished(bot, tid)
        assert hand.status == "finished"
        await eventually(
            lambda: [
                m
                for m in fake.channel_messages(world.channel)
                if m is not table and (" wins " in m.content or " matches " in m.content)
            ],
            what="the practice game's result",
        )
        assert await ledger_state(bot.store) == before
        assert (await bot.store.audit(world.guild.id)).ok
        async with bot.store.read() as tx:
            pot = (await tx.table(tid)).pot_account
            assert await tx.balance(pot) == 0
    # nothing failed on the way (e.g. a DM to a computer player, who has no Discord user)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_practice_razz_hand_with_two_computers_finishes_and_the_ledger_is_untouched(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    fake = world.fake
    async with table_bot(world, autostart_delay=30) as bot:
        service = bot.service
        assert service is not None
        await join_league(bot.store, world, [world.alice, world.bob])
        before = await ledger_state(bot.store)
        table = await open_practice(world, "razz", {**STAKES, "computers": 2})
        seats = field(table, "Seats") or ""
        assert "Computer 2" in seats and "Computer 3" not in seats, seats
        await (await fake.click_label(world.alice, table, "Start")).response()
        view = await service.table_in_channel(world.channel.id)
        assert view is not None
        tid = view.table_id
        clicks = stale = 0
        loop = asyncio.get_running_loop()
        end = loop.time() + HANG  # a hang guard: computers on a busy machine play slower
        while True:
            async with bot.store.read() as tx:
                hands = await tx.hands(tid)
            if hands and hands[0].status != "running":
                break
            assert loop.time() < end, "the practice hand does not finish"
            view = await service.view(tid)
            if world.alice.id in view.to_act_user_ids:
                await eventually(lambda v=view: footer_state(table) == v.version, what="table")
                label = next(x for x in ("Call", "Check", "Bring in") if x in enabled(table))
                reply = await (await fake.click_label(world.alice, table, label)).response()
                if "earlier state" in reply.content:
                    # service.view() read while a computer's action was being committed
                    # (its new state, the old version): the next render has the new version
                    stale += 1
                    assert stale < 10
                    continue
                assert reply.updated_message, reply.content
                clicks += 1
            else:
                await asyncio.sleep(0.02)
        assert clicks >= 1 and hands[0].status == "finished"
        assert await ledger_state(bot.store) == before
        assert (await bot.store.audit(world.guild.id)).ok
        async with bot.store.read() as tx:
            pot = (await tx.table(tid)).pot_account
            assert await tx.balance(pot) == 0
    # nothing failed on the way (e.g. a DM to a computer player, who has no Discord user)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_computers_option_without_practice_is_refused_and_opens_nothing(
    world: World,
) -> None:
    async with table_bot(world) as bot:
        reply = await (
            await world.fake.invoke(world.alice, world.channel, "razz", {"computers": 2})
        ).response()
        assert reply.ephemeral and "practice" in reply.content
        assert bot.service is not None
        assert await bot.service.table_in_channel(world.channel.id) is None


async def test_hand_void_refuses_a_member_and_an_admin_void_returns_every_chip(
    world: World,
) -> None:
    fake = world.fake
    async with table_bot(world, autostart_delay=60) as bot:
        service, store = bot.service, bot.store
        assert service is not None
        view = await service.open_table(
            guild_id=world.guild.id,
            channel_id=world.channel.id,
            host_id=world.alice.id,
            host_name="alice",
            game="razz",
        )
        await service.join(view.table_id, world.bob.id, "bob")
        await service.join(view.table_id, world.carol.id, "carol")
        await service.start(view.table_id, world.alice.id)
        async with store.read() as tx:
            hand = await tx.running_hand(view.table_id)
            assert hand is not None
            pot = (await tx.table(view.table_id)).pot_account
            assert await tx.balance(pot) > 0

        # issue 5: /hand with no option still shows your own cards, to you only
        mine = await (await fake.invoke(world.bob, world.channel, "hand")).response()
        assert mine.ephemeral and (field(mine.message, "Down (only you)") or "—") != "—"  # type: ignore[arg-type]

        before = await ledger_state(store)
        refused = await (
            await fake.invoke(world.bob, world.channel, "hand", {"action": "void"})
        ).response()
        assert refused.ephemeral and "Manage Server" in refused.content
        assert await ledger_state(store) == before
        assert await service.hand_in_progress(view.table_id)

        done = await (
            await fake.invoke(world.alice, world.channel, "hand", {"action": "void"})
        ).response()
        assert "voided hand 1" in done.content
        async with store.read() as tx:
            assert (await tx.hand(hand.id)).status == "voided"
            assert await tx.balance(pot) == 0
            starting = (await tx.league(world.guild.id)).starting_chips
            for user in (world.alice, world.bob, world.carol):
                wallet = await tx.find_wallet(world.guild.id, user.id)
                assert wallet is not None and wallet.balance == starting
            voids = await tx.entries(hand_id=hand.id, kind="void")
            moved = await tx.entries(hand_id=hand.id)
        assert voids and all(e.actor_id == world.alice.id for e in voids)
        paid_in = sum(e.amount for e in moved if e.kind != "void" and e.to_account == pot)
        paid_out = sum(e.amount for e in moved if e.kind != "void" and e.from_account == pot)
        assert sum(e.amount for e in voids) == paid_in - paid_out > 0
        report = await store.audit(world.guild.id)
        assert report.ok, report.format()
