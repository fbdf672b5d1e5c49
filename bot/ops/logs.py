"""Logging for ``python -m bot run``: one format, the configured level, the token masked.

- :func:`setup_logging` installs one stderr handler with :class:`SecretFilter`, so a token
  that reaches a log message or a traceback by accident is printed as ``***`` (and so is
  the interaction token in a webhook or callback URL, :func:`mask_urls`); the libraries
  whose DEBUG lines are wire payloads (discord.py's request bodies and gateway events:
  hand DMs with their cards, interaction tokens; aiosqlite's statements with their
  parameters) stay at INFO whatever the configured level (:data:`PAYLOAD_LOGGERS`);
- :func:`log_published` writes one INFO line per table event (table, hand, event, user id);
  the TableService's subscriber (``bot.app.PublishRelay``) calls it;
- :func:`warn_http_errors` makes every failed Discord REST call a WARNING line, whoever
  made the call (the error still reaches the caller).
"""

from __future__ import annotations

import logging
import re
import sys
from collections.abc import Awaitable, Callable, Iterable
from typing import IO, TYPE_CHECKING, Any

from bot.config import MASK, Settings

if TYPE_CHECKING:
    import discord

    from bot.tables.views import Published

FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
EVENTS = logging.getLogger("homegame.events")
HTTP = logging.getLogger("homegame.discord")


MIN_SECRET_LENGTH = 8

PAYLOAD_LOGGERS: tuple[str, ...] = ("discord", "aiosqlite")
"""Loggers whose DEBUG lines carry what the log must never hold: discord.http logs each
request's body (a hand DM's cards) and URL (an interaction's token), discord.gateway each
event (interaction payloads with their tokens), aiosqlite each statement with its values
(hand events with cards). They are capped at INFO, whatever ``log.level`` says."""

_TOKEN_IN_URL = re.compile(r"/(webhooks|interactions)/([0-9]+)/([^/\s'\"?]+)")


def mask_urls(text: str) -> str:
    """``text`` with the token of every webhook or interaction URL written ``***``
    (discord.py's rate-limit warnings name the URL, and an interaction's is its token)."""
    return _TOKEN_IN_URL.sub(lambda m: f"/{m[1]}/{m[2]}/{MASK}", text)


class SecretFilter(logging.Filter):
    """Replaces each secret in a record's message and traceback text by ``***``."""

    def __init__(self, secrets: Iterable[str]) -> None:
        super().__init__()
        # Longest first, so a secret that contains another is masked whole. A "secret" of a
        # few characters is no real token (Discord's are ~70) and masking it would garble
        # ordinary words ("ne***t"), so those are left alone.
        self.secrets = sorted(
            {s for s in secrets if len(s) >= MIN_SECRET_LENGTH}, key=len, reverse=True
        )

    def mask(self, text: str) -> str:
        for secret in self.secrets:
            text = text.replace(secret, MASK)
        return mask_urls(text)

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        masked = self.mask(message)
        if masked != message:
            record.msg, record.args = masked, None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = self.mask(record.exc_text)
        if record.stack_info:
            record.stack_info = self.mask(record.stack_info)
        return True


_QUIET_CLIENT = ("voice will NOT be supported", "logging in using static token")


def _drop_voice_notice(record: logging.LogRecord) -> bool:
    """discord.py warns at start-up that voice needs PyNaCl/davey; the bot never uses voice,
    so the two lines would only alarm an operator. Its "logging in" line would repeat at
    every login retry (bot.app logs its own line per retry)."""
    return not (
        record.name == "discord.client" and any(text in str(record.msg) for text in _QUIET_CLIENT)
    )


_RECONNECTS = ("Failed to connect for shard_id", "Attempting a reconnect")


def _one_line_reconnect(record: logging.LogRecord) -> bool:
    """discord.py logs each failed gateway (re)connection with its whole traceback, every few
    seconds while Discord is unreachable: one WARNING line with the error instead."""
    if (
        record.name.startswith("discord.")
        and record.exc_info
        and any(text in str(record.msg) for text in _RECONNECTS)
    ):
        exc = record.exc_info[1]
        detail = " ".join(str(exc).split()) or "no details"
        record.msg = f"{record.getMessage()} ({type(exc).__name__}: {detail})"
        record.args = None
        record.exc_info = None
        record.exc_text = None
        record.levelno, record.levelname = logging.WARNING, "WARNING"
    return True


def setup_logging(settings: Settings, *, stream: IO[str] | None = None) -> logging.Handler:
    """Configure the root logger from ``settings.log.level``; returns the handler installed
    (replacing any handler an earlier call installed)."""
    root = logging.getLogger()
    for old in [h for h in root.handlers if getattr(h, "_homegame", False)]:
        root.removeHandler(old)
    handler = logging.StreamHandler(sys.stderr if stream is None else stream)
    handler.setFormatter(logging.Formatter(FORMAT))
    token = settings.discord.token
    handler.addFilter(_one_line_reconnect)  # before the mask: it folds the error into the line
    handler.addFilter(SecretFilter([token.get_secret_value()] if token is not None else []))
    handler.addFilter(_drop_voice_notice)
    handler._homegame = True  # type: ignore[attr-defined]
    root.addHandler(handler)
    root.setLevel(settings.log.level_number)
    for name in PAYLOAD_LOGGERS:
        logging.getLogger(name).setLevel(max(settings.log.level_number, logging.INFO))
    return handler


def event_lines(published: Published) -> list[str]:
    """One line per event of ``published``: table, hand, event kind, user id (or ``-``), and
    the chips it moved. Never a card: a private event's data stays out of the log."""
    view = published.view
    lines = []
    for event in published.events:
        seat = event.data.get("seat")
        if seat is None and event.chips:
            seat = event.chips[0].seat
        user = published.user_ids_by_seat.get(seat, "-") if isinstance(seat, int) else "-"
        chips = sum(move.amount for move in event.chips)
        line = f"table={view.table_id} hand={view.hand_number} action={event.kind} user={user}"
        if event.chips:
            line += f" chips={chips:+d}"
        lines.append(line)
    return lines


def log_published(published: Published) -> None:
    """Log :func:`event_lines` at INFO on ``homegame.events`` (cheap when INFO is off)."""
    if EVENTS.isEnabledFor(logging.INFO):
        for line in event_lines(published):
            EVENTS.info("%s", line)


def _route_path(route: Any) -> str:
    """The route's path with its channel and guild ids filled in; other parameters stay as
    ``{placeholders}`` (an interaction's webhook token must not reach the log)."""
    path = str(route.path)
    for name in ("channel_id", "guild_id"):
        value = getattr(route, name, None)
        if value is not None:
            path = path.replace("{" + name + "}", str(value))
    return path


def warn_http_errors(http: Any) -> None:
    """Wrap ``http.request`` (a ``discord.http.HTTPClient``) so that every Discord HTTP
    error is logged at WARNING (method, path, status, Discord's error code and text) before
    it is raised to the caller as before."""
    import discord

    original: Callable[..., Awaitable[Any]] = http.request
    if getattr(original, "_homegame_warns", False):
        return

    async def request(route: discord.http.Route, *args: Any, **kwargs: Any) -> Any:
        try:
            return await original(route, *args, **kwargs)
        except discord.HTTPException as exc:
            HTTP.warning(
                "Discord HTTP error: %s %s -> %s (code %s) %s",
                route.method,
                _route_path(route),
                exc.status,
                exc.code,
                exc.text,
            )
            raise

    request._homegame_warns = True  # type: ignore[attr-defined]
    http.request = request
