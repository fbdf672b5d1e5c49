"""A clock that a test or a bench moves, with the service's timers sleeping on it (the
whole bot's injected clock: the store's rows, the service's deadlines, the turn pings).
``advance`` wakes every timer whose time has come, so an evening of play takes no real
waiting and no result depends on how busy the machine is."""

from __future__ import annotations

import asyncio

__all__ = ["VirtualClock"]


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
