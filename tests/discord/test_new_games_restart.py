"""The issue-13 games survive a bot restart (a new process on the same database): a
Hold'em hand with the amount menu and its modal open, a Stud hand, a HORSE table in the
middle of its Hold'em orbit and a dealer's-choice table waiting for the dealer's pick.
Buttons, menus and modals drawn by the old process work or are refused with a reason,
never left unanswered; the restored timers fire."""

from __future__ import annotations

import time

from bot.testing import FakeUser
from tests.discord.conftest import World
from tests.discord.tablebot import assert_all_acknowledged, eventually, footer_state, table_bot
from tests.discord.test_flop_games import amounts, open_table, wallets_match_the_table
from tests.discord.test_mixed_tables import (
    STAKES,
    Clock,
    balances_match_the_ledger,
    betting_hand,
    fresh_table,
    game_menu,
    hand_games,
    next_hand_started,
    play_hand,
    service,
)
from tests.discord.test_mixed_tables import open_table as open_mixed


async def test_holdem_hand_survives_a_restart_with_the_amount_menu_and_modal_open(
    world: World,
) -> None:
    fake = world.fake
    players = [world.alice, world.bob, world.carol]
    by_id: dict[int, FakeUser] = {u.id: u for u in players}
    async with table_bot(world, autostart_delay=30) as bot:
        table = await open_table(world, "holdem", {}, players)
        await (await fake.click_label(world.alice, table, "Start")).response()
        view = await service(bot).table_in_channel(world.channel.id)
        assert view is not None
        tid = view.table_id
        (uid,) = view.to_act_user_ids
        actor = by_id[uid]
        await eventually(lambda: footer_state(table) == view.version, what="table")
        menu = await amounts(world, actor, table, "Raise")
        modal = await fake.click_label(actor, menu, "Other amount…")
        assert (await modal.response()).modal is not None
    async with table_bot(world, seed=99, autostart_delay=30) as bot:
        again = await service(bot).view(tid)
        assert again.version == view.version and again.to_act_user_ids == {uid}
        # the modal opened before the restart is submitted now: answered, it acts
        submitted = await fake.submit_modal(actor, modal, {"amount": "30"})
        assert (await submitted.response()).content == "You raise to 30."
        raised = await service(bot).view(tid)
        assert raised.version > view.version
        # the amount menu drawn by the old process is stale now: refused with a reason
        label = next(str(b["label"]) for b in menu.buttons() if "Min" in str(b["label"]))
        reply = await (await fake.click_label(actor, menu, label)).response()
        assert reply.ephemeral and "not your turn" in reply.content.lower(), reply.content
        assert (await service(bot).view(tid)).version == raised.version
        await betting_hand(world, bot, tid)
        async with bot.store.read() as tx:
            (hand,) = await tx.hands(tid)
        assert hand.status == "finished"
        await wallets_match_the_table(bot, world, tid)
    assert_all_acknowledged(world)


async def test_stud_hand_survives_a_restart_and_goes_on(world: World) -> None:
    fake = world.fake
    players = [world.alice, world.bob, world.carol]
    async with table_bot(world, autostart_delay=30) as bot:
        table = await open_table(world, "stud", {}, players)
        await (await fake.click_label(world.alice, table, "Start")).response()
        view = await service(bot).table_in_channel(world.channel.id)
        assert view is not None and view.game == "stud"
        tid = view.table_id
        (uid,) = view.to_act_user_ids
        await eventually(lambda: footer_state(table) == view.version, what="table")
        labels = [str(b["label"]) for b in table.buttons() if not b.get("disabled")]
        label = next(x for x in ("Bring in", "Call", "Check") if x in labels)
        await (await fake.click_label(fake.users[uid], table, label)).response()
        before = await service(bot).view(tid)
    async with table_bot(world, seed=99, autostart_delay=30) as bot:
        again = await service(bot).view(tid)
        assert again.version == before.version and again.pot == before.pot
        assert again.to_act_user_ids == before.to_act_user_ids
        await betting_hand(world, bot, tid)
        async with bot.store.read() as tx:
            (hand,) = await tx.hands(tid)
        assert hand.status == "finished" and hand.game == "stud"
        await wallets_match_the_table(bot, world, tid)
    assert_all_acknowledged(world)


