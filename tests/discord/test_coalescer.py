"""The tables cog's update queue (cogs._coalesce.Coalescer): one job in flight per message,
the newest state wins, at most ``limit`` Discord calls in flight over all messages, and a
table edit that waits for its DMs does not hold a slot while it waits."""

from __future__ import annotations

import asyncio

import pytest

import cogs._coalesce as coalesce
from cogs._coalesce import Coalescer
from tests.discord.tablebot import HANG


async def test_background_edits_never_exceed_the_limit_over_all_messages() -> None:
    updates = Coalescer(limit=4)
    running = peak = 0
    release = asyncio.Event()

    async def edit() -> None:
        nonlocal running, peak
        running += 1
        peak = max(peak, running)
        await release.wait()
        running -= 1

    for k in range(20):
        updates.submit(f"dm:1:{k}", edit)
    for _ in range(50):  # turns of the event loop, not a time: each job that can start has
        await asyncio.sleep(0)
    assert running == 4  # the 16 others wait for a slot
    release.set()
    await updates.idle()
    assert peak == 4 and running == 0


async def test_a_job_waiting_for_others_holds_no_slot_so_they_can_finish(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With one slot: the table edit waits for the DM edit, which needs that slot. Were the
    waiting edit to hold the slot, the two would wait for each other until PRIVATE_FIRST
    ran out: made an hour here, so that deadlock would hang the test (its guard) rather than
    pass a little late, and no time limit decides (issue 19, item 16)."""
    monkeypatch.setattr(coalesce, "PRIVATE_FIRST", 3600.0)
    updates = Coalescer(limit=1)
    order: list[str] = []
    dm_may_end = asyncio.Event()

    async def dm() -> None:
        await dm_may_end.wait()
        order.append("dm")

    async def table() -> None:
        order.append("table")

    updates.submit("dm:1:5", dm)
    updates.submit("table:1", table, after=["dm:1:5"])
    for _ in range(20):
        await asyncio.sleep(0)
    assert order == []  # the table edit waits for the DM edit
    dm_may_end.set()
    await asyncio.wait_for(updates.idle(), HANG)
    assert order == ["dm", "table"]


async def test_newest_job_replaces_the_waiting_one_for_the_same_message() -> None:
    updates = Coalescer(limit=2)
    seen: list[int] = []
    gate = asyncio.Event()

    def job(n: int):  # type: ignore[no-untyped-def]
        async def run() -> None:
            await gate.wait()
            seen.append(n)

        return run

    updates.submit("table:7", job(0))
    await asyncio.sleep(0)  # job 0 is running (waiting on the gate)
    for n in range(1, 5):
        updates.submit("table:7", job(n))
    gate.set()
    await updates.idle()
    assert seen == [0, 4]  # the first was running; of the rest only the newest runs


async def test_an_update_cancelled_before_it_ran_is_forgotten_so_idle_ends() -> None:
    """cancel() (the cog unloading) can stop a drain task before its first step, which then
    never runs its own clean-up: the coalescer still forgets it, so idle() (tests, shutdown)
    does not wait on a finished task forever."""
    updates = Coalescer(limit=4)
    ran: list[str] = []

    async def edit() -> None:
        ran.append("edit")

    updates.submit("table:1", edit)
    updates.cancel()  # in the same step: the drain task has not started
    await asyncio.wait_for(updates.idle(), HANG)
    assert ran == []
    updates.submit("table:1", edit)  # and the message's next update runs
    await asyncio.wait_for(updates.idle(), HANG)
    assert ran == ["edit"]


async def test_close_sends_what_is_waiting_then_drops_an_update_that_never_ends() -> None:
    """A cog unloading: a waiting update (even a delayed one) is sent first; one that
    cannot finish within the grace is cancelled, and close() returns."""
    updates = Coalescer(limit=4)
    sent: list[str] = []
    never = asyncio.Event()

    async def edit() -> None:
        sent.append("edit")

    async def stuck() -> None:
        await never.wait()

    updates.submit("table:1", edit, delay=3600.0)
    await asyncio.wait_for(updates.close(HANG), HANG)
    assert sent == ["edit"]
    updates.submit("table:2", stuck)
    await asyncio.wait_for(updates.close(0.0), HANG)
    await asyncio.wait_for(updates.idle(), HANG)  # the stuck one was cancelled
