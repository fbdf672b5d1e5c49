"""A night through the fake Discord (issue 13, item 7): the real bot, service and store.
An admin sets the chip value, ``/night start``, two Razz hands with real chips at a league
table, ``/night end`` refused while the third hand holds chips and by a member who is not
the host, then the host's ``/night end`` posts each player's net, hands and the biggest
pot, a picture and who pays whom in chips and euros; the settle-up is in the ledger, every
wallet is back where the night started, the audit holds, and settling twice is refused."""

from __future__ import annotations

import asyncio
import sys

from bot.app import HomeGameBot
from bot.league.settle import Transfer
from bot.testing import FakeMessage
from tests.discord.conftest import World
from tests.discord.tablebot import HANG, eventually, footer_state, table_bot
from tests.discord.test_razz_table import POLICY, enabled, open_razz
from tests.tables.conftest import wait_for


async def play_hand(
    world: World, bot: HomeGameBot, table: FakeMessage, tid: int, number: int
) -> None:
    """Click through hand ``number`` with the Razz test's policy until it is over."""
    service = bot.service
    assert service is not None
    by_id = {u.id: u for u in world.players}
    loop = asyncio.get_running_loop()
    hang = loop.time() + HANG  # a guard, not a deadline: a busy machine deals later
    clicks = 0
    while clicks < 80 and loop.time() < hang:
        view = await service.view(tid)
        if view.hand_number > number:
            return
        if view.hand_number < number or not view.to_act_user_ids:
            await asyncio.sleep(0.05)  # the next hand is dealt by its timer
            continue
        clicks += 1
        (uid,) = view.to_act_user_ids
        user = by_id[uid]
        await eventually(lambda v=view: footer_state(table) == v.version, what="table message")
        label = next(x for x in POLICY[user.name] if x in enabled(table))
        reply = await (await world.fake.click_label(user, table, label)).response()
        assert reply.updated_message, reply.content
    raise AssertionError(f"hand {number} does not end")


async def wallets(bot: HomeGameBot, world: World) -> dict[str, int]:
    """Each player's balance, checked against the ledger rows."""
    out = {}
    async with bot.store.read() as tx:
        for user in (world.alice, world.bob, world.carol):
            wallet = await tx.find_wallet(world.guild.id, user.id)
            assert wallet is not None
            assert wallet.balance == await tx.ledger_balance(wallet.id)
            out[user.name] = wallet.balance
    return out


