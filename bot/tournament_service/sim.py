"""``python -m bot sim tournament``: computer players play a whole tournament through the
REAL TableService, TournamentService and SQLite store (timers off: the simulation deals,
plays and moves its own clock forward, so a 3-hour tournament takes seconds).

The clock: every hand dealt at a table moves it on by :data:`HAND_SECONDS` divided by the
tables playing (they deal side by side); a break or a table waiting for the others jumps
it to the next change. Each computer is a league member of the simulation's league (it
pays its buy-in, rebuys and add-on from its wallet, by the ledger). After every hand the
tournament chips are added up (the chip bank holds minus the stacks and the pots: chips
conserved at every hand); at the end the report prints the finishing order, the payouts
(prize pool = buy-ins + rebuys + add-ons) and the audit.

Every step is one store transaction, so a simulation killed at any moment (SIGKILL)
leaves a consistent database: ``--resume`` picks the tournament up where it was and plays
it to its end.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot import games as registry
from bot.engine.errors import HomeGameError
from bot.store import AuditReport, Store
from bot.tables.service import TableService
from bot.tables.sim import SIM_GUILD, finish_hand
from bot.tournament import TournamentConfig, parse_levels, preset
from bot.tournament.structure import game_kind
from bot.tournament_service.finish import Results
from bot.tournament_service.service import TournamentService

HAND_SECONDS = 90.0
"""How long a hand takes at one table, on the simulation's clock."""
START = 1_800_000_000.0
"""The simulation's clock when a new one starts (a resumed one goes on from its rows)."""
REBUY_LEVELS = 4
"""The simulated tournament's rebuy period: through this level."""
MAX_HANDS = 20_000
"""A guard: a tournament that has not ended after this many hands is reported stuck."""


class SimClock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@dataclass(slots=True)
class TournamentSimReport:
    game: str
    players: int
    seats_per_table: int
    hands: int = 0
    actions: int = 0
    seconds: float = 0.0
    resumed: bool = False
    tournament_id: int | None = None
    results: Results | None = None
    buy_ins: int = 0
    rebuys: int = 0
    add_ons: int = 0
    bounties: int = 0
    most_tables: int = 0
    tables_opened: int = 0
    moves: int = 0
    checks: int = 0
    """Hands after which the tournament chips were added up (all conserved)."""
    unconserved: list[str] = field(default_factory=list)
    stopped: str | None = None
    audit: AuditReport | None = None

    @property
    def ok(self) -> bool:
        return (
            self.audit is not None
            and self.audit.ok
            and not self.unconserved
            and self.stopped is None
            and self.results is not None
            and self.results.status == "finished"
        )

    def format(self) -> str:
        lines = [
            f"tournament {self.game}: {self.players} players, {self.seats_per_table} seats a"
            f" table, {self.tables_opened} tables opened (at most {self.most_tables} at once)",
            f"{self.hands} hands, {self.actions} actions in {self.seconds:.2f} s"
            + (" (resumed)" if self.resumed else ""),
        ]
        if self.stopped:
            lines.append(f"stopped: {self.stopped}")
        r = self.results
        if r is not None:
            pool = r.prize_pool
            lines.append(
                f"prize pool {pool:,} = buy-ins {self.buy_ins:,} + rebuys {self.rebuys:,} +"
                f" add-ons {self.add_ons:,}"
                + ("" if pool == self.buy_ins + self.rebuys + self.add_ons else "  MISMATCH")
            )
            winners = [line for line in r.lines if line.place == 1]
            lines.append(
                "winner: " + ", ".join(w.name for w in winners) + f" ({r.entries} entries)"
            )
            lines.append("finishing order:")
            for line in r.lines:
                extra = []
                if line.prize:
                    extra.append(f"prize {line.prize:,}")
                if line.bounties:
                    extra.append(f"bounties {line.bounties:,}")
                lines.append(
                    f"  {line.label:>9}  {line.name:<12} " + (", ".join(extra) if extra else "")
                )
            paid = [line for line in r.lines if line.prize]
            lines.append(
                f"payouts: {len(paid)} places paid, {sum(p.prize for p in paid):,} of {pool:,}"
            )
            lines.append(f"  {r.rounding}")
            lines.append(f"bounties paid: {self.bounties:,}")
        lines.append(
            f"tournament chips conserved after each of {self.checks} hands: "
            + ("yes" if not self.unconserved else "NO: " + "; ".join(self.unconserved[:3]))
        )
        if self.audit is not None:
            lines.append("audit: " + ("OK" if self.audit.ok else "FAILED"))
            if not self.audit.ok:
                lines.append(self.audit.format())
        return "\n".join(lines)


