"""What home games play, on Discord (issue 18 items 11-15; the rules are in
bot/tables/house.py and bot/engine/flop/house.py; no rule lives here):

- the table message's lines of the house games (a straddle offered, the next hand a bomb
  pot, two boards) and its **Straddle** / **No straddle** buttons, for the seat offered
  the next hand's straddle (anyone else's click is refused with why; that player's hand
  DM has them too);
- the hand DM's **Once** / **Twice** (run it twice) and **Show** / **Muck** (an uncontested
  winner at a seven-deuce table), private controls carrying the window's token as the guts
  games' do: a button of an earlier window is refused as stale;
- the **Rabbit** button on a hand's result (``hg:<table>:0:rabbit:h<hand>``): its answer
  edits that result post, so the whole channel reads the cards that would have come (they
  are nobody's: public once the hand is over), and the button goes. No chip moves, no
  state changes: the table keeps the last few hands' rabbits;
- ``/table house`` and ``/table bomb-pot`` (declared in cogs/_table_commands.py): the host
  changes house options from the next hand, or calls a bomb pot.

Discord allows 5 buttons a row and 5 rows (the table message keeps the house buttons on a
row of their own, with the newcomers' blind buttons), 2,000 characters of content (a
result with its rabbit is cut there) and 100 characters of custom_id.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from bot.render.text import cards_text, format_chips, plain_name
from bot.tables.house_service import rabbit_text
from cogs._ids import BadCustomId, CustomId
from cogs._items import RoutedView, TableButton

if TYPE_CHECKING:
    from bot.tables.service import TableService
    from bot.tables.views import TableView

HOUSE_LABELS = {
    "straddle": "Straddle",
    "no_straddle": "No straddle",
    "rabbit": "Rabbit",
    "once": "Once",
    "twice": "Twice",
    "show": "Show",
    "muck": "Muck",
}
CONTENT = 2000
"""Discord: characters of a message's content."""


def house_hand(cid: CustomId) -> int | None:
    """The hand a straddle or rabbit button belongs to (its ``h<hand>`` argument; the hand
    DM's Straddle has none: that message is edited as the offer changes)."""
    if cid.arg is None and cid.action in ("straddle", "no_straddle"):
        return None
    if cid.arg is None or not re.fullmatch(r"h(0|[1-9][0-9]{0,9})", cid.arg):
        raise BadCustomId("this button is damaged; use the table's newest message")
    return int(cid.arg[1:])


def rabbit_view(table_id: int, hand: int) -> discord.ui.View:
    """The result post's **Rabbit** button (no state version: it changes nothing)."""
    ui = RoutedView(timeout=None)
    ui.add_item(
        TableButton.make(
            table_id,
            0,
            "rabbit",
            arg=f"h{hand}",
            label=HOUSE_LABELS["rabbit"],
            style=discord.ButtonStyle.secondary,
        )
    )
    return ui


def _name(view: TableView, seat: int | None) -> str:
    found = next((s for s in view.seats if s.seat == seat), None)
    return "a player" if found is None else plain_name(found.name)


def house_lines(view: TableView) -> list[str]:
    """The table message's lines of the house games."""
    info = view.house
    if info is None or view.status == "closed":
        return []
    lines = []
    if info.boards:
        lines += [f"{label}: {cards_text(cards)}" for label, cards in info.boards]
    if info.straddle_seat is not None and view.status == "running":
        lines.append(
            f"🎯 {_name(view, info.straddle_seat)} may straddle the next hand"
            f" {info.straddle_where} ({format_chips(info.straddle_amount)}): **Straddle** or"
            " **No straddle** (no straddle when the time runs out)"
        )
    if info.straddling is not None:
        lines.append(
            f"🎯 {_name(view, info.straddling)} straddles the next hand"
            f" ({format_chips(info.straddle_amount)})"
        )
    if info.bomb_ante:
        when = "The next Hold'em or Omaha hand" if info.bomb_later else "The next hand"
        two = ", two boards" if info.bomb_double else ""
        lines.append(
            f"💣 {when} is a bomb pot: everyone antes {format_chips(info.bomb_ante)},"
            f" no betting before the flop{two}"
        )
    return lines


def add_house_buttons(ui: discord.ui.View, view: TableView) -> None:
    """**Straddle** / **No straddle** while the next hand's straddle is offered."""
    info = view.house
    if info is None or info.straddle_seat is None or view.status != "running":
        return
    for action, style in (
        ("straddle", discord.ButtonStyle.primary),
        ("no_straddle", discord.ButtonStyle.secondary),
    ):
        ui.add_item(
            TableButton.make(
                view.table_id,
                view.version,
                action,
                arg=f"h{view.hand_number}",
                label=HOUSE_LABELS[action],
                style=style,
                row=4,
            )
        )


def straddle_refusal(view: TableView, user_id: int) -> str | None:
    """Why ``user_id`` may not press Straddle / No straddle now (None: they may)."""
    info = view.house
    if info is None or info.straddle_seat is None:
        return "No straddle is offered now. Nothing changed."
    seat = view.seat_of(user_id)
    if seat is None or seat.seat != info.straddle_seat:
        who = _name(view, info.straddle_seat)
        return f"The straddle of the next hand is {who}'s ({info.straddle_where}). Nothing changed."
    return None


def choice_line(kinds: set[str]) -> str | None:
    """The hand DM's line above Once / Twice, Show / Muck or Straddle / No straddle."""
    if "straddle" in kinds:
        return (
            "Straddle the next hand (twice the big blind, you act last before the flop)?"
            " **Straddle** or **No straddle**; no straddle when the time runs out."
        )
    if "twice" in kinds:
        return (
            "All in: run the rest of the board **Once** or **Twice**? Twice only if everyone"
            " still in says Twice (each run wins half); Once when the time runs out."
        )
    if "show" in kinds:
        return (
            "You take the pot: **Show** your cards (seven-deuce: 7-2 offsuit is paid) or"
            " **Muck** them (the default)."
        )
    return None


async def answer_rabbit(
    service: TableService, interaction: discord.Interaction, cid: CustomId
) -> None:
    """The Rabbit button: the result post it is on now shows the rabbit, button gone."""
    hand = house_hand(cid)
    assert hand is not None  # a rabbit button always names its hand
    cards: list[dict[str, Any]] = await service.rabbit(cid.table_id, hand)
    text = rabbit_text(hand, cards)
    message = interaction.message
    before = message.content if message is not None else ""
    content = f"{before}\n{text}" if before else text
    if len(content) > CONTENT:
        content = f"{before[: CONTENT - len(text) - 2]}…\n{text}"
    await interaction.response.edit_message(
        content=content, view=None, allowed_mentions=discord.AllowedMentions.none()
    )
