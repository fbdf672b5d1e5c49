"""The tournament cog's lobby message (a part of :class:`cogs.tournament.TournamentCog`):
kept showing the tournament as it is now, through the cog's update queue, and renewed
before Discord's hour as a table message is (:mod:`cogs._delivery`)."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord

from cogs._coalesce import Coalescer
from cogs._delivery import (
    EDITS_CAPPED_AFTER,
    OLD_MESSAGE_EDITS,
    UNKNOWN_MESSAGE,
    due_for_renewal,
    is_permanent,
    jump_url,
    message_age,
    retire_message,
)
from cogs._tournament_render import lobby_components, lobby_embed

if TYPE_CHECKING:
    from bot.app import HomeGameBot
    from bot.tournament_service import TournamentService

log = logging.getLogger("homegame.tournament")

LOBBY_MOVED = "This tournament's lobby moved to a newer message:"

_NONE = discord.AllowedMentions.none()


class LobbyPublisher:
    """The lobby side of the tournament cog; it sets these in its ``__init__``."""

    bot: HomeGameBot
    director: TournamentService
    updates: Coalescer
    _lobby_at: dict[int, tuple[int, int]]

    def _refresh_lobby(self, tournament_id: int) -> None:
        self.updates.submit(f"lobby:{tournament_id}", lambda: self._update_lobby(tournament_id))

    async def _lobby_where(self, tournament_id: int) -> tuple[int, int] | None:
        known = self._lobby_at.get(tournament_id)
        if known is not None:
            return known
        async with self.bot.store.read() as tx:
            row = await tx.tournament(tournament_id)
        if row.lobby_message_id is None or row.lobby_channel_id is None:
            return None
        self._lobby_at[tournament_id] = (row.lobby_channel_id, row.lobby_message_id)
        return self._lobby_at[tournament_id]

    async def _update_lobby(self, tournament_id: int) -> None:
        """Show the tournament as it is now on its lobby message. A tournament runs for
        hours and Discord caps edits of hour-old messages (30046): a lobby
        :data:`~cogs._delivery.RENEW_AFTER` old (or refused as one, or deleted) is
        replaced by a fresh message, as a table message is, while the tournament still
        takes registrations or plays; a finished one's lobby is final."""
        where = await self._lobby_where(tournament_id)
        if where is None:
            return
        lobby = self.director.lobby(tournament_id)
        channel_id, message_id = where
        live = lobby.status in ("registering", "running")
        if live and due_for_renewal(message_id, self.director.clock()):
            await self._renew_lobby(tournament_id, channel_id, message_id)
            return
        message = self.bot.get_partial_messageable(channel_id).get_partial_message(message_id)
        try:
            await message.edit(embed=lobby_embed(lobby), view=lobby_components(lobby))
        except discord.HTTPException as exc:
            if live and exc.code == OLD_MESSAGE_EDITS:
                await self._renew_lobby(tournament_id, channel_id, message_id)
                return
            if live and isinstance(exc, discord.NotFound) and exc.code == UNKNOWN_MESSAGE:
                await self._renew_lobby(tournament_id, channel_id, None)  # deleted: repost
                return
            if not is_permanent(exc):
                raise
            log.warning("tournament %s: the lobby edit was refused (%s)", tournament_id, exc)

    async def _renew_lobby(self, tournament_id: int, channel_id: int, old_id: int | None) -> None:
        """Post a fresh lobby, remember it (a restart keeps using it), then retire the old
        one: its buttons gone and a link to the new one; past Discord's hour (an edit
        would be refused) it is deleted instead, so no stale button stays."""
        lobby = self.director.lobby(tournament_id)
        channel = self.bot.get_partial_messageable(channel_id)
        try:
            sent = await channel.send(
                embed=lobby_embed(lobby), view=lobby_components(lobby), allowed_mentions=_NONE
            )
        except discord.HTTPException as exc:
            if not is_permanent(exc):
                raise
            log.warning("tournament %s: the new lobby was refused (%s)", tournament_id, exc)
            return
        await self.director.set_lobby(tournament_id, channel_id, sent.id)
        self._lobby_at[tournament_id] = (channel_id, sent.id)
        if old_id is None:
            return
        link = jump_url(lobby.guild_id, channel_id, sent.id)
        await retire_message(
            channel.get_partial_message(old_id),
            content=f"{LOBBY_MOVED} {link}",
            editable=message_age(old_id, self.director.clock()) < EDITS_CAPPED_AFTER,
        )