async def test_horse_table_restarted_mid_orbit_keeps_its_rotation(world: World) -> None:
    clock = Clock(world)
    games: list[str] = []
    async with table_bot(world, clock=clock.now) as bot:
        tid, players = await open_mixed(world, bot, "horse", STAKES)
        games.append(await play_hand(world, bot, tid, players))
        await next_hand_started(bot, tid, 1)
    async with table_bot(world, seed=99, clock=clock.now) as bot:
        view = await service(bot).view(tid)
        assert view.hand_number == 2 and view.game == "holdem" and view.to_act_user_ids
        message = await fresh_table(world, bot, tid)
        assert str(message.embeds[0]["title"]).startswith("HORSE: Fixed-limit Hold'em")
        for hand in (2, 3, 4):
            games.append(await play_hand(world, bot, tid, players))
            await balances_match_the_ledger(world, bot, tid)
            if hand < 4:
                await next_hand_started(bot, tid, hand)
        assert games == ["holdem", "holdem", "holdem", "omaha"]
        assert await hand_games(bot, tid) == games
    assert_all_acknowledged(world)


async def test_dealers_choice_waiting_for_the_pick_survives_restarts_menu_and_timeout(
    world: World,
) -> None:
    fake = world.fake
    clock = Clock(world)
    options = {"games": "razz stud", "choice_seconds": 30, **STAKES}
    async with table_bot(world, clock=clock.now) as bot:
        tid, players = await open_mixed(world, bot, "dealers-choice", options)
        await play_hand(world, bot, tid, players)
        message, menu = await game_menu(world, bot, tid)
        waiting = await service(bot).view(tid)
        assert waiting.mixed is not None and waiting.mixed.chooser is not None
    # restart 1: the old menu still works for the next dealer
    async with table_bot(world, seed=99, clock=clock.now) as bot:
        again = await service(bot).view(tid)
        assert again.mixed == waiting.mixed and again.deadline == waiting.deadline
        chooser = next(s.user_id for s in again.seats if s.seat == again.mixed.chooser)
        rec = await fake.select(fake.users[chooser], message, str(menu["custom_id"]), ["stud"])
        assert (await rec.response()).updated_message
        await next_hand_started(bot, tid, 1)
        assert (await service(bot).view(tid)).game == "stud"
        await play_hand(world, bot, tid, players)
        await game_menu(world, bot, tid)
        waiting = await service(bot).view(tid)
        assert waiting.mixed is not None and waiting.mixed.chooser is not None
        assert waiting.deadline is not None
    # restart 2 with the pick's deadline 2 s away: the restored timer deals the default
    offset = waiting.deadline - time.time() - 2.0
    clock.advance(offset - clock.offset)
    async with table_bot(world, seed=98, clock=clock.now) as bot:
        await next_hand_started(bot, tid, 2)
        after = await service(bot).view(tid)
        assert after.game == "stud" and any("did not pick in time" in r for r in after.recent)
        await balances_match_the_ledger(world, bot, tid)
    assert_all_acknowledged(world)


async def test_an_amount_button_drawn_before_a_restart_still_raises_after_it(
    world: World,
) -> None:
    fake = world.fake
    players = [world.alice, world.bob, world.carol]
    async with table_bot(world, autostart_delay=30) as bot:
        table = await open_table(world, "holdem", {}, players)
        await (await fake.click_label(world.alice, table, "Start")).response()
        view = await service(bot).table_in_channel(world.channel.id)
        assert view is not None
        (uid,) = view.to_act_user_ids
        actor = fake.users[uid]
        await eventually(lambda: footer_state(table) == view.version, what="table")
        menu = await amounts(world, actor, table, "Raise")
        label = next(str(b["label"]) for b in menu.buttons() if b["label"].startswith("Min: "))
    async with table_bot(world, seed=99, autostart_delay=30) as bot:
        reply = await (await fake.click_label(actor, menu, label)).response()
        assert reply.content == "You raise to 20." and not menu.buttons(), reply.content
        after = await service(bot).view(view.table_id)
        assert after.version > view.version and uid not in after.to_act_user_ids
        await wallets_match_the_table(bot, world, view.table_id)
    assert_all_acknowledged(world)
