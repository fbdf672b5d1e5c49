"""The tables cog's update queue: one coalescing updater per message (see
:mod:`cogs._publish` for why every update but a click's answer goes through it).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

import discord

from cogs._delivery import (
    is_permanent,
)

if TYPE_CHECKING:
    pass

log = logging.getLogger("homegame.tables")

BACKGROUND_EDITS = 16
"""Background Discord calls (edits and posts that no click is waiting for) in flight at
once. Discord allows a bot ~50 requests a second in all; 16 at a time keeps up with that
at real network latency (~100 ms a call), while on a busy event loop it keeps new clicks'
acknowledgements from queueing behind hundreds of edits."""

PRIVATE_FIRST = 1.0
"""Seconds an edit of the table message (a click's answer, or any other change) waits for
the hand DMs the same change edits, so the table never names a player to act before their
DM shows their new card and options (a DM held up by Discord's rate limits does not hold
the table longer)."""


class Coalescer:
    """One updater per message key: at most one job in flight; a job submitted while one
    runs replaces any job still waiting (jobs read the newest state when they run).

    While a click is answered (:meth:`hold`), the jobs its own change submits wait until
    the answer went out; :meth:`run_held` lets some of them (the DM edits) go first.

    At most ``limit`` jobs run at once, over all messages: a burst of changes at many
    tables cannot flood the event loop with edits while new clicks wait to be
    acknowledged (the clicks' own answers are not jobs and are never held back). A job
    submitted ``after`` other keys waits for those first, without holding a slot.

    A job submitted with a ``delay`` (a change nobody must see before the next move) waits
    that long first; changes of its message meanwhile make one edit with it, and nothing
    (a click's answer, a job ``after`` it) waits for it."""

    def __init__(
        self,
        limit: int = BACKGROUND_EDITS,
        *,
        clock: Callable[[], float] | None = None,
        sleep: Callable[[float], Awaitable[None]] | None = None,
    ) -> None:
        self._clock = clock
        """What the delays are counted on (None: the event loop's clock)."""
        self._sleep = sleep
        """What a delay or a wait with a time limit sleeps with (None: the event loop's
        timers). Tests give both from a clock they move: a delay then ends when the test
        says, not after real time a loaded machine stretches."""
        self._pending: dict[str, tuple[Callable[[], Awaitable[None]], Sequence[str], float]] = {}
        self._running: dict[str, asyncio.Task[None]] = {}
        self._sleeping: dict[str, asyncio.Event] = {}
        """key -> set to end the delay its drain is waiting out (a newer job came)."""
        self._slots = asyncio.Semaphore(limit)
        self._flushing = 0
        """How many :meth:`idle` calls wait: delayed jobs then run without their delay."""
        # per task answering a click (not a context variable: tasks started inside the
        # click, such as the service's timers, would inherit it and hold their jobs forever)
        self._held: dict[asyncio.Task[Any], list[str]] = {}

    def submit(
        self,
        key: str,
        job: Callable[[], Awaitable[None]],
        *,
        after: Sequence[str] = (),
        delay: float = 0.0,
    ) -> None:
        """Run ``job`` for ``key`` (replacing one waiting), once the jobs of ``after``
        running now are done (at most :data:`PRIVATE_FIRST` seconds). With ``delay``, the
        job waits that long first, and a job submitted for ``key`` meanwhile replaces it
        (at once if that one has no delay): changes within the delay make one edit."""
        self._pending[key] = (job, after, delay)
        task = asyncio.current_task()
        held = None if task is None else self._held.get(task)
        if key in self._running:
            sleeping = self._sleeping.get(key)
            if sleeping is not None and delay <= 0:
                sleeping.set()  # a change that may not wait: stop waiting, run the newest
            if held is not None and key not in held:
                # a click's change woke a drain that was waiting out a delay: the click's
                # answer waits for it as for the others (run_held), so the table never
                # names a player before their DM shows it, and the next click does not
                # land in the middle of that edit
                held.append(key)
            return  # the running drain picks up the newest job when its edit is done
        if held is not None:
            held.append(key)
        else:
            self._start(key)

    def _start(self, key: str) -> None:
        if key in self._pending and key not in self._running:
            task = self._running[key] = asyncio.create_task(self._drain(key), name=f"update-{key}")
            task.add_done_callback(lambda done: self._ended(key, done))

    def _ended(self, key: str, task: asyncio.Task[None]) -> None:
        """A drain task ended: forget it even if it never ran (a task cancelled before its
        first step skips :meth:`_drain`'s clean-up), so :meth:`idle` does not wait on it."""
        if self._running.get(key) is task:
            del self._running[key]

    @contextlib.contextmanager
    def hold(self) -> Iterator[None]:
        """Within this block (one task: a click), submitted jobs are only queued; they
        start when it ends, after the answer it sends (even if the block fails)."""
        task = asyncio.current_task()
        if task is None or task in self._held:
            yield
            return
        held = self._held[task] = []
        try:
            yield
        finally:
            del self._held[task]
            for key in held:
                self._start(key)

    async def run_held(self, prefix: str, timeout: float) -> None:
        """Start now the jobs held by this task whose key starts with ``prefix``, and wait
        until they are done, or ``timeout`` seconds (they go on in the background)."""
        task = asyncio.current_task()
        held = None if task is None else self._held.get(task)
        if not held:
            return
        keys = [k for k in held if k.startswith(prefix)]
        urgent = [k for k in keys if not self.delayed(k)]
        for key in keys:
            held.remove(key)
            self._start(key)
        running = [self._running[k] for k in urgent if k in self._running]
        if running:
            await self._within(running, timeout)

    async def wait_for(self, keys: Sequence[str], timeout: float) -> None:
        """Wait until the updates of ``keys`` running now are done, or ``timeout`` (not for
        a delayed job: it is a change that need not go first)."""
        running = [self._running[k] for k in keys if k in self._running and not self.delayed(k)]
        if running:
            await self._within(running, timeout)

    def _now(self) -> float:
        return asyncio.get_running_loop().time() if self._clock is None else self._clock()

    async def _within(self, waits: Sequence[asyncio.Future[Any]], seconds: float) -> None:
        """Wait until every one of ``waits`` is done, or ``seconds`` passed (on this
        coalescer's clock); never cancels them."""
        if self._sleep is None:
            await asyncio.wait(waits, timeout=max(0.0, seconds))
            return
        timer = asyncio.ensure_future(self._sleep(max(0.0, seconds)))
        done = asyncio.ensure_future(asyncio.wait(waits))
        try:
            await asyncio.wait({timer, done}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            timer.cancel()
            done.cancel()

    async def _drain(self, key: str) -> None:
        # a stream of changes with the same delay waits at most that delay from the first;
        # a change allowed to wait longer (a hand's end waits for the next deal) extends it
        until: float | None = None
        longest = 0.0
        try:
            while (item := self._pending.pop(key, None)) is not None:
                job, after, delay = item
                if delay > 0 and not self._flushing:
                    if until is None or delay > longest:
                        until, longest = self._now() + delay, delay
                    woken = self._sleeping[key] = asyncio.Event()
                    waiter = asyncio.ensure_future(woken.wait())
                    try:
                        await self._within([waiter], until - self._now())
                    finally:
                        waiter.cancel()
                        self._sleeping.pop(key, None)
                    if key in self._pending:
                        continue  # replaced while waiting: the newest job renders it all
                until, longest = None, 0.0
                try:
                    if after:
                        await self.wait_for(after, PRIVATE_FIRST)
                    async with self._slots:
                        await job()
                except discord.HTTPException as exc:
                    if not is_permanent(exc):
                        log.exception("update of %s failed", key)
                    else:  # retrying cannot help: one line, and the next job goes on
                        log.warning("update of %s refused by Discord: %s", key, exc)
                except Exception:
                    log.exception("update of %s failed", key)
        finally:
            if self._running.get(key) is asyncio.current_task():
                del self._running[key]

    def delayed(self, key: str) -> bool:
        """Whether the job of ``key`` waiting or running now is a delayed one."""
        pending = self._pending.get(key)
        if pending is not None:
            return pending[2] > 0
        return key in self._sleeping

    async def idle(self) -> None:
        """Wait until no update is running or waiting (tests, shutdown). A delayed job
        runs now instead of waiting out its delay: what it shows is due, and nothing may
        be left unshown when the bot stops."""
        self._flushing += 1
        try:
            while self._running:
                for woken in list(self._sleeping.values()):
                    woken.set()
                await asyncio.gather(*self._running.values(), return_exceptions=True)
        finally:
            self._flushing -= 1

    async def close(self, timeout: float) -> None:
        """A cog unloading (the bot stopping): send what the last changes show, waiting at
        most ``timeout`` seconds, then drop whatever is left."""
        try:
            await asyncio.wait_for(self.idle(), timeout)
        except TimeoutError:
            log.warning("stopping with message updates still unsent")
        self.cancel()

    def cancel(self) -> None:
        self._pending.clear()
        for task in self._running.values():
            task.cancel()
