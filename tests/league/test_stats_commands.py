"""Issue 22 item 6 through the fake Discord: ``/stats member: versus: game: season:`` with its
picture, and ``/leaderboard by:`` any statistic with ``min_hands:``, on hands the members
played at league tables through the real service and store."""

from __future__ import annotations

import io
from collections import defaultdict

import pytest
from PIL import Image

from bot.app import HomeGameBot
from bot.league.figures import StoredHand, Tally, hand_facts
from bot.league.glossary import FIGURES
from bot.league.stats_text import figure_text
from bot.store import Store
from bot.testing import running_client
from tests.league.conftest import TABLE_FREE, World
from tests.league.league_hands import play_league_hands

HOLDEM_HANDS = 40
ZOOT_GAMES = 12


@pytest.fixture
async def played(world: World) -> World:
    """Alice (raises), Bob (calls) and Carol (folds) play fixed-limit Hold'em; Alice and Bob
    then play Zoot. Dave never plays."""
    people = [
        (world.alice.id, "alice", "raiser"),
        (world.bob.id, "bob", "caller"),
        (world.carol.id, "carol", "folder"),
    ]
    await play_league_hands(
        world.db_path,
        guild_id=world.guild.id,
        channel_id=world.channel.id,
        players=people,
        game="holdem",
        hands=HOLDEM_HANDS,
        seed=11,
        options={"betting": "fixed-limit"},
    )
    await play_league_hands(
        world.db_path,
        guild_id=world.guild.id,
        channel_id=world.channel.id,
        players=people[:2],
        game="zoot",
        hands=ZOOT_GAMES,
        seed=12,
    )
    return world


async def tallies(store: Store, guild_id: int) -> dict[int, dict[str, Tally]]:
    """Each member's totals per game, added up here from each hand's facts."""
    out: dict[int, dict[str, Tally]] = defaultdict(lambda: defaultdict(Tally))
    async with store.read() as tx:
        season = await tx.current_season(guild_id)
        hands = await tx.season_hands(guild_id, season_id=season.id)
        rows = await tx.hand_rows([h.hand_id for h in hands])
    for row in rows:
        stored = StoredHand(row.hand_id, row.game, row.history, row.seats, row.users, row.result)
        for user, facts in hand_facts(stored).items():
            out[user][row.game].add(facts)
    return out


def png_size(data: bytes) -> tuple[int, int]:
    with Image.open(io.BytesIO(data)) as img:
        img.load()
        return img.size


async def test_stats_shows_each_games_figures_and_a_picture(played: World) -> None:
    world = played
    async with await Store.open(world.db_path) as store:
        want = (await tallies(store, world.guild.id))[world.alice.id]
        bot = HomeGameBot(
            settings=world.settings(), store=store, service=None, extensions=TABLE_FREE
        )
        async with running_client(world.fake, bot):
            reply = await (await world.fake.invoke(world.alice, world.channel, "stats")).response()
    assert reply.ephemeral
    text = reply.content
    assert f"Hold'em: {HOLDEM_HANDS} hands" in text and f"Zoot: {ZOOT_GAMES} hands" in text
    assert figure_text(want["holdem"], "holdem") in text
    assert figure_text(want["zoot"], "zoot") in text
    assert want["holdem"].vpip > 0 and want["zoot"].windows > 0
    assert "/rules glossary §11" in text
    card, chart = reply.attachments
    assert card.filename == "stats.png" and chart.filename == "balance.png"
    width, height = png_size(card.data)
    assert width <= 1500 and height > 200
    png_size(chart.data)


