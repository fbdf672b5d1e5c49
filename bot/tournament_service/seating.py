"""The TournamentService's tables (a part of
:class:`bot.tournament_service.service.TournamentService`): the seat draw at the start,
newcomers (a late registration, a re-entry, a rebuy back in), balancing and breaking tables
by the director's :func:`~bot.tournament.plan` (TDA), each move told to the player by DM and
in both tables, and what each table message shows of the tournament.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from bot import games as registry
from bot.engine.errors import HomeGameError
from bot.store import Store
from bot.tables.tournament import TournamentSeat
from bot.tables.views import TournamentBanner
from bot.tournament import (
    Break,
    Move,
    Table,
    initial_seating,
    plan,
    read_clock,
    seat_newcomer,
)
from bot.tournament.structure import render_duration
from bot.tournament_service.live import LiveTournament, Notices, Post

if TYPE_CHECKING:
    from bot.tables.service import TableService
    from bot.tournament_service.live import TournamentSubscriber

log = logging.getLogger("bot.tournament")

MAX_PLAN_ROUNDS = 50


class TournamentSeating:
    """Mixin of the TournamentService: what it needs of the service is declared below."""

    store: Store
    tables: TableService
    clock: Callable[[], float]
    subscriber: TournamentSubscriber | None
    _by_table: dict[int, int]
    _commit: Callable[..., Awaitable[None]]
    title: Callable[[LiveTournament], str]
    _book_report: Callable[[LiveTournament, int, Notices], Awaitable[None]]

    # ------------------------------------------------------------------ opening tables

    def table_options(self, live: LiveTournament) -> dict[str, Any]:
        """The options of the tournament's tables: its game's (``stud8``: Stud split hi-lo),
        its betting, its seats per table (a mixed table seats what its games do)."""
        tg = registry.tournament_game(live.game)
        cfg = live.t.config
        options: dict[str, Any] = dict(tg.options)
        if tg.bettings:
            options["betting"] = cfg.betting or tg.default_betting
        if tg.family != "mixed":
            options["max_players"] = cfg.seats
        return options

    async def _table_channel(self, live: LiveTournament, number: int) -> int:
        if self.subscriber is None or not live.threads:
            return live.channel_id
        return await self.subscriber.table_channel(live.id, number)

    async def _open_table(
        self, live: LiveTournament, number: int, seats: dict[int, int], notices: Notices
    ) -> int:
        """Open table ``number`` with ``seats`` (seat -> user id) and deal its first hand."""
        channel = await self._table_channel(live, number)
        players = [
            TournamentSeat(uid, live.name(uid), seat, is_computer=live.is_computer(uid))
            for seat, uid in sorted(seats.items())
        ]
        tg = registry.tournament_game(live.game)
        async with self.store.read() as tx:
            league = await tx.league(live.guild_id)
        key = registry.settings_key(tg.game, dict(tg.options))
        settings = league.game_settings.get(key)
        times = {}
        if isinstance(settings, dict):
            house = settings.get("house_rules") or {}
            if "decision_seconds" in house:
                times["decision_seconds"] = house["decision_seconds"]
        view = await self.tables.open_tournament_table(
            guild_id=live.guild_id,
            channel_id=channel,
            game=tg.game,
            options={**self.table_options(live), **times},
            tournament_id=live.id,
            number=number,
            players=players,
            banner=self.banner(live, number),
            stakes=self._stakes_now(live),
        )
        live.tables[number] = view.table_id
        self._by_table[view.table_id] = live.id
        for seat, uid in seats.items():
            live.extra.setdefault("seats", {})[str(uid)] = [number, seat]
        return view.table_id

    def _stakes_now(self, live: LiveTournament) -> dict[str, Any]:
        t = live.t
        at = self.clock()
        number = 1
        if t.started_at is not None:
            number = read_clock(
                t.config.structure, start=t.started_at, pauses=t.pauses, at=at
            ).level
        return dict(t.config.structure.level(number).table_stakes(t.config.kind))

    async def _open_tables(self, live: LiveTournament, notices: Notices) -> None:
        """The draw for seats at the start (random: the tournament's seeded draw)."""
        cfg = live.t.config
        drawn = initial_seating(
            [e.number for e in live.t.alive], seats_per_table=cfg.seats, rng=live.rng()
        )
        for table in drawn:
            seats = {s: live.t.entry(n).player for s, n in table.seats.items()}
            await self._open_table(live, table.number, seats, notices)
        await self._commit(live, live.t)
        for uid in [e.player for e in live.t.alive]:
            if uid > 0:
                number, seat = live.extra["seats"][str(uid)]
                notices.dms.append((uid, self._seat_text(live, number, seat)))

    def _seat_text(self, live: LiveTournament, number: int, seat: int) -> str:
        channel = self._channel_of(live, number)
        where = f" in <#{channel}>" if channel is not None else ""
        return (
            f"**Tournament #{live.number}**: you play at table {number}, seat {seat}{where}."
            " Your cards come here, as at any table."
        )

    def _channel_of(self, live: LiveTournament, number: int) -> int | None:
        table_id = live.tables.get(number)
        if table_id is None:
            return None
        found = self.tables._tables.get(table_id)
        return None if found is None else found.channel_id

    def _tables_line(self, live: LiveTournament) -> str:
        parts = []
        for number in sorted(live.tables):
            channel = self._channel_of(live, number)
            parts.append(f"table {number}" + (f" <#{channel}>" if channel else ""))
        return ", ".join(parts) + "."

    # ------------------------------------------------------------------ newcomers

    async def _seat_newcomer(self, live: LiveTournament, user_id: int, notices: Notices) -> None:
        """A random empty seat at a table with the fewest players; a new table when every
        seat is taken (balancing fills it)."""
        views = await self._views(live)
        number, seat = seat_newcomer(views, seats_per_table=live.t.config.seats, rng=live.rng())
        await self._seat_at(live, user_id, number, seat, notices, why="joins the tournament")

    async def _seat_back(self, live: LiveTournament, user_id: int, notices: Notices) -> None:
        """A rebuy back in: their old seat if it is still free, else a newcomer's."""
        old = live.extra.get("seats", {}).get(str(user_id))
        if old is not None and old[0] in live.tables and live.tables[old[0]] not in live.breaking:
            seating = await self.tables.tournament_seating(live.tables[old[0]])
            if old[1] not in seating.seats:
                await self._seat_at(live, user_id, old[0], old[1], notices, why="is back in")
                return
        await self._seat_newcomer(live, user_id, notices)

    async def _seat_at(
        self, live: LiveTournament, user_id: int, number: int, seat: int, notices: Notices, *,
        why: str,
    ) -> None:  # fmt: skip
        name = live.name(user_id)
        if number not in live.tables:
            await self._open_table(live, number, {seat: user_id}, notices)
        else:
            await self.tables.seat_tournament_player(
                live.tables[number],
                TournamentSeat(user_id, name, seat, is_computer=live.is_computer(user_id)),
                say=f"**{name}** {why}: seat {seat}",
            )
            live.extra.setdefault("seats", {})[str(user_id)] = [number, seat]
        if user_id > 0:
            notices.dms.append((user_id, self._seat_text(live, number, seat)))

    async def _reseat_lost(self, live: LiveTournament, notices: Notices) -> None:
        """Seat every player still in who sits at none of the tables (a crash between the
        two halves of a move, a table closed under them)."""
        seated: set[int] = set()
        for table_id in live.tables.values():
            seated.update((await self.tables.tournament_seating(table_id)).seats.values())
        for entry in live.t.alive:
            if entry.player not in seated:
                await self._seat_back(live, entry.player, notices)

    # ------------------------------------------------------------------ balancing

    async def _views(self, live: LiveTournament) -> list[Table]:
        out = []
        for number, table_id in sorted(live.tables.items()):
            s = await self.tables.tournament_seating(table_id)
            seats = {}
            for seat, uid in s.seats.items():
                entry = live.entry_of(uid)
                if entry is not None and 1 <= seat <= live.t.config.seats:
                    seats[seat] = entry.number
            out.append(
                Table(
                    number,
                    seats,
                    live.t.config.seats,
                    button=s.button if s.button in range(1, live.t.config.seats + 1) else None,
                    last_big_blind=s.last_big_blind
                    if s.last_big_blind in range(1, live.t.config.seats + 1)
                    else None,
                    in_hand=s.in_hand,
                )
            )
        return out

    async def _balance(self, live: LiveTournament, notices: Notices) -> None:
        """Break and balance the tables as :func:`~bot.tournament.plan` says (TDA), as far
        as the tables between hands allow; a table in a hand is asked again at its end."""
        if live.t.status != "running":
            return
        changed = False
        for _ in range(MAX_PLAN_ROUNDS):
            views = await self._views(live)
            p = plan(views, rng=live.rng(), by_position=live.t.config.kind == "stud")
            if not p.moves and not p.broken:
                break
            changed = True
            for number in p.broken:
                live.breaking.add(live.tables[number])
            done = True
            for move in p.moves:
                if not await self._move(live, move, notices):
                    done = False
                    break
            for number in p.broken:
                await self._close_if_empty(live, number, notices)
            if not done:
                break
        if changed:
            await self._commit(live, live.t)
            if len(live.tables) == 1 and not live.extra.get("final"):
                live.extra["final"] = True
                await self._commit(live, live.t)
                (number,) = live.tables
                with contextlib.suppress(HomeGameError):
                    await self.tables.set_tournament_banner(
                        live.tables[number], self.banner(live, number)
                    )
                notices.posts.append(
                    Post(
                        live.channel_id,
                        f"**Tournament #{live.number}**: the final table! "
                        f"{len(live.t.alive)} players at table {number}.",
                    )
                )
            notices.lobby = True

    async def _move(self, live: LiveTournament, move: Move, notices: Notices) -> bool:
        """One move of the plan: the player leaves one table and sits at the other, with
        their stack (it is theirs, not the table's). False: the source table dealt first
        (the move waits for its hand's end)."""
        uid = live.t.entry(move.player).player
        name = live.name(uid)
        source, target = live.tables[move.from_table], live.tables[move.to_table]
        why = (
            "to balance the tables"
            if move.reason == "balance"
            else f"as table {move.from_table} breaks"
        )
        try:
            await self.tables.unseat_tournament_player(
                source,
                uid,
                say=f"**{name}** moves to table {move.to_table}, seat {move.to_seat}, {why}",
            )
        except HomeGameError:
            return False
        await self.tables.seat_tournament_player(
            target,
            TournamentSeat(uid, name, move.to_seat, is_computer=live.is_computer(uid)),
            say=f"**{name}** comes from table {move.from_table} and sits in seat {move.to_seat}",
        )
        live.extra.setdefault("seats", {})[str(uid)] = [move.to_table, move.to_seat]
        if uid > 0:
            channel = self._channel_of(live, move.to_table)
            where = f" (<#{channel}>)" if channel is not None else ""
            notices.dms.append(
                (
                    uid,
                    f"**Tournament #{live.number}**: you move to table {move.to_table}, seat "
                    f"{move.to_seat}{where}, {why}. Your chips go with you.",
                )
            )
        return True

    async def _close_if_empty(self, live: LiveTournament, number: int, notices: Notices) -> None:
        table_id = live.tables.get(number)
        if table_id is None:
            return
        if (await self.tables.tournament_seating(table_id)).seats:
            return  # its players are still moving
        # Its last hand may have ended (a busted seat freed) before that hand was booked:
        # book its knockouts now, or a player busted there would stay "in" with no seat.
        await self._book_report(live, table_id, notices)
        if (
            live.tables.get(number) != table_id
            or (await self.tables.tournament_seating(table_id)).seats
        ):
            return  # booking it seated someone back (a rebuy) or closed it already
        await self.tables.close_tournament_table(table_id, reason=f"table {number} broken")
        del live.tables[number]
        live.breaking.discard(table_id)
        self._by_table.pop(table_id, None)
        notices.posts.append(
            Post(
                live.channel_id,
                f"**Tournament #{live.number}**: table {number} breaks; {len(live.tables)} left.",
            )
        )

    # ------------------------------------------------------------------ the banner

    def banner(self, live: LiveTournament, number: int) -> dict[str, Any]:
        """What table ``number``'s message shows: the level and its stakes, the next change
        as a time (a Discord timestamp counts down to it), a break, a pause."""
        t = live.t
        cfg = t.config
        kind = cfg.kind
        if t.started_at is None:
            level, stakes = 1, cfg.structure.level(1).describe(kind)
            return TournamentBanner(
                live.id, live.number, number, level, stakes, title=self.title(live)
            ).to_json()
        r = read_clock(cfg.structure, start=t.started_at, pauses=t.pauses, at=self.clock())
        steps = cfg.structure.steps
        nxt = steps[r.step + 1] if r.step + 1 < len(steps) else None
        if nxt is None:
            what = ""
        elif isinstance(nxt, Break):
            what = f"a {render_duration(nxt.seconds)} break"
        else:
            what = f"level {r.level + 1}: {nxt.describe(kind)}"
        state = "paused" if r.paused else "break" if r.on_break else "playing"
        if t.status in ("finished", "cancelled"):
            state = "over"
        return TournamentBanner(
            tournament_id=live.id,
            number=live.number,
            table=number,
            level=r.level,
            stakes=cfg.structure.level(r.level).describe(kind),
            next_change=r.next_change_at,
            next_what=what,
            state=state,
            players_left=len(t.alive),
            tables_left=len(live.tables),
            title=self.title(live) + (" · final table" if live.extra.get("final") else ""),
        ).to_json()
