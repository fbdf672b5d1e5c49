"""``/settings``: a member's own settings in this server (issue 22 item 3).

``turn_ping: off|dm|mention`` (``dm`` by default): how the bot tells them it is their turn
when they have not acted a moment after it began (cogs/_pace.py): a short new DM, a mention
in the table's channel that mentions them alone, or nothing. Stored in SQLite (migration
0011); answered to the member alone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs._answer import arm_command, send

if TYPE_CHECKING:
    from bot.app import HomeGameBot

TURN_PING_CHOICES = [
    app_commands.Choice(name="off: no ping", value="off"),
    app_commands.Choice(name="dm: a short new DM (default)", value="dm"),
    app_commands.Choice(name="mention: a mention in the table's channel", value="mention"),
]
TURN_PING_WORDS = {
    "off": "no ping: you watch the table message yourself",
    "dm": "a short new DM (Discord notifies it), the one before it deleted",
    "mention": "a mention of you alone in the table's channel, the one before it deleted",
}


def settings_text(turn_ping: str, *, changed: bool) -> str:
    """The answer: the setting as it is now and what it does."""
    head = "Saved. " if changed else ""
    return (
        f"{head}Your turn ping: **{turn_ping}**: {TURN_PING_WORDS[turn_ping]}. When it is your"
        " turn after another player acted and you have not acted a few seconds later, the bot"
        " tells you once. Change it with `/settings turn_ping:`."
    )


class SettingsCog(commands.Cog, name="Settings"):
    def __init__(self, bot: HomeGameBot) -> None:
        self.bot = bot

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        return arm_command(interaction)

    @app_commands.command(name="settings", description="Your own settings: your turn ping")
    @app_commands.guild_only()
    @app_commands.describe(
        turn_ping="how the bot tells you it is your turn: off, dm (default) or mention"
    )
    @app_commands.choices(turn_ping=TURN_PING_CHOICES)
    async def settings(
        self, interaction: discord.Interaction, turn_ping: str | None = None
    ) -> None:
        assert interaction.guild_id is not None
        uid = interaction.user.id
        if turn_ping is None:
            async with self.bot.store.read() as tx:
                mine = await tx.member_settings(interaction.guild_id, uid)
            await send(interaction, settings_text(mine.turn_ping, changed=False), ephemeral=True)
            return
        async with self.bot.store.transaction() as tx:
            mine = await tx.set_turn_ping(interaction.guild_id, uid, turn_ping)
        await send(interaction, settings_text(mine.turn_ping, changed=True), ephemeral=True)


async def setup(bot: HomeGameBot) -> None:
    await bot.add_cog(SettingsCog(bot))
