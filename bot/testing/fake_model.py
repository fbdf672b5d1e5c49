"""The state a fake Discord keeps: users, guilds, roles, channels, messages and their versions.

Everything here is plain data with the Discord JSON shape next to it (``payload()``), so the
fake server can hand the real discord.py client exactly what Discord would, and tests can
audit afterwards who could have seen what (every edit is kept as a version).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import itertools
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

JSON = dict[str, Any]

DISCORD_EPOCH_MS = 1_420_070_400_000

# Permission bits (https://discord.com/developers/docs/topics/permissions).
ADMINISTRATOR = 1 << 3
ADD_REACTIONS = 1 << 6
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
MANAGE_MESSAGES = 1 << 13
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
MANAGE_GUILD = 1 << 5
USE_APPLICATION_COMMANDS = 1 << 31
# developers/topics/permissions.mdx: "CREATE_PUBLIC_THREADS 1 << 35: Allows for creating
# public and announcement threads"; "SEND_MESSAGES_IN_THREADS 1 << 38: Allows for sending
# messages in threads" (SEND_MESSAGES "does not allow sending messages in threads").
CREATE_PUBLIC_THREADS = 1 << 35
SEND_MESSAGES_IN_THREADS = 1 << 38
ALL_PERMISSIONS = (1 << 51) - 1

#: What @everyone may do in a fresh fake guild: talk, read, use commands, and (as in a new
#: Discord server, whose @everyone may) open public threads and talk in them.
DEFAULT_EVERYONE = (
    VIEW_CHANNEL
    | SEND_MESSAGES
    | ADD_REACTIONS
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | USE_APPLICATION_COMMANDS
    | CREATE_PUBLIC_THREADS
    | SEND_MESSAGES_IN_THREADS
)
#: What the bot's own managed role grants unless a test says otherwise.
DEFAULT_BOT_PERMISSIONS = DEFAULT_EVERYONE | MANAGE_MESSAGES

# Message flags.
FLAG_EPHEMERAL = 1 << 6
FLAG_LOADING = 1 << 7


class FakeDiscordError(AssertionError):
    """A test drove the fake in a way real Discord would not allow (unknown command, option,
    button, a click on a message the user cannot see…). Raised in the test, never sent to
    the bot, so a mistake in a test cannot pass silently."""


class Snowflakes:
    """Real-looking, strictly increasing snowflakes (timestamp in the top bits, from
    ``wall``: the fake's wall clock, which a test may move forward)."""

    def __init__(self, wall: Callable[[], float] = time.time) -> None:
        self._counter = itertools.count(1)
        self._last = 0
        self.wall = wall

    def next(self) -> int:
        ms = int(self.wall() * 1000) - DISCORD_EPOCH_MS
        value = (ms << 22) | (next(self._counter) & 0xFFF)
        self._last = max(value, self._last + 1)
        return self._last


def iso_now(wall: float | None = None) -> str:
    if wall is None:
        return dt.datetime.now(dt.UTC).isoformat()
    return dt.datetime.fromtimestamp(wall, dt.UTC).isoformat()


@dataclass(eq=False)
class FakeUser:
    id: int
    name: str
    bot: bool = False
    dm_open: bool = True

    def payload(self) -> JSON:
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
        }

    def __repr__(self) -> str:
        return f"FakeUser({self.name!r}, id={self.id})"


@dataclass(eq=False)
class FakeRole:
    id: int
    guild_id: int
    name: str
    permissions: int
    position: int = 0
    managed: bool = False

    def payload(self) -> JSON:
        return {
            "id": str(self.id),
            "name": self.name,
            "permissions": str(self.permissions),
            "position": self.position,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "managed": self.managed,
            "mentionable": False,
            "flags": 0,
        }


