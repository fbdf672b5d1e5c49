"""Simulations: computer players play through the REAL TableService and SQLite store.

Timers are off (the simulation calls :meth:`TableService.tick` itself, so a hand never
waits), every action is one store transaction, so a simulation killed at any moment leaves
a consistent database: ``resume`` finishes the hands it interrupted.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from bot import games as registry
from bot.engine.errors import IllegalAction
from bot.store import AuditReport, Store
from bot.tables.service import TableService

SIM_GUILD = 1
"""The league the simulations play in (computer players: user ids -1, -2, ...)."""


@dataclass(slots=True)
class SimReport:
    game: str
    hands: int = 0
    resumed_hands: int = 0
    actions: int = 0
    seconds: float = 0.0
    tables: list[int] = field(default_factory=list)
    chips_won: dict[int, int] = field(default_factory=dict)
    histories: list[Path] = field(default_factory=list)
    games: dict[str, int] = field(default_factory=dict)
    """Hands dealt of each game (a mixed table deals several)."""
    stopped: str | None = None
    audit: AuditReport | None = None

    @property
    def hands_per_second(self) -> float:
        return (self.hands + self.resumed_hands) / self.seconds if self.seconds > 0 else 0.0

    def format(self) -> str:
        lines = [
            f"game {self.game}: {self.hands} hand(s) played"
            + (f", {self.resumed_hands} interrupted hand(s) finished" if self.resumed_hands else "")
            + f" on table(s) {', '.join(map(str, self.tables)) or '-'}",
            f"{self.actions} actions in {self.seconds:.2f} s:"
            f" {self.hands_per_second:.1f} hands/s,"
            f" {self.actions / self.seconds if self.seconds else 0:.0f} actions/s",
        ]
        if len(self.games) > 1:
            lines.append("hands per game: " + ", ".join(f"{g} {n}" for g, n in self.games.items()))
        if self.stopped:
            lines.append(f"stopped early: {self.stopped}")
        lines.append("chips won per player:")
        for uid, won in sorted(self.chips_won.items(), reverse=True):
            lines.append(f"  computer {-uid:>3}  {won:>+8}")
        if self.histories:
            lines.append(f"{len(self.histories)} hand histories written")
        if self.audit is not None:
            lines.append("audit: " + ("OK" if self.audit.ok else "FAILED"))
            if not self.audit.ok:
                lines.append(self.audit.format())
        return "\n".join(lines)


class Progress:
    """A one-line progress bar on a terminal; silent when the stream is not a tty."""

    def __init__(self, total: int, stream: TextIO = sys.stderr) -> None:
        self.total = total
        self.stream = stream
        self.on = stream.isatty() and total > 0
        self._last = 0.0

    def update(self, done: int) -> None:
        if not self.on:
            return
        now = time.monotonic()
        if now - self._last < 0.1 and done < self.total:
            return
        self._last = now
        width = 30
        filled = width * done // self.total
        self.stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{self.total} hands")
        self.stream.flush()

    def close(self) -> None:
        if self.on:
            self.stream.write("\n")
            self.stream.flush()


async def _balances(store: Store, user_ids: list[int]) -> dict[int, int]:
    """Wallet balances; a wallet not yet created counts the league's starting chips."""
    async with store.transaction() as tx:
        start = (await tx.league(SIM_GUILD)).starting_chips
        out = {}
        for uid in user_ids:
            w = await tx.find_wallet(SIM_GUILD, uid)
            out[uid] = start if w is None else w.balance
        return out


async def finish_hand(service: TableService, table_id: int) -> tuple[bool, int]:
    """Play the running hand to its end; (whether one was running, actions taken)."""
    if not await service.hand_in_progress(table_id):
        return False, 0
    actions = 0
    while await service.hand_in_progress(table_id):
        n = await service.play_computers(table_id)
        actions += n
        if n == 0:
            # nobody the policy can move (e.g. a paused engine): let the clock run out
            view = await service.view(table_id)
            if view.status == "paused":
                await service.resume(table_id, view.host_id, may_manage=True)
            else:
                await service.tick(table_id, force=True)
            actions += 1
    return True, actions


