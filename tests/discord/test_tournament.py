"""Issue 20, "Must show", through the fake Discord: a 12-player Hold'em tournament on two
tables (threads the bot opens) with rebuys until level 2, a break with an add-on, a
balancing move, a table break, the final table, the payouts, a bounty and the league points
in ``/leaderboard by:points``; the clock moved forward, never waited for; one bot restart
in the middle of a level, after which the level changes at its stored time; every balance
equal to the ledger, and ``python -m bot db audit`` passing.

The players' betting is driven by the test (the real service, as a click would reach it:
Discord's side of a table is tested elsewhere; one action here is clicked on the table
message in its thread); everything of the tournament goes through Discord: the command,
the lobby's buttons, the bust's **Rebuy** and **I'm out**, the **Add-on**, the director's
pause and resume, the DMs of the seat draw and the moves, the posts in the tables' threads,
the results post and its picture, ``/tournament results|show`` and the leaderboard.
The refusals are in test_tournament_refusals.py.
"""

from __future__ import annotations

import io
import os
import random
import re
import subprocess
import sys
from pathlib import Path

from PIL import Image

from bot.app import HomeGameBot
from bot.testing import FakeUser
from tests.discord.conftest import World
from tests.discord.tablebot import eventually, table_bot
from tests.discord.tournamentbot import (
    Driver,
    MovedClock,
    create_tournament,
    ledger_count,
    offers,
    owner_of,
    players_of,
    thread_posts,
)

REPO = Path(__file__).resolve().parents[2]
LEVELS = (
    "10/20 5m, 20/40 5m, break 5m, 40/80 5m, 80/160 5m, 150/300 5m, 300/600 5m,"
    " 500/1000 5m, 1000/2000 5m, 2000/4000 5m, 4000/8000 5m"
)


class Busts:
    """The bust offers in the threads and how the players answer them: the first bust of
    the rebuy period rebuys (another member's click on their button is refused), the
    others decline with **I'm out**."""

    def __init__(self, world: World, users: list[FakeUser]) -> None:
        self.world = world
        self.by_id = {u.id: u for u in users}
        self.users = users
        self.rebought: list[int] = []
        self.answered: set[int] = set()

    async def answer(self) -> None:
        fake = self.world.fake
        for post in offers(self.world, "Rebuy", self.answered):
            user_id = owner_of(post, "Rebuy")
            if not self.rebought:
                answer = await (
                    await fake.click_label(self.by_id[user_id], post, "Rebuy")
                ).response()
                assert "back in" in answer.content, answer.content
                self.rebought.append(user_id)
            else:
                other = next(u for u in self.users if u.id != user_id)
                refused = await (await fake.click_label(other, post, "Rebuy")).response()
                assert refused.ephemeral and "buttons are" in refused.content
                await (await fake.click_label(self.by_id[user_id], post, "I'm out")).response()
            self.answered.add(post.id)
        for post in offers(self.world, "I'm out", self.answered):
            user_id = owner_of(post, "I'm out")
            await (await fake.click_label(self.by_id[user_id], post, "I'm out")).response()
            self.answered.add(post.id)


