"""The tables cog's pace (issue 22, items 2-4): the hand DM's choices made in advance and
**Sit out next hand** / **I'm back**, and the turn pings.

**Turn pings** (``/settings turn_ping: off|dm|mention``, ``dm`` by default): when a turn
begins after someone else acted (the service marks it, :attr:`Published.pings`) and it is
still that player's :data:`TURN_PING_AFTER` seconds later, the bot sends them one short NEW
message (Discord notifies a new message, never an edit): a DM, or with ``mention`` a
message in the table's channel that mentions them alone (``allowed_mentions``: that user
only). Once per turn; the previous ping is deleted when the next is sent, so at most one
stays, also across a restart (its channel and message are stored, migration 0011). A player
who acts within that moment, as a table at a human pace does, is never pinged: pings cost
requests against Discord's global limit only for the turns someone is missing. A table
served without timers (the sandbox, simulations) pings nobody.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.engine.errors import HomeGameError
from bot.render.text import game_title
from bot.tables.errors import NotSeated, TableClosed
from cogs._delivery import DM_CLOSED, is_permanent
from cogs._errors import handle_error
from cogs._ids import BadCustomId, CustomId, parse_advance_arg

if TYPE_CHECKING:
    from bot.app import HomeGameBot
    from bot.tables.service import TableService
    from bot.tables.views import PrivateView, Published, TableView
    from cogs._coalesce import Coalescer

log = logging.getLogger("homegame.tables")

TURN_PING_AFTER = 5.0
"""Seconds a turn waits before its ping: a player who acts by then is not pinged (the
service's clock and sleep, so tests move it)."""
PING_MARK = "⏰"
"""How a turn ping begins (tests and the sandbox tell it from the hand DM by it)."""


def ping_text(view: TableView, user_id: int, *, mention: bool) -> str:
    """The ping: short, who, which table, when the time runs out, where the table is."""
    where = "" if mention else f" <#{view.channel_id}>"
    who = f"<@{user_id}>, your" if mention else "Your"
    until = f" (time runs out <t:{int(view.deadline)}:R>)" if view.deadline else ""
    title = game_title(view.game, view.rules)
    return f"{PING_MARK} {who} turn at the {title} table #{view.table_id}{where}{until}."


class PaceControls:
    """Mixin of the TablesCog: what it needs of the cog is declared below."""

    bot: HomeGameBot
    service: TableService
    updates: Coalescer
    _ping_tasks: dict[tuple[int, int], asyncio.Task[None]]
    _pinged: dict[tuple[int, int], int]

    if TYPE_CHECKING:

        async def _answer_private(
            self, interaction: discord.Interaction, pv: PrivateView
        ) -> None: ...

    # ------------------------------------------------------------------ the DM's controls

    async def _pace_click(self, interaction: discord.Interaction, cid: CustomId) -> None:
        """**Check/Fold**, **Check**, **Call N**, **Play on**, **Lay down** in advance,
        **Sit out next hand**, **I'm back**. The answer is the clicked DM, redrawn; a
        refusal (a price that moved, a hand that ended) is answered with its reason, then
        the DM is redrawn too."""
        uid = interaction.user.id
        tid = cid.table_id
        kind = amount = hand = None
        if cid.action == "advance":
            try:
                kind, amount, hand = parse_advance_arg(cid.arg)
            except BadCustomId:
                raise HomeGameError("That button is damaged. Nothing changed.") from None
        await interaction.response.defer()
        service = self.service
        try:
            if kind is not None:
                pv = await service.choose_in_advance(tid, uid, kind, amount=amount, hand=hand)
            elif cid.action == "sit_out":
                pv = await service.sit_out(tid, uid)
            else:
                pv = await service.sit_in(tid, uid)
        except (TableClosed, NotSeated):
            raise
        except HomeGameError as exc:
            # the reason first (the click's answer: nothing was taken), then the DM is
            # redrawn to what is true now (the new price, the next hand)
            await handle_error(interaction, exc)
            with contextlib.suppress(HomeGameError, discord.HTTPException):
                await self._answer_private(interaction, await service.private_view(tid, uid))
            return
        await self._answer_private(interaction, pv)

    # ------------------------------------------------------------------ turn pings

    def _schedule_pings(self, published: Published) -> None:
        """Each turn that began after someone else acted: a ping if it is still theirs
        :data:`TURN_PING_AFTER` seconds from now."""
        if not published.pings or not self.service.timers:
            return
        tid = published.view.table_id
        loop = asyncio.get_running_loop()
        for uid, key in published.pings:
            if uid < 0:
                continue  # a computer player
            old = self._ping_tasks.pop((tid, uid), None)
            if old is not None:
                old.cancel()
            task = loop.create_task(self._ping_later(tid, uid, key), name=f"ping-{tid}-{uid}")
            self._ping_tasks[(tid, uid)] = task
            task.add_done_callback(lambda t, k=(tid, uid): self._ping_done(k, t))

    def _ping_done(self, key: tuple[int, int], task: asyncio.Task[None]) -> None:
        if self._ping_tasks.get(key) is task:
            del self._ping_tasks[key]

    def _cancel_pings(self) -> None:
        for task in self._ping_tasks.values():
            task.cancel()
        self._ping_tasks.clear()

    async def _ping_later(self, table_id: int, user_id: int, key: int) -> None:
        await self.service.sleep(TURN_PING_AFTER)
        try:
            view = await self.service.view(table_id)
        except TableClosed:
            return
        if (user_id, key) not in view.turn_keys or self._pinged.get((table_id, user_id)) == key:
            return  # they acted meanwhile (or were pinged for this turn already)
        self._pinged[(table_id, user_id)] = key
        self.updates.submit(
            f"ping:{view.guild_id}:{user_id}", lambda: self._send_ping(table_id, user_id, key)
        )

    async def _send_ping(self, table_id: int, user_id: int, key: int) -> None:
        """Send the ping (their setting's way), remember it, delete the one before."""
        try:
            view = await self.service.view(table_id)
        except TableClosed:
            return
        if (user_id, key) not in view.turn_keys:
            return  # acted while the ping waited for its turn to be sent
        guild = view.guild_id
        async with self.bot.store.read() as tx:
            mine = await tx.member_settings(guild, user_id)
        if mine.turn_ping == "off":
            return
        mention = mine.turn_ping == "mention"
        text = ping_text(view, user_id, mention=mention)
        try:
            if mention:
                channel: Any = self.bot.get_partial_messageable(view.channel_id)
                sent = await channel.send(
                    text,
                    allowed_mentions=discord.AllowedMentions(
                        everyone=False, roles=False, users=[discord.Object(user_id)]
                    ),
                )
            else:
                dm = await self.bot.create_dm(discord.Object(id=user_id))
                sent = await dm.send(text, allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as exc:
            if exc.code == DM_CLOSED or is_permanent(exc):
                return  # DMs closed (they use My hand) or the channel refused: no ping
            raise
        async with self.bot.store.transaction() as tx:
            await tx.set_last_ping(guild, user_id, sent.channel.id, sent.id)
        if mine.ping_channel_id is not None and mine.ping_message_id is not None:
            await self._delete_ping(mine.ping_channel_id, mine.ping_message_id)

    async def _delete_ping(self, channel_id: int, message_id: int) -> None:
        """The previous ping goes (one DELETE); already gone is fine."""
        channel = self.bot.get_partial_messageable(channel_id)
        try:
            await channel.get_partial_message(message_id).delete()
        except discord.HTTPException as exc:
            if not is_permanent(exc):
                raise
