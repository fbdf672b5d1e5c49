"""Read-only league queries: per-player season summaries (by game), a member's hands, a
wallet's balance over time and the ledger with readable account names (for exports).

Practice tables never touch the league, so their hands are left out everywhere here; a
tournament's hands play tournament chips (bot/store/tournaments.py), so they count in no
chip figure (a member's league result from a tournament is its buy-ins and prizes, which
move their wallet) but are in their ``hands_of`` (``/history``). A
hand belongs to the season its ledger entries were written in (a hand never straddles a
season's end: ending a season is refused while a pot holds chips); a hand without any
ledger entry falls back to the season open when it started.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.store.errors import NotFound, StoreError
from bot.store.models import GAMES, Season
from bot.store.stat_hands import StatHandOps

RECEIVED_KINDS: frozenset[str] = frozenset({"start", "grant", "rebuy"})
"""Chips a wallet receives from the house; a ``take`` (correction) counts negatively."""
PAYMENT_KINDS: frozenset[str] = frozenset({"settle"})
"""Chips a settle-up moved between wallets: the chip side of a payment made in money, never
a result (issue 19 item 4: settling must not erase the season)."""

_HAND_SEASON = (
    "COALESCE((SELECT MIN(l.season_id) FROM ledger l WHERE l.hand_id = h.id),"
    " (SELECT s.id FROM seasons s WHERE s.guild_id = t.guild_id AND s.started_at <= h.started_at"
    " ORDER BY s.number DESC LIMIT 1))"
)


@dataclass(frozen=True, slots=True)
class PlayerSummary:
    """One member's season (or one game of it)."""

    user_id: int
    balance: int
    """Chips held (the archived final balance for an ended season)."""
    received: int
    """Starting chips + grants + rebuys - takes."""
    hands: int
    won: int
    """Hands in which the member took (part of) a pot."""
    hand_net: int
    """Sum of won - paid over the hands counted."""
    biggest_pot: int
    """The most chips the member won in one hand."""
    settled: int = 0
    """Chips the season's settle-ups moved into (+) or out of (-) the wallet: payments made
    in money, left out of the net."""

    @property
    def net(self) -> int:
        """Balance minus chips received, settle-up payments left out: what play (all games)
        brought. A settle-up gives a winner's chips back to the loser who paid them in money;
        the result at the tables stays."""
        return self.balance - self.received - self.settled


@dataclass(frozen=True, slots=True)
class GameTotals:
    game: str
    hands: int
    won: int
    net: int
    biggest_pot: int


@dataclass(frozen=True, slots=True)
class HandSummary:
    """One member's line for one finished hand."""

    hand_id: int
    table_id: int
    number: int
    game: str
    started_at: int
    ended_at: int | None
    seat_no: int
    paid: int
    won: int
    won_pot: bool
    hi_lo: bool = False
    """A split game (Stud Hi-Lo, Omaha Hi-Lo): its history's PHH variant ends in ``/8``."""
    tournament: int | None = None
    """A tournament's hand: the tournament's number in the league (its chips are
    tournament chips)."""
    level: int | None = None
    """A tournament's hand: the level it was dealt at."""

    @property
    def net(self) -> int:
        return self.won - self.paid


@dataclass(frozen=True, slots=True)
class LedgerRow:
    """A ledger entry with its accounts named: ``house``, ``pot:<table>`` or
    ``user:<id>``."""

    id: int
    created_at: int
    from_name: str
    to_name: str
    amount: int
    kind: str
    table_id: int | None
    hand_id: int | None
    actor_id: int | None
    reason: str | None


def _account_name(
    kind: str, user_id: int | None, table_id: int | None, tournament_id: int | None = None
) -> str:
    if kind == "player":
        return f"user:{user_id}"
    if kind == "pot":
        return f"pot:{table_id}"
    if kind == "stack":
        return f"stack:{tournament_id}:{user_id}"
    if kind == "prize_pool":
        return f"pool:{tournament_id}"
    if kind in ("bounties", "chip_bank"):
        return f"{kind}:{tournament_id}"
    return "house"


def _check_game(game: str | None) -> None:
    if game is not None and game not in GAMES:
        raise StoreError(f"unknown game {game!r}: one of {', '.join(sorted(GAMES))}")


