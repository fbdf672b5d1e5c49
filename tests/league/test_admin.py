"""League administration through the fake Discord and the real bot on a real store:
/league setup|show|season|void, /chips grant|take, /audit, /ledger export, and who may."""

from __future__ import annotations

import csv
import io

import pytest

from bot.app import HomeGameBot
from bot.store import Store
from bot.testing import FakeDiscordError
from tests.discord.tablebot import table_bot
from tests.league.conftest import World, ledger_count, unlock


async def test_admin_commands_are_hidden_from_members_without_manage_server(
    world: World, bot: HomeGameBot, store: Store
) -> None:
    for name in ("league", "chips", "ledger", "audit"):
        assert str(world.fake.command(name)["default_member_permissions"]) == str(1 << 5)
    with pytest.raises(FakeDiscordError, match="hidden"):
        await world.fake.invoke(
            world.bob,
            world.channel,
            "chips",
            {"user": world.bob, "amount": 5, "reason": "x"},
            subcommand="grant",
        )


async def test_member_without_rights_is_refused_at_run_time_and_nothing_changes(
    world: World, bot: HomeGameBot, store: Store
) -> None:
    async with store.transaction() as tx:
        await tx.wallet(world.guild.id, world.bob.id)
    before = await ledger_count(store)
    for name in ("chips", "league", "ledger", "audit"):
        unlock(world, name)
    attempts = [
        ("chips", {"user": world.bob, "amount": 500, "reason": "mine"}, "grant"),
        ("chips", {"user": world.bob, "amount": 500, "reason": "mine"}, "take"),
        ("league", {"starting_chips": 5}, "setup"),
        ("league", {}, "season end"),
        ("ledger", {}, "export"),
        ("audit", {}, None),
    ]
    for name, options, sub in attempts:
        reply = await (
            await world.fake.invoke(world.bob, world.channel, name, options, subcommand=sub)
        ).response()
        assert reply.ephemeral and "Manage Server" in reply.content, (name, sub)
        assert not reply.attachments
    assert await ledger_count(store) == before
    async with store.read() as tx:
        league = await tx.league(world.guild.id)
        assert league.starting_chips == 1000
        assert (await tx.current_season(world.guild.id)).number == 1


async def test_league_admin_role_may_administer_without_manage_server(
    world: World, bot: HomeGameBot, store: Store
) -> None:
    role = world.fake.add_role(world.guild, "league-admins", 0)
    reply = await (
        await world.fake.invoke(
            world.alice, world.channel, "league", {"admin_role": role}, subcommand="setup"
        )
    ).response()
    assert f"<@&{role.id}>" in reply.content
    world.fake.set_member_roles(world.guild, world.carol, [role])
    unlock(world, "chips")
    rec = await world.fake.invoke(
        world.carol,
        world.channel,
        "chips",
        {"user": world.dave, "amount": 300, "reason": "won the quiz"},
        subcommand="grant",
    )
    assert "granted" in (await rec.response()).content
    async with store.read() as tx:
        grant = (await tx.entries(guild_id=world.guild.id, kind="grant"))[-1]
    assert grant.amount == 300 and grant.actor_id == world.carol.id
    assert grant.reason == "won the quiz"


async def test_league_setup_changes_settings_and_show_lists_them(
    world: World, bot: HomeGameBot, store: Store
) -> None:
    other = world.fake.add_channel(world.guild, "poker-2")
    options = {
        "starting_chips": 500,
        "rebuy_amount": 250,
        "rebuy_cooldown": 30,
        "zoot_ante": 5,
        "razz_ante": 1,
        "razz_bring_in": 2,
        "razz_small_bet": 5,
        "razz_big_bet": 10,
        "add_channel": other,
        "images": False,
    }
    rec = await world.fake.invoke(world.alice, world.channel, "league", options, subcommand="setup")
    assert (await rec.response()).ephemeral
    async with store.read() as tx:
        league = await tx.league(world.guild.id)
    assert (league.starting_chips, league.rebuy_amount) == (500, 250)
    assert league.rebuy_cooldown_seconds == 30 * 60
    assert league.allowed_channel_ids == (other.id,) and not league.images
    assert league.game_settings["razz"]["stakes"] == {
        "ante": 1,
        "bring_in": 2,
        "small_bet": 5,
        "big_bet": 10,
    }
    assert league.game_settings["zoot"]["stakes"] == {"ante": 5}
    shown = await (
        await world.fake.invoke(world.alice, world.channel, "league", subcommand="show")
    ).response()
    assert "Starting chips: **500**" in shown.content and "once every 30 min" in shown.content
    assert f"<#{other.id}>" in shown.content and "Card images: off" in shown.content
    assert "Razz stakes: ante 1, big_bet 10, bring_in 2, small_bet 5" in shown.content
    rec = await world.fake.invoke(
        world.alice, world.channel, "league", {"remove_channel": other}, subcommand="setup"
    )
    await rec.response()
    async with store.read() as tx:
        assert (await tx.league(world.guild.id)).allowed_channel_ids == ()


