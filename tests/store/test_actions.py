"""One table action's writes in one round trip (record_action): ledger rows with guarded
balances (RULES §5.1), the hand log, the hand's end and the snapshot, all or nothing."""

from __future__ import annotations

import pytest

from bot.engine.events import ChipMove, public
from bot.store import (
    HandFinish,
    HandResult,
    InsufficientChips,
    InvalidAmount,
    Overdraft,
    StaleSeason,
    StaleVersion,
    Store,
    StoreError,
    TableAccounts,
)
from tests.store.conftest import ALICE, BOB, CAROL, GUILD

CHANNEL = 777


async def _table(store: Store, *, practice: bool = False) -> tuple[TableAccounts, int]:
    """A zoot table with ALICE, BOB and CAROL's wallets and a running hand."""
    async with store.transaction() as tx:
        table = await tx.create_table(GUILD, CHANNEL, "zoot", practice=practice)
        hand = await tx.start_hand(table.id)
        accounts = await tx.table_accounts(table.id, [ALICE, BOB, CAROL])
    return accounts, hand.id


class Hops:
    """Counts the round trips to aiosqlite's worker thread (each queued call)."""

    def __init__(self, store: Store) -> None:
        self.db = store._db
        self.real = self.db._execute
        self.count = 0

    async def __call__(self, fn, *args, **kwargs):  # type: ignore[no-untyped-def]
        self.count += 1
        return await self.real(fn, *args, **kwargs)

    def __enter__(self) -> Hops:
        self.db._execute = self  # type: ignore[method-assign]
        return self

    def __exit__(self, *exc: object) -> None:
        del self.db._execute


async def _state(store: Store, accounts: TableAccounts, hand_id: int) -> tuple[object, ...]:
    async with store.read() as tx:
        balances = [(await tx.account(w)).balance for w in accounts.wallets.values()]
        pot = await tx.balance(accounts.pot_account)
        ledger = len(await tx.entries(table_id=accounts.table_id))
        events = len(await tx.hand_events(hand_id))
        table = await tx.table(accounts.table_id)
        hand = await tx.hand(hand_id)
    return balances, pot, ledger, events, table.version, table.snapshot, hand.status


async def test_table_accounts_creates_missing_wallets_with_starting_chips(store: Store) -> None:
    accounts, _ = await _table(store)
    assert set(accounts.wallets) == {ALICE, BOB, CAROL}
    assert dict(accounts.balances) == {ALICE: 1000, BOB: 1000, CAROL: 1000}
    async with store.read() as tx:
        table = await tx.table(accounts.table_id)
        season = await tx.current_season(GUILD)
        assert (await tx.wallet(GUILD, BOB)).id == accounts.wallets[BOB]
    assert (accounts.pot_account, accounts.season_id) == (table.pot_account, season.id)
    assert (await store.audit(GUILD)).ok


async def test_rule_5_1_record_action_one_ledger_row_per_move_and_snapshot_in_one_trip(
    store: Store,
) -> None:
    accounts, hand_id = await _table(store)
    moves = [(ALICE, 5, "ante"), (BOB, 5, "ante"), (CAROL, 5, "ante"), (BOB, -15, "award")]
    events = [public("antes", {"n": 3}, chips=(ChipMove(0, 5, "ante"),)), public("won", {})]
    with Hops(store) as hops:
        async with store.transaction(lazy=True) as tx:
            rec = await tx.record_action(
                accounts,
                moves=moves,
                hand_id=hand_id,
                events=events,
                snapshot={"street": 3},
                expected_version=0,
                deadline=123,
                status="running",
                balances_of=[ALICE, CAROL],
                commit=True,
            )
    assert hops.count == 1  # BEGIN IMMEDIATE, every write and COMMIT in one round trip
    assert rec.version == 1 and rec.last_seq == 2 and rec.pot == 0
    assert dict(rec.balances) == {ALICE: 995, BOB: 1010, CAROL: 995}
    async with store.read() as tx:
        entries = await tx.entries(table_id=accounts.table_id)
        table = await tx.table(accounts.table_id)
        logged = await tx.hand_events(hand_id)
    assert [(e.amount, e.kind, e.hand_id) for e in entries] == [
        (5, "ante", hand_id),
        (5, "ante", hand_id),
        (5, "ante", hand_id),
        (15, "award", hand_id),
    ]
    assert entries[-1].from_account == accounts.pot_account
    assert entries[-1].to_account == accounts.wallets[BOB]
    assert (table.snapshot, table.deadline, table.status) == ({"street": 3}, 123, "running")
    assert logged == events
    report = await store.audit(GUILD)
    assert report.ok, report.format()


async def test_record_action_overdraft_mid_sequence_writes_nothing(store: Store) -> None:
    """ALICE has 1000: a 600 bet then a 600 bet overdraws on the second, even though a
    later award would bring her back above zero: the guard holds at every point."""
    accounts, hand_id = await _table(store)
    before = await _state(store, accounts, hand_id)
    async with store.transaction() as tx:
        with pytest.raises(Overdraft) as err:
            await tx.record_action(
                accounts,
                moves=[
                    (BOB, 300, "bet"),
                    (ALICE, 600, "bet"),
                    (ALICE, 600, "bet"),
                    (ALICE, -1500, "award"),
                ],
                hand_id=hand_id,
                events=[public("bet", {})],
                snapshot={"x": 1},
                expected_version=0,
            )
        # the transaction stays usable: the refused action left no trace in it
        assert await tx.balance(accounts.wallets[BOB]) == 1000
    assert isinstance(err.value, InsufficientChips)
    assert (err.value.user_id, err.value.have, err.value.needed) == (ALICE, 400, 600)
    assert await _state(store, accounts, hand_id) == before
    assert (await store.audit(GUILD)).ok


