"""The REST side of the fake Discord: routing ``/api/v10`` requests (with authentication,
injected faults and the record of every request), reading JSON and multipart bodies, and
the identity and application-command endpoints. Messages and interactions are answered
by :class:`~bot.testing.fake_messages.FakeMessages` on top of this."""

from __future__ import annotations

import functools
import json
import math
import mimetypes
import re
import time
from collections.abc import Sequence

from aiohttp import web

from bot.testing.fake_model import JSON, StoredAttachment
from bot.testing.fake_records import (
    INJECTABLE_CODES,
    REQUEST_RECORD,
    Fault,
    Handler,
    RequestRecord,
    json_response,
)
from bot.testing.fake_rules import ApiError, invalid_form
from bot.testing.fake_world import FakeWorld

_COMMAND_NAME = re.compile(r"^[-_a-z0-9]{1,32}$")

_DISPOSITION = re.compile(r'(?:^|;)\s*(name|filename)="([^"]*)"')
"""The ``name`` and ``filename`` of a multipart part's Content-Disposition (quoted, as
aiohttp writes them for discord.py)."""
_BOUNDARY = re.compile(r'boundary="?([^";\s]+)"?')
"""A multipart body's boundary, from its Content-Type."""
_PART_DISPOSITION = re.compile(r"(?im)^content-disposition:(.*)$")
"""A part's Content-Disposition header line (the value after the colon)."""