def sim_config(
    *,
    game: str,
    players: int,
    seats_per_table: int,
    betting: str | None = None,
    structure: str = "turbo",
    levels: str | None = None,
) -> TournamentConfig:
    """The simulated tournament: a buy-in of 100 league chips with a bounty of 10, 1,000
    tournament chips, one rebuy through level :data:`REBUY_LEVELS` and an add-on at the
    break after it (the preset's levels, that break put in)."""
    kind = game_kind(game, betting)
    stack = 1000
    if levels is not None:
        built = parse_levels(levels, kind)
    else:
        # the preset's levels, with a break after the rebuy period (the add-on's)
        base = preset(structure, kind, stack)  # type: ignore[arg-type]
        parts = _level_texts(base)
        levels_only = [p for i, p in enumerate(parts) if not (p.startswith("break") and i < 8)]
        head, rest = levels_only[:REBUY_LEVELS], levels_only[REBUY_LEVELS:]
        built = parse_levels(", ".join([*head, "break 5m", *rest]), kind)
    return TournamentConfig(
        game=game,
        betting=betting,
        buy_in=100,
        starting_stack=stack,
        structure=built,
        max_players=max(players, 2),
        seats_per_table=seats_per_table,
        rebuys=1,
        rebuy_until_level=REBUY_LEVELS,
        add_on=True,
        bounty=10,
        payouts="standard",
    )


def _level_texts(s: Any) -> list[str]:
    from bot.tournament import render_levels

    return render_levels(s).split(", ")


async def _conserved(store: Store, tournament_id: int) -> str | None:
    async with store.read() as tx:
        row = await tx._one(
            "SELECT"
            " (SELECT balance FROM accounts WHERE kind = 'chip_bank' AND tournament_id = :t)"
            "  AS bank,"
            " COALESCE((SELECT SUM(balance) FROM accounts WHERE kind = 'stack'"
            "  AND tournament_id = :t), 0)"
            " + COALESCE((SELECT SUM(a.balance) FROM accounts a JOIN tables tb"
            "  ON tb.id = a.table_id WHERE a.kind = 'pot' AND tb.tournament_id = :t), 0)"
            "  AS in_play",
            {"t": tournament_id},
        )
    assert row is not None
    if row["bank"] + row["in_play"] != 0:
        return f"bank {row['bank']} vs {row['in_play']} in play"
    return None


async def run_tournament_sim(
    *,
    game: str,
    players: int,
    seats_per_table: int,
    seed: int | None,
    db: Path,
    resume: bool = False,
    betting: str | None = None,
    structure: str = "turbo",
    levels: str | None = None,
) -> TournamentSimReport:
    master = random.Random(seed)
    report = TournamentSimReport(game=game, players=players, seats_per_table=seats_per_table)
    clock = SimClock(START)
    store = await Store.open(db, clock=clock)
    try:
        if resume:
            async with store.read() as tx:
                row = await tx._one(
                    "SELECT MAX(updated_at) AS t FROM tournaments WHERE guild_id = ?",
                    (SIM_GUILD,),
                )
                latest = await tx._one("SELECT MAX(created_at) AS t FROM ledger")
            known = [x["t"] for x in (row, latest) if x is not None and x["t"] is not None]
            clock.now = float(max(known, default=START)) + 1.0
        tables = TableService(
            store,
            clock=clock,
            rng_factory=lambda: random.Random(master.getrandbits(64)),
            timers=False,
            autostart_delay=0,
        )
        director = TournamentService(
            store,
            tables,
            clock=clock,
            rng_factory=lambda: random.Random(master.getrandbits(64)),
            timers=False,
        )
        await director.load()
        await tables.start_service()
        await director.start()
        started = time.perf_counter()
        tid = next(iter(director.live_ids(SIM_GUILD)), None) if resume else None
        report.resumed = tid is not None
        if tid is None:
            config = sim_config(
                game=game,
                players=players,
                seats_per_table=seats_per_table,
                betting=betting,
                structure=structure,
                levels=levels,
            )
            tid = await director.create(
                guild_id=SIM_GUILD,
                channel_id=10**12 + master.getrandbits(32),
                host_id=-1,
                host_name="Computer 1",
                config=config,
            )
        if director.live(tid).t.status == "registering":
            # a new one, or one killed before it started: the field, then the start
            field = director.live(tid).t.players
            for k in range(players):
                if -(k + 1) not in field:
                    await director.register(tid, -(k + 1), f"Computer {k + 1}")
            await director.begin(tid, -1, may_manage=True)
        report.tournament_id = tid
        await _play(director, tables, clock, tid, report)
        report.seconds = time.perf_counter() - started
        await director.stop()
        await tables.stop_service()
        report.results = await director.tournament_results(tid)
        await _money(store, tid, report)
        report.audit = await store.audit()
    finally:
        await store.close()
    return report


