"""The countdown in a hand DM (DESIGN "What each user sees"): only a player who may act now
is shown "Time runs out"; a Razz DM is edited only when its own view changes, so a countdown
in a waiting player's DM would go stale. The table message shows the table's countdown to
everyone."""

from __future__ import annotations

import time

from bot.testing import FakeUser
from bot.testing.clock import VirtualClock
from tests.discord.conftest import World
from tests.discord.tablebot import cog, eventually, field, hand_dm, table_bot
from tests.discord.test_razz_table import open_razz, start_razz


def now_note(world: World, user: FakeUser) -> str:
    return field(hand_dm(world, user), "Now") or ""


def dealt(world: World, user: FakeUser) -> bool:
    return field(hand_dm(world, user), "Down (only you)") not in (None, "—")


async def test_razz_dm_countdown_shown_only_to_the_player_to_act(world: World) -> None:
    fake = world.fake
    players = [world.alice, world.bob, world.carol]
    by_id = {u.id: u for u in players}
    async with table_bot(world, autostart_delay=30) as bot:
        service = bot.service
        assert service is not None
        table, _ = await open_razz(world, players)
        await (await fake.click_label(world.alice, table, "Start")).response()
        view = await service.table_in_channel(world.channel.id)
        assert view is not None and view.deadline is not None
        (first_id,) = view.to_act_user_ids
        first = by_id[first_id]
        # RULES §4.5: the bring-in player acts first; only their DM counts down
        await eventually(lambda: "Time runs out" in now_note(world, first), what="countdown")
        for user in players:
            await eventually(lambda u=user: dealt(world, u), what=f"{user.name}'s cards")
            if user is not first:
                assert "Time runs out" not in now_note(world, user), user.name
        assert f"<t:{int(view.deadline)}:R>" in str(table.embeds[0].get("description"))

        reply = await (await fake.click_label(first, table, "Bring in")).response()
        assert reply.updated_message, reply.content
        view = await service.view(view.table_id)
        (second_id,) = view.to_act_user_ids
        second = by_id[second_id]
        # the next player's DM now counts down; the bring-in player's no longer does
        await eventually(lambda: "Time runs out" in now_note(world, second), what="2nd countdown")
        # the bring-in player's DM stops counting down with their next change, at the
        # latest when the countdown it shows ends (DM_SETTLE); the updater's idle() shows
        # what waits at once
        await cog(bot).updates.idle()
        assert "Time runs out" not in now_note(world, first)
        third = next(u for u in players if u not in (first, second))
        assert "Time runs out" not in now_note(world, third)


async def test_razz_click_acknowledged_first_then_dms_then_the_table_names_the_next_player(
    world: World,
) -> None:
    """A click is acknowledged first (even when Discord makes that wait: a 502, retried
    after a second, and nothing moves before it); then the DMs of the players whose view
    changed are edited; only then does the table message name the next player to act, so
    nobody is prompted before their DM shows their options and cards."""
    fake = world.fake
    players = [world.alice, world.bob, world.carol]
    by_id = {u.id: u for u in players}
    async with table_bot(world, autostart_delay=30) as bot:
        service = bot.service
        assert service is not None
        table, _ = await open_razz(world, players)
        await (await fake.click_label(world.alice, table, "Start")).response()
        for user in players:
            await eventually(lambda u=user: dealt(world, u), what=f"{user.name}'s cards")
        await cog(bot).updates.idle()
        view = await service.table_in_channel(world.channel.id)
        assert view is not None
        (first_id,) = view.to_act_user_ids
        first = by_id[first_id]
        dm_channels = {hand_dm(world, u).channel.id for u in players}
        before = len(fake.requests)
        answer = fake.inject(r"^POST /interactions/\d+/[^/]+/callback$", status=502)
        reply = await (await fake.click_label(first, table, "Bring in")).response()
        assert reply.updated_message and answer.hits == 1
        await cog(bot).updates.idle()
        made = fake.requests[before:]
        acked = next(
            i for i, r in enumerate(made) if r.path.endswith("/callback") and r.status < 300
        )
        dm_edits = [
            i
            for i, r in enumerate(made)
            if r.method == "PATCH" and int(r.path.split("/")[2]) in dm_channels
        ]
        table_edit = next(
            i
            for i, r in enumerate(made)
            if r.method == "PATCH" and r.path.endswith("/messages/@original")
        )
        shown = [(r.method, r.path, r.status) for r in made]
        # the bring-in player's options and the next player's changed: two DMs edited
        assert len(dm_edits) == 2, shown
        assert acked < min(dm_edits), shown
        # the next player's DM (their options arrive) goes before the table names them;
        # the bring-in player's (their options go away) need not wait for (nor hold up)
        # the table: it waits a moment to merge with their next change (DM_SETTLE)
        (second,) = (await service.view(view.table_id)).to_act_user_ids
        second_dm = hand_dm(world, by_id[second]).channel.id
        (prompt,) = [i for i in dm_edits if int(made[i].path.split("/")[2]) == second_dm]
        assert prompt < table_edit, shown
        assert all(r.method == "POST" for r in made[:acked]), shown  # only the 502'd tries


async def test_next_hand_dealt_by_the_timer_edits_the_dms_before_the_table_names_who_acts(
    world: World,
) -> None:
    """Not only a click's answer: when the table's timer deals the next hand, the new
    cards reach both DMs before the table message says whose turn it is."""
    fake = world.fake
    players = [world.alice, world.bob]
    by_id = {u.id: u for u in players}
    clock = VirtualClock(time.time())  # the next game's delay runs out when the test says
    async with table_bot(world, autostart_delay=1.0, clock=clock, sleep=clock.sleep) as bot:
        service = bot.service
        assert service is not None
        table, view, first = await start_razz(world, bot, players)
        tid = view.table_id
        await (await fake.click_label(first, table, "Bring in")).response()
        view = await service.view(tid)
        (second_id,) = view.to_act_user_ids
        await (await fake.click_label(by_id[second_id], table, "Fold")).response()
        # the result is shown (the DMs' "game over" waits for the next deal: DM_SETTLE)
        await eventually(lambda: "Next hand" in str(table.embeds[0].get("description")))
        assert (await service.view(tid)).hand_number == 1
        dm_channels = {hand_dm(world, u).channel.id for u in players}
        before = len(fake.requests)
        clock.advance(1.0)  # the timer deals game 2
        await eventually(lambda: "Hand 2" in str(table.embeds[0].get("description")))
        await cog(bot).updates.idle()
        made = fake.requests[before:]
        shown = [(r.method, r.path) for r in made]
        dm_edits = [
            i
            for i, r in enumerate(made)
            if r.method == "PATCH" and int(r.path.split("/")[2]) in dm_channels
        ]
        table_edits = [
            i
            for i, r in enumerate(made)
            if r.method == "PATCH" and r.path.endswith(f"/messages/{table.id}")
        ]
        assert len(dm_edits) == 2 and table_edits, shown
        assert max(dm_edits) < min(table_edits), shown
