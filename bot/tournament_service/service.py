"""The TournamentService's core: creating, registering, starting, pausing, cancelling; one
transaction per director step; the gate its tables ask before each hand; the timer; the
restart. Its other parts are mixins: :mod:`~bot.tournament_service.seating` (tables,
balancing, breaking), :mod:`~bot.tournament_service.busts` (knockouts, rebuys, add-ons,
re-entries) and :mod:`~bot.tournament_service.finish` (payouts, results, points).

Locks: one ``asyncio.Lock`` per tournament. A step holding it may call the table service
(which takes a table's lock); a table never waits for it: the gate reads memory, and a
hand's end only schedules the director's work (:meth:`TournamentService.hand_over`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import secrets
import time
from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from bot import games as registry
from bot.engine.errors import HomeGameError
from bot.store import InsufficientChips, Store, Tx
from bot.tables.tournament import HandGate
from bot.tournament import (
    Hold,
    Movement,
    Tournament,
    TournamentConfig,
    create,
    next_deadline,
    open_registration,
    pause,
    read_clock,
    register,
    resume,
    stakes_for_hand,
    start,
    unregister,
)
from bot.tournament.errors import Refused, WrongStatus
from bot.tournament.snapshot import dump, load
from bot.tournament_service.busts import TournamentBusts
from bot.tournament_service.finish import TournamentFinish
from bot.tournament_service.live import LiveTournament, Lobby, Notices, Post, TournamentSubscriber
from bot.tournament_service.seating import TournamentSeating

if TYPE_CHECKING:
    from bot.tables.service import TableService

log = logging.getLogger("bot.tournament")

TIMER_RETRY = 5.0
NOTHING = "Nothing changed."


class TournamentService(TournamentSeating, TournamentBusts, TournamentFinish):
    """See the module docstring."""

    def __init__(
        self,
        store: Store,
        tables: TableService,
        *,
        clock: Callable[[], float] = time.time,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        rng_factory: Callable[[], Any] = secrets.SystemRandom,
        timers: bool = True,
    ) -> None:
        self.store = store
        self.tables = tables
        self.clock = clock
        self.sleep = sleep
        self.rng_factory = rng_factory
        self.timers = timers
        """False: no asyncio timers (the simulation calls :meth:`tick` itself)."""
        self.subscriber: TournamentSubscriber | None = None
        self._live: dict[int, LiveTournament] = {}
        self._ended: dict[int, Lobby] = {}
        """The last lobby of a tournament that ended in this process (its final message)."""
        self._by_table: dict[int, int] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self._timers: dict[int, asyncio.Task[None]] = {}
        self._bg: set[asyncio.Task[Any]] = set()
        self._running = False
        tables.director = self

    # ================================================================= lifecycle

    async def load(self) -> None:
        """Read every tournament still registering or running (before the tables start:
        their gates read it)."""
        async with self.store.read() as tx:
            rows = await tx.live_tournaments()
            loaded = [(r, await tx.tournament_tables(r.id, live=True)) for r in rows]
        for row, tables in loaded:
            live = LiveTournament(
                id=row.id,
                guild_id=row.guild_id,
                number=row.number,
                channel_id=row.channel_id,
                host_id=row.host_id,
                game=row.game,
                t=load(row.state),
                extra=dict(row.extra),
                version=row.version,
                deadline=row.deadline,
                lobby=(
                    None
                    if row.lobby_message_id is None or row.lobby_channel_id is None
                    else (row.lobby_channel_id, row.lobby_message_id)
                ),
                tables={tt.number: tt.table_id for tt in tables},
                breaking={int(x) for x in row.extra.get("breaking", [])},
            )
            self._live[live.id] = live
            for tid in live.tables.values():
                self._by_table[tid] = live.id

    async def start(self) -> None:
        """After the tables started: book what a crash left unbooked, seat who a crash left
        without a seat, balance, and arm each tournament's timer."""
        self._running = True
        for tid in list(self._live):
            try:
                await self.recover(tid)
            except Exception:
                log.exception("recovering tournament %s failed", tid)
            live = self._live.get(tid)
            if live is not None:
                self._arm(live)

    async def stop(self) -> None:
        self._running = False
        tasks = [*self._timers.values(), *self._bg]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
        self._timers.clear()
        self._bg.clear()
        self._live.clear()
        self._by_table.clear()

    async def settle(self) -> None:
        """Wait until the work the tables' hands scheduled is done (simulations, tests)."""
        while self._bg:
            await asyncio.gather(*list(self._bg), return_exceptions=True)

    # ================================================================= plumbing

    def _lock(self, tournament_id: int) -> asyncio.Lock:
        lock = self._locks.get(tournament_id)
        if lock is None:
            lock = self._locks[tournament_id] = asyncio.Lock()
        return lock

    def now(self) -> float:
        return self.clock()

    def live(self, tournament_id: int) -> LiveTournament:
        found = self._live.get(tournament_id)
        if found is None:
            raise WrongStatus(f"Tournament is not running or registering. {NOTHING}")
        return found

    def of_table(self, table_id: int) -> int | None:
        return self._by_table.get(table_id)

    def live_ids(self, guild_id: int | None = None) -> list[int]:
        return [t.id for t in self._live.values() if guild_id is None or t.guild_id == guild_id]

    def _spawn(self, work: Awaitable[Any], what: str) -> None:
        async def run() -> None:
            try:
                await work
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("tournament work failed: %s", what)

        task = asyncio.get_running_loop().create_task(run(), name=what)
        self._bg.add(task)
        task.add_done_callback(self._bg.discard)

    async def _commit(
        self,
        live: LiveTournament,
        t: Tournament,
        *,
        movements: Iterable[Movement] = (),
        chips: Sequence[tuple[int, int, str]] = (),
        more: Callable[[Tx], Awaitable[None]] | None = None,
    ) -> None:
        """ONE transaction for a director step: its league-chip movements (by the ledger;
        a practice tournament's move none), the tournament chips it gives (``(user,
        chips, why)``), ``more`` writes, and the new state with its next deadline. A wallet
        short of a buy-in refuses the whole step (nothing is stored)."""
        now = self.clock()
        deadline = next_deadline(t, now=now)
        stored = None if deadline is None else math.ceil(deadline)
        status = "registering" if t.status == "created" else t.status
        try:
            async with self.store.transaction() as tx:
                if not live.practice:
                    for m in movements:
                        await tx.book_movement(
                            live.id, kind=m.kind, user_id=m.player, amount=m.amount, fund=m.fund
                        )
                for user_id, amount, why in chips:
                    if amount > 0:
                        await tx.issue_chips(live.id, user_id, amount, reason=why)
                if more is not None:
                    await more(tx)
                extra = {**live.extra, "breaking": sorted(live.breaking)}
                version = await tx.save_tournament(
                    live.id,
                    expected_version=live.version,
                    state=dump(t),
                    status=status,
                    deadline=stored,
                    extra=extra,
                )
        except InsufficientChips as exc:
            await self._reload(live.id)
            short = getattr(exc, "have", None)
            need = getattr(exc, "needed", None)
            if short is not None and need is not None:
                raise Refused(
                    f"You have {short:,} league chips: this takes {need:,}. {NOTHING}"
                ) from None
            raise
        except BaseException:
            await self._reload(live.id)
            raise
        live.t = t
        live.extra = extra
        live.version = version
        live.deadline = stored
        if t.status in ("finished", "cancelled"):
            self._forget(live)

    async def _reload(self, tournament_id: int) -> None:
        """Forget the memory of a step that failed: the row as it is stored."""
        async with self.store.read() as tx:
            row = await tx.tournament(tournament_id)
        live = self._live.get(tournament_id)
        if live is None:
            return
        live.t = load(row.state)
        live.extra = dict(row.extra)
        live.version = row.version
        live.deadline = row.deadline
        live.breaking = {int(x) for x in row.extra.get("breaking", [])}

    def _forget(self, live: LiveTournament) -> None:
        self._ended[live.id] = self._lobby(live)
        self._live.pop(live.id, None)
        for table_id in [t for t, tid in self._by_table.items() if tid == live.id]:
            self._by_table.pop(table_id, None)
        task = self._timers.pop(live.id, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    async def _send(self, tournament_id: int, notices: Notices) -> None:
        if self.subscriber is None:
            return
        if not (notices.lobby or notices.posts or notices.dms or notices.results):
            return
        try:
            await self.subscriber.tournament_notices(tournament_id, notices)
        except Exception:
            log.exception("the subscriber failed on tournament %s", tournament_id)

    async def _locked(
        self, tournament_id: int, do: Callable[[LiveTournament, Notices], Awaitable[Any]]
    ) -> Any:
        """Run ``do`` under the tournament's lock; send what it noticed after."""
        notices = Notices()
        async with self._lock(tournament_id):
            live = self.live(tournament_id)
            out = await do(live, notices)
        still = self._live.get(tournament_id)
        if still is not None:
            self._arm(still)
        await self._send(tournament_id, notices)
        return out

    # ================================================================= create, register

    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        config: TournamentConfig,
        computers: int = 0,
        threads: bool = False,
        practice: bool = False,
    ) -> int:
        """A new tournament open for registration (its lobby is posted by the caller).
        ``computers``: seats filled with computer players (a practice tournament: no
        league chips move, as at a practice table); ``threads``: each table plays in a
        thread of the channel."""
        t = open_registration(create(config))
        practice = practice or computers > 0
        seed = self.rng_factory().getrandbits(64)
        extra: dict[str, Any] = {
            "seed": seed,
            "draws": 0,
            "practice": practice,
            "threads": threads,
            "names": {str(host_id): host_name},
        }
        now = self.clock()
        for k in range(computers):
            uid = -(k + 1)
            t = register(t, uid, now=now).tournament
            extra["names"][str(uid)] = f"Computer {k + 1}"
        deadline = next_deadline(t, now=now)
        async with self.store.transaction() as tx:
            row = await tx.create_tournament(
                guild_id,
                channel_id=channel_id,
                host_id=host_id,
                game=config.game,
                state=dump(t),
                extra=extra,
                deadline=None if deadline is None else math.ceil(deadline),
            )
        live = LiveTournament(
            id=row.id,
            guild_id=guild_id,
            number=row.number,
            channel_id=channel_id,
            host_id=host_id,
            game=config.game,
            t=t,
            extra=extra,
            version=row.version,
            deadline=row.deadline,
        )
        self._live[live.id] = live
        self._arm(live)
        return live.id

    async def set_lobby(self, tournament_id: int, channel_id: int, message_id: int) -> None:
        async with self.store.transaction() as tx:
            await tx.set_lobby(tournament_id, channel_id, message_id)
        live = self._live.get(tournament_id)
        if live is not None:
            live.lobby = (channel_id, message_id)

    async def register(self, tournament_id: int, user_id: int, name: str) -> None:
        """**Register**: the buy-in (and bounty) paid in; running: a late registration,
        seated at once."""

        async def do(live: LiveTournament, notices: Notices) -> None:
            out = register(live.t, user_id, now=self.clock())
            live.set_name(user_id, name)
            chips = [(user_id, out.chips, "starting stack")] if out.needs_seat else []
            await self._commit(live, out.tournament, movements=out.movements, chips=chips)
            notices.lobby = True
            if out.needs_seat:
                await self._seat_newcomer(live, user_id, notices)
                await self._balance(live, notices)

        await self._locked(tournament_id, do)

    async def unregister(self, tournament_id: int, user_id: int) -> None:
        async def do(live: LiveTournament, notices: Notices) -> None:
            out = unregister(live.t, user_id)
            await self._commit(live, out.tournament, movements=out.movements)
            notices.lobby = True

        await self._locked(tournament_id, do)

    # ================================================================= start, clock

    async def begin(self, tournament_id: int, user_id: int, *, may_manage: bool) -> None:
        """The host's **Start** (or a league manager's)."""

        async def do(live: LiveTournament, notices: Notices) -> None:
            if user_id != live.host_id and not may_manage:
                raise Refused(
                    f"Only the tournament's host or a league manager starts it. {NOTHING}"
                )
            await self._start(live, notices)

        await self._locked(tournament_id, do)

    async def _start(self, live: LiveTournament, notices: Notices) -> None:
        now = int(self.clock())
        out = start(live.t, now=now)
        t = out.tournament
        chips = [(e.player, t.config.starting_stack, "starting stack") for e in t.alive]
        live.extra["shown"] = _shown(t, now)
        await self._commit(live, t, chips=chips)
        await self._open_tables(live, notices)
        notices.lobby = True
        notices.posts.append(
            Post(
                live.channel_id, f"**Tournament #{live.number}** starts: {self._tables_line(live)}"
            )
        )

    async def pause(self, tournament_id: int, user_id: int, *, may_manage: bool) -> None:
        """``/tournament pause``: the clock stops; no new hand is dealt (hands being played
        are played out)."""

        async def do(live: LiveTournament, notices: Notices) -> None:
            self._director_only(live, user_id, may_manage)
            out = pause(live.t, now=int(self.clock()))
            live.extra["shown"] = _shown(out.tournament, self.clock())
            await self._commit(live, out.tournament)
            await self._show_clock(live, notices)
            notices.posts.append(
                Post(live.channel_id, f"Tournament #{live.number} is paused: the clock stops.")
            )

        await self._locked(tournament_id, do)

    async def resume(self, tournament_id: int, user_id: int, *, may_manage: bool) -> None:
        async def do(live: LiveTournament, notices: Notices) -> None:
            self._director_only(live, user_id, may_manage)
            out = resume(live.t, now=int(self.clock()))
            live.extra["shown"] = _shown(out.tournament, self.clock())
            await self._commit(live, out.tournament)
            await self._show_clock(live, notices)
            for table_id in list(live.tables.values()):
                if table_id not in live.breaking:
                    with contextlib.suppress(HomeGameError):
                        await self.tables.deal_when_ready(table_id)
            notices.posts.append(
                Post(live.channel_id, f"Tournament #{live.number} resumes: the clock runs again.")
            )

        await self._locked(tournament_id, do)

    def _director_only(self, live: LiveTournament, user_id: int, may_manage: bool) -> None:
        if user_id != live.host_id and not may_manage:
            raise Refused(f"Only the tournament's host or a league manager directs it. {NOTHING}")

    def gate(self, table_id: int, tournament_id: int, now: float) -> HandGate:
        """What a table of the tournament deals next (bot/tables/tournament.py): the level
        on now (TDA: a new level applies from the next hand), or a hold."""
        live = self._live.get(tournament_id)
        if live is None or live.t.status != "running" or live.t.started_at is None:
            return HandGate(hold="waiting")
        if table_id in live.breaking:
            return HandGate(hold="closing")
        t = live.t
        d = stakes_for_hand(t.config.structure, start=t.started_at, pauses=t.pauses, at=now)
        if isinstance(d, Hold):
            if d.reason == "paused":
                return HandGate(hold="paused")
            return HandGate(hold="break", until=d.until)
        return HandGate(stakes=d.stakes.table_stakes(t.config.kind), level=d.level)

    def hand_over(self, table_id: int, tournament_id: int) -> None:
        self._spawn(self._hand_over(tournament_id, table_id), f"tournament-{tournament_id}-hand")

    async def _hand_over(self, tournament_id: int, table_id: int) -> None:
        if tournament_id not in self._live:
            return

        async def do(live: LiveTournament, notices: Notices) -> None:
            await self._book_report(live, table_id, notices)
            await self._after_busts(live, notices)

        await self._locked(tournament_id, do)

    # ================================================================= the timer

    def _arm(self, live: LiveTournament) -> None:
        if not self.timers or not self._running:
            return
        old = self._timers.pop(live.id, None)
        if old is not None and old is not asyncio.current_task():
            old.cancel()
        when = next_deadline(live.t, now=self.clock())
        if when is None or live.id not in self._live:
            return
        self._timers[live.id] = asyncio.get_running_loop().create_task(
            self._timer(live.id, float(when)), name=f"tournament-{live.id}-timer"
        )

    async def _timer(self, tournament_id: int, when: float) -> None:
        try:
            await self.sleep(max(0.0, when - self.clock()))
            if self._timers.get(tournament_id) is asyncio.current_task():
                del self._timers[tournament_id]
            await self.tick(tournament_id)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the timer of tournament %s failed", tournament_id)
            await self.sleep(TIMER_RETRY)
            live = self._live.get(tournament_id)
            if live is not None:
                self._arm(live)

    async def tick(self, tournament_id: int) -> None:
        """What the clock brings now: the start (``starts_at``), a level change or a break
        (each table message and the lobby edited once), the add-on offered at the add-on
        break, the end once no busted player may still come back."""
        if tournament_id not in self._live:
            return

        async def do(live: LiveTournament, notices: Notices) -> None:
            t = live.t
            now = self.clock()
            if t.status == "registering":
                if t.config.starts_at is not None and now >= t.config.starts_at:
                    try:
                        await self._start(live, notices)
                    except Refused as exc:
                        notices.posts.append(Post(live.channel_id, exc.message))
                        notices.lobby = True
                return
            if t.status != "running":
                return
            shown = _shown(t, now)
            if live.extra.get("shown") != shown:
                live.extra["shown"] = shown
                await self._commit(live, live.t)
                await self._show_clock(live, notices)
                await self._offer_add_on(live, notices)
            await self._after_busts(live, notices)

        await self._locked(tournament_id, do)

    async def _show_clock(self, live: LiveTournament, notices: Notices) -> None:
        """A level change, a break, a pause: each table message once, and the lobby."""
        for number, table_id in sorted(live.tables.items()):
            with contextlib.suppress(HomeGameError):
                await self.tables.set_tournament_banner(table_id, self.banner(live, number))
        notices.lobby = True

    # ================================================================= restart

    async def recover(self, tournament_id: int) -> None:
        """After a restart (or a failed step): book the hands a crash left unbooked, seat
        the players it left without a seat, end or balance as the state says."""

        async def do(live: LiveTournament, notices: Notices) -> None:
            if live.t.status != "running":
                return
            for table_id in list(live.tables.values()):
                await self._book_report(live, table_id, notices)
            await self._reseat_lost(live, notices)
            await self._after_busts(live, notices)
            shown = _shown(live.t, self.clock())
            if live.extra.get("shown") != shown:
                live.extra["shown"] = shown
                await self._commit(live, live.t)
                await self._show_clock(live, notices)

        await self._locked(tournament_id, do)

    # ================================================================= reading

    def lobby(self, tournament_id: int) -> Lobby:
        ended = self._ended.get(tournament_id)
        if ended is not None and tournament_id not in self._live:
            return ended
        return self._lobby(self.live(tournament_id))

    def title(self, live: LiveTournament) -> str:
        return f"{registry.tournament_game(live.game).title} tournament #{live.number}"


def _shown(t: Tournament, now: float) -> list[Any]:
    """What the tables show of the clock: its step and whether it is paused (a change of
    either edits the table messages once)."""
    if t.started_at is None:
        return []
    r = read_clock(t.config.structure, start=t.started_at, pauses=t.pauses, at=now)
    return [r.step, r.paused]
