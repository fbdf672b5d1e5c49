"""A tournament's tables (issue 20): ordinary tables of their family that play the
players' tournament stacks and deal each hand at the stakes their director gives (a part
of :class:`bot.tables.service.TableService`).

The director (bot/tournament_service) never reaches into a table: it opens one with its
players in their drawn seats, seats or unseats a player between hands, sets what the table
message shows of the tournament, and closes a broken table. The table asks it, through
the small :class:`TableDirector` hook, two things:

- **before each hand** (:meth:`TableDirector.gate`): the level's stakes (a level change
  applies from the next hand, TDA), or why no hand starts now: a break (until its end), a
  pause of the clock (until ``/tournament resume``), a table being broken;
- **after each hand**: nothing is asked; the table keeps a :class:`HandReport` in its
  snapshot (who was knocked out, with the chips they began the hand with and who won them)
  and tells the director once its lock is released (:meth:`TableDirector.hand_over`). The
  report survives a restart, so the director reads it again if it had not yet booked it.

At a tournament's table nobody is sat out (TDA: every player is dealt in, an absent one's
hand is folded when their time runs out, rules 6.14's idle rule aside), a busted player's
seat is freed at the hand's end, and a newcomer is dealt in from the next hand.
"""

from __future__ import annotations

import math
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Protocol

from bot.engine.stud.pots import build_pots
from bot.store import Store, Tx
from bot.tables.errors import NotAllowed, NotSeated
from bot.tables.games import make_family
from bot.tables.live import LiveTable, Step
from bot.tables.views import TableView

NOT_HERE = (
    "This is a tournament's table: its director seats the players and deals the hands."
    " Nothing changed."
)


@dataclass(frozen=True, slots=True)
class HandGate:
    """What a tournament table does instead of, or how it deals, its next hand."""

    stakes: Mapping[str, Any] | None = None
    """Deal at these stakes (the level's ``table_stakes``)."""
    level: int | None = None
    hold: str | None = None
    """No hand now: ``break`` (until ``until``), ``paused`` (the director's pause),
    ``closing`` (the table is being broken), ``waiting`` (for the director)."""
    until: int | None = None
    say: str | None = None
    """What the table posts when it holds (once per hold)."""


class TableDirector(Protocol):
    """The tournament service as its tables see it."""

    def gate(self, table_id: int, tournament_id: int, now: float) -> HandGate: ...

    def hand_over(self, table_id: int, tournament_id: int) -> None:
        """A hand ended at the table (its report is in the table's snapshot): called with
        no lock held; the director does its work in its own task."""


@dataclass(frozen=True, slots=True)
class BustReport:
    """A player the hand took the last chip of: the chips they began it with, and the chips
    each winner took of theirs (the weights their bounty is split by)."""

    user_id: int
    seat: int
    started_with: int
    taken_by: Mapping[int, int]
    """Winner's user id -> their weight (chips of the busted player's they won)."""


@dataclass(frozen=True, slots=True)
class HandReport:
    table_id: int
    hand_number: int
    started_at: int
    ended_at: int
    level: int | None
    busted: tuple[BustReport, ...] = ()
    order: tuple[int, ...] = ()
    """The busted users in seat order from the button's left (odd chips, places)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "table_id": self.table_id,
            "hand_number": self.hand_number,
            "started_at": self.started_at,
            "ended_at": self.ended_at,
            "level": self.level,
            "busted": [
                {
                    "user_id": b.user_id,
                    "seat": b.seat,
                    "started_with": b.started_with,
                    "taken_by": {str(u): w for u, w in b.taken_by.items()},
                }
                for b in self.busted
            ],
        }

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> HandReport:
        return cls(
            table_id=int(raw["table_id"]),
            hand_number=int(raw["hand_number"]),
            started_at=int(raw["started_at"]),
            ended_at=int(raw["ended_at"]),
            level=raw.get("level"),
            busted=tuple(
                BustReport(
                    int(b["user_id"]),
                    int(b["seat"]),
                    int(b["started_with"]),
                    {int(u): int(w) for u, w in b["taken_by"].items()},
                )
                for b in raw.get("busted", [])
            ),
        )


@dataclass(frozen=True, slots=True)
class Seating:
    """A tournament table's seats as its director plans with them (between hands, or not)."""

    table_id: int
    seats: Mapping[int, int]
    """Seat number -> user id."""
    max_seats: int
    button: int | None
    last_big_blind: int | None
    in_hand: bool
    status: str
    hand_number: int
    stacks: Mapping[int, int] = field(default_factory=dict)
    """User id -> the chips they have now (between hands: all of them)."""


