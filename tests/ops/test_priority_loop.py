"""The bot's event loop (bot.ops.priority): work in an urgent context runs before the work
queued before it, first in first out among itself; urgency ends at its deadline or when
the handler says it has answered; a socket named read-first is read before the backlog.
Every test of the suite runs on this loop (tests/conftest.py)."""

from __future__ import annotations

import asyncio
import gc
import socket

import pytest

from bot.ops import priority
from bot.ops.priority import URGENT, PriorityEventLoop, end_urgency, is_urgent, urgent_context


def _loop() -> PriorityEventLoop:
    loop = asyncio.get_running_loop()
    assert isinstance(loop, PriorityEventLoop)  # tests/conftest.py: the bot's own loop
    return loop


async def _drain() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


@pytest.mark.parametrize("debug", [False, True], ids=["plain", "asyncio-debug"])
async def test_urgent_callbacks_jump_the_queue_in_their_own_order(debug: bool) -> None:
    loop = _loop()
    loop.set_debug(debug)  # asyncio's debug mode keeps its own checks on every call
    ran: list[str] = []
    loop.call_soon(ran.append, "queued 1")
    loop.call_soon(ran.append, "queued 2")
    hot = urgent_context(priority.INTERACTION_WINDOW)
    loop.call_soon(ran.append, "urgent 1", context=hot)
    loop.call_soon(ran.append, "urgent 2", context=hot)
    loop.call_soon(ran.append, "queued 3")
    await _drain()
    loop.set_debug(False)
    assert ran == ["urgent 1", "urgent 2", "queued 1", "queued 2", "queued 3"]


async def test_a_passed_deadline_or_no_urgency_keeps_first_in_first_out() -> None:
    loop = _loop()
    ran: list[str] = []
    stale = urgent_context(0.0)
    stale.run(URGENT.set, loop.time() - 1.0)  # its window is over
    loop.call_soon(ran.append, "first")
    loop.call_soon(ran.append, "stale", context=stale)
    loop.call_soon(ran.append, "plain", context=urgent_context(0.0))
    await _drain()
    assert ran == ["first", "stale", "plain"]
    assert not is_urgent(stale)


async def test_tasks_inherit_urgency_until_their_handler_has_answered() -> None:
    loop = _loop()
    order: list[str] = []
    seen: dict[str, bool] = {}

    async def background(name: str) -> None:
        order.append(name)

    async def handler() -> None:
        seen["before"] = is_urgent()
        child = asyncio.create_task(background("child of urgent"))  # copies the context
        await asyncio.sleep(0)
        end_urgency()  # "answered"
        seen["after"] = is_urgent()
        await child

    busy = [loop.create_task(background(f"busy {i}")) for i in range(3)]
    urgent = loop.create_task(handler(), context=urgent_context(priority.INTERACTION_WINDOW))
    await asyncio.gather(urgent, *busy)
    assert seen == {"before": True, "after": False}
    # the urgent handler's child ran before the tasks created ahead of the handler
    assert order[0] == "child of urgent"
    assert order[1:] == ["busy 0", "busy 1", "busy 2"]


async def test_the_gateway_socket_is_read_before_the_backlog() -> None:
    loop = _loop()
    ran: list[str] = []
    gateway, gateway_peer = socket.socketpair()
    other, other_peer = socket.socketpair()
    try:
        for sock in (gateway, other):
            sock.setblocking(False)
        loop.read_first(gateway.fileno())
        loop.add_reader(other.fileno(), lambda: (ran.append("other"), other.recv(64)))
        loop.add_reader(gateway.fileno(), lambda: (ran.append("gateway"), gateway.recv(64)))
        gateway_peer.send(b"frame")
        other_peer.send(b"reply")

        def backlog() -> None:
            ran.append("backlog")

        # one pass of the loop: the backlog queued, then the sockets polled
        loop.call_soon(backlog)
        await _drain()
        assert ran[0] == "gateway", ran
        assert ran.index("backlog") < ran.index("other"), ran
        loop.read_in_turn(gateway.fileno())
        ran.clear()
        loop.call_soon(backlog)
        gateway_peer.send(b"frame")
        await _drain()
        assert ran == ["backlog", "gateway"], ran  # in turn again
    finally:
        loop.remove_reader(other.fileno())
        loop.remove_reader(gateway.fileno())
        for sock in (gateway, gateway_peer, other, other_peer):
            sock.close()


