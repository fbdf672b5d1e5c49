"""Persistent components: every Home Game button, the discard menu, the leaderboard's
Prev/Next and the history's hand menu are ``DynamicItem``s.

Their state lives in the custom_id (``hg:<table>:<version>:<action>``, see
:mod:`cogs._ids`), so a button drawn before a restart is matched by its template and still
works afterwards. The callbacks only parse and hand over to the tables or league cog; every
error, expected or not, goes to the one error handler. ``bot.app`` registers them all once.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import discord

from bot.engine.cards import Card
from bot.engine.errors import HomeGameError
from cogs._errors import handle_error
from cogs._ids import (
    BUTTON_TEMPLATE,
    HISTORY_TEMPLATE,
    LEADERBOARD_TEMPLATE,
    SELECT_TEMPLATE,
    BadCustomId,
    CustomId,
    LeaderboardId,
    build_custom_id,
    build_history_id,
    parse_custom_id,
    parse_history_id,
    parse_leaderboard_id,
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


# ------------------------------------------------------------------ the league's components


class LeaderboardButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]], template=LEADERBOARD_TEMPLATE
):
    """Prev / Next of a leaderboard message: its custom_id names the page it opens."""

    def __init__(self, lid: LeaderboardId, item: discord.ui.Button[discord.ui.View]) -> None:
        super().__init__(item)
        self.lid = lid

    @classmethod
    def make(cls, lid: LeaderboardId, *, disabled: bool) -> LeaderboardButton:
        label = "◀ Prev" if lid.direction == "p" else "Next ▶"
        button: discord.ui.Button[discord.ui.View] = discord.ui.Button(
            label=label,
            style=discord.ButtonStyle.secondary,
            custom_id=str(lid),
            disabled=disabled,
        )
        return cls(lid, button)

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> LeaderboardButton:
        assert isinstance(item, discord.ui.Button)
        return cls(parse_leaderboard_id(match.string), item)

    async def callback(self, interaction: discord.Interaction) -> None:  # type: ignore[override]
        try:
            cog = _league_cog(interaction)
            await cog.show_leaderboard_page(interaction, self.lid)
        except Exception as exc:
            await handle_error(interaction, exc)


class HistorySelect(
    discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]], template=HISTORY_TEMPLATE
):
    """The ``/history`` menu: option values are hand ids; choosing one opens its replay."""

    def __init__(self, user_id: int, item: discord.ui.Select[discord.ui.View]) -> None:
        super().__init__(item)
        self.user_id = user_id

    @classmethod
    def make(cls, user_id: int, options: list[discord.SelectOption]) -> HistorySelect:
        select: discord.ui.Select[discord.ui.View] = discord.ui.Select(
            custom_id=build_history_id(user_id),
            placeholder="Open a hand: replay and hand history",
            min_values=1,
            max_values=1,
            options=options,
        )
        return cls(user_id, select)

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> HistorySelect:
        assert isinstance(item, discord.ui.Select)
        return cls(parse_history_id(match.string), item)

    async def callback(self, interaction: discord.Interaction) -> None:  # type: ignore[override]
        try:
            values = list(self.item.values)
            if len(values) != 1 or not values[0].isdigit():
                raise HomeGameError("Choose one hand from the menu.")
            await _league_cog(interaction).open_hand(interaction, int(values[0]))
        except Exception as exc:
            await handle_error(interaction, exc)


def _league_cog(interaction: discord.Interaction) -> Any:
    # the LeagueCog, looked up by name as the tables' is: this module is imported by the
    # cogs and by bot.app, so it imports neither
    cog: Any = interaction.client.get_cog("League")  # type: ignore[attr-defined]
    if cog is None:
        raise HomeGameError("the league is not available right now; try again in a moment")
    return cog
