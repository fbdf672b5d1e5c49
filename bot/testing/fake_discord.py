"""A loopback fake of Discord (REST + gateway) that the real, unmodified discord.py talks to.

Tests and the sandbox start a :class:`FakeDiscord`, point discord.py at ``api_base`` and
``gateway_url`` (see :mod:`bot.testing.harness`), then act as users: ``invoke`` a slash
command, ``click`` a button, ``select`` an option. The fake answers the bot like Discord
does, including the parts that make a bot misbehave in production: 429s and 5xx
(``inject``), a dropped gateway (``drop_gateway``), closed DMs (error 50007), expired
interaction tokens (50027), double acknowledgements (40060) and the 3-second deadline.

Every message keeps all its versions and who could see it, so a test can audit what each
user saw (``visible_to``) – that is how card privacy is checked end to end.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import mimetypes
import re
import secrets
import time
from collections import deque
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from bot.testing.fake_model import (
    DEFAULT_BOT_PERMISSIONS,
    DEFAULT_EVERYONE,
    FLAG_EPHEMERAL,
    FLAG_LOADING,
    JSON,
    MANAGE_MESSAGES,
    VIEW_CHANNEL,
    FakeChannel,
    FakeDiscordError,
    FakeGuild,
    FakeMember,
    FakeMessage,
    FakeRole,
    FakeUser,
    MessageVersion,
    MessageView,
    Snowflakes,
    StoredAttachment,
    iso_now,
    walk_components,
)
from bot.testing.fake_rules import (
    OLD_MESSAGE_AGE,
    ApiError,
    bot_permissions,
    check_edit,
    check_message,
    check_post,
    check_read,
    invalid_form,
)

__all__ = [
    "FakeDiscord",
    "FakeDiscordError",
    "Fault",
    "InteractionRecord",
    "InteractionReply",
    "RequestRecord",
]

# Gateway intents the fake honours when deciding which events to send.
INTENT_GUILDS = 1 << 0
INTENT_GUILD_MEMBERS = 1 << 1
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_DIRECT_MESSAGES = 1 << 12

# Interaction types and callback types (Discord API names in comments).
PING, APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 1, 2, 3, 4, 5
ALLOWED_CALLBACKS: dict[int, frozenset[int]] = {
    APPLICATION_COMMAND: frozenset({4, 5, 9}),
    MESSAGE_COMPONENT: frozenset({4, 5, 6, 7, 9}),
    AUTOCOMPLETE: frozenset({8}),
    MODAL_SUBMIT: frozenset({4, 5, 6, 7}),
}

#: The refusals :meth:`FakeDiscord.inject` can send besides 429 and 5xx (code: message).
INJECTABLE_CODES: dict[int, str] = {
    10003: "Unknown Channel",
    10008: "Unknown Message",
    30046: "Maximum number of edits to messages older than 1 hour reached. Try again later",
    50001: "Missing Access",
    50007: "Cannot send messages to this user",
    50013: "Missing Permissions",
}

_COMMAND_NAME = re.compile(r"^[-_a-z0-9]{1,32}$")
_KEPT_FLAGS = FLAG_EPHEMERAL | (1 << 2) | (1 << 12) | (1 << 15)  # suppress embeds, silent, v2


def _json_response(
    status: int, data: Any, headers: Mapping[str, str] | None = None
) -> web.Response:
    # discord.py only parses JSON when Content-Type is exactly "application/json".
    hdrs = {"Content-Type": "application/json"}
    if headers:
        hdrs.update(headers)
    return web.Response(status=status, body=json.dumps(data).encode(), headers=hdrs)


_DISPOSITION = re.compile(r'(?:^|;)\s*(name|filename)="([^"]*)"')
"""The ``name`` and ``filename`` of a multipart part's Content-Disposition (quoted, as
aiohttp writes them for discord.py)."""


@dataclass
class RequestRecord:
    """One REST request the bot made, with the fake's answer."""

    method: str
    path: str
    query: dict[str, str]
    at: float
    status: int = 0
    body: Any = None
    files: int = 0
    handled: bool = True


_RECORD = web.RequestKey("record", RequestRecord)


@dataclass
class Fault:
    """An injected REST failure: the next ``count`` requests whose ``"METHOD /path"`` matches
    ``pattern`` (``None``: every request) get ``status``. ``hits`` counts the failures sent."""

    pattern: re.Pattern[str] | None
    status: int
    count: int
    retry_after: float
    is_global: bool = False
    hits: int = 0
    code: int = 0
    """For a 4xx: the JSON error code sent (e.g. 50013, 30046)."""

    def matches(self, method: str, path: str) -> bool:
        if self.hits >= self.count:
            return False
        return self.pattern is None or self.pattern.search(f"{method} {path}") is not None


@dataclass(frozen=True)
class InteractionReply:
    """What the bot answered to one interaction, as a snapshot taken when it settled."""

    callback_type: int
    message: FakeMessage | None
    content: str
    embeds: tuple[JSON, ...]
    components: tuple[JSON, ...]
    attachments: tuple[StoredAttachment, ...]
    flags: int
    choices: tuple[JSON, ...] = ()
    modal: JSON | None = None

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & FLAG_EPHEMERAL)

    via_followup: bool = False
    """A deferred update (6) filled in by a follow-up message (e.g. a refusal) rather than
    by an edit of the clicked message: this reply shows that follow-up."""

    @property
    def updated_message(self) -> bool:
        """The answer edited the clicked message (callback 7, or 6 then an edit of it)
        instead of replying."""
        return self.callback_type == 7 or (self.callback_type == 6 and not self.via_followup)


@dataclass(eq=False)
class InteractionRecord:
    """One interaction a user triggered; await :meth:`response` for the bot's answer."""

    id: int
    token: str
    type: int
    user: FakeUser
    channel: FakeChannel
    payload: JSON
    dispatched_at: float
    source_message: FakeMessage | None = None
    command: str | None = None
    custom_id: str | None = None
    acked_at: float | None = None
    callback_type: int | None = None
    original: FakeMessage | None = None
    followups: list[FakeMessage] = field(default_factory=list)
    choices: tuple[JSON, ...] = ()
    modal: JSON | None = None
    refused: list[int] = field(default_factory=list)
    settled_by: FakeMessage | None = None
    """For a deferred update (6): the follow-up that answered it, if that came first."""
    _settled: asyncio.Event = field(default_factory=asyncio.Event)
    _acked: asyncio.Event = field(default_factory=asyncio.Event)
    _followup_added: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def latency(self) -> float | None:
        """Seconds from dispatch to the first (initial) callback; ``None`` if unanswered."""
        return None if self.acked_at is None else self.acked_at - self.dispatched_at

    @property
    def acknowledged(self) -> bool:
        return self.acked_at is not None

    async def acknowledgement(self, timeout: float = 5.0) -> float:
        """Wait for the bot's first callback (whatever it is); the latency."""
        try:
            await asyncio.wait_for(self._acked.wait(), timeout)
        except TimeoutError:
            raise FakeDiscordError(
                f"interaction {self.command or self.custom_id!r} by {self.user.name}: never "
                f"acknowledged within {timeout}s"
            ) from None
        assert self.latency is not None
        return self.latency

    async def response(self, timeout: float = 5.0) -> InteractionReply:
        """Wait for the bot's answer, as the user sees it. A deferred reply (callback 5)
        counts once the bot has filled it in; a deferred update (6) once the bot has
        edited the clicked message through the interaction, or sent a follow-up (what the
        user then sees); :meth:`acknowledgement` waits only for the first callback."""
        try:
            await asyncio.wait_for(self._settled.wait(), timeout)
        except TimeoutError:
            state = "never acknowledged" if self.acked_at is None else "deferred, never filled"
            raise FakeDiscordError(
                f"interaction {self.command or self.custom_id!r} by {self.user.name}: {state} "
                f"within {timeout}s"
            ) from None
        return self.snapshot()

    async def followup(self, index: int = 0, timeout: float = 5.0) -> FakeMessage:
        """Wait until the bot has sent follow-up number ``index`` and return it."""
        deadline = asyncio.get_running_loop().time() + timeout
        while len(self.followups) <= index:
            self._followup_added.clear()
            remaining = deadline - asyncio.get_running_loop().time()
            try:
                await asyncio.wait_for(self._followup_added.wait(), max(remaining, 0))
            except TimeoutError:
                raise FakeDiscordError(f"no follow-up #{index} within {timeout}s") from None
        return self.followups[index]

    def snapshot(self) -> InteractionReply:
        assert self.callback_type is not None
        message = self.original
        via_followup = self.callback_type == 6 and self.settled_by is not None
        if via_followup:
            message = self.settled_by
        if message is None:
            return InteractionReply(
                self.callback_type, None, "", (), (), (), 0, self.choices, self.modal
            )
        version = message.latest
        return InteractionReply(
            callback_type=self.callback_type,
            message=message,
            content=version.content,
            embeds=version.embeds,
            components=version.components,
            attachments=version.attachments,
            flags=version.flags,
            choices=self.choices,
            modal=self.modal,
            via_followup=via_followup,
        )


