"""Answering slash commands within Discord's 3 seconds when the database is slow.

Discord drops an interaction that is not acknowledged within 3 seconds. A command whose
work waits for the store (another table's commit, a backup, a busy disk) may take longer.
Each cog's ``interaction_check`` calls :func:`arm`: if the command has not answered after
:data:`DEFER_AFTER` seconds, it is deferred ("thinking", ephemeral or public as the
command's answer will be), and :func:`send` then fills it in with a follow-up. A fast
command answers exactly as before. :func:`send` and the deferral take one lock per
interaction, so the two never race (Discord refuses a second initial callback, 40060).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord

from bot import games as registry

log = logging.getLogger("homegame.answer")

DEFER_AFTER = 2.0
"""Seconds a command may take before it is deferred (Discord's limit is 3)."""

_LOCK = "homegame.answer_lock"
_TASKS: set[asyncio.Task[None]] = set()


def _lock(interaction: discord.Interaction) -> asyncio.Lock:
    lock = interaction.extras.get(_LOCK)
    if lock is None:
        lock = interaction.extras[_LOCK] = asyncio.Lock()
    return lock  # type: ignore[no-any-return]


def arm(interaction: discord.Interaction, *, ephemeral: bool, after: float = DEFER_AFTER) -> None:
    """Defer ``interaction`` if nothing has answered it ``after`` seconds from now."""

    async def later() -> None:
        await asyncio.sleep(after)
        async with _lock(interaction):
            if not interaction.response.is_done():
                try:
                    await interaction.response.defer(ephemeral=ephemeral, thinking=True)
                except discord.HTTPException:
                    pass  # answered meanwhile, or Discord dropped it: the command says
                except Exception as exc:  # e.g. the connection closed under a stopping bot
                    log.warning("could not defer interaction %s: %r", interaction.id, exc)

    task = asyncio.get_running_loop().create_task(later())
    _TASKS.add(task)  # keep a reference until it has run
    task.add_done_callback(_TASKS.discard)


async def send(interaction: discord.Interaction, content: str | None = None, **kwargs: Any) -> Any:
    """``interaction.response.send_message`` or, once the interaction was deferred, the
    follow-up that fills it in (returned, so a caller can keep the message's id). Options
    given as None are left out (a follow-up refuses ``view=None``)."""
    kwargs = {k: v for k, v in kwargs.items() if v is not None}
    async with _lock(interaction):
        if interaction.response.is_done():
            return await interaction.followup.send(content or "", wait=True, **kwargs)
        await interaction.response.send_message(content, **kwargs)
        return None


async def defer(interaction: discord.Interaction, *, ephemeral: bool) -> None:
    """Acknowledge now ("thinking"), unless something already answered."""
    async with _lock(interaction):
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=ephemeral, thinking=True)


PUBLIC_COMMANDS = frozenset(
    {
        *registry.public_commands(),  # every table command: the table is everyone's
        "leaderboard",
        "league season start",
        "league season end",
        "league void",
        "table end",
        "table kick",
        "table pause",
        "table resume",
        "table house",  # what home games play: announced to the table
        "table bomb-pot",
        "night start",
        "night end",
        "night show",
        "night correct",
        "night expense",
        "night import",
        "night schedule",
        "buyin",
        "cashout",
        "settle",
        "tournament create",
        "tournament cancel",
        "tournament pause",
        "tournament resume",
        "tournament results",
    }
)
"""Commands whose answer everyone in the channel sees; the others answer only the user."""


def arm_command(interaction: discord.Interaction) -> bool:
    """:func:`arm` a slash command, deferring as its answer will be (public or not); for a
    cog's ``interaction_check`` (always True: it checks nothing)."""
    command = interaction.command
    if command is None:
        return True
    name = command.qualified_name
    public = name in PUBLIC_COMMANDS or (
        name == "hand" and getattr(interaction.namespace, "action", None) == "void"
    )
    if name == "settle" and getattr(interaction.namespace, "period", None) == "open":
        public = False  # the open transfers are listed to the one who asks
    arm(interaction, ephemeral=not public)
    return True
