"""The tables cog's update queue (cogs._coalesce.Coalescer): one job in flight per message,
the newest state wins, at most ``limit`` Discord calls in flight over all messages, and a
table edit that waits for its DMs does not hold a slot while it waits."""

from __future__ import annotations

import asyncio

from cogs._coalesce import Coalescer


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
    await asyncio.sleep(0.01)
    assert running == 4  # the 16 others wait for a slot
    release.set()
    await updates.idle()
    assert peak == 4 and running == 0


async def test_a_job_waiting_for_others_holds_no_slot_so_they_can_finish() -> None:
    """With one slot: the table edit waits for the DM edit, which needs that slot."""
    updates = Coalescer(limit=1)
    order: list[str] = []

    async def dm() -> None:
        await asyncio.sleep(0.01)
        order.append("dm")

    async def table() -> None:
        order.append("table")

    updates.submit("dm:1:5", dm)
    updates.submit("table:1", table, after=["dm:1:5"])
    await asyncio.wait_for(updates.idle(), 0.5)  # not PRIVATE_FIRST (1 s): no deadlock
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