@dataclass(frozen=True, slots=True)
class TournamentSeat:
    user_id: int
    name: str
    seat: int
    is_computer: bool = False


def taken_weights(
    busted: int,
    contributions: Mapping[int, int],
    folded: frozenset[int],
    pots: Sequence[Mapping[str, Any]],
) -> dict[int, int]:
    """Who won the chips of seat ``busted``, and how many (seat -> whole-chip weights in
    proportion): its contribution to each pot it contested (the main pot, the side pots it
    reached), times each winner's share of that pot. ``pots`` are the hand's result pots
    in order (the engines' ``shares`` by seat), matched to the pots the contributions
    build (the engines build them the same way, bot/engine/stud/pots.py; dead antes join
    the main pot). When they do not match, every pot's winners share the weights by what
    they won.

    >>> # A all in for 100, B and C 500 each: B wins the main pot, C the side pot
    >>> taken_weights(1, {1: 100, 2: 500, 3: 500}, frozenset(), [
    ...     {"amount": 300, "shares": {"2": 300}}, {"amount": 800, "shares": {"3": 800}}])
    {2: 100}
    >>> taken_weights(1, {1: 100, 2: 100, 3: 100}, frozenset(), [
    ...     {"amount": 300, "shares": {"2": 150, "3": 150}}])  # a split pot
    {2: 50, 3: 50}
    """
    seats = sorted(contributions)
    live = [s not in folded for s in seats]
    built = (
        build_pots([contributions[s] for s in seats], live) if any(contributions.values()) else []
    )
    amounts = [int(p.get("amount", 0)) for p in pots]
    dead = sum(amounts) - sum(p.amount for p in built)
    matches = (
        len(built) == len(pots)
        and dead >= 0
        and [p.amount for p in built] == [amounts[0] - dead, *amounts[1:]]
    )
    mine = contributions.get(busted, 0)
    weights: dict[int, Fraction] = {}
    if matches and busted in seats:
        me = seats.index(busted)
        low = 0
        for pot, result in zip(built, pots, strict=True):
            high = min((contributions[seats[p]] for p in pot.eligible), default=low)
            part = max(0, min(mine, high) - low)
            low = max(low, high)
            if not part or me not in pot.eligible:
                continue
            shares = {int(s): int(a) for s, a in result.get("shares", {}).items()}
            total = sum(shares.values())
            for seat, amount in shares.items():
                if seat != busted and amount and total:
                    weights[seat] = weights.get(seat, Fraction(0)) + Fraction(part * amount, total)
    if not weights:
        for result in pots:
            for s, a in result.get("shares", {}).items():
                if int(s) != busted and int(a) > 0:
                    weights[int(s)] = weights.get(int(s), Fraction(0)) + int(a)
    if not weights:
        return {}
    scale = math.lcm(*(w.denominator for w in weights.values()))
    return {s: int(w * scale) for s, w in sorted(weights.items()) if w > 0}


def in_seat_order(seats: Sequence[int], button: int | None) -> list[int]:
    """``seats`` clockwise from the button's left."""
    ordered = sorted(seats)
    if button is None:
        return ordered
    return [s for s in ordered if s > button] + [s for s in ordered if s <= button]


