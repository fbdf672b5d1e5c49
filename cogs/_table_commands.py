"""``/table status|end|pause|resume|kick|house|bomb-pot|stakes|seat|rules``: the table in
this channel, for its players, its host and the server's managers (``house`` and
``bomb-pot``: what home games play, cogs/_house.py; the last three: issue 22 item 5,
rendered by :mod:`cogs._table_rules`).

A mixin of the tables cog (:class:`cogs.tables.TablesCog` inherits it; discord.py's CogMeta
collects the group and its subcommands along the whole MRO). Every change goes to the
:class:`~bot.tables.service.TableService`, which checks who may do it; the answer is posted
and the table message redrawn.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.render.rulebook import table_commands_text
from bot.render.text import safe_name
from bot.tables.house_service import change_words
from cogs._answer import send
from cogs._flop import HOUSE_OPTION_HELP, RUN_IT_TWICE, SEVEN_DEUCE_HELP, STRADDLE
from cogs._render import table_embed
from cogs._table_rules import STAKE_HELP, rules_embed, stakes_answer

if TYPE_CHECKING:
    from bot.tables.service import TableService
    from bot.tables.views import TableView


def _may_manage(interaction: discord.Interaction) -> bool:
    perms = interaction.permissions
    return bool(perms.manage_guild or perms.administrator)


class TableCommands:
    """The ``/table`` group; the cog gives ``service``, ``_closed`` and ``_refresh_table``."""

    if TYPE_CHECKING:
        service: TableService
        _closed: dict[int, TableView]

        def _refresh_table(
            self, table_id: int, *, after: Sequence[str] = (), delay: float = 0.0
        ) -> None: ...

        def _check_dm_later(self, table_id: int, user_id: int) -> None: ...

    table = app_commands.Group(
        name="table", description="The table in this channel", guild_only=True
    )

    async def _here(self, interaction: discord.Interaction) -> TableView:
        from bot.engine.errors import GameError

        assert interaction.channel_id is not None
        view = await self.service.table_in_channel(interaction.channel_id)
        if view is None:
            raise GameError(
                f"There is no table in this channel: open one with {table_commands_text()}."
            )
        return view

    @table.command(name="status", description="Show the table in this channel")
    async def status(self, interaction: discord.Interaction) -> None:
        view = await self._here(interaction)
        await send(interaction, embed=table_embed(view), ephemeral=True)

    @table.command(
        name="end", description="Close the table (host or Manage Server); the pot goes back"
    )
    async def end(self, interaction: discord.Interaction) -> None:
        view = await self._here(interaction)
        # the answer is the one closing post: what went back (or that nothing was in the
        # pot) and each player's balance after it; the service does not post it again
        closed = await self.service.end(
            view.table_id,
            interaction.user.id,
            may_manage=_may_manage(interaction),
            announce=False,
        )
        self._closed[closed.table_id] = closed
        await send(
            interaction,
            closed.closing or f"Table #{closed.table_id} is closed.",
            allowed_mentions=discord.AllowedMentions.none(),
        )
        self._refresh_table(closed.table_id)

    @table.command(
        name="pause",
        description="Pause the table, in or between hands (a player, the host or Manage Server)",
    )
    async def pause(self, interaction: discord.Interaction) -> None:
        view = await self._here(interaction)
        # the answer is the table's announcement (posted once: the table stays quiet)
        paused = await self.service.pause(
            view.table_id, interaction.user.id, may_manage=_may_manage(interaction), quiet=True
        )
        await send(
            interaction,
            f"Table #{paused.table_id} is paused: no timer runs. Anyone seated presses"
            " **Resume** (or runs `/table resume`) to go on where it stopped.",
        )
        self._refresh_table(paused.table_id)

    @table.command(
        name="resume", description="Go on with a paused table (a player, the host or Manage Server)"
    )
    async def resume(self, interaction: discord.Interaction) -> None:
        view = await self._here(interaction)
        resumed = await self.service.resume(
            view.table_id, interaction.user.id, may_manage=_may_manage(interaction), quiet=True
        )
        await send(interaction, f"Table #{resumed.table_id} goes on.")
        self._refresh_table(resumed.table_id)

    @table.command(name="kick", description="Remove a player (host or Manage Server)")
    @app_commands.describe(user="the player to remove")
    async def kick(self, interaction: discord.Interaction, user: discord.User) -> None:
        view = await self._here(interaction)
        after = await self.service.kick(
            view.table_id,
            interaction.user.id,
            user.id,
            may_manage=_may_manage(interaction),
            quiet=True,  # this answer is the one announcement
        )
        when = " after this hand" if after.seat_of(user.id) is not None else ""
        await send(
            interaction,
            f"{user.mention} is removed from table #{view.table_id}{when}.",
            allowed_mentions=discord.AllowedMentions.none(),
        )
        self._refresh_table(view.table_id)

    # ------------------------------------------------------- what home games play

    @table.command(
        name="house",
        description="Change house options from the next hand (host or Manage Server)",
    )
    @app_commands.describe(
        **HOUSE_OPTION_HELP,
        bomb_pot_ante="each player's ante in a regular bomb pot (default: twice the big blind)",
        bomb_pot_double_board="the regular bomb pots deal two boards",
        seven_deuce=SEVEN_DEUCE_HELP,
        rabbit_hunt="a Rabbit button on a result shows the cards that would have come",
    )
    @app_commands.choices(straddle=STRADDLE, run_it_twice=RUN_IT_TWICE)
    async def house(
        self,
        interaction: discord.Interaction,
        straddle: str | None = None,
        run_it_twice: str | None = None,
        bomb_pot_every: app_commands.Range[int, 0, 1000] | None = None,
        bomb_pot_ante: app_commands.Range[int, 1, 1_000_000] | None = None,
        bomb_pot_double_board: bool | None = None,
        seven_deuce: app_commands.Range[int, 0, 1_000_000] | None = None,
        rabbit_hunt: bool | None = None,
    ) -> None:
        view = await self._here(interaction)
        given = {
            "straddle": straddle,
            "run_it_twice": run_it_twice,
            "bomb_pot_every": bomb_pot_every,
            "bomb_pot_ante": bomb_pot_ante,
            "bomb_pot_double_board": bomb_pot_double_board,
            "seven_deuce": seven_deuce,
            "rabbit_hunt": rabbit_hunt,
        }
        changes = {k: v for k, v in given.items() if v is not None}
        # the answer is the table's announcement (posted once: the table message's Recent
        # lines say it too)
        after, changed = await self.service.set_house(
            view.table_id,
            interaction.user.id,
            changes,
            may_manage=_may_manage(interaction),
            quiet=True,
        )
        await send(
            interaction,
            f"Table #{after.table_id}, from the next hand: {change_words(changed)}.",
        )
        self._refresh_table(after.table_id)

    @table.command(
        name="bomb-pot",
        description="Make the next hand a bomb pot: everyone antes, play starts on the flop",
    )
    @app_commands.describe(
        ante="each player's ante (default: the table's bomb pot ante, twice the big blind)",
        double_board="deal two boards and split each pot between them",
    )
    async def bomb_pot(
        self,
        interaction: discord.Interaction,
        ante: app_commands.Range[int, 1, 1_000_000] | None = None,
        double_board: bool | None = None,
    ) -> None:
        view = await self._here(interaction)
        after = await self.service.bomb_pot(
            view.table_id,
            interaction.user.id,
            ante=ante,
            double_board=double_board,
            may_manage=_may_manage(interaction),
            quiet=True,  # this answer is the one announcement
        )
        text = next(
            (r for r in reversed(after.recent) if "bomb pot" in r),
            "The next hand is a bomb pot",
        )
        await send(interaction, f"Table #{after.table_id}: {text}.")
        self._refresh_table(after.table_id)

    @table.command(
        name="stakes",
        description="Set the stakes from the next hand (host or Manage Server); announced now",
    )
    @app_commands.describe(**STAKE_HELP)
    async def stakes(
        self,
        interaction: discord.Interaction,
        small_blind: app_commands.Range[int, 0, 1_000_000] | None = None,
        big_blind: app_commands.Range[int, 1, 1_000_000] | None = None,
        ante: app_commands.Range[int, 0, 1_000_000] | None = None,
        small_bet: app_commands.Range[int, 1, 1_000_000] | None = None,
        big_bet: app_commands.Range[int, 1, 1_000_000] | None = None,
        bring_in: app_commands.Range[int, 1, 1_000_000] | None = None,
    ) -> None:
        view = await self._here(interaction)
        given = {
            "small_blind": small_blind,
            "big_blind": big_blind,
            "ante": ante,
            "small_bet": small_bet,
            "big_bet": big_bet,
            "bring_in": bring_in,
        }
        after = await self.service.set_stakes(
            view.table_id,
            interaction.user.id,
            {k: v for k, v in given.items() if v is not None},
            may_manage=_may_manage(interaction),
        )
        # the answer is the announcement (public, at once); the table message shows them
        await send(
            interaction,
            stakes_answer(after, safe_name(interaction.user.display_name)),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        self._refresh_table(view.table_id)

    @table.command(
        name="seat", description="Seat a late player at this table (host or Manage Server)"
    )
    @app_commands.describe(member="the member to seat (they play from the next hand)")
    async def seat(self, interaction: discord.Interaction, member: discord.Member) -> None:
        from bot.engine.errors import GameError

        view = await self._here(interaction)
        if member.bot:
            raise GameError("A bot cannot sit at a table. Nothing changed.")
        after = await self.service.seat_member(
            view.table_id,
            interaction.user.id,
            member.id,
            safe_name(member.display_name),
            may_manage=_may_manage(interaction),
        )
        seated = after.seat_of(member.id)
        waits = " They wait for the big blind (or post one)." if seated and seated.blind else ""
        await send(
            interaction,
            f"{member.mention} is seated at table #{after.table_id} by the host.{waits}",
            allowed_mentions=discord.AllowedMentions.none(),
        )
        self._refresh_table(view.table_id)
        self._check_dm_later(view.table_id, member.id)

    @table.command(name="rules", description="Every option of the table in this channel")
    async def rules(self, interaction: discord.Interaction) -> None:
        view = await self._here(interaction)
        await send(interaction, embed=rules_embed(view), ephemeral=True)
