"""The privacy audit with two tables at once (issue 19, item 16): each table has its own
deck, so a card on one table's board is no secret of the other table's players. The audit
read every message against every table and called that a leak; it now reads each message
against its own table (its channel, or the table its buttons and title name), and still
finds a real one."""

from __future__ import annotations

from bot.app import HomeGameBot
from bot.engine.cards import Card, parse_card
from bot.testing import FakeMessage
from tests.discord.conftest import World
from tests.discord.privacy import PrivacyRecorder, privacy_leaks
from tests.discord.tablebot import eventually, footer_state, table_bot
from tests.discord.test_flop_games import open_table
from tests.discord.test_mixed_tables import balances_match_the_ledger, service


async def play_both(world: World, bot: HomeGameBot, tables: list[tuple[int, FakeMessage]]) -> None:
    """Hand 1 at each table, one click at each in turn (Check, else Call), to the end."""
    fake = world.fake
    for _ in range(80):
        moved = False
        for tid, message in tables:
            view = await service(bot).view(tid)
            if view.hand_number != 1 or not view.to_act_user_ids:
                continue
            (uid,) = view.to_act_user_ids
            await eventually(lambda m=message, v=view: footer_state(m) == v.version)
            labels = [str(b["label"]) for b in message.buttons() if not b.get("disabled")]
            label = next(x for x in ("Check", "Call") if x in labels)
            rec = await fake.click_label(fake.users[uid], message, label)
            assert (await rec.response()).updated_message
            moved = True
        if not moved:
            return
    raise AssertionError("the hands do not end")


async def test_a_card_on_one_tables_board_held_at_the_other_is_no_leak(world: World) -> None:
    fake = world.fake
    second = fake.add_channel(world.guild, "poker-2")
    recorder = PrivacyRecorder(clock=fake.clock)
    players = [world.alice, world.bob, world.carol, world.dave]
    async with table_bot(world, autostart_delay=30, relay=recorder, seed=12) as bot:
        first = await open_table(world, "holdem", {}, [world.alice, world.bob])
        reply = await (await fake.invoke(world.carol, second, "holdem", {})).response()
        other = reply.message
        assert other is not None and not reply.ephemeral
        assert (
            await (await fake.click_label(world.dave, other, "Join")).response()
        ).updated_message
        a = await service(bot).table_in_channel(world.channel.id)
        b = await service(bot).table_in_channel(second.id)
        assert a is not None and b is not None
        await (await fake.click_label(world.alice, first, "Start")).response()
        await (await fake.click_label(world.carol, other, "Start")).response()
        # a real leak, for the audit to find: the bot (as a defect would) posts one of
        # Dave's hole cards in his table's channel while the hand is on
        (secret, *_) = (await service(bot).private_view(b.table_id, world.dave.id)).cards
        await bot.get_partial_messageable(second.id).send(f"psst: {secret}")
        tables = [(a.table_id, first), (b.table_id, other)]
        await play_both(world, bot, tables)
        boards: dict[int, set[Card]] = {}
        async with bot.store.read() as tx:
            for tid, _ in tables:
                (hand,) = await tx.hands(tid)
                assert hand.status == "finished"
                boards[tid] = {parse_card(c) for c in hand.result["board"]}
        for tid, _ in tables:
            await balances_match_the_ledger(world, bot, tid)
    # the case the audit got wrong: a card on one table's board that a player at the other
    # table held face down (the seed is chosen so that there is one)
    crossed = {
        card
        for tid, across in ((a.table_id, b.table_id), (b.table_id, a.table_id))
        for (table, _, _), held in recorder.held.items()
        if table == across
        for card in held & boards[tid]
    }
    assert crossed, "no card of one board was held at the other table: choose another seed"
    leaks, checked = privacy_leaks(fake, recorder, [*players, world.outsider])
    assert checked > 0
    # only the planted one: seen in the channel by everyone but Dave, Dave's card
    assert leaks, "the audit missed the planted leak"
    assert {(leak.owner, leak.card, leak.kind) for leak in leaks} == {
        (world.dave.id, str(secret), "channel")
    }, leaks
    assert {leak.viewer for leak in leaks} == {"alice", "bob", "carol", "eve"}