class TableTournament:
    """Mixin of the TableService: what it needs of the service is declared below."""

    store: Store
    clock: Callable[[], float]
    director: TableDirector | None
    _tables: dict[int, LiveTable]
    _get: Callable[[int], Awaitable[LiveTable]]
    _run_view: Callable[..., Awaitable[TableView]]
    _sit: Callable[..., Awaitable[None]]
    _remove: Callable[..., Awaitable[None]]
    _schedule_next: Callable[..., Awaitable[None]]
    _close: Callable[..., Awaitable[None]]
    _table_view: Callable[[LiveTable], TableView]
    _arm: Callable[[LiveTable], None]
    _cancel_timer: Callable[[int], None]
    _deadline_in: Callable[[LiveTable, float], int]
    _lock: Callable[[int], Any]

    # ------------------------------------------------------------------ the director's

    async def open_tournament_table(
        self,
        *,
        guild_id: int,
        channel_id: int,
        game: str,
        options: Mapping[str, Any],
        tournament_id: int,
        number: int,
        players: Sequence[TournamentSeat],
        banner: Mapping[str, Any],
        stakes: Mapping[str, Any],
    ) -> TableView:
        """A new table ``number`` of the tournament with ``players`` in their drawn seats,
        its first hand dealt at once (its stakes are the level's when it is dealt)."""
        family = make_family(game, {**options, **stakes})
        async with self.store.transaction() as tx:
            table = await tx.create_table(
                guild_id,
                channel_id,
                game,
                host_id=None,
                rules=family.rules_json,
                tournament_id=tournament_id,
            )
            await tx.add_tournament_table(tournament_id, number, table.id)
            live = LiveTable(
                id=table.id,
                guild_id=guild_id,
                channel_id=channel_id,
                game=game,
                host_id=0,
                practice=False,
                status="open",
                version=table.version,
                deadline=None,
                family=family,
                tournament_id=tournament_id,
                tournament={"banner": dict(banner), "stakes": dict(stakes)},
            )
            step = Step()
            for p in sorted(players, key=lambda p: p.seat):
                await self._sit(live, tx, step, p.user_id, p.name, is_computer=p.is_computer,
                                seat_no=p.seat)  # fmt: skip
            saved = await tx.save_table(
                live.id,
                expected_version=live.version,
                snapshot=live.session(),
                deadline=None,
                status="open",
            )
            live.version = saved.version
        self._tables[live.id] = live
        return await self.deal_when_ready(live.id)

    async def deal_when_ready(self, table_id: int) -> TableView:
        """Set the next hand going at a tournament table between hands (after the director
        seated players there, resumed its clock, or a break ended): it asks the gate."""

        async def do(live: LiveTable, tx: Tx, step: Step) -> None:
            _tournament_only(live)
            if live.status == "paused":
                live.status = "running"
            live.tournament.pop("hold", None)
            if not live.family.hand_running and live.pending != "next_hand":
                await self._schedule_next(live, tx, step)
            elif not live.family.hand_running:
                live.deadline = self._deadline_in(live, 0)

        return await self._run_view(table_id, do)

    async def seat_tournament_player(
        self, table_id: int, player: TournamentSeat, *, say: str | None = None
    ) -> TableView:
        """Seat a player (moved here, back from a rebuy, a late registrant) at their seat;
        dealt in from the next hand."""

        async def do(live: LiveTable, tx: Tx, step: Step) -> None:
            _tournament_only(live)
            await self._sit(
                live, tx, step, player.user_id, player.name, is_computer=player.is_computer,
                seat_no=player.seat,
            )  # fmt: skip
            if say:
                step.announcements.append(say)
            step.touched.add(player.user_id)
            if live.status == "open" and not live.family.hand_running:
                await self._schedule_next(live, tx, step)

        return await self._run_view(table_id, do)

    async def unseat_tournament_player(
        self, table_id: int, user_id: int, *, say: str | None = None
    ) -> TableView:
        """Take a player from the table between hands (moved elsewhere, the table broken):
        :class:`NotAllowed` while they are dealt into a hand being played."""

        async def do(live: LiveTable, tx: Tx, step: Step) -> None:
            _tournament_only(live)
            info = live.seat_of(user_id)
            if info is None:
                raise NotSeated("the player does not sit at this table")
            if live.family.hand_running and live.family.in_hand(info.seat_no):
                raise NotAllowed("the player is in a hand: they move once it ends")
            await self._remove(live, tx, step, user_id, quiet=True)
            if say:
                step.announcements.append(say)

        return await self._run_view(table_id, do)

    async def close_tournament_table(self, table_id: int, *, reason: str) -> TableView:
        """Close a table of the tournament (broken, its players moved; or the end): a hand
        still being played is voided and its pot goes back to the stacks, by the ledger."""

        async def do(live: LiveTable, tx: Tx, step: Step) -> None:
            _tournament_only(live)
            await self._close(live, tx, step, actor_id=None, reason=reason)

        view = await self._run_view(table_id, do)
        self._cancel_timer(table_id)
        return view

    async def set_tournament_banner(self, table_id: int, banner: Mapping[str, Any]) -> None:
        """What the table message shows of the tournament (a level change, a break, the
        players left): one edit of the table message, never a message edited on a timer."""

        async def do(live: LiveTable, tx: Tx, step: Step) -> None:
            _tournament_only(live)
            live.tournament["banner"] = dict(banner)

        await self._run_view(table_id, do)

    async def tournament_report(self, table_id: int) -> HandReport | None:
        """The last hand's report kept in the table's snapshot (None: no hand yet)."""
        live = await self._get(table_id)
        raw = live.tournament.get("report")
        return None if not raw else HandReport.from_json(raw)

    async def tournament_seating(self, table_id: int) -> Seating:
        """The table's seats as they are committed now."""
        live = await self._get(table_id)
        async with self._lock(table_id):
            live = self._tables.get(table_id) or live
            fam = live.family
            inner = getattr(fam, "inner", fam)
            running = fam.hand_running
            stacks = dict(live.balances)
            if running:
                stacks.update({live.user(s): c for s, c in fam.stacks().items() if s in live.seats})
            return Seating(
                table_id=live.id,
                seats={s: i.user_id for s, i in live.seats.items()},
                max_seats=fam.max_players,
                button=fam.dealer,
                last_big_blind=getattr(inner, "last_big", None),
                in_hand=running,
                status=live.status,
                hand_number=live.hand_number,
                stacks={i.user_id: stacks.get(i.user_id, 0) for i in live.seats.values()},
            )

    # ------------------------------------------------------------------ the table's side

    def _tournament_gate(self, live: LiveTable, step: Step) -> bool:
        """Before a tournament table deals: the director's stakes (True: deal), or a hold
        (False: the table waits, as the gate says, and says why once)."""
        director = self.director
        assert live.tournament_id is not None
        gate = (
            HandGate(hold="waiting")
            if director is None
            else director.gate(live.id, live.tournament_id, self.clock())
        )
        if gate.hold is None:
            stakes = dict(gate.stakes or {})
            if stakes and stakes != live.tournament.get("stakes"):
                live.family = live.family.with_stakes(stakes)
                live.tournament["stakes"] = stakes
            live.tournament["level"] = gate.level
            live.tournament["hand_started_at"] = int(self.clock())
            live.tournament.pop("hold", None)
            return True
        said = live.tournament.get("hold")
        live.tournament["hold"] = gate.hold
        if gate.say and said != gate.hold:
            step.announcements.append(gate.say)
            live.recent.append(gate.say)
        live.pending = None
        if gate.hold == "break" and gate.until is not None:
            live.status = "running"
            live.pending = "next_hand"
            live.deadline = self._deadline_in(live, max(0.0, gate.until - self.clock()))
        elif gate.hold == "paused":
            live.status = "paused"
            live.deadline = None
        else:
            live.status = "open"
            live.deadline = None
        return False

    def _tournament_history(
        self, live: LiveTable, history: str, summary: Mapping[str, Any]
    ) -> tuple[str, dict[str, Any]]:
        """The hand's PHH with the tournament's user fields (``_level``, ``_tournament``,
        ``_table``; docs/hand-history.md) and its summary with the same."""
        level = live.tournament.get("level")
        banner = live.tournament.get("banner") or {}
        number = banner.get("number")
        fields = {"_tournament": number, "_table": banner.get("table"), "_level": level}
        text = with_user_fields(history, {k: v for k, v in fields.items() if v is not None})
        info = {"id": live.tournament_id, "number": number, "table": banner.get("table")}
        return text, {**summary, "tournament": {**info, "level": level}}

    async def _tournament_hand_end(
        self,
        live: LiveTable,
        tx: Tx,
        step: Step,
        stacks: Mapping[int, int],
        summary: Mapping[str, Any],
        dealer: int | None,
    ) -> None:
        """The hand's report (who it knocked out, their chips at its start, who won them)
        kept in the snapshot; the busted players' seats freed."""
        fam = live.family
        folded = frozenset(
            s for s in live.seats if fam.in_hand(s) and fam.seat_show(s).status == "folded"
        )
        contributions = {s: live.paid.get(s, 0) for s in live.seats if fam.in_hand(s)}
        busted = [
            s for s, chips in stacks.items() if chips <= 0 and s in live.seats and fam.in_hand(s)
        ]
        pots = list(summary.get("pots", []))
        reports = []
        for seat in in_seat_order(busted, dealer):
            weights = taken_weights(seat, contributions, folded, pots)
            reports.append(
                BustReport(
                    user_id=live.user(seat),
                    seat=seat,
                    started_with=max(0, live.paid.get(seat, 0) - live.won.get(seat, 0)),
                    taken_by={live.user(s): w for s, w in weights.items() if s in live.seats},
                )
            )
        report = HandReport(
            table_id=live.id,
            hand_number=live.hand_number,
            started_at=int(live.tournament.get("hand_started_at") or self.clock()),
            ended_at=int(self.clock()),
            level=live.tournament.get("level"),
            busted=tuple(reports),
        )
        live.tournament["report"] = report.to_json()
        for b in reports:
            await self._remove(live, tx, step, b.user_id, quiet=True)
        step.tournament_hand = True

    def _tell_director(self, live: LiveTable) -> None:
        if self.director is not None and live.tournament_id is not None:
            self.director.hand_over(live.id, live.tournament_id)


