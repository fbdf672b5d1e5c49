"""Nights and the settle-up: ``/night start`` .. ``/night end`` bracket play in a server;
ending a night records its settle-up; ``/settle`` shows (and may record) any period's.

A night is of a kind: ``tables`` (the bot's league tables count, as before issue 21),
``bank`` (buy-ins and cash-outs of a game played anywhere, :mod:`bot.store.bank`) or
``both``. Expenses count on any night.

What a period's results are: the finished hands of the server's league tables (practice
tables move no league chips and do not count). A night holds the hands that ended between
its start and its end; a season the hands whose chips moved in it (their ledger rows carry
the season). Each member's ``net`` is the sum of their hand results there; a night adds
their bank net (cash-outs minus buy-ins), what the expenses add (+ paid, - shares), their
share of what a forced end found unaccounted and the debts carried in (``total``).
``settled`` is what settle-ups of that period already moved; ``owed = total + settled``
is what is left to settle (0 for everyone once settled). A settled night keeps its results
as they were settled (a snapshot in its ``settlements`` row), so it reads the same later.

How a settle-up is recorded: :mod:`bot.store.settleup`. A settle-up is a payment, not an
undo: the wallets go back to where the night began, the season's results
(``StatsOps.player_summaries``, read by ``/leaderboard`` and ``/stats``) keep what was
played. A night is settled once (a unique index as well as the check here); a period with
nothing owed is refused; nothing is settled while a hand of it is in play.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from datetime import datetime, timedelta

from bot.league.bank import Expense, expense_nets, money_only, split_evenly
from bot.league.settle import (
    ChipValue,
    SettleConstraintError,
    Transfer,
    parse_chip_value,
    with_carried,
)
from bot.league.when import local_date, zone
from bot.store._base import load_json
from bot.store.bank import NightError, night_from_row
from bot.store.models import League
from bot.store.night_models import (
    NIGHT_KINDS,
    BiggestPot,
    Night,
    Period,
    PeriodResults,
    PlayerResult,
    Settlement,
)
from bot.store.schedule import Schedule, ScheduleOps
from bot.store.settleup import SettleOps

__all__ = [
    "BiggestPot",
    "Night",
    "NightError",
    "NightOps",
    "Period",
    "PeriodResults",
    "PlayerResult",
    "Settlement",
    "chip_value_of",
]


def chip_value_of(league: League | None) -> ChipValue | None:
    if league is None or league.chip_value is None or league.currency is None:
        return None
    return parse_chip_value(league.chip_value, league.currency)


_HANDS = """
    FROM hands h JOIN tables t ON t.id = h.table_id
    WHERE t.guild_id = :guild AND t.practice = 0 AND h.status = 'finished'
      AND t.tournament_id IS NULL
