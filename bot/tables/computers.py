"""The TableService's computer players (a part of :class:`bot.tables.service.TableService`):
the engine policies' moves, played through :meth:`~bot.tables.service.TableService.act` like
any player's, and the hint the sandbox plays its users by.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable
from typing import Any

from bot.engine.actions import Action
from bot.engine.errors import HomeGameError
from bot.tables.errors import StaleAction
from bot.tables.live import LiveTable
from bot.tables.views import PrivateView

log = logging.getLogger("bot.tables.service")


class TableComputers:
    """Mixin of the TableService: what it needs of the service is declared below."""

    timers: bool
    computer_delay: float
    _running: bool
    _tables: dict[int, LiveTable]
    _bg: set[asyncio.Task[Any]]
    _policy_rng: random.Random
    _lock: Callable[[int], asyncio.Lock]
    act: Callable[..., Awaitable[PrivateView]]

    def _maybe_computers(self, live: LiveTable) -> None:
        if not self.timers or not self._running or live.status != "running":
            return
        fam = live.family
        if not fam.hand_running:
            return
        if any(live.seats[s].is_computer for s in fam.to_act() if s in live.seats):
            task = asyncio.get_running_loop().create_task(self._computers_later(live.id))
            self._bg.add(task)
            task.add_done_callback(self._bg.discard)

    async def _computers_later(self, table_id: int) -> None:
        await asyncio.sleep(self.computer_delay)
        try:
            await self.play_computers(table_id, max_actions=1)
        except Exception:
            log.exception("computer players of table %s failed", table_id)

    def suggested_action(
        self, table_id: int, user_id: int, rng: random.Random | None = None
    ) -> Action | None:
        """What the engine's computer policy would play for ``user_id``'s seat now, on the
        last committed state; None when that seat may not act (or a change is being
        committed: ask again). A hint only: the action is then made through :meth:`act`,
        like any other (the sandbox plays its users this way)."""
        live = self._tables.get(table_id)
        if (
            live is None
            or self._lock(table_id).locked()
            or live.status != "running"
            or not live.family.hand_running
        ):
            return None
        info = live.seat_of(user_id)
        if info is None or info.seat_no not in live.family.to_act():
            return None
        try:
            return live.family.computer_action(info.seat_no, rng or self._policy_rng)
        except HomeGameError:
            return None

    def computer_moves(self, table_id: int) -> list[tuple[int, Action]]:
        """(user id, action) of each computer seat that may act now, by the engine policies."""
        live = self._tables.get(table_id)
        if live is None or live.status != "running" or not live.family.hand_running:
            return []
        out = []
        for seat in sorted(live.family.to_act()):
            info = live.seats.get(seat)
            if info is not None and info.is_computer:
                out.append((info.user_id, live.family.computer_action(seat, self._policy_rng)))
        return out

    async def play_computers(self, table_id: int, *, max_actions: int | None = None) -> int:
        """Let the computer seats act through :meth:`act` (the same path as a player)
        until none may act; returns how many actions were taken."""
        done = 0
        while max_actions is None or done < max_actions:
            if table_id not in self._tables:
                break
            # choose on a committed state (never one half-way through another action)
            async with self._lock(table_id):
                live = self._tables.get(table_id)
                if live is None:
                    break
                moves = self.computer_moves(table_id)
                version = live.version
            if not moves:
                break
            user_id, action = moves[0]
            card = None if action.card is None else str(action.card)
            try:
                await self.act(
                    table_id,
                    user_id,
                    action.kind,
                    card=card,
                    amount=action.amount,
                    version=version,
                )
            except StaleAction:
                # the table moved on before this move (another task played it, a timer
                # fired): the newer state schedules its own computer moves
                break
            done += 1
        return done
