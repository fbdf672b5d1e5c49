"""A night of poker and the settle-up: ``/night start``, ``/night end`` and
``/settle [period: night|season] [record]``.

A night is per server, one at a time. Starting one: a league admin (Manage Server or the
league's admin role) or the host of a live table in the server; ending it: the night's
host or an admin. Ending records the night's settle-up in the ledger (bot/store/nights.py
says exactly what the rows are) and posts the results: each player's net and hands, the
biggest pot, a picture, and who pays whom, in chips and in money at the league's chip value.
``/settle`` shows the same for the current (or last) night or the current season; an admin
may record the season's with ``record``. Every refusal is an ephemeral reason and changes
nothing. The work is done (and any refusal answered) before the public answer is deferred
for the picture, so a refusal is never posted to the channel.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine.errors import HomeGameError
from bot.league.report import Report, build_report
from bot.league.settle import EXACT_LIMIT
from bot.render.limits import CONTENT, EMBED_TITLE, FIELD_VALUE, fit_lines
from bot.render.night import render_night
from bot.render.pool import render
from bot.render.text import plain_name, plural
from bot.store import NightError, PeriodResults
from bot.store.nights import chip_value_of
from bot.tables.channels import check_channel, parent_channel
from cogs._answer import arm_command, defer, send
from cogs.admin import is_league_admin

if TYPE_CHECKING:
    from bot.app import HomeGameBot

_NONE = discord.AllowedMentions.none()

RESULTS_ROOM = 2400
"""Characters of the results list in the embed's description: with the title and three
fields of at most 1,024 the embed stays within Discord's 6,000 in all."""

PERIOD_CHOICES = [
    app_commands.Choice(name="night (the current or last night)", value="night"),
    app_commands.Choice(name="season (the current season)", value="season"),
]


class NotNightHost(HomeGameError):
    """A member who may not start, end or record this."""


def _guild_id(interaction: discord.Interaction) -> int:
    if interaction.guild_id is None:
        raise app_commands.NoPrivateMessage("Nights live in a server: use this there.")
    return interaction.guild_id


def _fits(lines: list[str], limit: int) -> tuple[str, bool]:
    """The lines within ``limit`` ("… and N more" if cut) and whether all of them fit."""
    text = fit_lines(lines, limit)
    return text, text == "\n".join(lines)


