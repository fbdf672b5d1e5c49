"""Defect: a refused command stopped the table's timer (issue 11, item 1).

The error path of a refused command reloaded the table and dropped its exact deadline; the
armed timer then woke at that exact time, found nothing due (the stored deadline is the
next whole second) and never armed again: the hand hung until someone acted, and between
hands the table stayed stuck until a restart. Each test here makes one refused command,
moves the clock just past the exact deadline and checks that the default action (the
timeout, or the next hand) happened then.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from bot.engine.errors import IllegalAction
from bot.store import Store
from bot.tables import TableService
from bot.tables.errors import (
    AlreadySeated,
    NotAllowed,
    NotSeated,
    TableClosed,
    UnpayableHand,
)
from bot.tables.timers import TIMER_RETRY

from .conftest import ALICE, BOB, CAROL, GUILD, Recorder, VirtualClock, seeded, wait_for

DAVE = 24
DECISION = 10  # the shortest window the rules allow
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
    """A service with real timers that sleep on the test's clock."""
    svc = TableService(
        vstore,
        clock=vclock,
        rng_factory=seeded(11),
        subscriber=recorder,
        autostart_delay=AUTOSTART,
        sleep=vclock.sleep,
        computer_delay=3600.0,
    )
    await svc.start_service()
    yield svc
    await svc.stop_service()


async def zoot_running(service: TableService, channel: int = 901) -> int:
    """Alice, Bob and Carol at a started Zoot table, Bob has played on (a round where
    somebody acted does not pause, RULES 1.11): the first window's timer runs."""
    view = await service.open_table(
        guild_id=GUILD,
        channel_id=channel,
        host_id=ALICE,
        host_name="Alice",
        game="zoot",
        options={"decision_seconds": DECISION, "ante": 10},
    )
    await service.join(view.table_id, BOB, "Bob")
    await service.join(view.table_id, CAROL, "Carol")
    await service.start(view.table_id, ALICE)
    await service.act(view.table_id, BOB, "play_on")
    return view.table_id


async def assert_window_times_out(
    service: TableService, vclock: VirtualClock, recorder: Recorder, tid: int
) -> None:
    """Just past the window's exact deadline (before its stored whole second) the table
    plays on for everyone who did not choose."""
    await wait_for(lambda: vclock.sleeping, what="the armed timer")
    vclock.advance(DECISION + 0.05)
    await wait_for(
        lambda: any("timed out" in a for a in recorder.announcements),
        what="the window's timeout",
    )
    view = await service.view(tid)
    assert view.phase.startswith("discard"), view.phase


async def test_refused_double_start_keeps_the_window_timer(
    timed: TableService, vclock: VirtualClock, recorder: Recorder
) -> None:
    tid = await zoot_running(timed)
    with pytest.raises(IllegalAction, match="already being played"):
        await timed.start(tid, ALICE)
    await assert_window_times_out(timed, vclock, recorder, tid)


async def test_refused_kick_by_a_non_host_keeps_the_window_timer(
    timed: TableService, vclock: VirtualClock, recorder: Recorder
) -> None:
    tid = await zoot_running(timed)
    with pytest.raises(NotAllowed):
        await timed.kick(tid, BOB, CAROL, may_manage=False)
    await assert_window_times_out(timed, vclock, recorder, tid)


async def test_refused_kick_of_someone_not_seated_keeps_the_window_timer(
    timed: TableService, vclock: VirtualClock, recorder: Recorder
) -> None:
    tid = await zoot_running(timed)
    with pytest.raises(NotSeated):
        await timed.kick(tid, ALICE, DAVE, may_manage=False)
    await assert_window_times_out(timed, vclock, recorder, tid)


async def test_refused_join_by_a_player_seated_elsewhere_keeps_the_window_timer(
    timed: TableService, vclock: VirtualClock, recorder: Recorder
) -> None:
    tid = await zoot_running(timed)
    other = await timed.open_table(
        guild_id=GUILD, channel_id=902, host_id=DAVE, host_name="Dave", game="razz"
    )
    assert other.seat_of(DAVE) is not None
    with pytest.raises(AlreadySeated):
        await timed.join(tid, DAVE, "Dave")
    await assert_window_times_out(timed, vclock, recorder, tid)


async def test_refused_void_just_after_a_hand_keeps_the_next_hand_timer(
    timed: TableService, vclock: VirtualClock, recorder: Recorder
) -> None:
    tid = await zoot_running(timed)
    await timed.act(tid, ALICE, "lay_down")
    await timed.act(tid, CAROL, "play_on")  # the window closes: the showdown ends the game
    ended = await timed.view(tid)
    assert ended.hand_number == 1 and ended.deadline is not None
    with pytest.raises(IllegalAction, match="no hand"):
        await timed.void_hand(tid, ALICE, may_manage=True)
    await wait_for(lambda: vclock.sleeping, what="the armed timer")
    vclock.advance(AUTOSTART + 0.05)
    view = await wait_for(lambda: _hand_is(timed, tid, 2), what="the next hand dealt on time")
    assert view.status == "running"


async def _hand_is(service: TableService, tid: int, number: int) -> object:
    view = await service.view(tid)
    return view if view.hand_number == number else None


