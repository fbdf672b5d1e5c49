"""The fake Discord's world: users, guilds, roles, channels, messages and synced commands,
its wall clock, and what each user could see. Building the world sends the gateway events
Discord would (GUILD_CREATE, CHANNEL_CREATE, GUILD_MEMBER_ADD…)."""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Sequence

from aiohttp import web

from bot.testing.fake_gateway import (
    INTENT_DIRECT_MESSAGES,
    INTENT_GUILD_MEMBERS,
    INTENT_GUILD_MESSAGES,
    INTENT_GUILDS,
    GatewayServer,
)
from bot.testing.fake_model import (
    DEFAULT_BOT_PERMISSIONS,
    DEFAULT_EVERYONE,
    JSON,
    VIEW_CHANNEL,
    FakeChannel,
    FakeDiscordError,
    FakeGuild,
    FakeMember,
    FakeMessage,
    FakeRole,
    FakeUser,
    MessageView,
    Snowflakes,
    StoredAttachment,
    iso_now,
)
from bot.testing.fake_records import Fault, InteractionRecord, RequestRecord
from bot.testing.fake_rules import bot_permissions, notified_users


class FakeWorld(GatewayServer):
    """The state of :class:`~bot.testing.fake_discord.FakeDiscord` and the test-facing ways
    to build and inspect it."""

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
        super().__init__(
            token=token or secrets.token_urlsafe(24), heartbeat_interval=heartbeat_interval
        )
        self.token_ttl = token_ttl
        #: Discord refuses an initial callback after 3 s (10062 Unknown interaction).
        self.ack_deadline = ack_deadline
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
        self._interaction_by_token: dict[str, InteractionRecord] = {}
        """token -> its interaction (a webhook call finds it without a scan of them all)."""
        self.requests: list[RequestRecord] = []
        self.faults: list[Fault] = []
        self._dm_channels: dict[int, FakeChannel] = {}
        self._runner: web.AppRunner | None = None
        self.base_url = ""
        self.api_base = ""

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

    def add_thread(
        self,
        parent: FakeChannel,
        name: str,
        *,
        owner: FakeUser | None = None,
        auto_archive_duration: int = 1440,
    ) -> FakeChannel:
        """A public thread of ``parent`` (sent as THREAD_CREATE, as Discord does)."""
        guild = parent.guild
        if guild is None:
            raise FakeDiscordError("a DM channel has no threads")
        thread = FakeChannel(
            self._ids.next(),
            name,
            guild=guild,
            parent=parent,
            owner_id=(owner or self.bot_user).id,
            auto_archive_duration=auto_archive_duration,
            created=iso_now(self.now()),
        )
        guild.threads.append(thread)
        self.channels[thread.id] = thread
        self._dispatch_guild(guild, "THREAD_CREATE", thread.payload() | {"newly_created": True})
        return thread

    def threads(self, parent: FakeChannel) -> list[FakeChannel]:
        """The threads of ``parent``, oldest first."""
        guild = parent.guild
        return [] if guild is None else [t for t in guild.threads if t.parent is parent]

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

    def notified(self, message: FakeMessage) -> frozenset[int]:
        """The users whose mention in ``message``'s content notified them when it was sent
        (its first version: an edit notifies nobody), by its allowed_mentions."""
        first = message.versions[0]
        return notified_users(first.content, first.allowed_mentions)

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

    def _message_event(self, event: str, message: FakeMessage) -> None:
        guild = message.channel.guild
        data = self._message_json(message)
        if guild is None:
            self._dispatch(event, data, guild_id=None, intent=INTENT_DIRECT_MESSAGES)
        else:
            self._dispatch(event, data, guild_id=guild.id, intent=INTENT_GUILD_MESSAGES)

    def _message_json(self, message: FakeMessage) -> JSON:
        return message.payload(self.base_url, application_id=self.application_id)

    def _delete(self, message: FakeMessage) -> None:
        message.deleted = True
        message.touched()
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
