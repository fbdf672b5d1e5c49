"""Read-only queries for the statistics and the exports: a season's finished league hands,
who played each (seat and user), and, for the hands asked for, what the figures and the
hand-history writers read (history text, result, seat order, button, awards, time).

Which season a hand belongs to follows :mod:`bot.store.stats` (its ledger rows, else the
season open when it started). Practice tables are left out, as everywhere in the league.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.store._base import load_json
from bot.store.models import GAMES
from bot.store.tables import TableOps

HAND_SEASON = (
    "COALESCE((SELECT MIN(l.season_id) FROM ledger l WHERE l.hand_id = h.id),"
    " (SELECT s.id FROM seasons s WHERE s.guild_id = t.guild_id AND s.started_at <= h.started_at"
    " ORDER BY s.number DESC LIMIT 1))"
)
_CHUNK = 500
"""Hand ids per ``IN (...)`` query (SQLite allows 32,766 parameters; smaller is kinder to
the other readers)."""


@dataclass(frozen=True, slots=True)
class SeasonHand:
    """A finished league hand of a season and who played it."""

    hand_id: int
    game: str
    users: dict[int, int]
    """user id -> net chips of the hand (``hand_results``)."""


@dataclass(frozen=True, slots=True)
class HandRow:
    """What the figures and the hand-history writers need of one finished hand."""

    hand_id: int
    table_id: int
    number: int
    game: str
    started_at: int
    history: str
    result: dict[str, Any] | None
    users: dict[int, int]
    """seat number -> user id."""
    seats: tuple[int, ...] = ()
    """Seat numbers in the history's player order (p1 first): the ``hand_start`` event's,
    or a Zoot/Wheelers history's ``seats``."""
    dealer: int | None = None
    max_players: int | None = None
    """The table's seats (the ``hand_start`` event's rules)."""
    awards: tuple[tuple[int, int, int, str | None], ...] = field(default=())
    """(pot index, seat, chips, half) of each award event, in order."""
    refunds: tuple[tuple[int, int], ...] = field(default=())
    """(seat, chips) of each uncalled bet returned."""


class StatHandOps(TableOps):
    async def league_ids(self) -> list[int]:
        """Every league (server id) in the database."""
        return [r["guild_id"] for r in await self._all("SELECT guild_id FROM leagues ORDER BY 1")]

    async def season_hands(
        self, guild_id: int, *, season_id: int, game: str | None = None
    ) -> list[SeasonHand]:
        """The season's finished league hands (all games, or ``game``), oldest first."""
        if game is not None and game not in GAMES:
            return []
        rows = await self._all(
            "SELECT h.id, h.game, r.user_id, r.net FROM hands h"
            " JOIN tables t ON t.id = h.table_id JOIN hand_results r ON r.hand_id = h.id"
            " WHERE t.guild_id = :g AND t.practice = 0 AND h.status = 'finished'"
            # a tournament's hands play tournament chips, no league result (bot/store/stats.py)
            " AND t.tournament_id IS NULL"
            " AND h.history IS NOT NULL AND (:game IS NULL OR h.game = :game)"
            " AND " + HAND_SEASON + " = :season ORDER BY h.id",
            {"g": guild_id, "game": game, "season": season_id},
        )
        out: list[SeasonHand] = []
        for r in rows:
            if not out or out[-1].hand_id != r["id"]:
                out.append(SeasonHand(r["id"], r["game"], {}))
            out[-1].users[r["user_id"]] = r["net"]
        return out

    async def hand_rows(self, hand_ids: Sequence[int]) -> list[HandRow]:
        """The :class:`HandRow` of each finished hand in ``hand_ids`` (others are skipped),
        in id order."""
        out: list[HandRow] = []
        ids = sorted(set(hand_ids))
        for start in range(0, len(ids), _CHUNK):
            part = ids[start : start + _CHUNK]
            marks = ",".join("?" * len(part))
            hands = await self._all(
                "SELECT id, table_id, number, game, started_at, history, result FROM hands"
                f" WHERE id IN ({marks}) AND status = 'finished' AND history IS NOT NULL"
                " ORDER BY id",
                part,
            )
            users: dict[int, dict[int, int]] = {}
            for r in await self._all(
                f"SELECT hand_id, user_id, seat_no FROM hand_results WHERE hand_id IN ({marks})",
                part,
            ):
                users.setdefault(r["hand_id"], {})[r["seat_no"]] = r["user_id"]
            events: dict[int, list[tuple[str, dict[str, Any]]]] = {}
            for r in await self._all(
                "SELECT hand_id, kind, event FROM hand_events"
                f" WHERE hand_id IN ({marks}) AND kind IN ('hand_start', 'award', 'refund')"
                " ORDER BY hand_id, seq",
                part,
            ):
                events.setdefault(r["hand_id"], []).append((r["kind"], load_json(r["event"])))
            for h in hands:
                out.append(_hand_row(h, users.get(h["id"], {}), events.get(h["id"], [])))
        return out


def _hand_row(h: Any, users: dict[int, int], events: list[tuple[str, dict[str, Any]]]) -> HandRow:
    seats: tuple[int, ...] = ()
    dealer = None
    max_players = None
    awards: list[tuple[int, int, int, str | None]] = []
    refunds: list[tuple[int, int]] = []
    for kind, event in events:
        data = event.get("data", {})
        if kind == "hand_start":
            seats = tuple(int(s) for s in data.get("seats", ()))
            dealer = data.get("dealer")
            rules = data.get("rules")
            if isinstance(rules, dict) and isinstance(rules.get("max_players"), int):
                max_players = rules["max_players"]
        elif kind == "award":
            awards.append(
                (int(data.get("pot", 0)), int(data["seat"]), int(data["amount"]), data.get("half"))
            )
        elif kind == "refund":
            refunds.append((int(data["seat"]), int(data["amount"])))
    result = load_json(h["result"]) if h["result"] else None
    return HandRow(
        hand_id=h["id"],
        table_id=h["table_id"],
        number=h["number"],
        game=h["game"],
        started_at=h["started_at"],
        history=h["history"],
        result=result if isinstance(result, dict) else None,
        users=users,
        seats=seats,
        dealer=None if dealer is None else int(dealer),
        max_players=max_players,
        awards=tuple(awards),
        refunds=tuple(refunds),
    )
