"""Issue 19, item 12 ("Wording"), as players read it through the fake Discord: the real
bot, service and store (and the table families' own sentences, where a hand would have
to be dealt just so to show one).

- one style for every refusal: a sentence with a capital letter and a full stop, then
  what changed ("It is not your turn. Nothing changed."), the engines' reasons included;
- ``/table pause``, ``/table resume`` and ``/table kick`` announced once each;
- a betting table says "Hand 3" as ``/history`` does; Zoot keeps its games;
- the hand DM says "Stud Hi-Lo" at a Stud Hi-Lo table and "not dealt yet" once;
- a call at the betting games is a call in ``/history`` and the ledger CSV; a plain
  bet "bets 20"; chip amounts have their thousands separators in every sentence;
- the lists of games name all eight games (the empty leaderboard, ``/table``,
  ``/league show``, the package description).
"""

from __future__ import annotations

import csv
import io
import re
import tomllib
from pathlib import Path

import pytest

from bot.engine.events import Event
from bot.render.rulebook import GAME_TITLES
from bot.tables.games import make_family
from bot.testing import FakeMessage
from tests.discord.conftest import World
from tests.discord.tablebot import eventually, field, hand_dm, table_bot
from tests.discord.test_razz_table import open_razz, play_razz_hand, start_razz

REPO = Path(__file__).resolve().parents[2]
ONE_STYLE = re.compile(r"^[A-Z].*[.!?] Nothing changed\.$", re.S)


def posts(world: World, table: FakeMessage) -> list[str]:
    return [m.content for m in world.fake.channel_messages(world.channel) if m is not table]


async def test_issue19_item12_refusals_in_one_style(world: World) -> None:
    fake = world.fake
    async with table_bot(world) as bot:
        table, view, _ = await start_razz(world, bot, world.players[:3])
        other = next(u for u in world.players[:3] if u.id not in view.to_act_user_ids)
        seen = []
        # the quick answer before the service (cogs/_refusal.py)
        reply = await (await fake.click_label(other, table, "Bring in")).response()
        assert reply.ephemeral and reply.content == "It is not your turn. Nothing changed."
        seen.append(reply.content)
        # the service's own reasons, lower-case phrases in the engine ("you do not sit …")
        reply = await (
            await fake.invoke(world.alice, world.channel, "table", {"user": world.dave},
                              subcommand="kick")
        ).response()  # fmt: skip
        assert reply.ephemeral and "do not sit at this table" in reply.content.lower()
        seen.append(reply.content)
        reply = await (
            await fake.invoke(world.outsider, world.channel, "table", subcommand="pause")
        ).response()
        assert reply.ephemeral and "host" in reply.content
        seen.append(reply.content)
        # a slash command's bad option (an engine config error names the option)
        reply = await (
            await fake.invoke(world.bob, world.channel, "rules", {"game": "zoot",
                              "hands": "As 2d 3c 4h 5x | 9s 8s 6s 3s 2s"}, subcommand="compare")
        ).response()  # fmt: skip
        seen.append(reply.content)
        assert await bot.store.audit(world.guild.id)
    for text in seen:
        assert ONE_STYLE.match(text), text


async def test_issue19_item12_pause_resume_and_kick_are_announced_once(world: World) -> None:
    fake = world.fake
    async with table_bot(world) as bot:
        table, _, _ = await start_razz(world, bot, world.players[:3])
        before = len(posts(world, table))
        paused = await (
            await fake.invoke(world.bob, world.channel, "table", subcommand="pause")
        ).response()
        assert not paused.ephemeral
        resumed = await (
            await fake.invoke(world.bob, world.channel, "table", subcommand="resume")
        ).response()
        assert not resumed.ephemeral
        await bot.get_cog("Tables").updates.idle()  # type: ignore[union-attr]
        said = posts(world, table)[before:]
        assert len(said) == 2, said  # the two answers, and nothing more
        assert "is paused" in said[0] and "goes on" in said[1], said
    # a kick between hands: one post says so (not also "left the table")
    async with table_bot(world) as bot:
        await (await fake.invoke(world.alice, world.channel, "table", subcommand="end")).response()
        table, _ = await open_razz(world, [world.alice, world.bob, world.carol])
        before = len(posts(world, table))
        kicked = await (
            await fake.invoke(world.alice, world.channel, "table", {"user": world.carol},
                              subcommand="kick")
        ).response()  # fmt: skip
        assert not kicked.ephemeral and "removed from table" in kicked.content
        await bot.get_cog("Tables").updates.idle()  # type: ignore[union-attr]
        said = posts(world, table)[before:]
        assert said == [kicked.content], said  # the answer only: no "carol left the table"


async def test_issue19_item12_a_betting_table_counts_hands_as_history_does(world: World) -> None:
    async with table_bot(world) as bot:
        table, view, _ = await start_razz(world, bot, world.players[:3])
        head = str(table.embeds[0].get("description", "")).splitlines()[0]
        assert "· Hand 1 ·" in head and "Game" not in head, head
        play = await play_razz_hand(world, bot, table, view.table_id)
        assert play
        reply = await (await world.fake.invoke(world.bob, world.channel, "history")).response()
        assert f"table #{view.table_id} hand 1" in reply.content