async def test_issue20_a_12_player_tournament_through_the_fake_discord(world: World) -> None:
    fake = world.fake
    clock = MovedClock(world)
    users = players_of(world)
    by_id = {u.id: u for u in users}
    busts = Busts(world, users)
    rng = random.Random(2020)
    async with table_bot(world, clock=clock, sleep=clock.sleep, autostart_delay=0, seed=11) as bot:
        # --- create: the lobby, Register / Unregister, the field and the prize pool
        created = await create_tournament(
            world,
            world.alice,
            game="holdem",
            buy_in=100,
            starting_stack=1000,
            levels=LEVELS,
            seats_per_table=6,
            max_players=12,
            rebuys=1,
            rebuy_until_level=2,
            add_on=True,
            bounty=20,
        )
        lobby = created.message
        assert lobby is not None and not created.ephemeral
        assert lobby.embeds[0]["title"] == "Hold'em tournament #1"
        for user in users:
            answer = await (
                await fake.click_label(user, fake.messages[lobby.id], "Register")
            ).response()
            assert answer.ephemeral and "120 league chips paid in" in answer.content
        out = await (
            await fake.click_label(world.bob, fake.messages[lobby.id], "Unregister")
        ).response()
        assert "went back" in out.content
        await (await fake.click_label(world.bob, fake.messages[lobby.id], "Register")).response()
        d = bot.tournaments
        assert d is not None
        (tid,) = d.live_ids()

        def lobby_text() -> str:
            m = fake.messages[lobby.id]
            return str(m.embeds[0].get("description")) + " ".join(
                str(f.get("value")) for f in m.embeds[0].get("fields", ())
            )

        await eventually(
            lambda: "Field (12 of 12)" in str(fake.messages[lobby.id].embeds), what="field"
        )
        assert "prize pool **1,200**" in lobby_text() and "bounties held 240" in lobby_text()
        async with bot.store.read() as tx:
            alice_wallet = await tx.find_wallet(world.guild.id, world.alice.id)
            assert alice_wallet is not None and alice_wallet.balance == 1000 - 120
        # --- start: two tables in threads, each player told their seat by DM
        started = await (
            await fake.click_label(world.alice, fake.messages[lobby.id], "Start")
        ).response()
        assert "starts" in started.content
        await eventually(lambda: len(fake.threads(world.channel)) == 2, what="two threads")
        for thread in fake.threads(world.channel):
            table = await eventually(
                lambda t=thread: fake.channel_messages(t), what="table message"
            )
            text = str(table[0].embeds[0]["description"])
            assert "**Level 1**: blinds 10/20" in text and re.search(r"<t:\d+:R>", text)
        for user in users:
            await eventually(
                lambda u=user: any("you play at table" in m.content for m in fake.dms(u)),
                what=f"{user.name}'s seat",
            )
        driver = Driver(bot, clock, tid, rng)
        await a_turn_clicked_on_a_table_message(world, bot, tid, by_id)

        # --- rebuys until level 2: a bust's Rebuy (and I'm out for the others)
        async def first_rebuy() -> bool:
            await busts.answer()
            return bool(busts.rebought)

        await driver.until(first_rebuy, what="a bust in the rebuy period")
        assert await ledger_count(bot, "tournament_rebuy") == 1
        entry = d.live(tid).t.latest_entry(busts.rebought[0])
        assert entry is not None and entry.rebuys == 1 and entry.alive

        # --- the break after level 2: the add-on, offered at both tables
        t0 = d.live(tid).t.started_at
        assert t0 is not None
        break_starts = t0 + 600
        if clock.now < break_starts:
            clock.move(break_starts - clock.now + 1)

        async def add_on_posted() -> bool:
            await busts.answer()
            return len(offers(world, "Add-on")) >= 1

        await driver.until(add_on_posted, what="the add-on offered")
        takers = [e.player for e in d.live(tid).t.alive][:2]
        for user_id in takers:
            post = offers(world, "Add-on")[0]
            answer = await (await fake.click_label(by_id[user_id], post, "Add-on")).response()
            assert "add-on is taken" in answer.content, answer.content
        assert await ledger_count(bot, "tournament_add_on") == 2
        twice = await (
            await fake.click_label(by_id[takers[0]], offers(world, "Add-on")[0], "Add-on")
        ).response()
        assert "Nothing changed" in twice.content
        assert await ledger_count(bot, "tournament_add_on") == 2

        # --- the director's pause: no hand is dealt while it lasts, every change waits
        before = d.lobby(tid)
        assert before.next_change is not None
        hands = await driver.hand_numbers()
        paused = await (
            await fake.invoke(world.alice, world.channel, "tournament", subcommand="pause")
        ).response()
        assert "paused" in paused.content
        clock.move(600)
        await d.settle()
        await eventually(lambda: d.lobby(tid).paused, what="the pause")
        assert await driver.hand_numbers() == hands
        assert (d.lobby(tid).level, d.lobby(tid).on_break) == (before.level, before.on_break)
        resumed = await (
            await fake.invoke(world.alice, world.channel, "tournament", subcommand="resume")
        ).response()
        assert "resumes" in resumed.content
        after = d.lobby(tid)
        assert after.next_change is not None and after.next_change >= before.next_change + 599

        # play on into level 3, then half-way through it
        await driver.until(
            lambda: d.lobby(tid).level == 3 and not d.lobby(tid).on_break, what="level 3"
        )
        next_change = d.lobby(tid).next_change
        assert next_change is not None
        clock.move(max(0.0, (next_change - clock.now) / 2))
        async with bot.store.read() as tx:
            stored = (await tx.tournament(tid)).deadline
        assert stored == next_change  # the change's time is in the database

    # --- the bot restarts in the middle of level 3; the clock runs on while it is down
    clock.move(30)
    async with table_bot(world, clock=clock, sleep=clock.sleep, autostart_delay=0, seed=12) as bot:
        d = bot.tournaments
        assert d is not None and d.live_ids() == [tid]
        assert d.lobby(tid).level == 3 and d.lobby(tid).next_change == next_change
        clock.move(next_change - 1 - clock.now)
        await d.settle()
        assert d.lobby(tid).level == 3  # a second before its stored time: still level 3
        clock.move(1)  # its stored time: level 4 on every table message
        await eventually(lambda: d.lobby(tid).level == 4, what="level 4 at its stored time")
        await eventually(lambda: tables_show(world, bot, tid, "**Level 4**"), what="level 4 shown")
        driver = Driver(bot, clock, tid, rng)

        # --- to the end: balancing, a table break, the final table, payouts, bounties
        async def over() -> bool:
            await busts.answer()
            return tid not in d.live_ids()

        await driver.until(over, steps=20000, what="the end of the tournament")
        await d.settle()
        await moves_were_told(world, users)
        await results_are_shown(world, bot, tid, users, by_id)
        db_path = world.db_path
    audit = subprocess.run(
        [sys.executable, "-m", "bot", "db", "audit", "--db", str(db_path)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        check=False,
    )
    assert audit.returncode == 0, audit.stdout + audit.stderr


async def a_turn_clicked_on_a_table_message(
    world: World, bot: HomeGameBot, tid: int, by_id: dict[int, FakeUser]
) -> None:
    """One betting action clicked on a table message in its thread: the table moves on."""
    fake, service, d = world.fake, bot.service, bot.tournaments
    assert service is not None and d is not None
    table_ids = sorted(d.live(tid).tables.values())

    async def someone_to_act() -> tuple[int, int] | None:
        for table_id in table_ids:
            view = await service.view(table_id)
            if view.to_act_user_ids:
                return table_id, min(view.to_act_user_ids)
        return None

    table_id, uid = await eventually(someone_to_act, what="a turn")
    version = (await service.view(table_id)).version
    thread = fake.channels[service._tables[table_id].channel_id]
    message = fake.channel_messages(thread)[0]

    def enabled() -> str | None:
        for b in fake.messages[message.id].buttons():
            if b.get("label") in ("Call", "Check") and not b.get("disabled"):
                return str(b["label"])
        return None

    label = await eventually(enabled, what="the table message's turn")
    clicked = await (await fake.click_label(by_id[uid], message, label)).response()
    assert "Nothing changed" not in clicked.content, clicked.content

    async def moved_on() -> bool:
        return (await service.view(table_id)).version > version

    await eventually(moved_on, what="the click's action")


def tables_show(world: World, bot: HomeGameBot, tid: int, text: str) -> bool:
    """Every live table's message (in its thread) shows ``text``."""
    d, service = bot.tournaments, bot.service
    assert d is not None and service is not None
    for table_id in d.live(tid).tables.values():
        thread = world.fake.channels[service._tables[table_id].channel_id]
        shown = [m for m in world.fake.channel_messages(thread) if m.embeds]
        if not shown or text not in str(shown[0].embeds[0]["description"]):
            return False
    return True


async def moves_were_told(world: World, users: list[FakeUser]) -> None:
    """A balancing move and a table break's moves, each told to the player by DM and at
    both tables; the table break and the final table announced in the channel."""
    fake = world.fake
    dms = [m.content for u in users for m in fake.dms(u)]
    assert any("to balance the tables" in text for text in dms), "no balancing move"
    assert any("as table 2 breaks" in text for text in dms), "no table break move"
    assert thread_posts(world, "moves to table"), "a move told at its table"
    assert thread_posts(world, "comes from table"), "a move told at the other table"
    channel_posts = [m.content for m in fake.channel_messages(world.channel)]
    assert any("table 2 breaks" in p for p in channel_posts)
    assert any("the final table!" in p for p in channel_posts)


async def results_are_shown(
    world: World, bot: HomeGameBot, tid: int, users: list[FakeUser], by_id: dict[int, FakeUser]
) -> None:
    """The results post with its picture, the prize pool paid exactly, a bounty paid,
    ``/tournament results|show``, the points in ``/leaderboard by:points``, every balance
    equal to its ledger, the audit clean and the hands in ``/history`` with their level."""
    fake, d = world.fake, bot.tournaments
    assert d is not None
    results = await eventually(
        lambda: [m for m in fake.channel_messages(world.channel) if "· results ·" in m.content],
        what="the results post",
    )
    post = results[-1]
    assert "1st" in post.content and "prize" in post.content and "rounded down" in post.content
    assert "points" in post.content
    (png,) = post.attachments
    picture = Image.open(io.BytesIO(png.data))
    assert picture.format == "PNG" and picture.size[0] <= 1500
    r = await d.tournament_results(tid)
    assert [line.place for line in r.lines].count(1) == 1 and len(r.lines) == r.entries
    places = [line.place for line in r.lines]
    # every entry placed; players busted in one hand with the same chips share a place
    assert all(p == 1 + sum(q < p for q in places) for p in places), places
    assert sum(line.prize for line in r.lines) == r.prize_pool == 100 * r.entries + 100 * 1 + 200
    assert await ledger_count(bot, "bounty") >= 1 and sum(line.bounties for line in r.lines) > 0
    winner = next(line for line in r.lines if line.place == 1)
    shown = await (
        await fake.invoke(world.bob, world.channel, "tournament", subcommand="results")
    ).response()
    assert winner.name in shown.content and shown.attachments
    past = await (
        await fake.invoke(world.bob, world.channel, "tournament", subcommand="show")
    ).response()
    assert "Hold'em tournament #1" in past.content and winner.name in past.content
    # league points in /leaderboard by:points (PokerStars' formula by default)
    board = await (
        await fake.invoke(world.bob, world.channel, "leaderboard", {"by": "points"})
    ).response()
    assert "by league points (pokerstars)" in board.content
    assert f"1. <@{winner.user_id}>" in board.content and "points" in board.content
    async with bot.store.read() as tx:
        for user in users:
            wallet = await tx.find_wallet(world.guild.id, user.id)
            assert wallet is not None
            assert wallet.balance == await tx.ledger_balance(wallet.id), user.name
        report = await tx.audit()
    assert report.ok, report.format()
    history = await (await fake.invoke(by_id[winner.user_id], world.channel, "history")).response()
    assert "tournament #1, level" in history.content  # its hands, with their level
    assert "prize" in history.content and "bounty" in history.content  # in the ledger's words
