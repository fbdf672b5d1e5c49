"""Every test's event loop is the bot's own (bot.ops.priority): what the suite checks runs
on the loop ``python -m bot run`` runs on, urgent interactions first. pytest-asyncio makes
its loops with the global policy, set here once.

A test (with its fixtures) still running after :data:`HANG_DUMP_AFTER` seconds writes, to
the run's own stderr (not the captured one: a hung test's capture is never shown), every
thread's stack and every task of its event loops with where each one waits and what the
loop has queued. A hang then names the await that never ends; the test goes on."""

from __future__ import annotations

import asyncio
import faulthandler
import io
import os
import sys
import threading
import warnings
import weakref
from collections.abc import Iterator
from typing import Any

import pytest

from bot.ops.priority import new_event_loop

HANG_DUMP_AFTER = float(os.environ.get("HOMEGAME_HANG_DUMP_AFTER", "420"))
"""Seconds a test (with its fixtures' setup and teardown) may run before its stacks and
tasks are written out; it goes on. The slowest test's setup (the 10,000 simulated hands'
fixture) takes ~300 s on one slow core."""

_loops: weakref.WeakSet[asyncio.AbstractEventLoop] = weakref.WeakSet()
_stderr_fd: int | None = None


class _BotLoopPolicy(asyncio.DefaultEventLoopPolicy):
    def new_event_loop(self) -> asyncio.AbstractEventLoop:
        loop = new_event_loop()
        _loops.add(loop)
        return loop


with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)  # policies are deprecated in 3.14
    asyncio.set_event_loop_policy(_BotLoopPolicy())


def pytest_configure(config: pytest.Config) -> None:
    """Keep the run's own stderr: pytest's capture replaces fd 2 while a test runs."""
    global _stderr_fd
    capture = config.pluginmanager.getplugin("capturemanager")
    saved = getattr(
        getattr(getattr(capture, "_global_capturing", None), "err", None), "targetfd_save", None
    )
    _stderr_fd = os.dup(saved if isinstance(saved, int) else sys.__stderr__.fileno())


def _describe_loops() -> str:
    out = io.StringIO()
    for loop in list(_loops):
        if loop.is_closed():
            continue
        for _ in range(5):  # read from another thread: the set may change under us
            try:
                tasks = list(asyncio.all_tasks(loop))
                break
            except RuntimeError:
                continue
        else:
            tasks = []
        ready: Any = getattr(loop, "_ready", ())
        scheduled: Any = getattr(loop, "_scheduled", ())
        print(
            f"--- loop {loop!r}: {len(tasks)} task(s), {len(ready)} ready, "
            f"{len(scheduled)} timer(s)",
            file=out,
        )
        for handle in list(scheduled)[:20]:
            print(f"    timer {handle!r}", file=out)
        for task in tasks:
            print(f"  task {task!r}", file=out)
            try:
                for frame in task.get_stack(limit=12):
                    code = frame.f_code
                    print(f"      {code.co_filename}:{frame.f_lineno} {code.co_name}", file=out)
            except Exception as exc:  # a frame gone while we read it
                print(f"      (stack unreadable: {exc!r})", file=out)
    return out.getvalue()


def _dump(nodeid: str) -> None:
    fd = _stderr_fd if _stderr_fd is not None else sys.__stderr__.fileno()
    head = f"\n=== {nodeid} still running after {HANG_DUMP_AFTER:.0f} s (pid {os.getpid()})\n"
    os.write(fd, head.encode())
    faulthandler.dump_traceback(file=fd, all_threads=True)
    os.write(fd, _describe_loops().encode(errors="replace"))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    timer = threading.Timer(HANG_DUMP_AFTER, _dump, args=(item.nodeid,))
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()
