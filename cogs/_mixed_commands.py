"""The slash commands of the mixed tables, ``/horse`` and ``/dealers-choice``, and the next
dealer's pick in the game menu: a mixin of the TablesCog (discord.py's CogMeta collects the
app commands of every class in the cog's MRO), so cogs/tables.py stays under its size.
The rules are in bot/tables/mixed.py; the menu and the table message's lines in
cogs/_mixed.py."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands

from cogs._errors import refuse
from cogs._flop import HOUSE_OPTION_HELP, RUN_IT_TWICE, SEVEN_DEUCE_HELP, STRADDLE
from cogs._ids import CustomId
from cogs._mixed import MIXED_OPTION_HELP, chosen_key, pick_hand, pick_refusal
from cogs._options import PACE_OPTION_HELP, PRACTICE_OPTION_HELP

if TYPE_CHECKING:
    from bot.tables.service import TableService
    from bot.tables.views import TableView


def _options(**values: Any) -> dict[str, Any]:
    return {k: v for k, v in values.items() if v is not None}


class MixedCommands:
    """Mixin of the TablesCog: what it needs of the cog is declared below."""

    service: TableService
    _open: Callable[..., Awaitable[None]]
    _answer_table: Callable[[discord.Interaction, TableView], Awaitable[None]]

    @app_commands.command(
        name="horse",
        description="Open a HORSE table: Hold'em, Omaha Hi-Lo, Razz, Stud, Stud Hi-Lo in turn",
    )
    @app_commands.guild_only()
    @app_commands.describe(**MIXED_OPTION_HELP, **PACE_OPTION_HELP, **PRACTICE_OPTION_HELP)
    async def horse(
        self,
        interaction: discord.Interaction,
        small_bet: app_commands.Range[int, 2, 1_000_000] | None = None,
        ante: app_commands.Range[int, 0, 1_000_000] | None = None,
        decision_seconds: app_commands.Range[int, 10, 600] | None = None,
        time_bank: app_commands.Range[int, 0, 600] | None = None,
        sit_out_hands: app_commands.Range[int, 1, 1000] | None = None,
        practice: bool | None = None,
        computers: app_commands.Range[int, 1, 7] | None = None,
        verifiable: Literal["off", "on"] | None = None,
    ) -> None:
        await self._open(
            interaction,
            "horse",
            _options(
                small_bet=small_bet,
                ante=ante,
                decision_seconds=decision_seconds,
                time_bank=time_bank,
                sit_out_hands=sit_out_hands,
            ),
            practice=practice,
            computers=computers,
            verifiable=verifiable,
        )

    @app_commands.command(
        name="dealers-choice",
        description="Open a dealer's choice table: each dealer picks the game of their deal",
    )
    @app_commands.guild_only()
    @app_commands.describe(
        games="the games allowed, e.g. zoot razz stud (default: every game)",
        **MIXED_OPTION_HELP,
        choice_seconds="seconds the next dealer has to pick (then the same game again)",
        **HOUSE_OPTION_HELP,
        seven_deuce=SEVEN_DEUCE_HELP,
        **PACE_OPTION_HELP,
        **PRACTICE_OPTION_HELP,
    )
    @app_commands.choices(straddle=STRADDLE, run_it_twice=RUN_IT_TWICE)
    async def dealers_choice(
        self,
        interaction: discord.Interaction,
        games: app_commands.Range[str, 1, 200] | None = None,
        small_bet: app_commands.Range[int, 2, 1_000_000] | None = None,
        ante: app_commands.Range[int, 0, 1_000_000] | None = None,
        decision_seconds: app_commands.Range[int, 10, 600] | None = None,
        choice_seconds: app_commands.Range[int, 10, 300] | None = None,
        straddle: str | None = None,
        run_it_twice: str | None = None,
        bomb_pot_every: app_commands.Range[int, 0, 1000] | None = None,
        seven_deuce: app_commands.Range[int, 0, 1_000_000] | None = None,
        time_bank: app_commands.Range[int, 0, 600] | None = None,
        sit_out_hands: app_commands.Range[int, 1, 1000] | None = None,
        practice: bool | None = None,
        computers: app_commands.Range[int, 1, 7] | None = None,
        verifiable: Literal["off", "on"] | None = None,
    ) -> None:
        await self._open(
            interaction,
            "dealers-choice",
            _options(
                games=games,
                small_bet=small_bet,
                ante=ante,
                decision_seconds=decision_seconds,
                choice_seconds=choice_seconds,
                # the Hold'em and Omaha games' house options (bot/tables/mixed.py)
                straddle=straddle,
                run_it_twice=run_it_twice,
                bomb_pot_every=bomb_pot_every,
                seven_deuce=seven_deuce,
                time_bank=time_bank,
                sit_out_hands=sit_out_hands,
            ),
            practice=practice,
            computers=computers,
            verifiable=verifiable,
        )

    async def _pick_game(
        self, interaction: discord.Interaction, cid: CustomId, values: Sequence[str]
    ) -> None:
        """The next dealer's pick in the game menu of a dealer's-choice table."""
        hand = pick_hand(cid)
        key = chosen_key(values)
        why = pick_refusal(await self.service.view(cid.table_id), interaction.user.id, hand)
        if why is not None:
            await refuse(interaction, why)
            return
        await interaction.response.defer()
        view = await self.service.choose_game(
            cid.table_id, interaction.user.id, key, after_hand=hand
        )
        await self._answer_table(interaction, view)
