"""Issue 12, item 8: closing a table after a hand. Once ``/table end`` has been asked for,
no game is dealt any more (the next game's timer may be waking at that very moment), and
the closed table's last view ends with what went back."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from bot.store import Store
from bot.tables import TableService

from .conftest import ALICE, BOB, CAROL, GUILD, Recorder, VirtualClock, seeded, wait_for

AUTOSTART = 3.0


@pytest.fixture
def vclock() -> VirtualClock:
    return VirtualClock()


@pytest.fixture
async def vstore(db_path: object, vclock: VirtualClock) -> AsyncIterator[Store]:
    s = await Store.open(db_path, clock=vclock)  # type: ignore[arg-type]
    yield s
    await s.close()


@pytest.fixture
async def timed(
    vstore: Store, vclock: VirtualClock, recorder: Recorder
) -> AsyncIterator[TableService]:
    svc = TableService(
        vstore,
        clock=vclock,
        rng_factory=seeded(13),
        subscriber=recorder,
        autostart_delay=AUTOSTART,
        sleep=vclock.sleep,
        computer_delay=3600.0,
    )
    await svc.start_service()
    yield svc
    await svc.stop_service()


async def game_one_over(service: TableService) -> int:
    view = await service.open_table(
        guild_id=GUILD,
        channel_id=981,
        host_id=ALICE,
        host_name="Alice",
        game="zoot",
        options={"ante": 10},
    )
    tid = view.table_id
    await service.join(tid, BOB, "Bob")
    await service.join(tid, CAROL, "Carol")
    await service.start(tid, ALICE)
    await service.act(tid, ALICE, "lay_down")
    await service.act(tid, BOB, "play_on")
    await service.act(tid, CAROL, "play_on")
    ended = await service.view(tid)
    assert ended.hand_number == 1 and ended.deadline is not None
    return tid


async def test_no_game_is_dealt_once_a_close_is_pending(
    timed: TableService, vstore: Store, vclock: VirtualClock, recorder: Recorder
) -> None:
    tid = await game_one_over(timed)
    await wait_for(lambda: vclock.sleeping, what="the next game's timer")
    lock = timed._lock(tid)
    async with lock:  # another change of the table is being committed
        vclock.advance(AUTOSTART + 0.05)  # the next game's timer wakes: waits for the lock
        await wait_for(lambda: len(lock._waiters or ()) == 1, what="the timer at the lock")
        closing = asyncio.create_task(timed.end(tid, ALICE, may_manage=False))
        await wait_for(lambda: len(lock._waiters or ()) == 2, what="the close at the lock")
    closed = await closing
    assert closed.status == "closed" and closed.hand_number == 1
    async with vstore.read() as tx:
        assert [h.number for h in await tx.hands(tid)] == [1]  # game 2 was never dealt
    assert not any("antes" in r for r in closed.recent[-1:])
    assert closed.pot == 0
    assert (await vstore.audit(GUILD)).ok


async def test_a_close_mid_game_ends_the_table_view_with_the_void_and_the_refunds(
    timed: TableService, vstore: Store, vclock: VirtualClock, recorder: Recorder
) -> None:
    tid = await game_one_over(timed)
    vclock.advance(AUTOSTART + 0.05)
    await wait_for(
        lambda: any(p.view.hand_number == 2 for p in recorder.published), what="game 2 dealt"
    )
    closed = await timed.end(tid, ALICE, may_manage=False)
    assert closed.status == "closed" and closed.pot == 0 and closed.phase == "closed"
    assert "Hand 2 voided" in closed.recent[-2]
    assert closed.recent[-1].startswith("Table closed")
    assert all(not s.shown and s.status != "playing" for s in closed.seats)
    assert (await vstore.audit(GUILD)).ok
