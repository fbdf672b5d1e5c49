"""Nights and the settle-up: ``/night start`` .. ``/night end`` bracket play in a server;
ending a night records its settle-up; ``/settle`` shows (and may record) any period's.

What a period's results are: the finished hands of the server's league tables (practice
tables move no league chips and do not count). A night holds the hands that ended between
its start and its end; a season the hands whose chips moved in it (their ledger rows carry
the season). Each member's ``net`` is the sum of their hand results there; ``settled`` is
what settle-ups of that period already moved; ``owed = net + settled`` is what is left to
settle (0 for everyone once settled). A settled night keeps its results as they were
settled (a snapshot in its ``settlements`` row), so it reads the same later.

How a settle-up is recorded (one transaction, all or nothing): a ``settlements`` row (the
transfers and the chip value they were priced at) and, per transfer "payer pays payee N
chips", one ledger row of kind ``settle`` moving N chips from the payee's wallet back to
the payer's: the payer paid their loss in money, so the chips come back to them and every
net of the period is 0 afterwards; the next period starts from the settled state. Chips
only move between two wallets of the season, so the audit's sums hold. A night is settled
once (a unique index as well as the check here); a period with nothing owed is refused.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from bot.league.settle import ChipValue, Transfer, fewest_transfers, parse_chip_value
from bot.store._base import dump_json, load_json
from bot.store.errors import Overdraft, StoreError
from bot.store.ledger import LedgerOps
from bot.store.models import League

Period = Literal["night", "season"]


class NightError(StoreError):
    """A night command that cannot be done now (none open, one already open, settled...)."""


@dataclass(frozen=True, slots=True)
class Night:
    id: int
    guild_id: int
    number: int
    season_id: int
    host_id: int
    channel_id: int | None
    started_at: int
    ended_at: int | None
    ended_by: int | None

    @property
    def open(self) -> bool:
        return self.ended_at is None


@dataclass(frozen=True, slots=True)
class Settlement:
    id: int
    period: Period
    night_id: int | None
    actor_id: int | None
    transfers: tuple[Transfer, ...]
    value: ChipValue | None
    created_at: int


@dataclass(frozen=True, slots=True)
class PlayerResult:
    user_id: int
    net: int
    """Chips won (+) or lost (-) in the period's hands."""
    hands: int
    settled: int = 0
    """Chips already moved by the period's settle-ups (the opposite of what was settled)."""

    @property
    def owed(self) -> int:
        """What is left to settle: 0 once settled."""
        return self.net + self.settled


@dataclass(frozen=True, slots=True)
class BiggestPot:
    hand_id: int
    table_id: int
    number: int
    chips: int
    winners: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class PeriodResults:
    period: Period
    label: str
    """``night #3`` or ``season 2``."""
    players: tuple[PlayerResult, ...]
    """Biggest winner first (ties by member id)."""
    hands: int
    biggest_pot: BiggestPot | None
    value: ChipValue | None
    settlement: Settlement | None = None
    """Night: its recorded settle-up, once ended."""

    def owed(self) -> dict[int, int]:
        return {p.user_id: p.owed for p in self.players}

    def plan(self) -> list[Transfer]:
        """The recorded transfers of a settled night, else the fewest that settle now."""
        if self.settlement is not None:
            return list(self.settlement.transfers)
        return fewest_transfers(self.owed())


def chip_value_of(league: League | None) -> ChipValue | None:
    if league is None or league.chip_value is None or league.currency is None:
        return None
    return parse_chip_value(league.chip_value, league.currency)


def night_from_row(row: sqlite3.Row) -> Night:
    return Night(**{name: row[name] for name in Night.__slots__})


def settlement_from_row(row: sqlite3.Row) -> Settlement:
    value = (
        None if row["chip_value"] is None else parse_chip_value(row["chip_value"], row["currency"])
    )
    return Settlement(
        id=row["id"],
        period=row["period"],
        night_id=row["night_id"],
        actor_id=row["actor_id"],
        transfers=tuple(
            Transfer(payer=t["payer"], payee=t["payee"], chips=t["chips"])
            for t in load_json(row["transfers"])
        ),
        value=value,
        created_at=row["created_at"],
    )


