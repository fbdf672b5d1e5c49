"""How a click on the table message or a hand DM is answered: part of the tables cog.

The clicker's answer is the clicked message itself, edited with the new state (through the
interaction: the deferred update's edit, or the answer's own ``edit_message``); a message
replaced since (renewed before its hour, or reposted) is never acted on, and one due for
renewal is retired by the answer. :class:`ClickAnswers` is a mixin of
:class:`~cogs.tables.TablesCog`, like :class:`~cogs._publish.TablePublisher` whose message
bookkeeping it uses (what it needs of the cog is declared below).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord

from cogs._answer import send
from cogs._coalesce import PRIVATE_FIRST, Coalescer
from cogs._delivery import OLD_MESSAGE_EDITS, is_permanent
from cogs._pictures import HandPicture
from cogs._publish import HAND_MOVED, TABLE_MOVED
from cogs._render import private_components, private_embed, table_components, table_embed

if TYPE_CHECKING:
    from bot.tables.views import PrivateView, TableView


class ClickAnswers:
    """Mixin of the TablesCog: the answer of a click (module text)."""

    updates: Coalescer
    _rendered: dict[int, int]
    _table_shown: dict[int, TableView]
    _last_hand: dict[int, PrivateView]
    _shown: dict[tuple[int, int], PrivateView]
    _pictures: dict[int, HandPicture | None]
    _worn: set[int]
    _retired: set[int]
    _due: Callable[[int], bool]
    _refresh_table: Callable[[int], None]
    _messages: Callable[[int], Awaitable[dict[str, tuple[int, int]]]]
    _hand_attachments: Callable[..., Awaitable[tuple[HandPicture | None, list[Any] | None]]]
    _update_dm: Callable[[int, int], Awaitable[None]]

    async def _superseded(self, interaction: discord.Interaction, table_id: int) -> bool:
        """The clicked table message or hand DM was replaced by a newer one (renewed before
        its hour, or reposted): its buttons must not act on the table's new state."""
        message = interaction.message
        if message is None or message.flags.ephemeral:
            return False
        kind = "table" if interaction.guild_id is not None else f"dm:{interaction.user.id}"
        where = (await self._messages(table_id)).get(kind)
        # snowflakes grow with time: an older id than the stored one was replaced
        return where is not None and message.id < where[1]

    async def _retire_clicked(self, interaction: discord.Interaction, content: str) -> None:
        """Answer a click on a message due for renewal by retiring it (no buttons left);
        past Discord's hour the refused edit is left to the renewal (it deletes it)."""
        message = interaction.message
        assert message is not None
        try:
            await edit_clicked(interaction, content=content, embeds=[], attachments=[], view=None)
        except discord.HTTPException as exc:
            if not is_permanent(exc):
                raise
            return
        self._retired.add(message.id)

    async def _answer_table(self, interaction: discord.Interaction, view: TableView) -> None:
        """The clicker's answer is the edit of the table message they clicked, once the
        hand DMs this change touched are edited (at most :data:`PRIVATE_FIRST` seconds):
        the table never names a player to act before their DM shows what they need (a
        new down card, their options); the posts and other edits follow the answer."""
        await self.updates.run_held("dm:", PRIVATE_FIRST)
        message = interaction.message
        if message is not None:
            if self._due(message.id):
                # near its hour: the clicker's answer retires it; a fresh one replaces it
                self._refresh_table(view.table_id)
                await self._retire_clicked(interaction, TABLE_MOVED)
                return
            if self._rendered.get(message.id, -1) < view.version:
                self._rendered[message.id] = view.version
                self._table_shown[view.table_id] = view
            try:
                await edit_clicked(
                    interaction, embed=table_embed(view), view=table_components(view)
                )
            except discord.HTTPException as exc:
                if exc.code != OLD_MESSAGE_EDITS:
                    raise
                self._worn.add(message.id)
                self._refresh_table(view.table_id)
        else:
            await reply_embed(interaction, table_embed(view))

    async def _answer_private(self, interaction: discord.Interaction, pv: PrivateView) -> None:
        """The clicker sees their choice at once on the DM (or ephemeral) they clicked;
        in the secret lay-down window this is the only confirmation anyone gets."""
        message = interaction.message
        if message is not None and message.guild is None and self._due(message.id):
            # near its hour: the answer retires it; a fresh hand DM shows the choice
            uid = interaction.user.id
            self.updates.submit(
                f"dm:{pv.table_id}:{uid}", lambda: self._update_dm(pv.table_id, uid)
            )
            await self._retire_clicked(interaction, HAND_MOVED)
            return
        if message is not None and message.guild is None:
            self._rendered[message.id] = max(self._rendered.get(message.id, -1), pv.version)
            self._last_hand[message.id] = pv
            self._shown[(pv.table_id, pv.user_id)] = pv
        extra: dict[str, Any] = {}
        if message is not None:
            picture, files = await self._hand_attachments(pv, message.id)
            if files is not None:
                extra["attachments"] = files
        try:
            await edit_clicked(
                interaction, embed=private_embed(pv), view=private_components(pv), **extra
            )
        except discord.HTTPException as exc:
            if exc.code != OLD_MESSAGE_EDITS or message is None or message.guild is not None:
                raise
            self._worn.add(message.id)
            uid = interaction.user.id
            self.updates.submit(
                f"dm:{pv.table_id}:{uid}", lambda: self._update_dm(pv.table_id, uid)
            )
            return
        if "attachments" in extra and message is not None:
            self._pictures[message.id] = picture


async def edit_clicked(interaction: discord.Interaction, **fields: Any) -> None:
    """Show ``fields`` on the clicked message: in the interaction's answer, or, once the
    click was acknowledged, by editing that message through the interaction."""
    if interaction.response.is_done():
        await interaction.edit_original_response(**fields)
    else:
        await interaction.response.edit_message(**fields)


async def reply_embed(interaction: discord.Interaction, embed: discord.Embed) -> None:
    """An ephemeral embed, whether or not the interaction was acknowledged."""
    if interaction.response.is_done():
        await interaction.followup.send(embed=embed, ephemeral=True)
    else:
        await send(interaction, embed=embed, ephemeral=True)
