"""Benchmark: one player action through the TableService with persistence.

Run:  python bench/service.py [--actions N] [--slice S] [--tables-for-memory M]

For 1, 10 and 100 tables acting at once, each action is a real Razz action (chosen by the
computer policy) through ``TableService.act``: the table lock, the engine, the ledger rows,
the hand's events and the snapshot in one SQLite transaction. The floor is a bare aiosqlite
``BEGIN IMMEDIATE; INSERT; COMMIT`` with the same pragmas (WAL, synchronous=NORMAL) and the
same concurrency, on one connection as the store has. Memory: the traced Python allocations
of ``M`` open tables, each with a hand being played, scaled to 1,000 tables.

Fairness: both sides open their connection with the store's pragmas (busy_timeout,
foreign_keys, WAL, synchronous=NORMAL); at N tables, N tasks run at once on each side.
Both sides of a level are set up first, then measured in INTERLEAVED slices of
``--slice`` operations (service, bare, bare, service, ...: the order alternates), in the
same process, so a change of the machine's load hits both alike. Before timing, each task
does ``WARMUP`` untimed operations on both sides (first-use costs: imports, lookup tables,
the first pages of a new database); then each side runs ``--actions`` timed operations
(default 3,000 per level, so the p99 is the 30th worst). The service side's next-hand
starts (``tick``) are untimed but, like any other table's transaction, may delay a timed
action. Python's cyclic GC stays on; its pauses are timed (``gc.callbacks``) and reported
with how many of each side's slowest 1% overlapped one.

Targets: p99 within 3x the bare commit; 1,000 open tables under 300 MB. Prints a markdown
table; the last line is ``RESULT p99_vs_commit=R mb_per_1000_tables=M`` (R: the worst
ratio over the three concurrency levels).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import random
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import aiosqlite

from bot.store import Store
from bot.tables import TableService

LEVELS = (1, 10, 100)
WARMUP = 10
"""Untimed operations per task before the timed ones, on both sides."""
SLICE = 100
"""Timed operations per slice; the two sides alternate slice by slice."""


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class GcClock:
    """Times every cyclic-GC collection (``gc.callbacks``): (start, end, generation)."""

    def __init__(self) -> None:
        self.pauses: list[tuple[float, float, int]] = []
        self._t0 = 0.0

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._t0 = time.perf_counter()
        else:
            self.pauses.append((self._t0, time.perf_counter(), int(info["generation"])))

    def __enter__(self) -> GcClock:
        gc.callbacks.append(self)
        return self

    def __exit__(self, *exc: object) -> None:
        gc.callbacks.remove(self)

    def overlapping(self, spans: list[tuple[float, float]]) -> int:
        """How many of ``spans`` (start, end) contain (part of) a collection."""
        if not self.pauses:
            return 0
        return sum(1 for a, b in spans if any(s < b and e > a for s, e, _ in self.pauses))


@dataclass
class Side:
    """One side's timed operations: (start, end) of each."""

    spans: list[tuple[float, float]] = field(default_factory=list)
    busy: float = 0.0
    """Wall time of its slices."""

    @property
    def latencies(self) -> list[float]:
        return [b - a for a, b in self.spans]

    def tail(self) -> list[tuple[float, float]]:
        """The slowest 1% of the spans (above the p99)."""
        cut = pct(self.latencies, 0.99)
        return [(a, b) for a, b in self.spans if b - a >= cut]


async def open_tables(service: TableService, n: int, first_channel: int) -> list[int]:
    ids = []
    for i in range(n):
        v = await service.open_table(
            guild_id=1,
            channel_id=first_channel + i,
            host_id=-1,
            host_name="C1",
            game="razz",
            computers=0,
            seat_host=False,
        )
        for k in (1, 2, 3):
            await service.join(
                v.table_id, -(1000 * (first_channel + i) + k), f"C{k}", computer=True
            )
        await service.start(v.table_id, -(1000 * (first_channel + i) + 1))
        ids.append(v.table_id)
    return ids


Runner = Callable[[int, Side | None], Awaitable[None]]
"""Run ``count`` operations per task (all tasks at once); record them in the side (None:
untimed)."""


async def service_side(
    db: Path, tables: int
) -> tuple[Runner, Callable[[], Awaitable[None]], Store]:
    master = random.Random(tables)
    store = await Store.open(db)
    service = TableService(
        store, rng_factory=lambda: random.Random(master.getrandbits(64)), timers=False
    )
    await service.start_service()
    ids = await open_tables(service, tables, first_channel=tables * 10_000)

    async def player(tid: int, count: int, side: Side | None) -> None:
        done = 0
        while done < count:
            moves = service.computer_moves(tid)
            if not moves:
                await service.tick(tid, force=True)  # the next hand (not timed)
                continue
            uid, action = moves[0]
            t0 = time.perf_counter()
            await service.act(tid, uid, action.kind, amount=action.amount)
            if side is not None:
                side.spans.append((t0, time.perf_counter()))
            done += 1

    async def run(count: int, side: Side | None) -> None:
        await asyncio.gather(*(player(t, count, side) for t in ids))

    async def close() -> None:
        await service.stop_service()
        await store.close()

    return run, close, store


