"""``/stud``: open a Seven-card Stud or Stud Hi-Lo table (issue 13; RULES section 8).

A mixin of the tables cog (:class:`cogs.tables.TablesCog` inherits it; discord.py's CogMeta
collects app commands along the whole MRO), so the game's command lives beside its adapter
(bot/tables/stud.py) instead of growing cogs/tables.py. The table plays like Razz, on the
same buttons: only the split and the stakes are chosen here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands

from cogs._options import PACE_OPTION_HELP, PRACTICE_OPTION_HELP, REVEAL

#: ``/stud split:`` exactly as the issue names it: ``high`` or ``hi-lo``.
STUD_SPLIT = [
    app_commands.Choice(name="high", value="high"),
    app_commands.Choice(name="hi-lo", value="hi-lo"),
]


class StudCommands:
    """The ``/stud`` command; the cog gives ``_open`` (validate, open, post the table)."""

    if TYPE_CHECKING:

        async def _open(
            self,
            interaction: discord.Interaction,
            game: str,
            options: dict[str, Any],
            *,
            practice: bool | None = None,
            computers: int | None = None,
            verifiable: str | None = None,
        ) -> None: ...

    @app_commands.command(
        name="stud", description="Open a Seven-card Stud or Stud Hi-Lo table here (fixed limit)"
    )
    @app_commands.guild_only()
    @app_commands.describe(
        split="high: the best high hand wins; hi-lo: split with the best eight-or-better low",
        ante="ante per player (default: the league's)",
        bring_in="forced bet of the lowest up card (less than the small bet)",
        small_bet="fixed bet on 3rd and 4th street",
        big_bet="fixed bet from 5th street on (Stud high: also on 4th with a pair showing)",
        showdown_reveal="which hands are shown at showdown",
        decision_seconds="seconds each player has to act",
        **PACE_OPTION_HELP,
        **PRACTICE_OPTION_HELP,
    )
    @app_commands.choices(split=STUD_SPLIT, showdown_reveal=REVEAL)
    async def stud(
        self,
        interaction: discord.Interaction,
        split: str | None = None,
        ante: app_commands.Range[int, 0, 1_000_000] | None = None,
        bring_in: app_commands.Range[int, 1, 1_000_000] | None = None,
        small_bet: app_commands.Range[int, 1, 1_000_000] | None = None,
        big_bet: app_commands.Range[int, 1, 1_000_000] | None = None,
        showdown_reveal: str | None = None,
        decision_seconds: app_commands.Range[int, 10, 600] | None = None,
        time_bank: app_commands.Range[int, 0, 600] | None = None,
        sit_out_hands: app_commands.Range[int, 1, 1000] | None = None,
        practice: bool | None = None,
        computers: app_commands.Range[int, 1, 9] | None = None,
        verifiable: Literal["off", "on"] | None = None,
    ) -> None:
        given = {
            "split": split,
            "ante": ante,
            "bring_in": bring_in,
            "small_bet": small_bet,
            "big_bet": big_bet,
            "showdown_reveal": showdown_reveal,
            "decision_seconds": decision_seconds,
            "time_bank": time_bank,
            "sit_out_hands": sit_out_hands,
        }
        # the options given; the league's defaults fill the rest
        options = {k: v for k, v in given.items() if v is not None}
        await self._open(
            interaction,
            "stud",
            options,
            practice=practice,
            computers=computers,
            verifiable=verifiable,
        )