async def test_issue19_item12_the_dm_names_stud_hi_lo_and_says_not_dealt_once(
    world: World,
) -> None:
    fake = world.fake
    async with table_bot(world, autostart_delay=30):
        rec = await fake.invoke(world.alice, world.channel, "stud", {"split": "hi-lo"})
        table = (await rec.response()).message
        assert table is not None
        await (await fake.click_label(world.bob, table, "Join")).response()
        mine = await (await fake.click_label(world.bob, table, "My hand")).response()
        text = str(mine.embeds)
        assert "Stud Hi-Lo table #" in text, text
        assert text.lower().count("not dealt") == 1, text
        await (await fake.click_label(world.alice, table, "Start")).response()
        await eventually(
            lambda: (field(hand_dm(world, world.bob), "Down (only you)") or "—") != "—",
            what="bob's cards",
        )
        assert "Your hand — Stud Hi-Lo table #" in str(hand_dm(world, world.bob).embeds[0])
    async with table_bot(world, autostart_delay=30):
        await (await fake.invoke(world.alice, world.channel, "table", subcommand="end")).response()
        rec = await fake.invoke(world.alice, world.channel, "holdem")
        table = (await rec.response()).message
        assert table is not None
        await (await fake.click_label(world.bob, table, "Join")).response()
        mine = await (await fake.click_label(world.bob, table, "My hand")).response()
        text = str(mine.embeds)
        assert text.lower().count("not dealt") == 1, text


async def test_issue19_item12_a_call_is_a_call_in_history_and_the_csv(world: World) -> None:
    fake = world.fake
    async with table_bot(world, autostart_delay=30) as bot:
        table, view, _ = await start_razz(world, bot, world.players[:3])
        await play_razz_hand(world, bot, table, view.table_id)
        async with bot.store.read() as tx:
            calls = await tx.entries(table_id=view.table_id, kind="match")
        assert calls, "the hand had a call"
        payers = {c.from_account for c in calls}
        caller = None
        for user in world.players:
            if await _wallet_id(bot, world, user) in payers:
                caller = user
        assert caller is not None
        reply = await (await fake.invoke(caller, world.channel, "history")).response()
        assert "matched the pot" not in reply.content, reply.content
        assert re.search(r"-[\d,]+ call \(table", reply.content), reply.content
        exported = await (
            await fake.invoke(world.alice, world.channel, "ledger", subcommand="export")
        ).response()
        (attachment,) = exported.attachments
        rows = list(csv.DictReader(io.StringIO(attachment.data.decode())))
        whats = {r["what"] for r in rows if r["kind"] == "match"}
        assert whats == {"call"}, whats
        assert {r["what"] for r in rows if r["kind"] == "start"} == {"starting chips"}


async def _wallet_id(bot, world: World, user) -> int:  # type: ignore[no-untyped-def]
    async with bot.store.read() as tx:
        wallet = await tx.find_wallet(world.guild.id, user.id)
        return -1 if wallet is None else wallet.id


def _names(seat: int) -> str:
    return {1: "alice", 2: "bob", 3: "carol"}[seat]


@pytest.mark.parametrize("game", ["razz", "stud"])
def test_issue19_item12_a_plain_bet_bets_20_and_a_raise_raises_to(game: str) -> None:
    fam = make_family(game, {})
    bet = Event("action", {"seat": 1, "action": "bet", "street": 5, "amount": 20, "to": 20})
    raise_ = Event("action", {"seat": 2, "action": "raise", "street": 5, "amount": 40, "to": 40})
    assert fam.describe(bet, _names) == "alice bets 20"
    assert fam.describe(raise_, _names) == "bob raises to 40"


@pytest.mark.parametrize("game", ["zoot", "razz", "holdem"])
def test_issue19_item12_chip_amounts_have_thousands_separators(game: str) -> None:
    fam = make_family(game, {})
    award = Event("award", {"seat": 2, "amount": 2990, "pot": 0})
    assert fam.describe(award, _names) == "bob wins 2,990"


async def test_issue19_item12_game_lists_name_every_game(world: World) -> None:
    fake = world.fake
    commands = [f"/{g}" for g in GAME_TITLES]
    async with table_bot(world):
        board = await (await fake.invoke(world.bob, world.channel, "leaderboard")).response()
        assert all(c in board.content for c in commands), board.content
        none = await (
            await fake.invoke(world.bob, world.channel, "table", subcommand="status")
        ).response()
        assert all(c in none.content for c in commands), none.content
        shown = await (
            await fake.invoke(world.alice, world.channel, "league", subcommand="show")
        ).response()
        assert "No league yet" in shown.content
        await (await fake.invoke(world.alice, world.channel, "zoot")).response()
        shown = await (
            await fake.invoke(world.alice, world.channel, "league", subcommand="show")
        ).response()
        for title in GAME_TITLES.values():
            assert f"{title} stakes:" in shown.content, shown.content
    description = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["description"]
    for title in ("Zoot", "Wheelers", "Razz", "Stud", "Hold'em", "Omaha", "HORSE", "dealer's"):
        assert title in description, description