async def test_league_setup_bad_stake_names_the_option_and_changes_nothing(
    world: World, bot: HomeGameBot, store: Store
) -> None:
    async with store.transaction() as tx:
        before = await tx.league(world.guild.id)
    rec = await world.fake.invoke(
        world.alice,
        world.channel,
        "league",
        {"starting_chips": 700, "razz_bring_in": 50, "razz_small_bet": 20},
        subcommand="setup",
    )
    reply = await rec.response()
    assert reply.ephemeral and "(`razz_bring_in`)" in reply.content, reply.content
    assert reply.content[0].isupper() and reply.content.endswith("Nothing changed.")
    async with store.read() as tx:
        assert await tx.league(world.guild.id) == before


async def test_chips_grant_and_take_write_ledger_entries_naming_the_admin(
    world: World, bot: HomeGameBot, store: Store
) -> None:
    rec = await world.fake.invoke(
        world.alice,
        world.channel,
        "chips",
        {"user": world.bob, "amount": 250, "reason": "tournament prize"},
        subcommand="grant",
    )
    assert "balance 1,250" in (await rec.response()).content
    rec = await world.fake.invoke(
        world.alice,
        world.channel,
        "chips",
        {"user": world.bob, "amount": 2000, "reason": "too many"},
        subcommand="take",
    )
    refused = await rec.response()
    assert refused.ephemeral and "1250 chips; 2000 needed" in refused.content
    rec = await world.fake.invoke(
        world.alice,
        world.channel,
        "chips",
        {"user": world.bob, "amount": 50, "reason": "double payout fixed"},
        subcommand="take",
    )
    assert "balance 1,200" in (await rec.response()).content
    async with store.read() as tx:
        rows = await tx.entries(guild_id=world.guild.id)
    assert [(e.kind, e.amount, e.actor_id, e.reason) for e in rows] == [
        ("start", 1000, None, "starting chips"),
        ("grant", 250, world.alice.id, "tournament prize"),
        ("take", 50, world.alice.id, "double payout fixed"),
    ]


async def test_rule_5_2_audit_shows_its_figures(
    world: World, bot: HomeGameBot, store: Store
) -> None:
    async with store.transaction() as tx:
        await tx.wallet(world.guild.id, world.bob.id)
        await tx.grant(world.guild.id, world.carol.id, 40, actor_id=world.alice.id, reason="r")
    reply = await (await world.fake.invoke(world.alice, world.channel, "audit")).response()
    assert reply.ephemeral and "✅" in reply.content
    assert "issued                   2,040" in reply.content
    assert "player wallets           2,040  (2 wallets)" in reply.content


async def test_ledger_export_csv_rows_equal_the_ledger(
    world: World, bot: HomeGameBot, store: Store
) -> None:
    async with store.transaction() as tx:
        await tx.grant(world.guild.id, world.bob.id, 300, actor_id=world.alice.id, reason="a, b")
        await tx.take(world.guild.id, world.carol.id, 70, actor_id=world.alice.id, reason='"q"')
        await tx.rebuy(world.guild.id, world.carol.id)  # 930: topped up to 1,000
    reply = await (
        await world.fake.invoke(world.alice, world.channel, "ledger", subcommand="export")
    ).response()
    assert reply.ephemeral and len(reply.attachments) == 1
    attachment = reply.attachments[0]
    assert attachment.filename == "ledger-season-1.csv"
    rows = list(csv.DictReader(io.StringIO(attachment.data.decode())))
    async with store.read() as tx:
        ledger = await tx._all("SELECT * FROM ledger ORDER BY id")
        accounts = {r["id"]: r for r in await tx._all("SELECT * FROM accounts")}

    def name(account_id: int) -> str:
        a = accounts[account_id]
        return {"house": "house", "player": f"user:{a['user_id']}"}.get(
            a["kind"], f"pot:{a['table_id']}"
        )

    assert len(rows) == len(ledger) == 5
    for row, entry in zip(rows, ledger, strict=True):
        assert row["id"] == str(entry["id"]) and row["amount"] == str(entry["amount"])
        assert row["kind"] == entry["kind"] and row["reason"] == (entry["reason"] or "")
        assert row["from"] == name(entry["from_account"]) and row["to"] == name(entry["to_account"])
        assert row["actor"] == ("" if entry["actor_id"] is None else str(entry["actor_id"]))
        assert row["time"].endswith("Z") and row["time"][:4].isdigit()
    reply = await (
        await world.fake.invoke(
            world.alice, world.channel, "ledger", {"user": world.bob}, subcommand="export"
        )
    ).response()
    bob_rows = list(csv.DictReader(io.StringIO(reply.attachments[0].data.decode())))
    assert [r["kind"] for r in bob_rows] == ["start", "grant"]
    assert all(f"user:{world.bob.id}" in (r["from"], r["to"]) for r in bob_rows)


