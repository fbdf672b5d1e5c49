"""The members' names a ``/ledger export`` carries beside their ids (issue 19, item 9):
as they are now, asked of Discord (the bot has no member list: no privileged intent), else
the name the league's tables last stored."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping

import discord

from bot.render.text import one_line, plain_name

NAMES_FETCHED = 100
"""Members whose current server name an export asks Discord for (one request each); the
others, and members who left the server, get the name the league's tables last stored."""


async def member_names(
    guild: discord.Guild | None, user_ids: set[int], stored: Mapping[int, str]
) -> dict[int, str]:
    """user id -> the member's name now: their display name in the server (asked of
    Discord: the bot has no member list), else the name the tables stored."""
    out = {uid: plain_name(name) for uid, name in stored.items() if uid in user_ids}
    if guild is None:
        return out
    asked = sorted(uid for uid in user_ids if uid > 0)[:NAMES_FETCHED]
    gate = asyncio.Semaphore(4)

    async def fetch(uid: int) -> None:
        async with gate:
            try:
                member = await guild.fetch_member(uid)
            except discord.HTTPException:
                return  # left the server (or Discord refused): the stored name stays
        out[uid] = plain_name(one_line(member.display_name))

    await asyncio.gather(*(fetch(uid) for uid in asked))
    return out
