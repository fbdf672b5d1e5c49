"""``/balance``, ``/leaderboard`` and ``/history``: the chip league, read from the ledger.

Simple versions: a later issue adds charts and administration. Everything here only reads
(``Store.read``): nobody gets a wallet just by asking for a balance.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.render.text import format_chips

if TYPE_CHECKING:
    from bot.app import HomeGameBot

LEADERBOARD_SIZE = 10
HISTORY_SIZE = 10

KIND_WORDS = {
    "start": "starting chips",
    "ante": "ante",
    "bring_in": "bring-in",
    "bet": "bet",
    "match": "matched the pot",
    "award": "won",
    "refund": "refund",
    "void": "hand voided",
    "rebuy": "rebuy",
    "grant": "grant",
    "take": "correction",
    "season_end": "season ended",
}


def _guild_id(interaction: discord.Interaction) -> int:
    if interaction.guild_id is None:
        raise app_commands.NoPrivateMessage("The chip league lives in a server: use this there.")
    return interaction.guild_id


class LeagueCog(commands.Cog, name="League"):
    def __init__(self, bot: HomeGameBot) -> None:
        self.bot = bot

    @app_commands.command(name="balance", description="Your chips (or another member's)")
    @app_commands.describe(user="whose balance to show (default: yours)")
    @app_commands.guild_only()
    async def balance(
        self, interaction: discord.Interaction, user: discord.User | None = None
    ) -> None:
        guild_id = _guild_id(interaction)
        who = user or interaction.user
        async with self.bot.store.read() as tx:
            wallet = await tx.find_wallet(guild_id, who.id)
            league = await tx.find_league(guild_id)
        if wallet is None:
            start = league.starting_chips if league else self.bot.settings.league.starting_chips
            text = (
                f"{who.mention} has not played yet: the first seat at a table brings "
                f"{format_chips(start)} chips."
            )
        else:
            text = f"{who.mention} has **{format_chips(wallet.balance)}** chips."
        await interaction.response.send_message(
            text, ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
        )

    @app_commands.command(name="leaderboard", description="The richest players this season")
    @app_commands.guild_only()
    async def leaderboard(self, interaction: discord.Interaction) -> None:
        guild_id = _guild_id(interaction)
        async with self.bot.store.read() as tx:
            league = await tx.find_league(guild_id)
            standings = [] if league is None else await tx.standings(guild_id)
        if not standings:
            text = "Nobody has played yet. Open a table with `/zoot`, `/wheelers` or `/razz`."
        else:
            lines = [
                f"{s.rank}. <@{s.user_id}>: {format_chips(s.balance)}"
                for s in standings[:LEADERBOARD_SIZE]
            ]
            text = "**Leaderboard**\n" + "\n".join(lines)
        await interaction.response.send_message(
            text, allowed_mentions=discord.AllowedMentions.none()
        )

    @app_commands.command(name="history", description="Your last chip movements")
    @app_commands.guild_only()
    async def history(self, interaction: discord.Interaction) -> None:
        guild_id = _guild_id(interaction)
        async with self.bot.store.read() as tx:
            wallet = await tx.find_wallet(guild_id, interaction.user.id)
            entries = (
                [] if wallet is None else await tx.entries(account_id=wallet.id, limit=HISTORY_SIZE)
            )
        if wallet is None or not entries:
            text = "No chip movements yet."
        else:
            lines = []
            for e in reversed(entries):
                signed = e.amount if e.to_account == wallet.id else -e.amount
                where = f" (table {e.table_id})" if e.table_id is not None else ""
                word = KIND_WORDS.get(e.kind, e.kind)
                lines.append(
                    f"<t:{e.created_at}:R> {format_chips(signed, signed=True)} {word}{where}"
                )
            text = f"**Last {len(lines)} movements** (balance {format_chips(wallet.balance)})\n"
            text += "\n".join(lines)
        await interaction.response.send_message(text, ephemeral=True)


async def setup(bot: HomeGameBot) -> None:
    await bot.add_cog(LeagueCog(bot))
