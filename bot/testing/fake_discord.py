"""A loopback fake of Discord (REST + gateway) that the real, unmodified discord.py talks to.

Tests and the sandbox start a :class:`FakeDiscord`, point discord.py at ``api_base`` and
``gateway_url`` (see :mod:`bot.testing.harness`), then act as users: ``invoke`` a slash
command, ``click`` a button, ``select`` an option. The fake answers the bot like Discord
does, including the parts that make a bot misbehave in production: 429s and 5xx
(``inject``), a dropped gateway (``drop_gateway``), closed DMs (error 50007), expired
interaction tokens (50027), double acknowledgements (40060) and the 3-second deadline.

Every message keeps all its versions and who could see it, so a test can audit what each
user saw (``visible_to``) – that is how card privacy is checked end to end.

The server is built in layers, each a module subclassing the one before: the gateway
(:mod:`~bot.testing.fake_gateway`), the world and what users saw
(:mod:`~bot.testing.fake_world`, which takes the constructor's options), REST plumbing and
commands (:mod:`~bot.testing.fake_rest`), messages and interaction callbacks
(:mod:`~bot.testing.fake_messages`), guild scheduled events (:mod:`~bot.testing.fake_events`),
and here acting as users. The records they fill in are
in :mod:`~bot.testing.fake_records`; Discord's limits and refusals in
:mod:`~bot.testing.fake_rules`. The names tests import are re-exported here.
"""

from __future__ import annotations

import asyncio
import contextlib
import mimetypes
import secrets
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from aiohttp import web

from bot.testing.fake_events import FakeEvents
from bot.testing.fake_gateway import (
    INTENT_DIRECT_MESSAGES,
    INTENT_GUILD_MEMBERS,
    INTENT_GUILD_MESSAGES,
    INTENT_GUILDS,
)
from bot.testing.fake_model import (
    DEFAULT_EVERYONE,
    JSON,
    FakeChannel,
    FakeDiscordError,
    FakeMember,
    FakeMessage,
    FakeRole,
    FakeUser,
    StoredAttachment,
    walk_components,
)
from bot.testing.fake_records import (
    ALLOWED_CALLBACKS,
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    INJECTABLE_CODES,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    PING,
    Fault,
    InteractionRecord,
    InteractionReply,
    RequestRecord,
)
from bot.testing.fake_rules import bot_permissions, text_input_refusal

ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024
"""developers/reference.mdx, "Uploading Files": a file is at most 10 MiB without boosts."""

__all__ = [
    "ALLOWED_CALLBACKS",
    "APPLICATION_COMMAND",
    "ATTACHMENT_SIZE_LIMIT",
    "AUTOCOMPLETE",
    "INJECTABLE_CODES",
    "INTENT_DIRECT_MESSAGES",
    "INTENT_GUILDS",
    "INTENT_GUILD_MEMBERS",
    "INTENT_GUILD_MESSAGES",
    "MESSAGE_COMPONENT",
    "MODAL_SUBMIT",
    "PING",
    "FakeDiscord",
    "FakeDiscordError",
    "Fault",
    "InteractionRecord",
    "InteractionReply",
    "RequestRecord",
]


class FakeDiscord(FakeEvents):
    """The fake server. ``await start()`` binds 127.0.0.1 on a free port; ``api_base`` and
    ``gateway_url`` are then set. Build the world with ``add_guild``/``add_channel``/
    ``add_user``/``add_member``; act as users with ``invoke``/``click``/``select``."""

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
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
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
        self._interaction_by_token[record.token] = record
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
        elif kind == 11 and isinstance(value, StoredAttachment):
            # application-commands.mdx, "Application Command Option Type": ATTACHMENT 11,
            # sent as its id with the attachment in resolved.attachments
            # (receiving-and-responding.mdx, "Resolved Data Structure"). The client uploads
            # nothing past the interaction's attachment_size_limit (reference.mdx,
            # "Uploading Files": 10 MiB without boosts).
            if value.size > ATTACHMENT_SIZE_LIMIT:
                raise FakeDiscordError(f"{where}: {value.size} bytes is over the upload limit")
            if self.attachments.get(value.id) is not value:
                raise FakeDiscordError(f"{where}: upload the file with fake.upload() first")
            resolved.setdefault("attachments", {})[str(value.id)] = value.payload(self.base_url)
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

    def upload(
        self, filename: str, data: bytes, *, content_type: str | None = None
    ) -> StoredAttachment:
        """A file a user attaches to a slash command's attachment option (pass it as the
        option's value); served from the fake's CDN URL like every attachment."""
        kind = content_type or mimetypes.guess_type(filename)[0] or "application/octet-stream"
        stored = StoredAttachment(self._ids.next(), filename, kind, bytes(data))
        self.attachments[stored.id] = stored
        return stored

    async def select_users(
        self,
        user: FakeUser,
        message: FakeMessage,
        custom_id: str,
        chosen: Iterable[FakeUser],
    ) -> InteractionRecord:
        """Choose members in the user select ``custom_id`` (type 5) as ``user``: the values
        are their ids, with their users and members in ``resolved``
        (components/reference.mdx, "User Select"; receiving-and-responding.mdx,
        "Message Component Data Structure": "resolved: resolved entities from selected
        options")."""
        component = message.select(custom_id)
        if component.get("type") != 5:
            raise FakeDiscordError(f"select {custom_id!r} is not a user select")
        if component.get("disabled"):
            raise FakeDiscordError(f"select {custom_id!r} is disabled")
        people = list(chosen)
        low, high = component.get("min_values", 1), component.get("max_values", 1)
        if not low <= len(people) <= high or len({p.id for p in people}) != len(people):
            raise FakeDiscordError(f"select {custom_id!r}: choose {low}..{high} distinct users")
        guild = message.channel.guild
        resolved: JSON = {"users": {}, "members": {}}
        for person in people:
            member = guild.member(person) if guild is not None else None
            if guild is not None and member is None:
                raise FakeDiscordError(f"{person!r} is not a member: a user select lists members")
            resolved["users"][str(person.id)] = person.payload()
            if member is not None:
                resolved["members"][str(person.id)] = member.payload(
                    with_user=False, with_permissions=True
                )
        data = {
            "custom_id": custom_id,
            "component_type": 5,
            "values": [str(p.id) for p in people],
            "resolved": resolved,
        }
        return self._component_interaction(user, message, custom_id, data)

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
        for c in inputs:
            why = text_input_refusal(c, values.get(c["custom_id"], ""))
            if why is not None:  # the Discord client keeps the modal open instead
                raise FakeDiscordError(f"modal input {c['custom_id']!r}: {why}")
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