class _Session:
    """A gateway session: its sequence, the events sent (for RESUME replay), its socket."""

    def __init__(self, session_id: str, shard: tuple[int, int], intents: int) -> None:
        self.id = session_id
        self.shard = shard
        self.intents = intents
        self.seq = 0
        self.sent: deque[tuple[int, str]] = deque(maxlen=2000)
        self.conn: _Connection | None = None

    def owns_guild(self, guild_id: int) -> bool:
        shard_id, count = self.shard
        return (guild_id >> 22) % count == shard_id

    def push(self, event: str, data: JSON, on_sent: Callable[[], None] | None = None) -> None:
        """Queue ``event`` for the connection's writer; ``on_sent`` runs just before the
        frame goes out on the socket (not when queued)."""
        self.seq += 1
        frame = json.dumps({"op": 0, "t": event, "s": self.seq, "d": data})
        self.sent.append((self.seq, frame))
        if self.conn is not None:
            self.conn.queue.put_nowait(frame if on_sent is None else (frame, on_sent))


class _Connection:
    def __init__(self, ws: web.WebSocketResponse, request: web.Request) -> None:
        self.ws = ws
        self.request = request
        self.queue: asyncio.Queue[str | tuple[str, Callable[[], None]] | None] = asyncio.Queue()
        self.session: _Session | None = None
        self.writer: asyncio.Task[None] | None = None

    async def write_loop(self) -> None:
        while True:
            item = await self.queue.get()
            if item is None or self.ws.closed:
                return
            if isinstance(item, tuple):
                frame, on_sent = item
                on_sent()
            else:
                frame = item
            try:
                await self.ws.send_str(frame)
            except (ConnectionError, RuntimeError):
                return


