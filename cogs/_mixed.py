"""A mixed table (HORSE, dealer's choice) on the table message: which game is on and what
comes next, and the next dealer's game menu (no Discord calls here but the menu's
``DynamicItem``, which hands a pick to the tables cog like every other control).

The menu's custom_id is ``hg:<table>:<version>:pick_game:h<hand>``: ``hand`` is the hand
after which the pick is made, so a menu of an earlier deal is refused as stale while a
join or a leave during the pick (a new version) leaves the menu working. At most 25
options (Discord's limit; a mixed table knows 10 games) and 100 characters of custom_id.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.render.text import plain_name
from cogs._ids import GAME_SELECT_TEMPLATE, BadCustomId, CustomId, build_custom_id, parse_custom_id
from cogs._items import _dispatch

if TYPE_CHECKING:
    from bot.tables.views import TableView

MIXED_OPTION_HELP = {
    "small_bet": "every game's stakes: fixed-limit bets this and twice it, blinds half and one",
    "ante": "the stud games' ante (default: a fifth of the small bet)",
    "decision_seconds": "seconds each player has to act (default: each game's own)",
}
"""The options /horse and /dealers-choice share (Discord: at most 100 characters each)."""

MAX_OPTIONS = 25
"""Discord: options in one select menu."""
PLACEHOLDER = 150
"""Discord: characters of a select's placeholder."""


def pick_hand(cid: CustomId) -> int:
    """The hand a game menu was drawn after (its ``h<hand>`` argument)."""
    if cid.arg is None or not re.fullmatch(r"h(0|[1-9][0-9]{0,9})", cid.arg):
        raise BadCustomId("this menu is damaged; use the table message's newest one")
    return int(cid.arg[1:])


def _name_of(view: TableView, seat: int | None) -> str:
    found = next((s for s in view.seats if s.seat == seat), None)
    return "the next dealer" if found is None else found.name


def title(view: TableView, game_title: str) -> str:
    """The table message's title: "HORSE: Razz", "Dealer's choice: Zoot"."""
    mixed = view.mixed
    return game_title if mixed is None else f"{mixed.name}: {mixed.label}"


def mixed_lines(view: TableView, countdown: str) -> list[str]:
    """What the table message says of the games: the one on, the next, the pick awaited."""
    mixed = view.mixed
    if mixed is None or view.status == "closed":
        return []
    if mixed.mode == "rotation":
        line = f"Now **{mixed.label}**"
        if mixed.carried:
            line += f" · its pot carries over: {mixed.label} again until it is won"
        elif mixed.next_label:
            left = mixed.orbit_left
            when = (
                "after this orbit"
                if left is None
                else ("next hand" if left == 0 else f"after {left} more hand(s)")
            )
            line += f" · then **{mixed.next_label}** {when}"
        return [line]
    if mixed.chooser is not None and view.status == "running":
        who = _name_of(view, mixed.chooser)
        return [
            f"🎲 {who} deals next and picks the game below"
            + (f" · time runs out {countdown}" if countdown else "")
            + f" (then **{mixed.default_label}** again)"
        ]
    if mixed.carried:
        return [f"Now **{mixed.label}** · its pot carries over: no pick until it is won"]
    if mixed.next_label and not view.to_act_user_ids:
        return [f"Next deal: **{mixed.next_label}**"]
    return [f"Now **{mixed.label}** (dealer's choice)"]


class GameSelect(
    discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]], template=GAME_SELECT_TEMPLATE
):
    """The next dealer's menu of the games the table allows (option values: game keys)."""

    def __init__(self, cid: CustomId, item: discord.ui.Select[discord.ui.View]) -> None:
        super().__init__(item)
        self.cid = cid

    @classmethod
    def make(cls, view: TableView) -> GameSelect:
        mixed = view.mixed
        assert mixed is not None
        custom_id = build_custom_id(
            view.table_id, view.version, "pick_game", f"h{view.hand_number}"
        )
        options = [
            discord.SelectOption(
                label=label,
                value=key,
                description="the default if time runs out" if key == mixed.key else None,
            )
            for key, label in mixed.choices[:MAX_OPTIONS]
        ]
        who = plain_name(_name_of(view, mixed.chooser))
        select: discord.ui.Select[discord.ui.View] = discord.ui.Select(
            custom_id=custom_id,
            placeholder=f"{who}: pick the next game"[:PLACEHOLDER],
            min_values=1,
            max_values=1,
            options=options,
        )
        return cls(parse_custom_id(custom_id), select)

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> GameSelect:
        assert isinstance(item, discord.ui.Select)
        return cls(parse_custom_id(match.string), item)

    async def callback(self, interaction: discord.Interaction) -> None:  # type: ignore[override]
        await _dispatch(interaction, self.cid, tuple(self.item.values))


def add_game_select(ui: discord.ui.View, view: TableView) -> None:
    """The game menu on the table message while the next dealer picks: added last, it
    takes the first empty row (a select fills a row; discord.py 2.7's select ignores a
    row it is given: its ``row`` slot shadows the property the layout reads)."""
    mixed = view.mixed
    if mixed is None or mixed.chooser is None or view.status != "running":
        return
    ui.add_item(GameSelect.make(view))


def pick_refusal(view: TableView, user_id: int, hand: int) -> str | None:
    """Why ``user_id`` may not pick from a menu drawn after hand ``hand`` (None: they may).
    The service checks again under the table's lock; this answers at once."""
    seat = view.seat_of(user_id)
    mixed = view.mixed
    if seat is None:
        return "You do not sit at this table."
    if mixed is None or mixed.mode != "choice":
        return "This table's game is not the dealer's choice."
    if hand != view.hand_number:
        return "This menu was for an earlier deal."
    if mixed.chooser is None or view.status != "running":
        return "No game is being chosen now."
    if seat.seat != mixed.chooser:
        return f"{_name_of(view, mixed.chooser)} deals next and picks the game."
    return None


def chosen_key(values: Sequence[str]) -> str:
    if len(values) != 1:
        raise BadCustomId("choose exactly one game")
    return values[0]
