"""``/night schedule`` through the fake Discord (issue 21 item 9): refused in one line
without the Create Events permission; then a Discord scheduled event (as the fake's routes
check it) and an invitation with **In** / **Maybe** / **Out** and the count; the league's
``timezone:`` reads the time; the DM reminder goes to the In players an hour before, from a
bot restarted since (the clock is moved, nothing waits), and never twice; ``/night start``
on that day links the event and starts it, ``/night end`` completes it."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from bot.testing import DEFAULT_BOT_PERMISSIONS
from bot.testing.clock import VirtualClock
from bot.testing.fake_events import ACTIVE, COMPLETED, CREATE_EVENTS, EXTERNAL, GUILD_ONLY
from tests.discord.conftest import World
from tests.discord.nightbot import answer, night_bot, refused
from tests.discord.tablebot import eventually

BERLIN = ZoneInfo("Europe/Berlin")


def counts(content: str) -> str:
    return content.rsplit("· In", 1)[1] if "· In" in content else content


async def test_a_scheduled_night_invites_reminds_after_a_restart_and_links_the_night(
    world: World,
) -> None:
    fake = world.fake
    alice, bob, carol, dave, eve = world.alice, world.bob, world.carol, world.dave, world.outsider
    clock = VirtualClock(now=time.time())

    def advance(seconds: float) -> None:
        fake.advance(seconds)  # Discord's clock (message ages, the event's "future")
        clock.advance(seconds)  # the bot's (the reminder's time)

    # tomorrow at 20:00 in Berlin, as people type it
    day = (datetime.fromtimestamp(clock.now, BERLIN) + timedelta(days=1)).date()
    when = f"{day.isoformat()} 20:00"
    start = datetime(day.year, day.month, day.day, 20, 0, tzinfo=BERLIN)

    async with night_bot(world, clock=clock, sleep=clock.sleep) as bot:
        bad_zone = await answer(
            world, alice, "league", {"timezone": "Mars/Olympus"}, subcommand="setup"
        )
        assert bad_zone.ephemeral and "\n" not in bad_zone.content
        assert "`Mars/Olympus` is not a time zone" in bad_zone.content
        zone = await answer(
            world, alice, "league", {"timezone": "Europe/Berlin"}, subcommand="setup"
        )
        assert "Time zone: Europe/Berlin" in zone.content

        # the bot's role lacks Create Events: one line, nothing created
        no_perm = await answer(
            world, alice, "night", {"when": when, "title": "Friday poker"}, subcommand="schedule"
        )
        refused(no_perm, "Create Events")
        assert fake.scheduled_events == {}
        fake.set_bot_guild_permissions(world.guild, DEFAULT_BOT_PERMISSIONS | CREATE_EVENTS)

        for typed, why in (("next friday", "not a time"), ("2020-01-01 20:00", "has passed")):
            refused(
                await answer(
                    world, alice, "night", {"when": typed, "title": "x"}, subcommand="schedule"
                ),
                why,
            )
        refused(
            await answer(world, bob, "night", {"when": when, "title": "x"}, subcommand="schedule"),
            "Manage Server",
        )
        assert fake.scheduled_events == {}

        invited = await answer(
            world, alice, "night", {"when": when, "title": "Friday poker"}, subcommand="schedule"
        )
        assert not invited.ephemeral, invited.content
        (event,) = fake.scheduled_events.values()
        assert event.name == "Friday poker" and event.entity_type == EXTERNAL
        assert event.privacy_level == GUILD_ONLY and event.location
        assert event.starts == start
        assert f"<t:{int(start.timestamp())}:F>" in invited.content
        post = invited.message
        assert post is not None
        assert [b["label"] for b in post.buttons()] == ["In", "Maybe", "Out"]
        assert f"https://discord.com/events/{world.guild.id}/{event.id}" in str(post.embeds)
        for user, label in ((bob, "In"), (carol, "In"), (dave, "Maybe"), (eve, "In"), (eve, "Out")):
            reply = await (await fake.click_label(user, post, label)).response()
            assert reply.updated_message
        assert "In 2 · Maybe 1 · Out 1" in post.content, post.content
        fields = {f["name"]: f["value"] for f in post.embeds[0]["fields"]}
        assert fields["In (2)"] == f"<@{bob.id}>, <@{carol.id}>"
        assert fields["Out (1)"] == f"<@{eve.id}>"

    # the bot stops; the time passes; a new bot starts on the same database
    advance(start.timestamp() - clock.now - 3600 + 5)  # five seconds past "an hour before"
    async with night_bot(world, clock=clock, sleep=clock.sleep) as bot:
        reminded = await eventually(
            lambda: all(fake.dms(u) for u in (bob, carol)), what="the reminder DMs"
        )
        assert reminded
        for user in (bob, carol):
            (dm,) = fake.dms(user)
            assert "Friday poker" in dm.content and "You said **In**" in dm.content
        assert fake.dms(dave) == [] and fake.dms(eve) == []
        # an answer to the now old invitation: posted anew (Discord caps old edits)
        old = post
        reply = await (await fake.click_label(dave, old, "In")).response()
        assert not reply.updated_message and "In 3 · Maybe 0 · Out 1" in reply.content
        await eventually(lambda: old.deleted, what="the old invitation removed")
        async with bot.store.read() as tx:
            schedule = await tx.schedule(1)
        assert reply.message is not None and schedule.message_id == reply.message.id

    # a second restart sends no reminder twice
    async with night_bot(world, clock=clock, sleep=clock.sleep) as bot:
        clock.advance(0)
        assert [len(fake.dms(u)) for u in (bob, carol, dave)] == [1, 1, 0]
        advance(3600)  # the night's hour: /night start links the event and starts it
        started = await answer(world, alice, "night", subcommand="start")
        assert "Friday poker" in started.content, started.content
        assert f"https://discord.com/events/{world.guild.id}/{event.id}" in started.content
        await eventually(lambda: event.status == ACTIVE, what="the event started")
        async with bot.store.read() as tx:
            night = await tx.open_night(world.guild.id)
        assert night is not None and night.schedule_id == 1
        ended = await (await fake.invoke(alice, world.channel, "night", subcommand="end")).response(
            timeout=20
        )
        assert "Night #1 is over" in ended.content
        await eventually(lambda: event.status == COMPLETED, what="the event completed")
        assert event.history == [1, ACTIVE, COMPLETED]
    assert datetime.fromtimestamp(clock.now, UTC) > start.astimezone(UTC)