@dataclass(eq=False)
class FakeMember:
    guild: FakeGuild
    user: FakeUser
    roles: list[FakeRole] = field(default_factory=list)
    joined_at: str = field(default_factory=iso_now)
    nick: str | None = None
    """The member's server nickname (their display name there), None: their own name."""

    @property
    def permissions(self) -> int:
        """Guild-level permissions: @everyone plus every role; administrator or ownership
        grants everything (Discord's base-permission algorithm, without channel overwrites)."""
        if self.guild.owner_id == self.user.id:
            return ALL_PERMISSIONS
        value = self.guild.everyone.permissions
        for role in self.roles:
            value |= role.permissions
        if value & ADMINISTRATOR:
            return ALL_PERMISSIONS
        return value

    def payload(self, *, with_user: bool = True, with_permissions: bool = False) -> JSON:
        data: JSON = {
            "roles": [str(r.id) for r in self.roles],
            "joined_at": self.joined_at,
            "nick": self.nick,
            "avatar": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
            "premium_since": None,
            "communication_disabled_until": None,
        }
        if with_user:
            data["user"] = self.user.payload()
        if with_permissions:
            data["permissions"] = str(self.permissions)
        return data


@dataclass(eq=False)
class FakeChannel:
    """A guild text channel (type 0), a DM channel (type 1, ``recipient`` set) or a public
    thread of a text channel (type 11, ``parent`` set: it takes its parent's permissions)."""

    id: int
    name: str
    guild: FakeGuild | None = None
    recipient: FakeUser | None = None
    position: int = 0
    #: Member permission overwrites: user id -> (allow, deny) bits (``set_bot_permissions``).
    overwrites: dict[int, tuple[int, int]] = field(default_factory=dict)
    deleted: bool = False
    parent: FakeChannel | None = None
    owner_id: int | None = None
    auto_archive_duration: int = 1440
    created: str = ""

    @property
    def is_dm(self) -> bool:
        return self.guild is None

    @property
    def is_thread(self) -> bool:
        return self.parent is not None

    @property
    def type(self) -> int:
        return 1 if self.is_dm else 11 if self.is_thread else 0

    def payload(self) -> JSON:
        if self.parent is not None and self.guild is not None:
            # developers/resources/channel.mdx, "Channel Object" / "Thread Metadata Object"
            return {
                "id": str(self.id),
                "type": 11,
                "guild_id": str(self.guild.id),
                "name": self.name,
                "parent_id": str(self.parent.id),
                "owner_id": str(self.owner_id or 0),
                "last_message_id": None,
                "rate_limit_per_user": 0,
                "message_count": 0,
                "member_count": 1,
                "total_message_sent": 0,
                "flags": 0,
                "thread_metadata": {
                    "archived": False,
                    "auto_archive_duration": self.auto_archive_duration,
                    "archive_timestamp": self.created,
                    "locked": False,
                    "create_timestamp": self.created,
                },
            }
        if self.guild is None:
            assert self.recipient is not None
            return {
                "id": str(self.id),
                "type": 1,
                "last_message_id": None,
                "recipients": [self.recipient.payload()],
                "flags": 0,
            }
        return {
            "id": str(self.id),
            "type": 0,
            "guild_id": str(self.guild.id),
            "name": self.name,
            "position": self.position,
            "permission_overwrites": [
                {"id": str(uid), "type": 1, "allow": str(allow), "deny": str(deny)}
                for uid, (allow, deny) in self.overwrites.items()
            ],
            "parent_id": None,
            "topic": None,
            "nsfw": False,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "flags": 0,
        }

    def __repr__(self) -> str:
        where = f"dm:{self.recipient.name}" if self.recipient else f"#{self.name}"
        return f"FakeChannel({where}, id={self.id})"


