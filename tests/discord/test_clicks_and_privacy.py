"""Refused clicks, closed DMs, restart and privacy, through the fake Discord with the real
bot, service and store."""

from __future__ import annotations

import asyncio

import discord

from bot.engine.cards import Card
from bot.testing.clock import VirtualClock
from tests.discord.conftest import World
from tests.discord.privacy import PrivacyRecorder, assert_private, privacy_leaks
from tests.discord.tablebot import (
    assert_all_acknowledged,
    dm_cards,
    eventually,
    field,
    hand_dm,
    table_bot,
)
from tests.discord.test_guts_games import open_and_fill, window_open


async def _ephemeral_reason(record_coro: object) -> str:
    rec = await record_coro  # type: ignore[misc]
    reply = await rec.response()
    assert reply.ephemeral and not reply.updated_message, reply
    assert not reply.content.startswith("Sorry"), reply.content
    return reply.content


async def _state(bot: object, table_id: int) -> tuple[int, int, int]:
    view = await bot.service.view(table_id)  # type: ignore[attr-defined]
    return view.version, view.pot, len(view.to_act_user_ids)


async def test_refused_clicks_get_an_ephemeral_reason_and_change_nothing(world: World) -> None:
    fake = world.fake
    async with table_bot(world) as bot:
        table = await open_and_fill(world, "zoot")
        assert bot.service is not None
        view = await bot.service.table_in_channel(world.channel.id)
        assert view is not None
        tid = view.table_id
        # a user not at the table
        before = await _state(bot, tid)
        reason = await _ephemeral_reason(fake.click_label(world.outsider, table, "My hand"))
        assert "not at this table" in reason
        reason = await _ephemeral_reason(fake.click_label(world.outsider, table, "Leave"))
        assert "not at this table" in reason
        # a seated player joining twice
        reason = await _ephemeral_reason(fake.click_label(world.bob, table, "Join"))
        assert "already" in reason
        assert await _state(bot, tid) == before

        await (await fake.click_label(world.alice, table, "Start")).response()
        await eventually(lambda: all(window_open(hand_dm(world, u)) for u in world.players))
        # My hand, answered ephemerally with the same controls
        mine = await (await fake.click_label(world.bob, table, "My hand")).response()
        assert mine.ephemeral and mine.message is not None
        assert field(mine.message, "Cards") == field(hand_dm(world, world.bob), "Cards")
        old_ephemeral = mine.message

        # a double click: two presses of the same button race; one is applied
        dm = hand_dm(world, world.bob)
        custom_id = str(dm.button("Play on")["custom_id"])
        first, second = await asyncio.gather(
            fake.click(world.bob, dm, custom_id), fake.click(world.bob, dm, custom_id)
        )
        replies = [await first.response(), await second.response()]
        assert sorted(r.updated_message for r in replies) == [False, True]
        refused = next(r for r in replies if not r.updated_message)
        assert refused.ephemeral and "already chosen" in refused.content

        # everyone else plays on: the exchange; then bob's old ephemeral is stale
        for user in (world.alice, world.carol, world.dave):
            await (await fake.click_label(user, hand_dm(world, user), "Play on")).response()
        await eventually(lambda: all(hand_dm(world, u).selects() for u in world.players))
        # a malformed select value (a client can send anything): refused, nothing changes
        before = await _state(bot, tid)
        carol_dm = hand_dm(world, world.carol)
        menu_id = str(carol_dm.selects()[0]["custom_id"])
        forged = fake._component_interaction(  # the public select() refuses unknown values
            world.carol,
            carol_dm,
            menu_id,
            {"custom_id": menu_id, "component_type": 3, "values": ["Zz"]},
        )
        reply = await forged.response()
        assert reply.ephemeral and "Zz" in reply.content
        assert await _state(bot, tid) == before
        for user in world.players:
            dm = hand_dm(world, user)
            menu = dm.selects()[0]
            rec = await fake.select(user, dm, menu["custom_id"], [menu["options"][0]["value"]])
            await rec.response()
        await eventually(lambda: all(window_open(hand_dm(world, u)) for u in world.players))
        before = await _state(bot, tid)
        reason = await _ephemeral_reason(fake.click_label(world.bob, old_ephemeral, "Play on"))
        assert "earlier state" in reason
        assert await _state(bot, tid) == before


async def test_closed_dms_told_once_then_my_hand_finishes_the_game(world: World) -> None:
    fake = world.fake
    fake.close_dms(world.dave)
    async with table_bot(world) as bot:
        table = await open_and_fill(world, "wheelers")
        told = await eventually(
            lambda: [m for m in fake.channel_messages(world.channel) if "My hand" in m.content]
        )
        assert len(told) == 1 and f"<@{world.dave.id}>" in told[0].content
        await (await fake.click_label(world.alice, table, "Start")).response()
        others = [world.alice, world.bob, world.carol]
        await eventually(lambda: all(window_open(hand_dm(world, u)) for u in others))
        assert fake.dms(world.dave) == []
        mine = await (await fake.click_label(world.dave, table, "My hand")).response()
        assert mine.ephemeral and mine.message is not None and field(mine.message, "Cards")
        # dave lays down from the ephemeral view (he covers the 40-chip pot)
        done = await (await fake.click_label(world.dave, mine.message, "Lay down")).response()
        assert done.updated_message and "lay down" in (
            field(done.message, "Your choice (secret)") or ""
        )  # type: ignore[arg-type]
        for user in others:
            await (await fake.click_label(user, hand_dm(world, user), "Play on")).response()
        result = await eventually(
            lambda: [
                m
                for m in fake.channel_messages(world.channel)
                if "lays down" in m.content.lower()
                or "wins" in m.content.lower()
                or "takes" in m.content.lower()
            ],
            what="a showdown result",
        )
        assert result
        told_again = [
            m for m in fake.channel_messages(world.channel) if "direct messages" in m.content
        ]
        assert len(told_again) == 1
        assert (await bot.store.audit(world.guild.id)).ok