def _tournament_only(live: LiveTable) -> None:
    if live.tournament_id is None:
        raise NotAllowed("not a tournament's table")


def refuse_at_tournament_table(live: LiveTable) -> None:
    """The players' and hosts' table controls (Join, Leave, Start, pause, end...) are the
    director's at a tournament's table."""
    if live.tournament_id is not None:
        raise NotAllowed(NOT_HERE)


def with_user_fields(text: str, fields: Mapping[str, Any]) -> str:
    """``text`` (a hand history, TOML) with top-level user fields (PHH: a key starting with
    ``_``) written before its first table, as TOML wants top-level keys.

    >>> print(with_user_fields("variant = 'NT'\\n[_rules]\\nx = 1\\n", {"_level": 3}))
    variant = 'NT'
    _level = 3
    [_rules]
    x = 1
    <BLANKLINE>
    """
    if not fields:
        return text
    lines = []
    for key, value in fields.items():
        lines.append(f"{key} = {value!r}" if isinstance(value, int) else f"{key} = '{value}'")
    block = "\n".join(lines) + "\n"
    body = text if text.endswith("\n") or not text else text + "\n"
    at = body.find("\n[")
    if body.startswith("["):
        return block + body
    if at < 0:
        return body + block
    return body[: at + 1] + block + body[at + 1 :]