@dataclass(eq=False)
class FakeGuild:
    id: int
    name: str
    owner_id: int
    everyone: FakeRole
    roles: list[FakeRole] = field(default_factory=list)
    channels: list[FakeChannel] = field(default_factory=list)
    members: dict[int, FakeMember] = field(default_factory=dict)
    threads: list[FakeChannel] = field(default_factory=list)
    """The guild's active threads (``POST /channels/{id}/threads``)."""

    def member(self, user: FakeUser | int) -> FakeMember | None:
        uid = user if isinstance(user, int) else user.id
        return self.members.get(uid)

    def channel(self, name: str) -> FakeChannel:
        for channel in self.channels:
            if channel.name == name:
                return channel
        raise FakeDiscordError(f"guild {self.name!r} has no channel {name!r}")

    def payload(self) -> JSON:
        """The full GUILD_CREATE body: channels, roles and every member, with member_count
        equal to the member list so discord.py sees the guild as already chunked."""
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "owner_id": str(self.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": [self.everyone.payload(), *(r.payload() for r in self.roles)],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "vanity_url_code": None,
            "description": None,
            "banner": None,
            "premium_tier": 0,
            "preferred_locale": "en-US",
            "public_updates_channel_id": None,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "joined_at": iso_now(),
            "large": False,
            "unavailable": False,
            "member_count": len(self.members),
            "voice_states": [],
            "members": [m.payload() for m in self.members.values()],
            "channels": [c.payload() for c in self.channels],
            "threads": [t.payload() for t in self.threads],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }

    def __repr__(self) -> str:
        return f"FakeGuild({self.name!r}, id={self.id})"


@dataclass(frozen=True)
class StoredAttachment:
    """A file the bot uploaded; ``data`` holds the bytes so tests can open card images."""

    id: int
    filename: str
    content_type: str
    data: bytes
    description: str | None = None

    @property
    def size(self) -> int:
        return len(self.data)

    def payload(self, base_url: str) -> JSON:
        url = f"{base_url}/attachments/{self.id}/{self.filename}"
        data: JSON = {
            "id": str(self.id),
            "filename": self.filename,
            "size": self.size,
            "url": url,
            "proxy_url": url,
            "content_type": self.content_type,
        }
        if self.description is not None:
            data["description"] = self.description
        return data


@dataclass(frozen=True)
class MessageVersion:
    """One state of a message, as the users saw it between two edits."""

    content: str
    embeds: tuple[JSON, ...]
    components: tuple[JSON, ...]
    attachments: tuple[StoredAttachment, ...]
    flags: int
    at: float
    edited_timestamp: str | None = None
    allowed_mentions: Mapping[str, Any] | None = None
    """The request's allowed_mentions object (None: not sent, every mention notifies;
    who a new message notified: :meth:`FakeDiscord.notified`)."""


def walk_components(components: Sequence[Mapping[str, Any]]) -> Iterator[Mapping[str, Any]]:
    """Every component, depth first, through action rows and the v2 layout containers."""
    for component in components:
        yield component
        yield from walk_components(component.get("components", ()))
        accessory = component.get("accessory")
        if accessory is not None:
            yield from walk_components((accessory,))


