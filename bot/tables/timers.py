"""The TableService's timers (a part of :class:`bot.tables.service.TableService`).

Deadlines are stored in the table row in whole seconds (they survive a restart); the exact
time each stands for is kept in memory (a 0.05 s autostart is not a 1 s one). One asyncio
task per table sleeps until its deadline and runs :meth:`TableTimers.tick`. A refused
command leaves all of this alone; a timer that wakes with nothing due arms again for the
table's real deadline, and one whose due step fails tries again after :data:`TIMER_RETRY`
seconds, so a table never stays without its timer (issue 11, item 1).

A restart after the clock passed an action deadline (the bot was down when a window ran
out) does not time everyone out at once: nobody could act while the bot was down, so the
window opens again for its full length from the restart, and the channel is told
(:meth:`TableTimers._reopen_missed`). The idle rules (timeouts, away, the idle pause)
count only what players let run out while the bot was up.
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from bot.tables.errors import TableClosed, UnpayableHand

if TYPE_CHECKING:
    from bot.store import Tx
    from bot.tables.live import LiveTable, Step

log = logging.getLogger("bot.tables.service")

TIMER_RETRY = 5.0
"""Seconds before a table's timer tries again after its due step failed."""


class TableTimers:
    """Mixin of the TableService: what it needs of the service is declared below."""

    clock: Callable[[], float]
    sleep: Callable[[float], Awaitable[None]]
    timers: bool
    _running: bool
    _tables: dict[int, LiveTable]
    _timer_tasks: dict[int, asyncio.Task[None]]
    _timer_deadline: dict[int, float | None]
    _exact: dict[int, tuple[int, float]]
    _closing: set[int]
    _run: Callable[..., Awaitable[tuple[LiveTable, Any, Any]]]
    _get: Callable[[int], Awaitable[LiveTable]]
    _pace_bank: Callable[[LiveTable, Step], bool]
    _start_hand: Callable[..., Awaitable[bool]]
    _emit: Callable[..., Awaitable[None]]
    _after: Callable[..., Awaitable[None]]

    def _deadline_in(self, live: LiveTable, seconds: float) -> int:
        """The deadline ``seconds`` from now as stored (whole seconds, rounded up); the exact
        time is kept in memory for the timer (a 0.05 s autostart is not a 1 s one)."""
        exact = self.clock() + seconds
        deadline = math.ceil(exact)
        self._exact[live.id] = (deadline, exact)
        return deadline

    def _due_at(self, live: LiveTable) -> float | None:
        """When the table's deadline falls: the exact time set by this process, else (after
        a restart, or once the deadline changed) the stored whole second."""
        if live.deadline is None:
            return None
        stored, exact = self._exact.get(live.id, (None, 0.0))
        return exact if stored == live.deadline else float(live.deadline)

    def _arm(self, live: LiveTable) -> None:
        """Keep one timer per table, sleeping until the table's deadline (the exact time it
        stands for, see :meth:`_due_at`); none without a deadline."""
        if not self.timers or not self._running:
            return
        tid = live.id
        if tid in self._closing:
            return  # the close cancels the timer; a refused close arms it again
        # a paused or closed table waits for no deadline (``tick`` would find nothing due)
        when = self._due_at(live) if live.status not in ("closed", "paused") else None
        if self._timer_deadline.get(tid, -1) == when and tid in self._timer_tasks:
            return
        old = self._timer_tasks.pop(tid, None)
        current = asyncio.current_task()
        if old is not None and old is not current:
            old.cancel()
        self._timer_deadline[tid] = when
        if when is None:
            return
        self._timer_tasks[tid] = asyncio.get_running_loop().create_task(
            self._timer(tid, when), name=f"table-{tid}-timer"
        )

    async def _timer(self, table_id: int, when: float) -> None:
        try:
            await self.sleep(max(0.0, when - self.clock()))
            if self._timer_tasks.get(table_id) is asyncio.current_task():
                del self._timer_tasks[table_id]
                self._timer_deadline.pop(table_id, None)
            await self.tick(table_id)
        except asyncio.CancelledError:
            raise
        except TableClosed:
            return  # closed meanwhile: no timer to keep
        except Exception:
            log.exception("timer of table %s failed; trying again in %s s", table_id, TIMER_RETRY)
        else:
            return
        # the due step failed (nothing was committed): try again later rather than leave
        # the table without a timer until someone acts
        me = asyncio.current_task()
        if table_id in self._timer_tasks or me is None:
            return  # a newer timer runs already
        self._timer_tasks[table_id] = me
        self._timer_deadline[table_id] = None
        await self.sleep(TIMER_RETRY)
        if self._timer_tasks.get(table_id) is not me:
            return
        del self._timer_tasks[table_id]
        self._timer_deadline.pop(table_id, None)
        live = self._tables.get(table_id)
        if live is None:
            try:
                live = await self._get(table_id)
            except Exception:
                log.exception("table %s cannot be loaded for its timer", table_id)
                return
        self._arm(live)

    async def tick(self, table_id: int, *, force: bool = False) -> bool:
        """The timer hook: if the table's deadline has passed (or ``force``), run what is
        due: the engine's default actions for everyone whose time ran out (announced), or
        the next hand. Returns whether anything happened."""

        def due(live: LiveTable) -> bool:
            if live.deadline is None or live.status in ("paused", "closed"):
                return False
            if live.id in self._closing:
                return False  # a close is pending: nothing more is dealt or played
            due_at = self._due_at(live)
            return force or (due_at is not None and self.clock() >= due_at)

        async def do(live: LiveTable, tx: Tx, step: Step) -> bool:
            fam = live.family
            if live.pending == "next_hand" and not fam.hand_running:
                await self._start_hand(live, tx, step, strict=False)
                return True
            if fam.hand_running and not fam.paused:
                if self._pace_bank(live, step):
                    return True  # the decision clock ran out: the player's time bank starts
                events, who = fam.timeout()
                for seat, what in who:
                    step.announcements.append(f"{live.name(seat)} timed out; the table {what}")
                    step.actors.add(live.user(seat))
                step.new_turn = True
                await self._emit(live, tx, step, events)
                await self._after(live, tx, step)
                return True
            live.deadline = None
            return False

        try:
            _, ret, _ = await self._run(table_id, do, prepare=due)
        except UnpayableHand:
            return True  # the hand was voided (announced); the table goes on
        return bool(ret)

    def _missed_while_down(self, live: LiveTable) -> bool:
        """Whether the table's action deadline passed before this process could act on it
        (called at start-up: the bot was down when it fell). The deadline between two
        hands is no decision window (the next hand is simply dealt), unless the table
        waits for a decision there: a dealer's pick (issue 19, item 21)."""
        fam = live.family
        if live.deadline is None or live.status != "running" or self.clock() < live.deadline:
            return False
        if live.pending == "next_hand" and not fam.hand_running:
            return fam.awaited_choice() is not None
        return live.pending != "next_hand" and fam.hand_running and not fam.paused

    async def _reopen_missed(self, live: LiveTable) -> None:
        """Give the players of a window that ran out while the bot was down the window
        again, its full length from now, and say so in the channel (one line)."""

        async def do(live: LiveTable, tx: Tx, step: Step) -> None:
            fam = live.family
            choice = None if fam.hand_running else fam.awaited_choice()
            if choice is not None:
                # a dealer's pick: the same window again, not the default game dealt
                seat, window = choice
                live.deadline = self._deadline_in(live, window)
                if seat in live.seats:
                    step.touched.add(live.user(seat))
                    step.announcements.append(
                        f"The bot was offline when the time to pick ran out: "
                        f"{live.name(seat)} gets a fresh {window:g}-second window to pick "
                        "the next game"
                    )
                return
            seconds = fam.decision_seconds
            live.deadline = self._deadline_in(live, seconds)
            # a time bank that was running: it starts again after this window, as full as
            # it was when it started (nobody could act while the bot was down)
            live.pace.interrupt_bank()
            seats = sorted(s for s in fam.to_act() if s in live.seats)
            step.touched.update(live.user(s) for s in seats)  # their DMs show the deadline
            names = [live.name(s) for s in seats]
            if not names:
                return
            who = ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0]
            step.announcements.append(
                f"The bot was offline when the time to act ran out: {who} "
                f"{'get' if len(names) > 1 else 'gets'} a fresh {seconds}-second window"
            )

        try:
            await self._run(live.id, do, prepare=self._missed_while_down)
        except TableClosed:
            return
        except Exception:
            # the stored deadline stays: its timer fires at once (the old behaviour) rather
            # than the table staying without a timer
            log.exception("reopening the window of table %s after the restart failed", live.id)
            restored = self._tables.get(live.id)
            if restored is not None:
                self._arm(restored)

    def _cancel_timer(self, table_id: int) -> None:
        task = self._timer_tasks.pop(table_id, None)
        self._timer_deadline.pop(table_id, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()
