"""The fake Discord's guild scheduled events (bot/testing/fake_events.py) refuse what
Discord refuses: no Create Events (or Manage Events) permission (50013), a name, description
or location out of its limits, an EXTERNAL event without its location or end, a privacy
level other than GUILD_ONLY, a start in the past (50035), an unknown event (10070), a status
move Discord does not allow, and any change once finished (180000). Requests go through
discord.py's own HTTP client; the bot's create call through ``Guild.create_scheduled_event``."""

from __future__ import annotations

import datetime as dt
from typing import Any

import discord
import pytest
from discord.http import Route

from bot.testing import DEFAULT_BOT_PERMISSIONS
from bot.testing.fake_events import CREATE_EVENTS, MANAGE_EVENTS
from tests.testing.test_fake_discord import World, world

__all__ = ["world"]


def later(hours: float) -> str:
    return (dt.datetime.now(dt.UTC) + dt.timedelta(hours=hours)).isoformat()


def body(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "name": "Friday poker",
        "description": "A night of poker",
        "privacy_level": 2,
        "entity_type": 3,
        "entity_metadata": {"location": "#poker"},
        "scheduled_start_time": later(24),
        "scheduled_end_time": later(28),
    }
    data.update(changes)
    return {k: v for k, v in data.items() if v is not None}


async def create(world: World, payload: dict[str, Any]) -> Any:
    route = Route("POST", "/guilds/{guild_id}/scheduled-events", guild_id=world.guild.id)
    return await world.bot.http.request(route, json=payload)


async def refusal(world: World, payload: dict[str, Any]) -> tuple[int, int, str]:
    with pytest.raises(discord.HTTPException) as caught:
        await create(world, payload)
    return caught.value.status, caught.value.code, caught.value.text


async def test_an_event_needs_create_events_or_manage_events_50013(world: World) -> None:
    assert await refusal(world, body()) == (403, 50013, "Missing Permissions")
    world.fake.set_bot_guild_permissions(world.guild, DEFAULT_BOT_PERMISSIONS | CREATE_EVENTS)
    made = await create(world, body())
    assert made["status"] == 1 and made["entity_type"] == 3
    assert made["entity_metadata"] == {"location": "#poker"}
    world.fake.set_bot_guild_permissions(world.guild, DEFAULT_BOT_PERMISSIONS | MANAGE_EVENTS)
    assert (await create(world, body()))["name"] == "Friday poker"


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"name": ""}, "name"),
        ({"name": "x" * 101}, "name"),
        ({"description": "x" * 1001}, "description"),
        ({"entity_metadata": None}, "location"),
        ({"entity_metadata": {"location": "x" * 101}}, "location"),
        ({"scheduled_end_time": None}, "scheduled_end_time: required"),
        ({"privacy_level": 1}, "GUILD_ONLY"),
        ({"entity_type": 9}, "entity_type"),
        ({"scheduled_start_time": later(-1), "scheduled_end_time": later(3)}, "in the past"),
        ({"scheduled_start_time": "tomorrow"}, "ISO8601"),
        ({"scheduled_end_time": later(1)}, "after scheduled_start_time"),
        ({"channel_id": "123"}, "channel_id"),
    ],
)
async def test_the_event_body_is_held_to_discords_limits(
    world: World, changes: dict[str, Any], words: str
) -> None:
    world.fake.set_bot_guild_permissions(world.guild, DEFAULT_BOT_PERMISSIONS | CREATE_EVENTS)
    payload = body()
    payload.update(changes)
    payload = {k: v for k, v in payload.items() if v is not None}
    status, code, text = await refusal(world, payload)
    assert (status, code) == (400, 50035) and words in text, text
    assert world.fake.scheduled_events == {}


async def test_status_moves_as_discord_allows_and_a_finished_event_is_final(world: World) -> None:
    fake = world.fake
    fake.set_bot_guild_permissions(world.guild, DEFAULT_BOT_PERMISSIONS | CREATE_EVENTS)
    made = await create(world, body())
    eid = int(made["id"])
    http = world.bot.http
    with pytest.raises(discord.HTTPException) as bad:
        await http.edit_scheduled_event(world.guild.id, eid, status=3)  # SCHEDULED -> COMPLETED
    assert bad.value.code == 50035
    assert (await http.edit_scheduled_event(world.guild.id, eid, status=2))["status"] == 2
    assert (await http.edit_scheduled_event(world.guild.id, eid, status=3))["status"] == 3
    with pytest.raises(discord.HTTPException) as final:
        await http.edit_scheduled_event(world.guild.id, eid, name="again")
    assert final.value.code == 180000
    assert fake.scheduled_events[eid].history == [1, 2, 3]
    listed = await http.get_scheduled_events(world.guild.id, False)
    assert [int(e["id"]) for e in listed] == [eid]
    await http.delete_scheduled_event(world.guild.id, eid)
    with pytest.raises(discord.HTTPException) as gone:
        await http.get_scheduled_event(world.guild.id, eid, False)
    assert (gone.value.status, gone.value.code) == (404, 10070)


async def test_discord_py_creates_an_external_event_as_the_bot_does(world: World) -> None:
    world.fake.set_bot_guild_permissions(world.guild, DEFAULT_BOT_PERMISSIONS | CREATE_EVENTS)
    guild = world.bot.get_guild(world.guild.id)
    assert guild is not None
    start = dt.datetime.now(dt.UTC) + dt.timedelta(days=2)
    event = await guild.create_scheduled_event(
        name="Friday poker",
        start_time=start,
        end_time=start + dt.timedelta(hours=4),
        entity_type=discord.EntityType.external,
        privacy_level=discord.PrivacyLevel.guild_only,
        location="#poker",
    )
    assert event.location == "#poker" and event.status is discord.EventStatus.scheduled
    # discord.py leaves entity_type and privacy_level out unless given: Discord (and the
    # fake) refuse the body then
    with pytest.raises(discord.HTTPException) as caught:
        await guild.create_scheduled_event(
            name="Friday poker", start_time=start, end_time=start, location="#poker"
        )
    assert caught.value.code == 50035
