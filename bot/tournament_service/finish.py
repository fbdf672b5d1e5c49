"""The TournamentService's end (a part of
:class:`bot.tournament_service.service.TournamentService`): the prizes paid by the chosen
table (whole chips, the pool exactly: the rounding said in the post), the winner's own
bounty, every entry's finish, the league points by the league's formula (PokerStars Home
Games': only tournaments of four players or more score), the stacks back to the chip bank;
``/tournament cancel``; and what the lobby and the results show.
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from bot.engine.errors import HomeGameError
from bot.render.text import format_chips
from bot.store import Store, Tx
from bot.store.tournaments import ResultRow
from bot.tournament import (
    Entry,
    Result,
    Standing,
    best_finishes,
    cancel,
    finish_points,
    in_add_on_break,
    prizes,
    read_clock,
    render_levels,
    results,
    standings,
)
from bot.tournament.payouts import places_paid
from bot.tournament.points import scores_points
from bot.tournament.state import late_registration_open
from bot.tournament_service.live import LiveTournament, Lobby, LobbyEntry, Notices, Post

if TYPE_CHECKING:
    from bot.tables.service import TableService
    from bot.tournament import Outcome

ROUNDING = (
    "Each place's share is rounded down to a whole chip; the chips left over go to 1st"
    " place, so the prizes add up to the pool exactly."
)


@dataclass(frozen=True, slots=True)
class FinishLine:
    """One entry's line of the results: place, player, prize, bounties, points."""

    label: str
    place: int
    user_id: int
    name: str
    prize: int
    bounties: int
    points: int | None


@dataclass(frozen=True, slots=True)
class Results:
    tournament_id: int
    number: int
    title: str
    status: str
    entries: int
    players: int
    prize_pool: int
    lines: tuple[FinishLine, ...]
    rounding: str
    scored: bool
    practice: bool
    finished_at: int | None