class NightCog(commands.Cog, name="Night"):
    night = app_commands.Group(
        name="night",
        description="A night of poker in this server: start it, end it and settle up",
        guild_only=True,
    )

    def __init__(self, bot: HomeGameBot) -> None:
        self.bot = bot

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        """Every slash command of this cog answers within Discord's 3 seconds, also when
        the store is slow (:mod:`cogs._answer`)."""
        return arm_command(interaction)

    # ------------------------------------------------------------------ commands

    @night.command(name="start", description="Start a night: hands at league tables count from now")
    async def start(self, interaction: discord.Interaction) -> None:
        guild_id = _guild_id(interaction)
        user = interaction.user.id
        async with self.bot.store.transaction() as tx:
            league = await tx.find_league(guild_id)
            if not is_league_admin(interaction, league) and not await tx.hosts_live_table(
                guild_id, user
            ):
                raise NotNightHost(
                    "Only a league admin or the host of a table in this server may start a "
                    "night. Nothing was changed."
                )
            where = parent_channel(interaction.channel)  # a thread: the channel it is in
            check_channel(league, interaction.channel_id, parent_id=where, what="Nights start")
            night = await tx.start_night(guild_id, host_id=user, channel_id=interaction.channel_id)
            value = chip_value_of(await tx.league(guild_id))
        money = f", at {value.describe()}" if value is not None else " (in chips)"
        await send(
            interaction,
            f"🌙 **Night #{night.number} starts**, hosted by <@{user}>. Every hand finished at "
            "this server's league tables counts from now; `/night end` posts each player's "
            f"net and who pays whom{money}.",
            allowed_mentions=_NONE,
        )

    @night.command(
        name="end", description="End the night: its results and the settle-up (host or admin)"
    )
    async def end(self, interaction: discord.Interaction) -> None:
        guild_id = _guild_id(interaction)
        async with self.bot.store.transaction() as tx:
            night = await tx.open_night(guild_id)
            if night is None:
                raise NightError("No night is on: start one with `/night start`.")
            league = await tx.find_league(guild_id)
            if night.host_id != interaction.user.id and not is_league_admin(interaction, league):
                raise NotNightHost(
                    f"Only the night's host (<@{night.host_id}>) or a league admin may end it. "
                    "Nothing was changed."
                )
            results = await tx.end_night(guild_id, actor_id=interaction.user.id)
        headline = (
            f"🌅 **Night #{night.number} is over**: {plural(results.hands, 'hand')}, "
            f"{plural(len(results.players), 'player')}. "
            + _plan_words(results)
            + " Recorded in the ledger."
        )
        await self._post(interaction, results, headline=headline)

    @app_commands.command(name="settle", description="Who pays whom, for the night or the season")
    @app_commands.describe(
        period="night: the current or last night (default); season: the current season",
        record="season only: record its settle-up in the ledger (league admins)",
    )
    @app_commands.choices(period=PERIOD_CHOICES)
    @app_commands.guild_only()
    async def settle(
        self,
        interaction: discord.Interaction,
        period: str = "night",
        record: bool = False,
    ) -> None:
        guild_id = _guild_id(interaction)
        # only recording writes: showing reads a consistent view without the writers' lock
        session = self.bot.store.transaction() if record else self.bot.store.read()
        async with session as tx:
            if await tx.find_league(guild_id) is None:
                raise NightError("Nobody has played here yet: nothing to settle.")
            if period == "season":
                if record:
                    if not is_league_admin(interaction, await tx.find_league(guild_id)):
                        raise NotNightHost(
                            "Only a league admin may record the season's settle-up. "
                            "Nothing was changed."
                        )
                    results = await tx.settle_season(guild_id, actor_id=interaction.user.id)
                    state = "Recorded in the ledger."
                else:
                    results = await tx.season_results(guild_id)
                    state = (
                        "Nothing is recorded until an admin runs `/settle period:season "
                        "record:True`; nights settle at `/night end`."
                    )
                headline = (
                    f"📒 **{results.label.capitalize()}**: {plural(results.hands, 'hand')}. "
                    + _plan_words(results)
                    + f" {state}"
                )
            else:
                night = await tx.last_night(guild_id)
                if night is None:
                    raise NightError("There has been no night yet: start one with `/night start`.")
                if record:
                    raise NightError(
                        f"Night #{night.number} "
                        + (
                            "is settled by `/night end`."
                            if night.open
                            else "is already settled: a night is settled once."
                        )
                        + " Nothing was changed."
                    )
                results = await tx.night_results(night)
                headline = (
                    f"🌙 **Night #{night.number}** "
                    + (
                        "is still on: if it ended now, "
                        if night.open
                        else f"(ended <t:{night.ended_at}:f>): "
                    )
                    + f"{plural(results.hands, 'hand')}. "
                    + _plan_words(results)
                )
        await self._post(interaction, results, headline=headline)

    # ------------------------------------------------------------------ the post

    async def _post(
        self, interaction: discord.Interaction, results: PeriodResults, *, headline: str
    ) -> None:
        guild_id = _guild_id(interaction)
        async with self.bot.store.read() as tx:
            names = await tx.seat_names(guild_id)
            league = await tx.find_league(guild_id)
            pot = results.biggest_pot
            pot_channel = None if pot is None else await tx.table_channel(pot.table_id)
        me = interaction.user

        def name(user_id: int) -> str:
            if user_id < 0:
                return f"Computer {-user_id}"
            if user_id in names:
                return plain_name(names[user_id])
            if user_id == me.id:
                return plain_name(me.display_name)
            return f"player {user_id}"

        report = build_report(
            results,
            names=name,
            channel_of=lambda table: pot_channel if pot and table == pot.table_id else None,
        )
        embed, complete = _embed(results, report)
        files: list[discord.File] = []
        if not complete:
            # more players or transfers than a message shows: all of it, as text
            files.append(
                discord.File(
                    io.BytesIO(report.plain.encode("utf-8")),
                    filename=f"settle-up-{results.label.replace(' #', '-').replace(' ', '-')}.txt",
                )
            )
        images = self.bot.settings.ui.images and (league is None or league.images)
        # the picture takes a moment: answer "thinking" (in public, as the post will be)
        await defer(interaction, ephemeral=False)
        if images:
            picture = await render(
                render_night,
                [(name(p.user_id), p.net, p.hands) for p in results.players],
                title=f"{results.label.capitalize()} · {plural(results.hands, 'hand')}",
                footer="" if report.pot is None else _plain_pot(results, name),
            )
            files.append(discord.File(io.BytesIO(picture), filename="night.png"))
            embed.set_image(url="attachment://night.png")
        kwargs: dict[str, Any] = {"embed": embed, "allowed_mentions": _NONE}
        if files:
            kwargs["files"] = files
        await send(interaction, fit_lines([headline], CONTENT), **kwargs)


def _plan_words(results: PeriodResults) -> str:
    plan = results.plan()
    if not plan:
        return "Everyone is square: nobody pays anybody."
    owing = sum(1 for p in results.players if p.owed)
    if results.settlement is not None:
        owing = len({t.payer for t in plan} | {t.payee for t in plan})
    proof = (
        "the fewest possible"
        if owing <= EXACT_LIMIT
        else f"a short plan; the fewest is proven up to {EXACT_LIMIT} players"
    )
    return f"Settle-up: {plural(len(plan), 'transfer')} ({proof})."


def _plain_pot(results: PeriodResults, name: Any) -> str:
    pot = results.biggest_pot
    assert pot is not None
    winners = ", ".join(name(u) for u in pot.winners) or "nobody"
    return (
        f"Biggest pot: {pot.chips:,} chips, hand {pot.number} of table #{pot.table_id}, {winners}"
    )


def _embed(results: PeriodResults, report: Report) -> tuple[discord.Embed, bool]:
    """The results embed and whether everything fit in it."""
    description, all_rows = _fits(report.results or ["No hands were played."], RESULTS_ROOM)
    embed = discord.Embed(
        title=f"Results of {results.label}"[:EMBED_TITLE],
        description=description,
        colour=discord.Colour.dark_green(),
    )
    if report.pot is not None:
        embed.add_field(name="Biggest pot", value=report.pot[:FIELD_VALUE], inline=False)
    transfers, all_transfers = _fits(
        report.transfers or ["Nobody pays anybody: everyone is square."], FIELD_VALUE
    )
    embed.add_field(name="Settle-up: who pays whom", value=transfers, inline=False)
    notes, all_notes = _fits(report.notes, FIELD_VALUE)
    embed.add_field(name="Notes", value=notes, inline=False)
    return embed, all_rows and all_transfers and all_notes


async def setup(bot: HomeGameBot) -> None:
    await bot.add_cog(NightCog(bot))
