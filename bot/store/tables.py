"""Tables, seats, hands, hand events and results, and the messages a table keeps.

The TableService is the only writer of these; it calls them inside one transaction per
action, together with the ledger entries of the action (DESIGN.md).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from bot.engine.events import Event
from bot.store._base import UNSET, dump_json, dump_snapshot, load_json
from bot.store.errors import (
    InvalidAmount,
    NotFound,
    SeatedElsewhere,
    SeatTaken,
    StaleVersion,
    StoreError,
    TableExists,
)
from bot.store.ledger import LedgerOps, check_amount
from bot.store.models import (
    GAMES,
    MIXED_GAMES,
    POT_KINDS_BOTH,
    POT_KINDS_IN,
    TABLE_STATUSES,
    Contribution,
    Hand,
    HandResult,
    LedgerEntry,
    Seat,
    Table,
    TableMessage,
)

_TABLE_SELECT = (
    "SELECT t.*, a.id AS pot_account,"
    " EXISTS (SELECT 1 FROM verifiable_tables v WHERE v.table_id = t.id) AS verifiable"
    " FROM tables t JOIN accounts a ON a.table_id = t.id AND a.kind = 'pot'"
)
_HAND_SELECT = "SELECT h.*, s.seed FROM hands h LEFT JOIN hand_seeds s ON s.hand_id = h.id"
"""A hand with its seed (a verifiable table's; 0008 keeps the seeds in their own table)."""


def table_from_row(row: sqlite3.Row) -> Table:
    return Table(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        game=row["game"],
        rules=load_json(row["rules"]),
        status=row["status"],
        host_id=row["host_id"],
        snapshot=load_json(row["snapshot"]),
        version=row["version"],
        deadline=row["deadline"],
        practice=bool(row["practice"]),
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        pot_account=row["pot_account"],
        verifiable=bool(row["verifiable"]),
        tournament_id=row["tournament_id"],
    )


def seat_from_row(row: sqlite3.Row) -> Seat:
    return Seat(
        table_id=row["table_id"],
        seat_no=row["seat_no"],
        user_id=row["user_id"],
        is_computer=bool(row["is_computer"]),
        away=bool(row["away"]),
        dm_channel_id=row["dm_channel_id"],
        dm_message_id=row["dm_message_id"],
        dm_ok=None if row["dm_ok"] is None else bool(row["dm_ok"]),
        joined_at=row["joined_at"],
    )


def hand_from_row(row: sqlite3.Row) -> Hand:
    return Hand(
        id=row["id"],
        table_id=row["table_id"],
        number=row["number"],
        game=row["game"],
        status=row["status"],
        started_at=row["started_at"],
        ended_at=row["ended_at"],
        history=row["history"],
        result=load_json(row["result"]),
        seed=row["seed"],
    )


def _check_status(status: str) -> str:
    if status not in TABLE_STATUSES:
        raise StoreError(f"unknown table status {status!r}")
    return status


# ---- statements run on the connection's thread (one round trip each; see actions.py)


def finish_rows(
    conn: sqlite3.Connection,
    hand_id: int,
    results: Sequence[HandResult],
    history: str | None,
    result_json: str | None,
    now: int,
) -> None:
    cur = conn.execute(
        "UPDATE hands SET status = 'finished', ended_at = ?, history = ?, result = ?"
        " WHERE id = ? AND status = 'running'",
        (now, history, result_json, hand_id),
    )
    if cur.rowcount != 1:
        refuse_hand(conn, hand_id)
    conn.executemany(
        "INSERT INTO hand_results (hand_id, user_id, seat_no, paid, won, net, won_pot, detail)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (
                hand_id,
                r.user_id,
                r.seat_no,
                r.paid,
                r.won,
                r.net,
                int(r.won_pot),
                dump_json(dict(r.detail)),
            )
            for r in results
        ],
    )


def refuse_hand(conn: sqlite3.Connection, hand_id: int) -> None:
    row = conn.execute("SELECT number, status FROM hands WHERE id = ?", (hand_id,)).fetchone()
    if row is None:
        raise NotFound(f"no hand {hand_id}")
    raise StoreError(f"hand {row[0]} is {row[1]}, not running")


