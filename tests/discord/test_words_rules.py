"""Issue 19, items 11 and 12, what ``/rules`` shows, through the fake Discord and the real
bot: the pages players can open instead of docs/rules.md (``/rules league`` for the chips
and the night, which messages cite), ``/rules holdem`` without Omaha's ``split`` row or
Python's ``None``/``False``, and ``/rules compare`` for Omaha Hi-Lo saying who takes the
low half."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.app import EXTENSIONS, HomeGameBot
from bot.render import rulebook
from bot.store import Store
from bot.testing import running_client
from tests.discord.conftest import World

TABLE_FREE = tuple(e for e in EXTENSIONS if e != "cogs.tables")


@pytest.fixture
async def bot(world: World, store: Store) -> AsyncIterator[HomeGameBot]:
    client = HomeGameBot(
        settings=world.settings(), store=store, service=None, extensions=TABLE_FREE
    )
    async with running_client(world.fake, client) as running:
        yield running


def embed_text(embeds: tuple[dict, ...]) -> str:
    out = []
    for embed in embeds:
        out += [str(embed.get("title", "")), str(embed.get("description", ""))]
        out += [f"{f['name']}\n{f['value']}" for f in embed.get("fields", ())]
    return "\n".join(out)


@pytest.mark.parametrize("game", ["holdem", "omaha"])
async def test_issue19_item12_rules_holdem_has_no_split_row_and_no_raw_none_or_false(
    world: World, bot: HomeGameBot, game: str
) -> None:
    rec = await world.fake.invoke(world.bob, world.channel, "rules", subcommand=game)
    # the rules take three messages (6,000 characters of embeds each, since what home games
    # play joined them); the house rules close the last
    text = "\n".join(
        [embed_text((await rec.response()).embeds)]
        + [embed_text((await rec.followup(i)).embeds) for i in range(2)]
    )
    rows = [line for line in text.splitlines() if line.startswith("`")]
    assert rows, text
    for word in ("None", "False", "True"):
        assert f"**{word}**" not in text, (word, rows)
    assert ("`split`" in text) == (game == "omaha"), rows
    assert "`bb_ante` **off**" in text and "`min_bet` **the big blind**" in text


async def test_issue19_item11_rules_league_shows_the_rules_messages_cite(
    world: World, bot: HomeGameBot
) -> None:
    """The chips (§5) and the night (§7) have a page: "/rules league §5.2" can be opened."""
    rec = await world.fake.invoke(world.bob, world.channel, "rules", subcommand="league")
    reply = await rec.response()
    text = embed_text(reply.embeds)
    assert reply.ephemeral
    for number in ("5.1", "5.2", "7.1"):
        assert f"**{number}**" in text
    assert rulebook.cite("5.2") == "/rules league §5.2"
    # every number a citation can name is on the page it names
    for number, pages in rulebook.rule_pages().items():
        assert rulebook.cite(number).startswith(f"/rules {pages[0]} §")


async def test_issue19_item12_rules_compare_omaha_hi_lo_says_who_takes_the_low_half(
    world: World, bot: HomeGameBot
) -> None:
    choices = {
        c["value"]: c["name"]
        for o in world.fake.command("rules")["options"]
        if o["name"] == "compare"
        for p in o["options"]
        if p["name"] == "game"
        for c in p["choices"]
    }
    assert choices["omaha8"] == "Omaha Hi-Lo" and choices["stud8"] == "Stud Hi-Lo"
    rec = await world.fake.invoke(
        world.carol,
        world.channel,
        "rules",
        {"game": "omaha8", "hands": "As 2d Kc Qh | 3s 4d 9c 9h | board: 5s 6d 7c Jh Td"},
        subcommand="compare",
    )
    content = (await rec.response()).content
    assert "`3♠ 4♦ 9♣ 9♥` takes the high half" in content, content
    assert "`A♠ 2♦ K♣ Q♥` takes the low half" in content, content
    # no low: the high hand takes it all, and says so
    rec = await world.fake.invoke(
        world.carol,
        world.channel,
        "rules",
        {"game": "omaha8", "hands": "As Ad Kc Kh | Qs Qd Jc Jh | board: 5s 6d Tc Jd 9c"},
        subcommand="compare",
    )
    content = (await rec.response()).content
    assert "`Q♠ Q♦ J♣ J♥` takes the whole pot (no low)" in content, content
    # Stud Hi-Lo names the low's winner too, and a scoop is a scoop
    rec = await world.fake.invoke(
        world.carol,
        world.channel,
        "rules",
        {"game": "stud8", "hands": "As 2d 3c 4h 5s Kd Kc | 3s 4d 6c 7h 8s 9d 9c"},
        subcommand="compare",
    )
    content = (await rec.response()).content
    assert "`A♠ 2♦ 3♣ 4♥ 5♠ K♦ K♣` scoops: it takes both halves" in content, content