async def test_stats_versus_shows_hands_together_chips_between_and_showdowns(
    played: World,
) -> None:
    world = played
    async with await Store.open(world.db_path) as store:
        per_user = await tallies(store, world.guild.id)
        async with store.read() as tx:
            season = await tx.current_season(world.guild.id)
            hands = await tx.season_hands(world.guild.id, season_id=season.id)
            rows = {r.hand_id: r for r in await tx.hand_rows([h.hand_id for h in hands])}
        bot = HomeGameBot(
            settings=world.settings(), store=store, service=None, extensions=TABLE_FREE
        )
        async with running_client(world.fake, bot):
            rec = await world.fake.invoke(
                world.bob, world.channel, "stats", {"member": world.alice, "versus": world.bob}
            )
            reply = await rec.response()
    a, b = world.alice.id, world.bob.id
    together = [h for h in hands if a in h.users and b in h.users]
    assert len(together) == HOLDEM_HANDS + ZOOT_GAMES
    # chips between them, counted here: a loser's chips go to the winners pro rata
    net = 0.0
    for h in together:
        gains = sum(v for v in h.users.values() if v > 0)
        losses = -sum(v for v in h.users.values() if v < 0)
        scale = max(gains, losses)
        if scale and h.users[a] > 0 > h.users[b]:
            net += h.users[a] * -h.users[b] / scale
        elif scale and h.users[b] > 0 > h.users[a]:
            net -= h.users[b] * -h.users[a] / scale
    showdowns = 0
    for h in together:
        facts = hand_facts(
            StoredHand(h.hand_id, h.game, rows[h.hand_id].history, rows[h.hand_id].seats,
                       rows[h.hand_id].users, rows[h.hand_id].result)
        )  # fmt: skip
        showdowns += bool(facts[a].showdowns and facts[b].showdowns)
    text = reply.content
    assert "**Head to head with bob**" in text
    assert f"{len(together)} hands together" in text
    chips = round(net)
    if chips:
        winner, loser = ("alice", "bob") if chips > 0 else ("bob", "alice")
        assert f"{winner} won **{abs(chips):,}** chips net from {loser}" in text
    assert f"showdowns against each other: {showdowns} ·" in text and showdowns > 0
    assert figure_text(per_user[a]["holdem"], "holdem") in text
    (card, _chart) = reply.attachments
    assert png_size(card.data)[0] <= 1500


async def test_stats_refuses_versus_yourself_and_a_season_not_reached(played: World) -> None:
    world = played
    async with await Store.open(world.db_path) as store:
        bot = HomeGameBot(
            settings=world.settings(), store=store, service=None, extensions=TABLE_FREE
        )
        async with running_client(world.fake, bot):
            fake = world.fake
            same = await (
                await fake.invoke(world.bob, world.channel, "stats", {"versus": world.bob})
            ).response()
            assert same.ephemeral and "Nothing was shown." in same.content and not same.attachments
            later = await (
                await fake.invoke(world.bob, world.channel, "stats", {"season": 2})
            ).response()
            assert "There is no season 2: this is season 1." in later.content
            dave = await (
                await fake.invoke(world.bob, world.channel, "stats", {"member": world.dave})
            ).response()
            assert "has not played this season yet." in dave.content
            zoot = await (
                await fake.invoke(world.carol, world.channel, "stats", {"game": "zoot"})
            ).response()
            assert "No Zoot hands yet." in zoot.content and "Hold'em:" not in zoot.content
            mine = await (
                await fake.invoke(world.bob, world.channel, "stats", {"game": "zoot", "season": 1})
            ).response()
            assert f"Zoot: {ZOOT_GAMES} hands" in mine.content and "Hold'em:" not in mine.content