class StatsOps(StatHandOps):
    async def season_or_current(self, guild_id: int, number: int | None = None) -> Season:
        """Season ``number`` of the league (NotFound if none), or the open one."""
        if number is None:
            return await self.current_season(guild_id)
        return await self.season(guild_id, number)

    async def player_summaries(
        self,
        guild_id: int,
        *,
        season: Season,
        game: str | None = None,
        user_id: int | None = None,
    ) -> list[PlayerSummary]:
        """The season's results: every member with a wallet in ``season`` (or only
        ``user_id``), unordered; the one query ``/leaderboard`` and ``/stats`` both read.
        With ``game``, hands, wins, net and biggest pot count that game only (balance and
        received stay whole). Settle-up payments are apart (``settled``), never a result."""
        _check_game(game)
        archived = {s.user_id: s.balance for s in season.standings} if season.standings else None
        wallets = await self._all(
            "SELECT a.id, a.user_id, a.balance,"
            " COALESCE((SELECT SUM(CASE WHEN l.kind = 'take' THEN -l.amount ELSE l.amount END)"
            "  FROM ledger l WHERE (l.to_account = a.id AND l.kind IN ('start', 'grant', 'rebuy'))"
            "  OR (l.from_account = a.id AND l.kind = 'take')), 0) AS received,"
            " COALESCE((SELECT SUM(CASE WHEN l.to_account = a.id THEN l.amount ELSE -l.amount END)"
            "  FROM ledger l WHERE (l.to_account = a.id OR l.from_account = a.id)"
            "  AND l.kind = 'settle'), 0) AS settled"
            " FROM accounts a WHERE a.kind = 'player' AND a.season_id = :s"
            " AND (:u IS NULL OR a.user_id = :u) ORDER BY a.user_id",
            {"s": season.id, "u": user_id},
        )
        play = await self._all(
            "SELECT r.user_id, COUNT(*) AS hands, SUM(r.won_pot) AS won, SUM(r.net) AS net,"
            " MAX(r.won) AS biggest"
            " FROM hand_results r JOIN hands h ON h.id = r.hand_id"
            " JOIN tables t ON t.id = h.table_id"
            " WHERE t.guild_id = :g AND t.practice = 0 AND h.status = 'finished'"
            " AND t.tournament_id IS NULL"
            " AND (:game IS NULL OR h.game = :game) AND " + _HAND_SEASON + " = :season"
            " GROUP BY r.user_id",
            {"g": guild_id, "game": game, "season": season.id},
        )
        by_user = {r["user_id"]: r for r in play}
        out: list[PlayerSummary] = []
        for w in wallets:
            uid = w["user_id"]
            p = by_user.get(uid)
            balance = w["balance"] if archived is None else archived.get(uid, 0)
            out.append(
                PlayerSummary(
                    user_id=uid,
                    balance=balance,
                    received=w["received"],
                    hands=0 if p is None else p["hands"],
                    won=0 if p is None else p["won"],
                    hand_net=0 if p is None else p["net"],
                    biggest_pot=0 if p is None else p["biggest"],
                    settled=w["settled"],
                )
            )
        return out

    async def game_totals(self, guild_id: int, user_id: int, *, season: Season) -> list[GameTotals]:
        """The member's totals per game in ``season`` (games never played are left out)."""
        rows = await self._all(
            "SELECT h.game, COUNT(*) AS hands, SUM(r.won_pot) AS won, SUM(r.net) AS net,"
            " MAX(r.won) AS biggest"
            " FROM hand_results r JOIN hands h ON h.id = r.hand_id"
            " JOIN tables t ON t.id = h.table_id"
            " WHERE t.guild_id = :g AND t.practice = 0 AND h.status = 'finished'"
            " AND t.tournament_id IS NULL"
            " AND r.user_id = :u AND " + _HAND_SEASON + " = :season"
            " GROUP BY h.game ORDER BY h.game",
            {"g": guild_id, "u": user_id, "season": season.id},
        )
        return [
            GameTotals(
                game=r["game"],
                hands=r["hands"],
                won=r["won"],
                net=r["net"],
                biggest_pot=r["biggest"],
            )
            for r in rows
        ]

    async def hands_of(
        self, guild_id: int, user_id: int, *, limit: int = 10, season: Season | None = None
    ) -> list[HandSummary]:
        """The member's most recent finished league hands, newest first."""
        rows = await self._all(
            "SELECT h.id, h.table_id, h.number, h.game, h.started_at, h.ended_at,"
            " r.seat_no, r.paid, r.won, r.won_pot,"
            # the game key is the same for both splits; the PHH variant line says which
            " coalesce(instr(h.history, '/8''' || char(10)) > 0, 0) AS hi_lo,"
            " json_extract(h.result, '$.tournament.number') AS t_number,"
            " json_extract(h.result, '$.tournament.level') AS t_level"
            " FROM hand_results r JOIN hands h ON h.id = r.hand_id"
            " JOIN tables t ON t.id = h.table_id"
            " WHERE t.guild_id = :g AND t.practice = 0 AND h.status = 'finished'"
            " AND r.user_id = :u"
            + ("" if season is None else " AND " + _HAND_SEASON + " = :season")
            + " ORDER BY h.id DESC LIMIT :limit",
            {"g": guild_id, "u": user_id, "limit": limit, "season": season and season.id},
        )
        return [
            HandSummary(
                hand_id=r["id"],
                table_id=r["table_id"],
                number=r["number"],
                game=r["game"],
                started_at=r["started_at"],
                ended_at=r["ended_at"],
                seat_no=r["seat_no"],
                paid=r["paid"],
                won=r["won"],
                won_pot=bool(r["won_pot"]),
                hi_lo=bool(r["hi_lo"]),
                tournament=r["t_number"],
                level=r["t_level"],
            )
            for r in rows
        ]

    async def hand_guild(self, hand_id: int) -> tuple[int, bool]:
        """The league (guild id) a hand was played in, and whether its table is practice."""
        row = await self._one(
            "SELECT t.guild_id, t.practice FROM hands h JOIN tables t ON t.id = h.table_id"
            " WHERE h.id = ?",
            (hand_id,),
        )
        if row is None:
            raise NotFound(f"no hand {hand_id}")
        return row["guild_id"], bool(row["practice"])

    async def balance_points(
        self, account_id: int, *, payments: bool = True
    ) -> list[tuple[int, int]]:
        """``(unix time, balance after)`` for every ledger entry of the account, in order.
        ``payments=False``: the balance as played, the settle-up payments left out (what
        the ``/stats`` chart draws: a settle-up pays money, it does not undo the play)."""
        entries = await self.entries(account_id=account_id)
        points: list[tuple[int, int]] = []
        balance = 0
        for e in entries:
            if not payments and e.kind in PAYMENT_KINDS:
                continue
            balance += e.amount if e.to_account == account_id else -e.amount
            points.append((e.created_at, balance))
        return points

    async def ledger_rows(
        self, guild_id: int, *, season: Season, user_id: int | None = None
    ) -> list[LedgerRow]:
        """The season's ledger (or one member's part of it), oldest first, accounts named."""
        rows = await self._all(
            "SELECT l.*, f.kind AS f_kind, f.user_id AS f_user, f.table_id AS f_table,"
            " f.tournament_id AS f_tournament,"
            " t.kind AS t_kind, t.user_id AS t_user, t.table_id AS t_table,"
            " t.tournament_id AS t_tournament"
            " FROM ledger l JOIN accounts f ON f.id = l.from_account"
            " JOIN accounts t ON t.id = l.to_account"
            " WHERE l.guild_id = :g AND l.season_id = :s"
            " AND (:u IS NULL OR (f.kind = 'player' AND f.user_id = :u)"
            "  OR (t.kind = 'player' AND t.user_id = :u))"
            " ORDER BY l.id",
            {"g": guild_id, "s": season.id, "u": user_id},
        )
        return [
            LedgerRow(
                id=r["id"],
                created_at=r["created_at"],
                from_name=_account_name(r["f_kind"], r["f_user"], r["f_table"], r["f_tournament"]),
                to_name=_account_name(r["t_kind"], r["t_user"], r["t_table"], r["t_tournament"]),
                amount=r["amount"],
                kind=r["kind"],
                table_id=r["table_id"],
                hand_id=r["hand_id"],
                actor_id=r["actor_id"],
                reason=r["reason"],
            )
            for r in rows
        ]
