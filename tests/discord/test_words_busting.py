"""Issue 19, item 10 ("Busting"), through the fake Discord: the real bot, service and store.

A heads-up Stud table where Bob antes and brings in his last 7 chips and loses the showdown: the
channel shows the hand's result first, then that Bob is out of chips and how he gets back
(``/rebuy``, when the league allows it), then that the table waits for players; never
"Waiting for players" before the result it follows from. With rebuys off the post says so
and who can help (a manager's ``/chips grant``)."""

from __future__ import annotations

import asyncio
import re

from bot.app import HomeGameBot
from bot.testing import FakeMessage
from tests.discord.conftest import World
from tests.discord.tablebot import eventually, footer_state, table_bot
from tests.discord.test_razz_table import short_stack
from tests.discord.test_stud_tables import open_stud
from tests.tables.stacked import StackedRng, stacked_factory

PASSIVE = ("Bring in", "Check", "Call")
STAKES = {"ante": 2, "bring_in": 5, "small_bet": 10, "big_bet": 20}
#: Bob draws the lowest card and deals; Alice (first position) makes three aces, Bob
#: nothing better than a pair of twos.
DRAW = "Kc 2d"
BUST_HAND = [
    "As Ah Ad  2c 7d 3h",
    "Kd 9c",
    "Qs 8h",
    "Js 4c",
    "5s 2h",
]


def enabled_buttons(table: FakeMessage) -> list[str]:
    return [str(b["label"]) for b in table.buttons() if not b.get("disabled")]


def table_id(table: FakeMessage) -> int:
    title = str(table.embeds[0]["title"])
    found = re.search(r"table #(\d+)", title)
    assert found, title
    return int(found[1])


def index_of(texts: list[str], words: str) -> int:
    found = [i for i, t in enumerate(texts) if words in t]
    assert found, (words, texts)
    return found[0]


async def bust_bob(world: World, bot: HomeGameBot) -> list[str]:
    """Bob (7 chips) antes and brings in all in at a heads-up Stud table and loses; the
    channel's posts after the table message, in order."""
    fake = world.fake
    await short_stack(bot, world, world.bob, 7)
    table = await open_stud(world, [world.alice, world.bob], **STAKES)
    await (await fake.click_label(world.alice, table, "Start")).response()

    def posts() -> list[FakeMessage]:
        return [m for m in fake.channel_messages(world.channel) if m.id != table.id]

    def settled() -> bool:
        texts = [m.content for m in posts()]
        return any(" wins " in t for t in texts) and any("Waiting for players" in t for t in texts)

    # Bob brings in with his last chips; Alice calls and the hand is dealt out
    assert bot.service is not None
    tid = table_id(table)
    clicks = 0
    for _ in range(500):
        if settled():
            break
        view = await bot.service.view(tid)
        if view.hand_number == 1 and view.to_act_user_ids:
            (uid,) = view.to_act_user_ids
            user = world.alice if uid == world.alice.id else world.bob
            await eventually(lambda v=view: footer_state(table) == v.version, what="table")
            labels = [b for b in enabled_buttons(table) if b in PASSIVE]
            assert labels, (enabled_buttons(table), [m.content for m in posts()])
            label = labels[0]
            await (await fake.click_label(user, table, label)).response()
            clicks += 1
            assert clicks < 20, "the hand does not end"
        else:
            await asyncio.sleep(0.02)
    try:
        await eventually(settled, what="the result and the waiting post")
    except AssertionError:
        raise AssertionError([m.content for m in posts()]) from None
    return [m.content for m in posts()]


async def test_issue19_item10_busting_result_first_then_how_to_get_back_then_waiting(
    world: World,
) -> None:
    cards = stacked_factory(StackedRng(BUST_HAND, draw=DRAW))
    async with table_bot(world, autostart_delay=30, rng_factory=cards) as bot:
        texts = await bust_bob(world, bot)
        async with bot.store.read() as tx:
            assert (await tx.wallet(world.guild.id, world.bob.id)).balance == 0
            league = await tx.league(world.guild.id)
    result, waiting, busted = (
        index_of(texts, " wins "),
        index_of(texts, "Waiting for players"),
        index_of(texts, "out of chips"),
    )
    assert result < busted < waiting, texts
    told = texts[busted]
    assert "bob" in told and "/rebuy" in told, told
    assert f"{league.rebuy_amount:,}" in told, told
    # one style: a sentence with a capital letter and a full stop
    assert texts[waiting].startswith("Waiting for players") and texts[waiting].endswith(".")
    assert "player(s)" not in texts[waiting], texts[waiting]


async def test_issue19_item10_busting_with_rebuys_off_says_who_can_help(world: World) -> None:
    cards = stacked_factory(StackedRng(BUST_HAND, draw=DRAW))
    async with table_bot(world, autostart_delay=30, rng_factory=cards) as bot:
        async with bot.store.transaction() as tx:
            await tx.league(world.guild.id)  # the league exists from its first command
            await tx.update_league(world.guild.id, rebuy_amount=0)
        texts = await bust_bob(world, bot)
    told = texts[index_of(texts, "out of chips")]
    assert "/rebuy" not in told and "/chips grant" in told, told


def test_issue19_item10_a_zoot_player_below_the_ante_is_short_too() -> None:
    """At Zoot a player cannot be dealt in below the ante: told so like one at 0."""
    from bot.tables.games import make_family

    zoot = make_family("zoot", {"ante": 10})
    assert zoot.short_of_chips(0) == "is out of chips"
    assert zoot.short_of_chips(5) == "has 5 chips, less than the 10-chip ante"
    assert zoot.short_of_chips(10) is None
    razz = make_family("razz", {})
    assert razz.short_of_chips(1) is None and razz.short_of_chips(0) == "is out of chips"
