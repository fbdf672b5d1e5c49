"""The shared base of a transaction object: the connection, the clock, small query helpers."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, TypeVar

import aiosqlite

from bot.store.errors import StoreError
from bot.store.models import LeagueDefaults

Params = Sequence[Any] | Mapping[str, Any]
T = TypeVar("T")
GroupCommit = Callable[[Callable[[sqlite3.Connection], Any]], Awaitable[Any]]
"""The store's group commit: runs ``fn(connection)`` in its own savepoint of a shared
``BEGIN IMMEDIATE ... COMMIT`` and returns (or raises) what ``fn`` did, once committed."""


class _Unset:
    """Marks a keyword argument that was not given (None is a meaningful value)."""

    _instance: _Unset | None = None

    def __new__(cls) -> _Unset:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "UNSET"


UNSET: Any = _Unset()


_SORTED = json.JSONEncoder(sort_keys=True, separators=(",", ":"), allow_nan=False)
_PLAIN = json.JSONEncoder(separators=(",", ":"), allow_nan=False, check_circular=False)
_c_make_encoder: Any = getattr(json.encoder, "c_make_encoder", None)


def _fast(encoder: json.JSONEncoder, circular: bool) -> Callable[[Any], str]:
    """``encoder.encode`` without its Python frames (``json.dumps`` builds a new encoder
    per call and goes through three of them; the store encodes a few values per action):
    the C encoder ``JSONEncoder.iterencode`` would build, called directly. Same text; a
    fresh marker dict per call when ``circular`` (the circular-reference check)."""
    if _c_make_encoder is None:  # pragma: no cover - CPython always has the C encoder
        return encoder.encode
    make = _c_make_encoder
    args = (
        encoder.default,
        json.encoder.encode_basestring_ascii,
        None,
        encoder.key_separator,
        encoder.item_separator,
        encoder.sort_keys,
        encoder.skipkeys,
        encoder.allow_nan,
    )
    if circular:
        return lambda value: "".join(make({}, *args)(value, 0))
    plain = make(None, *args)
    return lambda value: "".join(plain(value, 0))


_dump_sorted = _fast(_SORTED, True)
_dump_plain = _fast(_PLAIN, False)


def dump_json(value: Any) -> str:
    """Compact, stable JSON for a TEXT column; refuses what JSON cannot hold."""
    try:
        return _dump_sorted(value)
    except (TypeError, ValueError) as exc:
        raise StoreError(f"not JSON-serialisable: {exc}") from exc


def dump_snapshot(value: Any) -> str:
    """Compact JSON for a table snapshot, written on every action: no key sorting (the
    snapshot's keys come in a fixed order from the code that builds it) and no circular
    check (it is plain data); refuses what JSON cannot hold."""
    try:
        return _dump_plain(value)
    except (TypeError, ValueError, RecursionError) as exc:
        raise StoreError(f"not JSON-serialisable: {exc}") from exc


def load_json(text: str | None) -> Any:
    return None if text is None else json.loads(text)


class TxBase:
    """Operations run on one connection inside an open transaction.

    A ``Tx`` is only valid inside its ``async with store.transaction()`` block; using it
    afterwards raises :class:`StoreError` rather than writing outside any transaction.
    """

    league_defaults: LeagueDefaults = LeagueDefaults()
    """What a league created in this transaction starts with (the store's, see
    :attr:`bot.store.Store.league_defaults`)."""

    def __init__(
        self,
        db: aiosqlite.Connection,
        clock: Callable[[], float],
        *,
        enter: Callable[[], Awaitable[None]] | None = None,
        begin: str | None = None,
        group: GroupCommit | None = None,
    ) -> None:
        self._db = db
        self._clock = clock
        self._live = True
        self._enter = enter
        """Lazy transaction: joins the writers' queue at the first statement."""
        self._begin = begin
        """Lazy transaction: the BEGIN still to send (with the first statement)."""
        self._group = group
        """Lazy transaction: a whole-transaction operation joins the store's group commit."""
        self._begun = False
        self._finished = False
        """Committed (or rolled back) by an operation given ``commit=True``."""

    def now(self) -> int:
        """The store's clock, in whole unix seconds."""
        return int(self._clock())

    def _end(self) -> None:
        self._live = False

    def _check(self) -> None:
        if not self._live:
            raise StoreError("this transaction has ended; open a new one")

    async def _ready(self) -> str | None:
        """Before a statement: check, enter the writers' queue if not yet (lazy), and
        return the BEGIN the statement's round trip must send first (None: already sent)."""
        self._check()
        if self._enter is not None:
            enter, self._enter = self._enter, None
            await enter()
        begin, self._begin = self._begin, None
        self._begun = True
        return begin

    async def _open(self) -> None:
        begin = await self._ready()
        if begin is not None:
            await self._db.execute(begin)

    async def _one(self, sql: str, params: Params = ()) -> sqlite3.Row | None:
        await self._open()
        async with self._db.execute(sql, params) as cur:
            row: sqlite3.Row | None = await cur.fetchone()
            return row

    async def _all(self, sql: str, params: Params = ()) -> list[sqlite3.Row]:
        await self._open()
        async with self._db.execute(sql, params) as cur:
            return list(await cur.fetchall())

    async def _exec(self, sql: str, params: Params = ()) -> int:
        """Run a write; returns the number of rows it changed."""
        await self._open()
        async with self._db.execute(sql, params) as cur:
            return cur.rowcount

    async def _insert(self, sql: str, params: Params = ()) -> int:
        """Run an INSERT; returns the new row id."""
        await self._open()
        async with self._db.execute(sql, params) as cur:
            rowid = cur.lastrowid
        if rowid is None:  # pragma: no cover - sqlite always sets it after an INSERT
            raise StoreError("insert returned no row id")
        return rowid

    async def _in_thread(
        self,
        fn: Callable[[sqlite3.Connection], T],
        *,
        commit: bool = False,
        grouped_fn: Callable[[sqlite3.Connection], T] | None = None,
    ) -> T:
        """Run ``fn(connection)`` on aiosqlite's worker thread: many statements for one
        round trip (each ``await`` of a statement is a thread hop and a loop wake-up).
        A lazy transaction's ``BEGIN`` goes first in the same trip; with ``commit`` the
        ``COMMIT`` goes last (``ROLLBACK`` if ``fn`` raised) and the transaction is over.

        ``fn`` must only run statements inside the open transaction (it is a plain sqlite3
        connection). Uses aiosqlite's ``Connection._execute`` (its queue to the worker
        thread, the same call every public aiosqlite method makes; tests cover it).

        A lazy transaction whose FIRST statement is this ``commit`` operation (the whole
        transaction is ``fn``) joins the store's group commit instead: ``fn`` runs in its
        own savepoint of a transaction it may share with other tables' waiting actions, and
        returns (or raises, having written nothing) only after that transaction's COMMIT.
        ``grouped_fn`` (if given) runs there instead of ``fn``: the same writes without a
        savepoint of their own, which the group commit already gives each action (or, for
        an action alone, its whole transaction's rollback)."""
        if commit and self._group is not None and self._enter is not None:
            self._check()
            self._enter = self._begin = None
            self._begun = True
            try:
                grouped: T = await self._group(fn if grouped_fn is None else grouped_fn)
            finally:
                self._finished = True
                self._end()
            return grouped
        begin = await self._ready()
        db = self._db
        conn: sqlite3.Connection = db._conn

        def run(conn: sqlite3.Connection) -> T:
            if begin is not None:
                conn.execute(begin)
            if not commit:
                return fn(conn)
            try:
                out = fn(conn)
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
            return out

        if not commit:
            result: T = await db._execute(run, conn)  # type: ignore[no-untyped-call]
            return result
        try:
            result = await db._execute(run, conn)  # type: ignore[no-untyped-call]
        finally:
            # committed, or rolled back on the thread: nothing may follow in this block
            self._finished = True
            self._end()
        return result