async def test_season_end_archives_posts_standings_and_restarts_from_starting_chips(
    world: World, bot: HomeGameBot, store: Store
) -> None:
    async with store.transaction() as tx:
        await tx.grant(world.guild.id, world.bob.id, 500, actor_id=world.alice.id, reason="r")
        await tx.wallet(world.guild.id, world.carol.id)
    rec = await world.fake.invoke(world.alice, world.channel, "league", subcommand="season end")
    posted = await rec.response()
    assert not posted.ephemeral  # the final standings are posted in the channel
    lines = posted.content.splitlines()
    assert lines[0] == "**Season 1 is over.** Final standings:"
    assert (
        lines[1] == f"1. <@{world.bob.id}>: 1,500" and lines[2] == f"2. <@{world.carol.id}>: 1,000"
    )
    assert "Season 2 starts now" in posted.content
    async with store.transaction() as tx:
        old = await tx.season(world.guild.id, 1)
        assert old.ended_at is not None and old.standings is not None
        assert [(s.user_id, s.balance) for s in old.standings] == [
            (world.bob.id, 1500),
            (world.carol.id, 1000),
        ]
        assert (await tx.current_season(world.guild.id)).number == 2
        assert await tx.find_wallet(world.guild.id, world.bob.id) is None
        assert (await tx.wallet(world.guild.id, world.bob.id)).balance == 1000
    assert (await store.audit(world.guild.id)).ok
    board = await (
        await world.fake.invoke(
            world.dave, world.channel, "leaderboard", {"season": 1, "by": "balance"}
        )
    ).response()
    assert "season 1 (ended)" in board.content
    assert f"1. <@{world.bob.id}>: net +0 · balance 1,500" in board.content
    now = await (await world.fake.invoke(world.dave, world.channel, "leaderboard")).response()
    assert "season 2" in now.content and "balance 1,000" in now.content
    assert "1,500" not in now.content


async def test_season_start_refuses_while_a_season_runs(
    world: World, bot: HomeGameBot, store: Store
) -> None:
    first = await (
        await world.fake.invoke(world.alice, world.channel, "league", subcommand="season start")
    ).response()
    assert "Season 1 starts" in first.content
    again = await (
        await world.fake.invoke(world.alice, world.channel, "league", subcommand="season start")
    ).response()
    assert again.ephemeral and "already running" in again.content


async def test_league_void_returns_every_chip_of_the_running_hand(world: World) -> None:
    async with table_bot(world, autostart_delay=60) as running:
        service = running.service
        assert service is not None
        view = await service.open_table(
            guild_id=world.guild.id,
            channel_id=world.channel.id,
            host_id=world.alice.id,
            host_name="alice",
            game="razz",
        )
        await service.join(view.table_id, world.bob.id, "bob")
        await service.join(view.table_id, world.carol.id, "carol")
        store = running.store
        await service.start(view.table_id, world.alice.id)
        async with store.read() as tx:
            hand = await tx.running_hand(view.table_id)
            assert hand is not None
            pot = (await tx.table(view.table_id)).pot_account
            assert await tx.balance(pot) > 0
        before = await ledger_count(store)
        unlock(world, "league")
        refused = await (
            await world.fake.invoke(world.bob, world.channel, "league", subcommand="void")
        ).response()
        assert refused.ephemeral and "Manage Server" in refused.content
        assert await ledger_count(store) == before
        reply = await (
            await world.fake.invoke(world.alice, world.channel, "league", subcommand="void")
        ).response()
        assert "voided hand 1" in reply.content
        async with store.read() as tx:
            assert (await tx.hand(hand.id)).status == "voided"
            assert await tx.balance(pot) == 0
            for user in (world.alice, world.bob, world.carol):
                wallet = await tx.find_wallet(world.guild.id, user.id)
                assert wallet is not None and wallet.balance == 1000
            voids = await tx.entries(hand_id=hand.id, kind="void")
            paid_in = await tx.entries(hand_id=hand.id)
        assert voids and all(e.actor_id == world.alice.id for e in voids)
        assert sum(e.amount for e in voids) == sum(
            e.amount for e in paid_in if e.kind != "void" and e.to_account == pot
        ) - sum(e.amount for e in paid_in if e.kind != "void" and e.from_account == pot)
        audit = await (await world.fake.invoke(world.alice, world.channel, "audit")).response()
        assert "✅" in audit.content and "table pots                   0" in audit.content