async def test_a_night_from_night_start_to_night_end_posts_results_and_settles_up(
    world: World,
) -> None:
    fake = world.fake
    players = [world.alice, world.bob, world.carol]
    async with table_bot(world, autostart_delay=0.2) as bot:
        bad = await (
            await fake.invoke(
                world.alice, world.channel, "league", {"chip_value": "1,2.3"}, subcommand="setup"
            )
        ).response()
        assert bad.ephemeral and "chip_value" in bad.content
        setup = await (
            await fake.invoke(
                world.alice,
                world.channel,
                "league",
                {"chip_value": "0.01", "currency": "eur"},
                subcommand="setup",
            )
        ).response()
        assert "100 chips = €1.00" in setup.content, setup.content

        # bob hosts nothing and is no admin: refused, no night
        refused = await (
            await fake.invoke(world.bob, world.channel, "night", subcommand="start")
        ).response()
        assert refused.ephemeral and "Nothing was changed" in refused.content
        async with bot.store.read() as tx:
            assert await tx.open_night(world.guild.id) is None
        started = await (
            await fake.invoke(world.alice, world.channel, "night", subcommand="start")
        ).response()
        assert not started.ephemeral and "Night #1 starts" in started.content
        assert "€1.00" in started.content
        again = await (
            await fake.invoke(world.alice, world.channel, "night", subcommand="start")
        ).response()
        assert again.ephemeral and "already on" in again.content

        table, _ = await open_razz(world, players)
        await (await fake.click_label(world.alice, table, "Start")).response()
        service = bot.service
        assert service is not None
        view = await service.table_in_channel(world.channel.id)
        assert view is not None
        tid = view.table_id
        await play_hand(world, bot, table, tid, 1)
        await play_hand(world, bot, table, tid, 2)

        # hand 3 is dealt by itself: its antes are in the pot
        async def third() -> bool:
            return (await service.view(tid)).hand_number == 3

        await wait_for(third, what="hand 3")
        async with bot.store.read() as tx:
            assert sum(c.amount for c in await tx.pot_contributions(tid)) > 0
        busy = await (
            await fake.invoke(world.alice, world.channel, "night", subcommand="end")
        ).response()
        assert busy.ephemeral and "still being played" in busy.content, busy.content
        closed = await (
            await fake.invoke(world.alice, world.channel, "table", subcommand="end")
        ).response()
        assert "is closed" in closed.content
        not_host = await (
            await fake.invoke(world.carol, world.channel, "night", subcommand="end")
        ).response()
        assert not_host.ephemeral and "host" in not_host.content

        async with bot.store.read() as tx:
            hands = [h for h in await tx.hands(tid) if h.status == "finished"]
            nets: dict[int, int] = {}
            for hand in hands:
                for r in await tx.hand_results(hand.id):
                    nets[r.user_id] = nets.get(r.user_id, 0) + r.net
        assert len(hands) == 2 and sum(nets.values()) == 0 and any(nets.values())
        before_end = await wallets(bot, world)

        rec = await fake.invoke(world.alice, world.channel, "night", subcommand="end")
        post = await rec.response()
        assert not post.ephemeral
        assert "Night #1 is over" in post.content and "2 hands" in post.content
        (embed,) = post.embeds
        fields = {f["name"]: f["value"] for f in embed["fields"]}
        for user in players:
            assert f"<@{user.id}>" in embed["description"]
        assert "won by" in fields["Biggest pot"]
        plan = fields["Settle-up: who pays whom"]
        assert "pays" in plan and "€" in plan
        assert "Settled in the ledger" in fields["Notes"]
        assert [a.filename for a in post.attachments] == ["night.png"]
        assert embed["image"]["url"] == "attachment://night.png"
        assert len(post.content) <= 2000

        async with bot.store.read() as tx:
            night = await tx.last_night(world.guild.id)
            assert night is not None and not night.open
            results = await tx.night_results(night)
            rows = await tx.entries(guild_id=world.guild.id, kind="settle")
        assert {p.user_id: p.net for p in results.players if p.net} == {
            u: n for u, n in nets.items() if n
        }
        assert results.settlement is not None
        transfers = list(results.settlement.transfers)
        assert len(rows) == len(transfers) >= 1
        for t in transfers:
            assert isinstance(t, Transfer)
            assert f"<@{t.payer}> pays <@{t.payee}> **{t.chips:,}** chips" in plan
        after = await wallets(bot, world)
        # each payee's chips went back to its payer: every wallet is where the night began
        by_name = {u.id: u.name for u in players}
        assert after == {name: before_end[name] - nets.get(uid, 0) for uid, name in by_name.items()}
        assert set(after.values()) == {1000}
        assert (await bot.store.audit(world.guild.id)).ok

        twice = await (
            await fake.invoke(world.alice, world.channel, "night", subcommand="end")
        ).response()
        assert twice.ephemeral and "No night is on" in twice.content
        record = await (
            await fake.invoke(
                world.alice, world.channel, "settle", {"period": "night", "record": True}
            )
        ).response()
        assert record.ephemeral and "already settled" in record.content
        season = await (
            await fake.invoke(
                world.alice, world.channel, "settle", {"period": "season", "record": True}
            )
        ).response()
        assert season.ephemeral and "already settled" in season.content
        shown = await (
            await fake.invoke(world.bob, world.channel, "settle", {"period": "night"})
        ).response()
        assert not shown.ephemeral and "Night #1" in shown.content
        assert shown.embeds[0]["fields"][1]["value"] == plan
        async with bot.store.read() as tx:
            assert len(await tx.entries(guild_id=world.guild.id, kind="settle")) == len(rows)
        assert (await bot.store.audit(world.guild.id)).ok
    # the operator's audit, as run from a shell, on the database the night left behind
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        "db",
        "audit",
        "--db",
        str(world.db_path),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await proc.communicate()
    assert proc.returncode == 0, (out, err)
