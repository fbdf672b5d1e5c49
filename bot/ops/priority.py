"""The bot's event loop: what answers an interaction runs before everything else ready.

Discord gives a bot 3 seconds to acknowledge a click, and a player feels every
millisecond of it: the button spins until the acknowledgement. asyncio runs the callbacks
that are ready first in, first out, so under load a click's gateway frame, the few steps
up to its acknowledgement and aiohttp's write of it each queued behind the edits, uploads
and commits of every other table: at 10 tables played at once (``bench/interactions.py``)
a click's answer waited ~13 ms at the median where a defer-only bot waits ~5 ms. The
acknowledgement itself is cheap; it was the queue.

:class:`PriorityEventLoop` keeps one queue but lets urgent work in at its head:

- a callback scheduled (``call_soon``: every task step, every future's wake-up) in a
  context whose :data:`URGENT` deadline has not passed goes before every callback that is
  not urgent, after the urgent ones already waiting (first in, first out among them);
  tasks copy the context they are created in, so what an urgent handler starts before its
  answer (aiohttp's body writer, say) is urgent too;
- the reads of the sockets named with :meth:`PriorityEventLoop.read_first` (the gateway's)
  go first among the socket events of a pass of the loop, so a frame that arrives while
  the loop is busy is read before the rest of the backlog;
- with ``collect_garbage`` (the bot's process), the young generations of the garbage
  collector are collected between urgent work, not in the middle of it: Python collects
  them every 700 new objects, wherever that falls, ~1 ms each and ~5 ms each tenth one
  (measured at 10 tables), and a click's path to its acknowledgement allocates enough to
  meet one in three. The loop collects instead as it is about to wait for its sockets
  (nothing ready to run: a burst of work just ended) and no read-first socket has a frame
  waiting, or, for a loop kept busy, when a look every :data:`GC_LOOK` seconds finds nothing
  urgent queued (:meth:`PriorityEventLoop._collect`); Python's own collections stay, past
  :data:`GC_BEHIND` new objects, for when the loop cannot.

The bot (``bot.app``) marks the gateway's own tasks urgent for good (they only parse
frames and hand them on), each ``INTERACTION_CREATE`` for Discord's 3-second window
(:data:`INTERACTION_WINDOW`), and every other event's listeners not at all; a handler ends
its urgency once it has answered (:func:`end_urgency`): what follows (the commit, the
edits) queues as before. Nothing else changes: the loop is asyncio's selector loop, and a
context without :data:`URGENT` set behaves exactly as there.
"""

from __future__ import annotations

import asyncio
import contextvars
import gc
import math
import select
import sys
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar, TypeVarTuple

T = TypeVar("T")
Ts = TypeVarTuple("Ts")

URGENT: contextvars.ContextVar[float] = contextvars.ContextVar("homegame_urgent", default=0.0)
"""Until when (the event loop's clock, ``loop.time()``) the work of this context goes first;
0: never."""

INTERACTION_WINDOW = 3.0
"""Seconds an interaction's handling is urgent at most: Discord's window to acknowledge
it (a handler that has not answered by then has failed anyway)."""

FOREVER = math.inf

_URGENT_GET = URGENT.get
_Handle = asyncio.Handle


class _UrgentHandle(asyncio.Handle):
    """A callback queued as urgent: its type marks it, so finding the end of the urgent
    handles at the head of the ready queue costs a type check per handle (a set of them
    cost a weak reference and a hash each, and a burst of 50 clicks queues hundreds)."""

    __slots__ = ()


GC_YOUNG = 700
"""New objects (tracked containers) after which the loop collects the young generation:
Python's own default threshold."""

GC_BEHIND = 20 * GC_YOUNG
"""Python's own collector's threshold while the loop collects: it collects only if the loop
fell that far behind (a callback that allocates that much without yielding)."""

GC_LOOK = 0.005
"""Seconds between the loop's looks at the collector's count while objects are made."""

GC_IDLE_LOOK = 1.0
"""Seconds between looks once the count stopped moving (an idle bot is not woken 200
times a second)."""


def _now() -> float:
    """asyncio's own clock: urgency orders callbacks, it is never a time of day."""
    return asyncio.get_running_loop().time()


def urgent_for(seconds: float) -> None:
    """Make the current context's work urgent for ``seconds`` from now."""
    URGENT.set(_now() + seconds)


def end_urgency() -> None:
    """The current context's work is no longer urgent (its interaction is answered)."""
    URGENT.set(0.0)


async def answered() -> None:
    """:func:`end_urgency`, then let the urgent work queued meanwhile run first: the task
    calling this goes on (its commit, its edits) only after it, as any other work. The
    step that answered an interaction was itself run as urgent, and without this yield it
    would carry on, all the way to the task's next wait, ahead of every other click."""
    URGENT.set(0.0)
    await asyncio.sleep(0)


def is_urgent(context: contextvars.Context | None = None) -> bool:
    """Whether work scheduled now in ``context`` (None: the current one) goes first."""
    until = URGENT.get() if context is None else context.get(URGENT, 0.0)
    return bool(until) and until > _now()


def urgent_context(seconds: float) -> contextvars.Context:
    """A copy of the current context whose work is urgent for ``seconds`` (0: not urgent,
    whatever the current one is): for a task created with ``context=``."""
    context = contextvars.copy_context()
    context.run(URGENT.set, _now() + seconds if seconds > 0 else 0.0)
    return context


