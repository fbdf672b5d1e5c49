"""Persistent components: every Home Game button, the discard menu, the leaderboard's
Prev/Next and the history's hand menu.

Their state lives in the custom_id (``hg:<table>:<version>:<action>``, see
:mod:`cogs._ids`), so a button drawn before a restart is matched by its template and still
works afterwards. The table buttons and the discard menu, pressed on every move, are routed
by :func:`route_component` (an ``on_interaction`` listener) and sent in a
:class:`RoutedView`: no view is stored per message nor rebuilt from it on a click. The
league's components are ``DynamicItem``s. The callbacks only parse and hand over to the
tables or league cog; every error, expected or not, goes to the one error handler.
``bot.app`` registers them all once.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Sequence
from typing import Any, Self

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
    finally:
        _unlink(interaction)


def _unlink(interaction: discord.Interaction) -> None:
    """A handled click's interaction, freed as soon as nothing holds it: discord.py's
    answer objects refer back to it (``interaction.response`` and the edited original
    response), a reference cycle per click that kept the interaction, its member, message
    and embeds alive until the cycle collector found them."""
    held: Any = interaction
    held._original_response = None
    with contextlib.suppress(AttributeError):
        del held._cs_response


class RoutedView(discord.ui.View):
    """A message's components that :func:`route_component` answers (or that are
    registered ``DynamicItem``s): discord.py's view store keeps no copy of it.

    discord.py stores every sent view that has buttons, per message, to call their
    callbacks; each edit of a table message or hand DM would store (and each click look
    up and rebuild) one more. Our buttons carry their state in their custom_id and are
    routed by it instead, so nothing is kept per message and a click goes straight from
    the gateway event to the tables cog."""

    def is_dispatchable(self) -> bool:
        return False

    def is_finished(self) -> bool:
        # never listened to: an interaction's first reply (send_message) stores any view
        # that is not finished, whether or not it is dispatchable
        return True

    def add_item(self, item: discord.ui.Item[Any]) -> Self:
        """discord.py's, but the item keeps no reference back to this view. A view that
        is never listened to is only serialized into a request; with the item's back
        reference each one left a reference cycle (the view, its buttons, their
        components: ~40 objects) for the cycle collector to find, two or three per
        click, and the collector's pauses grew with them. Without it a sent view is
        freed at once."""
        super().add_item(item)
        item._view = None
        return self


class TableButton(discord.ui.Button[discord.ui.View]):
    """A Home Game table button (custom_id ``hg:<table>:<version>:<action>[:<arg>]``);
    its clicks are routed by :func:`route_component`, before and after a restart alike."""

    def __init__(self, cid: CustomId, **kwargs: Any) -> None:
        super().__init__(**kwargs)
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
        return cls(
            parse_custom_id(custom_id),
            label=label,
            style=style,
            custom_id=custom_id,
            disabled=disabled,
            row=row,
        )


class DiscardSelect(discord.ui.Select[discord.ui.View]):
    """The discard choice: option values are card codes (``7h``); the suggested one (what
    the table would discard on timeout) is marked. Routed by :func:`route_component`."""

    def __init__(self, cid: CustomId, **kwargs: Any) -> None:
        super().__init__(**kwargs)
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
        return cls(
            parse_custom_id(custom_id),
            custom_id=custom_id,
            placeholder="Discard one card",
            min_values=1,
            max_values=1,
            options=options,
            row=1,
        )


_BUTTON = re.compile(BUTTON_TEMPLATE)
_SELECT = re.compile(SELECT_TEMPLATE)


def lighten_click(data: Any) -> None:
    """Before discord.py parses an ``INTERACTION_CREATE`` (``data``, as it came from the
    gateway): a click of a table control carries a copy of the message clicked, whose
    embeds and components (a table's seats, house rules and eleven buttons: two thirds of
    the frame) discord.py would turn into objects on the click's way to its answer. Nothing
    that handles such a click reads them (it needs the message's id, flags and content:
    :meth:`cogs.tables.TablesCog.on_click`, discord.py's own answer), so they are dropped
    from it; every other interaction, the ``DynamicItem`` ones included (discord.py rebuilds
    their view from the message), is left as it came."""
    if not isinstance(data, dict) or data.get("type") != discord.InteractionType.component.value:
        return
    inner, message = data.get("data"), data.get("message")
    if not isinstance(inner, dict) or not isinstance(message, dict):
        return
    if control_values(inner) is not None:
        message["embeds"] = []
        message["components"] = []


def control_values(data: Any) -> Sequence[str] | None:
    """The chosen values if a component interaction's ``data`` is a click of a table
    button (none) or a choice in the discard menu; None for any other component."""
    custom_id = data.get("custom_id")
    if not isinstance(custom_id, str):
        return None
    kind = data.get("component_type")
    if kind == discord.ComponentType.button.value and _BUTTON.fullmatch(custom_id):
        return ()
    if kind == discord.ComponentType.string_select.value and _SELECT.fullmatch(custom_id):
        raw = data.get("values")
        return tuple(str(v) for v in raw) if isinstance(raw, list) else ()
    return None


async def route_component(interaction: discord.Interaction) -> None:
    """The one ``on_interaction`` listener of the tables: the table buttons and the discard
    menu (the custom_id says what was pressed, so this works for any message ever sent,
    and costs a click no view rebuilt from the message before it reaches the tables cog),
    and the submits of the amount form (:meth:`cogs._flop.FlopTables.on_modal_submit`).
    One listener, not one per kind: discord.py starts a task for each listener of every
    interaction, before the one that answers it."""
    kind = interaction.type
    if kind is discord.InteractionType.modal_submit:
        tables: Any = interaction.client.get_cog("Tables")  # type: ignore[attr-defined]
        if tables is not None:
            await tables.on_modal_submit(interaction)
        return
    if kind is not discord.InteractionType.component:
        return
    data: Any = interaction.data or {}
    values = control_values(data)
    if values is None:
        return  # not a table control (the league's and the game menu are DynamicItems)
    try:
        cid = parse_custom_id(data["custom_id"])
    except BadCustomId as exc:
        await handle_error(interaction, exc)
        return
    await _dispatch(interaction, cid, values)


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