"""
_IN_NIGHT = " AND h.ended_at >= :start AND h.ended_at <= :end"
_IN_SEASON = " AND EXISTS (SELECT 1 FROM ledger l WHERE l.hand_id = h.id AND l.season_id = :season)"


_SAVEPOINT = "SAVEPOINT settle_up"
_ROLLBACK = "ROLLBACK TO settle_up"
_RELEASE = "RELEASE settle_up"


class NightOps(SettleOps, ScheduleOps):
    # ------------------------------------------------------------------ nights

    async def last_night(self, guild_id: int) -> Night | None:
        """The open night, else the latest ended one."""
        row = await self._one(
            "SELECT * FROM nights WHERE guild_id = ? ORDER BY number DESC LIMIT 1", (guild_id,)
        )
        return None if row is None else night_from_row(row)

    async def start_night(
        self,
        guild_id: int,
        *,
        host_id: int,
        channel_id: int | None = None,
        kind: str = "tables",
    ) -> Night:
        """Open the server's next night; refused while one is open. Started on the day of a
        scheduled night (in the league's time zone) not yet started, it links it."""
        if kind not in NIGHT_KINDS:
            raise NightError(f"A night is one of {', '.join(NIGHT_KINDS)}. Nothing changed.")
        found = await self.open_night(guild_id)
        if found is not None:
            raise NightError(
                f"Night #{found.number} is already on (since <t:{found.started_at}:t>): "
                "end it with `/night end` first."
            )
        season = await self.current_season(guild_id)
        row = await self._one(
            "SELECT COALESCE(MAX(number), 0) + 1 AS n FROM nights WHERE guild_id = ?",
            (guild_id,),
        )
        assert row is not None
        today = await self.scheduled_today(guild_id)
        night_id = await self._insert(
            "INSERT INTO nights (guild_id, number, season_id, host_id, channel_id, started_at,"
            " kind, schedule_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                guild_id,
                row["n"],
                season.id,
                host_id,
                channel_id,
                self.now(),
                kind,
                None if today is None else today.id,
            ),
        )
        return await self._night(night_id)

    async def scheduled_today(self, guild_id: int) -> Schedule | None:
        """The first scheduled night of today (the league's time zone) no night links yet."""
        league = await self.league(guild_id)
        tz = zone(league.timezone)
        day = datetime.fromisoformat(local_date(self.now(), league.timezone)).replace(tzinfo=tz)
        start = int(day.timestamp())
        end = int((day + timedelta(days=1)).timestamp())
        for schedule in await self.schedules_between(guild_id, start, end):
            linked = await self._one(
                "SELECT 1 FROM nights WHERE schedule_id = ? LIMIT 1", (schedule.id,)
            )
            if linked is None:
                return schedule
        return None

    async def end_night(
        self,
        guild_id: int,
        *,
        actor_id: int,
        force: bool = False,
        settle_with: Sequence[frozenset[int]] = (),
        carry_open: bool = False,
    ) -> PeriodResults:
        """Close the open night and record its settle-up; returns its results with the
        settlement. Refused, with nothing changed, when no night is open, while a hand of it
        is in play, while its bank does not balance or a request waits (unless ``force``:
        then the difference is booked as unaccounted and shared evenly), or when a
        ``settle_with`` group's nets do not cancel. ``carry_open``: the server's open
        transfers of earlier settle-ups are settled in this one."""
        night = await self.open_night(guild_id)
        if night is None:
            raise NightError("No night is on: start one with `/night start`.")
        if night.tables:
            await self._no_chips_in_play(guild_id, "ending the night")
        value = chip_value_of(await self.find_league(guild_id))
        if night.bank and not force:
            await self._bank_balances(night, value)
        await self._exec(_SAVEPOINT)
        try:
            if night.bank and force:
                await self._force_balance(night, value, actor_id=actor_id)
            await self._exec(
                "UPDATE nights SET ended_at = ?, ended_by = ? WHERE id = ?",
                (self.now(), actor_id, night.id),
            )
            ended = await self._night(night.id)
            carried = await self.open_transfers(guild_id) if carry_open else []
            results = await self._live_results(
                ended, carried=[c.transfer for c in carried], groups=settle_with
            )
            self._check_groups(results, value)
            await self._record(guild_id, results, night=ended, actor_id=actor_id, carried=carried)
        except BaseException:
            await self._undo()
            raise
        await self._exec(_RELEASE)
        return await self.night_results(ended)

    async def _bank_balances(self, night: Night, value: ChipValue | None) -> None:
        book = await self.night_book(night)
        if book.pending:
            r = book.pending[0]
            more = f" (and {len(book.pending) - 1} more)" if len(book.pending) > 1 else ""
            raise NightError(
                f"<@{r.user_id}>'s {r.word} of {money_only(r.chips, value)}{more} waits for "
                "Approve or Refuse: decide it first, or end with `force:True`. Nothing changed."
            )
        if book.difference:
            diff = book.difference
            how = "missing" if diff > 0 else "more out than in"
            waiting = book.not_cashed_out
            who = (
                " Not cashed out yet: " + ", ".join(f"<@{u}>" for u in waiting) + "."
                if waiting
                else ""
            )
            raise NightError(
                f"Night #{night.number}'s bank does not balance: money in "
                f"{money_only(book.money_in, value)}, money out "
                f"{money_only(book.money_out, value)}, {money_only(abs(diff), value)} {how}."
                f"{who} Book the cash-outs (or a correction), or end with `force:True` to record "
                "the difference as unaccounted. Nothing changed."
            )

    async def _force_balance(self, night: Night, value: ChipValue | None, *, actor_id: int) -> None:
        book = await self.night_book(night)
        if book.pending:
            await self.withdraw_pending(night, actor_id=actor_id)
        if book.difference:
            await self.book_unaccounted(
                night,
                book.difference,
                actor_id=actor_id,
                reason=f"forced end of night #{night.number} by <@{actor_id}>: money in "
                f"{money_only(book.money_in, value)}, money out "
                f"{money_only(book.money_out, value)}",
            )

    def _check_groups(self, results: PeriodResults, value: ChipValue | None) -> None:
        members = {p.user_id for p in results.players}
        for group in results.groups:
            outside = sorted(group - members)
            if outside:
                raise NightError(
                    f"<@{outside[0]}> has no part in {results.label}'s settle-up, so cannot "
                    "be in `settle_with`. Nothing changed."
                )
        try:
            results.plan()
        except SettleConstraintError as exc:
            names = " and ".join(f"<@{u}>" for u in sorted(exc.members))
            if exc.total == 0:
                raise NightError(
                    f"{names} are in two `settle_with` groups. Nothing changed."
                ) from None
            raise NightError(
                f"{names} cannot settle only among themselves: their nets add up to "
                f"{money_only(exc.total, value, signed=True)}, not 0. Nothing changed."
            ) from None

    async def _undo(self) -> None:
        """A refused end or settle-up leaves nothing behind, even in a transaction the
        caller goes on with."""
        await self._exec(_ROLLBACK)
        await self._exec(_RELEASE)

    async def _no_chips_in_play(self, guild_id: int, doing: str) -> None:
        """Refused while any hand of the server's league tables is in play: chips in a pot,
        or a hand dealt whose pot is still empty (a Razz hand at ante 0 waiting for its
        bring-in, issue 19 item 20): settling then would take chips back mid-hand."""
        busy = await self._all(
            "SELECT t.id AS table_id, t.channel_id FROM tables t"
            # a tournament's table plays tournament chips: no wallet's chips are in its pots
            " WHERE t.guild_id = :g AND t.tournament_id IS NULL AND ("
            "  EXISTS (SELECT 1 FROM accounts a WHERE a.table_id = t.id AND a.kind = 'pot'"
            "   AND a.balance <> 0)"
            "  OR (t.practice = 0 AND EXISTS (SELECT 1 FROM hands h WHERE h.table_id = t.id"
            "   AND h.status = 'running')))"
            " ORDER BY t.id",
            {"g": guild_id},
        )
        if busy:
            where = ", ".join(f"table #{r['table_id']} (<#{r['channel_id']}>)" for r in busy)
            raise NightError(
                f"A hand is still being played at {where}: finish it before {doing}. "
                "Nothing was changed."
            )

    async def hosts_live_table(self, guild_id: int, user_id: int) -> bool:
        """Whether the member hosts a live (not closed) table in the server."""
        row = await self._one(
            "SELECT 1 FROM tables WHERE guild_id = ? AND host_id = ? AND status <> 'closed'"
            " LIMIT 1",
            (guild_id, user_id),
        )
        return row is not None

    async def table_channel(self, table_id: int) -> int | None:
        row = await self._one("SELECT channel_id FROM tables WHERE id = ?", (table_id,))
        return None if row is None else int(row["channel_id"])

    async def seat_names(self, guild_id: int, *, tables: int = 200) -> dict[int, str]:
        """Members' names as the server's latest tables saved them (the name a member had
        when they sat down; a forgotten member's is already replaced there)."""
        rows = await self._all(
            "SELECT json_extract(snapshot, '$.names') AS names FROM tables"
            " WHERE guild_id = ? AND snapshot IS NOT NULL ORDER BY updated_at DESC, id DESC"
            " LIMIT ?",
            (guild_id, tables),
        )
        found: dict[int, str] = {}
        for r in rows:
            names = load_json(r["names"]) if r["names"] else {}
            for uid, name in (names or {}).items():
                if isinstance(name, str) and str(uid).lstrip("-").isdigit():
                    found.setdefault(int(uid), name)
        return found

    # ------------------------------------------------------------------ results

    async def night_results(self, night: Night) -> PeriodResults:
        """The night so far, or, once settled, its results as they were settled (a hand
        ending in the same second after the end does not change them)."""
        row = await self._one("SELECT * FROM settlements WHERE night_id = ?", (night.id,))
        recorded = None if row is None else await self.settlement_from_row(row)
        if row is None or row["results"] is None:
            return await self._live_results(night, recorded=recorded)
        settled = _settled_by(recorded.transfers if recorded is not None else ())
        snap = load_json(row["results"])
        pot = snap["pot"]
        players = []
        for entry in snap["players"]:
            uid, net, hands, *bank = entry
            extra = dict(
                zip(
                    ("bought_in", "cashed_out", "expenses", "unaccounted", "carried"),
                    bank,
                    strict=False,
                )
            )
            players.append(PlayerResult(uid, net, hands, settled=settled.get(uid, 0), **extra))
        for uid in set(settled) - {p.user_id for p in players}:
            players.append(PlayerResult(uid, 0, 0, settled=settled[uid]))
        return PeriodResults(
            period="night",
            label=f"night #{night.number}",
            players=_ranked(players),
            hands=snap["hands"],
            biggest_pot=None
            if pot is None
            else BiggestPot(pot[0], pot[1], pot[2], pot[3], tuple(pot[4])),
            value=recorded.value if recorded is not None else None,
            settlement=recorded,
            kind=snap.get("kind", night.kind),
            expenses=tuple(
                Expense(
                    id=e["id"],
                    what=e["what"],
                    chips=e["chips"],
                    paid_by=e["paid_by"],
                    shared_by=None if e["shared_by"] is None else tuple(e["shared_by"]),
                )
                for e in snap.get("expenses", [])
            ),
            unaccounted=snap.get("unaccounted", 0),
            groups=tuple(frozenset(g) for g in snap.get("groups", [])),
        )

    async def _live_results(
        self,
        night: Night,
        *,
        recorded: Settlement | None = None,
        carried: Sequence[Transfer] = (),
        groups: Sequence[frozenset[int]] = (),
    ) -> PeriodResults:
        """The night as it stands: its table hands (a tables night), its bank book (a bank
        night), its expenses, the debts ``carried`` in."""
        league = await self.find_league(night.guild_id)
        params = {
            "guild": night.guild_id,
            "start": night.started_at,
            "end": night.ended_at if night.ended_at is not None else self.now(),
        }
        table_rows = await self._player_rows(_IN_NIGHT, params) if night.tables else []
        tables = {r["user_id"]: (r["net"], r["hands"]) for r in table_rows}
        book = await self.night_book(night)
        bank = {line.user_id: line for line in book.lines}
        everyone = set(tables) | set(bank)
        expenses = expense_nets(book.expenses, everyone)
        shares = (
            split_evenly(book.unaccounted, bank or everyone)
            if book.unaccounted and (bank or everyone)
            else {}
        )
        debts = with_carried({}, carried)
        settled = _settled_by(recorded.transfers if recorded is not None else ())
        members = everyone | set(expenses) | set(shares) | set(debts) | set(settled)
        players = []
        for uid in members:
            net, hands = tables.get(uid, (0, 0))
            line = bank.get(uid)
            players.append(
                PlayerResult(
                    uid,
                    net,
                    hands,
                    settled=settled.get(uid, 0),
                    bought_in=0 if line is None else line.bought_in,
                    cashed_out=0 if line is None else line.cashed_out,
                    expenses=expenses.get(uid, 0),
                    unaccounted=shares.get(uid, 0),
                    carried=debts.get(uid, 0),
                )
            )
        return PeriodResults(
            period="night",
            label=f"night #{night.number}",
            players=_ranked(players),
            hands=await self._hand_count(_IN_NIGHT, params) if night.tables else 0,
            biggest_pot=await self._biggest_pot(_IN_NIGHT, params) if night.tables else None,
            value=recorded.value if recorded is not None else chip_value_of(league),
            settlement=recorded,
            kind=night.kind,
            expenses=book.expenses,
            unaccounted=book.unaccounted,
            groups=tuple(groups),
        )

    async def season_results(self, guild_id: int) -> PeriodResults:
        """The current season: every hand of it, and what its settle-ups already moved."""
        season = await self.current_season(guild_id)
        params = {"guild": guild_id, "season": season.id}
        players = await self._player_rows(_IN_SEASON, params)
        rows = await self._all(
            "SELECT f.user_id AS payee, t.user_id AS payer, l.amount FROM ledger l"
            " JOIN accounts f ON f.id = l.from_account JOIN accounts t ON t.id = l.to_account"
            " WHERE l.guild_id = :guild AND l.season_id = :season AND l.kind = 'settle'",
            params,
        )
        settled: dict[int, int] = {}
        for r in rows:
            settled[r["payer"]] = settled.get(r["payer"], 0) + r["amount"]
            settled[r["payee"]] = settled.get(r["payee"], 0) - r["amount"]
        found = {r["user_id"]: PlayerResult(r["user_id"], r["net"], r["hands"]) for r in players}
        for uid, chips in settled.items():
            base = found.get(uid, PlayerResult(uid, 0, 0))
            found[uid] = PlayerResult(uid, base.net, base.hands, settled=chips)
        return PeriodResults(
            period="season",
            label=f"season {season.number}",
            players=_ranked(found.values()),
            hands=await self._hand_count(_IN_SEASON, params),
            biggest_pot=await self._biggest_pot(_IN_SEASON, params),
            value=chip_value_of(await self.find_league(guild_id)),
        )

    async def settle_season(self, guild_id: int, *, actor_id: int) -> PeriodResults:
        """Record the settle-up of what is still owed in the current season. Refused while
        a night is on (its end settles it), while a hand is in play, or when nothing is
        owed (already settled)."""
        night = await self.open_night(guild_id)
        if night is not None:
            raise NightError(
                f"Night #{night.number} is on: `/night end` settles it. Nothing was changed."
            )
        await self._no_chips_in_play(guild_id, "settling the season")
        results = await self.season_results(guild_id)
        if not any(results.owed().values()):
            raise NightError(
                f"Nothing to settle: {results.label} is already settled. Nothing was changed."
            )
        await self._exec(_SAVEPOINT)
        try:
            settlement_id = await self._record(guild_id, results, night=None, actor_id=actor_id)
        except BaseException:
            await self._undo()
            raise
        await self._exec(_RELEASE)
        # the season as it stands now (every net settled), with the settle-up just recorded
        return replace(
            await self.season_results(guild_id), settlement=await self.settlement(settlement_id)
        )

    async def _player_rows(self, where: str, params: Mapping[str, object]) -> list[sqlite3.Row]:
        return await self._all(
            "SELECT r.user_id, SUM(r.net) AS net, COUNT(*) AS hands"
            " FROM hand_results r WHERE r.hand_id IN (SELECT h.id" + _HANDS + where + ")"
            " GROUP BY r.user_id",
            params,
        )

    async def _hand_count(self, where: str, params: Mapping[str, object]) -> int:
        row = await self._one("SELECT COUNT(*) AS n" + _HANDS + where, params)
        assert row is not None
        return int(row["n"])

    async def _biggest_pot(self, where: str, params: Mapping[str, object]) -> BiggestPot | None:
        row = await self._one(
            "SELECT h.id, h.table_id, h.number,"
            " (SELECT SUM(won) FROM hand_results r WHERE r.hand_id = h.id) AS chips"
            + _HANDS
            + where
            + " ORDER BY chips DESC, h.id LIMIT 1",
            params,
        )
        if row is None or not row["chips"]:
            return None
        winners = await self._all(
            "SELECT user_id FROM hand_results WHERE hand_id = ? AND won > 0 ORDER BY won DESC,"
            " user_id",
            (row["id"],),
        )
        return BiggestPot(
            hand_id=row["id"],
            table_id=row["table_id"],
            number=row["number"],
            chips=row["chips"],
            winners=tuple(w["user_id"] for w in winners),
        )


def _settled_by(transfers: Sequence[Transfer]) -> dict[int, int]:
    """What recorded transfers moved: + to each payer, - from each payee (so a settled
    member's ``owed`` is 0)."""
    out: dict[int, int] = {}
    for t in transfers:
        out[t.payer] = out.get(t.payer, 0) + t.chips
        out[t.payee] = out.get(t.payee, 0) - t.chips
    return out


def _ranked(players: Iterable[PlayerResult]) -> tuple[PlayerResult, ...]:
    """Biggest winner first (what the settle-up settles), ties by member id."""
    return tuple(sorted(players, key=lambda p: (-p.total, -p.net, p.user_id)))
