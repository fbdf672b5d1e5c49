"""The write path of one table action, in as few round trips to SQLite as possible.

aiosqlite runs every statement on its worker thread and hands the result back to the event
loop: each ``await`` is a thread hop plus a loop wake-up (~0.1 ms), far more than SQLite
itself needs for a small indexed write. So one action's writes (guarded balance updates,
ledger rows, hand events, the hand's end, the table snapshot) run as ONE function on that
thread (:meth:`ActionOps.record_action`), inside a savepoint, so a refusal writes nothing.
With the transaction's ``BEGIN IMMEDIATE`` and ``COMMIT`` an action costs three hops, as
many as a bare ``BEGIN; INSERT; COMMIT``.

The ids an action needs (league, season, the table's pot account, each seated player's
wallet) never change while a season lasts: :meth:`ActionOps.table_accounts` reads them once
and the caller keeps them; every ``record_action`` re-checks, on the thread, that the season
is still the current one (:class:`StaleSeason` otherwise, and nothing is written).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.engine.events import Event
from bot.store._base import UNSET, dump_json, dump_snapshot
from bot.store.errors import (
    InvalidAmount,
    NotFound,
    Overdraft,
    SeasonError,
    StaleVersion,
    StoreError,
)
from bot.store.ledger import account_from_row
from bot.store.models import (
    LEDGER_KINDS,
    POT_KINDS_BOTH,
    POT_KINDS_IN,
    TABLE_STATUSES,
    Hand,
    HandResult,
)
from bot.store.tables import TableOps, event_rows, finish_rows

_SAVEPOINT = "record_action"


class StaleSeason(SeasonError):
    """The season the caller's cached wallet ids belong to has ended: read the accounts
    again with :meth:`ActionOps.table_accounts` (nothing was written)."""


@dataclass(frozen=True, slots=True)
class TableAccounts:
    """The accounts chips move between at a table, valid while the season lasts."""

    table_id: int
    guild_id: int
    season_id: int
    pot_account: int
    practice: bool
    wallets: Mapping[int, int]
    """User id -> wallet account id (this season)."""
    balances: Mapping[int, int]
    """User id -> wallet balance when read."""

    def with_wallet(self, user_id: int, account_id: int, balance: int) -> TableAccounts:
        return TableAccounts(
            self.table_id,
            self.guild_id,
            self.season_id,
            self.pot_account,
            self.practice,
            {**self.wallets, user_id: account_id},
            {**self.balances, user_id: balance},
        )

    def without(self, user_id: int) -> TableAccounts:
        wallets = dict(self.wallets)
        balances = dict(self.balances)
        wallets.pop(user_id, None)
        balances.pop(user_id, None)
        return TableAccounts(
            self.table_id,
            self.guild_id,
            self.season_id,
            self.pot_account,
            self.practice,
            wallets,
            balances,
        )


@dataclass(frozen=True, slots=True)
class HandFinish:
    """A hand's end, as :meth:`TableOps.finish_hand` takes it."""

    results: Sequence[HandResult]
    history: str | None = None
    result: Mapping[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class ActionRecord:
    """What :meth:`ActionOps.record_action` wrote (nothing was re-read)."""

    version: int | None
    """The table's new version (None: the table row was not saved)."""
    last_seq: int | None
    """The hand log's last sequence number (None: no events were given)."""
    balances: Mapping[int, int]
    """User id -> wallet balance after the writes, for every user moved or asked about."""
    pot: int | None
    """The pot's balance after the writes (None: no chip moved)."""


# ---- statements run on the connection's thread ----------------------------------------


def _check_results(results: Iterable[HandResult]) -> None:
    for r in results:
        if r.paid < 0 or r.won < 0:
            raise InvalidAmount(f"user {r.user_id}: paid and won cannot be negative")


def _check_move(user_id: int, amount: object, kind: str) -> int:
    if type(amount) is not int or amount == 0:
        raise InvalidAmount(f"a chip move is a non-zero whole number, not {amount!r}")
    if kind not in LEDGER_KINDS:
        raise InvalidAmount(f"unknown ledger kind {kind!r}")
    into_pot = amount > 0
    if into_pot != (kind in POT_KINDS_IN) and kind not in POT_KINDS_BOTH:
        direction = "into" if into_pot else "out of"
        raise InvalidAmount(f"a {kind!r} move cannot go {direction} the pot")
    return amount


class ActionOps(TableOps):
    async def table_accounts(self, table_id: int, user_ids: Collection[int]) -> TableAccounts:
        """The table's guild, the current season, its pot account and the wallets (with
        balances) of ``user_ids`` this season, in one round trip. A member without a
        wallet this season gets one now (with the starting chips, as :meth:`wallet`).
        A practice table has no wallets."""
        users = sorted(set(user_ids))

        def read(
            conn: sqlite3.Connection,
        ) -> tuple[int, bool, int, int, int | None, list[sqlite3.Row]]:
            row = conn.execute(
                "SELECT t.guild_id, t.practice, a.id,"
                " (SELECT id FROM seasons s WHERE s.guild_id = t.guild_id AND ended_at IS NULL),"
                " t.tournament_id"
                " FROM tables t JOIN accounts a ON a.table_id = t.id AND a.kind = 'pot'"
                " WHERE t.id = ?",
                (table_id,),
            ).fetchone()
            if row is None:
                raise NotFound(f"no table {table_id}")
            guild_id, practice, pot, season_id = row[0], bool(row[1]), row[2], row[3]
            tournament = row[4]
            wallets: list[sqlite3.Row] = []
            if users and not practice:
                marks = ",".join("?" * len(users))
                # a tournament's table plays each player's tournament stack (tournament
                # chips), never their wallet: the same moves, between other accounts
                wallets = conn.execute(
                    "SELECT id, user_id, balance FROM accounts WHERE kind = 'player'"
                    f" AND season_id = ? AND user_id IN ({marks})"
                    if tournament is None
                    else "SELECT id, user_id, balance FROM accounts WHERE kind = 'stack'"
                    f" AND tournament_id = ? AND user_id IN ({marks})",
                    (season_id if tournament is None else tournament, *users),
                ).fetchall()
            return guild_id, practice, pot, season_id, tournament, wallets

        guild_id, practice, pot, season_id, tournament, rows = await self._in_thread(read)
        wallets = {r[1]: r[0] for r in rows}
        balances = {r[1]: r[2] for r in rows}
        if tournament is not None:
            missing = [uid for uid in users if uid not in wallets]
            if missing:
                raise StoreError(
                    f"user {missing[0]} has no stack in tournament {tournament} (table {table_id})"
                )
        elif not practice:
            for uid in users:
                if uid not in wallets:
                    created = await self.wallet(guild_id, uid)
                    wallets[uid] = created.id
                    balances[uid] = created.balance
        return TableAccounts(table_id, guild_id, season_id, pot, practice, wallets, balances)

    async def begin_hand(
        self, table_id: int, *, game: str | None = None, seed: str | None = None
    ) -> Hand:
        """:meth:`start_hand` in one round trip: number the table's next hand and mark it
        running (refused for a closed table or while a hand runs). ``game``: the hand's
        game when it is not the table's (a mixed table's hand is of the game dealt);
        ``seed``: a verifiable table's hand's seed (kept secret until the table closes)."""
        now = self.now()

        def run(conn: sqlite3.Connection) -> Hand:
            row = conn.execute(
                "SELECT status, game, (SELECT COALESCE(MAX(number), 0) FROM hands"
                " WHERE table_id = tables.id), (SELECT number FROM hands"
                " WHERE table_id = tables.id AND status = 'running') FROM tables WHERE id = ?",
                (table_id,),
            ).fetchone()
            if row is None:
                raise NotFound(f"no table {table_id}")
            status, table_game, last, running = row
            hand_game = game or table_game
            if status == "closed":
                raise StoreError(f"table {table_id} is closed")
            if running is not None:
                raise StoreError(f"hand {running} of table {table_id} is still running")
            cur = conn.execute(
                "INSERT INTO hands (table_id, number, game, started_at) VALUES (?, ?, ?, ?)",
                (table_id, last + 1, hand_game, now),
            )
            assert cur.lastrowid is not None
            if seed is not None:
                conn.execute(
                    "INSERT INTO hand_seeds (hand_id, seed) VALUES (?, ?)", (cur.lastrowid, seed)
                )
            return Hand(
                cur.lastrowid, table_id, last + 1, hand_game, "running", now, None, None, None, seed
            )

        return await self._in_thread(run)

    async def record_action(
        self,
        accounts: TableAccounts,
        *,
        moves: Sequence[tuple[int, int, str]] = (),
        hand_id: int | None = None,
        events: Sequence[Event] = (),
        finish: HandFinish | None = None,
        snapshot: Mapping[str, Any] | None = UNSET,
        expected_version: int | None = None,
        deadline: int | None = None,
        status: str | None = None,
        balances_of: Collection[int] = (),
        commit: bool = False,
    ) -> ActionRecord:
        """Write one action of table ``accounts.table_id`` in ONE round trip, all or nothing:

        - ``moves``: ``(user_id, amount, kind)`` engine chip moves in order (amount > 0: the
          player pays into the pot; < 0: the pot pays the player): one ledger row each
          (``hand_id`` on it), one guarded balance update per account touched. A payer
          short of chips at any point of the sequence raises :class:`Overdraft`;
        - ``events``: appended to the log of running hand ``hand_id``;
        - ``finish``: then the hand ends (as :meth:`finish_hand`);
        - ``snapshot`` (if given): the table row is saved as :meth:`save_table` does, with
          the optimistic check against ``expected_version`` (:class:`StaleVersion`);
        - ``balances_of``: user ids whose wallet balance to return, read after the writes;
        - ``commit``: the transaction's ``COMMIT`` goes in the same round trip (nothing may
          follow in the block; with ``store.transaction(lazy=True)`` and no statement
          before, the whole transaction is this one trip).

        A season that ended since ``accounts`` was read raises :class:`StaleSeason`. On
        any refusal nothing was written (the statements run inside a savepoint).
        """
        table_id = accounts.table_id
        now = self.now()
        # everything that can be checked without the database, before it
        deltas: dict[int, list[int]] = {}
        rows: list[tuple[Any, ...]] = []
        if moves and accounts.practice:
            raise StoreError(f"table {table_id} is a practice table: no league chips move")
        for user_id, amount, kind in moves:
            _check_move(user_id, amount, kind)
            wallet = accounts.wallets.get(user_id)
            if wallet is None:
                raise StoreError(f"user {user_id} has no wallet at table {table_id}")
            payer, payee = (
                (wallet, accounts.pot_account) if amount > 0 else (accounts.pot_account, wallet)
            )
            deltas.setdefault(payer, []).append(-abs(amount))
            deltas.setdefault(payee, []).append(abs(amount))
            rows.append(
                (
                    accounts.guild_id,
                    accounts.season_id,
                    payer,
                    payee,
                    abs(amount),
                    kind,
                    table_id,
                    hand_id,
                    now,
                )
            )
        if (events or finish is not None) and hand_id is None:
            raise StoreError("events and a hand's end need the hand's id")
        if finish is not None:
            _check_results(finish.results)
        asked: dict[int, int] = {}
        for uid in balances_of:
            wallet = accounts.wallets.get(uid)
            if wallet is None:
                raise StoreError(f"user {uid} has no wallet at table {table_id}")
            asked[wallet] = uid
        snapshot_json: str | None = None
        save = snapshot is not UNSET
        if save:
            if expected_version is None:
                raise StoreError("saving the table needs the expected version")
            if status is not None and status not in TABLE_STATUSES:
                raise StoreError(f"unknown table status {status!r}")
            snapshot_json = None if snapshot is None else dump_snapshot(snapshot)
        finish_json = (
            None if finish is None or finish.result is None else dump_json(dict(finish.result))
        )
        owner = {w: u for u, w in accounts.wallets.items()}

        def write(conn: sqlite3.Connection) -> ActionRecord:
            conn.execute(f"SAVEPOINT {_SAVEPOINT}")
            try:
                out = run(conn)
            except BaseException:
                conn.execute(f"ROLLBACK TO {_SAVEPOINT}")
                conn.execute(f"RELEASE {_SAVEPOINT}")
                raise
            conn.execute(f"RELEASE {_SAVEPOINT}")
            return out

        def run(conn: sqlite3.Connection) -> ActionRecord:
            balances: dict[int, int] = {}
            pot: int | None = None
            if deltas or asked:
                row = conn.execute(
                    "SELECT id FROM seasons WHERE guild_id = ? AND ended_at IS NULL",
                    (accounts.guild_id,),
                ).fetchone()
                if row is None or row[0] != accounts.season_id:
                    raise StaleSeason(
                        f"season {accounts.season_id} of league {accounts.guild_id} has ended"
                    )
            for account, seq in deltas.items():
                total = low = 0
                for d in seq:
                    total += d
                    low = min(low, total)
                # the guard and the change are one statement: never below zero at any point
                # of the sequence, and a wallet only of this season
                got = conn.execute(
                    "UPDATE accounts SET balance = balance + ? WHERE id = ? AND balance + ? >= 0"
                    " AND (kind = 'pot' OR season_id = ?) RETURNING balance",
                    (total, account, low, accounts.season_id),
                ).fetchall()
                if len(got) != 1:
                    _refuse_moves(conn, account, seq, accounts.season_id)
                if account == accounts.pot_account:
                    pot = got[0][0]
                else:
                    balances[owner[account]] = got[0][0]
            if rows:
                conn.executemany(
                    "INSERT INTO ledger (guild_id, season_id, from_account, to_account, amount,"
                    " kind, table_id, hand_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    rows,
                )
            last_seq: int | None = None
            if events:
                assert hand_id is not None
                last_seq = event_rows(conn, hand_id, events, now)
            if finish is not None:
                assert hand_id is not None
                finish_rows(conn, hand_id, finish.results, finish.history, finish_json, now)
            version: int | None = None
            if save:
                version = _save_row(
                    conn, table_id, expected_version, snapshot_json, deadline, status, now
                )
            missing = [w for w, u in asked.items() if u not in balances]
            if missing:
                marks = ",".join("?" * len(missing))
                for r in conn.execute(
                    f"SELECT id, balance FROM accounts WHERE id IN ({marks})", missing
                ).fetchall():
                    balances[asked[r[0]]] = r[1]
            return ActionRecord(version, last_seq, balances, pot)

        # in the group commit, ``run`` goes alone: its savepoint there (or the rollback of
        # its transaction, when it is written alone) already makes a refusal write nothing,
        # and a savepoint of its own would journal every page it changes a second time
        return await self._in_thread(write, commit=commit, grouped_fn=run)


def _refuse_moves(conn: sqlite3.Connection, account: int, seq: Sequence[int], season: int) -> None:
    row = conn.execute("SELECT * FROM accounts WHERE id = ?", (account,)).fetchone()
    if row is None:
        raise NotFound(f"no account {account}")
    acct = account_from_row(row)
    if acct.kind == "player" and acct.season_id != season:
        raise StaleSeason(f"{acct.label} belongs to a season that has ended")
    have = acct.balance
    for d in seq:
        if have + d < 0:
            raise Overdraft(acct, have=have, needed=-d)
        have += d
    raise StoreError(f"{acct.label}: the balance update was refused")  # pragma: no cover


def _save_row(
    conn: sqlite3.Connection,
    table_id: int,
    expected: int | None,
    snapshot_json: str | None,
    deadline: int | None,
    status: str | None,
    now: int,
) -> int:
    status_sql = "" if status is None else ", status = :status"
    got = conn.execute(
        "UPDATE tables SET snapshot = :snapshot, deadline = :deadline,"
        f" version = version + 1, updated_at = :now{status_sql}"
        " WHERE id = :id AND version = :expected AND status <> 'closed' RETURNING version",
        {
            "snapshot": snapshot_json,
            "deadline": deadline,
            "now": now,
            "status": status,
            "id": table_id,
            "expected": expected,
        },
    ).fetchall()
    if len(got) == 1:
        version: int = got[0][0]
        return version
    row = conn.execute("SELECT version, status FROM tables WHERE id = ?", (table_id,)).fetchone()
    if row is None:
        raise NotFound(f"no table {table_id}")
    if row[1] == "closed":
        raise StoreError(f"table {table_id} is closed")
    raise StaleVersion(table_id, expected if expected is not None else -1, row[0])
