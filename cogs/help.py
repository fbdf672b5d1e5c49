"""``/help``: a short guide, paged with **Previous** / **Next**, that only the asker sees.

The pages: the games (each with its ``/rules`` page), opening and joining a table, acting
in a hand, the league's commands for members, and those for managers. The command lists
are read from the bot's registered slash commands when a page is drawn, so a command
another cog adds (a night's bank, a tournament) shows up without anyone editing this file;
the game lines come from the registry of games (bot/games.py: each game's title, its
``/help`` line, its command and its ``/rules`` page).

The buttons are ``DynamicItem``s whose custom_id carries the page they open
(``hg:help:<page>:<p|n>``), so an old guide's buttons still work after a restart. A page
stays within Discord's embed limits: a list too long for one page goes on to the next.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import games as registry
from bot.render.limits import EMBED_DESCRIPTION
from bot.render.rulebook import TOPICS
from cogs._answer import arm_command, send
from cogs._errors import handle_error
from cogs._ids import MAX_CUSTOM_ID, BadCustomId

if TYPE_CHECKING:
    from bot.app import HomeGameBot

GAME_LINES: dict[str, str] = {g.key: g.help for g in registry.games()}
"""One line per game of the registry (bot/games.py), what ``/help`` says of it."""

TABLE_GROUP = "table"
HAND_COMMAND = "hand"
RULES_GROUP = "rules"
HELP_COMMAND = "help"
PAGE_ROOM = EMBED_DESCRIPTION - 300
"""Characters of one page's text (Discord: 4,096 in an embed's description)."""

HELP_TEMPLATE = r"hg:help:(?P<page>0|[1-9][0-9]{0,2}):(?P<dir>p|n)"
"""A guide's page button: the 0-based page it opens, and whether it is Previous or Next."""


@dataclass(frozen=True, slots=True)
class Section:
    """A part of the guide: its key (``/help topic:``), title, and lines."""

    key: str
    title: str
    lines: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Page:
    key: str
    title: str
    text: str


def _entry(command: app_commands.Command[Any, ..., Any]) -> str:
    return f"`/{command.qualified_name}`: {command.description}"


def _leaves(command: app_commands.Command[Any, ..., Any] | app_commands.Group) -> list[Any]:
    """A command, or every subcommand of a group (depth first)."""
    if isinstance(command, app_commands.Group):
        return [c for c in command.walk_commands() if isinstance(c, app_commands.Command)]
    return [command]


def _is_managers(command: Any) -> bool:
    """A command Discord shows only to members with a permission (Manage Server): the
    league's managers (and its admin role, which the command checks itself)."""
    perms = getattr(command, "default_permissions", None)
    return perms is not None and perms.value != 0


def sections(top: Sequence[Any]) -> list[Section]:
    """The guide's parts for the registered top-level commands ``top``."""
    by_name = {c.name: c for c in top}
    listed = [g for g in registry.games() if g.command in by_name]
    games = [g.command for g in listed]
    game_lines = [
        f"**{g.name}**: {g.help or by_name[g.command].description}."
        f" Open: `/{g.command}` · rules: `/rules {g.page}`"
        for g in listed
    ]
    game_lines += [
        "",
        "`/rules compare` ranks hands you type (e.g. `As 2d 3c 4h 5s | 9c Td Jh Qs Kc`);"
        f" `/rules {next(iter(TOPICS))}` has the chips, the ledger and the night.",
    ]
    opening = [
        "**Open a table** in a channel with a game's command: "
        + ", ".join(f"`/{g}`" for g in games)
        + ". Its options set the stakes and house rules (each has a description);"
        " with none you get the league's defaults. `practice:True` plays against computer"
        " players with play chips: no league chips move.",
        "**Join** on the table message sits you down (the league gives you your starting"
        " chips the first time); **Start** deals; **Leave** stands you up (after the hand"
        " you are in); **My hand** shows your cards here if your DMs are closed.",
        "Your cards come by DM, and that message follows the hand. The table message shows"
        " the seats, the pot, the board and whose turn it is; results are posted below it.",
        "",
    ]
    table_cmds = [c for name in (TABLE_GROUP, HAND_COMMAND) if name in by_name for c in
                  _leaves(by_name[name])]  # fmt: skip
    opening += [_entry(c) for c in table_cmds]
    acting = [
        "**Zoot, Wheelers**: your hand DM has **Lay down** and **Play on** (your choice"
        " stays secret until the window closes) and, in an exchange, a menu to discard one"
        " card.",
        "**Razz, Stud, Hold'em, Omaha**: when it is your turn, the table message's buttons:"
        " **Fold**, **Check**, **Call**, **Bet**, **Raise** (the stud games also **Bring in**,"
        " **Complete** and **Big bet**). At a no-limit or pot-limit table **Bet** and"
        " **Raise** show you the amounts (**Min**, **½ pot**, **Pot**, **All-in**) and"
        " **Other amount…** to type yours.",
        "**HORSE, dealer's choice**: the game being played decides the buttons; at dealer's"
        " choice the next dealer picks a game in the table message's menu.",
        "The countdown on the table message is your time; at the betting games your **time"
        " bank** then starts (60 s by default, 5 s back after each orbit of the button), its"
        " countdown on the table message. When both run out the table acts for you (check,"
        " else fold; play on). Let two windows run out and you sit out until you press"
        " **Join** again.",
        "**In advance**: while it is not your turn your hand DM offers **Check/Fold**,"
        " **Check** or **Call N** (Zoot, Wheelers: **Play on** or **Lay down** for the next"
        " window), taken at once when your turn comes; a changed price clears Check and"
        " Call N. **Sit out next hand** and **I'm back** are in your hand DM too.",
        "**Your turn**: not acting a few seconds after your turn began, you get one short"
        " new DM (the one before it deleted); `/settings turn_ping:` `off`, `dm` or"
        " `mention` (in the table's channel).",
        "A button that is not yours or no longer current is refused with the reason, and"
        " nothing changes. Out of chips: `/rebuy`, when the league allows it.",
    ]
    placed = {TABLE_GROUP, HAND_COMMAND, *games}
    pages = {g.page for g in registry.games()}
    members: list[str] = []
    managers: list[str] = []
    for command in top:
        if command.name in placed:
            continue
        into = managers if _is_managers(command) else members
        for leaf in _leaves(command):
            parts = leaf.qualified_name.split()
            if parts[0] == RULES_GROUP and len(parts) == 2 and parts[1] in pages:
                continue  # each game's page is on the games' page
            into.append(_entry(leaf))
    return [
        Section("games", "The games", tuple(game_lines)),
        Section("tables", "Open and join a table", tuple(opening)),
        Section("playing", "How to act", tuple(acting)),
        Section("members", "League commands for members", tuple(members)),
        Section(
            "managers",
            "League commands for managers",
            (
                "For members with **Manage Server**, or the league's admin role"
                " (`/league setup admin_role:`).",
                *managers,
            ),
        ),
    ]