async def _play(
    director: TournamentService,
    tables: TableService,
    clock: SimClock,
    tid: int,
    report: TournamentSimReport,
) -> None:
    seen_tables: set[int] = set()
    while tid in director.live_ids():
        live = director.live(tid)
        ids = sorted(live.tables.values())
        seen_tables.update(ids)
        report.most_tables = max(report.most_tables, len(ids))
        played = False
        for table_id in ids:
            if tid not in director.live_ids():
                break
            if table_id not in director.live(tid).tables.values():
                continue
            try:
                ran, n = await finish_hand(tables, table_id)
            except HomeGameError:
                continue
            report.actions += n
            if ran:
                played = True
                report.hands += 1
                clock.now += HAND_SECONDS / max(1, len(ids))
                await director.settle()
                problem = await _conserved(tables.store, tid)
                report.checks += 1
                if problem is not None:
                    report.unconserved.append(f"after hand {report.hands}: {problem}")
                continue
            view = await tables.view(table_id)
            due = view.deadline is not None and view.deadline <= clock.now
            if view.status == "running" and due:
                await tables.tick(table_id, force=True)
                await director.settle()
        if tid not in director.live_ids():
            break
        await director.tick(tid)
        await director.settle()
        if not played:
            # every table waits: a break, or the next deadline of a table or of the clock
            waits = []
            for table_id in (
                director.live(tid).tables.values() if tid in director.live_ids() else ()
            ):
                view = await tables.view(table_id)
                if view.deadline is not None:
                    waits.append(view.deadline)
            if tid in director.live_ids() and director.live(tid).deadline is not None:
                waits.append(float(director.live(tid).deadline or 0))
            future = [w for w in waits if w > clock.now]
            if future:
                clock.now = min(future)
            elif waits:
                for table_id in director.live(tid).tables.values():
                    await tables.tick(table_id, force=True)
                await director.settle()
            else:
                live = director.live(tid)
                where = []
                for n, table_id in sorted(live.tables.items()):
                    view = await tables.view(table_id)
                    where.append(f"table {n}: {view.status} {len(view.seats)} seated")
                report.stopped = (
                    f"no table could deal and nothing was due ({len(live.t.alive)} in;"
                    f" {'; '.join(where) or 'no table'})"
                )
                return
        if report.hands > MAX_HANDS:
            report.stopped = f"no winner after {MAX_HANDS} hands"
            return
    report.tables_opened = len(seen_tables)


async def _money(store: Store, tid: int, report: TournamentSimReport) -> None:
    async with store.read() as tx:
        rows = await tx._all(
            "SELECT l.kind, SUM(l.amount) AS n FROM ledger l JOIN accounts a"
            " ON a.id = l.to_account OR a.id = l.from_account"
            " WHERE a.tournament_id = ? AND a.kind IN ('prize_pool', 'bounties')"
            " GROUP BY l.kind",
            (tid,),
        )
    sums: Mapping[str, int] = {r["kind"]: r["n"] for r in rows}
    report.buy_ins = sums.get("tournament_buy_in", 0)
    report.rebuys = sums.get("tournament_rebuy", 0)
    report.add_ons = sums.get("tournament_add_on", 0)
    report.bounties = sums.get("bounty", 0)


def check_args(game: str, players: int, seats_per_table: int) -> str | None:
    """Why these arguments make no simulated tournament (None: they do)."""
    if game not in registry.tournament_keys():
        return f"--game: one of {', '.join(registry.tournament_keys())}"
    if players < 2:
        return "--players must be at least 2"
    most = registry.tournament_game(game).seats
    if not 2 <= seats_per_table <= most:
        return f"--seats-per-table: from 2 to {most} at {game}"
    return None
