"""``/rules zoot|wheelers|razz`` (procedure, ranking, house rules) and ``/rules compare``.

The texts summarise RULES.md; the house rules come from the engines' rules models (or from
the table open in the channel), and ``compare`` ranks hands with ``bot.engine.hands``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cli.compare import compare_group
from bot.engine.cards import parse_cards
from bot.engine.guts.rules import GutsRules
from bot.engine.razz.rules import RazzRules
from bot.render.limits import FIELD_VALUE, fit_lines
from bot.render.text import cards_text, hand_name_text
from cogs._answer import arm_command, send

if TYPE_CHECKING:
    from bot.app import HomeGameBot

GAME_TITLES = {"zoot": "Zoot", "wheelers": "Wheelers", "razz": "Razz"}

GUTS_PROCEDURE = (
    "1. Everyone antes; five cards are dealt face down to each player (by DM).\n"
    "2. **Lay-down window**: each player chooses *Lay down* or *Play on* "
    "(in secret, or in turn: house rule `laydown_order`). No choice = play on.\n"
    "3. Nobody lays down: everyone antes again, discards one card (select menu; on timeout "
    "the table discards the card that keeps the best hand) and draws one. Back to 2.\n"
    "4. Someone lays down: the **challenger** (nearest the dealer's left) shows down against "
    "every live hand. Best hand **or a tie** for the challenger: the challenger takes the "
    "whole pot. Otherwise the best hand takes it and the challenger **matches** the pot, "
    "which carries into the next game.\n"
    "5. A new game starts; the deal moves one seat left."
)

ZOOT_RANKING = (
    "First key: **fewer suits beat more suits**. Then standard poker order.\n"
    "```\n"
    "suits  possible, highest first\n"
    "1      royal flush, straight flush, flush\n"
    "2      straight, two pair, one pair, high card\n"
    "3      full house, straight, trips, two pair, pair, high card\n"
    "4      quads, full house, straight, trips, two pair, pair, high\n"
    "```\n"
    "`9♠ 8♠ 6♠ 3♠ 2♠` beats `K♥ K♦ K♣ 7♥ 7♦`: a flush always beats a full house."
)

WHEELERS_RANKING = (
    "**This table's reading of the source**, best hand first:\n"
    "```\n"
    "1  Wheel A-2-3-4-5                      A♠ 2♦ 3♣ 4♥ 5♠\n"
    "2  five-card straight                   9♣ 10♦ J♥ Q♠ K♣\n"
    "3  four-card straight + odd card        5♠ 6♦ 7♥ 8♣ K♦\n"
    "4  three-card + two-card straight       Q♦ K♥ A♣ 2♠ 3♦\n"
    "5  three-card straight + two odd        7♦ 8♥ 9♣ 2♠ K♦\n"
    "6  two two-card straights + odd card    4♠ 5♦ 9♥ 10♣ K♦\n"
    "7  one two-card straight + three odd    4♠ 5♦ 9♥ J♣ K♦\n"
    "8  high card (no two cards in sequence) 2♠ 4♦ 6♥ 9♣ J♦\n"
    "```\n"
    "Aces are high or low within a straight (one role each); an odd ace counts high. Ties: "
    "straights by length then top card, then odd cards high to low. Turning the corner "
    "(K-A-2) only with house rule `wheelers_wraparound`."
)

RAZZ_PROCEDURE = (
    "Seven-card stud, fixed limit. Ante; two cards down and one up. The **highest** up card "
    "brings in (ties: ♠ > ♥ > ♦ > ♣) or completes. 4th-6th street: one card up each, the "
    "**lowest** board acts first; 7th: one card down. Small bet on 3rd and 4th, big bet from "
    "5th. One bet and three raises per street. All-ins make side pots."
)

RAZZ_RANKING = (
    "Ace-to-five low: best five of seven, aces low, straights and flushes don't count, pairs "
    "count against. Best hand A-2-3-4-5; compare from the highest card down "
    "(`2-3-6-8-J` beats `A-2-3-4-Q`)."
)

PLACE = {1: "🥇", 2: "🥈", 3: "🥉"}


def _rules_rows(game: str, rows: Any) -> str:
    return "\n".join(f"`{name}` **{value}**: {desc}" for name, value, desc in rows)


def default_rules(game: str) -> list[tuple[str, str, str]]:
    if game == "razz":
        return RazzRules().describe()
    return GutsRules(game=game).describe()  # type: ignore[arg-type]


def rules_embed(game: str, rows: Any, *, at_table: bool) -> discord.Embed:
    title = GAME_TITLES[game]
    embed = discord.Embed(title=f"{title}: the rules", colour=discord.Colour.dark_green())
    if game == "razz":
        embed.add_field(name="Procedure", value=RAZZ_PROCEDURE, inline=False)
        embed.add_field(name="Ranking", value=RAZZ_RANKING, inline=False)
    else:
        embed.add_field(name="Procedure", value=GUTS_PROCEDURE, inline=False)
        ranking = ZOOT_RANKING if game == "zoot" else WHEELERS_RANKING
        embed.add_field(name="Ranking", value=ranking, inline=False)
    label = "House rules at this table" if at_table else "House rules (league defaults)"
    text = _rules_rows(game, rows)
    embed.add_field(name=label, value=fit_lines(text.split("\n"), FIELD_VALUE), inline=False)
    return embed


def compare_text(game: str, hands_text: str, *, wraparound: bool = False) -> str:
    """Which of the hands wins and why; raises a HomeGameError naming the bad input."""
    hands = [h.strip() for h in hands_text.replace(";", "|").split("|") if h.strip()]
    result = compare_group(game, hands, wraparound=wraparound)
    ranked = sorted(result["hands"], key=lambda h: h["place"])
    for h in ranked:
        h["name"] = hand_name_text(h["name"])  # a ten reads 10, as on the cards
    lines = []
    for h in ranked:
        pretty = cards_text(parse_cards(h["cards"]))
        strength = "" if h["strength"] is None else f" (beats {h['strength']:.2%} of hands)"
        lines.append(
            f"{PLACE.get(h['place'], str(h['place']) + '.')} `{pretty}`: {h['name']}{strength}"
        )
    winners = [h for h in ranked if h["place"] == 1]
    if len(ranked) < 2:
        why = "Give two or more hands separated by `|` to compare them."
    elif len(winners) > 1:
        why = "Tie: the best hands are equal (suits never break ties)."
    else:
        second = next(h for h in ranked if h["place"] == 2)
        if game == "razz":
            why = f"Lowest wins: {winners[0]['name']} is lower than {second['name']}."
        else:
            why = f"{winners[0]['name']} outranks {second['name']}."
    return "\n".join([*lines, "", why])


class RulesCog(commands.Cog, name="Rules"):
    rules = app_commands.Group(name="rules", description="How the games are played and ranked")

    def __init__(self, bot: HomeGameBot) -> None:
        self.bot = bot

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        """Every slash command of this cog answers within Discord's 3 seconds, also when
        the store is slow (:mod:`cogs._answer`)."""
        return arm_command(interaction)

    async def _show(self, interaction: discord.Interaction, game: str) -> None:
        rows: Any = default_rules(game)
        at_table = False
        service = self.bot.service
        if service is not None and interaction.channel_id is not None:
            table = await service.table_in_channel(interaction.channel_id)
            if table is not None and table.game == game:
                rows, at_table = table.rules, True
        await send(interaction, embed=rules_embed(game, rows, at_table=at_table), ephemeral=True)

    @rules.command(name="zoot", description="Zoot: procedure, ranking by suits, house rules")
    async def zoot(self, interaction: discord.Interaction) -> None:
        await self._show(interaction, "zoot")

    @rules.command(
        name="wheelers", description="Wheelers: procedure, straights ranking, house rules"
    )
    async def wheelers(self, interaction: discord.Interaction) -> None:
        await self._show(interaction, "wheelers")

    @rules.command(name="razz", description="Razz: seven-card stud low, stakes and house rules")
    async def razz(self, interaction: discord.Interaction) -> None:
        await self._show(interaction, "razz")

    @rules.command(name="compare", description="Which of two or more hands wins, and why")
    @app_commands.describe(
        game="the game whose ranking to use",
        hands="hands separated by |, e.g. As 2d 3c 4h 5s | 9c Td Jh Qs Kc",
        wraparound="Wheelers only: straights may turn the corner (K-A-2)",
    )
    @app_commands.choices(
        game=[app_commands.Choice(name=t, value=g) for g, t in GAME_TITLES.items()]
    )
    async def compare(
        self,
        interaction: discord.Interaction,
        game: str,
        hands: app_commands.Range[str, 1, 200],
        wraparound: bool = False,
    ) -> None:
        text = compare_text(game, hands, wraparound=wraparound and game == "wheelers")
        await send(interaction, text, ephemeral=True)


async def setup(bot: HomeGameBot) -> None:
    await bot.add_cog(RulesCog(bot))
