"""``/rules zoot|wheelers|razz|stud|holdem|omaha|horse|dealers-choice`` (procedure, ranking,
the gaps, house rules), ``/rules league`` (the chips, the night), ``/rules table`` (time to
act, the time bank, acting in advance, turn pings, sitting out) and ``/rules compare``.

The texts are the rule book's (:mod:`bot.render.rulebook`, from which docs/rules.md is
generated); the house rules come from the engines' rules models (or from the table open in
the channel), and ``compare`` ranks hands with ``bot.engine.hands``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import games as registry
from bot.cli.compare import compare_group
from bot.engine.cards import parse_cards
from bot.render import rulebook
from bot.render.rulebook import GAME_TITLES
from bot.render.text import cards_text, hand_name_text
from cogs._answer import arm_command, send

if TYPE_CHECKING:
    from bot.app import HomeGameBot

PLACE = {1: "🥇", 2: "🥈", 3: "🥉"}
FIELD_LIMIT = 1024  # Discord: characters in one embed field's value


def _rules_rows(rows: Any) -> str:
    return "\n".join(
        f"`{name}` **{value}**: {desc}" for name, value, desc in rows if name != "game"
    )


def default_rules(game: str) -> list[tuple[str, str, str]]:
    return rulebook.house_rules(game)


def _chunks(text: str, limit: int = FIELD_LIMIT) -> list[str]:
    """``text`` cut at line ends into pieces of at most ``limit`` characters (a code block
    is never cut: the rule book keeps each under the limit)."""
    pieces: list[str] = []
    current = ""
    for line in text.split("\n"):
        candidate = f"{current}\n{line}" if current else line
        if len(candidate) > limit and current:
            pieces.append(current)
            candidate = line
        current = candidate
    if current:
        pieces.append(current)
    return pieces


#: Discord's limits on one message's embeds: 6,000 characters in all, 25 fields an embed.
EMBED_TOTAL = 6000
EMBED_FIELDS = 25


def _paged(title: str, description: str, fields: list[tuple[str, str]]) -> list[discord.Embed]:
    """``fields`` in as few embeds as Discord allows, one message each (6,000 characters of
    embeds a message, 25 fields an embed)."""
    embeds = [
        discord.Embed(
            title=f"{title}: the rules",
            description=description,
            colour=discord.Colour.dark_green(),
        )
    ]
    for name, value in fields:
        embed = embeds[-1]
        if len(embed) + len(name) + len(value) > EMBED_TOTAL or len(embed.fields) >= EMBED_FIELDS:
            embed = discord.Embed(
                title=f"{title}: the rules (continued)", colour=discord.Colour.dark_green()
            )
            embeds.append(embed)
        embed.add_field(name=name, value=value, inline=False)
    return embeds


def _part_fields(parts: Any) -> list[tuple[str, str]]:
    fields: list[tuple[str, str]] = []
    for part in parts:
        for i, piece in enumerate(_chunks(rulebook.part_text(part))):
            fields.append((part.title if i == 0 else f"{part.title} (continued)", piece))
    return fields


def rules_embeds(game: str, rows: Any, *, at_table: bool) -> list[discord.Embed]:
    """``/rules GAME``: the game's parts of the rule book (bot/render/rulebook.py, the text
    docs/rules.md is generated from) and its house rules; more than one embed (one message
    each) when the text is longer than Discord allows in one message."""
    fields = _part_fields(rulebook.PARTS[game])
    label = "House rules at this table" if at_table else "House rules (defaults)"
    for i, piece in enumerate(_chunks(_rules_rows(rows))):
        fields.append((label if i == 0 else f"{label} (continued)", piece))
    cited = f"Messages cite these rules by number: `/rules {game} §N`."
    return _paged(GAME_TITLES[game], cited, fields)


def rules_embed(game: str, rows: Any, *, at_table: bool) -> discord.Embed:
    """The first of :func:`rules_embeds` (all of them, for the shorter games)."""
    return rules_embeds(game, rows, at_table=at_table)[0]


def topic_embeds(topic: str) -> list[discord.Embed]:
    """``/rules league``, ``/rules tournament``: a page of the rule book that is no game's
    (the chips and the night; tournaments), in as many messages as it needs."""
    title, _, parts = rulebook.TOPICS[topic]
    cited = f"Messages cite these rules by number: `/rules {topic} §N`."
    return _paged(title, cited, _part_fields(parts))


def topic_embed(topic: str) -> discord.Embed:
    """The first of :func:`topic_embeds` (all of ``/rules league``)."""
    return topic_embeds(topic)[0]


#: ``/rules compare`` choices beyond the games' own rankings: the hi-lo games rank both
#: halves and say who takes which (``omaha8``, ``stud8``: each game with a hi-lo split).
HI_LO = {f"{g.key}8": g.key for g in registry.games() if g.hi_lo_title}
COMPARE_EXTRA = {code: registry.game(HI_LO[code]).hi_lo_title for code in sorted(HI_LO)}


def _shown(h: dict[str, Any]) -> str:
    return f"`{cards_text(parse_cards(h['cards']))}`"


def _takes(hands: list[dict[str, Any]], what: str) -> str:
    """Who takes ``what``: "`A♠ …` takes the high half", "`…` and `…` split the high half"."""
    who = " and ".join(_shown(h) for h in hands)
    return f"{who} {'takes' if len(hands) == 1 else 'split'} {what}"


def _hi_lo_text(hands: list[dict[str, Any]]) -> str:
    """A hi-lo pot between these hands: the low half's order, and who takes which half
    (rules §8.8, §8.9; Omaha Hi-Lo §6.2): the best high hand and the best eight-or-better
    low share it; with no low the high hand takes it all."""
    lows = sorted((h for h in hands if h["low"] is not None), key=lambda h: h["low_place"])
    lines = [
        f"Low {PLACE.get(h['low_place'], str(h['low_place']) + '.')}"
        f" {_shown(h)}: {hand_name_text(h['low'])}"
        for h in lows
    ]
    high = [h for h in hands if h["place"] == 1]
    if not lows:
        return "No hand has an eight-or-better low: " + _takes(high, "the whole pot (no low)") + "."
    low = [h for h in lows if h["low_place"] == 1]
    if len(high) == 1 and len(low) == 1 and high[0] is low[0]:
        who = f"{_shown(high[0])} scoops: it takes both halves, the high and the low."
    else:
        high_half = ("Tie for high: " if len(high) > 1 else "") + _takes(high, "the high half")
        low_half = ("Tie for low: " if len(low) > 1 else "") + _takes(low, "the low half")
        who = f"{high_half}. {low_half}."
    return "\n".join([*lines, who])


def compare_text(game: str, hands_text: str, *, wraparound: bool = False) -> str:
    """Which of the hands wins and why; raises a HomeGameError naming the bad input."""
    hands = [h.strip() for h in hands_text.replace(";", "|").split("|") if h.strip()]
    split = "hi-lo" if game in HI_LO else "high"
    game = HI_LO.get(game, game)
    result = compare_group(game, hands, wraparound=wraparound, split=split)
    ranked = sorted(result["hands"], key=lambda h: h["place"])
    for h in ranked:
        h["name"] = hand_name_text(h["name"])  # a ten reads 10, as on the cards
    lines = []
    for h in ranked:
        pretty = cards_text(parse_cards(h["cards"]))
        strength = "" if h["strength"] is None else f" (beats {h['strength']:.2%} of hands)"
        if "low" in h:  # the eight-or-better low each hand makes
            strength += "; no low" if h["low"] is None else f"; low {h['low']}"
        lines.append(
            f"{PLACE.get(h['place'], str(h['place']) + '.')} `{pretty}`: {h['name']}{strength}"
        )
    if "board" in result:
        lines.insert(0, f"Board: `{cards_text(parse_cards(result['board']))}`")
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
    if split == "hi-lo" and len(ranked) >= 2:
        why = f"{why}\n\n{_hi_lo_text(result['hands'])}"
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
        first, *more = rules_embeds(game, rows, at_table=at_table)
        await send(interaction, embed=first, ephemeral=True)
        for embed in more:  # one message holds at most 6,000 characters of embeds
            await send(interaction, embed=embed, ephemeral=True)

    async def _page(self, interaction: discord.Interaction) -> None:
        """``/rules GAME``: the page of the game the subcommand is named after."""
        command = interaction.command
        assert command is not None  # a slash command's callback
        await self._show(interaction, command.name)

    # one page per game of the registry (bot/games.py), in its order
    for _game in registry.games():
        rules.add_command(
            app_commands.Command(name=_game.page, description=_game.rules, callback=_page)
        )
    del _game

    async def _show_topic(self, interaction: discord.Interaction, topic: str) -> None:
        first, *more = topic_embeds(topic)
        await send(interaction, embed=first, ephemeral=True)
        for embed in more:  # one message holds at most 6,000 characters of embeds
            await send(interaction, embed=embed, ephemeral=True)

    @rules.command(name="league", description=rulebook.TOPICS["league"][1])
    async def league(self, interaction: discord.Interaction) -> None:
        await self._show_topic(interaction, "league")

    @rules.command(name="tournament", description=rulebook.TOPICS["tournament"][1])
    async def tournament(self, interaction: discord.Interaction) -> None:
        await self._show_topic(interaction, "tournament")

    @rules.command(name="glossary", description=rulebook.TOPICS["glossary"][1])
    async def glossary(self, interaction: discord.Interaction) -> None:
        await self._show_topic(interaction, "glossary")

    @rules.command(name="table", description=rulebook.TOPICS["table"][1])
    async def table(self, interaction: discord.Interaction) -> None:
        await send(interaction, embed=topic_embed("table"), ephemeral=True)

    @rules.command(name="compare", description="Which of two or more hands wins, and why")
    @app_commands.describe(
        game="the game whose ranking to use",
        hands="hands separated by |, e.g. As 2d 3c 4h 5s | 9c Td Jh Qs Kc"
        " (Hold'em, Omaha: add | board: Ks 7d 2c)",
        wraparound="Wheelers only: straights may turn the corner (K-A-2)",
    )
    @app_commands.choices(
        # the games whose hands rank (a mixed table's rank as the game being played)
        game=[
            app_commands.Choice(name=t, value=g)
            for g, t in {**GAME_TITLES, **COMPARE_EXTRA}.items()
            if g in rulebook.GAMES or g in COMPARE_EXTRA
        ]
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
