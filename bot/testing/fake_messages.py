"""The message and interaction endpoints of the fake Discord: channel messages and DMs
(with the permission, DM and size rules of :mod:`bot.testing.fake_rules`), interaction
callbacks, follow-ups and webhook edits with their tokens and deadlines."""

from __future__ import annotations

from collections.abc import Mapping

from aiohttp import web

from bot.testing.fake_model import (
    FLAG_EPHEMERAL,
    FLAG_LOADING,
    JSON,
    MANAGE_MESSAGES,
    VIEW_CHANNEL,
    FakeChannel,
    FakeMessage,
    FakeUser,
    MessageVersion,
    StoredAttachment,
    iso_now,
)
from bot.testing.fake_records import (
    ALLOWED_CALLBACKS,
    APPLICATION_COMMAND,
    Handler,
    InteractionRecord,
    json_response,
)
from bot.testing.fake_rest import FakeRest
from bot.testing.fake_rules import (
    OLD_MESSAGE_AGE,
    ApiError,
    check_edit,
    check_message,
    check_modal,
    check_post,
    check_read,
    check_thread,
    invalid_form,
)

_KEPT_FLAGS = FLAG_EPHEMERAL | (1 << 2) | (1 << 12) | (1 << 15)  # suppress embeds, silent, v2


class FakeMessages(FakeRest):
    """What the fake answers to the bot's messages and interaction responses."""

    def _route_table(self) -> list[tuple[str, str, Handler, bool]]:
        snow, tok = self._SNOW, self._TOKEN
        return [
            *super()._route_table(),
            ("POST", r"/users/@me/channels", self._create_dm, True),
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
            ("POST", rf"/channels/{snow}/threads", self._start_thread, True),
        ]

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
            thread=channel.is_thread,
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
            content,
            embeds,
            components,
            attachments,
            flags,
            self.clock(),
            iso_now(self.now()),
            body.get("allowed_mentions"),
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
            allowed_mentions=version.allowed_mentions,
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
        message.touched()
        if message.ephemeral_to is None:
            self._message_event("MESSAGE_UPDATE", message)
        return message

    async def _get_channel(self, request: web.Request, cid: str) -> web.Response:
        channel = self._channel(cid)
        if not self.bot_permissions(channel) & VIEW_CHANNEL:
            raise ApiError(403, 50001, "Missing Access")
        return json_response(200, channel.payload())

    async def _start_thread(self, request: web.Request, cid: str) -> web.Response:
        """Start Thread without Message (a public thread of a text channel)."""
        parent = self._channel(cid)
        body, _ = await self._read_body(request)
        guild = parent.guild
        active = 0 if guild is None else len(guild.threads)
        check_thread(body, parent, self.bot_permissions(parent), active)
        assert guild is not None
        thread = self.add_thread(
            parent,
            str(body["name"]).strip(),
            owner=self.bot_user,
            auto_archive_duration=int(body.get("auto_archive_duration", 4320)),
        )
        return json_response(201, thread.payload())

    async def _typing(self, request: web.Request, cid: str) -> web.Response:
        self._channel(cid)
        return web.Response(status=204)

    async def _create_dm(self, request: web.Request) -> web.Response:
        body, _ = await self._read_body(request)
        user = self.users.get(int(body.get("recipient_id", 0)))
        if user is None:
            raise ApiError(404, 10013, "Unknown User")
        # Discord opens the channel even when the user refuses DMs; only sending fails.
        return json_response(200, self.dm_channel(user).payload())

    async def _list_messages(self, request: web.Request, cid: str) -> web.Response:
        channel = self._channel(cid)
        check_read(self.bot_permissions(channel))
        limit = int(request.query.get("limit", 50))
        messages = self.channel_messages(channel)[::-1][:limit]
        return json_response(200, [self._message_json(m) for m in messages])

    async def _send_message(self, request: web.Request, cid: str) -> web.Response:
        channel = self._channel(cid)
        body, files = await self._read_body(request)
        self._check_bot_may_post(channel, body, len(files))
        self._validate_message(body, creating=True, files=len(files))
        message = self._create_message(channel, body, files)
        return json_response(200, self._message_json(message))

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
        return json_response(200, self._message_json(self._channel_message(cid, mid)))

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
        return json_response(200, self._message_json(message))

    async def _delete_message(self, request: web.Request, cid: str, mid: str) -> web.Response:
        message = self._channel_message(cid, mid)
        if not message.channel.is_dm:
            perms = self.bot_permissions(message.channel)
            if message.author is not self.bot_user and not perms & MANAGE_MESSAGES:
                raise ApiError(403, 50013, "Missing Permissions")
        self._delete(message)
        return web.Response(status=204)

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
            if kind == 9:
                check_modal(data)
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
        return json_response(200, answer)

    def _record_for_token(self, app: str, token: str) -> InteractionRecord:
        if int(app) != self.application_id:
            raise ApiError(404, 10015, "Unknown Webhook")
        record = self._interaction_by_token.get(token)
        if record is None:
            raise ApiError(401, 50027, "Invalid Webhook Token")
        if self.clock() - record.dispatched_at > self.token_ttl:
            record.refused.append(50027)
            raise ApiError(401, 50027, "Invalid Webhook Token")
        if record.acked_at is None:
            raise ApiError(404, 10015, "Unknown Webhook")
        return record

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
        return json_response(200, self._message_json(message))

    async def _wh_get(self, request: web.Request, app: str, token: str, mid: str) -> web.Response:
        record = self._record_for_token(app, token)
        return json_response(200, self._message_json(self._webhook_message(record, mid)))

    async def _wh_edit(self, request: web.Request, app: str, token: str, mid: str) -> web.Response:
        record = self._record_for_token(app, token)
        message = self._webhook_message(record, mid)
        body, files = await self._read_body(request)
        self._edit(message, body, files)
        if message is record.original:
            record._settled.set()
        return json_response(200, self._message_json(message))

    async def _wh_del(self, request: web.Request, app: str, token: str, mid: str) -> web.Response:
        record = self._record_for_token(app, token)
        self._delete(self._webhook_message(record, mid))
        return web.Response(status=204)