def _card_texts(cards: list[Card]) -> list[str]:
    return [c.pretty for c in cards]


async def test_privacy_no_user_sees_another_users_hidden_cards_before_showdown(
    world: World,
) -> None:
    fake = world.fake
    recorder = PrivacyRecorder(clock=fake.clock)
    async with table_bot(world, relay=recorder) as bot:
        table = await open_and_fill(world, "zoot")
        await (await fake.click_label(world.alice, table, "Start")).response()
        hands = await eventually(lambda: {u.name: dm_cards(world, u) for u in world.players})
        for user in world.players:
            await (await fake.click_label(user, table, "My hand")).response()
        # every version of every message each user could see (channel, DMs, ephemerals)
        assert_private(fake, recorder, [*world.players, world.outsider])
        for viewer in [*world.players, world.outsider]:
            seen = "\n".join(v.text for v in fake.visible_to(viewer))
            for owner, cards in hands.items():
                if owner != viewer.name:
                    assert " ".join(_card_texts(cards)) not in seen, (viewer.name, owner)

        # the audit is not vacuous: one of bob's cards in the channel (pretty) and another
        # in carol's DM (as a code) are both caught, for every other viewer
        channel = bot.get_partial_messageable(world.channel.id)
        first, second = hands["bob"][:2]
        await channel.send(f"psst {first.pretty}")
        dm = await bot.create_dm(discord.Object(id=world.carol.id))
        await dm.send(f"bob holds {second}")
        leaks, _ = privacy_leaks(fake, recorder, [*world.players, world.outsider])
        found = {(leak.viewer, leak.card) for leak in leaks}
        assert found == {
            ("alice", str(first)),
            ("carol", str(first)),
            ("dave", str(first)),
            ("eve", str(first)),
            ("carol", str(second)),
        }


async def test_restart_mid_hand_old_buttons_work_timers_resume_and_the_hand_continues(
    world: World,
) -> None:
    fake = world.fake
    recorder = PrivacyRecorder(clock=fake.clock)
    async with table_bot(world, relay=recorder) as bot:
        table = await open_and_fill(world, "zoot")
        await (await fake.click_label(world.alice, table, "Start")).response()
        await eventually(lambda: all(window_open(hand_dm(world, u)) for u in world.players))
        for user in (world.alice, world.bob):
            await (await fake.click_label(user, hand_dm(world, user), "Play on")).response()
        assert bot.service is not None
        view = await bot.service.table_in_channel(world.channel.id)
        assert view is not None and view.deadline is not None
        hands = {u.name: dm_cards(world, u) for u in world.players}
        old_dms = {u.name: hand_dm(world, u).latest for u in world.players}
    # the process stops; a new one starts on the same database. Its clock is moved on so
    # the stored deadline of the lay-down window passes 2 s after the restart.
    # (a clock the test moves: the window runs out when the test says, however busy the
    # machine; before, 2 real seconds that a loaded machine could spend restarting)
    clock = VirtualClock(view.deadline - 2.0)
    async with table_bot(world, seed=99, relay=recorder, clock=clock, sleep=clock.sleep) as bot:
        assert bot.service is not None
        again = await bot.service.view(view.table_id)
        assert again.hand_number == view.hand_number and again.pot == view.pot
        assert again.deadline == view.deadline
        assert {u.name: dm_cards(world, u) for u in world.players} == hands
        # a button drawn by the old process still works (carol's DM was not redrawn)
        assert hand_dm(world, world.carol).latest is old_dms["carol"]
        rec = await fake.click_label(world.carol, hand_dm(world, world.carol), "Play on")
        assert (await rec.response()).updated_message
        # dave never chooses: the restored timer fires, the default happens, it is announced
        assert not [m for m in fake.channel_messages(world.channel) if "timed out" in m.content]
        clock.advance(2.0)
        notice = await eventually(
            lambda: [m for m in fake.channel_messages(world.channel) if "timed out" in m.content],
            what="the timeout announcement",
        )
        assert "dave" in notice[0].content
        await eventually(lambda: all(hand_dm(world, u).selects() for u in world.players))
        rec = await fake.click_label(world.bob, table, "My hand")
        assert (await rec.response()).ephemeral
        report = await bot.store.audit(world.guild.id)
        assert report.ok, report.format()
    assert_private(fake, recorder, [*world.players, world.outsider])
    assert_all_acknowledged(world)
