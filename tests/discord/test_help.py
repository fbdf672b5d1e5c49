"""Issue 19, item 11 ("/help"), through the fake Discord and the real bot with every cog:
a short, paged, ephemeral guide (the games, opening and joining a table, acting, the
league commands for members and for managers), its **Previous** / **Next** buttons (still
working after a restart), within Discord's limits (the fake refuses what Discord would),
and every registered slash command named in it, so a command added tomorrow is too."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot.render import rulebook
from bot.testing import FakeMessage, FakeUser
from cogs.help import GAME_LINES, pages
from tests.discord.conftest import World
from tests.discord.tablebot import table_bot


def page_text(embeds: tuple[dict[str, Any], ...]) -> str:
    (embed,) = embeds
    return f"{embed['title']}\n{embed['description']}\n{embed['footer']['text']}"


async def read_all_pages(world: World, user: FakeUser) -> tuple[FakeMessage, list[str]]:
    """``/help``, then **Next** until it is disabled; each page's text."""
    fake = world.fake
    reply = await (await fake.invoke(user, world.channel, "help")).response()
    assert reply.ephemeral and reply.message is not None
    message = reply.message
    texts = [page_text(reply.embeds)]
    while True:
        nxt = message.button("Next")
        if nxt.get("disabled"):
            break
        clicked = await (await fake.click_label(user, message, "Next")).response()
        assert clicked.updated_message and clicked.ephemeral
        texts.append(page_text(clicked.embeds))
        assert len(texts) < 30
    return message, texts


def registered(bot: Any) -> list[Any]:
    return list(bot.tree.get_commands())


async def test_issue19_item11_help_is_a_paged_ephemeral_guide_naming_every_command(
    world: World,
) -> None:
    async with table_bot(world) as bot:
        message, texts = await read_all_pages(world, world.bob)
        top = registered(bot)
        # only the asker sees it
        assert message.ephemeral and not world.fake.can_see(world.carol, message)
    whole = "\n".join(texts)
    titles = [t.splitlines()[0] for t in texts]
    for part in (
        "The games",
        "Open and join a table",
        "How to act",
        "League commands for members",
        "League commands for managers",
    ):
        assert any(part in t for t in titles), (part, titles)
    assert len(texts) >= 5 and texts[0].count("Page 1 of") == 1
    # every game, with its /rules page
    for game, title in rulebook.GAME_TITLES.items():
        assert f"**{title}**" in whole and f"`/{game}`" in whole and f"`/rules {game}`" in whole
    # every registered command, and every subcommand of a group, by its full name
    for command in top:
        assert f"`/{command.name}" in whole, command.name
        if isinstance(command, discord.app_commands.Group):
            for sub in command.walk_commands():
                if isinstance(sub, discord.app_commands.Command):
                    assert f"`/{sub.qualified_name}`" in whole, sub.qualified_name
    members = next(t for t in texts if "for members" in t.splitlines()[0])
    managers = next(t for t in texts if "for managers" in t.splitlines()[0])
    assert "`/balance`" in members and "`/rebuy`" in members and "`/league setup`" not in members
    assert "`/league setup`" in managers and "`/chips grant`" in managers
    assert "`/balance`" not in managers


async def test_issue19_item11_help_previous_next_and_after_a_restart(world: World) -> None:
    fake = world.fake
    async with table_bot(world):
        reply = await (await fake.invoke(world.carol, world.channel, "help")).response()
        message = reply.message
        assert message is not None
        assert message.button("Previous").get("disabled") and not message.button("Next").get(
            "disabled"
        )
        first = page_text(reply.embeds)
        second = page_text(
            (await (await fake.click_label(world.carol, message, "Next")).response()).embeds
        )
        assert second != first and "Page 2 of" in second
    # a restart: the same message's buttons still answer (the page is in the custom_id)
    async with table_bot(world):
        back = await (await fake.click_label(world.carol, message, "Previous")).response()
        assert back.updated_message and page_text(back.embeds) == first


async def test_issue19_item11_help_topic_opens_its_page(world: World) -> None:
    async with table_bot(world):
        rec = await world.fake.invoke(world.dave, world.channel, "help", {"topic": "managers"})
        reply = await rec.response()
        assert reply.ephemeral and "for managers" in page_text(reply.embeds).splitlines()[0]


def test_issue19_item11_every_game_has_a_help_line_and_pages_fit_discord() -> None:
    assert set(GAME_LINES) == set(rulebook.GAME_TITLES)
    # a long list of commands goes on over more pages, each within an embed's 4,096
    many = [
        discord.app_commands.Command(
            name=f"cmd{i}",
            description="x" * 100,
            callback=_noop,  # type: ignore[arg-type]
        )
        for i in range(80)
    ]
    drawn = pages(many)
    assert all(len(p.text) <= 4096 for p in drawn)
    text = "\n".join(p.text for p in drawn)
    assert all(f"`/cmd{i}`" in text for i in range(80))
    assert sum("League commands for members" in p.title for p in drawn) >= 2


async def _noop(interaction: discord.Interaction) -> None:
    return None


@pytest.mark.parametrize("game", ["razz", "holdem", "zoot"])
async def test_issue19_item11_every_table_message_points_to_its_rules_page(
    world: World, game: str
) -> None:
    async with table_bot(world):
        reply = await (await world.fake.invoke(world.alice, world.channel, game)).response()
        table = reply.message
        assert table is not None
        shown = str(table.embeds[0])
        assert f"/rules {game}" in shown and "/help" in shown
