"""The TableService's pace (a part of :class:`bot.tables.service.TableService`; the rules
and the state are :mod:`bot.tables.pace`): the time bank, choices made in advance, sitting
out and back, the host's stakes for the next hand and seating a late player, and the turn
keys the turn pings go by.

The service core calls the hooks from its one mutation path: :meth:`TablePace._pace_start`
before a hand is dealt, :meth:`~TablePace._pace_dealt` after, :meth:`~TablePace._pace_auto`
after every engine step (a choice made in advance is taken there, at once),
:meth:`~TablePace._pace_bank` when a decision clock runs out, and
:meth:`~TablePace._pace_commit` just before each commit (the bank's use is taken off, stale
choices are dropped, turns are keyed). Everything they change is in the table's snapshot,
written by the same transaction.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from bot.engine.actions import Action
from bot.engine.errors import IllegalAction, InvalidConfig, NotYourTurn
from bot.render.text import format_chips, game_title
from bot.store import Tx
from bot.tables.errors import NotSeated, StaleAction
from bot.tables.games import GameFamily
from bot.tables.live import RECENT, LiveTable, SeatInfo, Step
from bot.tables.pace import CALL, CHECK, CHECK_FOLD, GUTS_GAMES, LABELS, Advance
from bot.tables.tournament import refuse_at_tournament_table
from bot.tables.views import PrivateView, TableView

STAKE_KEYS = ("small_blind", "big_blind", "ante", "bring_in", "small_bet", "big_bet")
"""``/table stakes`` options (the issue's five, and the stud games' bring-in)."""
STAKE_WORDS = {
    "small_blind": "small blind",
    "big_blind": "big blind",
    "ante": "ante",
    "bring_in": "bring-in",
    "small_bet": "small bet",
    "big_bet": "big bet",
}
MIXED_STAKES = ("small_bet", "ante")
"""A mixed table's stakes: every game's follow its small bet (bot/tables/mixed.py)."""


def stakes_text(stakes: Mapping[str, int]) -> str:
    """``small blind 10, big blind 20`` in the order of :data:`STAKE_KEYS`."""
    return ", ".join(
        f"{STAKE_WORDS[k]} {format_chips(stakes[k])}" for k in STAKE_KEYS if k in stakes
    )


def restake(game: str, family: GameFamily, stakes: Mapping[str, int]) -> GameFamily:
    """The table's family with ``stakes`` in its rules and its session kept (the next hand
    is dealt with them); :class:`InvalidConfig` when the game has no such stake or refuses
    the values (a small blind above the big blind...)."""
    from bot.tables.mixed import MixedFamily  # mixed.py builds on the families

    if isinstance(family, MixedFamily):
        unknown = [k for k in stakes if k not in MIXED_STAKES]
        if unknown:
            raise InvalidConfig(
                unknown[0],
                f"a {game} table's stakes are its small_bet and ante (every game follows them)",
            )
        config = family.config
        values: dict[str, Any] = {
            "games": [v.key for v in family.variants],
            "small_bet": stakes.get("small_bet", config.get("small_bet")),
            "ante": stakes.get("ante", config.get("ante")),
            "decision_seconds": family.decision_seconds,
            "choice_seconds": family.choice_seconds,
        }
        mixed = MixedFamily.parse(game, {k: v for k, v in values.items() if v is not None})
        mixed.load(family.session_json())
        return mixed
    rules = dict(family.rules_json)
    unknown = [k for k in stakes if k not in rules]
    if unknown:
        mine = [STAKE_WORDS[k].replace(" ", "_") for k in STAKE_KEYS if k in rules]
        raise InvalidConfig(
            unknown[0],
            f"this {game_title(game, family.describe_rules())} table has no such stake;"
            f" its stakes are {', '.join(mine)}",
        )
    return family.with_stakes(stakes)  # as a tournament's level changes them


class TablePace:
    """Mixin of the TableService: what it needs of the service is declared below."""

    clock: Callable[[], float]
    _run: Callable[..., Awaitable[tuple[LiveTable, Any, Any]]]
    _run_view: Callable[..., Awaitable[TableView]]
    _emit: Callable[..., Awaitable[None]]
    _after: Callable[..., Awaitable[None]]
    _flush: Callable[..., Awaitable[Any]]
    _remove: Callable[..., Awaitable[None]]
    _sit: Callable[..., Awaitable[None]]
    _schedule_next: Callable[..., Awaitable[None]]
    _deadline_in: Callable[[LiveTable, float], int]
    _committed_private: Callable[[LiveTable, int], PrivateView]
    _may_manage: Callable[[LiveTable, int, bool], None]

    # ------------------------------------------------------------------ players' controls

    async def choose_in_advance(
        self,
        table_id: int,
        user_id: int,
        kind: str,
        *,
        amount: int | None = None,
        hand: int | None = None,
    ) -> PrivateView:
        """A hand DM's **Check/Fold**, **Check**, **Call N** (betting games) or **Play on**,
        **Lay down** (guts) while it is not the player's turn: the choice waits for their
        turn and is taken at once then; pressed again, it is cancelled. On their turn (a DM
        drawn before it came) it acts now. ``hand``: the hand the button was drawn in."""

        async def do(live: LiveTable, tx: Tx, step: Step) -> None:
            info = _seated(live, user_id)
            fam = live.family
            if hand is not None and hand != live.hand_number:
                raise StaleAction("that button was for an earlier hand")
            if live.status == "paused" or fam.paused:
                raise NotYourTurn("the table is paused")
            if live.status != "running" or not fam.hand_running:
                raise NotYourTurn("no hand is being played right now")
            if user_id in live.leaving:
                raise NotYourTurn("you are leaving: the table plays for you")
            seat = info.seat_no
            step.touched.add(user_id)
            pace = live.pace
            if seat in fam.to_act():
                got = fam.advance_action(seat, kind, amount)
                if isinstance(got, Action):
                    pace.advance.pop(user_id, None)
                    step.actors.add(user_id)
                    await self._emit(live, tx, step, fam.apply(got))
                    await self._after(live, tx, step)
                    return
                if got is False:
                    raise IllegalAction(_refused(fam, seat, kind, amount))
            offers = fam.advance_offers(seat)
            if kind not in offers or (kind == CALL and fam.price(seat) != amount):
                raise IllegalAction(_refused(fam, seat, kind, amount))
            mine = pace.advance.get(user_id)
            if mine is not None and (mine.kind, mine.amount) == (kind, amount):
                del pace.advance[user_id]  # pressed again: cancelled
                return
            rnd = fam.round_key() if fam.betting else -1
            pace.advance[user_id] = Advance(kind, amount, live.hand_number, rnd)

        _, _, pv = await self._run(
            table_id, do, want=lambda live: self._committed_private(live, user_id)
        )
        assert isinstance(pv, PrivateView)
        return pv

    async def sit_out(self, table_id: int, user_id: int) -> PrivateView:
        """**Sit out next hand**: a player dealt into the hand being played sits out from the
        next one; otherwise at once. The seat is kept for ``sit_out_hands`` hands."""

        async def do(live: LiveTable, tx: Tx, step: Step) -> None:
            refuse_at_tournament_table(live)  # the director's table
            info = _seated(live, user_id)
            pace = live.pace
            if info.away:
                raise IllegalAction("you already sit out: press **I'm back** to play again")
            if user_id in pace.sit_next:
                raise IllegalAction("you already sit out from the next hand")
            fam = live.family
            name = live.name(info.seat_no)
            word = "game" if live.game in GUTS_GAMES else "hand"
            pace.advance.pop(user_id, None)
            if fam.hand_running and fam.in_hand(info.seat_no):
                pace.sit_next.add(user_id)
                text = f"{name} sits out from the next {word}"
            else:
                await self._flush(live, tx, step)
                await tx.update_seat(live.id, user_id, away=True)
                info.away = True
                pace.missed[user_id] = 0
                text = f"{name} sits out"
            live.recent.append(text)
            del live.recent[:-RECENT]
            step.touched.add(user_id)

        _, _, pv = await self._run(
            table_id, do, want=lambda live: self._committed_private(live, user_id)
        )
        assert isinstance(pv, PrivateView)
        return pv

    async def sit_in(self, table_id: int, user_id: int) -> PrivateView:
        """**I'm back**: a player sitting out plays again from the next hand (at Hold'em and
        Omaha, one the big blind passed waits for it or posts one, 6.14); one who was to sit
        out from the next hand plays it after all."""

        async def do(live: LiveTable, tx: Tx, step: Step) -> None:
            info = _seated(live, user_id)
            pace = live.pace
            if user_id in pace.sit_next:
                pace.sit_next.discard(user_id)
                word = "game" if live.game in GUTS_GAMES else "hand"
                text = f"{live.name(info.seat_no)} plays the next {word} after all"
                live.recent.append(text)
                del live.recent[:-RECENT]
                step.touched.add(user_id)
                return
            if not info.away:
                raise IllegalAction("you are not sitting out: you play the next hand")
            await self._come_back(live, tx, step, info)

        _, _, pv = await self._run(
            table_id, do, want=lambda live: self._committed_private(live, user_id)
        )
        assert isinstance(pv, PrivateView)
        return pv

    async def _come_back(self, live: LiveTable, tx: Tx, step: Step, info: SeatInfo) -> None:
        """A player sitting out (by choice, or the idle rule) comes back for the next hand;
        one the big blind passed meanwhile waits for it, or posts one (6.14)."""
        uid = info.user_id
        pace = live.pace
        await self._flush(live, tx, step)
        await tx.update_seat(live.id, uid, away=False)
        info.away = False
        owes = uid in pace.owes
        pace.owes.discard(uid)
        pace.missed.pop(uid, None)
        name = live.name(info.seat_no)
        if owes and live.family.newcomer_blind() == "wait":
            info.blind = "wait"
            text = (
                f"{name} is back and waits for the big blind they missed"
                " (**Post big blind** to play the next hand)"
            )
        else:
            text = f"{name} is back"
        step.announcements.append(text)
        live.recent.append(text)
        del live.recent[:-RECENT]
        step.touched.add(uid)
        if live.status == "open" and live.hand_number > 0:
            await self._schedule_next(live, tx, step)

    # ------------------------------------------------------------------ the host's controls

    async def set_stakes(
        self, table_id: int, actor_id: int, stakes: Mapping[str, int], *, may_manage: bool
    ) -> TableView:
        """``/table stakes``: the host (or a manager) sets stakes for the next hand, checked
        now against the game's rules; the hand being played keeps its own."""
        given = {k: int(v) for k, v in stakes.items()}

        async def do(live: LiveTable, tx: Tx, step: Step) -> None:
            refuse_at_tournament_table(live)  # the director's table
            self._may_manage(live, actor_id, may_manage)
            if not given:
                raise IllegalAction(
                    "give at least one stake: small_blind, big_blind, ante, small_bet or big_bet"
                )
            merged = {**live.pace.stakes, **given}
            restake(live.game, live.family, merged)  # the game's refusal, if any
            live.pace.stakes = merged
            live.recent.append(f"Stakes from the next hand: {stakes_text(merged)}")
            del live.recent[:-RECENT]

        return await self._run_view(table_id, do)

    async def seat_member(
        self, table_id: int, actor_id: int, user_id: int, name: str, *, may_manage: bool
    ) -> TableView:
        """``/table seat``: the host (or a manager) seats a late player, as if they had
        pressed **Join** (at Hold'em and Omaha they wait for the big blind, 6.14)."""

        async def do(live: LiveTable, tx: Tx, step: Step) -> None:
            refuse_at_tournament_table(live)  # the director's table
            self._may_manage(live, actor_id, may_manage)
            await self._sit(live, tx, step, user_id, name, is_computer=False)
            if live.status == "open" and live.hand_number > 0:
                await self._schedule_next(live, tx, step)

        return await self._run_view(table_id, do)

    # ------------------------------------------------------------------ hooks

    async def _pace_between(self, live: LiveTable, tx: Tx, step: Step) -> None:
        """Between hands: who pressed **Sit out next hand** sits out now."""
        pace = live.pace
        for uid in sorted(pace.sit_next):
            info = live.seat_of(uid)
            if info is not None and not info.away:
                await self._flush(live, tx, step)
                await tx.update_seat(live.id, uid, away=True)
                info.away = True
                pace.missed[uid] = 0
                step.touched.add(uid)
        pace.sit_next.clear()

    async def _pace_start(self, live: LiveTable, tx: Tx, step: Step) -> None:
        """Before a hand is dealt: the stakes set for it, who sits out from it, and the
        seats of players who sat out ``sit_out_hands`` hands are freed."""
        pace = live.pace
        await self._pace_between(live, tx, step)
        for seat, info in sorted(live.seats.items()):
            uid = info.user_id
            if info.away and pace.missed.get(uid, 0) >= pace.sit_out_hands:
                name = live.name(seat)
                await self._remove(live, tx, step, uid, quiet=True)
                text = (
                    f"{name} sat out {pace.sit_out_hands} hands: the seat is free"
                    " (their chips stay in their wallet)"
                )
                step.announcements.append(text)
                live.recent.append(text)
                if step.closed:
                    return
        if pace.stakes:
            try:
                live.family = restake(live.game, live.family, pace.stakes)
            except InvalidConfig as exc:
                text = f"The new stakes could not be used ({exc.message}): the old ones stay"
            else:
                await self._flush(live, tx, step)
                await tx.set_table_rules(live.id, live.family.rules_json)
                text = f"New stakes from this hand: {stakes_text(pace.stakes)}"
            pace.stakes = {}
            live.recent.append(text)
        del live.recent[:-RECENT]

    def _pace_dealt(self, live: LiveTable) -> None:
        """A hand was dealt: choices made in advance are for one hand; an orbit of the button
        tops the banks up; a player sitting out misses it (and may owe the big blind)."""
        pace = live.pace
        fam = live.family
        pace.advance.clear()
        pace.bank_run = None
        humans = [i.user_id for _, i in sorted(live.seats.items()) if not i.is_computer]
        pace.button_at(fam.dealer, humans)
        for seat, info in live.seats.items():
            if info.away and not fam.in_hand(seat):
                pace.missed[info.user_id] = pace.missed.get(info.user_id, 0) + 1
                if fam.big_blind_passed(seat):
                    pace.owes.add(info.user_id)

    async def _pace_auto(self, live: LiveTable, tx: Tx, step: Step) -> bool:
        """Take one choice made in advance of a player whose turn it is now (the table
        says it was chosen in advance); whether one was taken."""
        fam = live.family
        pace = live.pace
        if not pace.advance:
            return False
        rnd = fam.round_key()
        for seat in sorted(fam.to_act()):
            info = live.seats.get(seat)
            if info is None:
                continue
            adv = pace.advance.get(info.user_id)
            if adv is None:
                continue
            if adv.hand != live.hand_number or (fam.betting and adv.round != rnd):
                del pace.advance[info.user_id]
                step.touched.add(info.user_id)
                continue
            got = fam.advance_action(seat, adv.kind, adv.amount)
            if got is True:
                continue  # for a later decision (a guts choice in a discard round)
            del pace.advance[info.user_id]
            step.touched.add(info.user_id)
            if got is False:
                continue
            step.actors.add(info.user_id)
            await self._emit(live, tx, step, fam.apply(got), note=" (chosen in advance)")
            return True
        return False

    def _pace_bank(self, live: LiveTable, step: Step) -> bool:
        """The decision clock of the player to act ran out: start their time bank (the
        deadline moves by what it holds); False when it is empty or just ran out too (the
        default action is taken)."""
        fam = live.family
        pace = live.pace
        if not fam.time_bank_applies() or not pace.time_bank:
            return False
        seats = [s for s in fam.to_act() if s in live.seats]
        if len(seats) != 1:
            return False
        info = live.seats[seats[0]]
        if info.is_computer or info.user_id in live.leaving:
            return False
        now = self.clock()
        run = pace.bank_run
        if run is not None:
            pace.bank_run = None
            if run.user_id == info.user_id:
                pace.banks[run.user_id] = 0.0  # the bank ran out as well
                return False
            pace.banks[run.user_id] = round(run.left(now), 3)
        left = pace.start_bank(info.user_id, now)
        if left is None:
            return False
        live.deadline = self._deadline_in(live, left)
        text = f"{live.name(info.seat_no)} is on their time bank ({int(left)} s)"
        live.recent.append(text)
        del live.recent[:-RECENT]
        step.touched.add(info.user_id)
        return True

    def _pace_commit(self, live: LiveTable, step: Step) -> None:
        """Just before a commit: a bank whose turn is over is charged; choices the game
        moved past are dropped; each turn that began gets its key (the version this
        commit writes), and is pinged when it is one player's turn after someone else
        acted."""
        fam = live.family
        pace = live.pace
        running = live.status == "running" and fam.hand_running and not fam.paused
        to_act = {live.user(s): s for s in fam.to_act() if s in live.seats} if running else {}
        run = pace.bank_run
        if run is not None and run.user_id not in to_act:
            pace.stop_bank(self.clock())
        if pace.advance:
            if not fam.hand_running:
                step.touched.update(pace.advance)
                pace.advance.clear()
            else:
                self._drop_stale(live, step)
        for uid in [u for u in pace.turns if u not in to_act]:
            del pace.turns[uid]
        for uid in sorted(to_act):
            if uid in pace.turns:
                continue
            key = live.version + 1
            pace.turns[uid] = key
            # a turn of one's own, after another's action; a secret guts window is
            # everyone's at once, nobody's turn comes after another's: no ping
            if step.actors - {uid} and len(to_act) == 1:
                step.pings.append((uid, key))

    def _drop_stale(self, live: LiveTable, step: Step) -> None:
        fam = live.family
        pace = live.pace
        prices: dict[int, int | None] = {}
        for uid, adv in list(pace.advance.items()):
            info = live.seat_of(uid)
            if info is None or not fam.in_hand(info.seat_no):
                del pace.advance[uid]
                continue
            if adv.kind in (CHECK, CALL, CHECK_FOLD):
                prices[uid] = fam.price(info.seat_no)
            elif not fam.advance_offers(info.seat_no) and info.seat_no not in fam.to_act():
                del pace.advance[uid]  # out of the game
                step.touched.add(uid)
        rnd = fam.round_key() if fam.betting else -1
        gone = pace.drop_stale(live.hand_number, rnd, prices)
        step.touched.update(gone)


def _seated(live: LiveTable, user_id: int) -> SeatInfo:
    info = live.seat_of(user_id)
    if info is None:
        raise NotSeated("you do not sit at this table")
    return info


def _refused(fam: GameFamily, seat: int, kind: str, amount: int | None) -> str:
    """Why a choice in advance is not on offer now, in words."""
    owed = fam.price(seat)
    label = LABELS.get(kind, kind)
    if kind == CALL and amount is not None:
        label = f"Call {format_chips(amount)}"
    if not fam.betting:
        return "you are out of this game: there is nothing to choose"
    if owed is None:
        return "you have nothing left to decide in this hand"
    if kind == CHECK and owed:
        return f"there is a bet now: {format_chips(owed)} to call, so {label} is off"
    if kind == CALL:
        if not owed:
            return f"there is nothing to call now, so {label} is off"
        return f"the price is now {format_chips(owed)}, so {label} is off"
    return f"{label} is not possible now"
