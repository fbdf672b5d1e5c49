"""Tables, seats, hands, the hand log and RULES §1.10 (closing returns each contribution)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.engine.events import ChipMove, private, public
from bot.store import (
    HandResult,
    InvalidAmount,
    SeatTaken,
    StaleVersion,
    Store,
    StoreError,
    TableExists,
)
from tests.store.conftest import ALICE, BOB, CAROL, GUILD

CHANNEL = 555


async def test_create_table_opens_league_and_one_live_table_per_channel(store: Store) -> None:
    async with store.transaction() as tx:
        table = await tx.create_table(GUILD, CHANNEL, "zoot", host_id=ALICE, rules={"ante": 2})
        with pytest.raises(TableExists):
            await tx.create_table(GUILD, CHANNEL, "razz")
        with pytest.raises(StoreError, match="unknown game"):
            await tx.create_table(GUILD, CHANNEL + 1, "pinochle")
        assert await tx.find_league(GUILD) is not None
    assert (table.status, table.version, table.rules, table.host_id) == (
        "open",
        0,
        {"ante": 2},
        ALICE,
    )


async def test_save_table_optimistic_version_check(store: Store) -> None:
    async with store.transaction() as tx:
        table = await tx.create_table(GUILD, CHANNEL, "razz")
        saved = await tx.save_table(
            table.id, expected_version=0, snapshot={"street": 3}, deadline=1234, status="running"
        )
        with pytest.raises(StaleVersion) as err:
            await tx.save_table(table.id, expected_version=0, snapshot={"street": 4}, deadline=None)
        assert (err.value.expected, err.value.actual) == (0, 1)
        now = await tx.table(table.id)
    assert (saved.version, saved.snapshot, saved.deadline, saved.status) == (
        1,
        {"street": 3},
        1234,
        "running",
    )
    assert now == saved


async def test_restart_restores_live_tables_seats_hand_log_and_messages(db_path: Path) -> None:
    store = await Store.open(db_path)
    async with store.transaction() as tx:
        table = await tx.create_table(GUILD, CHANNEL, "zoot")
        closed = await tx.create_table(GUILD, CHANNEL + 1, "razz")
        await tx.close_table(closed.id)
        await tx.sit(table.id, ALICE)
        await tx.sit(table.id, BOB, seat_no=3)
        await tx.update_seat(
            table.id, BOB, away=True, dm_channel_id=9, dm_message_id=99, dm_ok=False
        )
        hand = await tx.start_hand(table.id)
        events = [
            public("ante", {"amount": 2}, (ChipMove(0, 2, "ante"),)),
            private(0, "deal", {"cards": "AsKs2d3c4h"}),
        ]
        assert await tx.add_events(hand.id, events) == 2
        await tx.set_message(table.id, "table", channel_id=CHANNEL, message_id=42)
        await tx.set_message(table.id, "table", channel_id=CHANNEL, message_id=43)
        await tx.save_table(table.id, expected_version=0, snapshot={"s": 1}, deadline=50)
    await store.close()

    store = await Store.open(db_path)
    async with store.read() as tx:
        (live,) = await tx.live_tables()
        seats = await tx.seats(live.id)
        running = await tx.running_hand(live.id)
        assert running is not None
        log = await tx.hand_events(running.id)
        messages = await tx.messages(live.id)
    await store.close()
    assert live.id == table.id and live.deadline == 50 and live.snapshot == {"s": 1}
    assert [(s.seat_no, s.user_id, s.away, s.dm_ok) for s in seats] == [
        (0, ALICE, False, None),
        (3, BOB, True, False),
    ]
    assert log == events
    assert [e for e in log if e.visible_for(1)] == events[:1]  # seat 1 never sees seat 0's cards
    assert messages["table"].message_id == 43


async def test_seats_refuse_taken_seat_and_double_sitting(store: Store) -> None:
    async with store.transaction() as tx:
        table = await tx.create_table(GUILD, CHANNEL, "zoot")
        await tx.sit(table.id, ALICE, seat_no=0)
        with pytest.raises(SeatTaken):
            await tx.sit(table.id, BOB, seat_no=0)
        with pytest.raises(SeatTaken):
            await tx.sit(table.id, ALICE)
        assert (await tx.sit(table.id, BOB)).seat_no == 1
        await tx.leave(table.id, ALICE)
        assert (await tx.sit(table.id, CAROL)).seat_no == 0


async def test_one_running_hand_per_table_and_results(store: Store) -> None:
    async with store.transaction() as tx:
        table = await tx.create_table(GUILD, CHANNEL, "razz")
        hand = await tx.start_hand(table.id)
        with pytest.raises(StoreError, match="still running"):
            await tx.start_hand(table.id)
        results = [
            HandResult(user_id=ALICE, seat_no=0, paid=10, won=30, won_pot=True),
            HandResult(user_id=BOB, seat_no=1, paid=20, won=0, detail={"hand": "8-low"}),
        ]
        done = await tx.finish_hand(hand.id, results=results, history="...phh...", result={"w": 0})
        with pytest.raises(StoreError, match="closed"):
            await tx.add_events(hand.id, [public("late", {})])
        second = await tx.start_hand(table.id)
        stored = await tx.hand_results(hand.id)
    assert done.status == "finished" and done.history == "...phh..."
    assert second.number == 2
    assert stored == results
    assert [r.net for r in stored] == [20, -20]


async def test_pot_contributions_after_antes_award_and_match(store: Store) -> None:
    """Zoot: three ante 5, ALICE lays down and loses: BOB takes the 15, ALICE matches it
    (RULES §1.7), then everyone antes again. The pot standing is ALICE's 15 + 3 antes."""
    async with store.transaction() as tx:
        table = await tx.create_table(GUILD, CHANNEL, "zoot")
        hand = await tx.start_hand(table.id)
        for user in (ALICE, BOB, CAROL):
            await tx.move_chips(table.id, user, 5, "ante", hand_id=hand.id)
        await tx.move_chips(table.id, BOB, -15, "award", hand_id=hand.id)
        await tx.move_chips(table.id, ALICE, 15, "match", hand_id=hand.id)
        await tx.finish_hand(hand.id, results=[])
        hand2 = await tx.start_hand(table.id)
        for user in (ALICE, BOB, CAROL):
            await tx.move_chips(table.id, user, 5, "ante", hand_id=hand2.id)
        contributions = await tx.pot_contributions(table.id)
        pot = await tx.balance(table.pot_account)
    assert pot == 30
    assert [(c.user_id, c.amount) for c in contributions] == [(ALICE, 20), (BOB, 5), (CAROL, 5)]


