"""Slash commands that need no table, through the fake Discord and the real bot: command
definitions, /rules, /rules compare, /balance, /leaderboard, /history, the error handler,
and the bot's start-up (intents, command sync)."""

from __future__ import annotations

import asyncio
import gc
import logging
from collections.abc import AsyncIterator
from typing import Any

import discord
import pytest

from bot.app import EXTENSIONS, HomeGameBot, bot_intents, freeze_heap_when_ready
from bot.store import Store
from bot.testing import running_client
from tests.discord.conftest import World

TABLE_FREE = tuple(e for e in EXTENSIONS if e != "cogs.tables")


@pytest.fixture
async def bot(world: World, store: Store) -> AsyncIterator[HomeGameBot]:
    client = HomeGameBot(
        settings=world.settings(), store=store, service=None, extensions=TABLE_FREE
    )

    @client.tree.command(name="boom", description="fails on purpose (tests the handler)")
    async def boom(interaction: discord.Interaction) -> None:
        raise RuntimeError("kaboom 1234")

    async with running_client(world.fake, client) as running:
        yield running


def _walk_options(command: dict[str, Any], path: str) -> list[tuple[str, str]]:
    out = [(path, command.get("description", ""))]
    for option in command.get("options", ()):
        out.extend(_walk_options(option, f"{path} {option['name']}"))
    return out


async def test_bot_asks_only_for_the_guilds_intent(bot: HomeGameBot) -> None:
    intents = bot_intents()
    assert intents.value == discord.Intents(guilds=True).value
    assert not intents.message_content and not intents.members and not intents.presences
    assert bot.intents.value == intents.value
    assert isinstance(bot, discord.AutoShardedClient)


async def test_every_command_and_option_has_a_description(world: World, bot: HomeGameBot) -> None:
    commands = world.fake.commands()
    assert {"rules", "balance", "leaderboard", "history"} <= set(commands)
    for name, command in commands.items():
        for path, description in _walk_options(command, name):
            assert description and description != "…", f"/{path} has no description"


async def test_rules_zoot_shows_suit_ranking_and_house_rules(
    world: World, bot: HomeGameBot
) -> None:
    rec = await world.fake.invoke(world.bob, world.channel, "rules", subcommand="zoot")
    reply = await rec.response()
    assert reply.ephemeral
    text = str(reply.embeds)
    assert "fewer suits beat more suits" in text
    assert "laydown_order" in text and "simultaneous" in text


async def test_rule_3_5_rules_wheelers_marks_the_table_as_this_reading(
    world: World, bot: HomeGameBot
) -> None:
    rec = await world.fake.invoke(world.bob, world.channel, "rules", subcommand="wheelers")
    embeds = (await rec.response()).embeds
    text = "\n".join(str(f["value"]) for e in embeds for f in e["fields"])
    # issue 12, item 9: this bot's reading, said plainly (not "its table did not survive")
    assert "this bot's reading of the game's ranking" in text
    assert "did not survive" not in text
    for example in ("A♠ 2♦ 3♣ 4♥ 5♠", "Q♦ K♥ A♣ 2♠ 3♦", "2♠ 4♦ 6♥ 9♣ J♦"):
        assert example in text
    assert "wheelers_wraparound" in text


async def test_rules_razz_shows_stakes(world: World, bot: HomeGameBot) -> None:
    rec = await world.fake.invoke(world.bob, world.channel, "rules", subcommand="razz")
    text = str((await rec.response()).embeds)
    assert "Ace-to-five low" in text and "bring_in" in text and "small_bet" in text


async def test_rule_2_3_compare_one_suited_flush_beats_full_house(
    world: World, bot: HomeGameBot
) -> None:
    rec = await world.fake.invoke(
        world.carol,
        world.channel,
        "rules",
        {"game": "zoot", "hands": "Kh Kd Kc 7h 7d | 9s 8s 6s 3s 2s"},
        subcommand="compare",
    )
    reply = await rec.response()
    assert reply.ephemeral
    first = reply.content.splitlines()[0]
    assert first.startswith("🥇") and "9♠ 8♠ 6♠ 3♠ 2♠" in first and "flush" in first
    assert "outranks" in reply.content