class PriorityEventLoop(asyncio.SelectorEventLoop):
    """asyncio's selector event loop with urgent callbacks first (see the module text)."""

    def __init__(self, *, collect_garbage: bool = False) -> None:
        super().__init__()
        self._first_fds: set[int] = set()
        self._gc_thresholds: tuple[int, int, int] | None = None
        self._gc_last = -1
        self.collections = [0, 0, 0]
        """Collections the loop ran, by generation."""
        if collect_garbage:
            self._gc_thresholds = gc.get_threshold()
            young, older, oldest = self._gc_thresholds
            gc.set_threshold(max(young, GC_BEHIND), older, oldest)
            self.call_soon(self._collect)
            selector: Any = self._selector  # type: ignore[attr-defined]
            wait = selector.select

            def select_when_idle(timeout: float | None = None) -> Any:
                if timeout is None or timeout > 0:  # nothing ready: the loop would wait
                    self._collect_young()
                return wait(timeout)

            selector.select = select_when_idle

    def close(self) -> None:
        if self._gc_thresholds is not None:
            gc.set_threshold(*self._gc_thresholds)  # Python's own again
            self._gc_thresholds = None
        super().close()

    def _collect(self) -> None:
        """One look: collect the young generation (the older ones at Python's own pace:
        every tenth young collection the next one up) when 700 new objects have been made
        and nothing urgent waits; else look again soon. (For a loop that never waits: it
        mostly collects as it is about to wait, :meth:`_collect_young`.)"""
        if self._gc_thresholds is None:
            return
        count = gc.get_count()[0]
        idle = count == self._gc_last
        self._gc_last = count
        if not self._urgent_ahead() and self._collect_young():
            self._gc_last = -1
            idle = False
        self.call_later(GC_IDLE_LOOK if idle else GC_LOOK, self._collect)

    def _collect_young(self) -> bool:
        """Collect now if 700 new objects were made and no gateway frame is waiting: the
        loop calls this as it is about to wait for sockets (nothing ready to run), right
        after a burst of work (a click's commit and edits), when the young generation is
        at its smallest and the next click least likely to be waiting; a collection timed
        by a clock instead met one click in a hundred, a millisecond each. Whether it did."""
        if self._gc_thresholds is None:
            return False
        count, older, oldest = gc.get_count()
        if count < GC_YOUNG or self._frame_waiting():
            return False
        _, every_older, every_oldest = self._gc_thresholds
        generation = 2 if oldest >= every_oldest else 1 if older >= every_older else 0
        gc.collect(generation)
        self.collections[generation] += 1
        return True

    def _urgent_ahead(self) -> bool:
        ready: Any = self._ready  # type: ignore[attr-defined]
        return bool(ready) and type(ready[0]) is _UrgentHandle

    def _frame_waiting(self) -> bool:
        if not self._first_fds:
            return False
        try:
            readable, _, _ = select.select(list(self._first_fds), [], [], 0)
        except (OSError, ValueError):  # a socket closed under us: nothing to wait for
            return False
        return bool(readable)

    def call_soon(
        self,
        callback: Callable[[*Ts], object],
        *args: *Ts,
        context: contextvars.Context | None = None,
    ) -> asyncio.Handle:
        # called for every task step and future wake-up: asyncio's own work inlined (with
        # asyncio's checks in its debug mode), one look at the context's deadline added
        if self._closed:  # type: ignore[attr-defined]
            raise RuntimeError("Event loop is closed")
        if self._debug:  # type: ignore[attr-defined]
            self._check_thread()  # type: ignore[attr-defined]
            self._check_callback(callback, "call_soon")  # type: ignore[attr-defined]
        until = _URGENT_GET() if context is None else context.get(URGENT, 0.0)
        if until and until > self.time():
            handle: asyncio.Handle = _UrgentHandle(callback, args, self, context)
            self._queue_urgent(handle)
        else:
            handle = _Handle(callback, args, self, context)
            self._ready.append(handle)  # type: ignore[attr-defined]
        if self._debug and handle._source_traceback:  # type: ignore[attr-defined]
            del handle._source_traceback[-1]  # type: ignore[attr-defined]  # (as asyncio's)
        return handle

    def _queue_urgent(self, handle: asyncio.Handle) -> None:
        """At the head of the ready queue, after the urgent handles already there."""
        ready: Any = self._ready  # type: ignore[attr-defined]
        ahead = 0
        for queued in ready:
            if type(queued) is not _UrgentHandle:
                break
            ahead += 1
        if ahead == len(ready):
            ready.append(handle)
        else:
            ready.insert(ahead, handle)

    def read_first(self, fd: int) -> None:
        """Reads of the socket ``fd`` go first among the socket events of each pass."""
        self._first_fds.add(fd)

    def read_in_turn(self, fd: int) -> None:
        """Undo :meth:`read_first` (the socket closed)."""
        self._first_fds.discard(fd)

    def _add_callback(self, handle: asyncio.Handle) -> None:
        # the selector loop queues each socket event's reader or writer here
        if self._first_fds and not handle.cancelled() and self._reads_first(handle):
            self._ready.appendleft(handle)  # type: ignore[attr-defined]
            return
        super()._add_callback(handle)  # type: ignore[misc]

    def _reads_first(self, handle: asyncio.Handle) -> bool:
        keys = self._selector.get_map()  # type: ignore[attr-defined]
        for fd in self._first_fds:
            key = keys.get(fd)
            if key is not None and key.data[0] is handle:
                return True
        return False


def new_event_loop() -> asyncio.AbstractEventLoop:
    """The bot's event loop: a :class:`PriorityEventLoop` that collects the garbage
    (asyncio's own on Windows, whose default loop is not a selector loop)."""
    if sys.platform == "win32":
        return asyncio.ProactorEventLoop()
    return PriorityEventLoop(collect_garbage=True)


def run(main: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run(main)`` on :func:`new_event_loop`."""
    with asyncio.Runner(loop_factory=new_event_loop) as runner:
        return runner.run(main)