def event_rows(conn: sqlite3.Connection, hand_id: int, events: Sequence[Event], now: int) -> int:
    row = conn.execute(
        "SELECT number, status, (SELECT COALESCE(MAX(seq), 0) FROM hand_events"
        " WHERE hand_id = hands.id) FROM hands WHERE id = ?",
        (hand_id,),
    ).fetchone()
    if row is None:
        raise NotFound(f"no hand {hand_id}")
    if row[1] != "running":
        raise StoreError(f"hand {row[0]} is {row[1]}: its log is closed")
    seq: int = row[2]
    rows = []
    for event in events:
        seq += 1
        rows.append((hand_id, seq, event.kind, event.visible_to, dump_json(event.to_json()), now))
    if rows:
        conn.executemany(
            "INSERT INTO hand_events (hand_id, seq, kind, visible_to, event, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            rows,
        )
    return seq


class TableOps(LedgerOps):
    # ---- tables -------------------------------------------------------------------------

    async def create_table(
        self,
        guild_id: int,
        channel_id: int,
        game: str,
        *,
        host_id: int | None = None,
        rules: Mapping[str, Any] | None = None,
        practice: bool = False,
        verifiable: bool = False,
        tournament_id: int | None = None,
    ) -> Table:
        """Open a table (status ``open``, version 0) with its pot account. The league is
        created on the way if this is the guild's first table. One live table per channel:
        a second raises :class:`TableExists`. ``verifiable``: its hands are dealt from seeds
        (:meth:`begin_hand`'s ``seed``). ``tournament_id``: a table of that tournament (it
        plays tournament stacks; several of them may share a channel)."""
        if game not in GAMES | MIXED_GAMES:
            known = ", ".join(sorted(GAMES | MIXED_GAMES))
            raise StoreError(f"unknown game {game!r}; one of {known}")
        if tournament_id is None:
            existing = await self.table_in_channel(channel_id)
            if existing is not None:
                raise TableExists(f"table {existing.id} ({existing.game}) already runs here")
        await self.league(guild_id)
        now = self.now()
        table_id = await self._insert(
            "INSERT INTO tables (guild_id, channel_id, game, rules, host_id, practice,"
            " created_at, updated_at, tournament_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                guild_id,
                channel_id,
                game,
                dump_json(dict(rules or {})),
                host_id,
                int(practice),
                now,
                now,
                tournament_id,
            ),
        )
        if verifiable:
            await self._insert("INSERT INTO verifiable_tables (table_id) VALUES (?)", (table_id,))
        await self._insert(
            "INSERT INTO accounts (guild_id, kind, table_id, created_at) VALUES (?, 'pot', ?, ?)",
            (guild_id, table_id, now),
        )
        return await self.table(table_id)

    async def table(self, table_id: int) -> Table:
        row = await self._one(_TABLE_SELECT + " WHERE t.id = ?", (table_id,))
        if row is None:
            raise NotFound(f"no table {table_id}")
        return table_from_row(row)

    async def table_in_channel(self, channel_id: int) -> Table | None:
        """The live (not closed) table in a channel, if any (a tournament's tables are the
        director's: they are not a channel's table, see bot/store/tournaments.py)."""
        row = await self._one(
            _TABLE_SELECT
            + " WHERE t.channel_id = ? AND t.status <> 'closed' AND t.tournament_id IS NULL",
            (channel_id,),
        )
        return None if row is None else table_from_row(row)

    async def live_tables(self, *, guild_id: int | None = None) -> list[Table]:
        """Every table not closed (to restore after a restart), oldest first."""
        sql = _TABLE_SELECT + " WHERE t.status <> 'closed'"
        params: tuple[int, ...] = ()
        if guild_id is not None:
            sql += " AND t.guild_id = ?"
            params = (guild_id,)
        rows = await self._all(sql + " ORDER BY t.id", params)
        return [table_from_row(r) for r in rows]

    async def save_table(
        self,
        table_id: int,
        *,
        expected_version: int,
        snapshot: Mapping[str, Any] | None,
        deadline: int | None,
        status: str | None = None,
    ) -> Table:
        """Store the engine's snapshot and the next deadline (unix seconds, or None), and
        bump the version, only if the table is still at ``expected_version`` — otherwise
        :class:`StaleVersion` (someone else acted first) and nothing changes."""
        params: dict[str, Any] = {
            "id": table_id,
            "expected": expected_version,
            "snapshot": None if snapshot is None else dump_snapshot(snapshot),
            "deadline": deadline,
            "now": self.now(),
        }
        status_sql = ""
        if status is not None:
            params["status"] = _check_status(status)
            status_sql = ", status = :status"
        changed = await self._exec(
            "UPDATE tables SET snapshot = :snapshot, deadline = :deadline,"
            f" version = version + 1, updated_at = :now{status_sql}"
            " WHERE id = :id AND version = :expected AND status <> 'closed'",
            params,
        )
        if changed != 1:
            await self._refuse_stale(table_id, expected_version)
        return await self.table(table_id)

    async def set_table_rules(self, table_id: int, rules: Mapping[str, Any]) -> None:
        """The table's rules from now on (``/table stakes``, applied as a hand is dealt:
        the hands already stored keep their own in their histories)."""
        await self._exec(
            "UPDATE tables SET rules = ?, updated_at = ? WHERE id = ? AND status <> 'closed'",
            (dump_json(dict(rules)), self.now(), table_id),
        )

    async def _refuse_stale(self, table_id: int, expected_version: int) -> None:
        current = await self.table(table_id)  # NotFound if there is no such table
        if current.status == "closed":
            raise StoreError(f"table {table_id} is closed")
        raise StaleVersion(table_id, expected_version, current.version)

    async def set_table_status(self, table_id: int, status: str, *, expected_version: int) -> Table:
        """Change the status (e.g. pause) with the same optimistic check as a save."""
        changed = await self._exec(
            "UPDATE tables SET status = ?, version = version + 1, updated_at = ?"
            " WHERE id = ? AND version = ? AND status <> 'closed'",
            (_check_status(status), self.now(), table_id, expected_version),
        )
        if changed != 1:
            await self._refuse_stale(table_id, expected_version)
        return await self.table(table_id)

    async def close_table(
        self, table_id: int, *, actor_id: int | None = None, reason: str | None = None
    ) -> list[LedgerEntry]:
        """Close the table: the pot still standing goes back to whoever paid it in, each
        exactly what they contributed (RULES §1.10, ledger kind ``refund``); the running
        hand, if any, is voided. Returns the refunds."""
        table = await self.table(table_id)
        if table.status == "closed":
            raise StoreError(f"table {table_id} is already closed")
        running = await self.running_hand(table_id)
        refunds: list[LedgerEntry] = []
        for c in await self.pot_contributions(table_id):
            refunds.append(
                await self.transfer(
                    table.pot_account,
                    c.account_id,
                    c.amount,
                    "refund",
                    table_id=table_id,
                    hand_id=None if running is None else running.id,
                    actor_id=actor_id,
                    reason=reason or "table closed",
                )
            )
        if running is not None:
            await self._set_hand_status(running.id, "voided", result={"reason": "table closed"})
        await self._exec(
            "UPDATE tables SET status = 'closed', deadline = NULL, version = version + 1,"
            " updated_at = ? WHERE id = ?",
            (self.now(), table_id),
        )
        return refunds

    # ---- chips at a table ---------------------------------------------------------------

    async def pot_contributions(self, table_id: int) -> list[Contribution]:
        """What each account put into the table's pot still standing, derived from the ledger
        since the pot was last empty (RULES §1.10): chips in minus chips paid back out to the
        same account. The amounts add up to the pot exactly, or :class:`StoreError`."""
        table = await self.table(table_id)
        rows = await self._all(
            """
            WITH flows AS (
                SELECT id,
                       CASE WHEN to_account = :pot THEN from_account ELSE to_account END AS other,
                       CASE WHEN to_account = :pot THEN amount ELSE -amount END AS delta
                FROM ledger WHERE to_account = :pot OR from_account = :pot
            ), running AS (
                SELECT id, other, delta, SUM(delta) OVER (ORDER BY id) AS pot FROM flows
            ), standing AS (
                SELECT * FROM running
                WHERE id > (SELECT COALESCE(MAX(id), 0) FROM running WHERE pot = 0)
            )
            SELECT s.other AS account_id, a.user_id AS user_id, SUM(s.delta) AS amount
            FROM standing s JOIN accounts a ON a.id = s.other
            GROUP BY s.other, a.user_id
            HAVING SUM(s.delta) <> 0
            ORDER BY MIN(s.id)
            """,
            {"pot": table.pot_account},
        )
        contributions = [
            Contribution(account_id=r["account_id"], user_id=r["user_id"], amount=r["amount"])
            for r in rows
        ]
        pot = await self.balance(table.pot_account)
        if any(c.amount < 0 for c in contributions) or sum(c.amount for c in contributions) != pot:
            raise StoreError(
                f"the pot of table {table_id} ({pot} chips) cannot be traced to who paid it in"
            )
        return contributions

    async def move_chips(
        self,
        table_id: int,
        user_id: int,
        amount: int,
        kind: str,
        *,
        hand_id: int | None = None,
        actor_id: int | None = None,
    ) -> LedgerEntry:
        """Apply one engine chip move (``ChipMove`` with the seat mapped to its user):
        ``amount`` > 0 the player pays into the pot (ante, bring_in, bet, match);
        < 0 the pot pays the player (award, refund, void). A practice table moves no league
        chips, so this refuses for one."""
        if type(amount) is not int or amount == 0:
            raise InvalidAmount(f"a chip move is a non-zero whole number, not {amount!r}")
        into_pot = amount > 0
        if into_pot != (kind in POT_KINDS_IN) and kind not in POT_KINDS_BOTH:
            direction = "into" if into_pot else "out of"
            raise InvalidAmount(f"a {kind!r} move cannot go {direction} the pot")
        table = await self.table(table_id)
        if table.practice:
            raise StoreError(f"table {table_id} is a practice table: no league chips move")
        wallet = await self.wallet(table.guild_id, user_id)
        payer, payee = (
            (wallet.id, table.pot_account) if into_pot else (table.pot_account, wallet.id)
        )
        return await self.transfer(
            payer,
            payee,
            check_amount(abs(amount)),
            kind,
            table_id=table_id,
            hand_id=hand_id,
            actor_id=actor_id,
        )

    # ---- seats --------------------------------------------------------------------------

    async def sit(
        self,
        table_id: int,
        user_id: int,
        *,
        seat_no: int | None = None,
        is_computer: bool = False,
    ) -> Seat:
        """Seat a user (at ``seat_no``, or the lowest free seat). Raises :class:`SeatTaken`
        if the seat is occupied or the user already sits here, :class:`SeatedElsewhere` if
        they already sit at another live league table of the server. How many seats a game has is
        the TableService's rule, not the store's."""
        table = await self.table(table_id)
        if table.status == "closed":
            raise StoreError(f"table {table_id} is closed")
        seats = await self.seats(table_id)
        if any(s.user_id == user_id for s in seats):
            raise SeatTaken(f"user {user_id} already sits at table {table_id}")
        taken = {s.seat_no for s in seats}
        if seat_no is None:
            seat_no = next(n for n in range(len(taken) + 1) if n not in taken)
        elif type(seat_no) is not int or seat_no < 0:
            raise StoreError(f"not a seat number: {seat_no!r}")
        elif seat_no in taken:
            raise SeatTaken(f"seat {seat_no} is taken")
        try:
            await self._insert(
                "INSERT INTO seats (table_id, seat_no, user_id, is_computer, joined_at)"
                " VALUES (?, ?, ?, ?, ?)",
                (table_id, seat_no, user_id, int(is_computer), self.now()),
            )
        except sqlite3.IntegrityError as exc:
            if "league_seats" not in str(exc):
                raise
            # one live league seat per member and server (migration 0003)
            row = await self._one(
                "SELECT l.table_id, t.channel_id FROM league_seats l"
                " JOIN tables t ON t.id = l.table_id WHERE l.guild_id = ? AND l.user_id = ?",
                (table.guild_id, user_id),
            )
            if row is None:  # pragma: no cover - the constraint named that very row
                raise
            raise SeatedElsewhere(
                user_id, table_id=row["table_id"], channel_id=row["channel_id"]
            ) from None
        return await self.seat(table_id, user_id)

    async def league_table_of(self, guild_id: int, user_id: int) -> int | None:
        """The live league table (not practice) the member sits at in the server, if any."""
        row = await self._one(
            "SELECT table_id FROM league_seats WHERE guild_id = ? AND user_id = ?",
            (guild_id, user_id),
        )
        return None if row is None else int(row["table_id"])

    async def seat(self, table_id: int, user_id: int) -> Seat:
        row = await self._one(
            "SELECT * FROM seats WHERE table_id = ? AND user_id = ?", (table_id, user_id)
        )
        if row is None:
            raise NotFound(f"user {user_id} does not sit at table {table_id}")
        return seat_from_row(row)

    async def seats(self, table_id: int) -> list[Seat]:
        rows = await self._all(
            "SELECT * FROM seats WHERE table_id = ? ORDER BY seat_no", (table_id,)
        )
        return [seat_from_row(r) for r in rows]

    async def leave(self, table_id: int, user_id: int) -> Seat:
        """Free the user's seat; returns the seat they had."""
        seat = await self.seat(table_id, user_id)
        await self._exec(
            "DELETE FROM seats WHERE table_id = ? AND user_id = ?", (table_id, user_id)
        )
        return seat

    async def update_seat(
        self,
        table_id: int,
        user_id: int,
        *,
        away: bool = UNSET,
        dm_channel_id: int | None = UNSET,
        dm_message_id: int | None = UNSET,
        dm_ok: bool | None = UNSET,
    ) -> Seat:
        """Change the given fields of a seat (others unchanged)."""
        await self.seat(table_id, user_id)
        changes: dict[str, Any] = {}
        if away is not UNSET:
            changes["away"] = int(bool(away))
        if dm_channel_id is not UNSET:
            changes["dm_channel_id"] = dm_channel_id
        if dm_message_id is not UNSET:
            changes["dm_message_id"] = dm_message_id
        if dm_ok is not UNSET:
            changes["dm_ok"] = None if dm_ok is None else int(bool(dm_ok))
        if changes:
            sets = ", ".join(f"{name} = :{name}" for name in changes)
            changes.update(table_id=table_id, user_id=user_id)
            await self._exec(
                f"UPDATE seats SET {sets} WHERE table_id = :table_id AND user_id = :user_id",
                changes,
            )
        return await self.seat(table_id, user_id)

    # ---- hands --------------------------------------------------------------------------

    async def start_hand(self, table_id: int) -> Hand:
        """Number the table's next hand (1, 2, ...) and mark it running. One running hand
        per table: finish or void the previous one first."""
        table = await self.table(table_id)
        if table.status == "closed":
            raise StoreError(f"table {table_id} is closed")
        running = await self.running_hand(table_id)
        if running is not None:
            raise StoreError(f"hand {running.number} of table {table_id} is still running")
        row = await self._one(
            "SELECT COALESCE(MAX(number), 0) + 1 AS n FROM hands WHERE table_id = ?", (table_id,)
        )
        assert row is not None
        hand_id = await self._insert(
            "INSERT INTO hands (table_id, number, game, started_at) VALUES (?, ?, ?, ?)",
            (table_id, row["n"], table.game, self.now()),
        )
        return await self.hand(hand_id)

    async def hand_games(self, hand_ids: Iterable[int]) -> dict[int, str]:
        """The game each of these hands was dealt as (a mixed table's hands too), by id:
        what a ledger row of the hand meant (a Zoot "match" is a matched pot, a Hold'em
        one a call). Unknown ids are left out."""
        ids = sorted({int(h) for h in hand_ids})
        out: dict[int, str] = {}
        for start in range(0, len(ids), 500):  # well under SQLite's variable limit
            chunk = ids[start : start + 500]
            marks = ", ".join("?" * len(chunk))
            rows = await self._all(f"SELECT id, game FROM hands WHERE id IN ({marks})", chunk)
            out.update({int(r["id"]): str(r["game"]) for r in rows})
        return out

    async def hand(self, hand_id: int) -> Hand:
        row = await self._one(_HAND_SELECT + " WHERE h.id = ?", (hand_id,))
        if row is None:
            raise NotFound(f"no hand {hand_id}")
        return hand_from_row(row)

    async def running_hand(self, table_id: int) -> Hand | None:
        row = await self._one(
            _HAND_SELECT + " WHERE h.table_id = ? AND h.status = 'running'", (table_id,)
        )
        return None if row is None else hand_from_row(row)

    async def hands(self, table_id: int) -> list[Hand]:
        rows = await self._all(
            _HAND_SELECT + " WHERE h.table_id = ? ORDER BY h.number", (table_id,)
        )
        return [hand_from_row(r) for r in rows]

    async def add_events(self, hand_id: int, events: Sequence[Event]) -> int:
        """Append the engine's events to the hand log, in order; returns the last sequence
        number (events are numbered from 1). One round trip."""
        now = self.now()
        return await self._in_thread(lambda conn: event_rows(conn, hand_id, events, now))

    async def hand_events(self, hand_id: int, *, after: int = 0) -> list[Event]:
        """The hand log (events after sequence number ``after``), in order. Filter with
        ``Event.visible_for(seat)`` before showing it to anyone."""
        rows = await self._all(
            "SELECT event FROM hand_events WHERE hand_id = ? AND seq > ? ORDER BY seq",
            (hand_id, after),
        )
        return [Event.from_json(json.loads(r["event"])) for r in rows]

    async def finish_hand(
        self,
        hand_id: int,
        *,
        results: Sequence[HandResult],
        history: str | None = None,
        result: Mapping[str, Any] | None = None,
    ) -> Hand:
        """Mark the hand finished with each player's result, its text history (e.g. PHH)
        and a JSON summary."""
        for r in results:
            if r.paid < 0 or r.won < 0:
                raise InvalidAmount(f"user {r.user_id}: paid and won cannot be negative")
        result_json = None if result is None else dump_json(dict(result))
        now = self.now()
        await self._in_thread(
            lambda conn: finish_rows(conn, hand_id, results, history, result_json, now)
        )
        return await self.hand(hand_id)

    async def void_hand(
        self, hand_id: int, *, reason: str, actor_id: int | None = None
    ) -> list[LedgerEntry]:
        """Void a running hand: every chip it moved into or out of the pot goes back
        (ledger kind ``void``), so each player ends as before the hand. Returns those
        entries."""
        hand = await self.hand(hand_id)
        if hand.status != "running":
            raise StoreError(f"hand {hand.number} is {hand.status}, not running")
        table = await self.table(hand.table_id)
        rows = await self._all(
            "SELECT CASE WHEN to_account = :pot THEN from_account ELSE to_account END AS other,"
            " SUM(CASE WHEN to_account = :pot THEN amount ELSE -amount END) AS net"
            " FROM ledger WHERE hand_id = :hand AND (to_account = :pot OR from_account = :pot)"
            " GROUP BY other HAVING net <> 0 ORDER BY MIN(id)",
            {"pot": table.pot_account, "hand": hand_id},
        )
        entries: list[LedgerEntry] = []
        # pay back before taking back, so the pot never needs chips it has not got yet
        for r in sorted(rows, key=lambda r: r["net"] < 0):
            payer, payee = (
                (table.pot_account, r["other"]) if r["net"] > 0 else (r["other"], table.pot_account)
            )
            entries.append(
                await self.transfer(
                    payer,
                    payee,
                    abs(r["net"]),
                    "void",
                    table_id=table.id,
                    hand_id=hand_id,
                    actor_id=actor_id,
                    reason=reason,
                )
            )
        await self._set_hand_status(hand_id, "voided", result={"reason": reason})
        return entries

    async def _set_hand_status(
        self,
        hand_id: int,
        status: str,
        *,
        history: str | None = None,
        result: Mapping[str, Any] | None = None,
    ) -> None:
        changed = await self._exec(
            "UPDATE hands SET status = ?, ended_at = ?, history = ?, result = ?"
            " WHERE id = ? AND status = 'running'",
            (
                status,
                self.now(),
                history,
                None if result is None else dump_json(dict(result)),
                hand_id,
            ),
        )
        if changed != 1:
            hand = await self.hand(hand_id)
            raise StoreError(f"hand {hand.number} is {hand.status}, not running")

    async def hand_results(self, hand_id: int) -> list[HandResult]:
        rows = await self._all(
            "SELECT * FROM hand_results WHERE hand_id = ? ORDER BY seat_no", (hand_id,)
        )
        return [
            HandResult(
                user_id=r["user_id"],
                seat_no=r["seat_no"],
                paid=r["paid"],
                won=r["won"],
                won_pot=bool(r["won_pot"]),
                detail=load_json(r["detail"]),
            )
            for r in rows
        ]

    # ---- messages -----------------------------------------------------------------------

    async def set_message(
        self, table_id: int, kind: str, *, channel_id: int, message_id: int
    ) -> TableMessage:
        """Remember a message the bot edits in place (``kind``: e.g. ``table``)."""
        await self.table(table_id)
        await self._exec(
            "INSERT INTO table_messages (table_id, kind, channel_id, message_id, updated_at)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT (table_id, kind) DO UPDATE SET"
            " channel_id = excluded.channel_id, message_id = excluded.message_id,"
            " updated_at = excluded.updated_at",
            (table_id, kind, channel_id, message_id, self.now()),
        )
        return (await self.messages(table_id))[kind]

    async def messages(self, table_id: int) -> dict[str, TableMessage]:
        rows = await self._all(
            "SELECT * FROM table_messages WHERE table_id = ? ORDER BY kind", (table_id,)
        )
        return {
            r["kind"]: TableMessage(
                table_id=r["table_id"],
                kind=r["kind"],
                channel_id=r["channel_id"],
                message_id=r["message_id"],
                updated_at=r["updated_at"],
            )
            for r in rows
        }

    async def delete_message(self, table_id: int, kind: str) -> None:
        await self._exec(
            "DELETE FROM table_messages WHERE table_id = ? AND kind = ?", (table_id, kind)
        )
