"""Simulations: computer players play through the REAL TableService and SQLite store.

Timers are off (the simulation calls :meth:`TableService.tick` itself, so a hand never
waits), every action is one store transaction, so a simulation killed at any moment leaves
a consistent database: ``resume`` finishes the hands it interrupted.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, TextIO

from bot import games as registry
from bot.engine.errors import IllegalAction
from bot.engine.events import Event
from bot.store import AuditReport, Store
from bot.tables.service import TableService

SIM_GUILD = 1
"""The league the simulations play in (computer players: user ids -1, -2, ...)."""

GUTS_GAMES = frozenset(registry.keys(family="guts"))
"""Games without betting rounds: their hands do not count in the entered shares."""

VOLUNTARY = frozenset({"call", "complete", "bet", "raise"})
"""The actions that put chips in by choice (blinds, antes and bring-ins are forced)."""


@dataclass(slots=True)
class PlayerShare:
    """One computer's betting-game hands: dealt in, entered (chips put in by choice on the
    first betting round) and, of those entered, gone all in (on any street)."""

    hands: int = 0
    entered: int = 0
    all_in: int = 0

    @property
    def entered_share(self) -> float:
        return self.entered / self.hands if self.hands else 0.0

    @property
    def all_in_share(self) -> float:
        """All-ins as a share of the hands entered."""
        return self.all_in / self.entered if self.entered else 0.0


def entered_seats(events: Iterable[Event]) -> tuple[set[int], set[int]]:
    """(seats that entered, seats that entered and went all in) of one hand's events: a
    seat enters when it calls, completes, bets or raises in the first betting round (the
    blinds, antes and bring-in are not actions by choice); an all-in is any action that
    put its last chip in.

    >>> entered_seats([
    ...     Event("blinds"), Event("betting"),
    ...     Event("action", {"seat": 3, "action": "raise", "amount": 30, "all_in": False}),
    ...     Event("action", {"seat": 1, "action": "fold"}),
    ...     Event("action", {"seat": 2, "action": "call", "amount": 20, "all_in": False}),
    ...     Event("betting"),
    ...     Event("action", {"seat": 2, "action": "bet", "amount": 970, "all_in": True}),
    ... ])
    ({2, 3}, {2})
    """
    rounds = 0
    entered: set[int] = set()
    all_in: set[int] = set()
    for event in events:
        if event.kind == "betting":
            rounds += 1
        elif event.kind == "action":
            data = event.data
            seat = data.get("seat")
            if not isinstance(seat, int):
                continue
            if rounds == 1 and data.get("action") in VOLUNTARY and data.get("amount", 0) > 0:
                entered.add(seat)
            if data.get("all_in"):
                all_in.add(seat)
    return entered, all_in & entered


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
    shares: dict[int, PlayerShare] = field(default_factory=dict)
    """By computer (user id): its betting-game hands, entered and all in."""
    rebuys: dict[int, int] = field(default_factory=dict)
    """By computer: how many times it rebought (busted, it takes the starting chips)."""

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
        if self.shares:
            only = " (the betting games' hands)" if GUTS_GAMES & set(self.games) else ""
            lines.append(
                "hands entered (chips put in by choice on the first betting round),"
                f" and of those gone all in{only}:"
            )
            for uid, share in sorted(self.shares.items(), reverse=True):
                lines.append(
                    f"  computer {-uid:>3}  entered {100 * share.entered_share:5.1f}%"
                    f" ({share.entered} of {share.hands} hands)"
                    f"  all in {100 * share.all_in_share:5.1f}% ({share.all_in})"
                )
        rebought = ", ".join(
            f"computer {-u} {n}" for u, n in sorted(self.rebuys.items(), reverse=True) if n
        )
        lines.append(
            f"rebuys: {sum(self.rebuys.values())}" + (f" ({rebought})" if rebought else "")
        )
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


async def rebuy_busted(store: Store, user_ids: Iterable[int]) -> dict[int, int]:
    """Each computer with no chips left rebuys: it takes the league's starting chips from
    the house, a ledger ``rebuy`` as a player's (without the league's cooldown: a
    simulation plays an evening in seconds), so a simulation plays every hand it was asked
    for. Between hands only. Returns the chips each one took."""
    out: dict[int, int] = {}
    async with store.transaction() as tx:
        league = await tx.league(SIM_GUILD)
        amount = league.starting_chips or league.rebuy_amount
        if amount <= 0:
            return out
        house = None
        for uid in user_ids:
            wallet = await tx.find_wallet(SIM_GUILD, uid)
            if wallet is None or wallet.balance > 0:
                continue
            house = house or await tx.house(SIM_GUILD)
            await tx.transfer(
                house.id, wallet.id, amount, "rebuy", actor_id=uid, reason="rebuy (simulation)"
            )
            out[uid] = amount
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
    between: Callable[[], Awaitable[object]] | None = None,
) -> tuple[int, int, str | None]:
    """Play ``hands`` more hands at the table; (hands, actions, why it stopped early).
    ``between`` runs after each hand (the rebuys)."""
    done = actions = 0
    while done < hands:
        ran, n = await finish_hand(service, table_id)
        actions += n
        if ran:
            done += 1
            if on_hand is not None:
                on_hand(done)
            if between is not None and done < hands:
                await between()
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


async def _shares(store: Store, table_ids: list[int]) -> dict[int, PlayerShare]:
    """Each player's betting-game hands at the tables: dealt, entered, all in."""
    out: dict[int, PlayerShare] = {}
    async with store.read() as tx:
        for tid in table_ids:
            for hand in await tx.hands(tid):
                if hand.status != "finished" or hand.game in GUTS_GAMES:
                    continue
                entered, all_in = entered_seats(await tx.hand_events(hand.id))
                for result in await tx.hand_results(hand.id):
                    share = out.setdefault(result.user_id, PlayerShare())
                    share.hands += 1
                    share.entered += result.seat_no in entered
                    share.all_in += result.seat_no in all_in
    return out


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
        rebought: dict[int, int] = {}

        async def rebuys(table_id: int | None = None) -> None:
            if table_id is not None:
                # the table knows its players' chips: no store transaction while none busted
                view = await service.view(table_id)
                if all(seat.stack > 0 for seat in view.seats):
                    return
            for uid, amount in (await rebuy_busted(store, user_ids)).items():
                rebought[uid] = rebought.get(uid, 0) + amount
                report.rebuys[uid] = report.rebuys.get(uid, 0) + 1

        if hands > 0:
            await rebuys()  # a computer that busted in an earlier simulation of this db
            if resume and table_ids:
                tid = table_ids[0]
            else:
                tid = await _new_table(service, store, game, players, master, options)
                table_ids.append(tid)
            done, n, stopped = await play_hands(
                service,
                tid,
                hands,
                on_hand=None if progress is None else progress.update,
                between=partial(rebuys, tid),
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
        report.chips_won = {u: after[u] - before.get(u, 0) - rebought.get(u, 0) for u in user_ids}
        report.tables = table_ids
        report.games = await _games_dealt(store, table_ids)
        report.shares = await _shares(store, table_ids)
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
