"""What Discord answers to the messages a table keeps editing, and what the bot does then.

A home game runs for hours in one channel; the table message and each hand DM are edited
all evening. Discord caps edits of messages older than an hour (30046), refuses posts and
edits in a channel the bot lost permissions in (403: 50001, 50013), a DM once the player
closed DMs (50007), and a deleted channel or message (404: 10003, 10008). None of these
gets better by retrying, so none may hold up the table's other updates.
"""

from __future__ import annotations

import contextlib
import logging

import discord

log = logging.getLogger("homegame.tables")

RENEW_AFTER = 45 * 60.0
"""Seconds after which a kept message (the table message, a hand DM) is replaced by a fresh
one instead of edited: Discord caps edits of messages older than an hour (30046), and the
replacement itself needs a few edits of the old one (retiring it) before that hour."""

EDITS_CAPPED_AFTER = 60 * 60.0
"""Seconds after which Discord caps a message's edits (30046): an edit then is refused."""

UNKNOWN_CHANNEL = 10003
UNKNOWN_MESSAGE = 10008
MISSING_ACCESS = 50001
DM_CLOSED = 50007
"""Discord: "Cannot send messages to this user" (DMs closed or no shared server)."""
MISSING_PERMISSIONS = 50013
OLD_MESSAGE_EDITS = 30046
"""Discord: "Maximum number of edits to messages older than 1 hour reached"."""


def message_age(message_id: int, now: float) -> float:
    """Seconds since Discord created ``message_id`` (its snowflake carries the time), on
    the clock ``now`` (Unix seconds): a restarted bot knows the age of a stored id."""
    return now - discord.utils.snowflake_time(message_id).timestamp()


def due_for_renewal(message_id: int, now: float) -> bool:
    return message_age(message_id, now) >= RENEW_AFTER


def is_permanent(exc: BaseException) -> bool:
    """A refusal no retry will change (403, 404, and 30046 for the edited message)."""
    if not isinstance(exc, discord.HTTPException):
        return False
    return exc.status in (403, 404) or exc.code == OLD_MESSAGE_EDITS


def jump_url(guild_id: int | None, channel_id: int, message_id: int) -> str:
    where = "@me" if guild_id is None else str(guild_id)
    return f"https://discord.com/channels/{where}/{channel_id}/{message_id}"


class OnceLog:
    """Log a permanent failure once per (table, what) instead of on every update."""

    def __init__(self) -> None:
        self._seen: set[tuple[int, str]] = set()

    def warn(self, table_id: int, what: str, exc: BaseException) -> None:
        key = (table_id, what)
        if key in self._seen:
            return
        self._seen.add(key)
        code = getattr(exc, "code", None)
        status = getattr(exc, "status", None)
        log.warning(
            "table %s: %s refused by Discord (%s %s): dropped", table_id, what, status, code
        )

    def forget(self, table_id: int, what: str) -> None:
        self._seen.discard((table_id, what))


async def retire_message(
    old: discord.PartialMessage, *, content: str, editable: bool = True
) -> None:
    """Strip a replaced message's buttons and point to its successor (``content``); past
    Discord's hour (the edit refused, or known too old: ``editable`` False) delete it
    instead, so none of its buttons stays."""
    if editable:
        try:
            await old.edit(content=content, embeds=[], attachments=[], view=None)
            return
        except discord.NotFound:
            return
        except discord.HTTPException as exc:
            if not is_permanent(exc):
                raise
    with contextlib.suppress(discord.HTTPException):
        await old.delete()
