"""The TableService: the only place that mutates a table (DESIGN.md).

Per action: take the table's ``asyncio.Lock``; check who acts; apply the action on the
engine (through :mod:`bot.tables.games`, so no game rule lives here); write the ledger
entries, the hand's events and the new snapshot, version and deadline in ONE store
transaction; if anything fails, reload the table from its last saved state (nothing
changed); release the lock; then hand a :class:`Published` to the subscriber.

Deadlines are stored in the table row, so timers survive a restart: one asyncio task per
table sleeps until its deadline and then runs :meth:`TableService.tick` (the engine's
default actions, or the next hand after ``autostart_delay``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from bot.engine.actions import Action, ActionOption
from bot.engine.cards import parse_card
from bot.engine.errors import HomeGameError, IllegalAction, NotYourTurn
from bot.engine.events import Event
from bot.store import (
    ActionRecord,
    HandFinish,
    HandResult,
    Overdraft,
    SeatedElsewhere,
    StaleSeason,
    Store,
    Table,
    TableAccounts,
    Tx,
)
from bot.tables.chips import TableChips
from bot.tables.choices import TableChoices
from bot.tables.errors import (
    AlreadySeated,
    NoChips,
    NotAllowed,
    NotSeated,
    StaleAction,
    TableClosed,
    TableFull,
    UnpayableHand,
)
from bot.tables.games import GameFamily, load_family, make_family
from bot.tables.timers import TableTimers
from bot.tables.views import PrivateView, Published, SeatView, TableView

log = logging.getLogger(__name__)

SESSION_VERSION = 1
RECENT = 8
"""How many public sentences a table view keeps."""
PRACTICE_CHIPS = 1000
"""Play chips of each player at a practice table (no league chips move there)."""


class TableSubscriber(Protocol):
    async def publish(self, published: Published) -> None: ...


@dataclass(slots=True)
class SeatInfo:
    seat_no: int
    user_id: int
    is_computer: bool
    away: bool
    dm_ok: bool | None


@dataclass(slots=True)
class LiveTable:
    """A table held in memory between actions; rebuilt from the store on failure."""

    id: int
    guild_id: int
    channel_id: int
    game: str
    host_id: int
    practice: bool
    status: str
    version: int
    deadline: int | None
    family: GameFamily
    seats: dict[int, SeatInfo] = field(default_factory=dict)
    names: dict[int, str] = field(default_factory=dict)
    next_seat: int = 0
    hand_id: int | None = None
    hand_number: int = 0
    paid: dict[int, int] = field(default_factory=dict)
    won: dict[int, int] = field(default_factory=dict)
    pending: str | None = None
    leaving: set[int] = field(default_factory=set)
    practice_stacks: dict[int, int] = field(default_factory=dict)
    balances: dict[int, int] = field(default_factory=dict)
    recent: list[str] = field(default_factory=list)
    result: str | None = None
    accounts: TableAccounts | None = None
    """Cached ids of the season, the pot and the seated players' wallets (see
    :meth:`TableService._accounts`); dropped with the table on any failure."""

    # ---- lookups
    def seat_of(self, user_id: int) -> SeatInfo | None:
        return next((s for s in self.seats.values() if s.user_id == user_id), None)

    def user(self, seat: int) -> int:
        return self.seats[seat].user_id

    def name(self, seat: int) -> str:
        info = self.seats.get(seat)
        if info is None:
            return f"seat {seat}"
        return self.names.get(info.user_id, f"player {info.user_id}")

    # ---- persistence
    def session(self) -> dict[str, Any]:
        return {
            "v": SESSION_VERSION,
            "game": self.family.session_json(),
            "names": {str(u): n for u, n in self.names.items()},
            "next_seat": self.next_seat,
            "hand_id": self.hand_id,
            "hand_number": self.hand_number,
            "paid": {str(s): n for s, n in self.paid.items()},
            "won": {str(s): n for s, n in self.won.items()},
            "pending": self.pending,
            "leaving": sorted(self.leaving),
            "practice_stacks": {str(u): n for u, n in self.practice_stacks.items()},
            "balances": {str(u): n for u, n in self.balances.items()},
            "recent": list(self.recent),
            "result": self.result,
        }

    @classmethod
    def from_store(cls, table: Table, seats: Iterable[Any]) -> LiveTable:
        snap: Mapping[str, Any] = table.snapshot or {}
        family = load_family(table.game, table.rules, snap.get("game"))
        live = cls(
            id=table.id,
            guild_id=table.guild_id,
            channel_id=table.channel_id,
            game=table.game,
            host_id=table.host_id or 0,
            practice=table.practice,
            status=table.status,
            version=table.version,
            deadline=table.deadline,
            family=family,
        )
        for s in seats:
            live.seats[s.seat_no] = SeatInfo(s.seat_no, s.user_id, s.is_computer, s.away, s.dm_ok)
        live.names = {int(u): str(n) for u, n in snap.get("names", {}).items()}
        live.next_seat = int(snap.get("next_seat", max(live.seats, default=-1) + 1))
        live.hand_id = snap.get("hand_id")
        live.hand_number = int(snap.get("hand_number", 0))
        live.paid = {int(s): int(n) for s, n in snap.get("paid", {}).items()}
        live.won = {int(s): int(n) for s, n in snap.get("won", {}).items()}
        live.pending = snap.get("pending")
        live.leaving = {int(u) for u in snap.get("leaving", [])}
        live.practice_stacks = {int(u): int(n) for u, n in snap.get("practice_stacks", {}).items()}
        live.balances = {int(u): int(n) for u, n in snap.get("balances", {}).items()}
        live.recent = [str(x) for x in snap.get("recent", [])]
        live.result = snap.get("result")
        return live


@dataclass(slots=True)
class Step:
    """What one mutation did, for the commit and for the subscriber."""

    events: list[Event] = field(default_factory=list)
    announcements: list[str] = field(default_factory=list)
    results: list[str] = field(default_factory=list)
    touched: set[int] = field(default_factory=set)
    """User ids whose private view surely changed."""
    new_turn: bool = False
    closed: bool = False
    # writes not yet sent to the store (one round trip at the end, see _flush)
    moves: list[tuple[int, int, str]] = field(default_factory=list)
    log: list[Event] = field(default_factory=list)
    finish: HandFinish | None = None
    hand_id: int | None = None
    """The hand the pending moves, events and end belong to."""
    before: Mapping[int, tuple[Any, ...]] = field(default_factory=dict)
    """Each user's private marks before the mutation (only with a subscriber)."""
    predicted: dict[int, int] | None = None
    """Wallet balances the next hand was scheduled on without reading them (a hand's end:
    the engine's final stacks); the commit reads the real ones back to check."""
    predicted_ok: bool = False
    """Whether those balances let the next hand start."""