class FakeRest(FakeWorld):
    """REST plumbing and the identity and command endpoints of the fake."""

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

    # ------------------------------------------------------------------ REST plumbing

    async def _attachment_file(self, request: web.Request) -> web.StreamResponse:
        attachment = self.attachments.get(int(request.match_info["aid"]))
        if attachment is None:
            return web.Response(status=404)
        return web.Response(body=attachment.data, content_type=attachment.content_type)

    # Discord's REST routes the fake answers: (method, path regex, handler, needs the bot
    # token); :class:`FakeMessages` adds the message and interaction routes.
    _SNOW = r"(\d+)"
    _TOKEN = r"([^/]+)"

    def _route_table(self) -> list[tuple[str, str, Handler, bool]]:
        snow = self._SNOW
        return [
            ("GET", r"/gateway/bot", self._get_gateway_bot, True),
            ("GET", r"/gateway", self._get_gateway, False),
            ("GET", r"/users/@me", self._get_me, True),
            ("GET", rf"/users/{snow}", self._get_user, True),
            ("GET", r"/oauth2/applications/@me", self._get_application, True),
            ("GET", r"/applications/@me", self._get_application, True),
            ("GET", rf"/applications/{snow}/commands", self._list_commands, True),
            ("PUT", rf"/applications/{snow}/commands", self._put_commands, True),
            ("POST", rf"/applications/{snow}/commands", self._upsert_command, True),
            ("GET", rf"/applications/{snow}/guilds/{snow}/commands", self._list_commands, True),
            ("PUT", rf"/applications/{snow}/guilds/{snow}/commands", self._put_commands, True),
            ("POST", rf"/applications/{snow}/guilds/{snow}/commands", self._upsert_command, True),
            ("GET", rf"/guilds/{snow}", self._get_guild, True),
            ("GET", rf"/guilds/{snow}/members/{snow}", self._get_member, True),
        ]

    @functools.cached_property
    def _compiled_routes(self) -> list[tuple[str, re.Pattern[str], Handler, bool]]:
        return [(m, re.compile(f"^{p}$"), h, auth) for m, p, h, auth in self._route_table()]

    def _routes(self) -> list[tuple[str, re.Pattern[str], Handler, bool]]:
        """The route table, compiled once (not on every request: the fake's loop also
        timestamps the bot's interaction answers, and must not fall behind them)."""
        return self._compiled_routes

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        record = RequestRecord(request.method, path, dict(request.query), self.clock())
        self.requests.append(record)
        request[REQUEST_RECORD] = record
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
                return json_response(401, {"message": "401: Unauthorized", "code": 0})
            try:
                return await handler(request, *match.groups())
            except ApiError as err:
                body: JSON = {"message": err.message, "code": err.code}
                if err.code == 50035:
                    body["errors"] = {}
                return json_response(err.status, body)
        record.handled = False
        return json_response(404, {"message": "404: Not Found", "code": 0})

    def _fault_response(self, fault: Fault) -> web.Response:
        if 400 <= fault.status < 500 and fault.status != 429:
            message = INJECTABLE_CODES[fault.code]
            return json_response(fault.status, {"message": message, "code": fault.code})
        if fault.status != 429:
            return json_response(fault.status, {"message": "Server error", "code": 0})
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
        return json_response(429, body, headers)

    async def _read_body(self, request: web.Request) -> tuple[JSON, dict[int, StoredAttachment]]:
        """The JSON body, or a multipart body's ``payload_json`` plus its ``files[n]``."""
        record = request[REQUEST_RECORD]
        files: dict[int, StoredAttachment] = {}
        # the raw headers, read with one regex: aiohttp's parsed ``content_type`` and
        # ``part.name`` go through the email package (~0.3 ms a request, on the loop that
        # also serves the bot's interactions)
        content_type = request.headers.get("Content-Type", "")
        if content_type.startswith("multipart/"):
            # split at the boundary in one pass over the body (aiohttp's streaming reader
            # costs the fake's loop ~0.3 ms a part: the loop that timestamps the bot's
            # interaction answers); the parts are aiohttp's FormData, as discord.py sends
            found_boundary = _BOUNDARY.search(content_type)
            if found_boundary is None:
                raise ApiError(400, 50035, "Invalid Form Body: no multipart boundary")
            delimiter = b"--" + found_boundary.group(1).encode("latin-1")
            payload: JSON = {}
            for chunk in (await request.read()).split(delimiter)[1:]:
                if chunk.startswith(b"--"):
                    break  # the closing delimiter
                head, blank, data = chunk.partition(b"\r\n\r\n")
                if not blank:
                    raise ApiError(400, 50035, "Invalid Form Body: a part has no headers")
                if data.endswith(b"\r\n"):
                    data = data[:-2]
                disposition = _PART_DISPOSITION.search(head.decode("latin-1"))
                found = dict(_DISPOSITION.findall(disposition.group(1) if disposition else ""))
                name = found.get("name", "")
                if name == "payload_json":
                    payload = json.loads(data)
                elif name.startswith("files[") and name.endswith("]"):
                    filename = found.get("filename") or "file"
                    content_type = mimetypes.guess_type(filename)[0] or "application/octet-stream"
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
        return json_response(
            200, {"url": self.gateway_url, "shards": 1, "session_start_limit": limit}
        )

    async def _get_gateway(self, request: web.Request) -> web.Response:
        return json_response(200, {"url": self.gateway_url})

    async def _get_me(self, request: web.Request) -> web.Response:
        data = self.bot_user.payload() | {"verified": True, "mfa_enabled": False, "flags": 0}
        return json_response(200, data)

    async def _get_user(self, request: web.Request, uid: str) -> web.Response:
        user = self.users.get(int(uid))
        if user is None:
            raise ApiError(404, 10013, "Unknown User")
        return json_response(200, user.payload())

    async def _get_application(self, request: web.Request) -> web.Response:
        return json_response(
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
        return json_response(200, data)

    async def _get_member(self, request: web.Request, gid: str, uid: str) -> web.Response:
        guild = self.guilds.get(int(gid))
        if guild is None:
            raise ApiError(404, 10004, "Unknown Guild")
        member = guild.member(int(uid))
        if member is None:
            raise ApiError(404, 10007, "Unknown Member")
        return json_response(200, member.payload())

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
        return json_response(200, list(self._command_store(app, gid).values()))

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
        return json_response(200, list(store.values()))

    async def _upsert_command(
        self, request: web.Request, app: str, gid: str | None = None
    ) -> web.Response:
        store = self._command_store(app, gid)
        body, _ = await self._read_body(request)
        self._check_command(body)
        stored = self._stored_command(body, store.get(body["name"]), gid)
        store[body["name"]] = stored
        return json_response(201, stored)
