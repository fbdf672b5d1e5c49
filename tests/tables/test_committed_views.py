"""Readers see the last COMMITTED table: ``view()`` and ``private_view()`` called while an
action is being committed return the state before it with its version (never the new
state under the old version, which made a click on a message drawn then "from an earlier
state"); and a hand's end decides the next hand in the same round trip as its writes,
correcting itself when a wallet changed during the hand (RULES §5.1: the ledger is the
truth)."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.store import Store
from bot.tables import TableService

from .conftest import ALICE, BOB, CAROL, GUILD, Clock, Recorder, seeded
from .test_write_path import Hops, _plain_move


class Gate:
    """Holds the next round trip to SQLite (the commit of an action) until released."""

    def __init__(self, store: Store) -> None:
        self.db = store._db
        self.real = self.db._execute
        self.entered = asyncio.Event()
        self.release = asyncio.Event()

    async def __call__(self, fn, *args, **kwargs):  # type: ignore[no-untyped-def]
        del self.db._execute  # only the first trip waits
        self.entered.set()
        await self.release.wait()
        return await self.real(fn, *args, **kwargs)

    def __enter__(self) -> Gate:
        self.db._execute = self  # type: ignore[method-assign]
        return self

    def __exit__(self, *exc: object) -> None:
        self.db.__dict__.pop("_execute", None)


async def _table(service: TableService, players: tuple[int, ...] = (ALICE, BOB, CAROL)) -> int:
    view = await service.open_table(
        guild_id=GUILD, channel_id=710, host_id=players[0], host_name="P0", game="razz"
    )
    for k, uid in enumerate(players[1:], start=1):
        await service.join(view.table_id, uid, f"P{k}")
    await service.start(view.table_id, players[0])
    return view.table_id


def _next_move_unread(service: TableService, tid: int) -> tuple[int, str]:
    """The next plain move, found without reading a view (so none is kept)."""
    live = service._tables[tid]
    (seat,) = live.family.to_act()
    allowed = {o.kind for o in live.family.options(seat) if o.allowed}
    return live.user(seat), next(k for k in ("bring_in", "call", "check") if k in allowed)


async def _during_commit(
    service: TableService, store: Store, tid: int, move: tuple[int, str]
) -> dict[str, Any]:
    """Start one plain action, read the views while its commit is held, finish it."""
    actor, kind = move
    with Gate(store) as gate:
        acting = asyncio.create_task(service.act(tid, actor, kind))
        await gate.entered.wait()
        reads = asyncio.gather(service.view(tid), service.private_view(tid, actor))
        # let the readers run (they may wait for the lock): turns of the event loop, not
        # a time, so a loaded machine gives them the same chance (one that is served from
        # memory is done within a few turns; one waiting for the commit, never)
        for _ in range(50):
            await asyncio.sleep(0)
        done_early = reads.done()
        gate.release.set()
        pv_after = await acting
        view, pv = await reads
    return {"actor": actor, "view": view, "pv": pv, "early": done_early, "after": pv_after}


async def test_view_during_a_commit_is_the_last_committed_state_with_its_version(
    service: TableService, store: Store
) -> None:
    tid = await _table(service)
    before = await service.view(tid)
    got = await _during_commit(service, store, tid, await _plain_move(service, tid))
    # served at once from the kept view of the committed state: the same object, old version
    assert got["early"]
    assert got["view"] == before and got["view"].version == before.version
    assert got["pv"].version == before.version and got["actor"] in before.to_act_user_ids
    after = await service.view(tid)
    assert after.version == before.version + 1 == got["after"].version
    assert after.to_act_user_ids != before.to_act_user_ids and after.pot > before.pot
    # a click drawn from the committed view is taken
    actor, kind = await _plain_move(service, tid)
    await service.act(tid, actor, kind, version=after.version)
    assert (await service.view(tid)).version == after.version + 1


async def test_view_without_a_kept_view_waits_for_the_commit_and_matches_its_version(
    store: Store, clock: Clock
) -> None:
    """No subscriber (a simulation): nothing is kept after an action, so a reader during
    the next commit waits for it and gets the new state WITH the new version."""
    service = TableService(store, clock=clock, rng_factory=seeded(7), timers=False)
    await service.start_service()
    try:
        tid = await _table(service)
        await service.act(tid, *await _plain_move(service, tid))  # drops what was kept
        before = await service.view(tid)
        service._views.clear()  # as after any commit without a subscriber
        got = await _during_commit(service, store, tid, _next_move_unread(service, tid))
        assert not got["early"]
        view, pv = got["view"], got["pv"]
        assert view.version == before.version + 1 == pv.version == got["after"].version
        assert view == await service.view(tid)
        assert got["actor"] not in view.to_act_user_ids and not any(o.allowed for o in pv.options)
    finally:
        await service.stop_service()


async def test_failed_commit_leaves_the_kept_view_true(service: TableService, store: Store) -> None:
    """An overdraft at commit: readers during it see the unchanged table (afterwards the
    hand is voided, issue 11 item 2: a wallet the game cannot charge ends the hand)."""
    tid = await _table(service)
    actor, kind = await _plain_move(service, tid)
    async with store.transaction() as tx:
        have = (await tx.wallet(GUILD, actor)).balance
        await tx.take(GUILD, actor, have, actor_id=1, reason="test: empty the wallet")
    before = await service.view(tid)
    with Gate(store) as gate:
        acting = asyncio.create_task(service.act(tid, actor, kind))
        await gate.entered.wait()
        during = await service.view(tid)
        gate.release.set()
        try:
            await acting
        except Exception as exc:  # InsufficientChips
            assert "chips" in str(exc)
        else:
            raise AssertionError("the bet went through without chips")
    assert during == before
    after = await service.view(tid)
    assert after.version > before.version and after.hand_number == before.hand_number
    assert not after.to_act_user_ids and "Hand 1 was voided" in after.recent


async def _to_fold(service: TableService, tid: int) -> int:
    """Heads-up: post the bring-in; return the other player (now facing it, may fold)."""
    actor, kind = await _plain_move(service, tid)
    assert kind == "bring_in"
    await service.act(tid, actor, kind)
    (other,) = (await service.view(tid)).to_act_user_ids
    assert (await service.private_view(tid, other)).option("fold").allowed  # type: ignore[union-attr]
    return other


async def test_hand_end_schedules_next_hand_in_the_same_round_trip(
    service: TableService, store: Store
) -> None:
    tid = await _table(service, (ALICE, BOB))
    folder = await _to_fold(service, tid)
    with Hops(store) as hops:
        await service.act(tid, folder, "fold")
    assert hops.count == 1  # awards, hand end, balances read back, snapshot, COMMIT
    view = await service.view(tid)
    assert view.phase == "hand over" and view.status == "running" and view.deadline
    async with store.read() as tx:
        row = await tx.table(tid)
        wallets = {u: (await tx.wallet(GUILD, u)).balance for u in (ALICE, BOB)}
    assert row.version == view.version and row.deadline == view.deadline
    assert {s.user_id: s.stack for s in view.seats} == wallets
    assert await service.tick(tid, force=True) and await service.hand_in_progress(tid)


async def test_hand_end_prediction_corrected_when_a_wallet_emptied_during_the_hand(
    service: TableService, store: Store, recorder: Recorder
) -> None:
    """An admin takes all of a player's chips mid-hand, then that player folds: the hand's
    stacks say both can play on, the ledger says one cannot: the table waits for players."""
    tid = await _table(service, (ALICE, BOB))
    folder = await _to_fold(service, tid)
    async with store.transaction() as tx:
        have = (await tx.wallet(GUILD, folder)).balance
        await tx.take(GUILD, folder, have, actor_id=1, reason="test: empty the wallet")
    await service.act(tid, folder, "fold")
    view = await service.view(tid)
    assert view.status == "open" and view.phase == "waiting for players"
    assert view.deadline is None
    assert recorder.published[-1].view == view
    assert recorder.announcements[-1].startswith("Waiting for players: only one player of 2")
    async with store.read() as tx:
        row = await tx.table(tid)
    assert (row.status, row.deadline, row.version) == ("open", None, view.version)
    assert not await service.tick(tid, force=True)
    assert (await store.audit(GUILD)).ok
