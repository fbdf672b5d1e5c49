"""Tournaments in the store (issue 20): the row the director's state lives in, its tables,
its results, the league's points settings, and the ledger movements of both chips.

League chips move by the ledger between a member's wallet and the tournament's two funds
(``prize_pool``, ``bounties``), in the ledger's words (:data:`MOVEMENT_KINDS`); tournament
chips move between the tournament's ``chip_bank`` (their issuer) and each player's
``stack``, which its tables play as a cash table plays a wallet (bot/store/actions.py).
Every write here runs in the caller's transaction: the tournament service makes one
transaction per director step, its new state and its movements together.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.store._base import UNSET, dump_json, load_json
from bot.store.errors import NotFound, StoreError
from bot.store.ledger import LedgerOps, account_from_row
from bot.store.models import Account, LedgerEntry

MOVEMENT_KINDS: dict[str, str] = {
    "buy-in": "tournament_buy_in",
    "bounty-in": "tournament_bounty",
    "rebuy": "tournament_rebuy",
    "add-on": "tournament_add_on",
    "prize": "prize",
    "bounty": "bounty",
    "refund": "tournament_refund",
}
"""The director's movement kinds (bot/tournament/movements.py) -> the ledger's kinds."""
PAID_IN = frozenset({"buy-in", "bounty-in", "rebuy", "add-on"})
FUNDS: dict[str, str] = {"prize pool": "prize_pool", "bounties": "bounties"}
"""The director's funds -> their account kinds."""
LIVE = ("registering", "running")
STATUSES = ("registering", "running", "finished", "cancelled")
FORMULAS = ("pokerstars", "fixed", "prize")


class StaleTournament(StoreError):
    """The tournament changed since it was read (its version moved on): read it again."""


@dataclass(frozen=True, slots=True)
class TournamentRow:
    id: int
    guild_id: int
    season_id: int
    number: int
    channel_id: int
    host_id: int
    game: str
    status: str
    state: Mapping[str, Any]
    """The director's :class:`~bot.tournament.state.Tournament` (bot/tournament/snapshot.py)."""
    extra: Mapping[str, Any]
    version: int
    deadline: int | None
    lobby_channel_id: int | None
    lobby_message_id: int | None
    created_at: int
    updated_at: int
    finished_at: int | None


@dataclass(frozen=True, slots=True)
class TournamentTable:
    tournament_id: int
    number: int
    table_id: int
    channel_id: int
    status: str


@dataclass(frozen=True, slots=True)
class ResultRow:
    tournament_id: int
    entry: int
    user_id: int
    place: int
    shared: int
    prize: int
    bounties: int
    points: int | None


@dataclass(frozen=True, slots=True)
class PointsSettings:
    """The league's points (``/league setup points: points_table: points_best_of:``)."""

    formula: str = "pokerstars"
    fixed: tuple[int, ...] = (10, 7, 5, 4, 3, 2, 1)
    best_of: int | None = None


