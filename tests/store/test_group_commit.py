"""Group commit: several tables' waiting actions are written in ONE SQLite transaction, each
in its own savepoint, so each action is still all or nothing (RULES §5.1: a refused chip
move writes nothing) while the others of its batch commit."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import Any

import pytest

from bot.engine.events import public
from bot.store import ActionRecord, Overdraft, StaleVersion, Store, StoreError, TableAccounts
from tests.store.conftest import ALICE, BOB, CAROL, GUILD


async def _tables(store: Store, n: int) -> list[tuple[TableAccounts, int]]:
    """``n`` zoot tables (one channel each) with ALICE, BOB and CAROL and a running hand."""
    out = []
    async with store.transaction() as tx:
        for i in range(n):
            table = await tx.create_table(GUILD, 5000 + i, "zoot")
            hand = await tx.start_hand(table.id)
            out.append((await tx.table_accounts(table.id, [ALICE, BOB, CAROL]), hand.id))
    return out


async def _act(
    store: Store,
    accounts: TableAccounts,
    hand_id: int,
    moves: list[tuple[int, int, str]],
    *,
    expected_version: int = 0,
) -> ActionRecord:
    """One table action as the table service writes it: a lazy transaction that is one
    ``record_action(..., commit=True)``."""
    async with store.transaction(lazy=True) as tx:
        return await tx.record_action(
            accounts,
            moves=moves,
            hand_id=hand_id,
            events=[public("bet", {"moves": len(moves)})],
            snapshot={"table": accounts.table_id},
            expected_version=expected_version,
            balances_of=[ALICE, BOB, CAROL],
            commit=True,
        )


async def _batched(store: Store, actions: list[Awaitable[ActionRecord]]) -> list[Any]:
    """Run ``actions`` while another transaction holds the store's writer lock, so all of
    them are waiting when it is released (one batch); returns results or errors."""
    async with store.transaction() as tx:
        await tx.current_season(GUILD)
        tasks = [asyncio.ensure_future(a) for a in actions]
        for _ in range(200):
            if len(store._queue) == len(tasks):
                break
            await asyncio.sleep(0)
        assert len(store._queue) == len(tasks)
    return await asyncio.gather(*tasks, return_exceptions=True)


class Begins:
    """Counts the transactions the connection begins (SQLite's statement trace)."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, sql: str) -> None:
        if sql.lstrip().upper().startswith("BEGIN"):
            self.count += 1


async def _state(store: Store, accounts: TableAccounts, hand_id: int) -> tuple[object, ...]:
    async with store.read() as tx:
        ledger = len(await tx.entries(table_id=accounts.table_id))
        events = len(await tx.hand_events(hand_id))
        table = await tx.table(accounts.table_id)
        pot = await tx.balance(accounts.pot_account)
    return ledger, events, table.version, table.snapshot, pot


async def test_rule_5_1_group_commit_overdraft_in_batch_writes_nothing_of_it_others_commit(
    store: Store,
) -> None:
    (a1, h1), (a2, h2), (a3, h3) = await _tables(store, 3)
    before = await _state(store, a2, h2)
    begins = Begins()
    await store._db.set_trace_callback(begins)
    out = await _batched(
        store,
        [
            _act(store, a1, h1, [(ALICE, 5, "bet")]),
            # BOB has 1000: the 300 goes in first, then the 900 overdraws
            _act(store, a2, h2, [(BOB, 300, "bet"), (BOB, 900, "bet")]),
            _act(store, a3, h3, [(CAROL, 7, "bet")]),
        ],
    )
    await store._db.set_trace_callback(None)
    assert begins.count == 2  # the lock holder's transaction, then ONE for the batch
    assert isinstance(out[1], Overdraft)
    assert (out[1].user_id, out[1].have, out[1].needed) == (BOB, 700, 900)
    assert isinstance(out[0], ActionRecord) and isinstance(out[2], ActionRecord)
    assert out[0].version == 1 and out[0].balances[ALICE] == 995
    assert out[2].version == 1 and out[2].balances[CAROL] == 993
    assert out[2].balances[BOB] == 1000  # the failed action's 300 never happened
    assert await _state(store, a2, h2) == before
    assert await _state(store, a1, h1) == (1, 1, 1, {"table": a1.table_id}, 5)
    assert await _state(store, a3, h3) == (1, 1, 1, {"table": a3.table_id}, 7)
    report = await store.audit(GUILD)
    assert report.ok, report.format()


async def test_group_commit_twenty_tables_acting_at_once_one_transaction_per_batch(
    store: Store,
) -> None:
    tables = await _tables(store, 20)
    begins = Begins()
    await store._db.set_trace_callback(begins)
    out = await _batched(
        store, [_act(store, acc, hand, [(ALICE, 1, "bet")]) for acc, hand in tables]
    )
    # 20 more, unsynchronised: however they are grouped, every action lands once
    more = await asyncio.gather(
        *(_act(store, acc, hand, [(BOB, 2, "bet")], expected_version=1) for acc, hand in tables)
    )
    await store._db.set_trace_callback(None)
    assert all(isinstance(r, ActionRecord) and r.version == 1 for r in out)
    assert sorted(r.balances[ALICE] for r in out) == list(range(980, 1000))
    assert all(r.version == 2 for r in more)
    assert sorted(r.balances[BOB] for r in more) == list(range(960, 1000, 2))
    # the holder's transaction, one for the first batch, at most 20 for the second wave
    # (the writer takes every action waiting when it gets the lock: fewer when they queue)
    assert begins.count >= 3 and begins.count <= 22
    async with store.read() as tx:
        assert (await tx.wallet(GUILD, ALICE)).balance == 980
        assert (await tx.wallet(GUILD, BOB)).balance == 960
        for acc, hand in tables:
            assert len(await tx.entries(table_id=acc.table_id)) == 2
            assert len(await tx.hand_events(hand)) == 2
            assert (await tx.table(acc.table_id)).version == 2
    report = await store.audit(GUILD)
    assert report.ok, report.format()


async def test_group_commit_stale_version_in_batch_refuses_only_that_action(
    store: Store,
) -> None:
    (a1, h1), (a2, h2) = await _tables(store, 2)
    before = await _state(store, a1, h1)
    out = await _batched(
        store,
        [
            _act(store, a1, h1, [(ALICE, 5, "bet")], expected_version=3),
            _act(store, a2, h2, [(ALICE, 6, "bet")]),
        ],
    )
    assert isinstance(out[0], StaleVersion)
    assert (out[0].table_id, out[0].expected, out[0].actual) == (a1.table_id, 3, 0)
    assert isinstance(out[1], ActionRecord) and out[1].balances[ALICE] == 994
    assert await _state(store, a1, h1) == before
    assert await _state(store, a2, h2) == (1, 1, 1, {"table": a2.table_id}, 6)
    assert (await store.audit(GUILD)).ok


async def test_group_commit_single_action_is_one_round_trip(store: Store) -> None:
    """Nothing else waiting: one hop to the worker thread, as without group commit."""
    ((acc, hand),) = await _tables(store, 1)
    calls = 0
    real = store._db._execute

    async def counting(fn: Any, *args: Any, **kwargs: Any) -> Any:
        nonlocal calls
        calls += 1
        return await real(fn, *args, **kwargs)

    store._db._execute = counting  # type: ignore[method-assign]
    try:
        rec = await _act(store, acc, hand, [(CAROL, 3, "bet")])
    finally:
        del store._db._execute
    assert calls == 1
    assert rec.version == 1 and rec.balances[CAROL] == 997
    with pytest.raises(StaleVersion):
        await _act(store, acc, hand, [(CAROL, 3, "bet")])  # version 0 again: refused
    assert await _state(store, acc, hand) == (1, 1, 1, {"table": acc.table_id}, 3)


async def test_group_commit_lone_refused_action_writes_nothing_without_own_savepoint(
    store: Store,
) -> None:
    """Alone in the group commit, an action runs without a savepoint of its own (its
    transaction's rollback is the savepoint): BOB's 300 is written before the 900
    overdraws, and still nothing of it stays."""
    ((acc, hand),) = await _tables(store, 1)
    before = await _state(store, acc, hand)
    statements: list[str] = []
    await store._db.set_trace_callback(statements.append)
    with pytest.raises(Overdraft):
        await _act(store, acc, hand, [(BOB, 300, "bet"), (BOB, 900, "bet")])
    rec = await _act(store, acc, hand, [(BOB, 300, "bet")])
    await store._db.set_trace_callback(None)
    assert not [s for s in statements if "SAVEPOINT" in s.upper()]
    assert rec.version == 1 and rec.balances[BOB] == 700
    assert before[2] == 0 and await _state(store, acc, hand) == (
        1,
        1,
        1,
        {"table": acc.table_id},
        300,
    )
    assert (await store.audit(GUILD)).ok


async def test_store_keeps_savepoint_journals_in_memory(store: Store) -> None:
    """A hand's end changes enough pages that its savepoint journal would otherwise spill
    to a temporary file inside the transaction (PRAGMA temp_store = MEMORY, 2)."""
    async with store._db.execute("PRAGMA temp_store") as cur:
        row = await cur.fetchone()
    assert row is not None and row[0] == 2


async def test_group_commit_writer_cancelled_before_its_first_step_fails_its_actions_and_close_ends(
    store: Store,
) -> None:
    """A writer task cancelled before it ever ran (a shutdown cancelling every task) never
    enters its own clean-up: its queued actions get an error instead of waiting forever, and
    closing the store does not spin on the finished task (a hang seen once in CI's run)."""
    ((accounts, hand_id),) = await _tables(store, 1)
    async with store.transaction() as tx:  # holds the lock: the next action queues a writer
        await tx.current_season(GUILD)
        action = asyncio.ensure_future(_act(store, accounts, hand_id, [(ALICE, 5, "bet")]))
        for _ in range(200):
            if store._writer is not None:
                break
            await asyncio.sleep(0)
        writer = store._writer
        assert writer is not None
        writer.cancel()  # before its first step: the lock is still ours
    with pytest.raises(StoreError, match="writer stopped"):
        await asyncio.wait_for(action, 60)
    assert store._writer is None and not store._queue
    await asyncio.wait_for(store.close(), 60)
