"""The TableService's views (a part of :class:`bot.tables.service.TableService`): the table
and private views of the last committed state (built under the table's lock, kept until the
next mutation starts, so a reader never sees a state half-way through one), what the
subscriber is given after a commit, and the reads and message notes the adapters use.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from bot import games as registry
from bot.engine.actions import ActionOption
from bot.engine.shuffle import commitment
from bot.render.text import game_title
from bot.store import Store
from bot.tables.errors import NotSeated
from bot.tables.live import LiveTable, Step
from bot.tables.pace import CALL, pace_rules
from bot.tables.views import PrivateView, Published, SeatView, TableView, TournamentBanner


def _commitment(live: LiveTable) -> dict[str, Any]:
    """A verifiable table's commitment for its view: of the hand being played, else of
    the next one (its seed is drawn ahead); nothing once the table is closed."""
    if not live.verifiable or live.status == "closed":
        return {}
    if live.hand_id is not None and live.seed is not None:
        return {"commitment": commitment(live.seed), "commitment_hand": live.hand_number}
    if live.next_seed is not None:
        return {"commitment": commitment(live.next_seed), "commitment_hand": live.hand_number + 1}
    return {}


BETWEEN_HANDS = ("straddle", "no_straddle")
"""Options a private view keeps between hands: the seat offered the next hand's straddle."""


