"""The players' league commands through the fake Discord and the real bot on a real
store: /rebuy, /leaderboard pages (and their buttons after a restart), /stats with its
chart, /history with a hand replay that shows no other player's hidden cards."""

from __future__ import annotations

from bot.app import HomeGameBot
from bot.engine.cards import parse_card
from bot.store import Store
from bot.testing import running_client
from tests.discord.tablebot import table_bot
from tests.league.conftest import TABLE_FREE, World, ledger_count

PNG = b"\x89PNG\r\n\x1a\n"


async def test_rebuy_is_a_ledger_entry_that_counts_against_net(
    world: World, bot: HomeGameBot, store: Store
) -> None:
    async with store.transaction() as tx:
        await tx.take(world.guild.id, world.bob.id, 600, actor_id=world.alice.id, reason="lost")
    reply = await (await world.fake.invoke(world.bob, world.channel, "rebuy")).response()
    assert reply.ephemeral and "rebuys **600**" in reply.content
    assert "balance 1,000" in reply.content
    count = await ledger_count(store)
    async with store.transaction() as tx:
        await tx.take(world.guild.id, world.bob.id, 100, actor_id=world.alice.id, reason="lost")
    count += 1
    again = await (await world.fake.invoke(world.bob, world.channel, "rebuy")).response()
    assert again.ephemeral and "next rebuy is possible in" in again.content
    assert await ledger_count(store) == count
    async with store.read() as tx:
        rebuy = (await tx.entries(guild_id=world.guild.id, kind="rebuy"))[0]
    assert rebuy.actor_id == world.bob.id and rebuy.amount == 600
    board = await (await world.fake.invoke(world.bob, world.channel, "leaderboard")).response()
    # takes and rebuys are both "received": no chip was won or lost at a table
    assert f"<@{world.bob.id}>: net +0 · balance 900" in board.content


async def test_leaderboard_25_players_three_pages_next_prev_and_after_a_restart(
    world: World, store: Store
) -> None:
    async with store.transaction() as tx:
        for i in range(1, 26):
            await tx.grant(world.guild.id, 10_000 + i, i * 10, actor_id=world.alice.id, reason="r")
    client = HomeGameBot(
        settings=world.settings(), store=store, service=None, extensions=TABLE_FREE
    )
    async with running_client(world.fake, client):
        rec = await world.fake.invoke(world.dave, world.channel, "leaderboard", {"by": "balance"})
        first = await rec.response()
        lines = first.content.splitlines()
        assert "page 1/3" in lines[0] and len(lines) == 11
        assert lines[1].startswith("1. <@10025>: net +0 · balance 1,250")
        message = first.message
        assert message is not None
        assert message.button("◀ Prev").get("disabled") and not message.button("Next ▶").get(
            "disabled"
        )
        click = await world.fake.click(
            world.bob, message, str(message.button("Next ▶")["custom_id"])
        )
        second = await click.response()
        assert second.updated_message and "page 2/3" in second.content
        assert second.content.splitlines()[1].startswith("11. <@10015>")
    # a new process: the buttons of the old message still work
    client = HomeGameBot(
        settings=world.settings(), store=store, service=None, extensions=TABLE_FREE
    )
    async with running_client(world.fake, client):
        click = await world.fake.click(
            world.bob, message, str(message.button("Next ▶")["custom_id"])
        )
        third = await click.response()
        lines = third.content.splitlines()
        assert "page 3/3" in lines[0] and len(lines) == 6
        assert lines[-1].startswith("25. <@10001>: net +0 · balance 1,010")
        assert message.button("Next ▶").get("disabled")
        click = await world.fake.click(
            world.bob, message, str(message.button("◀ Prev")["custom_id"])
        )
        assert "page 2/3" in (await click.response()).content


async def _play_razz_hand_bob_folds(running: HomeGameBot, world: World) -> tuple[int, int]:
    """Alice and Bob play one Razz hand at a league table; Bob folds to Alice's bet.
    Returns (table id, hand id)."""
    service = running.service
    assert service is not None
    view = await service.open_table(
        guild_id=world.guild.id,
        channel_id=world.channel.id,
        host_id=world.alice.id,
        host_name="alice",
        game="razz",
    )
    tid = view.table_id
    await service.join(tid, world.bob.id, "bob")
    await service.start(tid, world.alice.id)
    async with running.store.read() as tx:
        hand = await tx.running_hand(tid)
    assert hand is not None
    for _ in range(40):
        view = await service.view(tid)
        if not view.to_act_user_ids:
            break
        uid = next(iter(view.to_act_user_ids))
        pv = await service.private_view(tid, uid)
        allowed = [o.kind for o in pv.options if o.allowed]
        # Alice always puts Bob to a decision; Bob folds to the first bet he faces
        order = ("fold",) if uid == world.bob.id else ("complete", "bet", "raise")
        kind = next(k for k in (*order, "bring_in", "check", "call", "fold") if k in allowed)
        await service.act(tid, uid, kind)
    async with running.store.read() as tx:
        assert (await tx.hand(hand.id)).status == "finished"
    return tid, hand.id


