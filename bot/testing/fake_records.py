"""What the fake Discord records and answers: the REST requests the bot made, injected
faults, and the interactions users triggered with the bot's replies to them.

Split out of :mod:`bot.testing.fake_discord` (which re-exports these names); the server
that fills these records in is :class:`~bot.testing.fake_discord.FakeDiscord`.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from bot.testing.fake_model import (
    FLAG_EPHEMERAL,
    JSON,
    FakeChannel,
    FakeDiscordError,
    FakeMessage,
    FakeUser,
    StoredAttachment,
)

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


def json_response(status: int, data: Any, headers: Mapping[str, str] | None = None) -> web.Response:
    # discord.py only parses JSON when Content-Type is exactly "application/json".
    hdrs = {"Content-Type": "application/json"}
    if headers:
        hdrs.update(headers)
    return web.Response(status=status, body=json.dumps(data).encode(), headers=hdrs)


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


REQUEST_RECORD = web.RequestKey("record", RequestRecord)

WAIT = 60.0
"""Seconds a test waits for the bot's answer before calling it lost: a guard against a
test that would hang, not a deadline the bot must meet (Discord's own windows, 3 s for
the first callback and 15 minutes for the token, the fake enforces by itself). A loaded
machine answers later, never wrongly."""


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

    async def acknowledgement(self, timeout: float = WAIT) -> float:
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

    async def response(self, timeout: float = WAIT) -> InteractionReply:
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

    async def followup(self, index: int = 0, timeout: float = WAIT) -> FakeMessage:
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


Handler = Callable[..., Awaitable[web.StreamResponse]]
"""A REST route's handler: ``(request, *path groups)`` to the response."""