async def test_rule_1_10_closing_table_returns_exactly_each_contribution(store: Store) -> None:
    async with store.transaction() as tx:
        table = await tx.create_table(GUILD, CHANNEL, "zoot")
        for user in (ALICE, BOB):
            await tx.move_chips(table.id, user, 5, "ante")
        await tx.move_chips(table.id, ALICE, -10, "award")
        await tx.move_chips(table.id, BOB, 10, "match")
        await tx.move_chips(table.id, ALICE, 5, "ante")
        await tx.start_hand(table.id)
        refunds = await tx.close_table(table.id, actor_id=ALICE)
        closed = await tx.table(table.id)
        wallets = {u: await tx.wallet(GUILD, u) for u in (ALICE, BOB)}
        assert await tx.balance(table.pot_account) == 0
        assert (await tx.hands(table.id))[0].status == "voided"
    # the pot standing: BOB's 10 match, then ALICE's 5 ante; each gets exactly that back
    assert [(e.from_account, e.to_account, e.amount, e.kind) for e in refunds] == [
        (closed.pot_account, wallets[BOB].id, 10, "refund"),
        (closed.pot_account, wallets[ALICE].id, 5, "refund"),
    ]
    assert {u: w.balance for u, w in wallets.items()} == {ALICE: 1005, BOB: 995}
    assert closed.status == "closed" and closed.deadline is None
    assert (await store.audit()).ok


async def test_void_hand_gives_back_what_the_hand_moved(store: Store) -> None:
    async with store.transaction() as tx:
        table = await tx.create_table(GUILD, CHANNEL, "razz")
        earlier = await tx.start_hand(table.id)
        await tx.move_chips(table.id, CAROL, 7, "ante", hand_id=earlier.id)
        await tx.finish_hand(earlier.id, results=[])
        hand = await tx.start_hand(table.id)
        await tx.move_chips(table.id, ALICE, 20, "bet", hand_id=hand.id)
        await tx.move_chips(table.id, BOB, 20, "bet", hand_id=hand.id)
        await tx.move_chips(table.id, ALICE, -5, "refund", hand_id=hand.id)
        voids = await tx.void_hand(hand.id, reason="dealer error", actor_id=CAROL)
        wallets = [(await tx.wallet(GUILD, u)).balance for u in (ALICE, BOB, CAROL)]
        pot = await tx.balance(table.pot_account)
    assert sorted(e.amount for e in voids) == [15, 20]
    assert wallets == [1000, 1000, 993]
    assert pot == 7  # the earlier hand's chips are not this hand's to give back
    assert (await store.audit()).ok


async def test_move_chips_direction_must_match_kind(store: Store) -> None:
    async with store.transaction() as tx:
        table = await tx.create_table(GUILD, CHANNEL, "razz")
        with pytest.raises(InvalidAmount, match="cannot go out of"):
            await tx.move_chips(table.id, ALICE, -5, "bet")
        with pytest.raises(InvalidAmount, match="cannot go into"):
            await tx.move_chips(table.id, ALICE, 5, "award")
        practice = await tx.create_table(GUILD, CHANNEL + 1, "razz", practice=True)
        with pytest.raises(StoreError, match="practice"):
            await tx.move_chips(practice.id, ALICE, 5, "ante")
        assert await tx.entries(table_id=table.id) == []