class TableViewing:
    """Mixin of the TableService: what it needs of the service is declared below."""

    store: Store
    _tables: dict[int, LiveTable]
    _views: dict[int, TableView]
    _privs: dict[int, dict[int, PrivateView]]
    _marks: dict[int, dict[int, tuple[Any, ...]]]
    _lock: Callable[[int], asyncio.Lock]
    _get: Callable[[int], Awaitable[LiveTable]]

    def _forget_views(self, table_id: int) -> None:
        self._views.pop(table_id, None)
        self._privs.pop(table_id, None)
        self._marks.pop(table_id, None)

    def _committed_view(self, live: LiveTable) -> TableView:
        """The table view of the committed state (call only under the table's lock, or
        when no mutation runs): kept until the next mutation starts."""
        view = self._views.get(live.id)
        if view is None:
            view = self._table_view(live)
            if live.status != "closed":
                self._views[live.id] = view
        return view

    def _committed_private(self, live: LiveTable, user_id: int) -> PrivateView:
        """:meth:`_committed_view` for one seated player's private view."""
        privs = self._privs.get(live.id)
        if privs is None:
            privs = {} if live.status == "closed" else self._privs.setdefault(live.id, {})
        pv = privs.get(user_id)
        if pv is None:
            pv = privs[user_id] = self._private_view(live, user_id)
        return pv

    def _table_view(self, live: LiveTable) -> TableView:
        fam = live.family
        to_act = fam.to_act() if live.status == "running" and fam.hand_running else frozenset()
        running = fam.engine is not None
        seats: list[SeatView] = []
        for seat, info in sorted(live.seats.items()):
            show = fam.seat_show(seat)
            stack = show.stack
            if stack is None or (live.status == "closed" and not live.practice):
                # closed: the wallet after the pot went back, not the last hand's stack
                stack = live.balances.get(info.user_id, 0 if stack is None else stack)
            status = show.status
            if not running or status == "waiting":
                status = "away" if info.away else "waiting"
            if info.blind is not None and not fam.in_hand(seat) and not info.away:
                status = "waits_for_big_blind" if info.blind == "wait" else "posts_big_blind"
            seats.append(
                SeatView(
                    seat=seat,
                    user_id=info.user_id,
                    name=live.name(seat),
                    stack=stack,
                    status=status,
                    is_computer=info.is_computer,
                    to_act=seat in to_act,
                    bet=show.bet,
                    up_cards=show.up_cards,
                    shown=show.shown,
                    hand_name=show.hand_name,
                    away=info.away,
                    blind=info.blind,
                    sit_next=info.user_id in live.pace.sit_next,
                )
            )
        if live.status == "closed":
            phase = "closed"
        elif live.status == "paused":
            phase = "paused"
        elif live.pending == "next_hand" and not fam.hand_running:
            phase = "next hand starting" if not fam.hand_over else fam.phase_text()
        elif live.status == "open":
            phase = "waiting for players"
        else:
            phase = fam.phase_text()
        pace = live.pace
        run = pace.bank_run
        to_act_users = frozenset(live.user(s) for s in to_act if s in live.seats)
        return TableView(
            table_id=live.id,
            guild_id=live.guild_id,
            channel_id=live.channel_id,
            game=fam.game,  # a mixed table's: the game being played
            status=live.status,
            host_id=live.host_id,
            version=live.version,
            practice=live.practice,
            rules=fam.describe_rules() + pace_rules(live.game, live.pace),
            seats=tuple(seats),
            dealer_seat=fam.dealer,
            pot=0 if live.status == "closed" else fam.pot,  # a closed table's pot went back
            phase=phase,
            hand_number=live.hand_number,
            deadline=None if live.deadline is None else float(live.deadline),
            to_act_user_ids=to_act_users,
            public_actions=fam.public_options() if to_act else (),
            community=fam.community(),
            recent=tuple(live.recent),
            result=live.result,
            mixed=fam.mixed(),
            verifiable=live.verifiable,
            **_commitment(live),
            closing=live.closing if live.status == "closed" else None,
            house=fam.house_info() if live.status != "closed" else None,
            bank_user=run.user_id if run is not None and run.user_id in to_act_users else None,
            turn_keys=tuple(sorted((u, k) for u, k in pace.turns.items() if u in to_act_users)),
            next_stakes=tuple(sorted(pace.stakes.items())),
            tournament=_banner(live),
        )

    def _private_view(self, live: LiveTable, user_id: int) -> PrivateView:
        info = live.seat_of(user_id)
        if info is None:
            raise NotSeated(f"you do not sit at table {live.id}")
        fam = live.family
        cards = fam.seat_cards(info.seat_no)
        options: tuple[ActionOption, ...] = tuple(fam.options(info.seat_no))
        if live.status == "paused":
            options = tuple(ActionOption(o.kind, False, "the table is paused") for o in options)
        elif not fam.hand_running:
            # between hands only the next hand's straddle may be taken (bot/tables/house.py)
            options = tuple(
                o
                if o.kind in BETWEEN_HANDS and o.allowed
                else ActionOption(o.kind, False, "no hand is being played right now")
                for o in options
            )
        pace = live.pace
        offers: tuple[tuple[str, int | None], ...] = ()
        if (
            live.status == "running"
            and fam.hand_running
            and not info.is_computer
            and user_id not in live.leaving
        ):
            kinds = fam.advance_offers(info.seat_no)
            if kinds:
                price = fam.price(info.seat_no) if CALL in kinds else None
                offers = tuple((k, price if k == CALL else None) for k in kinds)
        chosen = pace.advance.get(user_id)
        bank = int(pace.bank(user_id)) if fam.betting and pace.time_bank else None
        run = pace.bank_run
        return PrivateView(
            table_id=live.id,
            user_id=user_id,
            seat=info.seat_no,
            game=fam.game,
            version=live.version,
            cards=cards.cards,
            down_cards=cards.down,
            up_cards=cards.up,
            hand_name=cards.hand_name,
            strength=cards.strength,
            options=options,
            deadline=None if live.deadline is None else float(live.deadline),
            chosen=cards.chosen,
            title=self._game_title(live),
            hand_number=live.hand_number,
            advance=offers,
            advance_chosen=None if chosen is None else (chosen.kind, chosen.amount),
            sitting_out=info.away,
            sit_next=user_id in pace.sit_next,
            missed=pace.missed.get(user_id, 0),
            sit_out_hands=pace.sit_out_hands,
            may_sit_out=live.tournament_id is None,
            bank=bank,
            bank_on=run is not None and run.user_id == user_id,
        )

    def _gone_view(self, live: LiveTable, user_id: int, seat: int) -> PrivateView:
        """The view of a player whose action ended the hand that took their last chip at a
        tournament's table (their seat is freed at its end): their cards as the seat showed
        them, nothing left to do."""
        cards = live.family.seat_cards(seat)
        return PrivateView(
            table_id=live.id,
            user_id=user_id,
            seat=seat,
            game=live.family.game,
            version=live.version,
            cards=cards.cards,
            down_cards=cards.down,
            up_cards=cards.up,
            hand_name=cards.hand_name,
            strength=None,
            options=(),
            deadline=None,
            chosen=None,
            title=self._game_title(live),
        )

    @staticmethod
    def _game_title(live: LiveTable) -> str:
        """The name the hand DM gives the game: a mixed table's game being dealt, a stud
        table's split (one game key deals Stud and Stud Hi-Lo)."""
        fam = live.family
        mixed = fam.mixed()
        if mixed is not None:
            return str(mixed.label)
        named_by_split = registry.game(fam.game).table_titles  # Stud, Stud Hi-Lo
        return game_title(fam.game, fam.describe_rules() if named_by_split else ())

    def _private_marks(self, live: LiveTable) -> dict[int, tuple[Any, ...]]:
        """What each seated user's private view shows that matters, per user: the cards
        (and their name, the secret choice), whether a hand runs, the options they may take
        now and, while they have one, their deadline. A change of it is a DM worth editing;
        another player's action that leaves it alone (a new turn of somebody else) is not.
        Called on a committed state only (the views built are kept for readers); the
        marks are kept too, for the next mutation's "before"."""
        running = live.family.hand_running
        marks: dict[int, tuple[Any, ...]] = {}
        for info in live.seats.values():
            pv = self._committed_private(live, info.user_id)
            allowed = tuple((o.kind, o.amount, o.to, o.cards) for o in pv.options if o.allowed)
            marks[info.user_id] = (
                running,
                pv.cards,
                pv.down_cards,
                pv.up_cards,
                pv.hand_name,
                pv.chosen,
                allowed,
                pv.deadline if allowed else None,
                # what the player chose in advance, and whether they sit out: a cleared
                # choice is shown at once (the offers' prices are not: see cogs/_render.py)
                pv.advance_chosen,
                pv.sitting_out,
                pv.sit_next,
            )
        if live.status != "closed":
            self._marks[live.id] = marks
        return marks

    def _published(self, live: LiveTable, step: Step) -> Published:
        """What the subscriber gets after a commit (before: the marks kept of the state
        the mutation started from, see :meth:`_run`)."""
        before = step.before
        after = self._private_marks(live)
        changed = set(step.touched)
        changed.update(u for u, v in after.items() if before.get(u) != v)
        return Published(
            view=self._committed_view(live),
            events=tuple(step.events),
            user_ids_by_seat={s: i.user_id for s, i in live.seats.items()},
            private_changed=frozenset(u for u in changed if u in after),
            announcements=tuple(step.announcements),
            results=tuple(step.results),
            results_after=tuple(step.results_after),
            rabbit_hand=step.rabbit_hand,
            pings=tuple(step.pings),
        )

    def cached_view(self, table_id: int) -> TableView | None:
        """What :meth:`view` returns when it has it at hand (None: it would have to read
        the store or wait for the table's lock): for a caller that cannot wait."""
        return self._views.get(table_id)

    async def view(self, table_id: int) -> TableView:
        """The table as last committed, with its version: while an action is being
        committed this is still the state before it (never a half-applied one)."""
        view = self._views.get(table_id)
        if view is not None:
            return view
        await self._get(table_id)
        async with self._lock(table_id):  # no view kept: build one from a committed state
            return self._committed_view(await self._get(table_id))

    async def private_view(self, table_id: int, user_id: int) -> PrivateView:
        """One player's view as last committed (see :meth:`view`)."""
        pv = self._privs.get(table_id, {}).get(user_id)
        if pv is not None:
            return pv
        await self._get(table_id)
        async with self._lock(table_id):
            return self._committed_private(await self._get(table_id), user_id)

    async def table_in_channel(self, channel_id: int) -> TableView | None:
        for live in list(self._tables.values()):
            if live.channel_id == channel_id and live.status != "closed":
                return await self.view(live.id)
        async with self.store.read() as tx:
            table = await tx.table_in_channel(channel_id)
        if table is None:
            return None
        return await self.view(table.id)

    async def table_of(self, user_id: int, guild_id: int) -> list[TableView]:
        async with self.store.read() as tx:
            ids = [t.id for t in await tx.live_tables(guild_id=guild_id)]
        out = []
        for tid in ids:
            view = await self.view(tid)
            if view.seat_of(user_id) is not None:
                out.append(view)
        return out

    async def hand_in_progress(self, table_id: int) -> bool:
        """Whether a hand is being played at the table now."""
        live = await self._get(table_id)
        return live.family.hand_running

    async def live_table_ids(self) -> list[int]:
        async with self.store.read() as tx:
            return [t.id for t in await tx.live_tables()]

    async def set_message(self, table_id: int, kind: str, channel_id: int, message_id: int) -> None:
        async with self.store.transaction() as tx:
            await tx.set_message(table_id, kind, channel_id=channel_id, message_id=message_id)

    async def messages(self, table_id: int) -> dict[str, tuple[int, int]]:
        async with self.store.read() as tx:
            found = await tx.messages(table_id)
        return {k: (m.channel_id, m.message_id) for k, m in found.items()}

    async def set_dm_ok(self, table_id: int, user_id: int, ok: bool) -> None:
        live = await self._get(table_id)
        async with self._lock(table_id):
            info = live.seat_of(user_id)
            if info is None:
                raise NotSeated("you do not sit at this table")
            async with self.store.transaction() as tx:
                await tx.update_seat(table_id, user_id, dm_ok=ok)
            info.dm_ok = ok


def _banner(live: LiveTable) -> TournamentBanner | None:
    raw = live.tournament.get("banner") if live.tournament_id is not None else None
    return None if not raw else TournamentBanner.from_json(raw)
