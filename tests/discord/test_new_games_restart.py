"""The issue-13 games survive a bot restart (a new process on the same database): a
Hold'em hand with the amount menu and its modal open, a Stud hand, a HORSE table in the
middle of its Hold'em orbit and a dealer's-choice table waiting for the dealer's pick.
Buttons, menus and modals drawn by the old process work or are refused with a reason,
never left unanswered; the restored timers fire."""

from __future__ import annotations

import asyncio
import math

from bot.testing import FakeUser
from tests.discord.conftest import World
from tests.discord.tablebot import (
    assert_all_acknowledged,
    cog,
    eventually,
    footer_state,
    table_bot,
)
from tests.discord.test_flop_games import amounts, open_table, wallets_match_the_table
from tests.discord.test_mixed_tables import (
    STAKES,
    Clock,
    balances_match_the_ledger,
    betting_hand,
    clocked,
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
    async with clocked(world, clock) as bot:
        tid, players = await open_mixed(world, bot, "horse", STAKES)
        games.append(await play_hand(world, bot, tid, players))
        await next_hand_started(bot, tid, 1, clock)
    async with clocked(world, clock, seed=99) as bot:
        view = await service(bot).view(tid)
        assert view.hand_number == 2 and view.game == "holdem" and view.to_act_user_ids
        message = await fresh_table(world, bot, tid)
        assert str(message.embeds[0]["title"]).startswith("HORSE: Fixed-limit Hold'em")
        for hand in (2, 3, 4):
            games.append(await play_hand(world, bot, tid, players))
            await balances_match_the_ledger(world, bot, tid)
            if hand < 4:
                await next_hand_started(bot, tid, hand, clock)
        assert games == ["holdem", "holdem", "holdem", "omaha"]
        assert await hand_games(bot, tid) == games
    assert_all_acknowledged(world)


async def test_dealers_choice_waiting_for_the_pick_survives_restarts_menu_and_timeout(
    world: World,
) -> None:
    fake = world.fake
    clock = Clock(world)
    options = {"games": "razz stud", "choice_seconds": 30, **STAKES}
    async with clocked(world, clock) as bot:
        tid, players = await open_mixed(world, bot, "dealers-choice", options)
        await play_hand(world, bot, tid, players)
        message, menu = await game_menu(world, bot, tid)
        waiting = await service(bot).view(tid)
        assert waiting.mixed is not None and waiting.mixed.chooser is not None
    # restart 1: the old menu still works for the next dealer
    async with clocked(world, clock, seed=99) as bot:
        again = await service(bot).view(tid)
        assert again.mixed == waiting.mixed and again.deadline == waiting.deadline
        chooser = next(s.user_id for s in again.seats if s.seat == again.mixed.chooser)
        rec = await fake.select(fake.users[chooser], message, str(menu["custom_id"]), ["stud"])
        assert (await rec.response()).updated_message
        await next_hand_started(bot, tid, 1, clock)
        assert (await service(bot).view(tid)).game == "stud"
        await play_hand(world, bot, tid, players)
        await game_menu(world, bot, tid)
        waiting = await service(bot).view(tid)
        assert waiting.mixed is not None and waiting.mixed.chooser is not None
        assert waiting.deadline is not None
    # restart 2 with the pick's deadline 2 s away: the restored timer deals the default
    clock.advance(waiting.deadline - 2.0 - clock.now())
    async with clocked(world, clock, seed=98) as bot:
        assert (await service(bot).view(tid)).hand_number == 2  # still waiting for the pick
        clock.advance(2.0)
        await next_hand_started(bot, tid, 2)
        after = await service(bot).view(tid)
        assert after.game == "stud" and any("did not pick in time" in r for r in after.recent)
        await balances_match_the_ledger(world, bot, tid)
    assert_all_acknowledged(world)


async def test_item21_a_dealers_pick_whose_time_ran_out_while_the_bot_was_down_opens_again(
    world: World,
) -> None:
    """Issue 19, item 21, as the players meet it: the bot is down when the next dealer's
    time to pick runs out. At the restart the default game was dealt and the table said
    the dealer "did not pick in time"; now the window opens again for its full length (as
    every other window does after a restart), the channel is told, the dealer picks from
    the table's menu, and that game is dealt. Balances = ledger."""
    fake = world.fake
    clock = Clock(world)
    options = {"games": "razz stud", "choice_seconds": 30, **STAKES}
    async with clocked(world, clock) as bot:
        tid, players = await open_mixed(world, bot, "dealers-choice", options)
        await play_hand(world, bot, tid, players)
        message, menu = await game_menu(world, bot, tid)
        waiting = await service(bot).view(tid)
        assert waiting.mixed is not None and waiting.mixed.chooser is not None
        assert waiting.game == "razz" and waiting.deadline is not None
        await balances_match_the_ledger(world, bot, tid)
    # the bot is down for ten minutes: the 30-second window runs out meanwhile
    clock.advance(600)
    async with clocked(world, clock, seed=99) as bot:
        await cog(bot).updates.idle()
        again = await service(bot).view(tid)
        assert again.hand_number == 1, "the default game was dealt at the restart"
        assert again.mixed == waiting.mixed  # the same dealer still picks
        assert again.deadline == math.ceil(clock.now() + 30)  # the full window, from now
        said = [m.content for m in fake.channel_messages(world.channel)]
        assert not any("did not pick in time" in t for t in said)
        assert not any("did not pick in time" in r for r in again.recent)
        chooser = next(s for s in again.seats if s.seat == again.mixed.chooser)
        told = [t for t in said if "offline" in t and "fresh 30-second window" in t]
        assert len(told) == 1 and chooser.name in told[0], said
        # 29 s on, the window is still open; the dealer picks Stud from the menu (redrawn
        # with the fresh window's countdown)
        message, menu = await game_menu(world, bot, tid)
        assert again.mixed.chooser is not None and str(menu["custom_id"]).endswith("pick_game:h1")
        clock.advance(29)
        for _ in range(20):
            await asyncio.sleep(0)
        assert (await service(bot).view(tid)).hand_number == 1
        rec = await fake.select(
            fake.users[chooser.user_id], message, str(menu["custom_id"]), ["stud"]
        )
        assert (await rec.response()).updated_message
        await next_hand_started(bot, tid, 1, clock)
        dealt = await service(bot).view(tid)
        assert dealt.game == "stud" and dealt.dealer_seat == chooser.seat
        assert any(f"{chooser.name} deals Stud" in r for r in dealt.recent), dealt.recent
        await balances_match_the_ledger(world, bot, tid)
    assert_all_acknowledged(world)


async def test_item21_the_reopened_pick_window_still_runs_out_into_the_default(
    world: World,
) -> None:
    """The fresh window is a real one: when the dealer lets it run out too, the table
    deals the game just played and says so."""
    clock = Clock(world)
    options = {"games": "razz stud", "choice_seconds": 30, **STAKES}
    async with clocked(world, clock) as bot:
        tid, players = await open_mixed(world, bot, "dealers-choice", options)
        await play_hand(world, bot, tid, players)
        await game_menu(world, bot, tid)
    clock.advance(600)
    async with clocked(world, clock, seed=99) as bot:
        assert (await service(bot).view(tid)).hand_number == 1
        clock.advance(31)
        await next_hand_started(bot, tid, 1)
        after = await service(bot).view(tid)
        assert after.game == "razz" and any("did not pick in time" in r for r in after.recent)
        await balances_match_the_ledger(world, bot, tid)


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