_HANDS = """
    FROM hands h JOIN tables t ON t.id = h.table_id
    WHERE t.guild_id = :guild AND t.practice = 0 AND h.status = 'finished'
"""
_IN_NIGHT = " AND h.ended_at >= :start AND h.ended_at <= :end"
_IN_SEASON = " AND EXISTS (SELECT 1 FROM ledger l WHERE l.hand_id = h.id AND l.season_id = :season)"


_SAVEPOINT = "SAVEPOINT settle_up"
_ROLLBACK = "ROLLBACK TO settle_up"
_RELEASE = "RELEASE settle_up"


class NightOps(LedgerOps):
    # ------------------------------------------------------------------ nights

    async def open_night(self, guild_id: int) -> Night | None:
        row = await self._one(
            "SELECT * FROM nights WHERE guild_id = ? AND ended_at IS NULL", (guild_id,)
        )
        return None if row is None else night_from_row(row)

    async def last_night(self, guild_id: int) -> Night | None:
        """The open night, else the latest ended one."""
        row = await self._one(
            "SELECT * FROM nights WHERE guild_id = ? ORDER BY number DESC LIMIT 1", (guild_id,)
        )
        return None if row is None else night_from_row(row)

    async def start_night(
        self, guild_id: int, *, host_id: int, channel_id: int | None = None
    ) -> Night:
        """Open the server's next night; refused while one is open."""
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
        night_id = await self._insert(
            "INSERT INTO nights (guild_id, number, season_id, host_id, channel_id, started_at)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (guild_id, row["n"], season.id, host_id, channel_id, self.now()),
        )
        got = await self._one("SELECT * FROM nights WHERE id = ?", (night_id,))
        assert got is not None
        return night_from_row(got)

    async def end_night(self, guild_id: int, *, actor_id: int) -> PeriodResults:
        """Close the open night and record its settle-up (see the module's docstring);
        returns its results with the settlement. Refused, with nothing changed, when no
        night is open or chips are still in a pot (a hand is being played)."""
        night = await self.open_night(guild_id)
        if night is None:
            raise NightError("No night is on: start one with `/night start`.")
        await self._no_chips_in_play(guild_id, "ending the night")
        await self._exec(_SAVEPOINT)
        try:
            await self._exec(
                "UPDATE nights SET ended_at = ?, ended_by = ? WHERE id = ?",
                (self.now(), actor_id, night.id),
            )
            ended = await self._night(night.id)
            await self._record(
                guild_id, await self.night_results(ended), night=ended, actor_id=actor_id
            )
        except BaseException:
            await self._undo()
            raise
        await self._exec(_RELEASE)
        return await self.night_results(ended)

    async def _undo(self) -> None:
        """A refused end or settle-up leaves nothing behind, even in a transaction the
        caller goes on with."""
        await self._exec(_ROLLBACK)
        await self._exec(_RELEASE)

    async def _night(self, night_id: int) -> Night:
        row = await self._one("SELECT * FROM nights WHERE id = ?", (night_id,))
        assert row is not None
        return night_from_row(row)

    async def _no_chips_in_play(self, guild_id: int, doing: str) -> None:
        """Refused while any hand of the server's league tables is in play: chips in a pot,
        or a hand dealt whose pot is still empty (a Razz hand at ante 0 waiting for its
        bring-in, issue 19 item 20): settling then would take chips back mid-hand."""
        busy = await self._all(
            "SELECT t.id AS table_id, t.channel_id FROM tables t"
            " WHERE t.guild_id = :g AND ("
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
        """The night's hands so far, or, once settled, its results as they were settled
        (a hand ending in the same second after the end does not change them)."""
        settlement = await self._one("SELECT * FROM settlements WHERE night_id = ?", (night.id,))
        recorded = None if settlement is None else settlement_from_row(settlement)
        settled: dict[int, int] = {}
        for t in recorded.transfers if recorded is not None else ():
            settled[t.payer] = settled.get(t.payer, 0) + t.chips
            settled[t.payee] = settled.get(t.payee, 0) - t.chips
        league = await self.find_league(night.guild_id)
        label = f"night #{night.number}"
        value = recorded.value if recorded is not None else chip_value_of(league)
        if settlement is not None and settlement["results"] is not None:
            snap = load_json(settlement["results"])
            pot = snap["pot"]
            return PeriodResults(
                period="night",
                label=label,
                players=_players(
                    [{"user_id": u, "net": n, "hands": h} for u, n, h in snap["players"]],
                    settled,
                ),
                hands=snap["hands"],
                biggest_pot=None
                if pot is None
                else BiggestPot(pot[0], pot[1], pot[2], pot[3], tuple(pot[4])),
                value=value,
                settlement=recorded,
            )
        params = {
            "guild": night.guild_id,
            "start": night.started_at,
            "end": night.ended_at if night.ended_at is not None else self.now(),
        }
        players = await self._player_rows(_IN_NIGHT, params)
        return PeriodResults(
            period="night",
            label=label,
            players=_players(players, settled),
            hands=await self._hand_count(_IN_NIGHT, params),
            biggest_pot=await self._biggest_pot(_IN_NIGHT, params),
            value=value,
            settlement=recorded,
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
        return PeriodResults(
            period="season",
            label=f"season {season.number}",
            players=_players(players, settled),
            hands=await self._hand_count(_IN_SEASON, params),
            biggest_pot=await self._biggest_pot(_IN_SEASON, params),
            value=chip_value_of(await self.find_league(guild_id)),
        )

    async def settle_season(self, guild_id: int, *, actor_id: int) -> PeriodResults:
        """Record the settle-up of what is still owed in the current season. Refused while
        a night is on (its end settles it), while chips are in play, or when nothing is
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
            await self._record(guild_id, results, night=None, actor_id=actor_id)
        except BaseException:
            await self._undo()
            raise
        await self._exec(_RELEASE)
        return await self.season_results(guild_id)

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

    # ------------------------------------------------------------------ recording

    async def _record(
        self,
        guild_id: int,
        results: PeriodResults,
        *,
        night: Night | None,
        actor_id: int,
    ) -> None:
        if night is not None:
            taken = await self._one("SELECT id FROM settlements WHERE night_id = ?", (night.id,))
            if taken is not None:
                raise NightError(f"Night #{night.number} is already settled.")
        transfers = fewest_transfers(results.owed())
        season = await self.current_season(guild_id)
        value = results.value
        settlement_id = await self._insert(
            "INSERT INTO settlements (guild_id, season_id, period, night_id, actor_id,"
            " chip_value, currency, transfers, results, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                guild_id,
                season.id,
                results.period,
                None if night is None else night.id,
                actor_id,
                None if value is None else f"{value.per_chip:f}",
                None if value is None else value.currency,
                dump_json(
                    [{"payer": t.payer, "payee": t.payee, "chips": t.chips} for t in transfers]
                ),
                None if night is None else dump_json(_snapshot(results)),
                self.now(),
            ),
        )
        for t in transfers:
            payer = await self.find_wallet(guild_id, t.payer, season=season)
            payee = await self.find_wallet(guild_id, t.payee, season=season)
            if payer is None or payee is None:
                raise NightError(
                    f"A player of {results.label} has no wallet this season; nothing was settled."
                )
            money = "" if value is None else f" ({value.format(value.rounded(t.chips))})"
            try:
                await self.transfer(
                    payee.id,
                    payer.id,
                    t.chips,
                    "settle",
                    actor_id=actor_id,
                    reason=f"settle-up #{settlement_id}, {results.label}: "
                    f"<@{t.payer}> paid <@{t.payee}>{money}",
                )
            except Overdraft as exc:
                # chips taken from the winner since (an admin's /chips take): the settle-up
                # would need chips they no longer hold
                raise NightError(
                    f"<@{t.payee}> holds {exc.have:,} chips but the settle-up of "
                    f"{results.label} returns {t.chips:,} from them to <@{t.payer}>. "
                    "Nothing was changed."
                ) from None


def _snapshot(results: PeriodResults) -> dict[str, object]:
    pot = results.biggest_pot
    return {
        "players": [[p.user_id, p.net, p.hands] for p in results.players],
        "hands": results.hands,
        "pot": None
        if pot is None
        else [pot.hand_id, pot.table_id, pot.number, pot.chips, list(pot.winners)],
    }


def _players(
    rows: Sequence[Mapping[str, int]] | Sequence[sqlite3.Row], settled: Mapping[int, int]
) -> tuple[PlayerResult, ...]:
    found = {r["user_id"]: PlayerResult(r["user_id"], r["net"], r["hands"]) for r in rows}
    for uid, chips in settled.items():
        base = found.get(uid, PlayerResult(uid, 0, 0))
        found[uid] = PlayerResult(uid, base.net, base.hands, settled=chips)
    return tuple(sorted(found.values(), key=lambda p: (-p.net, p.user_id)))