async def test_history_replay_shows_own_cards_but_no_other_players_hidden_cards(
    world: World,
) -> None:
    async with table_bot(world, autostart_delay=60) as running:
        _, hand_id = await _play_razz_hand_bob_folds(running, world)
        async with running.store.read() as tx:
            events = await tx.hand_events(hand_id)
            seats = {r.user_id: r.seat_no for r in await tx.hand_results(hand_id)}
        alice_down = {
            c
            for e in events
            if e.kind == "deal_down" and e.visible_to == seats[world.alice.id]
            for c in e.data["cards"]
        }
        bob_down = {
            c
            for e in events
            if e.kind == "deal_down" and e.visible_to == seats[world.bob.id]
            for c in e.data["cards"]
        }
        assert len(alice_down) == 2 and len(bob_down) == 2
        listing = await (await world.fake.invoke(world.bob, world.channel, "history")).response()
        assert listing.ephemeral and "Razz, table #" in listing.content
        assert "ante" in listing.content  # the chip movements stay listed too
        message = listing.message
        assert message is not None
        menu = message.selects()[0]
        rec = await world.fake.select(world.bob, message, str(menu["custom_id"]), [str(hand_id)])
        opened = await rec.response()
        assert opened.ephemeral
        replay = str(opened.embeds[0]["description"])
        assert "Your down cards: " in replay and f"<@{world.bob.id}> folds" in replay
        for code in bob_down:
            assert parse_card(code).pretty in replay
        for code in alice_down:
            assert parse_card(code).pretty not in replay
        phh, stars = opened.attachments
        assert phh.filename == f"hand-{hand_id}.phh"
        # beside it, PokerStars' text: Bob's own down cards dealt to him, none of Alice's
        assert stars.filename == f"hand-{hand_id}-pokerstars.txt"
        stars_text = stars.data.decode()
        assert stars_text.startswith("PokerStars Hand #") and "Razz Limit" in stars_text
        assert all(parse_card(c).rank_char + c[-1] in stars_text for c in bob_down)
        assert not any(c in stars_text for c in alice_down)
        text = phh.data.decode()
        assert "variant = 'FR'" in text and "????" in text
        actions = text.split("actions = ")[1].split("\n")[0]
        assert not any(code in actions for code in alice_down)
        assert all(code in actions for code in bob_down)
        # Alice opening Bob's history sees her own cards and not Bob's
        rec = await world.fake.invoke(world.alice, world.channel, "history", {"user": world.bob})
        other = await rec.response()
        assert other.message is not None
        rec = await world.fake.select(
            world.alice, other.message, str(other.message.selects()[0]["custom_id"]), [str(hand_id)]
        )
        alices = await rec.response()
        actions = alices.attachments[0].data.decode().split("actions = ")[1].split("\n")[0]
        assert all(c in actions for c in alice_down) and not any(c in actions for c in bob_down)

        stats = await (await world.fake.invoke(world.bob, world.channel, "stats")).response()
        assert stats.ephemeral and "Razz: 1 hand · won 0" in stats.content
        card, chart = stats.attachments
        assert card.filename == "stats.png" and card.data.startswith(PNG)
        assert chart.filename == "balance.png" and chart.data.startswith(PNG)
        assert chart.content_type == "image/png"
        razz = await (
            await world.fake.invoke(world.dave, world.channel, "leaderboard", {"game": "razz"})
        ).response()
        assert f"1. <@{world.alice.id}>: net +" in razz.content and "1 hand ·" in razz.content
        hands = await (
            await world.fake.invoke(world.dave, world.channel, "leaderboard", {"by": "hands"})
        ).response()
        assert "by hands played" in hands.content


async def test_stats_before_playing_says_so(world: World, bot: HomeGameBot) -> None:
    reply = await (await world.fake.invoke(world.bob, world.channel, "stats")).response()
    assert reply.ephemeral and "has not played this season" in reply.content
    async with bot.store.transaction() as tx:
        await tx.wallet(world.guild.id, world.bob.id)
    reply = await (await world.fake.invoke(world.bob, world.channel, "stats")).response()
    assert "No hands played yet." in reply.content and reply.attachments[0].data.startswith(PNG)
