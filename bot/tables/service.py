"""The TableService: the only place that mutates a table (DESIGN.md).

Per action: take the table's ``asyncio.Lock``; check who acts; apply the action on the
engine (through :mod:`bot.tables.games`, so no game rule lives here); write the ledger
entries, the hand's events and the new snapshot, version and deadline in ONE store
transaction; if anything fails, reload the table from its last saved state (nothing
changed); release the lock; then hand a :class:`Published` to the subscriber.

Deadlines are stored in the table row, so timers survive a restart: one asyncio task per
table sleeps until its deadline and then runs :meth:`TableService.tick` (the engine's
default actions, or the next hand after ``autostart_delay``).

This module is the core (a mutation's path, the engine's steps, a hand's start, end and the
next one's schedule, and :meth:`TableService.act`); the rest of the service is in mixins it
inherits: :mod:`bot.tables.live` (the table in memory), :mod:`bot.tables.writes` (one round
trip per mutation), :mod:`bot.tables.viewing` (the committed views and reads),
:mod:`bot.tables.seating` (sitting, leaving, the host's controls),
:mod:`bot.tables.computers`, :mod:`bot.tables.timers`, :mod:`bot.tables.chips`,
:mod:`bot.tables.privacy` and :mod:`bot.tables.pacing` (the time bank, choices made in
advance, sitting out, the host's stakes).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Protocol

from bot.engine.actions import Action
from bot.engine.cards import parse_card
from bot.engine.errors import IllegalAction, NotYourTurn
from bot.engine.events import Event
from bot.engine.shuffle import commitment, new_seed
from bot.engine.verify import with_shuffle_fields
from bot.store import HandFinish, HandResult, Overdraft, Store, Tx
from bot.tables.busting import bust_notices
from bot.tables.chips import TableChips
from bot.tables.choices import TableChoices
from bot.tables.computers import TableComputers
from bot.tables.errors import NotSeated, StaleAction, TableClosed, UnpayableHand
from bot.tables.house_service import TableHouse
from bot.tables.live import PRACTICE_CHIPS, RECENT, LiveTable, Step
from bot.tables.pacing import TablePace
from bot.tables.privacy import TablePrivacy
from bot.tables.seating import TableSeating
from bot.tables.timers import TableTimers
from bot.tables.tournament import TableDirector, TableTournament
from bot.tables.viewing import TableViewing
from bot.tables.views import PrivateView, Published, TableView
from bot.tables.writes import TableWrites

log = logging.getLogger(__name__)

RABBITS_KEPT = 10
"""How many finished hands' rabbits a table keeps for their results' Rabbit buttons."""


class TableSubscriber(Protocol):
    async def publish(self, published: Published) -> None: ...


class TableService(
    TableTimers,
    TableChips,
    TableViewing,
    TableComputers,
    TableSeating,
    TableWrites,
    TableChoices,
    TableHouse,
    TablePrivacy,
    TablePace,
    TableTournament,
):
    """See the module docstring and ``/work/notes/service_api.md`` (the contract)."""

    def __init__(
        self,
        store: Store,
        *,
        clock: Callable[[], float] = time.time,
        rng_factory: Callable[[], random.Random] = secrets.SystemRandom,
        subscriber: TableSubscriber | None = None,
        autostart_delay: float = 3.0,
        timers: bool = True,
        computer_delay: float = 1.0,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.store = store
        self.clock = clock
        self.sleep = sleep
        """What a table's timer sleeps with (tests: one that follows a clock they move)."""
        self.rng_factory = rng_factory
        self.subscriber = subscriber
        self.autostart_delay = autostart_delay
        self.timers = timers
        """False: no asyncio timers (simulations, tests): call :meth:`tick` yourself."""
        self.computer_delay = computer_delay
        self._tables: dict[int, LiveTable] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self._timer_tasks: dict[int, asyncio.Task[None]] = {}
        self._timer_deadline: dict[int, float | None] = {}
        """Table id -> the time its timer task sleeps until."""
        self._exact: dict[int, tuple[int, float]] = {}
        """Table id -> (stored deadline, the exact time it stands for)."""
        self._bg: set[asyncio.Task[Any]] = set()
        self._views: dict[int, TableView] = {}
        """Table id -> the view of its last committed state, while nothing newer committed
        (what :meth:`view` serves: never a state half-way through a mutation)."""
        self._privs: dict[int, dict[int, PrivateView]] = {}
        """Table id -> user id -> private view of the last committed state (as above)."""
        self._marks: dict[int, dict[int, tuple[Any, ...]]] = {}
        """Table id -> the private marks of the last committed state (see _private_marks)."""
        self._policy_rng = rng_factory()
        self._running = False
        self._closing: set[int] = set()
        """Tables a close was asked for (``/table end``), until it is done: no game is
        dealt there any more, and no timer is armed (see :meth:`end`)."""
        self.director: TableDirector | None = None
        """A tournament's tables ask it their stakes and tell it their hands' ends
        (bot/tables/tournament.py; the tournament service sets itself here)."""

    # =============================================================== lifecycle

    async def start_service(self) -> None:
        """Load every live table (snapshot, seats) and arm its timer; an action deadline
        that passed while the bot was down opens again (see :mod:`bot.tables.timers`)."""
        async with self.store.read() as tx:
            tables = await tx.live_tables()
            loaded = [(t, await tx.seats(t.id)) for t in tables]
        self._running = True
        missed: list[LiveTable] = []
        for table, seats in loaded:
            live = LiveTable.from_store(table, seats)
            self._tables[live.id] = live
            if self._missed_while_down(live):
                missed.append(live)  # armed by the reopening, not for a deadline now past
                continue
            self._arm(live)
            self._maybe_computers(live)
        for live in missed:
            await self._reopen_missed(live)

    async def stop_service(self) -> None:
        """Cancel timers and background tasks; deadlines stay stored."""
        self._running = False
        tasks = [*self._timer_tasks.values(), *self._bg]
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(BaseException):
                await t
        self._timer_tasks.clear()
        self._timer_deadline.clear()
        self._exact.clear()
        self._closing.clear()
        self._bg.clear()
        self._tables.clear()
        self._views.clear()
        self._privs.clear()
        self._marks.clear()

    # =============================================================== plumbing

    def _lock(self, table_id: int) -> asyncio.Lock:
        lock = self._locks.get(table_id)
        if lock is None:
            lock = self._locks[table_id] = asyncio.Lock()
        return lock

    async def _load(self, table_id: int) -> LiveTable:
        async with self.store.read() as tx:
            table = await tx.table(table_id)
            seats = await tx.seats(table_id)
        live = LiveTable.from_store(table, seats)
        if live.status == "closed":
            self._tables.pop(table_id, None)
        else:
            self._tables[table_id] = live
        return live

    async def _get(self, table_id: int) -> LiveTable:
        live = self._tables.get(table_id)
        if live is not None:
            return live
        from bot.store import NotFound

        try:
            live = await self._load(table_id)
        except NotFound:
            raise TableClosed(f"there is no table {table_id}") from None
        if live.status == "closed":
            raise TableClosed(f"table {table_id} is closed")
        return live

    def now(self) -> float:
        return self.clock()

    async def _run(
        self,
        table_id: int,
        do: Callable[[LiveTable, Tx, Step], Awaitable[Any]],
        *,
        prepare: Callable[[LiveTable], bool | None] | None = None,
        version: int | None = None,
        want: Callable[[LiveTable], Any] | None = None,
        settle: bool = True,
    ) -> tuple[LiveTable, Any, Any]:
        """One mutation: lock, check, one transaction, reload on failure, publish.

        Returns the table, what ``do`` returned and what ``want`` built from the committed
        state (called under the lock, right after the commit: e.g. the caller's view).
        A payment the hand cannot make (a wallet smaller than the game knew, ``settle``)
        voids the hand and raises :class:`UnpayableHand` (see :meth:`_settle_short_wallet`)."""
        try:
            return await self._run_once(table_id, do, prepare=prepare, version=version, want=want)
        except Overdraft as exc:
            if not settle:
                raise
            text = await self._settle_short_wallet(table_id, exc)
            if text is None:
                raise
            raise UnpayableHand(text) from None

    async def _run_once(
        self,
        table_id: int,
        do: Callable[[LiveTable, Tx, Step], Awaitable[Any]],
        *,
        prepare: Callable[[LiveTable], bool | None] | None,
        version: int | None,
        want: Callable[[LiveTable], Any] | None,
    ) -> tuple[LiveTable, Any, Any]:
        await self._get(table_id)
        async with self._lock(table_id):
            live = self._tables.get(table_id)
            if live is None:
                live = await self._get(table_id)
            if live.status == "closed":
                raise TableClosed(f"table {table_id} is closed")
            if version is not None and version != live.version:
                raise StaleAction()
            if prepare is not None and prepare(live) is False:
                out = None if want is None else want(live)
                # e.g. a timer that woke before the deadline (it moved, or the clock drifted):
                # the table keeps a timer for its real deadline
                self._arm(live)
                return live, None, out
            exact = self._exact.get(table_id)
            step = Step()
            # who may act before: only the subscriber's "private view changed" needs it (the
            # last commit's marks when kept, they are of this very state)
            if self.subscriber is not None:
                step.before = self._marks.get(table_id) or self._private_marks(live)
            # from here on ``live`` is half-applied until the commit: readers get the views
            # kept of the last committed state (a failure leaves them true), never it
            try:
                # lazy: the engine's step runs outside the store's writers' queue; a plain
                # action then costs one round trip (BEGIN, its writes, COMMIT)
                async with self.store.transaction(lazy=True) as tx:
                    ret = await do(live, tx, step)
                    if step.closed:
                        live.status = "closed"
                        live.deadline = None
                        await self._flush(live, tx, step)
                    else:
                        self._pace_commit(live, step)
                        saved = await self._flush(
                            live,
                            tx,
                            step,
                            balances=step.predicted is not None,
                            save=True,
                            commit=True,
                        )
                        assert saved is not None and saved.version is not None
                        live.version = saved.version
            except BaseException:
                # nothing was committed: forget the in-memory changes. A refusal leaves the
                # timer alone: the deadline stored is still the table's, and so is the exact
                # time it stands for (a deadline set by the failed step is forgotten)
                self._tables.pop(table_id, None)
                if exact is None:
                    self._exact.pop(table_id, None)
                else:
                    self._exact[table_id] = exact
                with contextlib.suppress(Exception):
                    await self._load(table_id)
                raise
            self._forget_views(table_id)  # committed: the views kept are of the old state
            recheck = False
            if step.closed:
                self._tables.pop(table_id, None)
                self._exact.pop(table_id, None)
                live.version += 1
            elif step.predicted is not None:
                recheck = self._check_prediction(live, step, saved.balances)
            published = self._published(live, step) if self.subscriber else None
            out = None if want is None else want(live)
        self._arm(live)
        if published is not None:
            await self._publish(published)
        if recheck:
            await self._recheck_next(table_id)
        self._maybe_computers(live)
        if step.tournament_hand:
            self._tell_director(live)
        return live, ret, out

    async def _run_view(
        self, table_id: int, do: Callable[[LiveTable, Tx, Step], Awaitable[Any]]
    ) -> TableView:
        """:meth:`_run` returning the committed table view."""
        _, _, view = await self._run(table_id, do, want=self._committed_view)
        assert isinstance(view, TableView)
        return view

    async def _publish(self, published: Published) -> None:
        if self.subscriber is None:
            return
        try:
            await self.subscriber.publish(published)
        except Exception:
            log.exception("subscriber failed on table %s", published.view.table_id)

    # =============================================================== engine steps

    async def _emit(
        self, live: LiveTable, tx: Tx, step: Step, events: list[Event], *, note: str = ""
    ) -> None:
        """Book the engine's events: ledger rows for their chips, the hand log, sentences
        (the writes are sent with the step's others, see :meth:`_flush`); ``note`` ends the
        first sentence (an action chosen in advance says so)."""
        if not events:
            return
        await self._pend(live, tx, step)
        for e in events:
            for move in e.chips:
                user_id = live.user(move.seat)
                if not live.practice:
                    step.moves.append((user_id, move.amount, move.kind))
                if move.amount > 0 or move.kind == "refund":
                    live.paid[move.seat] = live.paid.get(move.seat, 0) + move.amount
                else:
                    live.won[move.seat] = live.won.get(move.seat, 0) - move.amount
            if e.visible_to is not None and e.visible_to in live.seats:
                step.touched.add(live.user(e.visible_to))
            text = live.family.describe(e, live.name)
            if text:
                live.recent.append(text + note)
                note = ""
        del live.recent[:-RECENT]
        if live.hand_id is not None:
            step.log.extend(events)
        step.events.extend(events)
        if live.family.new_turn(events):
            step.new_turn = True
        res = live.family.result_text(events, live.name)
        if res:
            live.result = res
            step.results.append(res)
            step.results_after.append(len(step.announcements))

    async def _stacks(self, live: LiveTable, tx: Tx, step: Step) -> dict[int, int]:
        """Each seat's chips now (wallet balances, read with the step's pending writes sent
        first; play chips at a practice table)."""
        out: dict[int, int] = {}
        wallets: Mapping[int, int] = {}
        if not live.practice:
            rec = await self._flush(live, tx, step, balances=True)
            assert rec is not None
            wallets = rec.balances
        for seat, info in sorted(live.seats.items()):
            if info.user_id in live.leaving:
                continue
            if live.practice:
                chips = live.practice_stacks.get(info.user_id, PRACTICE_CHIPS)
            else:
                chips = wallets[info.user_id]
            live.balances[info.user_id] = chips
            out[seat] = chips
        return out

    def _away(self, live: LiveTable) -> frozenset[int]:
        if live.tournament_id is not None:
            return frozenset()  # TDA: every player of a tournament is dealt in
        return frozenset(s for s, i in live.seats.items() if i.away)

    async def _start_hand(self, live: LiveTable, tx: Tx, step: Step, *, strict: bool) -> bool:
        if live.id in self._closing:
            # no game is dealt once a close is pending (it would only be voided at once)
            if strict:
                raise TableClosed("the table is being closed")
            return False
        if live.tournament_id is not None and not self._tournament_gate(live, step):
            return False  # a break, the director's pause, a table being broken
        await self._pace_start(live, tx, step)  # the next hand's stakes, who sits out
        if step.closed:
            return False  # the last player's seat was freed
        stacks = await self._stacks(live, tx, step)
        reason = live.family.start_reason(stacks, self._away(live))
        if reason is not None:
            if strict:
                raise IllegalAction(reason)
            live.status = "open"
            live.pending = None
            live.deadline = None
            step.announcements.append(f"Waiting for players: {reason}.")
            return False
        await self._flush(live, tx, step)
        seed = None
        if live.verifiable:
            # the seed whose commitment the table showed; the next hand's is drawn now
            seed = live.next_seed or new_seed()
            live.seed, live.next_seed = seed, new_seed()
        game = live.family.hand_game(stacks, self._away(live))
        hand = await tx.begin_hand(live.id, game=game, seed=seed)
        live.hand_id = hand.id
        live.hand_number = hand.number
        live.paid, live.won = {}, {}
        live.pending = None
        live.result = None
        live.status = "running"
        blinds = {seat: info.blind for seat, info in live.seats.items() if info.blind}
        events = live.family.start_hand(
            stacks, self._away(live), self.rng_factory(), seed=seed, blinds=blinds or None
        )
        for seat in blinds:
            if live.family.in_hand(seat):
                live.seats[seat].blind = None  # dealt in: no longer new to the table
        self._pace_dealt(live)
        step.new_turn = True
        step.touched.update(live.user(s) for s in live.seats if live.family.in_hand(s))
        await self._emit(live, tx, step, events)
        await self._after(live, tx, step)
        return True

    async def _after(self, live: LiveTable, tx: Tx, step: Step) -> None:
        """Whatever follows an engine step: leavers' turns, the hand's end, the deadline."""
        fam = live.family
        while fam.hand_running and not fam.paused:
            auto = sorted(s for s in fam.to_act() if live.user(s) in live.leaving)
            if not auto:
                # a choice made in advance is taken as soon as its turn comes
                if await self._pace_auto(live, tx, step):
                    continue
                break
            for seat in auto:
                if seat in fam.to_act():
                    d = fam.default_action(seat)
                    act = Action(seat, d.kind, card=d.card)
                    step.actors.add(live.user(seat))
                    await self._emit(live, tx, step, fam.apply(act))
        if fam.hand_over and live.hand_id is not None:
            await self._finish_hand(live, tx, step)
            return
        if fam.hand_running:
            if fam.paused:
                live.status = "paused"
                live.deadline = None
            elif live.status == "paused":
                live.deadline = None  # /table pause: no countdown until it is resumed
            elif step.new_turn or live.deadline is None:
                live.deadline = self._deadline_in(live, fam.decision_seconds)

    async def _finish_hand(self, live: LiveTable, tx: Tx, step: Step) -> None:
        fam = live.family
        assert live.hand_id is not None
        end = fam.finish(live.name)
        # the seats the game was set up with that are still at the table (a guts player
        # who sat the game out may have left during it; seat numbers are never reused)
        stacks = {s: chips for s, chips in fam.stacks().items() if s in live.seats}
        results = [
            HandResult(
                user_id=live.user(seat),
                seat_no=seat,
                paid=live.paid.get(seat, 0),
                won=live.won.get(seat, 0),
                won_pot=seat in end.winners,
                detail=dict(end.detail.get(seat, {})),
            )
            for seat in sorted(live.seats)
            if fam.in_hand(seat)
        ]
        await self._pend(live, tx, step)
        rabbit = fam.rabbit() if live.tournament_id is None else None  # off in tournaments
        if rabbit:
            # the board the hand would have had: its result's Rabbit button (house.py)
            live.rabbits[live.hand_number] = rabbit
            for old in sorted(live.rabbits)[:-RABBITS_KEPT]:
                del live.rabbits[old]
            step.rabbit_hand = live.hand_number
        history, summary = end.history, dict(end.summary)
        if live.tournament_id is not None:
            history, summary = self._tournament_history(live, history, summary)
        if live.verifiable and live.seed is not None:
            # the commitment only: the seed is published when the table closes (/history)
            history = with_shuffle_fields(history, commitment=commitment(live.seed))
        step.finish = HandFinish(results, history, summary)
        live.hand_id = None
        for seat, chips in stacks.items():
            uid = live.user(seat)
            live.balances[uid] = chips
            if live.practice:
                live.practice_stacks[uid] = chips
        step.touched.update(live.user(s) for s in stacks)
        if live.tournament_id is not None:
            await self._tournament_hand_end(live, tx, step, stacks, summary, fam.dealer)
        step.announcements.extend(await bust_notices(tx, live, stacks))
        for seat in sorted(end.newly_away if live.tournament_id is None else ()):
            info = live.seats.get(seat)
            if info is not None and not info.away:
                await tx.update_seat(live.id, info.user_id, away=True)
                info.away = True
                step.announcements.append(
                    f"{live.name(seat)} let two windows run out and sits out until they press Join"
                )
        for uid in sorted(live.leaving):
            await self._remove(live, tx, step, uid)
        live.leaving.clear()
        if step.closed:
            return
        live.deadline = None
        if end.pause_reason is not None and live.tournament_id is None:
            live.status = "paused"
            live.pending = None
            step.announcements.append(f"Table paused: {end.pause_reason}")
            return
        if live.status == "paused":
            # /table pause, then a Leave or a kick ended the hand (issue 19, item 19): the
            # next hand waits for /table resume, as everything at a paused table does
            live.pending = None
            step.announcements.append("The table is paused: the next hand waits for a resume")
            return
        await self._schedule_next(live, tx, step, predict=True)

    async def _schedule_next(
        self, live: LiveTable, tx: Tx, step: Step, *, predict: bool = False
    ) -> None:
        """Set the next hand going (or wait for players). ``predict`` (at a hand's end): go
        by the balances known without a read (the hand's final stacks: each wallet moved
        with its seat's chips); the commit reads the real ones in the same round trip and
        :meth:`_check_prediction` corrects the rare miss (a grant during the hand)."""
        await self._pace_between(live, tx, step)  # who pressed Sit out next hand sits out
        if predict and not live.practice:
            stacks = {
                seat: live.balances.get(info.user_id, 0)
                for seat, info in sorted(live.seats.items())
                if info.user_id not in live.leaving
            }
            step.predicted = {live.user(seat): chips for seat, chips in stacks.items()}
        else:
            stacks = await self._stacks(live, tx, step)
        reason = live.family.start_reason(stacks, self._away(live))
        step.predicted_ok = reason is None
        if reason is None:
            live.status = "running"
            live.pending = "next_hand"
            # a decision before the hand (a dealer's choice) waits on the same timer
            computers = frozenset(s for s, i in live.seats.items() if i.is_computer)
            blinds = {seat: info.blind for seat, info in live.seats.items() if info.blind}
            wait = live.family.before_hand(
                stacks, self._away(live), computers=computers, blinds=blinds or None
            )
            live.deadline = self._deadline_in(live, self.autostart_delay if wait is None else wait)
        else:
            live.status = "open"
            live.pending = None
            live.deadline = None
            if live.tournament_id is None:  # a tournament's director moves players here
                step.announcements.append(f"Waiting for players: {reason}.")

    def _check_prediction(self, live: LiveTable, step: Step, balances: Mapping[int, int]) -> bool:
        """After a commit scheduled on predicted balances: take the real ones; whether the
        next-hand decision must be made again (they differ and would decide otherwise)."""
        assert step.predicted is not None
        missed = False
        for uid, chips in step.predicted.items():
            got = balances.get(uid)
            if got is not None and got != chips:
                live.balances[uid] = got
                missed = True
        if not missed:
            return False
        stacks = {
            seat: live.balances.get(info.user_id, 0)
            for seat, info in live.seats.items()
            if info.user_id not in live.leaving
        }
        ok = live.family.start_reason(stacks, self._away(live)) is None
        return ok != step.predicted_ok

    async def _recheck_next(self, table_id: int) -> None:
        """Decide the next hand again on balances read from the store (see _check_prediction)."""

        async def do(live: LiveTable, tx: Tx, step: Step) -> None:
            if live.status in ("open", "running") and not live.family.hand_running:
                await self._schedule_next(live, tx, step)

        try:
            await self._run(table_id, do)
        except Exception:
            log.exception("re-deciding the next hand of table %s failed", table_id)

    # =============================================================== actions

    async def act(
        self,
        table_id: int,
        user_id: int,
        kind: str,
        *,
        card: str | None = None,
        amount: int | None = None,
        version: int | None = None,
    ) -> PrivateView:
        """The single entry point for player actions (see the contract)."""
        holder: dict[str, Action] = {}

        def prepare(live: LiveTable) -> bool:
            info = live.seat_of(user_id)
            if info is None:
                raise NotSeated("you do not sit at this table")
            fam = live.family
            if live.status == "paused":
                raise NotYourTurn("the table is paused")
            if not fam.hand_running:
                raise NotYourTurn("no hand is being played right now")
            if not fam.in_hand(info.seat_no):
                raise NotYourTurn("you are not in this hand")
            if user_id in live.leaving:
                raise NotYourTurn("you are leaving: the table plays for you")
            c = None if card is None else parse_card(card)
            action = Action(info.seat_no, kind, card=c, amount=amount)
            fam.check(action)
            holder["action"] = action
            return True

        async def do(live: LiveTable, tx: Tx, step: Step) -> None:
            fam = live.family
            step.touched.add(user_id)
            step.actors.add(user_id)
            if fam.betting or kind in ("lay_down", "play_on"):
                live.pace.advance.pop(user_id, None)  # decided: nothing is left in advance
            await self._emit(live, tx, step, fam.apply(holder["action"]))
            await self._after(live, tx, step)

        # the clicker's view of the state their action committed (built under the lock: a
        # later action cannot leak into it; shared with the publish step when it ran)
        _, _, view = await self._run(
            table_id,
            do,
            prepare=prepare,
            version=version,
            want=lambda live: (
                self._committed_private(live, user_id)
                if live.seat_of(user_id) is not None
                else self._gone_view(live, user_id, holder["action"].seat)
            ),
        )
        assert isinstance(view, PrivateView)
        return view
