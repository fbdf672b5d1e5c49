"""Issue 19, item 2: ``/league setup add_channel`` is enforced. Once a league lists its table
channels, every command that opens a table (each game's, a practice table too) or starts a
night refuses anywhere else, ephemerally, naming the allowed channels as mentions, and
changes nothing; in an allowed channel (or a thread of one) it opens as before."""

from __future__ import annotations

from typing import Any

import pytest

from bot.app import HomeGameBot
from bot.testing import FakeChannel
from tests.discord.conftest import World
from tests.discord.tablebot import table_bot

OPENERS: list[tuple[str, dict[str, Any]]] = [
    ("zoot", {}),
    ("wheelers", {}),
    ("razz", {}),
    ("stud", {}),
    ("stud", {"split": "hi-lo"}),
    ("holdem", {}),
    ("omaha", {}),
    ("horse", {}),
    ("dealers-choice", {}),
    ("zoot", {"practice": True}),
]


async def restrict(world: World, *channels: FakeChannel) -> None:
    for channel in channels:
        reply = await (
            await world.fake.invoke(
                world.alice, world.channel, "league", {"add_channel": channel}, subcommand="setup"
            )
        ).response()
        assert reply.ephemeral and f"<#{channel.id}>" in reply.content


async def tables_and_nights(bot: HomeGameBot) -> tuple[int, int]:
    async with bot.store.read() as tx:
        tables = await tx._one("SELECT COUNT(*) AS n FROM tables")
        nights = await tx._one("SELECT COUNT(*) AS n FROM nights")
    assert tables is not None and nights is not None
    return int(tables["n"]), int(nights["n"])


@pytest.mark.parametrize(("command", "options"), OPENERS)
async def test_issue19_item2_a_table_is_refused_outside_the_allowed_channels(
    world: World, command: str, options: dict[str, Any]
) -> None:
    fake = world.fake
    poker = fake.add_channel(world.guild, "poker-room")
    cards = fake.add_channel(world.guild, "card-room")
    async with table_bot(world) as bot:
        await restrict(world, poker, cards)
        before = await tables_and_nights(bot)
        # world.channel is not one of them: refused, naming both, nothing opened
        reply = await (await fake.invoke(world.bob, world.channel, command, options)).response()
        assert reply.ephemeral, reply.content
        assert f"<#{poker.id}>" in reply.content and f"<#{cards.id}>" in reply.content
        assert reply.content.startswith("Tables open only in")
        assert reply.content.endswith("Nothing changed.")
        assert await tables_and_nights(bot) == before
        assert [m for m in fake.channel_messages(world.channel) if m.embeds] == []
        # in an allowed channel the same command opens the table
        opened = await (await fake.invoke(world.bob, cards, command, options)).response()
        assert not opened.ephemeral and opened.message is not None and opened.message.embeds
        assert (await tables_and_nights(bot))[0] == before[0] + 1


async def test_issue19_item2_night_start_is_refused_outside_the_allowed_channels(
    world: World,
) -> None:
    fake = world.fake
    poker = fake.add_channel(world.guild, "poker-room")
    async with table_bot(world) as bot:
        await restrict(world, poker)
        reply = await (
            await fake.invoke(world.alice, world.channel, "night", subcommand="start")
        ).response()
        assert reply.ephemeral
        assert reply.content == (
            f"Nights start only in <#{poker.id}> in this server (`/league setup add_channel`)."
            " Nothing changed."
        )
        assert await tables_and_nights(bot) == (0, 0)
        started = await (
            await fake.invoke(world.alice, poker, "night", subcommand="start")
        ).response()
        assert not started.ephemeral and "Night #1 starts" in started.content
        assert await tables_and_nights(bot) == (0, 1)


async def test_issue19_item2_show_and_enforcement_agree_and_no_channel_listed_means_everywhere(
    world: World,
) -> None:
    fake = world.fake
    poker = fake.add_channel(world.guild, "poker-room")
    async with table_bot(world):
        # no channel listed yet: every channel hosts tables
        assert not (
            await (await fake.invoke(world.bob, world.channel, "razz")).response()
        ).ephemeral
        await (await fake.invoke(world.bob, world.channel, "table", subcommand="end")).response()
        await restrict(world, poker)
        shown = await (
            await fake.invoke(world.alice, world.channel, "league", subcommand="show")
        ).response()
        assert f"Table channels: <#{poker.id}>" in shown.content
        refused = await (await fake.invoke(world.bob, world.channel, "razz")).response()
        assert refused.ephemeral and f"<#{poker.id}>" in refused.content
        # removing the last one: every channel again
        await (
            await fake.invoke(
                world.alice, world.channel, "league", {"remove_channel": poker}, subcommand="setup"
            )
        ).response()
        assert not (
            await (await fake.invoke(world.bob, world.channel, "razz")).response()
        ).ephemeral


def test_issue19_item2_a_thread_counts_as_the_channel_it_is_in() -> None:
    """The fake Discord has no threads; the rule itself: a thread's parent decides."""
    from bot.store import League
    from bot.tables.channels import WrongChannel, check_channel, parent_channel

    league = League(
        guild_id=1,
        starting_chips=1000,
        rebuy_amount=1000,
        rebuy_cooldown_seconds=0,
        game_settings={},
        admin_role_id=None,
        allowed_channel_ids=(7,),
        images=True,
        created_at=0,
        updated_at=0,
    )
    check_channel(league, 99, parent_id=7, what="Tables open")  # a thread of #7
    check_channel(None, 99, parent_id=None, what="Tables open")  # no league yet
    with pytest.raises(WrongChannel, match=r"^Tables open only in <#7> in this server"):
        check_channel(league, 99, parent_id=8, what="Tables open")

    class Thread:
        parent_id = 7

    class Text:
        category_id = 5

    assert parent_channel(Thread()) == 7 and parent_channel(Text()) is None