async def test_rule_4_11_compare_razz_lowest_wins(world: World, bot: HomeGameBot) -> None:
    rec = await world.fake.invoke(
        world.carol,
        world.channel,
        "rules",
        {"game": "razz", "hands": "3s 3d 5s 6h 6s 8h Kd | 4s 5h 7c 9d Td Js Qh"},
        subcommand="compare",
    )
    content = (await rec.response()).content
    assert content.splitlines()[0].startswith("🥇 `4♠ 5♥ 7♣ 9♦ 10♦ J♠ Q♥`")
    assert "Lowest wins" in content


async def test_rule_3_4_compare_two_wheels_tie(world: World, bot: HomeGameBot) -> None:
    rec = await world.fake.invoke(
        world.carol,
        world.channel,
        "rules",
        {"game": "wheelers", "hands": "As 2d 3c 4h 5s | Ad 2s 3h 4c 5d"},
        subcommand="compare",
    )
    content = (await rec.response()).content
    assert "Tie" in content and content.count("🥇") == 2


async def test_compare_bad_card_gets_an_ephemeral_reason_naming_it(
    world: World, bot: HomeGameBot
) -> None:
    rec = await world.fake.invoke(
        world.carol,
        world.channel,
        "rules",
        {"game": "zoot", "hands": "As 2d 3c 4h 5x | 9s 8s 6s 3s 2s"},
        subcommand="compare",
    )
    reply = await rec.response()
    assert reply.ephemeral and "5x" in reply.content


async def test_balance_before_and_after_first_seat(
    world: World, bot: HomeGameBot, store: Store
) -> None:
    rec = await world.fake.invoke(world.bob, world.channel, "balance")
    reply = await rec.response()
    assert reply.ephemeral and "has not played yet" in reply.content and "1,000" in reply.content
    async with store.transaction() as tx:
        await tx.wallet(world.guild.id, world.bob.id)  # what the first sit-down does
    rec = await world.fake.invoke(world.alice, world.channel, "balance", {"user": world.bob})
    assert "**1,000** chips" in (await rec.response()).content


async def test_leaderboard_and_history_read_the_ledger(
    world: World, bot: HomeGameBot, store: Store
) -> None:
    empty = await (await world.fake.invoke(world.bob, world.channel, "leaderboard")).response()
    assert "Nobody has played yet" in empty.content
    async with store.transaction() as tx:
        bob = await tx.wallet(world.guild.id, world.bob.id)
        await tx.wallet(world.guild.id, world.carol.id)
        house = await tx.house(world.guild.id)
        await tx.transfer(house.id, bob.id, 250, "grant", actor_id=world.alice.id, reason="prize")
    board = await (await world.fake.invoke(world.dave, world.channel, "leaderboard")).response()
    lines = board.content.splitlines()
    # ranked by net result (balance minus chips received): a grant is not a win, so both
    # share rank 1; the richer is listed first
    assert lines[1].startswith(f"1. <@{world.bob.id}>: net +0 · balance 1,250")
    assert lines[2].startswith(f"1. <@{world.carol.id}>: net +0 · balance 1,000")
    history = await (await world.fake.invoke(world.bob, world.channel, "history")).response()
    assert history.ephemeral
    assert "+250 grant" in history.content and "+1,000 starting chips" in history.content


async def test_unexpected_error_is_an_apology_and_a_logged_traceback(
    world: World, bot: HomeGameBot, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.ERROR, logger="homegame.errors"):
        rec = await world.fake.invoke(world.bob, world.channel, "boom")
        reply = await rec.response()
    assert reply.ephemeral and reply.content.startswith("Sorry")
    assert "kaboom" not in reply.content and "Traceback" not in reply.content
    assert any(r.exc_info and "kaboom 1234" in str(r.exc_info[1]) for r in caplog.records)


async def test_start_up_heap_is_frozen_once_the_bot_is_ready(bot: HomeGameBot) -> None:
    """``python -m bot run`` moves what lives as long as the process (modules, caches)
    out of full collections once the bot is ready: a collection pause is what every click
    in flight waits through."""
    gc.unfreeze()
    assert gc.get_freeze_count() == 0
    try:
        await asyncio.wait_for(freeze_heap_when_ready(bot), 10)
        assert gc.get_freeze_count() > 10_000  # discord.py, pydantic, our modules...
    finally:
        gc.unfreeze()  # the test process goes on starting and closing bots