async def test_timer_that_wakes_early_arms_again_for_the_real_deadline(
    timed: TableService, vclock: VirtualClock, recorder: Recorder
) -> None:
    """A timer that wakes with nothing due (the deadline moved, a clock drifted) arms again
    for the table's deadline instead of giving up."""
    tid = await zoot_running(timed)
    await wait_for(lambda: vclock.sleeping, what="the armed timer")
    # the table's exact deadline forgotten (as after a restart): due at the stored second
    timed._exact.pop(tid)
    vclock.advance(DECISION + 0.05)  # the timer wakes at the old exact time: not due yet
    await wait_for(lambda: vclock.sleeping, what="the timer armed again")
    assert not any("timed out" in a for a in recorder.announcements)
    vclock.advance(1.0)  # past the stored whole second
    await wait_for(
        lambda: any("timed out" in a for a in recorder.announcements),
        what="the window's timeout at the stored deadline",
    )


async def test_refused_action_by_an_overdraft_keeps_the_table_going(
    timed: TableService, vstore: Store, vclock: VirtualClock, recorder: Recorder
) -> None:
    """An action a wallet cannot pay (chips taken behind the game's back) is refused; the
    hand is voided (issue 11, item 2) and the next one is dealt on time."""
    tid = await zoot_running(timed)
    async with vstore.transaction() as tx:
        await tx.take(GUILD, CAROL, 985, actor_id=ALICE, reason="behind the game's back")
    await timed.act(tid, ALICE, "play_on")
    with pytest.raises(UnpayableHand):
        await timed.act(tid, CAROL, "play_on")  # closes the window: the ante again fails
    await wait_for(lambda: vclock.sleeping, what="the armed timer")
    vclock.advance(AUTOSTART + 0.05)
    view = await wait_for(lambda: _hand_is(timed, tid, 2), what="the next hand dealt on time")
    assert view.status == "running"


async def test_timer_whose_due_step_fails_tries_again(
    timed: TableService, vclock: VirtualClock, recorder: Recorder, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A due step that fails (e.g. the database busy for a moment) commits nothing; the
    timer tries again a few seconds later instead of leaving the table without one."""
    await zoot_running(timed)
    await wait_for(lambda: vclock.sleeping, what="the armed timer")
    real_tick = timed.tick
    failures: list[int] = []

    async def flaky_tick(table_id: int, *, force: bool = False) -> bool:
        if not failures:
            failures.append(table_id)
            raise OSError("disk I/O error (once)")
        return await real_tick(table_id, force=force)

    monkeypatch.setattr(timed, "tick", flaky_tick)
    vclock.advance(DECISION + 0.05)
    await wait_for(lambda: failures and vclock.sleeping, what="the timer waiting to retry")
    assert not any("timed out" in a for a in recorder.announcements)
    vclock.advance(TIMER_RETRY)
    await wait_for(
        lambda: any("timed out" in a for a in recorder.announcements),
        what="the window's timeout on the retry",
    )


async def test_simultaneous_double_start_deals_once_and_keeps_the_window_timer(
    timed: TableService, vclock: VirtualClock, recorder: Recorder
) -> None:
    view = await timed.open_table(
        guild_id=GUILD,
        channel_id=903,
        host_id=ALICE,
        host_name="Alice",
        game="zoot",
        options={"decision_seconds": DECISION},
    )
    tid = view.table_id
    await timed.join(tid, BOB, "Bob")
    got = await asyncio.gather(
        timed.start(tid, ALICE), timed.start(tid, BOB), return_exceptions=True
    )
    assert sum(isinstance(g, IllegalAction) for g in got) == 1, got
    assert (await timed.view(tid)).hand_number == 1
    await timed.act(tid, BOB, "play_on")
    await assert_window_times_out(timed, vclock, recorder, tid)


async def test_simultaneous_double_close_closes_once_and_deals_nothing(
    timed: TableService, vstore: Store, vclock: VirtualClock
) -> None:
    tid = await zoot_running(timed)
    got = await asyncio.gather(
        timed.end(tid, ALICE, may_manage=False),
        timed.end(tid, ALICE, may_manage=False),
        return_exceptions=True,
    )
    assert sum(isinstance(g, TableClosed) for g in got) == 1, got
    # no timer waits for the closed table (a timer left behind would deal at its deadline)
    assert tid not in timed._timer_tasks and vclock.sleeping == 0
    vclock.advance(3600)
    for _ in range(20):
        await asyncio.sleep(0)
    async with vstore.read() as tx:
        assert [h.status for h in await tx.hands(tid)] == ["voided"]
    assert (await vstore.audit(GUILD)).ok


async def test_refusal_then_restart_the_stored_deadline_still_fires(
    timed: TableService, vstore: Store, vclock: VirtualClock, recorder: Recorder
) -> None:
    tid = await zoot_running(timed)
    with pytest.raises(NotAllowed):
        await timed.kick(tid, BOB, CAROL, may_manage=False)
    await timed.stop_service()  # the process stops; a new one starts on the database
    again = TableService(
        vstore,
        clock=vclock,
        rng_factory=seeded(12),
        subscriber=recorder,
        sleep=vclock.sleep,
        computer_delay=3600.0,
    )
    await again.start_service()
    try:
        await wait_for(lambda: vclock.sleeping, what="the restored timer")
        vclock.advance(DECISION + 1.0)  # past the stored whole second
        await wait_for(
            lambda: any("timed out" in a for a in recorder.announcements),
            what="the window's timeout after the restart",
        )
    finally:
        await again.stop_service()