def _split(lines: Iterable[str], room: int = PAGE_ROOM) -> list[str]:
    """Lines joined into page texts of at most ``room`` characters (a list too long for
    one page goes on to the next; one line is far shorter than a page)."""
    pages: list[str] = []
    current: list[str] = []
    for line in lines:
        if current and len("\n".join([*current, line])) > room:
            pages.append("\n".join(current).strip("\n"))
            current = []
        current.append(line[:room])
    if current or not pages:
        pages.append("\n".join(current).strip("\n"))
    return pages


def pages(top: Sequence[Any]) -> list[Page]:
    out: list[Page] = []
    for section in sections(top):
        texts = _split(section.lines)
        for i, text in enumerate(texts):
            title = section.title if len(texts) == 1 else f"{section.title} ({i + 1})"
            out.append(Page(section.key, title, text or "(none)"))
    return out


def build_help_id(page: int, direction: str) -> str:
    text = f"hg:help:{page}:{direction}"
    if len(text) > MAX_CUSTOM_ID or not re.fullmatch(HELP_TEMPLATE, text):
        raise BadCustomId(f"not a help page button: {text[:40]}")
    return text


def help_message(bot: commands.Bot, page: int) -> tuple[discord.Embed, discord.ui.View]:
    """Page ``page`` (0-based, clamped) of the guide with its Previous/Next buttons."""
    all_pages = pages(bot.tree.get_commands())
    page = max(0, min(page, len(all_pages) - 1))
    shown = all_pages[page]
    embed = discord.Embed(
        title=f"Home Game help: {shown.title}",
        description=shown.text,
        colour=discord.Colour.dark_green(),
    )
    embed.set_footer(
        text=f"Page {page + 1} of {len(all_pages)} · only you see this · "
        "every table message names its /rules page"
    )
    view = discord.ui.View(timeout=None)
    view.add_item(HelpButton.make(page - 1, "p", disabled=page == 0))
    view.add_item(HelpButton.make(page + 1, "n", disabled=page == len(all_pages) - 1))
    return embed, view


class HelpButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]], template=HELP_TEMPLATE
):
    """Previous / Next of a guide: the custom_id names the page it opens."""

    def __init__(self, page: int, item: discord.ui.Button[discord.ui.View]) -> None:
        super().__init__(item)
        self.page = page

    @classmethod
    def make(cls, page: int, direction: str, *, disabled: bool) -> HelpButton:
        button: discord.ui.Button[discord.ui.View] = discord.ui.Button(
            label="Previous" if direction == "p" else "Next",
            style=discord.ButtonStyle.secondary,
            custom_id=build_help_id(max(page, 0), direction),
            disabled=disabled,
        )
        return cls(max(page, 0), button)

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> HelpButton:
        assert isinstance(item, discord.ui.Button)
        return cls(int(match["page"]), item)

    async def callback(self, interaction: discord.Interaction) -> None:  # type: ignore[override]
        try:
            embed, view = help_message(interaction.client, self.page)  # type: ignore[arg-type]
            await interaction.response.edit_message(embed=embed, view=view)
        except Exception as exc:
            await handle_error(interaction, exc)


TOPIC_CHOICES = [
    app_commands.Choice(name="the games", value="games"),
    app_commands.Choice(name="open and join a table", value="tables"),
    app_commands.Choice(name="how to act", value="playing"),
    app_commands.Choice(name="league commands for members", value="members"),
    app_commands.Choice(name="league commands for managers", value="managers"),
]


class HelpCog(commands.Cog, name="Help"):
    def __init__(self, bot: HomeGameBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        # old guides' buttons keep working after a restart (their custom_id is the state)
        self.bot.add_dynamic_items(HelpButton)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(HelpButton)

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        return arm_command(interaction)

    @app_commands.command(
        name="help", description="How to play here: the games, tables, acting and commands"
    )
    @app_commands.describe(topic="the page to open (default: the first, the games)")
    @app_commands.choices(topic=TOPIC_CHOICES)
    async def help(self, interaction: discord.Interaction, topic: str | None = None) -> None:
        keys = [p.key for p in pages(self.bot.tree.get_commands())]
        page = keys.index(topic) if topic in keys else 0
        embed, view = help_message(self.bot, page)
        await send(interaction, embed=embed, view=view, ephemeral=True)


async def setup(bot: HomeGameBot) -> None:
    await bot.add_cog(HelpCog(bot))