class FakeDiscord:
    """The fake server. ``await start()`` binds 127.0.0.1 on a free port; ``api_base`` and
    ``gateway_url`` are then set. Build the world with ``add_guild``/``add_channel``/
    ``add_user``/``add_member``; act as users with ``invoke``/``click``/``select``."""

    def __init__(
        self,
        *,
        token: str | None = None,
        bot_name: str = "Home Game",
        token_ttl: float = 15 * 60,
        ack_deadline: float | None = 3.0,
        heartbeat_interval: float = 41.25,
        clock: Callable[[], float] = time.monotonic,
        old_message_edits: int = 0,
    ) -> None:
        self.token = token or secrets.token_urlsafe(24)
        self.token_ttl = token_ttl
        #: Discord refuses an initial callback after 3 s (10062 Unknown interaction).
        self.ack_deadline = ack_deadline
        self.heartbeat_interval = heartbeat_interval
        self.clock = clock
        #: Seconds the fake's wall clock is ahead of real time (:meth:`advance`).
        self.time_offset = 0.0
        #: Edits Discord accepts to a message older than an hour before answering 30046
        #: (Discord does not publish the number; 0 is the strictest reading).
        self.old_message_edits = old_message_edits
        self._ids = Snowflakes(self.now)
        self.bot_user = FakeUser(self._ids.next(), bot_name, bot=True)
        self.application_id = self.bot_user.id
        self.owner = FakeUser(self._ids.next(), "app-owner")
        self.users: dict[int, FakeUser] = {self.bot_user.id: self.bot_user}
        self.guilds: dict[int, FakeGuild] = {}
        self.channels: dict[int, FakeChannel] = {}
        self.messages: dict[int, FakeMessage] = {}
        self.attachments: dict[int, StoredAttachment] = {}
        self.global_commands: dict[str, JSON] = {}
        self.guild_commands: dict[int, dict[str, JSON]] = {}
        self.interactions: dict[int, InteractionRecord] = {}
        self.requests: list[RequestRecord] = []
        self.faults: list[Fault] = []
        self.gateway_log: list[JSON] = []
        self.identifies = 0
        self.resumes = 0
        self._dm_channels: dict[int, FakeChannel] = {}
        self._sessions: dict[str, _Session] = {}
        self._connections: set[_Connection] = set()
        self._gateway_changed = asyncio.Condition()
        self._runner: web.AppRunner | None = None
        self.base_url = ""
        self.api_base = ""
        self.gateway_url = ""

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("GET", "/gateway", self._gateway)
        app.router.add_route("GET", "/attachments/{aid}/{filename}", self._attachment_file)
        app.router.add_route("*", "/api/v10/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = int(self._runner.addresses[0][1])
        self.base_url = f"http://127.0.0.1:{port}"
        self.api_base = f"{self.base_url}/api/v10"
        self.gateway_url = f"ws://127.0.0.1:{port}/gateway"

    async def stop(self) -> None:
        for conn in list(self._connections):
            conn.queue.put_nowait(None)
            await conn.ws.close(code=1001)
            if conn.writer is not None:
                conn.writer.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await conn.writer
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    # ------------------------------------------------------------------ building the world

    def add_user(self, name: str, *, dm_open: bool = True, bot: bool = False) -> FakeUser:
        user = FakeUser(self._ids.next(), name, bot=bot, dm_open=dm_open)
        self.users[user.id] = user
        return user

    def now(self) -> float:
        """The fake's wall clock (Unix seconds): message timestamps, snowflakes and the
        one-hour edit cap follow it. The interaction windows (3 s, 15 min) follow ``clock``."""
        return time.time() + self.time_offset

    def advance(self, seconds: float) -> None:
        """Move the wall clock forward: every message ages by ``seconds`` at once."""
        if seconds < 0:
            raise ValueError("the clock only moves forward")
        self.time_offset += seconds

    def age(self, message: FakeMessage) -> float:
        """Seconds since ``message`` was created, on the fake's wall clock."""
        return self.now() - message.born

    def set_bot_permissions(self, channel: FakeChannel, *, allow: int = 0, deny: int = 0) -> None:
        """Give the bot a member overwrite in ``channel`` (``deny`` removes permissions its
        roles grant, ``allow`` adds); sent as CHANNEL_UPDATE, and interactions from the
        channel carry the result in ``app_permissions``."""
        if channel.guild is None:
            raise FakeDiscordError("DM channels have no permission overwrites")
        channel.overwrites[self.bot_user.id] = (allow, deny)
        self._dispatch_guild(channel.guild, "CHANNEL_UPDATE", channel.payload())

    def bot_permissions(self, channel: FakeChannel) -> int:
        """The bot's effective permissions in ``channel``."""
        guild = channel.guild
        return bot_permissions(channel, guild.member(self.bot_user) if guild else None)

    def delete_channel(self, channel: FakeChannel) -> None:
        """A moderator deletes ``channel``: every request to it answers 404 10003."""
        guild = channel.guild
        if guild is None:
            raise FakeDiscordError("the fake does not delete DM channels")
        channel.deleted = True
        guild.channels.remove(channel)
        del self.channels[channel.id]
        self._dispatch_guild(guild, "CHANNEL_DELETE", channel.payload())

    def delete_message(self, message: FakeMessage) -> None:
        """A moderator (or the user, in a DM) deletes ``message``: 404 10008 from then on."""
        if message.deleted:
            raise FakeDiscordError(f"message {message.id} is already deleted")
        self._delete(message)

    def close_dms(self, user: FakeUser) -> None:
        """The user refuses DMs from server members: sends to them, and edits of messages
        already sent to them, fail with 50007."""
        user.dm_open = False

    def open_dms(self, user: FakeUser) -> None:
        user.dm_open = True

    def add_guild(
        self,
        name: str,
        *,
        owner: FakeUser | None = None,
        everyone_permissions: int = DEFAULT_EVERYONE,
        bot_permissions: int = DEFAULT_BOT_PERMISSIONS,
    ) -> FakeGuild:
        gid = self._ids.next()
        owner = owner or self.add_user(f"{name}-owner")
        everyone = FakeRole(gid, gid, "@everyone", everyone_permissions)
        guild = FakeGuild(gid, name, owner.id, everyone)
        self.guilds[gid] = guild
        guild.members[owner.id] = FakeMember(guild, owner)
        bot_role = self.add_role(guild, self.bot_user.name, bot_permissions, managed=True)
        guild.members[self.bot_user.id] = FakeMember(guild, self.bot_user, [bot_role])
        self._dispatch_guild(guild, "GUILD_CREATE", None, INTENT_GUILDS)
        return guild

    def add_role(
        self, guild: FakeGuild, name: str, permissions: int, *, managed: bool = False
    ) -> FakeRole:
        role = FakeRole(
            self._ids.next(), guild.id, name, permissions, len(guild.roles) + 1, managed
        )
        guild.roles.append(role)
        self._dispatch_guild(
            guild, "GUILD_ROLE_CREATE", {"guild_id": str(guild.id), "role": role.payload()}
        )
        return role

    def add_channel(self, guild: FakeGuild, name: str) -> FakeChannel:
        channel = FakeChannel(self._ids.next(), name, guild=guild, position=len(guild.channels))
        guild.channels.append(channel)
        self.channels[channel.id] = channel
        self._dispatch_guild(guild, "CHANNEL_CREATE", channel.payload())
        return channel

    def add_member(
        self,
        guild: FakeGuild,
        user: FakeUser,
        *,
        roles: Sequence[FakeRole] = (),
        permissions: int | None = None,
    ) -> FakeMember:
        """Seat ``user`` in ``guild``. ``permissions`` (e.g. ``ADMINISTRATOR``) is granted
        through a personal role, since Discord only grants permissions through roles."""
        member_roles = list(roles)
        if permissions is not None:
            member_roles.append(self.add_role(guild, f"{user.name}-perms", permissions))
        member = FakeMember(guild, user, member_roles)
        guild.members[user.id] = member
        data = member.payload() | {"guild_id": str(guild.id)}
        self._dispatch_guild(guild, "GUILD_MEMBER_ADD", data, INTENT_GUILD_MEMBERS)
        return member

    def set_member_roles(self, guild: FakeGuild, user: FakeUser, roles: Sequence[FakeRole]) -> None:
        member = self._member(guild, user)
        member.roles = list(roles)
        data = member.payload() | {"guild_id": str(guild.id)}
        self._dispatch_guild(guild, "GUILD_MEMBER_UPDATE", data, INTENT_GUILD_MEMBERS)

    def dm_channel(self, user: FakeUser) -> FakeChannel:
        """The bot's DM channel with ``user`` (created on first use, as Discord does)."""
        channel = self._dm_channels.get(user.id)
        if channel is None:
            channel = FakeChannel(self._ids.next(), f"dm-{user.name}", recipient=user)
            self._dm_channels[user.id] = channel
            self.channels[channel.id] = channel
        return channel

    def _member(self, guild: FakeGuild, user: FakeUser) -> FakeMember:
        member = guild.member(user)
        if member is None:
            raise FakeDiscordError(f"{user!r} is not a member of {guild!r}")
        return member

    # ------------------------------------------------------------------ what users saw

    def can_see(self, user: FakeUser, message: FakeMessage) -> bool:
        if message.ephemeral_to is not None:
            return message.ephemeral_to is user
        guild = message.channel.guild
        if guild is None:
            return message.channel.recipient is user or user is self.bot_user
        member = guild.member(user)
        return member is not None and bool(member.permissions & VIEW_CHANNEL)

    def visible_to(self, user: FakeUser) -> list[MessageView]:
        """Every version of every message ``user`` could have seen, in creation order."""
        views: list[MessageView] = []
        for message in self.messages.values():
            if not self.can_see(user, message):
                continue
            if message.ephemeral_to is not None:
                kind = "ephemeral"
            elif message.channel.is_dm:
                kind = "dm"
            else:
                kind = "channel"
            for index, version in enumerate(message.versions):
                views.append(
                    MessageView(
                        message.id,
                        message.channel.id,
                        kind,
                        index,
                        version.content,
                        version.embeds,
                        version.components,
                        version.attachments,
                        message.deleted,
                    )
                )
        return views

    def channel_messages(
        self, channel: FakeChannel, *, include_deleted: bool = False
    ) -> list[FakeMessage]:
        """The channel's public messages (no ephemerals), oldest first."""
        return [
            m
            for m in self.messages.values()
            if m.channel is channel
            and m.ephemeral_to is None
            and (include_deleted or not m.deleted)
        ]

    def dms(self, user: FakeUser, *, include_deleted: bool = False) -> list[FakeMessage]:
        channel = self._dm_channels.get(user.id)
        if channel is None:
            return []
        return self.channel_messages(channel, include_deleted=include_deleted)

    def ephemerals(self, user: FakeUser) -> list[FakeMessage]:
        return [m for m in self.messages.values() if m.ephemeral_to is user]

    def last_message(self, channel: FakeChannel) -> FakeMessage:
        messages = self.channel_messages(channel)
        if not messages:
            raise FakeDiscordError(f"{channel!r} has no messages")
        return messages[-1]

    def ack_latencies(self) -> list[float]:
        """Dispatch-to-first-callback seconds of every answered interaction (for benches)."""
        return [r.latency for r in self.interactions.values() if r.latency is not None]

    @property
    def unhandled_requests(self) -> list[RequestRecord]:
        """REST calls the fake does not implement (answered 404): a test can assert none."""
        return [r for r in self.requests if not r.handled]

    # ------------------------------------------------------------------ commands

    def commands(self, guild: FakeGuild | None = None) -> dict[str, JSON]:
        """The synced commands (global, or one guild's) by name."""
        if guild is None:
            return dict(self.global_commands)
        return dict(self.guild_commands.get(guild.id, {}))

    def command(self, name: str, guild: FakeGuild | None = None) -> JSON:
        if guild is not None and name in self.guild_commands.get(guild.id, {}):
            return self.guild_commands[guild.id][name]
        if name in self.global_commands:
            return self.global_commands[name]
        known = sorted(self.global_commands) + sorted(
            self.guild_commands.get(guild.id, {}) if guild else []
        )
        raise FakeDiscordError(f"no synced command {name!r}; synced: {known}")

    # ------------------------------------------------------------------ faults

    def inject(
        self,
        route: str | None = None,
        *,
        status: int = 429,
        count: int = 1,
        retry_after: float = 0.05,
        is_global: bool = False,
        code: int = 0,
    ) -> Fault:
        """Fail the next ``count`` REST requests matching the regex ``route`` (searched in
        ``"METHOD /path"``, path without ``/api/v10``; ``None`` = any request). Besides
        429 and 5xx, a 4xx refusal with one of :data:`INJECTABLE_CODES` (e.g. ``status=403,
        code=50013``) for what the fake's own rules would not refuse at that moment."""
        if status in (400, 403, 404):
            if code not in INJECTABLE_CODES:
                raise ValueError(f"inject: a {status} needs one of the codes {INJECTABLE_CODES}")
        elif status not in (429, 500, 502, 503, 504):
            raise ValueError(f"inject: unsupported status {status}")
        fault = Fault(
            re.compile(route) if route else None, status, count, retry_after, is_global, code=code
        )
        self.faults.append(fault)
        return fault

    async def drop_gateway(self, *, code: int | None = None) -> None:
        """Cut every gateway socket. With ``code=None`` the TCP connection is aborted (a
        network drop: no close frame); otherwise the socket is closed with ``code``.
        Sessions survive, so discord.py can RESUME and get the missed events replayed."""
        for conn in list(self._connections):
            if conn.session is not None:
                conn.session.conn = None
                conn.session = None
            conn.queue.put_nowait(None)
            if code is None:
                transport = conn.request.transport
                if transport is not None:
                    transport.abort()
            else:
                await conn.ws.close(code=code)
        async with self._gateway_changed:
            self._gateway_changed.notify_all()

    def invalidate_sessions(self) -> None:
        """Forget every session: the next RESUME is answered with INVALID_SESSION."""
        self._sessions.clear()

    async def wait_gateway_ready(self, timeout: float = 10.0) -> None:
        """Wait until every shard has a live, identified or resumed gateway connection."""

        def ready() -> bool:
            live = [s for s in self._sessions.values() if s.conn is not None]
            if not live:
                return False
            count = live[0].shard[1]
            return {s.shard[0] for s in live} >= set(range(count))

        async with self._gateway_changed:
            await asyncio.wait_for(self._gateway_changed.wait_for(ready), timeout)

    # ------------------------------------------------------------------ gateway

    def _dispatch(
        self,
        event: str,
        data: JSON,
        *,
        guild_id: int | None,
        intent: int,
        on_sent: Callable[[], None] | None = None,
    ) -> None:
        for session in list(self._sessions.values()):
            if guild_id is not None and not session.owns_guild(guild_id):
                continue
            if guild_id is None and session.shard[0] != 0:
                continue  # DMs go to shard 0
            if intent and not session.intents & intent:
                continue
            session.push(event, data, on_sent)

    def _dispatch_guild(
        self, guild: FakeGuild, event: str, data: JSON | None, intent: int = INTENT_GUILDS
    ) -> None:
        self._dispatch(
            event, data if data is not None else guild.payload(), guild_id=guild.id, intent=intent
        )

    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        conn = _Connection(ws, request)
        self._connections.add(conn)
        conn.writer = asyncio.create_task(conn.write_loop())
        conn.queue.put_nowait(
            json.dumps({"op": 10, "d": {"heartbeat_interval": int(self.heartbeat_interval * 1000)}})
        )
        try:
            async for msg in ws:
                if msg.type is not WSMsgType.TEXT:
                    break
                payload = json.loads(msg.data)
                self.gateway_log.append(payload)
                await self._on_gateway_op(conn, payload)
        finally:
            if conn.session is not None and conn.session.conn is conn:
                conn.session.conn = None
            conn.queue.put_nowait(None)
            self._connections.discard(conn)
            if conn.writer is not None:
                with contextlib.suppress(asyncio.CancelledError):
                    await conn.writer
            async with self._gateway_changed:
                self._gateway_changed.notify_all()
        return ws

    async def _on_gateway_op(self, conn: _Connection, payload: JSON) -> None:
        op = payload.get("op")
        data: JSON = payload.get("d") or {}
        if op == 1:  # HEARTBEAT
            conn.queue.put_nowait(json.dumps({"op": 11}))
        elif op == 2:  # IDENTIFY
            await self._identify(conn, data)
        elif op == 6:  # RESUME
            await self._resume(conn, data)
        elif op == 8:  # REQUEST_GUILD_MEMBERS
            self._members_chunk(conn, data)
        # op 3 (presence) and 4 (voice) need no answer here.

    async def _identify(self, conn: _Connection, data: JSON) -> None:
        if data.get("token") != self.token:
            await conn.ws.close(code=4004, message=b"Authentication failed.")
            return
        shard_id, shard_count = data.get("shard", [0, 1])
        for old in [s for s in self._sessions.values() if s.shard[0] == shard_id]:
            del self._sessions[old.id]
        session = _Session(secrets.token_hex(16), (shard_id, shard_count), data.get("intents", 0))
        self._sessions[session.id] = session
        session.conn = conn
        conn.session = session
        self.identifies += 1
        guilds = [g for g in self.guilds.values() if session.owns_guild(g.id)]
        user = self.bot_user.payload() | {"verified": True, "mfa_enabled": False, "flags": 0}
        session.push(
            "READY",
            {
                "v": 10,
                "user": user,
                "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
                "session_id": session.id,
                "resume_gateway_url": self.gateway_url,
                "shard": [shard_id, shard_count],
                "application": {"id": str(self.application_id), "flags": 0},
                "private_channels": [],
                "relationships": [],
                "presences": [],
                "geo_ordered_rtc_regions": [],
                "guild_join_requests": [],
                "user_settings": {},
            },
        )
        for guild in guilds:
            session.push("GUILD_CREATE", guild.payload())
        async with self._gateway_changed:
            self._gateway_changed.notify_all()

    async def _resume(self, conn: _Connection, data: JSON) -> None:
        session = self._sessions.get(data.get("session_id", ""))
        if session is None or data.get("token") != self.token:
            conn.queue.put_nowait(json.dumps({"op": 9, "d": False}))
            return
        self.resumes += 1
        seq = data.get("seq") or 0
        if session.conn is not None and session.conn is not conn:
            session.conn.queue.put_nowait(None)
        session.conn = conn
        conn.session = session
        for frame_seq, frame in session.sent:
            if frame_seq > seq:
                conn.queue.put_nowait(frame)
        session.push("RESUMED", {})
        async with self._gateway_changed:
            self._gateway_changed.notify_all()

    def _members_chunk(self, conn: _Connection, data: JSON) -> None:
        if conn.session is None:
            return
        guild = self.guilds.get(int(data.get("guild_id", 0)))
        if guild is None:
            return
        chunk: JSON = {
            "guild_id": str(guild.id),
            "members": [m.payload() for m in guild.members.values()],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
        }
        if data.get("nonce") is not None:
            chunk["nonce"] = data["nonce"]
        conn.session.push("GUILD_MEMBERS_CHUNK", chunk)

    # ------------------------------------------------------------------ REST plumbing

    async def _attachment_file(self, request: web.Request) -> web.StreamResponse:
        attachment = self.attachments.get(int(request.match_info["aid"]))
        if attachment is None:
            return web.Response(status=404)
        return web.Response(body=attachment.data, content_type=attachment.content_type)

    def _routes(self) -> list[tuple[str, re.Pattern[str], Handler, bool]]:
        snow = r"(\d+)"
        tok = r"([^/]+)"
        table: list[tuple[str, str, Handler, bool]] = [
            ("GET", r"/gateway/bot", self._get_gateway_bot, True),
            ("GET", r"/gateway", self._get_gateway, False),
            ("GET", r"/users/@me", self._get_me, True),
            ("POST", r"/users/@me/channels", self._create_dm, True),
            ("GET", rf"/users/{snow}", self._get_user, True),
            ("GET", r"/oauth2/applications/@me", self._get_application, True),
            ("GET", r"/applications/@me", self._get_application, True),
            ("GET", rf"/applications/{snow}/commands", self._list_commands, True),
            ("PUT", rf"/applications/{snow}/commands", self._put_commands, True),
            ("POST", rf"/applications/{snow}/commands", self._upsert_command, True),
            ("GET", rf"/applications/{snow}/guilds/{snow}/commands", self._list_commands, True),
            ("PUT", rf"/applications/{snow}/guilds/{snow}/commands", self._put_commands, True),
            ("POST", rf"/applications/{snow}/guilds/{snow}/commands", self._upsert_command, True),
            ("POST", rf"/interactions/{snow}/{tok}/callback", self._callback, False),
            ("POST", rf"/webhooks/{snow}/{tok}", self._followup, False),
            ("GET", rf"/webhooks/{snow}/{tok}/messages/(@original|\d+)", self._wh_get, False),
            ("PATCH", rf"/webhooks/{snow}/{tok}/messages/(@original|\d+)", self._wh_edit, False),
            ("DELETE", rf"/webhooks/{snow}/{tok}/messages/(@original|\d+)", self._wh_del, False),
            ("GET", rf"/channels/{snow}", self._get_channel, True),
            ("GET", rf"/channels/{snow}/messages", self._list_messages, True),
            ("POST", rf"/channels/{snow}/messages", self._send_message, True),
            ("GET", rf"/channels/{snow}/messages/{snow}", self._get_message, True),
            ("PATCH", rf"/channels/{snow}/messages/{snow}", self._edit_message, True),
            ("DELETE", rf"/channels/{snow}/messages/{snow}", self._delete_message, True),
            ("POST", rf"/channels/{snow}/typing", self._typing, True),
            ("GET", rf"/guilds/{snow}", self._get_guild, True),
            ("GET", rf"/guilds/{snow}/members/{snow}", self._get_member, True),
        ]
        return [(m, re.compile(f"^{p}$"), h, auth) for m, p, h, auth in table]

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        record = RequestRecord(request.method, path, dict(request.query), self.clock())
        self.requests.append(record)
        request[_RECORD] = record
        response = await self._answer(request, path, record)
        record.status = response.status
        return response

    async def _answer(
        self, request: web.Request, path: str, record: RequestRecord
    ) -> web.StreamResponse:
        for fault in self.faults:
            if fault.matches(request.method, path):
                fault.hits += 1
                await request.read()
                return self._fault_response(fault)
        for method, pattern, handler, needs_auth in self._routes():
            match = pattern.match(path)
            if match is None or method != request.method:
                continue
            if needs_auth and request.headers.get("Authorization") != f"Bot {self.token}":
                return _json_response(401, {"message": "401: Unauthorized", "code": 0})
            try:
                return await handler(request, *match.groups())
            except ApiError as err:
                body: JSON = {"message": err.message, "code": err.code}
                if err.code == 50035:
                    body["errors"] = {}
                return _json_response(err.status, body)
        record.handled = False
        return _json_response(404, {"message": "404: Not Found", "code": 0})

    def _fault_response(self, fault: Fault) -> web.Response:
        if 400 <= fault.status < 500 and fault.status != 429:
            message = INJECTABLE_CODES[fault.code]
            return _json_response(fault.status, {"message": message, "code": fault.code})
        if fault.status != 429:
            return _json_response(fault.status, {"message": "Server error", "code": 0})
        reset = time.time() + fault.retry_after
        headers = {
            "Retry-After": str(max(1, math.ceil(fault.retry_after))),
            "X-RateLimit-Limit": "5",
            "X-RateLimit-Remaining": "0",
            "X-RateLimit-Reset": f"{reset:.3f}",
            "X-RateLimit-Reset-After": f"{fault.retry_after:.3f}",
            "X-RateLimit-Bucket": "fake-bucket",
            "X-RateLimit-Scope": "global" if fault.is_global else "user",
            "Via": "1.1 google",  # discord.py treats a 429 without Via as a Cloudflare ban
        }
        if fault.is_global:
            headers["X-RateLimit-Global"] = "true"
        body = {
            "message": "You are being rate limited.",
            "retry_after": fault.retry_after,
            "global": fault.is_global,
        }
        return _json_response(429, body, headers)

    async def _read_body(self, request: web.Request) -> tuple[JSON, dict[int, StoredAttachment]]:
        """The JSON body, or a multipart body's ``payload_json`` plus its ``files[n]``."""
        record = request[_RECORD]
        files: dict[int, StoredAttachment] = {}
        # the raw headers, read with one regex: aiohttp's parsed ``content_type`` and
        # ``part.name`` go through the email package (~0.3 ms a request, on the loop that
        # also serves the bot's interactions)
        if request.headers.get("Content-Type", "").startswith("multipart/"):
            payload: JSON = {}
            reader = await request.multipart()
            async for part in reader:
                disposition = part.headers.get("Content-Disposition", "")
                found = dict(_DISPOSITION.findall(disposition))
                name = found.get("name", "")
                if name == "payload_json":
                    payload = json.loads(await part.text())  # type: ignore[union-attr]
                elif name.startswith("files[") and name.endswith("]"):
                    filename = found.get("filename") or "file"
                    content_type = mimetypes.guess_type(filename)[0] or "application/octet-stream"
                    data = await part.read()  # type: ignore[union-attr]
                    files[int(name[6:-1])] = StoredAttachment(
                        self._ids.next(), filename, content_type, bytes(data)
                    )
            record.body, record.files = payload, len(files)
            return payload, files
        raw = await request.read()
        payload = json.loads(raw) if raw else {}
        record.body = payload
        return payload, files

    # ------------------------------------------------------------------ REST: identity

    async def _get_gateway_bot(self, request: web.Request) -> web.Response:
        limit = {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}
        return _json_response(
            200, {"url": self.gateway_url, "shards": 1, "session_start_limit": limit}
        )

    async def _get_gateway(self, request: web.Request) -> web.Response:
        return _json_response(200, {"url": self.gateway_url})

    async def _get_me(self, request: web.Request) -> web.Response:
        data = self.bot_user.payload() | {"verified": True, "mfa_enabled": False, "flags": 0}
        return _json_response(200, data)

    async def _get_user(self, request: web.Request, uid: str) -> web.Response:
        user = self.users.get(int(uid))
        if user is None:
            raise ApiError(404, 10013, "Unknown User")
        return _json_response(200, user.payload())

    async def _get_application(self, request: web.Request) -> web.Response:
        return _json_response(
            200,
            {
                "id": str(self.application_id),
                "name": self.bot_user.name,
                "icon": None,
                "description": "Home Game (fake Discord)",
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": self.owner.payload(),
                "verify_key": "0" * 64,
                "team": None,
                "flags": 0,
                "bot": self.bot_user.payload(),
            },
        )

    async def _get_guild(self, request: web.Request, gid: str) -> web.Response:
        guild = self.guilds.get(int(gid))
        if guild is None:
            raise ApiError(404, 10004, "Unknown Guild")
        data = guild.payload()
        for key in ("members", "channels", "threads", "presences", "voice_states"):
            data.pop(key)
        return _json_response(200, data)

    async def _get_member(self, request: web.Request, gid: str, uid: str) -> web.Response:
        guild = self.guilds.get(int(gid))
        if guild is None:
            raise ApiError(404, 10004, "Unknown Guild")
        member = guild.member(int(uid))
        if member is None:
            raise ApiError(404, 10007, "Unknown Member")
        return _json_response(200, member.payload())

    # ------------------------------------------------------------------ REST: commands

    def _command_store(self, app: str, gid: str | None) -> dict[str, JSON]:
        if int(app) != self.application_id:
            raise ApiError(403, 50001, "Missing Access")
        if gid is None:
            return self.global_commands
        if int(gid) not in self.guilds:
            raise ApiError(404, 10004, "Unknown Guild")
        return self.guild_commands.setdefault(int(gid), {})

    def _check_command(self, data: JSON) -> None:
        kind = data.get("type", 1)
        name = data.get("name", "")
        if kind == 1 and not _COMMAND_NAME.match(name):
            raise invalid_form(f"command name {name!r} must match {_COMMAND_NAME.pattern}")
        description = data.get("description", "")
        if kind == 1 and not 1 <= len(description) <= 100:
            raise invalid_form(f"command {name!r}: description must be 1-100 characters")
        self._check_options(name, data.get("options") or [])

    def _check_options(self, where: str, options: Sequence[JSON]) -> None:
        if len(options) > 25:
            raise invalid_form(f"{where}: more than 25 options")
        seen_optional = False
        for option in options:
            name = option.get("name", "")
            if not _COMMAND_NAME.match(name):
                raise invalid_form(f"{where}: option name {name!r} is invalid")
            if not 1 <= len(option.get("description", "")) <= 100:
                raise invalid_form(f"{where}.{name}: description must be 1-100 characters")
            if len(option.get("choices") or []) > 25:
                raise invalid_form(f"{where}.{name}: more than 25 choices")
            if option.get("type") in (1, 2):
                self._check_options(f"{where} {name}", option.get("options") or [])
            elif option.get("required"):
                if seen_optional:
                    raise invalid_form(f"{where}: required option {name!r} after optional")
            else:
                seen_optional = True

    def _stored_command(self, data: JSON, old: JSON | None, gid: str | None) -> JSON:
        stored = dict(data)
        stored["id"] = old["id"] if old else str(self._ids.next())
        stored["application_id"] = str(self.application_id)
        stored["version"] = str(self._ids.next())
        stored.setdefault("type", 1)
        stored.setdefault("description", "")
        stored.setdefault("options", [])
        stored.setdefault("default_member_permissions", None)
        stored.setdefault("nsfw", False)
        if gid is not None:
            stored["guild_id"] = gid
        return stored

    async def _list_commands(
        self, request: web.Request, app: str, gid: str | None = None
    ) -> web.Response:
        return _json_response(200, list(self._command_store(app, gid).values()))

    async def _put_commands(
        self, request: web.Request, app: str, gid: str | None = None
    ) -> web.Response:
        store = self._command_store(app, gid)
        body, _ = await self._read_body(request)
        if not isinstance(body, list) or len(body) > 100:
            raise invalid_form("expected a list of at most 100 commands")
        for data in body:
            self._check_command(data)
        new = {}
        for data in body:
            new[data["name"]] = self._stored_command(data, store.get(data["name"]), gid)
        store.clear()
        store.update(new)
        return _json_response(200, list(store.values()))

    async def _upsert_command(
        self, request: web.Request, app: str, gid: str | None = None
    ) -> web.Response:
        store = self._command_store(app, gid)
        body, _ = await self._read_body(request)
        self._check_command(body)
        stored = self._stored_command(body, store.get(body["name"]), gid)
        store[body["name"]] = stored
        return _json_response(201, stored)

    # ------------------------------------------------------------------ REST: messages

    def _channel(self, cid: str) -> FakeChannel:
        channel = self.channels.get(int(cid))
        if channel is None:
            raise ApiError(404, 10003, "Unknown Channel")
        return channel

    def _check_dm_open(self, channel: FakeChannel) -> None:
        user = channel.recipient
        assert user is not None
        shares_guild = any(user.id in g.members for g in self.guilds.values())
        if not user.dm_open or not shares_guild or user.bot:
            raise ApiError(403, 50007, "Cannot send messages to this user")

    def _check_bot_may_post(self, channel: FakeChannel, body: JSON, files: int) -> None:
        if channel.guild is None:
            self._check_dm_open(channel)
            return
        check_post(
            self.bot_permissions(channel),
            embeds=bool(body.get("embeds")),
            files=files,
            reply=body.get("message_reference") is not None,
        )

    def _validate_message(self, body: JSON, *, creating: bool, files: int) -> None:
        check_message(body, creating=creating, attachments=files)

    def _version_from(
        self,
        body: JSON,
        files: Mapping[int, StoredAttachment],
        previous: MessageVersion | None,
        *,
        flags: int | None = None,
    ) -> MessageVersion:
        """A new version: fields present in ``body`` replace, absent ones are kept."""
        if previous is None:
            previous = MessageVersion("", (), (), (), 0, self.clock())
        content = str(body["content"] or "") if "content" in body else previous.content
        embeds = tuple(body["embeds"] or ()) if "embeds" in body else previous.embeds
        components = (
            tuple(body["components"] or ()) if "components" in body else previous.components
        )
        if "attachments" in body:
            kept: list[StoredAttachment] = []
            old = {a.id: a for a in previous.attachments}
            for ref in body["attachments"] or []:
                ref_id = int(ref["id"])
                if ref_id in old:
                    kept.append(old[ref_id])
                elif ref_id in files:
                    file = files[ref_id]
                    if ref.get("description"):
                        file = StoredAttachment(
                            file.id, file.filename, file.content_type, file.data, ref["description"]
                        )
                    kept.append(file)
                else:
                    raise invalid_form(f"attachments: unknown attachment id {ref_id}")
            attachments = tuple(kept)
        else:
            attachments = previous.attachments + tuple(files[i] for i in sorted(files))
        for attachment in attachments:
            self.attachments[attachment.id] = attachment
        if flags is None:
            flags = previous.flags
            if body.get("flags") is not None:
                # Ephemerality and the loading state are not the bot's to change on edit.
                sticky = previous.flags & (FLAG_EPHEMERAL | FLAG_LOADING)
                flags = sticky | (int(body["flags"]) & _KEPT_FLAGS & ~FLAG_EPHEMERAL)
        return MessageVersion(
            content, embeds, components, attachments, flags, self.clock(), iso_now(self.now())
        )

    def _create_message(
        self,
        channel: FakeChannel,
        body: JSON,
        files: Mapping[int, StoredAttachment],
        *,
        ephemeral_to: FakeUser | None = None,
        interaction: InteractionRecord | None = None,
        message_type: int = 0,
        loading: bool = False,
    ) -> FakeMessage:
        flags = int(body.get("flags") or 0) & _KEPT_FLAGS
        if ephemeral_to is None:
            flags &= ~FLAG_EPHEMERAL
        if loading:
            flags |= FLAG_LOADING
        version = self._version_from(body, files, None, flags=flags)
        version = MessageVersion(
            version.content,
            version.embeds,
            version.components,
            version.attachments,
            version.flags,
            version.at,
        )
        message = FakeMessage(
            self._ids.next(),
            channel,
            self.bot_user,
            [version],
            ephemeral_to=ephemeral_to,
            interaction_id=interaction.id if interaction else None,
            webhook_id=self.application_id if interaction else None,
            message_type=message_type,
            created_at=iso_now(self.now()),
            born=self.now(),
        )
        self.messages[message.id] = message
        if ephemeral_to is None:
            self._message_event("MESSAGE_CREATE", message)
        return message

    def _edit(
        self, message: FakeMessage, body: JSON, files: Mapping[int, StoredAttachment]
    ) -> FakeMessage:
        if "attachments" in body:
            kept = len(body["attachments"] or ())
        else:
            kept = len(message.attachments) + len(files)
        self._validate_message(body, creating=False, files=kept)
        if self.age(message) > OLD_MESSAGE_AGE:
            # message.mdx's edits are not limited by age, but Discord caps them (30046)
            if message.old_edits >= self.old_message_edits:
                raise ApiError(
                    400,
                    30046,
                    "Maximum number of edits to messages older than 1 hour reached. "
                    "Try again later",
                )
            message.old_edits += 1
        version = self._version_from(body, files, message.latest)
        if message.loading:
            version = MessageVersion(
                version.content,
                version.embeds,
                version.components,
                version.attachments,
                version.flags & ~FLAG_LOADING,
                version.at,
                None,
            )
        message.versions.append(version)
        if message.ephemeral_to is None:
            self._message_event("MESSAGE_UPDATE", message)
        return message

    def _message_event(self, event: str, message: FakeMessage) -> None:
        guild = message.channel.guild
        data = self._message_json(message)
        if guild is None:
            self._dispatch(event, data, guild_id=None, intent=INTENT_DIRECT_MESSAGES)
        else:
            self._dispatch(event, data, guild_id=guild.id, intent=INTENT_GUILD_MESSAGES)

    def _message_json(self, message: FakeMessage) -> JSON:
        return message.payload(self.base_url, application_id=self.application_id)

    async def _get_channel(self, request: web.Request, cid: str) -> web.Response:
        channel = self._channel(cid)
        if not self.bot_permissions(channel) & VIEW_CHANNEL:
            raise ApiError(403, 50001, "Missing Access")
        return _json_response(200, channel.payload())

    async def _typing(self, request: web.Request, cid: str) -> web.Response:
        self._channel(cid)
        return web.Response(status=204)

    async def _create_dm(self, request: web.Request) -> web.Response:
        body, _ = await self._read_body(request)
        user = self.users.get(int(body.get("recipient_id", 0)))
        if user is None:
            raise ApiError(404, 10013, "Unknown User")
        # Discord opens the channel even when the user refuses DMs; only sending fails.
        return _json_response(200, self.dm_channel(user).payload())

    async def _list_messages(self, request: web.Request, cid: str) -> web.Response:
        channel = self._channel(cid)
        check_read(self.bot_permissions(channel))
        limit = int(request.query.get("limit", 50))
        messages = self.channel_messages(channel)[::-1][:limit]
        return _json_response(200, [self._message_json(m) for m in messages])

    async def _send_message(self, request: web.Request, cid: str) -> web.Response:
        channel = self._channel(cid)
        body, files = await self._read_body(request)
        self._check_bot_may_post(channel, body, len(files))
        self._validate_message(body, creating=True, files=len(files))
        message = self._create_message(channel, body, files)
        return _json_response(200, self._message_json(message))

    def _channel_message(self, cid: str, mid: str) -> FakeMessage:
        channel = self._channel(cid)
        if not self.bot_permissions(channel) & VIEW_CHANNEL:
            raise ApiError(403, 50001, "Missing Access")
        message = self.messages.get(int(mid))
        if message is None or message.channel is not channel or message.deleted:
            raise ApiError(404, 10008, "Unknown Message")
        if message.ephemeral_to is not None:
            raise ApiError(404, 10008, "Unknown Message")  # only its webhook can touch it
        return message

    async def _get_message(self, request: web.Request, cid: str, mid: str) -> web.Response:
        check_read(self.bot_permissions(self._channel(cid)))
        return _json_response(200, self._message_json(self._channel_message(cid, mid)))

    async def _edit_message(self, request: web.Request, cid: str, mid: str) -> web.Response:
        message = self._channel_message(cid, mid)
        body, files = await self._read_body(request)
        if message.channel.is_dm:
            self._check_dm_open(message.channel)
        else:
            check_edit(
                self.bot_permissions(message.channel),
                embeds=bool(body.get("embeds")),
                files=len(files),
            )
        if message.author is not self.bot_user:
            raise ApiError(403, 50005, "Cannot edit a message authored by another user")
        self._edit(message, body, files)
        return _json_response(200, self._message_json(message))

    async def _delete_message(self, request: web.Request, cid: str, mid: str) -> web.Response:
        message = self._channel_message(cid, mid)
        if not message.channel.is_dm:
            perms = self.bot_permissions(message.channel)
            if message.author is not self.bot_user and not perms & MANAGE_MESSAGES:
                raise ApiError(403, 50013, "Missing Permissions")
        self._delete(message)
        return web.Response(status=204)

    def _delete(self, message: FakeMessage) -> None:
        message.deleted = True
        if message.ephemeral_to is None:
            data: JSON = {"id": str(message.id), "channel_id": str(message.channel.id)}
            guild = message.channel.guild
            if guild is not None:
                data["guild_id"] = str(guild.id)
                self._dispatch(
                    "MESSAGE_DELETE", data, guild_id=guild.id, intent=INTENT_GUILD_MESSAGES
                )
            else:
                self._dispatch("MESSAGE_DELETE", data, guild_id=None, intent=INTENT_DIRECT_MESSAGES)

    # ------------------------------------------------------------------ REST: interactions

    async def _callback(self, request: web.Request, iid: str, token: str) -> web.Response:
        record = self.interactions.get(int(iid))
        if record is None or record.token != token:
            raise ApiError(404, 10062, "Unknown interaction")
        now = self.clock()
        age = now - record.dispatched_at
        body, files = await self._read_body(request)
        try:
            if age > self.token_ttl:
                raise ApiError(401, 50027, "Invalid Webhook Token")
            if record.acked_at is not None:
                raise ApiError(400, 40060, "Interaction has already been acknowledged.")
            if self.ack_deadline is not None and age > self.ack_deadline:
                raise ApiError(404, 10062, "Unknown interaction")
            kind = body.get("type")
            if kind not in ALLOWED_CALLBACKS.get(record.type, frozenset()):
                raise invalid_form(f"callback type {kind} not valid for interaction {record.type}")
            data = body.get("data") or {}
            if kind in (4, 7):
                self._validate_message(data, creating=kind == 4, files=len(files))
        except ApiError as err:
            record.refused.append(err.code)
            raise
        record.acked_at = now
        record.callback_type = kind
        record._acked.set()
        if kind == 4:
            ephemeral = bool(int(data.get("flags") or 0) & FLAG_EPHEMERAL)
            record.original = self._create_message(
                record.channel,
                data,
                files,
                ephemeral_to=record.user if ephemeral else None,
                interaction=record,
                message_type=20 if record.type == APPLICATION_COMMAND else 0,
            )
            record._settled.set()
        elif kind == 5:
            ephemeral = bool(int(data.get("flags") or 0) & FLAG_EPHEMERAL)
            record.original = self._create_message(
                record.channel,
                {"content": "", "flags": data.get("flags") or 0},
                {},
                ephemeral_to=record.user if ephemeral else None,
                interaction=record,
                message_type=20 if record.type == APPLICATION_COMMAND else 0,
                loading=True,
            )
        elif kind == 6:
            # settles with the edit of the clicked message (or a follow-up) that follows
            record.original = record.source_message
        elif kind == 7:
            assert record.source_message is not None
            record.original = self._edit(record.source_message, data, files)
            record._settled.set()
        elif kind == 8:
            record.choices = tuple(data.get("choices") or ())
            record._settled.set()
        elif kind == 9:
            record.modal = data
            record._settled.set()
        if "with_response" not in request.query:
            return web.Response(status=204)
        message = record.original if kind in (4, 5, 7) else None
        answer: JSON = {
            "interaction": {
                "id": str(record.id),
                "type": record.type,
                "activity_instance_id": None,
                "response_message_id": str(message.id) if message else None,
                "response_message_loading": kind == 5,
                "response_message_ephemeral": bool(message and message.ephemeral),
            }
        }
        if message is not None:
            answer["resource"] = {"type": kind, "message": self._message_json(message)}
        elif kind is not None:
            answer["resource"] = {"type": kind}
        return _json_response(200, answer)

    def _record_for_token(self, app: str, token: str) -> InteractionRecord:
        if int(app) != self.application_id:
            raise ApiError(404, 10015, "Unknown Webhook")
        for record in self.interactions.values():
            if record.token == token:
                if self.clock() - record.dispatched_at > self.token_ttl:
                    record.refused.append(50027)
                    raise ApiError(401, 50027, "Invalid Webhook Token")
                if record.acked_at is None:
                    raise ApiError(404, 10015, "Unknown Webhook")
                return record
        raise ApiError(401, 50027, "Invalid Webhook Token")

    def _webhook_message(self, record: InteractionRecord, mid: str) -> FakeMessage:
        if mid == "@original":
            message = record.original
        else:
            message = self.messages.get(int(mid))
            if message is not record.original and message not in record.followups:
                message = None
        if message is None or message.deleted:
            raise ApiError(404, 10008, "Unknown Message")
        return message

    async def _followup(self, request: web.Request, app: str, token: str) -> web.Response:
        record = self._record_for_token(app, token)
        body, files = await self._read_body(request)
        self._validate_message(body, creating=True, files=len(files))
        original = record.original
        if record.callback_type == 5 and original is not None and original.loading:
            # Discord fills a deferred reply with the first follow-up.
            message = self._edit(original, body, files)
            record._settled.set()
        else:
            ephemeral = bool(int(body.get("flags") or 0) & FLAG_EPHEMERAL)
            message = self._create_message(
                record.channel,
                body,
                files,
                ephemeral_to=record.user if ephemeral else None,
                interaction=record,
                message_type=0,
            )
        record.followups.append(message)
        if record.callback_type == 6 and not record._settled.is_set():
            record.settled_by = message
            record._settled.set()
        record._followup_added.set()
        if request.query.get("wait") not in ("true", "1", "True"):
            return web.Response(status=204)
        return _json_response(200, self._message_json(message))

    async def _wh_get(self, request: web.Request, app: str, token: str, mid: str) -> web.Response:
        record = self._record_for_token(app, token)
        return _json_response(200, self._message_json(self._webhook_message(record, mid)))

    async def _wh_edit(self, request: web.Request, app: str, token: str, mid: str) -> web.Response:
        record = self._record_for_token(app, token)
        message = self._webhook_message(record, mid)
        body, files = await self._read_body(request)
        self._edit(message, body, files)
        if message is record.original:
            record._settled.set()
        return _json_response(200, self._message_json(message))

    async def _wh_del(self, request: web.Request, app: str, token: str, mid: str) -> web.Response:
        record = self._record_for_token(app, token)
        self._delete(self._webhook_message(record, mid))
        return web.Response(status=204)

    # ------------------------------------------------------------------ acting as users

    def _interaction_base(
        self, kind: int, user: FakeUser, channel: FakeChannel, data: JSON
    ) -> tuple[int, str, JSON]:
        iid = self._ids.next()
        token = f"aW50ZXJhY3Rpb246{iid}:{secrets.token_urlsafe(32)}"
        payload: JSON = {
            "id": str(iid),
            "application_id": str(self.application_id),
            "type": kind,
            "data": data,
            "channel_id": str(channel.id),
            "channel": channel.payload(),
            "token": token,
            "version": 1,
            "locale": "en-US",
            "entitlements": [],
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        guild = channel.guild
        if channel.deleted:
            raise FakeDiscordError(f"{channel!r} was deleted")
        if guild is None:
            if channel.recipient is not user:
                raise FakeDiscordError(f"{user!r} cannot act in {channel!r}")
            payload["user"] = user.payload()
            payload["app_permissions"] = str(DEFAULT_EVERYONE)
            payload["context"] = 1
            payload["authorizing_integration_owners"] = {"0": "0"}
        else:
            member = self._member(guild, user)
            bot_member = guild.member(self.bot_user)
            payload["guild_id"] = str(guild.id)
            payload["guild"] = {"id": str(guild.id), "locale": "en-US", "features": []}
            payload["guild_locale"] = "en-US"
            payload["member"] = member.payload(with_permissions=True)
            payload["app_permissions"] = str(bot_permissions(channel, bot_member))
            payload["context"] = 0
            payload["authorizing_integration_owners"] = {"0": str(guild.id)}
        return iid, token, payload

    def _send_interaction(self, record: InteractionRecord) -> InteractionRecord:
        self.interactions[record.id] = record
        guild = record.channel.guild
        sent = False

        def on_sent() -> None:
            # the interaction's clock (latency, the 3-second and 15-minute windows) starts
            # when Discord sends it on the gateway, not when a user's click was queued
            nonlocal sent
            if not sent:
                sent = True
                record.dispatched_at = self.clock()

        self._dispatch(
            "INTERACTION_CREATE",
            record.payload,
            guild_id=guild.id if guild else None,
            intent=0,
            on_sent=on_sent,
        )
        return record

    async def invoke(
        self,
        user: FakeUser,
        channel: FakeChannel,
        name: str,
        options: Mapping[str, Any] | None = None,
        *,
        subcommand: str | None = None,
    ) -> InteractionRecord:
        """Run the synced slash command ``/name [subcommand] option:value…`` as ``user``.

        Options are checked against the definition the bot synced (names, types, choices,
        required, ranges); users, members, channels and roles are passed as fake objects
        and sent with their ``resolved`` data, as Discord does."""
        command, data = self._command_data(user, channel, name, options or {}, subcommand, None)
        iid, token, payload = self._interaction_base(APPLICATION_COMMAND, user, channel, data)
        record = InteractionRecord(
            iid, token, APPLICATION_COMMAND, user, channel, payload, self.clock(), command=name
        )
        del command
        return self._send_interaction(record)

    async def autocomplete(
        self,
        user: FakeUser,
        channel: FakeChannel,
        name: str,
        options: Mapping[str, Any],
        *,
        focused: str,
        subcommand: str | None = None,
    ) -> InteractionRecord:
        """Type into option ``focused`` (its value is the partial text); the reply's
        ``choices`` are what the bot suggested."""
        _, data = self._command_data(user, channel, name, options, subcommand, focused)
        iid, token, payload = self._interaction_base(AUTOCOMPLETE, user, channel, data)
        record = InteractionRecord(
            iid, token, AUTOCOMPLETE, user, channel, payload, self.clock(), command=name
        )
        return self._send_interaction(record)

    def _command_data(
        self,
        user: FakeUser,
        channel: FakeChannel,
        name: str,
        options: Mapping[str, Any],
        subcommand: str | None,
        focused: str | None,
    ) -> tuple[JSON, JSON]:
        guild = channel.guild
        command = self.command(name, guild)
        if guild is None:
            contexts = command.get("contexts")
            if command.get("dm_permission") is False or (
                contexts is not None and 1 not in contexts
            ):
                raise FakeDiscordError(f"/{name} is not available in DMs")
        else:
            member = self._member(guild, user)
            required = command.get("default_member_permissions")
            if required is not None and member.permissions & int(required) != int(required):
                raise FakeDiscordError(f"/{name} is hidden from {user.name}: missing permissions")
        resolved: JSON = {}
        definitions: Sequence[JSON] = command.get("options") or []
        path = subcommand.split() if subcommand else []
        top: list[JSON] = []
        holder = top
        for part in path:
            found = next(
                (o for o in definitions if o["name"] == part and o["type"] in (1, 2)), None
            )
            if found is None:
                raise FakeDiscordError(f"/{name} has no subcommand {part!r}")
            nested: list[JSON] = []
            holder.append({"name": part, "type": found["type"], "options": nested})
            holder = nested
            definitions = found.get("options") or []
        if any(o["type"] in (1, 2) for o in definitions):
            subs = [o["name"] for o in definitions]
            raise FakeDiscordError(f"/{name} {subcommand or ''} needs a subcommand: {subs}")
        by_name = {o["name"]: o for o in definitions}
        for key, value in options.items():
            definition = by_name.get(key)
            if definition is None:
                raise FakeDiscordError(f"/{name} has no option {key!r}; options: {sorted(by_name)}")
            if key == focused:
                holder.append(
                    {"name": key, "type": definition["type"], "value": str(value), "focused": True}
                )
                continue
            holder.append(
                {
                    "name": key,
                    "type": definition["type"],
                    "value": self._option_value(name, definition, value, channel, resolved),
                }
            )
        if focused is None:
            missing = [
                o["name"] for o in definitions if o.get("required") and o["name"] not in options
            ]
            if missing:
                raise FakeDiscordError(f"/{name}: required options missing: {missing}")
        elif focused not in by_name:
            raise FakeDiscordError(f"/{name} has no option {focused!r} to autocomplete")
        data: JSON = {
            "id": command["id"],
            "name": name,
            "type": command.get("type", 1),
            "options": top,
        }
        if resolved:
            data["resolved"] = resolved
        if command.get("guild_id"):
            data["guild_id"] = command["guild_id"]
        return command, data

    def _option_value(
        self, command: str, definition: JSON, value: Any, channel: FakeChannel, resolved: JSON
    ) -> Any:
        kind = definition["type"]
        where = f"/{command} {definition['name']}"
        if kind == 3:
            if not isinstance(value, str):
                raise FakeDiscordError(f"{where}: expected a string, got {value!r}")
            low, high = definition.get("min_length", 0), definition.get("max_length", 6000)
            if not low <= len(value) <= high:
                raise FakeDiscordError(f"{where}: length must be in {low}..{high}")
        elif kind == 4:
            if isinstance(value, bool) or not isinstance(value, int):
                raise FakeDiscordError(f"{where}: expected an integer, got {value!r}")
        elif kind == 10:
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise FakeDiscordError(f"{where}: expected a number, got {value!r}")
        elif kind == 5:
            if not isinstance(value, bool):
                raise FakeDiscordError(f"{where}: expected a boolean, got {value!r}")
        elif kind in (6, 9) and isinstance(value, FakeUser | FakeMember):
            user = value.user if isinstance(value, FakeMember) else value
            resolved.setdefault("users", {})[str(user.id)] = user.payload()
            guild = channel.guild
            member = guild.member(user) if guild else None
            if member is not None:
                member_data = member.payload(with_user=False, with_permissions=True)
                resolved.setdefault("members", {})[str(user.id)] = member_data
            return str(user.id)
        elif kind in (8, 9) and isinstance(value, FakeRole):
            resolved.setdefault("roles", {})[str(value.id)] = value.payload()
            return str(value.id)
        elif kind == 7 and isinstance(value, FakeChannel):
            info = value.payload() | {"permissions": str(DEFAULT_EVERYONE)}
            resolved.setdefault("channels", {})[str(value.id)] = info
            return str(value.id)
        else:
            raise FakeDiscordError(f"{where}: cannot pass {value!r} for option type {kind}")
        if kind in (4, 10):
            low = definition.get("min_value")
            high = definition.get("max_value")
            if (low is not None and value < low) or (high is not None and value > high):
                raise FakeDiscordError(f"{where}: {value} outside {low}..{high}")
        choices = definition.get("choices")
        if choices and value not in [c["value"] for c in choices]:
            raise FakeDiscordError(f"{where}: {value!r} is not one of the choices")
        return value

    def _component_interaction(
        self, user: FakeUser, message: FakeMessage, custom_id: str, data: JSON
    ) -> InteractionRecord:
        if message.deleted or not self.can_see(user, message):
            raise FakeDiscordError(f"{user.name} cannot see message {message.id}")
        iid, token, payload = self._interaction_base(MESSAGE_COMPONENT, user, message.channel, data)
        payload["message"] = self._message_json(message)
        record = InteractionRecord(
            iid,
            token,
            MESSAGE_COMPONENT,
            user,
            message.channel,
            payload,
            self.clock(),
            source_message=message,
            custom_id=custom_id,
        )
        return self._send_interaction(record)

    async def click(
        self, user: FakeUser, message: FakeMessage, custom_id: str
    ) -> InteractionRecord:
        """Press the button ``custom_id`` (see ``FakeMessage.button(label)``) as ``user``."""
        component = message.component(custom_id)
        if component.get("type") != 2:
            raise FakeDiscordError(f"{custom_id!r} is not a button")
        if component.get("disabled"):
            raise FakeDiscordError(f"button {component.get('label')!r} is disabled")
        data = {"custom_id": custom_id, "component_type": 2}
        return self._component_interaction(user, message, custom_id, data)

    async def click_label(
        self, user: FakeUser, message: FakeMessage, label: str
    ) -> InteractionRecord:
        return await self.click(user, message, str(message.button(label)["custom_id"]))

    async def select(
        self, user: FakeUser, message: FakeMessage, custom_id: str, values: Iterable[str]
    ) -> InteractionRecord:
        """Choose ``values`` in the string select ``custom_id`` as ``user``."""
        component = message.select(custom_id)
        chosen = list(values)
        if component.get("type") != 3:
            raise FakeDiscordError(f"select {custom_id!r}: only string selects are supported")
        if component.get("disabled"):
            raise FakeDiscordError(f"select {custom_id!r} is disabled")
        allowed = [o["value"] for o in component.get("options", [])]
        unknown = [v for v in chosen if v not in allowed]
        if unknown:
            raise FakeDiscordError(f"select {custom_id!r}: {unknown} not among {allowed}")
        low, high = component.get("min_values", 1), component.get("max_values", 1)
        if not low <= len(chosen) <= high or len(set(chosen)) != len(chosen):
            raise FakeDiscordError(f"select {custom_id!r}: choose {low}..{high} distinct values")
        data = {"custom_id": custom_id, "component_type": 3, "values": chosen}
        return self._component_interaction(user, message, custom_id, data)

    async def submit_modal(
        self, user: FakeUser, record: InteractionRecord, values: Mapping[str, str]
    ) -> InteractionRecord:
        """Fill and submit the modal the bot opened in answer to ``record``."""
        modal = record.modal
        if modal is None:
            raise FakeDiscordError("the bot did not open a modal for this interaction")
        inputs = [c for c in walk_components(modal.get("components", [])) if c.get("type") == 4]
        ids = {str(c["custom_id"]) for c in inputs}
        if set(values) - ids:
            raise FakeDiscordError(f"modal has no inputs {sorted(set(values) - ids)}")
        rows = [
            {
                "type": 1,
                "components": [
                    {
                        "type": 4,
                        "custom_id": c["custom_id"],
                        "value": values.get(c["custom_id"], ""),
                    }
                ],
            }
            for c in inputs
        ]
        data = {"custom_id": modal["custom_id"], "components": rows}
        iid, token, payload = self._interaction_base(MODAL_SUBMIT, user, record.channel, data)
        if record.source_message is not None:
            payload["message"] = self._message_json(record.source_message)
        new = InteractionRecord(
            iid,
            token,
            MODAL_SUBMIT,
            user,
            record.channel,
            payload,
            self.clock(),
            source_message=record.source_message,
            custom_id=str(modal["custom_id"]),
        )
        return self._send_interaction(new)


Handler = Callable[..., Awaitable[web.StreamResponse]]
