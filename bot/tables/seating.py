"""The TableService's seating and table control (a part of
:class:`bot.tables.service.TableService`): opening a table, sitting down, leaving, kicking,
starting, coming back; the host's or a manager's end, void, pause and resume.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from bot.engine.errors import IllegalAction
from bot.engine.shuffle import new_seed
from bot.render.rulebook import cite
from bot.render.text import format_chips
from bot.store import ActionRecord, LedgerEntry, SeatedElsewhere, Store, Tx
from bot.tables.channels import check_channel
from bot.tables.errors import AlreadySeated, NoChips, NotAllowed, NotSeated, TableFull
from bot.tables.games import league_settings_key, make_family
from bot.tables.live import PRACTICE_CHIPS, RECENT, LiveTable, SeatInfo, Step
from bot.tables.pace import Pace, split_options
from bot.tables.tournament import refuse_at_tournament_table
from bot.tables.views import TableView

PRACTICE_NOT_VERIFIABLE = (
    "A practice table keeps no hand in /history, so it could never publish its seeds:"
    " open it without verifiable:on. Nothing changed."
)

TABLES_OPEN = "Tables open"
"""How a refusal outside the league's table channels begins (bot/tables/channels.py)."""


class TableSeating:
    """Mixin of the TableService: what it needs of the service is declared below."""

    store: Store
    _tables: dict[int, LiveTable]
    _closing: set[int]
    _get: Callable[[int], Awaitable[LiveTable]]
    _run_view: Callable[..., Awaitable[TableView]]
    _flush: Callable[..., Awaitable[ActionRecord | None]]
    _emit: Callable[..., Awaitable[None]]
    _after: Callable[..., Awaitable[None]]
    _start_hand: Callable[..., Awaitable[bool]]
    _schedule_next: Callable[..., Awaitable[None]]
    _table_view: Callable[[LiveTable], TableView]
    _arm: Callable[[LiveTable], None]
    _cancel_timer: Callable[[int], None]
    _deadline_in: Callable[[LiveTable, float], int]
    _come_back: Callable[..., Awaitable[None]]

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
        verifiable: bool = False,
        parent_channel_id: int | None = None,
    ) -> TableView:
        """Open a table with the league's defaults under ``options`` (InvalidConfig if the
        engine's rules refuse them); the host is seated. A practice table gets one computer
        opponent unless ``computers`` says otherwise. ``verifiable``: each hand is dealt
        from a seed whose SHA-256 the table shows first (bot/engine/shuffle.py). Outside the
        league's table channels (``parent_channel_id``: the channel a thread is in)
        :class:`WrongChannel`."""
        n_computers = (1 if practice else 0) if computers is None else computers
        if verifiable and practice:
            raise NotAllowed(PRACTICE_NOT_VERIFIABLE)
        async with self.store.transaction() as tx:
            league = await tx.league(guild_id)
            check_channel(league, channel_id, parent_id=parent_channel_id, what=TABLES_OPEN)
            key = league_settings_key(game, options or {})
            settings = league.game_settings.get(key)
            # the time bank and the seat kept while sitting out are the table's, not the
            # game's rules (bot/tables/pace.py)
            options, pace = split_options(options or {})
            family = make_family(game, options, settings)
            if seat_host and 1 + n_computers > family.max_players:
                raise TableFull(f"at most {family.max_players} players at this table")
            table = await tx.create_table(
                guild_id,
                channel_id,
                game,
                host_id=host_id,
                rules=family.rules_json,
                practice=practice,
                verifiable=verifiable,
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
                verifiable=verifiable,
                next_seed=new_seed() if verifiable else None,
                pace=Pace(**pace),
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
        self,
        live: LiveTable,
        tx: Tx,
        step: Step,
        user_id: int,
        name: str,
        *,
        is_computer: bool,
        seat_no: int | None = None,
    ) -> None:
        """Seat a player (``seat_no``: that seat, a tournament's draw; else the next one)."""
        if live.seat_of(user_id) is not None:
            raise AlreadySeated("you already sit at this table")
        await self._flush(live, tx, step)
        if len(live.seats) >= live.family.max_players:
            raise TableFull(f"the table is full ({live.family.max_players} seats)")
        tournament = live.tournament_id is not None
        if not live.practice and not is_computer and not tournament:
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
        elif live.tournament_id is not None:
            # a tournament's table plays the player's tournament stack (no league chips)
            chips = (await tx.stack(live.tournament_id, user_id)).balance
        else:
            # the first sit-down in the league grants the starting chips (ledger "start")
            chips = (await tx.wallet(live.guild_id, user_id)).balance
            if chips <= 0:
                raise NoChips("you have no chips left: ask for a rebuy first")
        try:
            seat = await tx.sit(
                live.id,
                user_id,
                seat_no=live.next_seat if seat_no is None else seat_no,
                is_computer=is_computer,
            )
        except SeatedElsewhere as exc:
            # the database's word (another table's Join may be under way right now)
            raise AlreadySeated(
                f"you already play at the table in <#{exc.channel_id}>: leave it first"
            ) from None
        live.next_seat = max(live.next_seat, seat.seat_no + 1)
        info = SeatInfo(seat.seat_no, user_id, is_computer, False, None)
        live.seats[seat.seat_no] = info
        live.names[user_id] = name
        live.balances[user_id] = chips
        if tournament:
            # TDA: a player seated at a tournament table (drawn, moved, back from a rebuy) is
            # dealt in from the next hand, posting no blind out of turn; the big blind moves
            # on by the dead-button rule (rules 6.14)
            live.recent.append(f"{name} sits down")
        elif live.hand_number > 0 and live.family.newcomer_blind() == "wait":
            # rules 6.14: a player sitting down at a Hold'em or Omaha table that has dealt
            # waits for the big blind, or posts one to play the next hand (a button offers
            # both); they are dealt in when the big blind reaches them
            info.blind = "wait"
            text = (
                f"{name} sits down and waits for the big blind"
                " (**Post big blind** to play the next hand)"
            )
            step.announcements.append(text)
            live.recent.append(text)
        else:
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
            refuse_at_tournament_table(live)
            await self._sit(live, tx, step, user_id, name, is_computer=computer)
            if live.status == "open" and live.hand_number > 0:
                await self._schedule_next(live, tx, step)

        return await self._run_view(table_id, do)

    async def add_computer(
        self, table_id: int, actor_id: int, *, name: str | None = None
    ) -> TableView:
        """Seat a computer player (negative user id) at a practice table."""

        async def do(live: LiveTable, tx: Tx, step: Step) -> None:
            refuse_at_tournament_table(live)
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
            refuse_at_tournament_table(live)
            await self._leave(live, tx, step, user_id)

        return await self._run_view(table_id, do)

    async def _leave(
        self, live: LiveTable, tx: Tx, step: Step, user_id: int, *, quiet: bool = False
    ) -> None:
        """``quiet``: the command's own public answer says it (``/table kick``)."""
        info = live.seat_of(user_id)
        if info is None:
            raise NotSeated("you do not sit at this table")
        fam = live.family
        if fam.hand_running and fam.in_hand(info.seat_no):
            # plays on / folds automatically and leaves after the game
            live.leaving.add(user_id)
            if not quiet:
                step.announcements.append(f"{live.name(info.seat_no)} leaves after this hand")
            await self._after(live, tx, step)
        else:
            await self._remove(live, tx, step, user_id, quiet=quiet)

    async def _remove(
        self, live: LiveTable, tx: Tx, step: Step, user_id: int, *, quiet: bool = False
    ) -> None:
        info = live.seat_of(user_id)
        if info is None:
            return
        await self._flush(live, tx, step)
        await tx.leave(live.id, user_id)
        if live.accounts is not None:
            live.accounts = live.accounts.without(user_id)
        del live.seats[info.seat_no]
        live.family.seat_left(info.seat_no)
        live.pace.forget(user_id)
        live.practice_stacks.pop(user_id, None)
        if not quiet:
            step.announcements.append(f"{live.names.get(user_id, user_id)} left the table")
        humans = [s for s in live.seats.values() if not s.is_computer]
        if live.tournament_id is not None:
            return  # a tournament's director closes its tables (broken, or the end)
        if not live.seats or (live.practice and not humans):
            await self._close(live, tx, step, actor_id=None, reason="everyone left")

    async def kick(
        self, table_id: int, actor_id: int, user_id: int, *, may_manage: bool, quiet: bool = False
    ) -> TableView:
        """Remove a player (now, or after the hand they are in); ``quiet``: the caller
        announces it (``/table kick``'s public answer), the table posts nothing more."""

        async def do(live: LiveTable, tx: Tx, step: Step) -> None:
            refuse_at_tournament_table(live)
            self._may_manage(live, actor_id, may_manage)
            await self._leave(live, tx, step, user_id, quiet=quiet)

        return await self._run_view(table_id, do)

    async def start(self, table_id: int, user_id: int) -> TableView:
        async def do(live: LiveTable, tx: Tx, step: Step) -> None:
            refuse_at_tournament_table(live)
            if live.seat_of(user_id) is None and user_id != live.host_id:
                raise NotSeated("only a player at the table may start it")
            if live.status == "paused":
                raise IllegalAction("the table is paused: resume it")
            if live.family.hand_running:
                raise IllegalAction("a hand is already being played")
            await self._start_hand(live, tx, step, strict=True)

        return await self._run_view(table_id, do)

    async def post_blind(self, table_id: int, user_id: int, *, post: bool = True) -> TableView:
        """A player new to a Hold'em or Omaha table posts a big blind to play the next hand
        (``post``), or waits for the big blind to reach them (rules 6.14)."""

        async def do(live: LiveTable, tx: Tx, step: Step) -> None:
            refuse_at_tournament_table(live)
            info = live.seat_of(user_id)
            if info is None:
                raise NotSeated("you do not sit at this table")
            if info.blind is None:
                raise IllegalAction(
                    "you are already dealt in: only a player new to the table waits for the"
                    " big blind or posts one"
                )
            want = "post" if post else "wait"
            if info.blind == want:
                raise IllegalAction(
                    "you already post the big blind next hand"
                    if post
                    else "you already wait for the big blind"
                )
            info.blind = want
            who = live.name(info.seat_no)
            text = (
                f"{who} posts a big blind to play the next hand"
                if post
                else f"{who} waits for the big blind"
            )
            step.announcements.append(text)
            live.recent.append(text)
            del live.recent[:-RECENT]
            step.touched.add(user_id)
            if live.status == "open" and live.hand_number > 0:
                await self._schedule_next(live, tx, step)

        return await self._run_view(table_id, do)

    async def back(self, table_id: int, user_id: int) -> TableView:
        """An away player comes back (**Join**, or **I'm back**): they play from the next
        hand; at Hold'em and Omaha one the big blind passed waits for it or posts one."""

        async def do(live: LiveTable, tx: Tx, step: Step) -> None:
            refuse_at_tournament_table(live)
            info = live.seat_of(user_id)
            if info is None:
                raise NotSeated("you do not sit at this table")
            if not info.away:
                raise IllegalAction("you are already at this table")
            await self._come_back(live, tx, step, info)

        return await self._run_view(table_id, do)

    def _may_manage(self, live: LiveTable, actor_id: int, may_manage: bool) -> None:
        if not may_manage and actor_id != live.host_id:
            raise NotAllowed("only the table's host or a league manager may do that")

    async def end(
        self, table_id: int, actor_id: int, *, may_manage: bool, announce: bool = True
    ) -> TableView:
        """Close the table (RULES 1.10). From the moment the close is asked for (checked
        first: a refused close changes nothing) no game is dealt there: a timer that wakes
        meanwhile (the next game's) waits behind it and finds the table closed. A game
        being played is voided; the pot standing goes back to whoever paid it in. The
        closing post is the view's ``closing``; ``announce=False``: the caller posts it
        (``/table end`` answers with it), it is not announced too."""

        async def do(live: LiveTable, tx: Tx, step: Step) -> None:
            refuse_at_tournament_table(live)
            self._may_manage(live, actor_id, may_manage)
            await self._close(
                live, tx, step, actor_id=actor_id, reason="table ended", announce=announce
            )

        target = await self._get(table_id)
        refuse_at_tournament_table(target)
        self._may_manage(target, actor_id, may_manage)
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

    async def close_lost(self, table_id: int, *, reason: str) -> TableView:
        """Close a table the bot can no longer play (its Discord channel was deleted): as
        :meth:`end` (the running hand voided, the pot refunded by the ledger), by the bot."""

        async def do(live: LiveTable, tx: Tx, step: Step) -> None:
            await self._close(live, tx, step, actor_id=None, reason=reason)

        view = await self._run_view(table_id, do)
        self._cancel_timer(table_id)
        return view

    async def _close(
        self,
        live: LiveTable,
        tx: Tx,
        step: Step,
        *,
        actor_id: int | None,
        reason: str,
        announce: bool = True,
    ) -> None:
        """Close the table: the hand being played is voided, the pot standing goes back to
        whoever paid it in (RULES 1.10), each player's balance is read after that, and ONE
        closing post says all of it (:attr:`LiveTable.closing`, shown on the closed view;
        announced in the channel unless the caller answers with it, ``announce=False``)."""
        await self._flush(live, tx, step)
        said: list[str] = []
        if live.hand_id is not None and live.family.hand_running:
            entries = await tx.void_hand(live.hand_id, reason=reason, actor_id=actor_id)
            live.family.void()
            live.hand_id = None
            moved = sum(e.amount for e in entries)
            text = (
                f"Hand {live.hand_number} voided as the table closed:"
                f" its {format_chips(moved)} chips went back"
            )
            said.append(text + ".")
            live.recent.append(text)
            step.touched.update(i.user_id for i in live.seats.values())
        refunds = await tx.close_table(live.id, actor_id=actor_id, reason=reason)
        back = sum(r.amount for r in refunds)
        if back:
            said.append(
                f"The pot's {format_chips(back)} chips went back to whoever paid them in"
                f" ({cite('1.10', live.family.game)})."
            )
        elif not said:
            said.append("No chips were in the pot.")
        # the table message's last words: the table closed and what went back
        live.recent.append(
            f"Table closed: the pot's {format_chips(back)} chips went back to whoever paid them in"
            if back
            else "Table closed: no chips were left in the pot"
        )
        del live.recent[:-RECENT]
        balances = await self._closing_balances(live, tx, refunds)
        if balances:
            said.append("Balances: " + " · ".join(balances) + ".")
        why = " Everyone left." if reason == "everyone left" else ""
        live.closing = f"Table #{live.id} is closed.{why} " + " ".join(said)
        if announce:
            step.announcements.append(live.closing)
        step.closed = True

    async def _closing_balances(
        self, live: LiveTable, tx: Tx, refunds: list[LedgerEntry]
    ) -> list[str]:
        """Each player's wallet after the close's refunds ("alice 1,020"), seated players
        first, then anyone else the pot paid back; the seats show these balances too. A
        practice table moves no league chips: nothing to say."""
        if live.practice:
            return []
        users = [i.user_id for _, i in sorted(live.seats.items()) if not i.is_computer]
        for r in refunds:
            account = await tx.account(r.to_account)
            if account.user_id is not None and account.user_id not in users:
                users.append(account.user_id)
        out = []
        for uid in users:
            wallet = await tx.find_wallet(live.guild_id, uid)
            if wallet is None:
                continue
            live.balances[uid] = wallet.balance
            out.append(f"{live.names.get(uid, f'player {uid}')} {wallet.balance:,}")
        return out

    async def void_hand(self, table_id: int, actor_id: int, *, may_manage: bool) -> TableView:
        """Void the running hand: everyone gets back what they put into it."""

        async def do(live: LiveTable, tx: Tx, step: Step) -> None:
            refuse_at_tournament_table(live)
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
            f"Hand {live.hand_number} voided{because}: every chip it moved ({format_chips(moved)})"
            " went back"
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

    async def pause(
        self, table_id: int, actor_id: int, *, may_manage: bool = False, quiet: bool = False
    ) -> TableView:
        """``quiet``: the caller announces it (``/table pause``'s public answer)."""

        async def do(live: LiveTable, tx: Tx, step: Step) -> None:
            refuse_at_tournament_table(live)
            if live.seat_of(actor_id) is None:
                self._may_manage(live, actor_id, may_manage)
            if live.status == "paused":
                raise IllegalAction("the table is already paused")
            if live.status != "running":
                raise IllegalAction("the game has not started: there is nothing to pause")
            live.status = "paused"
            live.deadline = None
            live.pending = None
            step.touched.update(i.user_id for i in live.seats.values())
            if not quiet:
                step.announcements.append("Table paused")

        return await self._run_view(table_id, do)

    async def resume(
        self, table_id: int, actor_id: int, *, may_manage: bool = False, quiet: bool = False
    ) -> TableView:
        """``quiet``: the caller announces it (``/table resume``'s public answer)."""

        async def do(live: LiveTable, tx: Tx, step: Step) -> None:
            refuse_at_tournament_table(live)
            if live.seat_of(actor_id) is None:
                self._may_manage(live, actor_id, may_manage)
            if live.status != "paused":
                raise IllegalAction("the table is not paused")
            fam = live.family
            live.status = "running"
            step.touched.update(i.user_id for i in live.seats.values())
            if not quiet:
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