async def test_record_action_stale_version_writes_nothing(store: Store) -> None:
    accounts, hand_id = await _table(store)
    before = await _state(store, accounts, hand_id)
    async with store.transaction() as tx:
        with pytest.raises(StaleVersion) as err:
            await tx.record_action(
                accounts,
                moves=[(ALICE, 5, "ante")],
                hand_id=hand_id,
                events=[public("ante", {})],
                snapshot={"x": 1},
                expected_version=4,
            )
    assert (err.value.expected, err.value.actual) == (4, 0)
    assert await _state(store, accounts, hand_id) == before


async def test_record_action_after_season_end_is_stale_and_writes_nothing(store: Store) -> None:
    accounts, hand_id = await _table(store)
    async with store.transaction() as tx:
        await tx.end_season(GUILD)
    before = await _state(store, accounts, hand_id)
    async with store.transaction() as tx:
        with pytest.raises(StaleSeason):
            await tx.record_action(accounts, moves=[(ALICE, 5, "ante")], hand_id=hand_id)
        with pytest.raises(StaleSeason):
            await tx.record_action(accounts, balances_of=[ALICE])
        fresh = await tx.table_accounts(accounts.table_id, [ALICE])
        rec = await tx.record_action(fresh, moves=[(ALICE, 5, "ante")], hand_id=hand_id)
    assert await _state(store, accounts, hand_id) != before
    assert fresh.season_id != accounts.season_id and dict(rec.balances) == {ALICE: 995}
    assert (await store.audit(GUILD)).ok


async def test_record_action_finishes_hand_after_its_events(store: Store) -> None:
    accounts, hand_id = await _table(store)
    results = [
        HandResult(user_id=ALICE, seat_no=0, paid=5, won=10, won_pot=True),
        HandResult(user_id=BOB, seat_no=1, paid=5, won=0),
    ]
    async with store.transaction() as tx:
        rec = await tx.record_action(
            accounts,
            moves=[(ALICE, 5, "ante"), (BOB, 5, "ante"), (ALICE, -10, "award")],
            hand_id=hand_id,
            events=[public("showdown", {})],
            finish=HandFinish(results, history="phh", result={"winner": 0}),
        )
        hand = await tx.hand(hand_id)
        assert await tx.hand_results(hand_id) == results
        with pytest.raises(StoreError, match="closed"):
            await tx.record_action(accounts, hand_id=hand_id, events=[public("late", {})])
    assert rec.version is None and rec.last_seq == 1
    assert (hand.status, hand.history, hand.result) == ("finished", "phh", {"winner": 0})


async def test_record_action_refuses_bad_moves_before_writing(store: Store) -> None:
    accounts, hand_id = await _table(store)
    before = await _state(store, accounts, hand_id)
    async with store.transaction() as tx:
        with pytest.raises(InvalidAmount, match="cannot go into"):
            await tx.record_action(accounts, moves=[(ALICE, 5, "award")], hand_id=hand_id)
        with pytest.raises(InvalidAmount, match="non-zero"):
            await tx.record_action(accounts, moves=[(ALICE, 0, "bet")])
        with pytest.raises(StoreError, match="no wallet"):
            await tx.record_action(accounts, moves=[(999, 5, "bet")])
        with pytest.raises(StoreError, match="hand's id"):
            await tx.record_action(accounts, events=[public("x", {})])
    assert await _state(store, accounts, hand_id) == before


async def test_practice_table_moves_no_league_chips(store: Store) -> None:
    accounts, hand_id = await _table(store, practice=True)
    assert accounts.practice and not accounts.wallets
    async with store.transaction() as tx:
        with pytest.raises(StoreError, match="practice"):
            await tx.record_action(accounts, moves=[(ALICE, 5, "ante")], hand_id=hand_id)
        rec = await tx.record_action(
            accounts, hand_id=hand_id, events=[public("x", {})], snapshot={}, expected_version=0
        )
    assert rec.version == 1


async def test_lazy_transaction_without_statements_touches_nothing(store: Store) -> None:
    with Hops(store) as hops:
        async with store.transaction(lazy=True):
            pass
    assert hops.count == 0


async def test_lazy_transaction_rolls_back_on_error_after_a_write(store: Store) -> None:
    accounts, hand_id = await _table(store)
    before = await _state(store, accounts, hand_id)
    with pytest.raises(RuntimeError):
        async with store.transaction(lazy=True) as tx:
            await tx.record_action(accounts, moves=[(ALICE, 5, "ante")], hand_id=hand_id)
            raise RuntimeError("the engine failed after the write")
    assert await _state(store, accounts, hand_id) == before
    # a committed record ends the transaction: nothing may follow it
    async with store.transaction(lazy=True) as tx:
        await tx.record_action(accounts, moves=[(ALICE, 5, "ante")], commit=True)
        with pytest.raises(StoreError, match="ended"):
            await tx.balance(accounts.pot_account)
    async with store.read() as tx:
        assert await tx.balance(accounts.pot_account) == 5


async def test_begin_hand_numbers_hands_one_running_at_a_time(store: Store) -> None:
    async with store.transaction() as tx:
        table = await tx.create_table(GUILD, CHANNEL, "razz")
        first = await tx.begin_hand(table.id)
        with pytest.raises(StoreError, match="still running"):
            await tx.begin_hand(table.id)
        await tx.finish_hand(first.id, results=[])
        second = await tx.begin_hand(table.id)
        assert second == await tx.hand(second.id)
        await tx.close_table(table.id)
        with pytest.raises(StoreError, match="closed"):
            await tx.begin_hand(table.id)
    assert (first.number, second.number, second.status, second.game) == (1, 2, "running", "razz")
