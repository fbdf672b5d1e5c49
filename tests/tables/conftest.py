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
from bot.testing.clock import VirtualClock as VirtualClock  # the tests import it here too

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
