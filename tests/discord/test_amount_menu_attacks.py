"""The Hold'em Bet/Raise amount menu attacked as users and Discord would (issue 13): junk
typed in the modal, an empty one the client refuses, an amount too big, a press by a player
whose turn it is not, a menu of an earlier turn, a double click on one amount button, and a
short stack that cannot raise. Each refusal is a clear ephemeral answer, changes nothing,
and the turn's timer still fires afterwards."""

from __future__ import annotations

import asyncio
import time

import pytest

from bot.tables.views import TableView
from bot.testing import FakeDiscordError, FakeMessage, FakeUser
from bot.testing.clock import VirtualClock
from tests.discord.conftest import World
from tests.discord.tablebot import assert_all_acknowledged, eventually, footer_state, table_bot
from tests.discord.test_flop_games import (
    amounts,
    open_table,
    table_recent,
    type_amount,
    wallets_match_the_table,
)
from tests.discord.test_razz_table import enabled, short_stack


def seat_put(view: TableView, user_id: int) -> int:
    return next(s.stack for s in view.seats if s.user_id == user_id)


def unchanged(after: TableView, before: TableView) -> None:
    assert after.version == before.version and after.to_act_user_ids == before.to_act_user_ids
    assert after.deadline == before.deadline and after.pot == before.pot


async def press(world: World, user: FakeUser, message: FakeMessage, label: str) -> str:
    reply = await (await world.fake.click_label(user, message, label)).response()
    assert reply.ephemeral, reply.content
    return reply.content


async def test_amount_menu_junk_stale_other_player_and_double_click_refused_timer_fires(
    world: World,
) -> None:
    fake = world.fake
    players = [world.alice, world.bob, world.carol]
    by_id = {u.id: u for u in players}
    clock = VirtualClock(time.time())  # the 10-second window runs out when the test says
    async with table_bot(world, autostart_delay=30, clock=clock, sleep=clock.sleep) as bot:
        service = bot.service
        assert service is not None
        # no time bank (issue 22): the default action comes when the 10 seconds run out
        table = await open_table(world, "holdem", {"decision_seconds": 10, "time_bank": 0}, players)
        await (await fake.click_label(world.alice, table, "Start")).response()
        view = await service.table_in_channel(world.channel.id)
        assert view is not None
        tid = view.table_id
        (uid,) = view.to_act_user_ids
        actor = by_id[uid]
        other = next(u for u in players if u is not actor)
        await eventually(lambda: footer_state(table) == view.version, what="table")
        # a player whose turn it is not presses Raise
        assert await press(world, other, table, "Raise") == "It is not your turn. Nothing changed."
        unchanged(await service.view(tid), view)
        menu = await amounts(world, actor, table, "Raise")
        for junk in ("abc", "-5", "1e9", "12k", "½", "²", "4①"):
            answer = await type_amount(world, actor, menu, junk)
            assert "is not a number of chips" in answer and "Nothing changed." in answer, junk
            unchanged(await service.view(tid), view)
        with pytest.raises(FakeDiscordError, match="required"):
            await type_amount(world, actor, menu, "")  # the client keeps the modal open
        answer = await type_amount(world, actor, menu, "999999999999")
        assert answer.startswith("Raise to between 20 and ") and "Nothing changed." in answer
        unchanged(await service.view(tid), view)
        # padded digits are an amount
        assert await type_amount(world, actor, menu, "  40 ") == "You raise to 40."
        raised = await service.view(tid)
        assert raised.version > view.version and uid not in raised.to_act_user_ids
        # the menu of that turn is stale now: its buttons and its modal are refused
        min_label = next(str(b["label"]) for b in menu.buttons() if "Min" in str(b["label"]))
        assert await press(world, actor, menu, min_label) == "It is not your turn. Nothing changed."
        assert (
            await press(world, actor, menu, "Other amount…")
            == "It is not your turn. Nothing changed."
        )
        unchanged(await service.view(tid), raised)
        # the next player double-clicks one amount button: one raise, one refusal
        (nxt_id,) = raised.to_act_user_ids
        nxt = by_id[nxt_id]
        await eventually(lambda: footer_state(table) == raised.version, what="table")
        menu = await amounts(world, nxt, table, "Raise")
        label = next(str(b["label"]) for b in menu.buttons() if "Min" in str(b["label"]))
        modal = await fake.click_label(nxt, menu, "Other amount…")  # left open for now
        assert (await modal.response()).modal is not None
        first = await fake.click_label(nxt, menu, label)
        second = await fake.click_label(nxt, menu, label)
        answers = sorted(
            (r.content for r in await asyncio.gather(first.response(), second.response())),
            key=len,
        )
        assert answers[0] == "You raise to 70.", answers
        assert "earlier state" in answers[1], answers
        twice = await service.view(tid)
        already = next(s.bet for s in raised.seats if s.user_id == nxt_id)
        assert twice.pot == raised.pot + 70 - already and twice.version > raised.version
        # the modal opened before that raise is submitted now: stale, refused
        submitted = await fake.submit_modal(nxt, modal, {"amount": "300"})
        answer = (await submitted.response()).content
        assert "not your turn" in answer.lower() or "earlier state" in answer, answer
        unchanged(await service.view(tid), twice)
        # after all these refusals the turn's timer still fires: the next player folds
        (last_id,) = twice.to_act_user_ids
        last = by_id[last_id]
        clock.advance(10)  # the whole window, not a second more
        await eventually(
            lambda: any(f"{last.name} folds (timed out)" in r for r in table_recent(table)),
            what="the timeout",
        )
        await wallets_match_the_table(bot, world, tid)
    assert_all_acknowledged(world)


async def test_a_short_stack_facing_a_raise_cannot_raise_and_calls_all_in_for_less(
    world: World,
) -> None:
    fake = world.fake
    players = [world.alice, world.bob, world.carol]
    by_id = {u.id: u for u in players}
    async with table_bot(world, autostart_delay=30) as bot:
        service = bot.service
        assert service is not None
        table = await open_table(world, "holdem", {"decision_seconds": 10}, players)
        view = await service.table_in_channel(world.channel.id)
        assert view is not None
        tid = view.table_id
        # Carol (the button) acts first three-handed: she raises to 200; the blinds hold 40
        for user in (world.alice, world.bob):
            await short_stack(bot, world, user, 40)
        await (await fake.click_label(world.alice, table, "Start")).response()
        view = await service.view(tid)
        (uid,) = view.to_act_user_ids
        actor = by_id[uid]
        assert actor is world.carol
        await eventually(lambda: footer_state(table) == view.version, what="table")
        menu = await amounts(world, actor, table, "Raise")
        assert await type_amount(world, actor, menu, "200") == "You raise to 200."
        view = await service.view(tid)
        (uid,) = view.to_act_user_ids
        user = by_id[uid]
        await eventually(lambda: footer_state(table) == view.version, what="table")
        assert "Raise" not in enabled(table)
        # 40 cannot raise a raise to 200: Raise is gone, Call is all in for less
        assert "Raise" not in enabled(table) and "Call" in enabled(table)
        assert (await (await fake.click_label(user, table, "Call")).response()).updated_message
        after = await service.view(tid)
        seat = next(s for s in after.seats if s.user_id == user.id)
        assert seat.stack == 0 and after.pot == view.pot + seat_put(view, user.id)
        await wallets_match_the_table(bot, world, tid)
    assert_all_acknowledged(world)
