"""The tournament's persistent buttons: the lobby's **Register** / **Unregister** /
**Start**, a busted player's **Rebuy** / **Re-enter** / **I'm out**, and the **Add-on**
offered at the break that ends the rebuy period.

Their custom_ids carry all their state (a ``DynamicItem`` template, so a button drawn
before a restart still works), under a prefix of their own, never a table id:

- ``hg:to:<tournament_id>:<action>[:<user_id>]``: ``user_id`` when the buttons are one
  player's (a bust's), so anyone else's click is refused at once with why.

Each callback goes to the tournament cog by name; any error is answered by the one handler.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.engine.errors import HomeGameError
from cogs._errors import handle_error
from cogs._ids import MAX_CUSTOM_ID, BadCustomId

ACTIONS = ("register", "unregister", "start", "rebuy", "re_enter", "decline", "add_on")
LABELS = {
    "register": "Register",
    "unregister": "Unregister",
    "start": "Start",
    "rebuy": "Rebuy",
    "re_enter": "Re-enter",
    "decline": "I'm out",
    "add_on": "Add-on",
}
STYLES = {
    "register": discord.ButtonStyle.success,
    "unregister": discord.ButtonStyle.secondary,
    "start": discord.ButtonStyle.primary,
    "rebuy": discord.ButtonStyle.success,
    "re_enter": discord.ButtonStyle.primary,
    "decline": discord.ButtonStyle.secondary,
    "add_on": discord.ButtonStyle.success,
}
_ID = r"[1-9][0-9]{0,19}"
TOURNAMENT_TEMPLATE = (
    rf"hg:to:(?P<tournament>{_ID}):(?P<action>{'|'.join(ACTIONS)})(?::(?P<user>{_ID}))?"
)


def build_tournament_id(tournament_id: int, action: str, user_id: int | None = None) -> str:
    """The custom_id of a tournament button.

    >>> build_tournament_id(3, "rebuy", 42)
    'hg:to:3:rebuy:42'
    """
    text = f"hg:to:{tournament_id}:{action}" + ("" if user_id is None else f":{user_id}")
    if len(text) > MAX_CUSTOM_ID or not re.fullmatch(TOURNAMENT_TEMPLATE, text):
        raise BadCustomId(f"not a tournament control: {text[:40]}")
    return text


class TournamentButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]], template=TOURNAMENT_TEMPLATE
):
    def __init__(
        self, tournament_id: int, action: str, user_id: int | None, item: discord.ui.Button[Any]
    ) -> None:
        super().__init__(item)
        self.tournament_id = tournament_id
        self.action = action
        self.user_id = user_id

    @classmethod
    def make(
        cls, tournament_id: int, action: str, *, user_id: int | None = None, disabled: bool = False
    ) -> TournamentButton:
        button: discord.ui.Button[discord.ui.View] = discord.ui.Button(
            label=LABELS[action],
            style=STYLES[action],
            custom_id=build_tournament_id(tournament_id, action, user_id),
            disabled=disabled,
        )
        return cls(tournament_id, action, user_id, button)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> TournamentButton:
        assert isinstance(item, discord.ui.Button)
        user = match["user"]
        return cls(
            int(match["tournament"]), match["action"], None if user is None else int(user), item
        )

    async def callback(self, interaction: discord.Interaction) -> None:  # type: ignore[override]
        try:
            cog: Any = interaction.client.get_cog("Tournaments")  # type: ignore[attr-defined]
            if cog is None:
                raise HomeGameError("Tournaments are not available right now; try again soon.")
            await cog.on_button(interaction, self.tournament_id, self.action, self.user_id)
        except Exception as exc:
            await handle_error(interaction, exc)
