"""What ``/table stakes`` and ``/table rules`` say (issue 22 item 5; no Discord calls):
the stakes announcement and every option of one table in one message."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.render.limits import FIELD_VALUE, fit_lines
from bot.render.text import game_title, plain_name
from bot.tables.pacing import stakes_text

if TYPE_CHECKING:
    from bot.tables.views import TableView

STAKE_HELP: dict[str, str] = {
    "small_blind": "Hold'em, Omaha: the small blind",
    "big_blind": "Hold'em, Omaha: the big blind (the smallest bet)",
    "ante": "the ante (every game that has one)",
    "small_bet": "fixed limit, the stud games, HORSE, dealer's choice: the small bet",
    "big_bet": "fixed limit and the stud games: the big bet",
    "bring_in": "the stud games: the bring-in (less than the small bet)",
}
"""``/table stakes`` option help: which games each stake is for."""


def stakes_answer(view: TableView, host: str) -> str:
    """The announcement: the stakes set, from which hand."""
    nxt = view.hand_number + 1 if view.status == "running" else max(1, view.hand_number + 1)
    stakes = stakes_text(dict(view.next_stakes))
    return (
        f"{host} sets the stakes of table #{view.table_id} from the next hand (hand {nxt}):"
        f" {stakes}. The hand being played keeps its stakes."
    )


def rules_embed(view: TableView) -> discord.Embed:
    """``/table rules``: the game, the table's flags, and every option with its value and
    what it means (house rules, the time bank, the seat kept while sitting out), in one
    message; the stakes set for the next hand, if any."""
    title = game_title(view.game, view.rules)
    embed = discord.Embed(
        title=f"Table #{view.table_id}: {title}, its options",
        colour=discord.Colour.dark_green(),
    )
    host = next((plain_name(s.name) for s in view.seats if s.user_id == view.host_id), None)
    flags = [
        f"Host: {host or view.host_id}",
        f"Status: {view.status}",
        "Practice table (play chips)" if view.practice else "League chips",
        "Verifiable shuffle: on" if view.verifiable else "Verifiable shuffle: off",
    ]
    embed.description = " · ".join(flags)
    rows = [f"`{name}` **{value}**: {desc}" for name, value, desc in view.rules if name != "game"]
    # every option, in as many fields as they take (one message: 25 fields, 6,000 chars)
    field: list[str] = []
    for row in rows:
        if field and len("\n".join([*field, row])) > FIELD_VALUE:
            _add(embed, field)
            field = []
        field.append(row)
    if field:
        _add(embed, field)
    if view.next_stakes:
        embed.add_field(
            name="From the next hand",
            value=stakes_text(dict(view.next_stakes)),
            inline=False,
        )
    embed.set_footer(text=f"Rules: /rules {view.game} · /rules table")
    return embed


def _add(embed: discord.Embed, rows: list[str]) -> None:
    name = "Options" if not embed.fields else "Options (continued)"
    embed.add_field(name=name, value=fit_lines(rows, FIELD_VALUE), inline=False)
