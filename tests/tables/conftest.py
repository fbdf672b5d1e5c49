"""Fixtures: a real SQLite store in a temp dir, a clock the test moves, a seeded service."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.store import Store
from bot.tables import Published, TableService

GUILD = 2001
ALICE, BOB, CAROL = 21, 22, 23


class Clock:
    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


class Recorder:
    """A subscriber that keeps everything published."""

    def __init__(self) -> None:
        self.published: list[Published] = []

    async def publish(self, published: Published) -> None:
        self.published.append(published)

    @property
    def announcements(self) -> list[str]:
        return [a for p in self.published for a in p.announcements]


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "homegame.db"


@pytest.fixture
async def store(db_path: Path, clock: Clock) -> AsyncIterator[Store]:
    s = await Store.open(db_path, clock=clock)
    yield s
    await s.close()


@pytest.fixture
def recorder() -> Recorder:
    return Recorder()


def seeded(seed: int) -> Callable[[], random.Random]:
    master = random.Random(seed)
    return lambda: random.Random(master.getrandbits(64))


@pytest.fixture
async def service(store: Store, clock: Clock, recorder: Recorder) -> AsyncIterator[TableService]:
    svc = TableService(
        store,
        clock=clock,
        rng_factory=seeded(7),
        subscriber=recorder,
        autostart_delay=3.0,
        timers=False,
    )
    await svc.start_service()
    yield svc
    await svc.stop_service()


class VirtualClock:
    """A clock the test moves, with the service's timers sleeping on it: ``advance`` wakes
    every timer whose time has come (no real waiting for a 10 s decision window). Starts a
    quarter past a whole second, so an exact deadline and its stored whole second differ."""

    def __init__(self, now: float = 1_800_000_000.25) -> None:
        self.now = now
        self._sleepers: list[tuple[float, asyncio.Future[None]]] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        entry = (self.now + seconds, fut)
        self._sleepers.append(entry)
        try:
            await fut
        finally:
            self._sleepers.remove(entry)

    def advance(self, seconds: float) -> None:
        self.now += seconds
        for when, fut in list(self._sleepers):
            if when <= self.now and not fut.done():
                fut.set_result(None)

    @property
    def sleeping(self) -> int:
        """How many timers wait on this clock."""
        return sum(1 for _, f in self._sleepers if not f.done())


HANG = 60.0
"""Seconds after which a wait is taken to hang: a guard against a test that would never
end, never a measure of speed (timers run on :class:`VirtualClock`, which the test moves)."""


async def wait_for(check: Callable[[], Any], *, timeout: float = HANG, what: str = "") -> Any:
    """Poll ``check`` (sync or async) until it is truthy (the timer's work goes through the
    store's thread); ``timeout`` is a hang guard (:data:`HANG`)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while True:
        got = check()
        if asyncio.iscoroutine(got):
            got = await got
        if got:
            return got
        if loop.time() > end:
            raise AssertionError(f"timed out waiting for {what or check}")
        await asyncio.sleep(0.01)