async def bare_side(db: Path, tasks: int) -> tuple[Runner, Callable[[], Awaitable[None]]]:
    conn = await aiosqlite.connect(db, isolation_level=None)
    # the store's connection set-up (Store.open)
    await conn.execute("PRAGMA busy_timeout = 5000")
    await conn.execute("PRAGMA foreign_keys = ON")
    await conn.execute("PRAGMA journal_mode = WAL")
    await conn.execute("PRAGMA synchronous = NORMAL")
    await conn.execute("CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, v TEXT) STRICT")
    lock = asyncio.Lock()  # one connection, one transaction at a time (as the store does)

    async def worker(count: int, side: Side | None) -> None:
        for _ in range(count):
            t0 = time.perf_counter()
            async with lock:
                await conn.execute("BEGIN IMMEDIATE")
                await conn.execute("INSERT INTO t (v) VALUES (?)", ("x" * 64,))
                await conn.execute("COMMIT")
            if side is not None:
                side.spans.append((t0, time.perf_counter()))

    async def run(count: int, side: Side | None) -> None:
        await asyncio.gather(*(worker(count, side) for _ in range(tasks)))

    return run, conn.close


@dataclass
class Level:
    tables: int
    svc: Side
    bare: Side
    gc: GcClock
    wal: str = ""
    """The service store's WAL checkpoints during the level (bot.store.checkpoint)."""

    @property
    def ratio(self) -> float:
        return pct(self.svc.latencies, 0.99) / pct(self.bare.latencies, 0.99)


async def level(tmp: Path, tables: int, actions: int, slice_ops: int) -> Level:
    svc_run, svc_close, store = await service_side(tmp / f"svc{tables}.db", tables)
    bare_run, bare_close = await bare_side(tmp / f"bare{tables}.db", tables)
    await svc_run(WARMUP, None)
    await bare_run(WARMUP, None)
    per_task = max(1, slice_ops // tables)
    svc, bare = Side(), Side()
    sides = [(svc_run, svc), (bare_run, bare)]
    with GcClock() as clock:
        k = 0
        while len(svc.spans) < actions or len(bare.spans) < actions:
            order = sides if k % 2 == 0 else sides[::-1]
            for run, side in order:
                if len(side.spans) < actions:
                    t0 = time.perf_counter()
                    await run(per_task, side)
                    side.busy += time.perf_counter() - t0
            k += 1
    wal = wal_line(store, tmp / f"svc{tables}.db")
    await svc_close()
    await bare_close()
    return Level(tables, svc, bare, clock, wal)


def wal_line(store: Store, db: Path) -> str:
    ck = store.checkpointer
    wal = db.with_name(db.name + "-wal")
    size = wal.stat().st_size / 1e6 if wal.exists() else 0.0
    if ck is None:
        return f"SQLite autocheckpoint; WAL file {size:.1f} MB"
    return (
        f"{ck.checkpoints} background checkpoints, {ck.finishes} by the writer,"
        f" {ck.failures} failed; WAL at most {ck.max_wal} pages, file {size:.1f} MB"
    )


async def memory(db: Path, tables: int) -> float:
    """MB of Python allocations per 1,000 open tables (each in the middle of a hand)."""
    store = await Store.open(db)
    service = TableService(store, rng_factory=lambda: random.Random(1), timers=False)
    await service.start_service()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    await open_tables(service, tables, first_channel=900_000)
    used = tracemalloc.get_traced_memory()[0] - base
    tracemalloc.stop()
    await service.stop_service()
    await store.close()
    return used / 1e6 * 1000 / tables


async def main_async(actions: int, slice_ops: int, mem_tables: int) -> int:
    levels: list[Level] = []
    with tempfile.TemporaryDirectory(prefix="homegame-bench-") as tmp:
        for n in LEVELS:
            levels.append(await level(Path(tmp), n, actions, slice_ops))
        mb = await memory(Path(tmp) / "mem.db", mem_tables)
    print(
        "| tables | timed actions | actions/s | p50 ms | p99 ms | bare commits/s |"
        " bare p50 ms | bare p99 ms | p99 ratio |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for lv in levels:
        s, b = lv.svc.latencies, lv.bare.latencies
        print(
            f"| {lv.tables} | {len(s)} | {len(s) / lv.svc.busy:.0f} | {pct(s, 0.5) * 1e3:.2f} |"
            f" {pct(s, 0.99) * 1e3:.2f} | {len(b) / lv.bare.busy:.0f} |"
            f" {pct(b, 0.5) * 1e3:.2f} | {pct(b, 0.99) * 1e3:.2f} | {lv.ratio:.2f}x |"
        )
    print()
    for lv in levels:
        pauses = [(e - s) * 1e3 for s, e, _ in lv.gc.pauses]
        svc_tail, bare_tail = lv.svc.tail(), lv.bare.tail()
        print(
            f"gc at {lv.tables} tables: {len(pauses)} collections"
            f" (gen2: {sum(1 for *_, g in lv.gc.pauses if g == 2)}),"
            f" max {max(pauses, default=0.0):.2f} ms, total {sum(pauses):.1f} ms;"
            f" slowest 1% overlapping one: service {lv.gc.overlapping(svc_tail)}/{len(svc_tail)},"
            f" bare {lv.gc.overlapping(bare_tail)}/{len(bare_tail)}"
        )
    for lv in levels:
        print(f"wal at {lv.tables} tables: {lv.wal}")
    worst = max(lv.ratio for lv in levels)
    print(f"memory: {mb:.1f} MB per 1,000 open tables (measured on {mem_tables}; target < 300)")
    print("target: p99 within 3x the bare commit")
    print(f"RESULT p99_vs_commit={worst:.2f} mb_per_1000_tables={mb:.1f}")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=3000, help="timed actions per level")
    parser.add_argument(
        "--slice", type=int, default=SLICE, help="timed operations per interleaved slice"
    )
    parser.add_argument(
        "--tables-for-memory", type=int, default=1000, help="tables opened for the memory figure"
    )
    args = parser.parse_args()
    return asyncio.run(main_async(args.actions, args.slice, args.tables_for_memory))


if __name__ == "__main__":
    sys.exit(main())