@dataclass(eq=False)
class FakeMessage:
    id: int
    channel: FakeChannel
    author: FakeUser
    versions: list[MessageVersion]
    #: The only user who may see this message (ephemeral interaction replies), else None.
    ephemeral_to: FakeUser | None = None
    #: The interaction this message answers (its original response or a follow-up).
    interaction_id: int | None = None
    webhook_id: int | None = None
    message_type: int = 0
    created_at: str = field(default_factory=iso_now)
    deleted: bool = False
    #: The fake's wall-clock time when the message was created (its age: ``FakeDiscord.now``).
    born: float = field(default_factory=time.time)
    #: Edits accepted after the message turned one hour old (Discord caps them: 30046).
    old_edits: int = 0
    _watchers: list[asyncio.Future[None]] = field(default_factory=list, repr=False)
    """Futures of :meth:`changed` callers, done at the next version (or the deletion)."""

    def touched(self) -> None:
        """A version was added, or the message deleted: wake every :meth:`changed` caller."""
        watchers, self._watchers = self._watchers, []
        for future in watchers:
            if not future.done():
                future.set_result(None)

    async def changed(self, since: MessageVersion, timeout: float = 30.0) -> MessageVersion:
        """The newest version once it is not ``since`` (at once if it already is not):
        waiting on the fake's own edits, not polling the message. Raises TimeoutError
        after ``timeout`` seconds without one, or if the message is deleted meanwhile."""
        async with asyncio.timeout(timeout):
            while self.latest is since:
                if self.deleted:
                    raise TimeoutError(f"message {self.id} was deleted")
                future = asyncio.get_running_loop().create_future()
                self._watchers.append(future)
                await future
        return self.latest

    @property
    def latest(self) -> MessageVersion:
        return self.versions[-1]

    @property
    def content(self) -> str:
        return self.latest.content

    @property
    def embeds(self) -> tuple[JSON, ...]:
        return self.latest.embeds

    @property
    def components(self) -> tuple[JSON, ...]:
        return self.latest.components

    @property
    def attachments(self) -> tuple[StoredAttachment, ...]:
        return self.latest.attachments

    @property
    def flags(self) -> int:
        return self.latest.flags

    @property
    def ephemeral(self) -> bool:
        return self.ephemeral_to is not None

    @property
    def loading(self) -> bool:
        """A deferred reply ("Bot is thinking…") not yet filled in."""
        return bool(self.flags & FLAG_LOADING)

    def buttons(self) -> list[Mapping[str, Any]]:
        return [c for c in walk_components(self.components) if c.get("type") == 2]

    def selects(self) -> list[Mapping[str, Any]]:
        return [c for c in walk_components(self.components) if c.get("type") in (3, 5, 6, 7, 8)]

    def button(self, label: str) -> Mapping[str, Any]:
        """The button with this label (exactly one must exist)."""
        found = [b for b in self.buttons() if b.get("label") == label]
        if len(found) != 1:
            labels = [b.get("label") for b in self.buttons()]
            raise FakeDiscordError(
                f"message {self.id} has {len(found)} buttons labelled {label!r}; labels: {labels}"
            )
        return found[0]

    def select(self, custom_id: str) -> Mapping[str, Any]:
        for component in self.selects():
            if component.get("custom_id") == custom_id:
                return component
        ids = [c.get("custom_id") for c in self.selects()]
        raise FakeDiscordError(f"message {self.id} has no select {custom_id!r}; selects: {ids}")

    def component(self, custom_id: str) -> Mapping[str, Any]:
        for component in walk_components(self.components):
            if component.get("custom_id") == custom_id:
                return component
        raise FakeDiscordError(f"message {self.id} has no component with custom_id {custom_id!r}")

    def payload(self, base_url: str, *, application_id: int) -> JSON:
        version = self.latest
        data: JSON = {
            "id": str(self.id),
            "channel_id": str(self.channel.id),
            "author": self.author.payload(),
            "content": version.content,
            "timestamp": self.created_at,
            "edited_timestamp": version.edited_timestamp,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [a.payload(base_url) for a in version.attachments],
            "embeds": list(version.embeds),
            "components": list(version.components),
            "pinned": False,
            "type": self.message_type,
            "flags": version.flags,
        }
        if self.channel.guild is not None:
            data["guild_id"] = str(self.channel.guild.id)
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
            data["application_id"] = str(application_id)
        return data

    def __repr__(self) -> str:
        return f"FakeMessage(id={self.id}, {self.channel!r}, {self.content[:40]!r})"


@dataclass(frozen=True)
class MessageView:
    """One version of one message as a given user could see it. ``kind`` is ``"channel"``
    (everyone in the guild), ``"dm"`` (the DM's recipient) or ``"ephemeral"`` (the user who
    interacted)."""

    message_id: int
    channel_id: int
    kind: str
    version: int
    content: str
    embeds: tuple[JSON, ...]
    components: tuple[JSON, ...]
    attachments: tuple[StoredAttachment, ...]
    deleted: bool

    @property
    def text(self) -> str:
        """Everything readable in this version: content, embed texts, component labels and
        attachment names, joined; for privacy audits (e.g. "no one else's card appears")."""
        parts = [self.content]
        for embed in self.embeds:
            parts.extend(str(embed.get(key, "")) for key in ("title", "description"))
            for fld in embed.get("fields", ()):
                parts.extend((str(fld.get("name", "")), str(fld.get("value", ""))))
            footer = embed.get("footer") or {}
            parts.append(str(footer.get("text", "")))
        for component in walk_components(self.components):
            for key in ("label", "placeholder", "content"):
                if component.get(key):
                    parts.append(str(component[key]))
            for option in component.get("options", ()):
                parts.extend((str(option.get("label", "")), str(option.get("description", ""))))
        parts.extend(a.filename for a in self.attachments)
        return "\n".join(p for p in parts if p)