class TournamentFinish:
    """Mixin of the TournamentService: what it needs of the service is declared below."""

    store: Store
    tables: TableService
    clock: Callable[[], float]
    _by_table: dict[int, int]
    _commit: Callable[..., Awaitable[None]]
    _locked: Callable[..., Awaitable[object]]
    _director_only: Callable[[LiveTournament, int, bool], None]
    title: Callable[[LiveTournament], str]

    async def _close_tables(self, live: LiveTournament, reason: str) -> None:
        for _, table_id in sorted(live.tables.items()):
            with contextlib.suppress(HomeGameError):
                await self.tables.close_tournament_table(table_id, reason=reason)
            self._by_table.pop(table_id, None)
        live.tables.clear()

    async def _finish(self, live: LiveTournament, out: Outcome, notices: Notices) -> None:
        """The end: the prizes and the winner's bounty by the ledger, every finish and the
        points, the stacks back to the bank; the final table closes."""
        done = out.tournament
        finishes = results(live.t)
        owner = {e.number: e.player for e in done.entries}
        players = len(done.players)

        async def write(tx: Tx) -> None:
            rows = await self._result_rows(tx, live, done, finishes, owner, players)
            await tx.record_results(live.id, rows)
            await tx.return_chips(live.id, reason="the tournament is over")

        await self._close_tables(live, "the tournament is over")
        await self._commit(live, done, movements=out.movements, more=write)
        notices.results = True
        notices.lobby = True

    async def _result_rows(
        self,
        tx: Tx,
        live: LiveTournament,
        done: object,
        finishes: Sequence[tuple[object, int]],
        owner: Mapping[int, int],
        players: int,
    ) -> list[ResultRow]:
        from bot.tournament import Finish, Tournament

        assert isinstance(done, Tournament)
        settings = await tx.points_settings(live.guild_id)
        league = await tx.league(live.guild_id)
        buy_in: Fraction | int = done.config.buy_in
        if league.chip_value:
            buy_in = Fraction(league.chip_value) * done.config.buy_in
        scored = scores_points(players) and not live.practice
        typed = [(f, p) for f, p in finishes if isinstance(f, Finish)]
        best = best_finishes([f for f, _ in typed], owner)
        won: dict[int, int] = {}
        for f, prize in typed:
            won[owner[f.entry]] = won.get(owner[f.entry], 0) + prize
        rows = []
        for f, prize in typed:
            player = owner[f.entry]
            points = None
            if scored and best[player].entry == f.entry:
                points = finish_points(
                    settings.formula,  # type: ignore[arg-type]
                    f,
                    entries=len(done.entries),
                    buy_in=buy_in,
                    prize=won[player],
                    table=settings.fixed,
                )
            rows.append(
                ResultRow(
                    live.id,
                    f.entry,
                    player,
                    f.place,
                    f.shared,
                    prize,
                    done.entry(f.entry).bounties_won,
                    points,
                )
            )
        return rows

    async def cancel(self, tournament_id: int, user_id: int, *, may_manage: bool) -> None:
        """``/tournament cancel``: every chip the prize pool and bounties hold goes back to
        who paid it in, by the ledger; the tables close (a hand being played is voided)."""

        async def do(live: LiveTournament, notices: Notices) -> None:
            self._director_only(live, user_id, may_manage)
            out = cancel(live.t, now=int(self.clock()))
            await self._close_tables(live, "the tournament was cancelled")

            async def back(tx: Tx) -> None:
                await tx.return_chips(live.id, reason="the tournament was cancelled")

            await self._commit(live, out.tournament, movements=out.movements, more=back)
            refunded = sum(m.amount for m in out.movements)
            notices.lobby = True
            notices.posts.append(
                Post(
                    live.channel_id,
                    f"**Tournament #{live.number}** is cancelled: "
                    + (
                        "no league chips moved (a practice tournament)."
                        if live.practice
                        else f"{format_chips(refunded)} league chips went back to whoever paid"
                        " them in, by the ledger."
                    ),
                )
            )

        await self._locked(tournament_id, do)

    # ------------------------------------------------------------------ reading

    def _lobby(self, live: LiveTournament) -> Lobby:
        t = live.t
        cfg = t.config
        now = self.clock()
        by_player: dict[int, list[Entry]] = {}
        for e in t.entries:
            by_player.setdefault(e.player, []).append(e)
        players = []
        for uid, entries in by_player.items():
            last = max(entries, key=lambda e: e.number)
            players.append(
                LobbyEntry(
                    uid,
                    live.name(uid),
                    alive=last.alive,
                    rebuys=sum(e.rebuys for e in entries),
                    add_on=any(e.add_on for e in entries),
                    entries=len(entries),
                    bounty=sum(e.bounties_won for e in entries),
                )
            )
        level = stakes = None
        next_change: int | None = None
        next_what = ""
        on_break = paused = False
        if t.started_at is not None and t.status == "running":
            r = read_clock(cfg.structure, start=t.started_at, pauses=t.pauses, at=now)
            level, on_break, paused = r.level, r.on_break, r.paused
            stakes = cfg.structure.level(r.level).describe(cfg.kind)
            next_change = r.next_change_at
            steps = cfg.structure.steps
            if r.step + 1 < len(steps):
                nxt = steps[r.step + 1]
                next_what = (
                    f"level {r.level + 1}: {nxt.describe(cfg.kind)}"
                    if hasattr(nxt, "describe")
                    else "a break"
                )
        options = _option_lines(live)
        entries = len(t.entries)
        paid = prizes(cfg.payouts, max(entries, 1), t.prize_pool) if entries else ()
        tables = tuple(
            (n, tid, self.tables._tables[tid].channel_id if tid in self.tables._tables else 0)
            for n, tid in sorted(live.tables.items())
        )
        add_on_open = bool(
            cfg.add_on
            and t.started_at is not None
            and t.status == "running"
            and in_add_on_break(
                cfg.structure, cfg.rebuy_level, start=t.started_at, pauses=t.pauses, at=now
            )
        )
        return Lobby(
            tournament_id=live.id,
            number=live.number,
            guild_id=live.guild_id,
            title=self.title(live),
            host_id=live.host_id,
            status=t.status,
            players=tuple(players),
            entries=entries,
            max_players=cfg.max_players,
            buy_in=cfg.buy_in,
            bounty=cfg.bounty,
            prize_pool=t.prize_pool,
            bounty_fund=t.bounty_fund,
            practice=live.practice,
            structure=render_levels(cfg.structure),
            options=options,
            starts_at=cfg.starts_at,
            level=level,
            stakes=stakes,
            next_change=next_change,
            next_what=next_what,
            on_break=on_break,
            paused=paused,
            tables=tables,
            left=len(t.alive),
            registration_open=late_registration_open(t, now=now),
            payouts=tuple(paid)[: places_paid(cfg.payouts, max(entries, 1))],
            rounding=ROUNDING,
            version=live.version,
            can_start=t.status == "registering" and entries >= 2,
            add_on_open=add_on_open,
        )

    async def tournament_results(self, tournament_id: int) -> Results:
        """A finished (or cancelled) tournament's results as stored."""
        async with self.store.read() as tx:
            row = await tx.tournament(tournament_id)
            rows = await tx.tournament_results(tournament_id)
        from bot.tournament.places import Finish
        from bot.tournament.snapshot import load

        t = load(row.state)
        names = row.extra.get("names", {})
        lines = tuple(
            FinishLine(
                Finish(r.entry, r.place, r.shared).label,
                r.place,
                r.user_id,
                str(names.get(str(r.user_id), f"player {r.user_id}")),
                r.prize,
                r.bounties,
                r.points,
            )
            for r in rows
        )
        from bot import games as registry

        title = f"{registry.tournament_game(row.game).title} tournament #{row.number}"
        return Results(
            tournament_id=row.id,
            number=row.number,
            title=title,
            status=row.status,
            entries=len(t.entries),
            players=len(t.players),
            prize_pool=t.prize_pool,
            lines=lines,
            rounding=ROUNDING,
            scored=any(line.points is not None for line in lines),
            practice=bool(row.extra.get("practice")),
            finished_at=row.finished_at,
        )

    async def points_standings(self, guild_id: int, season_id: int) -> tuple[Standing, ...]:
        """The season's standings by league points (``points_best_of``: each player's best
        N results)."""
        async with self.store.read() as tx:
            settings = await tx.points_settings(guild_id)
            rows = await tx.season_points(guild_id, season_id)
        scored = [Result(r.user_id, r.tournament_id, r.points or 0, r.place) for r in rows]
        return standings(scored, best_of=settings.best_of)


def _option_lines(live: LiveTournament) -> tuple[str, ...]:
    cfg = live.t.config
    lines = []
    if cfg.rebuys != 0:
        many = "unlimited" if cfg.rebuys is None else f"up to {cfg.rebuys}"
        lines.append(
            f"Rebuys: {many}, {format_chips(cfg.rebuy_cost)} for "
            f"{format_chips(cfg.rebuy_stack)} chips, through level {cfg.rebuy_level}"
        )
    if cfg.add_on:
        lines.append(
            f"Add-on: {format_chips(cfg.add_on_cost)} for {format_chips(cfg.add_on_stack)}"
            f" chips at the break after level {cfg.rebuy_level}"
        )
    if cfg.re_entry != 0:
        many = "unlimited" if cfg.re_entry is None else f"up to {cfg.re_entry}"
        lines.append(f"Re-entry: {many}")
    if cfg.late_registration_levels:
        lines.append(f"Late registration: through level {cfg.late_registration_levels}")
    lines.append(
        f"Payouts: {cfg.payouts}; {cfg.seats} seats a table, at most {cfg.max_players} players"
    )
    return tuple(lines)
