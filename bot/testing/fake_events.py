"""The guild scheduled-event endpoints of the fake Discord (``/night schedule``), as strict
as Discord: the bot needs Create Events (or Manage Events) in the guild, the body's limits
hold, a start is in the future, and an event's status only moves as Discord allows.

Sources: ``discord/discord-api-docs``, ``developers/resources/guild-scheduled-event.mdx``
("Guild Scheduled Event" resource: "Create Guild Scheduled Event", "Modify Guild Scheduled
Event", "Delete Guild Scheduled Event", "List Scheduled Events for Guild", "Get Guild
Scheduled Event"; "Field Requirements By Entity Type"; "Guild Scheduled Event Status":
"SCHEDULED --> ACTIVE, ACTIVE --> COMPLETED, SCHEDULED --> CANCELED", "Once status is set to
COMPLETED or CANCELED, the status can no longer be updated"), ``developers/topics/
permissions.mdx`` (CREATE_EVENTS ``1 << 44``: "Allows for creating scheduled events, and
editing and deleting those created by the current user"; MANAGE_EVENTS ``1 << 33``: "Allows
for editing and deleting scheduled events created by all users"; since February 2026
creating an event requires CREATE_EVENTS, which MANAGE_EVENTS no longer implies for bots
that lack it, so the fake asks for either, as the bot checks) and
``developers/topics/opcodes-and-status-codes.mdx`` (10070 "Unknown Guild Scheduled Event",
180000 "Cannot update a finished event", 50013 "Missing Permissions", 50035 "Invalid Form
Body").
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from bot.testing.fake_messages import FakeMessages
from bot.testing.fake_model import JSON, FakeGuild
from bot.testing.fake_records import Handler, json_response
from bot.testing.fake_rules import ApiError, invalid_form, missing_permissions

MANAGE_EVENTS = 1 << 33
CREATE_EVENTS = 1 << 44
"""developers/topics/permissions.mdx, "Bitwise Permission Flags"."""

# guild-scheduled-event.mdx, "Guild Scheduled Event Structure" and "Create Guild Scheduled
# Event" JSON params: "name: the name of the scheduled event (1-100 characters)",
# "description?: the description of the scheduled event (1-1000 characters)";
# "Guild Scheduled Event Entity Metadata": "location?: location of the event (1-100
# characters)", required for EXTERNAL.
MAX_EVENT_NAME = 100
MAX_EVENT_DESCRIPTION = 1000
MAX_EVENT_LOCATION = 100
# "Guild Scheduled Event Privacy Level": GUILD_ONLY = 2 (the only one).
GUILD_ONLY = 2
# "Guild Scheduled Event Entity Types": STAGE_INSTANCE 1, VOICE 2, EXTERNAL 3.
STAGE_INSTANCE, VOICE, EXTERNAL = 1, 2, 3
# "Guild Scheduled Event Status": SCHEDULED 1, ACTIVE 2, COMPLETED 3, CANCELED 4.
SCHEDULED, ACTIVE, COMPLETED, CANCELED = 1, 2, 3, 4
ALLOWED_MOVES = {(SCHEDULED, ACTIVE), (ACTIVE, COMPLETED), (SCHEDULED, CANCELED)}

INTENT_GUILD_SCHEDULED_EVENTS = 1 << 16


@dataclass
class FakeScheduledEvent:
    id: int
    guild_id: int
    creator_id: int
    name: str
    description: str | None
    scheduled_start_time: str
    scheduled_end_time: str | None
    privacy_level: int
    entity_type: int
    location: str | None
    channel_id: int | None = None
    status: int = SCHEDULED
    history: list[int] = field(default_factory=list)
    """Every status the event took, in order."""
    deleted: bool = False

    def payload(self, creator: JSON | None = None) -> JSON:
        data: JSON = {
            "id": str(self.id),
            "guild_id": str(self.guild_id),
            "channel_id": None if self.channel_id is None else str(self.channel_id),
            "creator_id": str(self.creator_id),
            "name": self.name,
            "description": self.description,
            "scheduled_start_time": self.scheduled_start_time,
            "scheduled_end_time": self.scheduled_end_time,
            "privacy_level": self.privacy_level,
            "status": self.status,
            "entity_type": self.entity_type,
            "entity_id": None,
            "entity_metadata": None if self.location is None else {"location": self.location},
            "user_count": 0,
            "image": None,
            "recurrence_rule": None,
        }
        if creator is not None:
            data["creator"] = creator
        return data

    @property
    def starts(self) -> dt.datetime:
        return _time(self.scheduled_start_time, "scheduled_start_time")


def _time(value: Any, name: str) -> dt.datetime:
    """An ISO 8601 timestamp with its offset ("scheduled_start_time: ISO8601 timestamp")."""
    if not isinstance(value, str):
        raise invalid_form(f"{name}: an ISO8601 timestamp is required")
    try:
        parsed = dt.datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        raise invalid_form(f"{name}: {value!r} is not an ISO8601 timestamp") from None
    if parsed.tzinfo is None:
        raise invalid_form(f"{name}: the timestamp needs its offset")
    return parsed


class FakeEvents(FakeMessages):
    """The scheduled-event routes, on top of the message routes."""

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.scheduled_events: dict[int, FakeScheduledEvent] = {}

    def _route_table(self) -> list[tuple[str, str, Handler, bool]]:
        snow = self._SNOW
        return [
            *super()._route_table(),
            ("GET", rf"/guilds/{snow}/scheduled-events", self._list_events, True),
            ("POST", rf"/guilds/{snow}/scheduled-events", self._create_event, True),
            ("GET", rf"/guilds/{snow}/scheduled-events/{snow}", self._get_event, True),
            ("PATCH", rf"/guilds/{snow}/scheduled-events/{snow}", self._edit_event, True),
            ("DELETE", rf"/guilds/{snow}/scheduled-events/{snow}", self._delete_event, True),
        ]

    def set_bot_guild_permissions(self, guild: FakeGuild, permissions: int) -> None:
        """Give the bot's own (managed) role ``permissions`` in ``guild`` (e.g. add
        CREATE_EVENTS), sent as GUILD_ROLE_UPDATE as Discord does."""
        member = guild.member(self.bot_user)
        assert member is not None and member.roles
        role = member.roles[0]
        role.permissions = permissions
        self._dispatch_guild(
            guild, "GUILD_ROLE_UPDATE", {"guild_id": str(guild.id), "role": role.payload()}
        )

    def _event_guild(self, gid: str) -> FakeGuild:
        guild = self.guilds.get(int(gid))
        if guild is None:
            raise ApiError(404, 10004, "Unknown Guild")
        return guild

    def _bot_guild_permissions(self, guild: FakeGuild) -> int:
        member = guild.member(self.bot_user)
        return 0 if member is None else member.permissions

    def _event(self, guild: FakeGuild, eid: str) -> FakeScheduledEvent:
        event = self.scheduled_events.get(int(eid))
        if event is None or event.guild_id != guild.id or event.deleted:
            raise ApiError(404, 10070, "Unknown Guild Scheduled Event")
        return event

    def _may_manage(self, guild: FakeGuild, event: FakeScheduledEvent) -> None:
        perms = self._bot_guild_permissions(guild)
        own = event.creator_id == self.bot_user.id and perms & CREATE_EVENTS
        if not (perms & MANAGE_EVENTS or own):
            raise missing_permissions()

    def _check_event_body(self, body: JSON, *, old: FakeScheduledEvent | None) -> JSON:
        """The merged event fields, checked against the documented limits."""
        merged: JSON = {} if old is None else old.payload()
        merged.update(body)
        name = merged.get("name")
        if not isinstance(name, str) or not 1 <= len(name) <= MAX_EVENT_NAME:
            raise invalid_form(f"name: must be 1-{MAX_EVENT_NAME} characters")
        description = merged.get("description")
        if description is not None and (
            not isinstance(description, str) or not 1 <= len(description) <= MAX_EVENT_DESCRIPTION
        ):
            raise invalid_form(f"description: must be 1-{MAX_EVENT_DESCRIPTION} characters")
        if merged.get("privacy_level") != GUILD_ONLY:
            raise invalid_form("privacy_level: must be GUILD_ONLY (2)")
        kind = merged.get("entity_type")
        if kind not in (STAGE_INSTANCE, VOICE, EXTERNAL):
            raise invalid_form("entity_type: must be 1, 2 or 3")
        start = _time(merged.get("scheduled_start_time"), "scheduled_start_time")
        end_raw = merged.get("scheduled_end_time")
        metadata = merged.get("entity_metadata") or {}
        if kind == EXTERNAL:
            location = metadata.get("location")
            if not isinstance(location, str) or not 1 <= len(location) <= MAX_EVENT_LOCATION:
                raise invalid_form(
                    f"entity_metadata.location: required for EXTERNAL, 1-{MAX_EVENT_LOCATION}"
                    " characters"
                )
            if end_raw is None:
                raise invalid_form("scheduled_end_time: required for EXTERNAL")
            if merged.get("channel_id") is not None:
                raise invalid_form("channel_id: must be null for EXTERNAL")
        elif merged.get("channel_id") is None:
            raise invalid_form("channel_id: required for STAGE_INSTANCE and VOICE")
        if end_raw is not None and _time(end_raw, "scheduled_end_time") <= start:
            raise invalid_form("scheduled_end_time: must be after scheduled_start_time")
        if (old is None or "scheduled_start_time" in body) and start.timestamp() <= self.now():
            raise invalid_form("scheduled_start_time: Cannot schedule event in the past")
        return merged

    async def _create_event(self, request: web.Request, gid: str) -> web.Response:
        guild = self._event_guild(gid)
        body, _ = await self._read_body(request)
        if not self._bot_guild_permissions(guild) & (CREATE_EVENTS | MANAGE_EVENTS):
            raise missing_permissions()
        merged = self._check_event_body(body, old=None)
        metadata = merged.get("entity_metadata") or {}
        event = FakeScheduledEvent(
            id=self._ids.next(),
            guild_id=guild.id,
            creator_id=self.bot_user.id,
            name=merged["name"],
            description=merged.get("description"),
            scheduled_start_time=merged["scheduled_start_time"],
            scheduled_end_time=merged.get("scheduled_end_time"),
            privacy_level=merged["privacy_level"],
            entity_type=merged["entity_type"],
            location=metadata.get("location"),
            channel_id=None if merged.get("channel_id") is None else int(merged["channel_id"]),
        )
        event.history.append(event.status)
        self.scheduled_events[event.id] = event
        data = event.payload(self.bot_user.payload())
        self._dispatch_guild(
            guild, "GUILD_SCHEDULED_EVENT_CREATE", data, INTENT_GUILD_SCHEDULED_EVENTS
        )
        return json_response(200, data)

    async def _list_events(self, request: web.Request, gid: str) -> web.Response:
        guild = self._event_guild(gid)
        events = [
            e.payload(self.bot_user.payload())
            for e in self.scheduled_events.values()
            if e.guild_id == guild.id and not e.deleted
        ]
        return json_response(200, events)

    async def _get_event(self, request: web.Request, gid: str, eid: str) -> web.Response:
        guild = self._event_guild(gid)
        return json_response(200, self._event(guild, eid).payload(self.bot_user.payload()))

    async def _edit_event(self, request: web.Request, gid: str, eid: str) -> web.Response:
        guild = self._event_guild(gid)
        event = self._event(guild, eid)
        body, _ = await self._read_body(request)
        self._may_manage(guild, event)
        if event.status in (COMPLETED, CANCELED):
            raise ApiError(400, 180000, "Cannot update a finished event")
        status = body.pop("status", None)
        moves = status is not None and status != event.status
        if moves and (event.status, status) not in ALLOWED_MOVES:
            raise invalid_form(f"status: cannot go from {event.status} to {status}")
        if body:
            merged = self._check_event_body(body, old=event)
            event.name = merged["name"]
            event.description = merged.get("description")
            event.scheduled_start_time = merged["scheduled_start_time"]
            event.scheduled_end_time = merged.get("scheduled_end_time")
            event.location = (merged.get("entity_metadata") or {}).get("location")
        if status is not None and status != event.status:
            event.status = status
            event.history.append(status)
        data = event.payload(self.bot_user.payload())
        self._dispatch_guild(
            guild, "GUILD_SCHEDULED_EVENT_UPDATE", data, INTENT_GUILD_SCHEDULED_EVENTS
        )
        return json_response(200, data)

    async def _delete_event(self, request: web.Request, gid: str, eid: str) -> web.Response:
        guild = self._event_guild(gid)
        event = self._event(guild, eid)
        self._may_manage(guild, event)
        event.deleted = True
        self._dispatch_guild(
            guild, "GUILD_SCHEDULED_EVENT_DELETE", event.payload(), INTENT_GUILD_SCHEDULED_EVENTS
        )
        return web.Response(status=204)