async def test_leaderboard_by_a_statistic_ranks_members_with_enough_hands(played: World) -> None:
    world = played
    async with await Store.open(world.db_path) as store:
        per_user = await tallies(store, world.guild.id)
        bot = HomeGameBot(
            settings=world.settings(), store=store, service=None, extensions=TABLE_FREE
        )
        async with running_client(world.fake, bot):
            fake = world.fake
            board = await (
                await fake.invoke(world.dave, world.channel, "leaderboard", {"by": "vpip"})
            ).response()
            lines = board.content.splitlines()
            assert "by VPIP (voluntarily put in pot)" in lines[0]
            order = sorted(
                (u for u in per_user if per_user[u]["holdem"].hands),
                key=lambda u: (-(per_user[u]["holdem"].vpip_rate or 0), u),
            )
            shown = [int(line.split("<@")[1].split(">")[0]) for line in lines[1:4]]
            assert shown == order and len(order) == 3
            vpip = FIGURES["vpip"].text(per_user[order[0]]["holdem"])
            assert lines[1] == f"1. <@{order[0]}>: VPIP {vpip} · {HOLDEM_HANDS} hands"
            assert "at least 20 hands" in board.content
            # more hands than anyone played: nobody is listed
            few = await (
                await fake.invoke(
                    world.dave, world.channel, "leaderboard", {"by": "pfr", "min_hands": 41}
                )
            ).response()
            assert "Nobody has 41 hands of all games with a PFR" in few.content
            assert few.message is not None
            assert str(few.message.button("Next ▶")["custom_id"]).endswith(":41")
            # Zoot's figures count Zoot games; the chip ranking takes min_hands when given
            zoot = await (
                await fake.invoke(
                    world.dave,
                    world.channel,
                    "leaderboard",
                    {"by": "laydown", "game": "zoot", "min_hands": 5},
                )
            ).response()
            assert (
                zoot.content.count(": Lay-down rate ") == 2
                and f"{ZOOT_GAMES} games" in zoot.content
            )
            net = await (
                await fake.invoke(
                    world.dave, world.channel, "leaderboard", {"by": "net", "min_hands": 45}
                )
            ).response()
            body = net.content.splitlines()[1:]
            assert len(body) == 2 and all("52 hands" in line for line in body)  # not Carol's 40


async def test_a_statistic_leaderboards_pages_keep_their_figure_and_minimum_after_a_restart(
    world: World,
) -> None:
    """Twelve members at two tables: the leaderboard by PFR has two pages; its Next button,
    clicked in a new process, opens page 2 with the same figure and ``min_hands``."""
    users = [world.fake.add_user(f"p{i}") for i in range(12)]
    for u in users:
        world.fake.add_member(world.guild, u)
    second = world.fake.add_channel(world.guild, "poker-2")
    for k, channel in enumerate((world.channel, second)):
        group = users[6 * k : 6 * k + 6]
        await play_league_hands(
            world.db_path,
            guild_id=world.guild.id,
            channel_id=channel.id,
            players=[
                (u.id, u.name, ("raiser", "caller", "folder")[i % 3]) for i, u in enumerate(group)
            ],
            game="holdem",
            hands=22,
            seed=20 + k,
            options={"betting": "fixed-limit"},
        )
    async with await Store.open(world.db_path) as store:
        bot = HomeGameBot(
            settings=world.settings(), store=store, service=None, extensions=TABLE_FREE
        )
        async with running_client(world.fake, bot):
            rec = await world.fake.invoke(
                world.dave, world.channel, "leaderboard", {"by": "pfr", "min_hands": 3}
            )
            first = await rec.response()
    assert "page 1/2" in first.content.splitlines()[0]
    message = first.message
    assert message is not None
    custom_id = str(message.button("Next ▶")["custom_id"])
    assert custom_id == "hg:lb:1:all:pfr:1:n:3"
    async with await Store.open(world.db_path) as store:
        bot = HomeGameBot(
            settings=world.settings(), store=store, service=None, extensions=TABLE_FREE
        )
        async with running_client(world.fake, bot):
            again = await (await world.fake.click(world.bob, message, custom_id)).response()
    lines = again.content.splitlines()
    assert again.updated_message and "by PFR (pre-flop raise) · page 2/2" in lines[0]
    assert lines[1].startswith(("11. <@", "10. <@")) and " hands" in lines[1]
    assert "at least 3 hands" in again.content
