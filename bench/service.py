"""Benchmark: one player action through the TableService with persistence.

Run:  python bench/service.py [--actions N] [--tables-for-memory M]

For 1, 10 and 100 tables acting at once, each action is a real Razz action (chosen by the
computer policy) through ``TableService.act``: the table lock, the engine, the ledger rows,
the hand's events and the snapshot in one SQLite transaction. The floor is a bare aiosqlite
``BEGIN IMMEDIATE; INSERT; COMMIT`` with the same pragmas (WAL, synchronous=NORMAL) and the
same concurrency, on one connection as the store has. Memory: the traced Python allocations
of ``M`` open tables, each with a hand being played, scaled to 1,000 tables.

Fairness: both sides open their connection with the store's pragmas (busy_timeout,
foreign_keys, WAL, synchronous=NORMAL); at N tables, N tasks run at once on each side;
each task first does ``WARMUP`` untimed operations (first-use costs: imports, lookup
tables, the first pages of a new database); then ``N`` tasks share ``--actions`` timed
operations (default 3,000 per level, so the p99 is the 30th worst, not the 6th). The
service side's next-hand starts (``tick``) are untimed but, like any other table's
transaction, may delay a timed action.

Targets: p99 within 3x the bare commit; 1,000 open tables under 300 MB. Prints a markdown
table; the last line is ``RESULT p99_vs_commit=R mb_per_1000_tables=M`` (R: the worst
ratio over the three concurrency levels).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import aiosqlite

from bot.store import Store
from bot.tables import TableService

LEVELS = (1, 10, 100)
WARMUP = 10
"""Untimed operations per task before the timed ones, on both sides."""


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


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


async def service_level(db: Path, tables: int, actions: int) -> tuple[list[float], float]:
    master = random.Random(tables)
    store = await Store.open(db)
    service = TableService(
        store, rng_factory=lambda: random.Random(master.getrandbits(64)), timers=False
    )
    await service.start_service()
    ids = await open_tables(service, tables, first_channel=tables * 10_000)
    per_table = max(1, actions // tables)
    latencies: list[float] = []

    async def player(tid: int) -> None:
        done = -WARMUP
        while done < per_table:
            moves = service.computer_moves(tid)
            if not moves:
                await service.tick(tid, force=True)  # the next hand (not timed)
                continue
            uid, action = moves[0]
            t0 = time.perf_counter()
            await service.act(tid, uid, action.kind, amount=action.amount)
            if done >= 0:
                latencies.append(time.perf_counter() - t0)
            done += 1

    t0 = time.perf_counter()
    await asyncio.gather(*(player(t) for t in ids))
    wall = time.perf_counter() - t0
    await service.stop_service()
    await store.close()
    return latencies, (len(latencies) + WARMUP * tables) / wall


async def bare_level(db: Path, tasks: int, ops: int) -> tuple[list[float], float]:
    conn = await aiosqlite.connect(db, isolation_level=None)
    # the store's connection set-up (Store.open)
    await conn.execute("PRAGMA busy_timeout = 5000")
    await conn.execute("PRAGMA foreign_keys = ON")
    await conn.execute("PRAGMA journal_mode = WAL")
    await conn.execute("PRAGMA synchronous = NORMAL")
    await conn.execute("CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, v TEXT) STRICT")
    lock = asyncio.Lock()  # one connection, one transaction at a time (as the store does)
    per_task = max(1, ops // tasks)
    latencies: list[float] = []

    async def worker() -> None:
        for i in range(-WARMUP, per_task):
            t0 = time.perf_counter()
            async with lock:
                await conn.execute("BEGIN IMMEDIATE")
                await conn.execute("INSERT INTO t (v) VALUES (?)", ("x" * 64,))
                await conn.execute("COMMIT")
            if i >= 0:
                latencies.append(time.perf_counter() - t0)

    t0 = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(tasks)))
    wall = time.perf_counter() - t0
    await conn.close()
    return latencies, (len(latencies) + WARMUP * tasks) / wall


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


async def main_async(actions: int, mem_tables: int) -> int:
    rows = []
    worst = 0.0
    with tempfile.TemporaryDirectory(prefix="homegame-bench-") as tmp:
        for level in LEVELS:
            svc_lat, svc_rate = await service_level(Path(tmp) / f"svc{level}.db", level, actions)
            bare_lat, bare_rate = await bare_level(Path(tmp) / f"bare{level}.db", level, actions)
            ratio = pct(svc_lat, 0.99) / pct(bare_lat, 0.99)
            worst = max(worst, ratio)
            rows.append(
                (
                    level,
                    len(svc_lat),
                    svc_rate,
                    pct(svc_lat, 0.5) * 1e3,
                    pct(svc_lat, 0.99) * 1e3,
                    bare_rate,
                    pct(bare_lat, 0.5) * 1e3,
                    pct(bare_lat, 0.99) * 1e3,
                    ratio,
                )
            )
        mb = await memory(Path(tmp) / "mem.db", mem_tables)
    print(
        "| tables | timed actions | actions/s | p50 ms | p99 ms | bare commits/s |"
        " bare p50 ms | bare p99 ms | p99 ratio |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(
            f"| {r[0]} | {r[1]} | {r[2]:.0f} | {r[3]:.2f} | {r[4]:.2f} | {r[5]:.0f} |"
            f" {r[6]:.2f} | {r[7]:.2f} | {r[8]:.2f}x |"
        )
    print()
    print(f"memory: {mb:.1f} MB per 1,000 open tables (measured on {mem_tables}; target < 300)")
    print("target: p99 within 3x the bare commit")
    print(f"RESULT p99_vs_commit={worst:.2f} mb_per_1000_tables={mb:.1f}")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=3000, help="timed actions per level")
    parser.add_argument(
        "--tables-for-memory", type=int, default=1000, help="tables opened for the memory figure"
    )
    args = parser.parse_args()
    return asyncio.run(main_async(args.actions, args.tables_for_memory))


if __name__ == "__main__":
    sys.exit(main())