def _row(row: sqlite3.Row) -> TournamentRow:
    return TournamentRow(
        id=row["id"],
        guild_id=row["guild_id"],
        season_id=row["season_id"],
        number=row["number"],
        channel_id=row["channel_id"],
        host_id=row["host_id"],
        game=row["game"],
        status=row["status"],
        state=load_json(row["state"]),
        extra=load_json(row["extra"]),
        version=row["version"],
        deadline=row["deadline"],
        lobby_channel_id=row["lobby_channel_id"],
        lobby_message_id=row["lobby_message_id"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        finished_at=row["finished_at"],
    )


class TournamentOps(LedgerOps):
    # ---- the tournament row ---------------------------------------------------------------

    async def create_tournament(
        self,
        guild_id: int,
        *,
        channel_id: int,
        host_id: int,
        game: str,
        state: Mapping[str, Any],
        extra: Mapping[str, Any] | None = None,
        deadline: int | None = None,
    ) -> TournamentRow:
        """A new tournament (status ``registering``) numbered next in its league, with its
        prize pool, bounties and chip bank. The league is created on the way."""
        await self.league(guild_id)
        season = await self.current_season(guild_id)
        now = self.now()
        row = await self._one(
            "SELECT COALESCE(MAX(number), 0) + 1 AS n FROM tournaments WHERE guild_id = ?",
            (guild_id,),
        )
        assert row is not None
        tid = await self._insert(
            "INSERT INTO tournaments (guild_id, season_id, number, channel_id, host_id, game,"
            " status, state, extra, deadline, created_at, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?, 'registering', ?, ?, ?, ?, ?)",
            (
                guild_id,
                season.id,
                row["n"],
                channel_id,
                host_id,
                game,
                dump_json(dict(state)),
                dump_json(dict(extra or {})),
                deadline,
                now,
                now,
            ),
        )
        for kind in ("prize_pool", "bounties", "chip_bank"):
            await self._insert(
                "INSERT INTO accounts (guild_id, kind, season_id, tournament_id, created_at)"
                " VALUES (?, ?, ?, ?, ?)",
                (guild_id, kind, season.id, tid, now),
            )
        return await self.tournament(tid)

    async def tournament(self, tournament_id: int) -> TournamentRow:
        row = await self._one("SELECT * FROM tournaments WHERE id = ?", (tournament_id,))
        if row is None:
            raise NotFound(f"no tournament {tournament_id}")
        return _row(row)

    async def tournament_by_number(self, guild_id: int, number: int) -> TournamentRow | None:
        row = await self._one(
            "SELECT * FROM tournaments WHERE guild_id = ? AND number = ?", (guild_id, number)
        )
        return None if row is None else _row(row)

    async def live_tournaments(self, *, guild_id: int | None = None) -> list[TournamentRow]:
        """Every tournament registering or running (restored at start), oldest first."""
        sql = "SELECT * FROM tournaments WHERE status IN ('registering', 'running')"
        params: tuple[int, ...] = ()
        if guild_id is not None:
            sql += " AND guild_id = ?"
            params = (guild_id,)
        return [_row(r) for r in await self._all(sql + " ORDER BY id", params)]

    async def past_tournaments(self, guild_id: int, *, limit: int = 10) -> list[TournamentRow]:
        """The league's finished (and cancelled) tournaments, newest first."""
        rows = await self._all(
            "SELECT * FROM tournaments WHERE guild_id = ? AND status IN ('finished', 'cancelled')"
            " ORDER BY id DESC LIMIT ?",
            (guild_id, limit),
        )
        return [_row(r) for r in rows]

    async def save_tournament(
        self,
        tournament_id: int,
        *,
        expected_version: int,
        state: Mapping[str, Any],
        status: str,
        deadline: int | None,
        extra: Mapping[str, Any] = UNSET,
    ) -> int:
        """Store the director's new state (and its next look, ``deadline``) only if the
        tournament is still at ``expected_version`` (:class:`StaleTournament` otherwise,
        nothing changed); returns the new version."""
        if status not in STATUSES:
            raise StoreError(f"unknown tournament status {status!r}")
        sets = "state = :state, status = :status, deadline = :deadline, updated_at = :now"
        params: dict[str, Any] = {
            "state": dump_json(dict(state)),
            "status": status,
            "deadline": deadline,
            "now": self.now(),
            "id": tournament_id,
            "expected": expected_version,
        }
        if status in ("finished", "cancelled"):
            sets += ", finished_at = COALESCE(finished_at, :now)"
        if extra is not UNSET:
            sets += ", extra = :extra"
            params["extra"] = dump_json(dict(extra))
        got = await self._all(
            f"UPDATE tournaments SET {sets}, version = version + 1"
            " WHERE id = :id AND version = :expected RETURNING version",
            params,
        )
        if len(got) != 1:
            current = await self.tournament(tournament_id)
            raise StaleTournament(
                f"tournament {tournament_id} is at version {current.version}, not "
                f"{expected_version}: it changed meanwhile"
            )
        version: int = got[0]["version"]
        return version

    async def set_lobby(self, tournament_id: int, channel_id: int, message_id: int) -> None:
        await self._exec(
            "UPDATE tournaments SET lobby_channel_id = ?, lobby_message_id = ? WHERE id = ?",
            (channel_id, message_id, tournament_id),
        )

    # ---- its tables -----------------------------------------------------------------------

    async def add_tournament_table(self, tournament_id: int, number: int, table_id: int) -> None:
        await self._insert(
            "INSERT INTO tournament_tables (tournament_id, number, table_id) VALUES (?, ?, ?)",
            (tournament_id, number, table_id),
        )

    async def tournament_tables(
        self, tournament_id: int, *, live: bool = False
    ) -> list[TournamentTable]:
        """The tournament's tables by number (``live``: only those not closed)."""
        rows = await self._all(
            "SELECT tt.tournament_id, tt.number, tt.table_id, t.channel_id, t.status"
            " FROM tournament_tables tt JOIN tables t ON t.id = tt.table_id"
            " WHERE tt.tournament_id = ?"
            + (" AND t.status <> 'closed'" if live else "")
            + " ORDER BY tt.number",
            (tournament_id,),
        )
        return [TournamentTable(*(r[k] for k in range(5))) for r in rows]

    async def tournament_of_table(self, table_id: int) -> int | None:
        row = await self._one("SELECT tournament_id FROM tables WHERE id = ?", (table_id,))
        return None if row is None else row["tournament_id"]

    # ---- league chips ---------------------------------------------------------------------

    async def tournament_account(self, tournament_id: int, kind: str) -> Account:
        row = await self._one(
            "SELECT * FROM accounts WHERE tournament_id = ? AND kind = ?", (tournament_id, kind)
        )
        if row is None:
            raise NotFound(f"tournament {tournament_id} has no {kind} account")
        return account_from_row(row)

    async def book_movement(
        self,
        tournament_id: int,
        *,
        kind: str,
        user_id: int,
        amount: int,
        fund: str,
        reason: str | None = None,
    ) -> LedgerEntry:
        """One league-chip movement of the director (:class:`bot.tournament.Movement`'s
        ``kind``, ``fund``): from the member's wallet into the fund, or out of it to the
        wallet. A wallet short of a buy-in refuses with :class:`Overdraft` (nothing
        changed: the caller's transaction is rolled back with it)."""
        if kind not in MOVEMENT_KINDS or fund not in FUNDS:
            raise StoreError(f"unknown tournament movement {kind!r} ({fund!r})")
        t = await self.tournament(tournament_id)
        wallet = await self.wallet(t.guild_id, user_id)
        account = await self.tournament_account(tournament_id, FUNDS[fund])
        payer, payee = (wallet, account) if kind in PAID_IN else (account, wallet)
        return await self.transfer(
            payer.id,
            payee.id,
            amount,
            MOVEMENT_KINDS[kind],
            actor_id=user_id,
            reason=reason or f"tournament #{t.number}",
        )

    # ---- tournament chips -----------------------------------------------------------------

    async def stack(self, tournament_id: int, user_id: int) -> Account:
        """The player's stack of tournament chips (made, empty, the first time)."""
        row = await self._one(
            "SELECT * FROM accounts WHERE kind = 'stack' AND tournament_id = ? AND user_id = ?",
            (tournament_id, user_id),
        )
        if row is not None:
            return account_from_row(row)
        t = await self.tournament(tournament_id)
        account_id = await self._insert(
            "INSERT INTO accounts (guild_id, kind, season_id, user_id, tournament_id,"
            " created_at) VALUES (?, 'stack', ?, ?, ?, ?)",
            (t.guild_id, t.season_id, user_id, tournament_id, self.now()),
        )
        return await self.account(account_id)

    async def stacks(self, tournament_id: int) -> dict[int, int]:
        """User id -> tournament chips in their stack (between hands: all they have)."""
        rows = await self._all(
            "SELECT user_id, balance FROM accounts WHERE kind = 'stack' AND tournament_id = ?",
            (tournament_id,),
        )
        return {r["user_id"]: r["balance"] for r in rows}

    async def issue_chips(
        self, tournament_id: int, user_id: int, amount: int, *, reason: str
    ) -> LedgerEntry:
        """Tournament chips from the tournament's chip bank to the player's stack (a
        starting stack, a rebuy's or an add-on's chips)."""
        bank = await self.tournament_account(tournament_id, "chip_bank")
        stack = await self.stack(tournament_id, user_id)
        return await self.transfer(bank.id, stack.id, amount, "tournament_chips", reason=reason)

    async def return_chips(self, tournament_id: int, *, reason: str) -> list[LedgerEntry]:
        """Every stack's chips back to the bank (the tournament is over or cancelled)."""
        bank = await self.tournament_account(tournament_id, "chip_bank")
        rows = await self._all(
            "SELECT id, balance FROM accounts WHERE kind = 'stack' AND tournament_id = ?"
            " AND balance > 0 ORDER BY id",
            (tournament_id,),
        )
        return [
            await self.transfer(
                r["id"], bank.id, r["balance"], "tournament_chips_back", reason=reason
            )
            for r in rows
        ]

    # ---- results and points ---------------------------------------------------------------

    async def record_results(self, tournament_id: int, rows: Iterable[ResultRow]) -> None:
        await self._exec("DELETE FROM tournament_results WHERE tournament_id = ?", (tournament_id,))
        for r in rows:
            await self._insert(
                "INSERT INTO tournament_results (tournament_id, entry, user_id, place, shared,"
                " prize, bounties, points) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    tournament_id,
                    r.entry,
                    r.user_id,
                    r.place,
                    r.shared,
                    r.prize,
                    r.bounties,
                    r.points,
                ),
            )

    async def tournament_results(self, tournament_id: int) -> list[ResultRow]:
        rows = await self._all(
            "SELECT * FROM tournament_results WHERE tournament_id = ? ORDER BY place, entry",
            (tournament_id,),
        )
        return [_result_row(r) for r in rows]

    async def season_points(self, guild_id: int, season_id: int) -> list[ResultRow]:
        """Every scored result of the league's finished tournaments in the season."""
        rows = await self._all(
            "SELECT r.* FROM tournament_results r JOIN tournaments t ON t.id = r.tournament_id"
            " WHERE t.guild_id = ? AND t.season_id = ? AND t.status = 'finished'"
            " AND r.points IS NOT NULL ORDER BY t.id, r.place",
            (guild_id, season_id),
        )
        return [_result_row(r) for r in rows]

    async def points_settings(self, guild_id: int) -> PointsSettings:
        row = await self._one("SELECT * FROM league_points WHERE guild_id = ?", (guild_id,))
        if row is None:
            return PointsSettings()
        return PointsSettings(
            formula=row["formula"],
            fixed=tuple(int(x) for x in load_json(row["fixed"])),
            best_of=row["best_of"],
        )

    async def set_points_settings(
        self,
        guild_id: int,
        *,
        formula: str = UNSET,
        fixed: Sequence[int] = UNSET,
        best_of: int | None = UNSET,
    ) -> PointsSettings:
        """Change the given points settings (others unchanged); bad values refuse with a
        :class:`StoreError` and nothing changes."""
        await self.league(guild_id)
        current = await self.points_settings(guild_id)
        new_formula = current.formula if formula is UNSET else formula
        new_fixed = current.fixed if fixed is UNSET else tuple(fixed)
        new_best = current.best_of if best_of is UNSET else best_of
        if new_formula not in FORMULAS:
            raise StoreError(f"points: choose one of {', '.join(FORMULAS)}. Nothing changed.")
        if not new_fixed or any(type(x) is not int or x < 0 for x in new_fixed):
            raise StoreError("points_table: whole numbers of points, 0 or more. Nothing changed.")
        if new_best is not None and (type(new_best) is not int or new_best < 1):
            raise StoreError("points_best_of: at least 1 (0: every result). Nothing changed.")
        await self._exec(
            "INSERT INTO league_points (guild_id, formula, fixed, best_of, updated_at)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET"
            " formula = excluded.formula, fixed = excluded.fixed, best_of = excluded.best_of,"
            " updated_at = excluded.updated_at",
            (guild_id, new_formula, dump_json(list(new_fixed)), new_best, self.now()),
        )
        return await self.points_settings(guild_id)

    async def running_tournament(self, guild_id: int) -> TournamentRow | None:
        """A tournament of the league still registering or running, if any."""
        rows = await self.live_tournaments(guild_id=guild_id)
        return rows[0] if rows else None


def _result_row(r: Any) -> ResultRow:
    """A ``tournament_results`` row as the store answers it."""
    return ResultRow(
        r["tournament_id"],
        r["entry"],
        r["user_id"],
        r["place"],
        r["shared"],
        r["prize"],
        r["bounties"],
        r["points"],
    )