def test_the_run_command_uses_the_bot_loop() -> None:
    seen: list[object] = []

    async def main() -> int:
        seen.append(asyncio.get_running_loop())
        return 7

    assert priority.run(main()) == 7
    assert isinstance(seen[0], PriorityEventLoop)


async def test_the_young_garbage_is_collected_between_urgent_work() -> None:
    loop = _loop()
    assert gc.get_threshold()[0] == priority.GC_BEHIND  # Python's own only if far behind
    before = list(loop.collections)
    hot = urgent_context(priority.INTERACTION_WINDOW)
    loop.call_soon(lambda: None, context=hot)  # an urgent callback waits at the head
    kept = [[] for _ in range(2 * priority.GC_YOUNG)]  # 1,400 new containers
    loop._collect()
    assert loop.collections == before  # not in front of urgent work
    await _drain()  # the urgent callback ran
    loop._collect()
    assert sum(loop.collections) == sum(before) + 1
    assert gc.get_count()[0] < priority.GC_YOUNG
    del kept


async def test_garbage_is_collected_by_the_loop_as_objects_are_made() -> None:
    loop = _loop()
    before = sum(loop.collections)
    junk: list[list[int]] = []
    for _ in range(2000):  # a guard against a hang, not a measure: ends at the first one
        junk.extend([i] for i in range(200))
        await asyncio.sleep(priority.GC_LOOK)
        if sum(loop.collections) > before:
            break
    assert sum(loop.collections) > before
    del junk


def test_the_young_garbage_is_collected_as_the_loop_is_about_to_wait(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the timed looks an hour apart: only the loop's wait for its sockets can collect here
    monkeypatch.setattr(priority, "GC_LOOK", 3600.0)
    monkeypatch.setattr(priority, "GC_IDLE_LOOK", 3600.0)

    async def main() -> tuple[int, int, int]:
        loop = _loop()
        await asyncio.sleep(0)  # the loop's first look ran, the next is an hour away
        gc.collect()
        before = sum(loop.collections)
        kept = [[] for _ in range(2 * priority.GC_YOUNG)]  # a burst of work: 1,400 objects
        await asyncio.sleep(0)  # still work ready to run: not collected in the middle of it
        busy = sum(loop.collections)
        await asyncio.sleep(0.001)  # nothing ready: the loop waits, collecting first
        after = sum(loop.collections)
        del kept
        return before, busy, after

    before, busy, after = priority.run(main())
    assert busy == before
    assert after == before + 1


def test_a_loop_that_collects_gives_python_its_thresholds_back() -> None:
    own = gc.get_threshold()
    loop = PriorityEventLoop(collect_garbage=True)
    assert gc.get_threshold()[0] == max(own[0], priority.GC_BEHIND)
    loop.close()
    assert gc.get_threshold() == own


async def test_an_answered_handler_goes_on_after_the_urgent_work_queued_meanwhile() -> None:
    loop = _loop()
    order: list[str] = []

    async def click(name: str) -> None:
        order.append(f"{name} answers")
        await priority.answered()  # the rest (its commit, its edits) is ordinary work
        assert not is_urgent()
        order.append(f"{name} commits")

    window = priority.INTERACTION_WINDOW
    first = loop.create_task(click("first"), context=urgent_context(window))
    second = loop.create_task(click("second"), context=urgent_context(window))
    await asyncio.gather(first, second)
    # with end_urgency() alone the first click would commit in its answering step,
    # ahead of the second click's answer
    assert order == ["first answers", "second answers", "first commits", "second commits"]