async def play_hands(
    service: TableService,
    table_id: int,
    hands: int,
    *,
    on_hand: Callable[[int], None] | None = None,
) -> tuple[int, int, str | None]:
    """Play ``hands`` more hands at the table; (hands, actions, why it stopped early)."""
    done = actions = 0
    while done < hands:
        ran, n = await finish_hand(service, table_id)
        actions += n
        if ran:
            done += 1
            if on_hand is not None:
                on_hand(done)
            continue
        view = await service.view(table_id)
        if view.status == "paused":
            await service.resume(table_id, view.host_id, may_manage=True)
        elif view.status == "running":
            await service.tick(table_id, force=True)
        else:
            try:
                await service.start(table_id, view.host_id)
            except IllegalAction as exc:
                return done, actions, exc.message
    return done, actions, None


async def _games_dealt(store: Store, table_ids: list[int]) -> dict[str, int]:
    """Hands of each game at the tables, in the order the games were first dealt."""
    games: dict[str, int] = {}
    async with store.read() as tx:
        for tid in table_ids:
            for hand in await tx.hands(tid):
                games[hand.game] = games.get(hand.game, 0) + 1
    return games


async def write_histories(store: Store, table_ids: list[int], out_dir: Path) -> list[Path]:
    """Each finished hand's history: ``table<T>-hand<N>.toml`` (Zoot, Wheelers) or
    ``.phh`` (the poker games' PHH: Razz, Stud, Hold'em, Omaha)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    async with store.read() as tx:
        for tid in table_ids:
            for hand in await tx.hands(tid):
                if hand.status != "finished" or not hand.history:
                    continue
                guts = registry.family_of(hand.game) == "guts"  # our TOML, not PHH
                ext = "toml" if guts else "phh"
                path = out_dir / f"table{tid}-hand{hand.number}.{ext}"
                path.write_text(hand.history, encoding="utf-8")
                written.append(path)
    return written


async def run_sim(
    *,
    game: str,
    players: int,
    hands: int,
    seed: int | None,
    db: Path,
    history_dir: Path | None = None,
    resume: bool = False,
    progress: Progress | None = None,
    options: Mapping[str, Any] | None = None,
) -> SimReport:
    """``options``: the table's options beyond the league defaults (``split`` for stud)."""
    master = random.Random(seed)
    report = SimReport(game=game)
    store = await Store.open(db)
    try:
        service = TableService(
            store,
            rng_factory=lambda: random.Random(master.getrandbits(64)),
            timers=False,
            autostart_delay=0,
        )
        await service.start_service()
        started = time.perf_counter()
        user_ids = [-(k + 1) for k in range(players)]
        table_ids: list[int] = []
        if resume:
            for tid in await service.live_table_ids():
                view = await service.view(tid)
                if view.guild_id != SIM_GUILD:
                    continue
                table_ids.append(tid)
                ran, n = await finish_hand(service, tid)
                report.resumed_hands += int(ran)
                report.actions += n
                user_ids = sorted({*user_ids, *(s.user_id for s in view.seats)}, reverse=True)
        before = await _balances(store, user_ids)
        if hands > 0:
            if resume and table_ids:
                tid = table_ids[0]
            else:
                tid = await _new_table(service, store, game, players, master, options)
                table_ids.append(tid)
            done, n, stopped = await play_hands(
                service, tid, hands, on_hand=None if progress is None else progress.update
            )
            report.hands += done
            report.actions += n
            report.stopped = stopped
        for tid in table_ids:
            view = await service.view(tid)
            if view.status != "closed":
                await service.end(tid, view.host_id, may_manage=True)
        report.seconds = time.perf_counter() - started
        after = await _balances(store, user_ids)
        report.chips_won = {u: after[u] - before.get(u, 0) for u in user_ids}
        report.tables = table_ids
        report.games = await _games_dealt(store, table_ids)
        await service.stop_service()
        if history_dir is not None:
            report.histories = await write_histories(store, table_ids, history_dir)
        report.audit = await store.audit()
    finally:
        if progress is not None:
            progress.close()
        await store.close()
    return report


async def _new_table(
    service: TableService,
    store: Store,
    game: str,
    players: int,
    rng: random.Random,
    options: Mapping[str, Any] | None = None,
) -> int:
    async with store.read() as tx:
        while True:
            channel = 10**12 + rng.getrandbits(40)
            if await tx.table_in_channel(channel) is None:
                break
    view = await service.open_table(
        guild_id=SIM_GUILD,
        channel_id=channel,
        host_id=-1,
        host_name="Computer 1",
        game=game,
        options=options,
        computers=0,
        seat_host=False,
    )
    for k in range(players):
        await service.join(view.table_id, -(k + 1), f"Computer {k + 1}", computer=True)
    return view.table_id
