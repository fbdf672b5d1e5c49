"""Persistent components: every Home Game button and the discard menu are ``DynamicItem``s.

Their state lives in the custom_id (``hg:<table>:<version>:<action>``, see
:mod:`cogs._ids`), so a button drawn before a restart is matched by its template and still
works afterwards. The callbacks only parse and hand over to the tables cog; every error,
expected or not, goes to the one error handler.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import discord

from bot.engine.cards import Card
from cogs._errors import handle_error
from cogs._ids import (
    BUTTON_TEMPLATE,
    SELECT_TEMPLATE,
    BadCustomId,
    CustomId,
    build_custom_id,
    parse_custom_id,
)


async def _dispatch(interaction: discord.Interaction, cid: CustomId, values: Sequence[str]) -> None:
    try:
        handler: Any = interaction.client.get_cog("Tables")  # type: ignore[attr-defined]
        if handler is None:
            raise BadCustomId("tables are not available right now; try again in a moment")
        await handler.on_click(interaction, cid, values)
    except Exception as exc:
        await handle_error(interaction, exc)


class TableButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]], template=BUTTON_TEMPLATE
):
    def __init__(self, cid: CustomId, item: discord.ui.Button[discord.ui.View]) -> None:
        super().__init__(item)
        self.cid = cid

    @classmethod
    def make(
        cls,
        table_id: int,
        version: int,
        action: str,
        *,
        arg: str | None = None,
        label: str,
        style: discord.ButtonStyle,
        disabled: bool = False,
        row: int | None = None,
    ) -> TableButton:
        custom_id = build_custom_id(table_id, version, action, arg)
        button: discord.ui.Button[discord.ui.View] = discord.ui.Button(
            label=label, style=style, custom_id=custom_id, disabled=disabled, row=row
        )
        return cls(parse_custom_id(custom_id), button)

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> TableButton:
        assert isinstance(item, discord.ui.Button)
        return cls(parse_custom_id(match.string), item)

    async def callback(self, interaction: discord.Interaction) -> None:  # type: ignore[override]
        await _dispatch(interaction, self.cid, ())


class DiscardSelect(
    discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]], template=SELECT_TEMPLATE
):
    """The discard choice: option values are card codes (``7h``); the suggested one (what
    the table would discard on timeout) is marked."""

    def __init__(self, cid: CustomId, item: discord.ui.Select[discord.ui.View]) -> None:
        super().__init__(item)
        self.cid = cid

    @classmethod
    def make(
        cls,
        table_id: int,
        version: int,
        cards: Sequence[Card],
        suggested: Card | None,
        *,
        arg: str | None = None,
    ) -> DiscardSelect:
        custom_id = build_custom_id(table_id, version, "discard", arg)
        options = [
            discord.SelectOption(
                label=card.pretty + (" (suggested)" if card == suggested else ""),
                value=str(card),
                description="keeps your best hand" if card == suggested else None,
            )
            for card in cards
        ]
        select: discord.ui.Select[discord.ui.View] = discord.ui.Select(
            custom_id=custom_id,
            placeholder="Discard one card",
            min_values=1,
            max_values=1,
            options=options,
            row=1,
        )
        return cls(parse_custom_id(custom_id), select)

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> DiscardSelect:
        assert isinstance(item, discord.ui.Select)
        return cls(parse_custom_id(match.string), item)

    async def callback(self, interaction: discord.Interaction) -> None:  # type: ignore[override]
        await _dispatch(interaction, self.cid, tuple(self.item.values))