class TableService(TableTimers, TableChips, TableChoices):
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

    # =============================================================== lifecycle

    async def start_service(self) -> None:
        """Load every live table (snapshot, seats) and arm its timer."""
        async with self.store.read() as tx:
            tables = await tx.live_tables()
            loaded = [(t, await tx.seats(t.id)) for t in tables]
        self._running = True
        for table, seats in loaded:
            live = LiveTable.from_store(table, seats)
            self._tables[live.id] = live
            self._arm(live)
            self._maybe_computers(live)

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
        return live, ret, out

    async def _run_view(
        self, table_id: int, do: Callable[[LiveTable, Tx, Step], Awaitable[Any]]
    ) -> TableView:
        """:meth:`_run` returning the committed table view."""
        _, _, view = await self._run(table_id, do, want=self._committed_view)
        assert isinstance(view, TableView)
        return view

    def _forget_views(self, table_id: int) -> None:
        self._views.pop(table_id, None)
        self._privs.pop(table_id, None)
        self._marks.pop(table_id, None)

    def _committed_view(self, live: LiveTable) -> TableView:
        """The table view of the committed state (call only under the table's lock, or
        when no mutation runs): kept until the next mutation starts."""
        view = self._views.get(live.id)
        if view is None:
            view = self._table_view(live)
            if live.status != "closed":
                self._views[live.id] = view
        return view

    def _committed_private(self, live: LiveTable, user_id: int) -> PrivateView:
        """:meth:`_committed_view` for one seated player's private view."""
        privs = self._privs.get(live.id)
        if privs is None:
            privs = {} if live.status == "closed" else self._privs.setdefault(live.id, {})
        pv = privs.get(user_id)
        if pv is None:
            pv = privs[user_id] = self._private_view(live, user_id)
        return pv

    async def _publish(self, published: Published) -> None:
        if self.subscriber is None:
            return
        try:
            await self.subscriber.publish(published)
        except Exception:
            log.exception("subscriber failed on table %s", published.view.table_id)

    # =============================================================== writes

    async def _accounts(self, live: LiveTable, tx: Tx) -> TableAccounts:
        """The season, pot and wallet ids of the table, read once and kept on the table
        (re-read when a seated player is missing, or when the store says the season
        ended)."""
        acc = live.accounts
        if acc is None or (
            not acc.practice and any(i.user_id not in acc.wallets for i in live.seats.values())
        ):
            acc = await tx.table_accounts(live.id, [i.user_id for i in live.seats.values()])
            live.accounts = acc
        return acc

    async def _flush(
        self,
        live: LiveTable,
        tx: Tx,
        step: Step,
        *,
        balances: bool = False,
        save: bool = False,
        commit: bool = False,
    ) -> ActionRecord | None:
        """Send the step's pending writes (chip moves, hand events, the hand's end; with
        ``save`` the table row, with ``balances`` the seated players' wallet balances back)
        to the store in ONE round trip (``commit``: the transaction's COMMIT too). Called at
        the end of each mutation and before any other store call inside it, so every read
        sees the writes before it."""
        if not (step.moves or step.log or step.finish or balances or save):
            return None
        extra: dict[str, Any] = {}
        if save:
            extra = {
                "snapshot": live.session(),
                "expected_version": live.version,
                "deadline": live.deadline,
                "status": live.status,
            }
        for attempt in (1, 2):
            acc = await self._accounts(live, tx)
            asked = (
                [i.user_id for i in live.seats.values()] if balances and not acc.practice else ()
            )
            try:
                rec = await tx.record_action(
                    acc,
                    moves=step.moves,
                    hand_id=step.hand_id,
                    events=step.log,
                    finish=step.finish,
                    balances_of=asked,
                    commit=commit,
                    **extra,
                )
            except StaleSeason:
                # a season ended since the ids were read: the next wallets (nothing written)
                live.accounts = None
                if attempt == 2:
                    raise
                continue
            break
        step.moves = []
        step.log = []
        step.finish = None
        step.hand_id = None
        return rec

    async def _pend(self, live: LiveTable, tx: Tx, step: Step) -> None:
        """Make room for writes of the table's current hand (pending ones of another hand
        are sent first)."""
        if step.hand_id != live.hand_id and (step.moves or step.log or step.finish):
            await self._flush(live, tx, step)
        step.hand_id = live.hand_id

    # =============================================================== engine steps

    async def _emit(self, live: LiveTable, tx: Tx, step: Step, events: list[Event]) -> None:
        """Book the engine's events: ledger rows for their chips, the hand log, sentences
        (the writes are sent with the step's others, see :meth:`_flush`)."""
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
                live.recent.append(text)
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
        return frozenset(s for s, i in live.seats.items() if i.away)

    async def _start_hand(self, live: LiveTable, tx: Tx, step: Step, *, strict: bool) -> bool:
        if live.id in self._closing:
            # no game is dealt once a close is pending (it would only be voided at once)
            if strict:
                raise TableClosed("the table is being closed")
            return False
        stacks = await self._stacks(live, tx, step)
        reason = live.family.start_reason(stacks, self._away(live))
        if reason is not None:
            if strict:
                raise IllegalAction(reason)
            live.status = "open"
            live.pending = None
            live.deadline = None
            step.announcements.append(f"Waiting for players: {reason}")
            return False
        await self._flush(live, tx, step)
        hand = await tx.begin_hand(live.id, game=live.family.hand_game(stacks, self._away(live)))
        live.hand_id = hand.id
        live.hand_number = hand.number
        live.paid, live.won = {}, {}
        live.pending = None
        live.result = None
        live.status = "running"
        events = live.family.start_hand(stacks, self._away(live), self.rng_factory())
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
                break
            for seat in auto:
                if seat in fam.to_act():
                    d = fam.default_action(seat)
                    act = Action(seat, d.kind, card=d.card)
                    await self._emit(live, tx, step, fam.apply(act))
        if fam.hand_over and live.hand_id is not None:
            await self._finish_hand(live, tx, step)
            return
        if fam.hand_running:
            if fam.paused:
                live.status = "paused"
                live.deadline = None
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
        step.finish = HandFinish(results, end.history, end.summary)
        live.hand_id = None
        for seat, chips in stacks.items():
            uid = live.user(seat)
            live.balances[uid] = chips
            if live.practice:
                live.practice_stacks[uid] = chips
        step.touched.update(live.user(s) for s in stacks)
        for seat in sorted(end.newly_away):
            info = live.seats.get(seat)
            if info is not None and not info.away:
                await tx.update_seat(live.id, info.user_id, away=True)
                info.away = True
                step.announcements.append(
                    f"{live.name(seat)} let two windows run out and sits out until they come back"
                )
        for uid in sorted(live.leaving):
            await self._remove(live, tx, step, uid)
        live.leaving.clear()
        if step.closed:
            return
        live.deadline = None
        if end.pause_reason is not None:
            live.status = "paused"
            live.pending = None
            step.announcements.append(f"Table paused: {end.pause_reason}")
            return
        await self._schedule_next(live, tx, step, predict=True)

    async def _schedule_next(
        self, live: LiveTable, tx: Tx, step: Step, *, predict: bool = False
    ) -> None:
        """Set the next hand going (or wait for players). ``predict`` (at a hand's end): go
        by the balances known without a read (the hand's final stacks: each wallet moved
        with its seat's chips); the commit reads the real ones in the same round trip and
        :meth:`_check_prediction` corrects the rare miss (a grant during the hand)."""
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
            wait = live.family.before_hand(stacks, self._away(live), computers=computers)
            live.deadline = self._deadline_in(live, self.autostart_delay if wait is None else wait)
        else:
            live.status = "open"
            live.pending = None
            live.deadline = None
            step.announcements.append(f"Waiting for players: {reason}")

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

    async def _remove(self, live: LiveTable, tx: Tx, step: Step, user_id: int) -> None:
        info = live.seat_of(user_id)
        if info is None:
            return
        await self._flush(live, tx, step)
        await tx.leave(live.id, user_id)
        if live.accounts is not None:
            live.accounts = live.accounts.without(user_id)
        del live.seats[info.seat_no]
        live.family.seat_left(info.seat_no)
        live.practice_stacks.pop(user_id, None)
        step.announcements.append(f"{live.names.get(user_id, user_id)} left the table")
        humans = [s for s in live.seats.values() if not s.is_computer]
        if not live.seats or (live.practice and not humans):
            await self._close(live, tx, step, actor_id=None, reason="everyone left")

    async def _close(
        self, live: LiveTable, tx: Tx, step: Step, *, actor_id: int | None, reason: str
    ) -> None:
        await self._flush(live, tx, step)
        if live.hand_id is not None and live.family.hand_running:
            entries = await tx.void_hand(live.hand_id, reason=reason, actor_id=actor_id)
            live.family.void()
            live.hand_id = None
            moved = sum(e.amount for e in entries)
            text = (
                f"Hand {live.hand_number} voided as the table closed: its {moved} chips went back"
            )
            step.announcements.append(text)
            live.recent.append(text)
            step.touched.update(i.user_id for i in live.seats.values())
        refunds = await tx.close_table(live.id, actor_id=actor_id, reason=reason)
        for r in refunds:
            step.announcements.append(
                f"{r.amount} chips from the pot go back (rules §1.10 in docs/rules.md)"
            )
        back = sum(r.amount for r in refunds)
        # the table message's last words: the table closed and what went back
        live.recent.append(
            f"Table closed: the pot's {back} chips went back to whoever paid them in"
            if back
            else "Table closed: no chips were left in the pot"
        )
        del live.recent[:-RECENT]
        step.closed = True

    # =============================================================== views

    def _table_view(self, live: LiveTable) -> TableView:
        fam = live.family
        to_act = fam.to_act() if live.status == "running" and fam.hand_running else frozenset()
        running = fam.engine is not None
        seats: list[SeatView] = []
        for seat, info in sorted(live.seats.items()):
            show = fam.seat_show(seat)
            stack = show.stack
            if stack is None:
                stack = live.balances.get(info.user_id, 0)
            status = show.status
            if not running or status == "waiting":
                status = "away" if info.away else "waiting"
            seats.append(
                SeatView(
                    seat=seat,
                    user_id=info.user_id,
                    name=live.name(seat),
                    stack=stack,
                    status=status,
                    is_computer=info.is_computer,
                    to_act=seat in to_act,
                    bet=show.bet,
                    up_cards=show.up_cards,
                    shown=show.shown,
                    hand_name=show.hand_name,
                )
            )
        if live.status == "closed":
            phase = "closed"
        elif live.status == "paused":
            phase = "paused"
        elif live.pending == "next_hand" and not fam.hand_running:
            phase = "next hand starting" if not fam.hand_over else fam.phase_text()
        elif live.status == "open":
            phase = "waiting for players"
        else:
            phase = fam.phase_text()
        return TableView(
            table_id=live.id,
            guild_id=live.guild_id,
            channel_id=live.channel_id,
            game=fam.game,  # a mixed table's: the game being played
            status=live.status,
            host_id=live.host_id,
            version=live.version,
            practice=live.practice,
            rules=fam.describe_rules(),
            seats=tuple(seats),
            dealer_seat=fam.dealer,
            pot=0 if live.status == "closed" else fam.pot,  # a closed table's pot went back
            phase=phase,
            hand_number=live.hand_number,
            deadline=None if live.deadline is None else float(live.deadline),
            to_act_user_ids=frozenset(live.user(s) for s in to_act if s in live.seats),
            public_actions=fam.public_options() if to_act else (),
            community=fam.community(),
            recent=tuple(live.recent),
            result=live.result,
            mixed=fam.mixed(),
        )

    def _private_view(self, live: LiveTable, user_id: int) -> PrivateView:
        info = live.seat_of(user_id)
        if info is None:
            raise NotSeated(f"you do not sit at table {live.id}")
        fam = live.family
        cards = fam.seat_cards(info.seat_no)
        options: tuple[ActionOption, ...] = tuple(fam.options(info.seat_no))
        if live.status == "paused":
            options = tuple(ActionOption(o.kind, False, "the table is paused") for o in options)
        elif not fam.hand_running:
            options = tuple(
                ActionOption(o.kind, False, "no hand is being played right now") for o in options
            )
        return PrivateView(
            table_id=live.id,
            user_id=user_id,
            seat=info.seat_no,
            game=fam.game,
            version=live.version,
            cards=cards.cards,
            down_cards=cards.down,
            up_cards=cards.up,
            hand_name=cards.hand_name,
            strength=cards.strength,
            options=options,
            deadline=None if live.deadline is None else float(live.deadline),
            chosen=cards.chosen,
        )

    def _private_marks(self, live: LiveTable) -> dict[int, tuple[Any, ...]]:
        """What each seated user's private view shows that matters, per user: the cards
        (and their name, the secret choice), whether a hand runs, the options they may take
        now and, while they have one, their deadline. A change of it is a DM worth editing;
        another player's action that leaves it alone (a new turn of somebody else) is not.
        Called on a committed state only (the views built are kept for readers); the
        marks are kept too, for the next mutation's "before"."""
        running = live.family.hand_running
        marks: dict[int, tuple[Any, ...]] = {}
        for info in live.seats.values():
            pv = self._committed_private(live, info.user_id)
            allowed = tuple((o.kind, o.amount, o.to, o.cards) for o in pv.options if o.allowed)
            marks[info.user_id] = (
                running,
                pv.cards,
                pv.down_cards,
                pv.up_cards,
                pv.hand_name,
                pv.chosen,
                allowed,
                pv.deadline if allowed else None,
            )
        if live.status != "closed":
            self._marks[live.id] = marks
        return marks

    def _published(self, live: LiveTable, step: Step) -> Published:
        """What the subscriber gets after a commit (before: the marks kept of the state
        the mutation started from, see :meth:`_run`)."""
        before = step.before
        after = self._private_marks(live)
        changed = set(step.touched)
        changed.update(u for u, v in after.items() if before.get(u) != v)
        return Published(
            view=self._committed_view(live),
            events=tuple(step.events),
            user_ids_by_seat={s: i.user_id for s, i in live.seats.items()},
            private_changed=frozenset(u for u in changed if u in after),
            announcements=tuple(step.announcements),
            results=tuple(step.results),
        )

    # =============================================================== computers

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

    # =============================================================== tables

    async def open_table(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        game: str,
        options: Mapping[str, Any] | None = None,
        practice: bool = False,
        computers: int | None = None,
        seat_host: bool = True,
    ) -> TableView:
        """Open a table with the league's defaults under ``options`` (InvalidConfig if the
        engine's rules refuse them); the host is seated. A practice table gets one computer
        opponent unless ``computers`` says otherwise."""
        n_computers = (1 if practice else 0) if computers is None else computers
        async with self.store.transaction() as tx:
            league = await tx.league(guild_id)
            settings = league.game_settings.get(game) if game in league.game_settings else None
            family = make_family(game, dict(options or {}), settings)
            if seat_host and 1 + n_computers > family.max_players:
                raise TableFull(f"at most {family.max_players} players at this table")
            table = await tx.create_table(
                guild_id,
                channel_id,
                game,
                host_id=host_id,
                rules=family.rules_json,
                practice=practice,
            )
            live = LiveTable(
                id=table.id,
                guild_id=guild_id,
                channel_id=channel_id,
                game=game,
                host_id=host_id,
                practice=practice,
                status="open",
                version=table.version,
                deadline=None,
                family=family,
            )
            step = Step()
            if seat_host:
                await self._sit(live, tx, step, host_id, host_name, is_computer=False)
            for k in range(n_computers):
                await self._sit(live, tx, step, -(k + 1), f"Computer {k + 1}", is_computer=True)
            saved = await tx.save_table(
                live.id,
                expected_version=live.version,
                snapshot=live.session(),
                deadline=None,
                status="open",
            )
            live.version = saved.version
        self._tables[live.id] = live
        return self._table_view(live)

    async def _sit(
        self, live: LiveTable, tx: Tx, step: Step, user_id: int, name: str, *, is_computer: bool
    ) -> None:
        if live.seat_of(user_id) is not None:
            raise AlreadySeated("you already sit at this table")
        await self._flush(live, tx, step)
        if len(live.seats) >= live.family.max_players:
            raise TableFull(f"the table is full ({live.family.max_players} seats)")
        if not live.practice and not is_computer:
            for other in self._tables.values():
                if (
                    other.id != live.id
                    and other.guild_id == live.guild_id
                    and not other.practice
                    and other.status != "closed"
                    and other.seat_of(user_id) is not None
                ):
                    raise AlreadySeated(
                        f"you already play at the table in <#{other.channel_id}>: leave it first"
                    )
        if live.practice:
            league = await tx.league(live.guild_id)
            chips = league.starting_chips or PRACTICE_CHIPS
            live.practice_stacks.setdefault(user_id, chips)
        else:
            # the first sit-down in the league grants the starting chips (ledger "start")
            chips = (await tx.wallet(live.guild_id, user_id)).balance
            if chips <= 0:
                raise NoChips("you have no chips left: ask for a rebuy first")
        try:
            seat = await tx.sit(live.id, user_id, seat_no=live.next_seat, is_computer=is_computer)
        except SeatedElsewhere as exc:
            # the database's word (another table's Join may be under way right now)
            raise AlreadySeated(
                f"you already play at the table in <#{exc.channel_id}>: leave it first"
            ) from None
        live.next_seat = seat.seat_no + 1
        live.seats[seat.seat_no] = SeatInfo(seat.seat_no, user_id, is_computer, False, None)
        live.names[user_id] = name
        live.balances[user_id] = chips
        live.recent.append(f"{name} sits down")
        del live.recent[:-RECENT]

    async def join(
        self, table_id: int, user_id: int, name: str, *, computer: bool = False
    ) -> TableView:
        """Sit down (``computer``: a computer player, negative user id, played by the
        engine policy)."""
        if computer and user_id >= 0:
            raise IllegalAction("computer players have negative user ids")

        async def do(live: LiveTable, tx: Tx, step: Step) -> None:
            await self._sit(live, tx, step, user_id, name, is_computer=computer)
            if live.status == "open" and live.hand_number > 0:
                await self._schedule_next(live, tx, step)

        return await self._run_view(table_id, do)

    async def add_computer(
        self, table_id: int, actor_id: int, *, name: str | None = None
    ) -> TableView:
        """Seat a computer player (negative user id) at a practice table."""

        async def do(live: LiveTable, tx: Tx, step: Step) -> None:
            if not live.practice:
                raise NotAllowed("computer players sit only at practice tables")
            if live.seat_of(actor_id) is None and actor_id != live.host_id:
                raise NotSeated("only a player at the table may add a computer")
            k = 1
            while live.seat_of(-k) is not None:
                k += 1
            await self._sit(live, tx, step, -k, name or f"Computer {k}", is_computer=True)

        return await self._run_view(table_id, do)

    async def leave(self, table_id: int, user_id: int) -> TableView:
        async def do(live: LiveTable, tx: Tx, step: Step) -> None:
            await self._leave(live, tx, step, user_id)

        return await self._run_view(table_id, do)

    async def _leave(self, live: LiveTable, tx: Tx, step: Step, user_id: int) -> None:
        info = live.seat_of(user_id)
        if info is None:
            raise NotSeated("you do not sit at this table")
        fam = live.family
        if fam.hand_running and fam.in_hand(info.seat_no):
            # plays on / folds automatically and leaves after the game
            live.leaving.add(user_id)
            step.announcements.append(f"{live.name(info.seat_no)} leaves after this hand")
            await self._after(live, tx, step)
        else:
            await self._remove(live, tx, step, user_id)

    def _may_manage(self, live: LiveTable, actor_id: int, may_manage: bool) -> None:
        if not may_manage and actor_id != live.host_id:
            raise NotAllowed("only the table's host or a league manager may do that")

    async def kick(
        self, table_id: int, actor_id: int, user_id: int, *, may_manage: bool
    ) -> TableView:
        async def do(live: LiveTable, tx: Tx, step: Step) -> None:
            self._may_manage(live, actor_id, may_manage)
            await self._leave(live, tx, step, user_id)

        return await self._run_view(table_id, do)

    async def start(self, table_id: int, user_id: int) -> TableView:
        async def do(live: LiveTable, tx: Tx, step: Step) -> None:
            if live.seat_of(user_id) is None and user_id != live.host_id:
                raise NotSeated("only a player at the table may start it")
            if live.status == "paused":
                raise IllegalAction("the table is paused: resume it")
            if live.family.hand_running:
                raise IllegalAction("a hand is already being played")
            await self._start_hand(live, tx, step, strict=True)

        return await self._run_view(table_id, do)

    async def end(self, table_id: int, actor_id: int, *, may_manage: bool) -> TableView:
        """Close the table (RULES 1.10). From the moment the close is asked for (checked
        first: a refused close changes nothing) no game is dealt there: a timer that wakes
        meanwhile (the next game's) waits behind it and finds the table closed. A game
        being played is voided; the pot standing goes back to whoever paid it in."""

        async def do(live: LiveTable, tx: Tx, step: Step) -> None:
            self._may_manage(live, actor_id, may_manage)
            await self._close(live, tx, step, actor_id=actor_id, reason="table ended")

        self._may_manage(await self._get(table_id), actor_id, may_manage)
        self._closing.add(table_id)
        try:
            view = await self._run_view(table_id, do)
        except BaseException:
            self._closing.discard(table_id)
            live = self._tables.get(table_id)
            if live is not None:
                self._arm(live)
            raise
        self._closing.discard(table_id)
        self._cancel_timer(table_id)
        return view

    async def void_hand(self, table_id: int, actor_id: int, *, may_manage: bool) -> TableView:
        """Void the running hand: everyone gets back what they put into it."""

        async def do(live: LiveTable, tx: Tx, step: Step) -> None:
            self._may_manage(live, actor_id, may_manage)
            if live.hand_id is None or not live.family.hand_running:
                raise IllegalAction("no hand is being played")
            await self._void(live, tx, step, actor_id=actor_id, reason="voided")

        return await self._run_view(table_id, do)

    async def _void(
        self,
        live: LiveTable,
        tx: Tx,
        step: Step,
        *,
        actor_id: int | None,
        reason: str,
        why: str | None = None,
    ) -> None:
        """Void the running hand (every chip it moved goes back, by the ledger); who was
        leaving leaves; the next hand is scheduled unless the table is paused."""
        assert live.hand_id is not None
        await self._flush(live, tx, step)
        entries = await tx.void_hand(live.hand_id, reason=reason, actor_id=actor_id)
        live.family.void()
        live.hand_id = None
        step.touched.update(i.user_id for i in live.seats.values())
        moved = sum(e.amount for e in entries)
        because = f" ({why})" if why else ""
        step.announcements.append(
            f"Hand {live.hand_number} voided{because}: every chip it moved ({moved}) went back"
        )
        live.recent.append(f"Hand {live.hand_number} was voided")
        del live.recent[:-RECENT]
        live.deadline = None
        # who was leaving (or kicked) during the hand leaves now, as at its end
        for uid in sorted(live.leaving):
            await self._remove(live, tx, step, uid)
        live.leaving.clear()
        if step.closed or live.status == "paused":
            return
        await self._schedule_next(live, tx, step)

    async def pause(self, table_id: int, actor_id: int, *, may_manage: bool = False) -> TableView:
        async def do(live: LiveTable, tx: Tx, step: Step) -> None:
            if live.seat_of(actor_id) is None:
                self._may_manage(live, actor_id, may_manage)
            if live.status == "paused":
                raise IllegalAction("the table is already paused")
            live.status = "paused"
            live.deadline = None
            live.pending = None
            step.touched.update(i.user_id for i in live.seats.values())
            step.announcements.append("Table paused")

        return await self._run_view(table_id, do)

    async def resume(self, table_id: int, actor_id: int, *, may_manage: bool = False) -> TableView:
        async def do(live: LiveTable, tx: Tx, step: Step) -> None:
            if live.seat_of(actor_id) is None:
                self._may_manage(live, actor_id, may_manage)
            if live.status != "paused":
                raise IllegalAction("the table is not paused")
            fam = live.family
            live.status = "running"
            step.touched.update(i.user_id for i in live.seats.values())
            step.announcements.append("Table resumed")
            if fam.paused:
                step.new_turn = True
                await self._emit(live, tx, step, fam.resume())
                await self._after(live, tx, step)
            elif fam.hand_running:
                live.deadline = self._deadline_in(live, fam.decision_seconds)
            else:
                await self._schedule_next(live, tx, step)

        return await self._run_view(table_id, do)

    async def back(self, table_id: int, user_id: int) -> TableView:
        """An away player comes back: they play from the next hand."""

        async def do(live: LiveTable, tx: Tx, step: Step) -> None:
            info = live.seat_of(user_id)
            if info is None:
                raise NotSeated("you do not sit at this table")
            if not info.away:
                raise IllegalAction("you are not marked away")
            await tx.update_seat(live.id, user_id, away=False)
            info.away = False
            step.announcements.append(f"{live.name(info.seat_no)} is back")
            if live.status == "open" and live.hand_number > 0:
                await self._schedule_next(live, tx, step)

        return await self._run_view(table_id, do)

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
            await self._emit(live, tx, step, fam.apply(holder["action"]))
            await self._after(live, tx, step)

        # the clicker's view of the state their action committed (built under the lock: a
        # later action cannot leak into it; shared with the publish step when it ran)
        _, _, view = await self._run(
            table_id,
            do,
            prepare=prepare,
            version=version,
            want=lambda live: self._committed_private(live, user_id),
        )
        assert isinstance(view, PrivateView)
        return view

    # =============================================================== reading

    async def view(self, table_id: int) -> TableView:
        """The table as last committed, with its version: while an action is being
        committed this is still the state before it (never a half-applied one)."""
        view = self._views.get(table_id)
        if view is not None:
            return view
        await self._get(table_id)
        async with self._lock(table_id):  # no view kept: build one from a committed state
            return self._committed_view(await self._get(table_id))

    async def private_view(self, table_id: int, user_id: int) -> PrivateView:
        """One player's view as last committed (see :meth:`view`)."""
        pv = self._privs.get(table_id, {}).get(user_id)
        if pv is not None:
            return pv
        await self._get(table_id)
        async with self._lock(table_id):
            return self._committed_private(await self._get(table_id), user_id)

    async def table_in_channel(self, channel_id: int) -> TableView | None:
        for live in list(self._tables.values()):
            if live.channel_id == channel_id and live.status != "closed":
                return await self.view(live.id)
        async with self.store.read() as tx:
            table = await tx.table_in_channel(channel_id)
        if table is None:
            return None
        return await self.view(table.id)

    async def table_of(self, user_id: int, guild_id: int) -> list[TableView]:
        async with self.store.read() as tx:
            ids = [t.id for t in await tx.live_tables(guild_id=guild_id)]
        out = []
        for tid in ids:
            view = await self.view(tid)
            if view.seat_of(user_id) is not None:
                out.append(view)
        return out

    async def hand_in_progress(self, table_id: int) -> bool:
        """Whether a hand is being played at the table now."""
        live = await self._get(table_id)
        return live.family.hand_running

    async def live_table_ids(self) -> list[int]:
        async with self.store.read() as tx:
            return [t.id for t in await tx.live_tables()]

    # =============================================================== messages

    async def set_message(self, table_id: int, kind: str, channel_id: int, message_id: int) -> None:
        async with self.store.transaction() as tx:
            await tx.set_message(table_id, kind, channel_id=channel_id, message_id=message_id)

    async def messages(self, table_id: int) -> dict[str, tuple[int, int]]:
        async with self.store.read() as tx:
            found = await tx.messages(table_id)
        return {k: (m.channel_id, m.message_id) for k, m in found.items()}

    async def set_dm_ok(self, table_id: int, user_id: int, ok: bool) -> None:
        live = await self._get(table_id)
        async with self._lock(table_id):
            info = live.seat_of(user_id)
            if info is None:
                raise NotSeated("you do not sit at this table")
            async with self.store.transaction() as tx:
                await tx.update_seat(table_id, user_id, dm_ok=ok)
            info.dm_ok = ok

    async def close_lost(self, table_id: int, *, reason: str) -> TableView:
        """Close a table the bot can no longer play (its Discord channel was deleted): as
        :meth:`end` (the running hand voided, the pot refunded by the ledger), by the bot."""

        async def do(live: LiveTable, tx: Tx, step: Step) -> None:
            await self._close(live, tx, step, actor_id=None, reason=reason)

        view = await self._run_view(table_id, do)
        self._cancel_timer(table_id)
        return view
