"""The store: one aiosqlite connection, numbered migrations (bot/store/migrate.py) and
write transactions.

Usage::

    store = await Store.open("homegame.db")
    async with store.transaction() as tx:      # BEGIN IMMEDIATE ... COMMIT
        wallet = await tx.wallet(guild_id, user_id)
        await tx.move_chips(table_id, user_id, 2, "ante", hand_id=hand.id)
        await tx.save_table(table_id, expected_version=v, snapshot=snap, deadline=None)
    await store.close()

Writers in this process queue on an ``asyncio.Lock`` (one connection cannot hold two
transactions); other processes wait on SQLite's ``busy_timeout``.

Group commit: a lazy transaction that is one whole-transaction operation (a table action's
``record_action(..., commit=True)``) queues its writes; the store's writer takes the lock
once per batch of up to :data:`GROUP_MAX` waiting actions and runs them in ONE round trip:
``BEGIN IMMEDIATE``, each action in its own savepoint (a refused one is rolled back to it and
gets its error, the others proceed), ``COMMIT``; only then is any of them answered.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from types import TracebackType
from typing import Any

import aiosqlite

from bot.store.actions import ActionOps
from bot.store.audit import AuditReport, run_audit
from bot.store.checkpoint import WalCheckpointer, finish_checkpoint
from bot.store.errors import StoreError
from bot.store.members import MemberOps
from bot.store.migrate import migrate_schema, migrations, user_version
from bot.store.models import LeagueDefaults
from bot.store.nights import NightOps
from bot.store.preflight import DatabaseFileError, inspect_file, read_only_uri, writable
from bot.store.stats import StatsOps
from bot.store.summary import SUMMARY_SQL, DatabaseSummary
from bot.store.tournaments import TournamentOps

log = logging.getLogger(__name__)

GROUP_MAX = 64
"""The most waiting actions the group commit writes in one transaction."""

_GROUP_SAVEPOINT = "group_item"


class Tx(ActionOps, StatsOps, NightOps, MemberOps, TournamentOps):
    """All store operations, valid inside one ``store.transaction()`` (or ``store.read()``).

    Leagues and seasons (``leagues.py``), accounts and the ledger (``ledger.py``), tables,
    seats, hands and messages (``tables.py``); league statistics and exports (``stats.py``);
    one table action's writes in one round trip (``actions.py``); nights and settle-ups
    (``nights.py``); a member's own settings (``members.py``); tournaments, their chips and
    points (``tournaments.py``).
    """

    async def audit(self, guild_id: int | None = None) -> AuditReport:
        return await run_audit(self, guild_id)


class Store:
    """The chip league's database. Build it with :meth:`open`; close it with :meth:`close`."""

    def __init__(
        self,
        db: aiosqlite.Connection,
        path: Path,
        clock: Callable[[], float],
        version: int,
        checkpointer: WalCheckpointer | None = None,
    ) -> None:
        self._db = db
        self.checkpointer = checkpointer
        """The background WAL checkpointer (None: SQLite's autocheckpoint runs instead,
        see :mod:`bot.store.checkpoint`)."""
        self.path = path
        self._clock = clock
        self._lock = asyncio.Lock()
        self._holder: asyncio.Task[object] | None = None
        self._queue: list[tuple[Callable[[sqlite3.Connection], Any], asyncio.Future[Any]]] = []
        """Group commit: the actions waiting to be written, in arrival order."""
        self._writer: asyncio.Task[None] | None = None
        """Group commit: the task draining :attr:`_queue` (None: idle)."""
        self.schema_version = version
        self.applied: tuple[int, ...] = ()
        """Migrations this open applied (empty when the schema was already current)."""
        self.pre_migration_backup: Path | None = None
        """The copy taken before this open migrated an existing database (None: none)."""
        self.created = False
        """This open created the database file (it did not exist, or was empty)."""
        self.league_defaults = LeagueDefaults()
        """What a league created from now on starts with: the config file's ``[league]``
        section once the bot sets it (:class:`bot.app.HomeGameBot`), else the built-in
        defaults."""

    @classmethod
    async def open(
        cls,
        path: str | Path,
        *,
        clock: Callable[[], float] = time.time,
        busy_timeout_ms: int = 5000,
        migrate: bool = True,
        read_only: bool = False,
        backup_dir: str | Path | None = None,
    ) -> Store:
        """Open (creating if needed) the database at ``path``, set the pragmas and apply the
        pending migrations, each in its own transaction. With ``migrate=False`` an outdated
        schema raises :class:`MigrationError` instead.

        First the file is checked (:func:`~bot.store.preflight.inspect_file`: a folder, not
        SQLite, damaged, a newer schema: one :class:`DatabaseFileError` line). ``backup_dir``:
        an existing database about to be migrated is first copied there (SQLite's backup
        API) as ``homegame-before-schema-NNNN-<time>.db``; :attr:`pre_migration_backup`
        names it. ``read_only``: open an existing file for reading only (immutable on a
        read-only file system), never migrate, never write."""
        path = Path(path)
        known = migrations()
        latest = known[-1].version if known else 0
        found = await asyncio.to_thread(inspect_file, path, latest=latest, must_exist=read_only)
        if read_only:
            return await cls._open_read_only(path, clock, busy_timeout_ms)
        if not writable(path):
            folder = path.parent if str(path.parent) else Path(".")
            raise DatabaseFileError(
                f"{path} cannot be written by this user (uid {os.getuid()}): check that it "
                f"and {folder} are writable (the Docker image runs as uid 10001)"
            )
        saved: Path | None = None
        if migrate and backup_dir is not None and found is not None and 0 < found < latest:
            saved = await _backup_before_migration(
                path, Path(backup_dir), found, latest, now=clock()
            )
        try:
            store = await cls._open_writable(path, clock, busy_timeout_ms, migrate=migrate)
        except sqlite3.Error as exc:
            hint = "; is the file or its folder read-only?" if "readonly" in str(exc) else ""
            raise DatabaseFileError(f"{path}: {exc}{hint}") from None
        store.pre_migration_backup = saved
        store.created = found is None
        return store

    @classmethod
    async def _open_read_only(
        cls, path: Path, clock: Callable[[], float], busy_timeout_ms: int
    ) -> Store:
        try:
            db = await aiosqlite.connect(read_only_uri(path), uri=True, isolation_level=None)
        except sqlite3.Error as exc:
            raise DatabaseFileError(f"{path} does not open read-only: {exc}") from None
        try:
            db.row_factory = sqlite3.Row
            await db.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
            await migrate_schema(db, dry=True)
            version = await user_version(db)
        except BaseException as exc:
            await db.close()
            if isinstance(exc, sqlite3.Error):
                raise DatabaseFileError(f"{path} cannot be read: {exc}") from None
            raise
        return cls(db, path, clock, version, None)

    @classmethod
    async def _open_writable(
        cls, path: Path, clock: Callable[[], float], busy_timeout_ms: int, *, migrate: bool
    ) -> Store:
        # isolation_level=None: no implicit transactions; we issue BEGIN IMMEDIATE ourselves
        db = await aiosqlite.connect(path, isolation_level=None)
        try:
            db.row_factory = sqlite3.Row
            await db.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
            await db.execute("PRAGMA foreign_keys = ON")
            async with db.execute("PRAGMA journal_mode = WAL") as cur:
                row = await cur.fetchone()
            if row is None or str(row[0]).lower() != "wal":
                raise StoreError(f"{path}: cannot switch the database to WAL mode")
            await db.execute("PRAGMA synchronous = NORMAL")
            # savepoints (each action of a group commit has one) keep the original of every
            # page they change in a sub-journal; past 64 KiB SQLite moves it to a temporary
            # FILE, created and written inside the transaction: a hand's end changes enough
            # pages to cross that. In memory it stays a copy.
            await db.execute("PRAGMA temp_store = MEMORY")
            applied = await migrate_schema(db, dry=not migrate)
            version = await user_version(db)
            checkpointer = await _start_checkpointer(db, path, busy_timeout_ms)
        except BaseException:
            await db.close()
            raise
        store = cls(db, path, clock, version, checkpointer)
        store.applied = applied
        return store

    async def close(self) -> None:
        while (writer := self._writer) is not None:  # let the queued actions land first
            with contextlib.suppress(BaseException):
                await asyncio.shield(writer)
            if self._writer is writer:  # ended without its own clean-up (cancelled unstarted)
                self._writer_done(writer)
        async with self._lock:
            try:
                if self.checkpointer is not None:
                    # its last TRUNCATE checkpoint, with no write of ours in flight
                    await asyncio.to_thread(self.checkpointer.stop)
            finally:
                await self._db.close()

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    def transaction(self, *, lazy: bool = False) -> AbstractAsyncContextManager[Tx]:
        """A write transaction: ``BEGIN IMMEDIATE`` (takes SQLite's write lock up front, so
        it never fails half-way on a lock upgrade), ``COMMIT`` on success, ``ROLLBACK`` on
        any exception (which then propagates). Writers in this process run one at a time.

        ``lazy``: the writers' queue and ``BEGIN IMMEDIATE`` are entered at the block's
        first statement (sent in the same round trip when it is a one-trip operation such as
        :meth:`Tx.record_action`), so work before it (e.g. a game engine's step) does not
        hold up other writers; a block without statements costs nothing. An operation
        given ``commit=True`` ends the transaction in its own round trip."""
        return self._session("BEGIN IMMEDIATE", lazy=lazy)

    @asynccontextmanager
    async def read(self) -> AsyncIterator[Tx]:
        """A consistent read-only view (a deferred transaction with ``query_only`` on):
        any write inside raises."""
        async with self._session("BEGIN", query_only=True) as tx:
            yield tx

    @asynccontextmanager
    async def _session(
        self, begin: str, *, query_only: bool = False, lazy: bool = False
    ) -> AsyncIterator[Tx]:
        current = asyncio.current_task()
        if current is not None and self._holder is current:
            # the lock is not re-entrant: waiting for it here would wait forever
            raise StoreError("a store transaction is already open in this task")
        held = False

        async def enter() -> None:
            nonlocal held
            await self._lock.acquire()
            held = True
            self._holder = current
            if query_only:
                await self._db.execute("PRAGMA query_only = ON")

        try:
            if lazy:
                group = None if query_only else self._group_commit
                tx = Tx(self._db, self._clock, enter=enter, begin=begin, group=group)
            else:
                await enter()
                await self._db.execute(begin)
                tx = Tx(self._db, self._clock)
                tx._begun = True
            tx.league_defaults = self.league_defaults
            try:
                yield tx
            except BaseException:
                tx._end()
                if tx._begun and not tx._finished:
                    await self._db._execute(_rollback_if_open, self._db._conn)  # type: ignore[no-untyped-call]
                raise
            tx._end()
            if tx._begun and not tx._finished:
                try:
                    await self._db.execute("COMMIT")
                except BaseException:
                    if self._db.in_transaction:
                        await self._db.execute("ROLLBACK")
                    raise
        finally:
            if held:
                try:
                    if query_only:
                        await self._db.execute("PRAGMA query_only = OFF")
                finally:
                    self._holder = None
                    self._lock.release()

    async def _group_commit(self, fn: Callable[[sqlite3.Connection], Any]) -> Any:
        """Queue ``fn`` (one action's writes) for the group commit and wait until the
        transaction holding it committed: its result, or its own error (nothing of it was
        written), or the batch's error (nothing of the batch was written)."""
        if self._writer is None and not self._lock.locked():
            # nothing waits: this action alone, in the caller's task (no writer hop)
            async with self._lock:
                self._holder = asyncio.current_task()
                try:
                    await self._finish_checkpoint()
                    ((ok, value),) = await self._db._execute(  # type: ignore[no-untyped-call]
                        _run_batch, self._db._conn, [fn]
                    )
                finally:
                    self._holder = None
            if ok:
                return value
            raise value
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._queue.append((fn, fut))
        if self._writer is None:
            self._writer = asyncio.create_task(self._drain())
            self._writer.add_done_callback(self._writer_done)
        return await fut

    def _writer_done(self, writer: asyncio.Task[None]) -> None:
        """When the writer task ends: if it ended without running its own clean-up (a
        task cancelled before its first step never enters :meth:`_drain`), forget it and
        fail the actions it would have written, so neither they nor :meth:`close` wait for
        it forever."""
        if self._writer is not writer:
            return
        self._writer = None
        for _, fut in self._queue:
            if not fut.done():
                fut.set_exception(StoreError("the store's writer stopped"))
        self._queue.clear()

    async def _drain(self) -> None:
        """The group commit's writer: while actions wait, take the store's lock (so other
        transactions stay serialised with it), take up to :data:`GROUP_MAX` of them and
        write them in one round trip (:func:`_run_batch`), then answer each."""
        try:
            while self._queue:
                async with self._lock:
                    batch: list[tuple[Callable[[sqlite3.Connection], Any], asyncio.Future[Any]]]
                    batch = []
                    while self._queue and len(batch) < GROUP_MAX:
                        item = self._queue.pop(0)
                        if not item[1].done():  # a cancelled waiter's action is not written
                            batch.append(item)
                    if not batch:
                        continue
                    self._holder = asyncio.current_task()
                    try:
                        await self._finish_checkpoint()
                        outcomes = await self._db._execute(  # type: ignore[no-untyped-call]
                            _run_batch, self._db._conn, [fn for fn, _ in batch]
                        )
                    except BaseException as exc:
                        for _, fut in batch:
                            if not fut.done():
                                fut.set_exception(exc)
                        if not isinstance(exc, Exception):
                            raise
                        continue
                    finally:
                        self._holder = None
                for (_, fut), (ok, value) in zip(batch, outcomes, strict=True):
                    if fut.done():
                        continue
                    if ok:
                        fut.set_result(value)
                    else:
                        fut.set_exception(value)
        finally:
            self._writer = None
            for _, fut in self._queue:  # only left when the writer itself was stopped
                if not fut.done():
                    fut.set_exception(StoreError("the store's writer stopped"))
            self._queue.clear()

    async def _finish_checkpoint(self) -> None:
        """Under the store's lock, before a group-commit transaction: the checkpoint the
        background checkpointer asked for, if it did (rare; see :mod:`bot.store.checkpoint`)."""
        ck = self.checkpointer
        if ck is not None and ck.take_finish():
            await self._db._execute(finish_checkpoint, self._db._conn)  # type: ignore[no-untyped-call]

    async def summary(self) -> DatabaseSummary:
        """The file, its schema version, how many members and hands it holds (the line
        ``run`` logs at start-up, :mod:`bot.store.summary`)."""
        async with self.read() as tx:
            row = await tx._one(SUMMARY_SQL)
        assert row is not None
        return DatabaseSummary(
            path=self.path.absolute(),
            schema_version=self.schema_version,
            leagues=int(row["leagues"]),
            members=int(row["members"]),
            hands=int(row["hands"]),
            created=self.created,
        )

    async def audit(self, guild_id: int | None = None) -> AuditReport:
        """Run the audit (see :mod:`bot.store.audit`) on a consistent view."""
        async with self.read() as tx:
            return await tx.audit(guild_id)

    async def backup(self, out: str | Path) -> None:
        """Copy the database to ``out`` with SQLite's online backup API (consistent even
        while other processes write). Refuses to overwrite an existing file."""

        async def copy(target: sqlite3.Connection) -> None:
            async with self._lock:  # not in the middle of one of our own transactions
                await self._db.backup(target)

        await _backup_to(out, copy)


def _run_batch(
    conn: sqlite3.Connection, fns: Sequence[Callable[[sqlite3.Connection], Any]]
) -> list[tuple[bool, Any]]:
    """On the connection's thread: one transaction for a batch of actions, each in its own
    savepoint; returns ``(True, result)`` or ``(False, error)`` per action. An error that
    ends the whole transaction (SQLite rolled it back) or a failed COMMIT raises: then
    nothing of the batch was written."""
    out: list[tuple[bool, Any]] = []
    conn.execute("BEGIN IMMEDIATE")
    try:
        if len(fns) == 1:  # alone: no savepoint, its error rolls the transaction back
            try:
                result = fns[0](conn)
            except Exception as exc:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                return [(False, exc)]
            conn.execute("COMMIT")
            return [(True, result)]
        for fn in fns:
            conn.execute(f"SAVEPOINT {_GROUP_SAVEPOINT}")
            try:
                result = fn(conn)
            except Exception as exc:
                if not conn.in_transaction:
                    raise  # the whole transaction is gone, the others' writes with it
                conn.execute(f"ROLLBACK TO {_GROUP_SAVEPOINT}")
                conn.execute(f"RELEASE {_GROUP_SAVEPOINT}")
                out.append((False, exc))
                continue
            conn.execute(f"RELEASE {_GROUP_SAVEPOINT}")
            out.append((True, result))
        conn.execute("COMMIT" if any(ok for ok, _ in out) else "ROLLBACK")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return out


async def _backup_before_migration(
    path: Path, folder: Path, version: int, latest: int, *, now: float
) -> Path:
    """Copy the database at ``path`` (schema ``version``) into ``folder`` before it is
    migrated to ``latest``; a name the daily backup's pruning never matches, so it stays.
    ``now``: the store's clock (the time in the name)."""
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(now))
    out = folder / f"homegame-before-schema-{latest:04d}-{stamp}.db"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        await backup_file(path, out)
    except (OSError, sqlite3.Error, StoreError) as exc:
        why = exc.message if isinstance(exc, StoreError) else str(exc)
        raise DatabaseFileError(
            f"{path}: no backup could be written to {folder} before migrating schema "
            f"{version} to {latest} ({why}); nothing was changed"
        ) from None
    log.warning(
        "%s: schema %d is older than %d; backed up to %s before migrating",
        path,
        version,
        latest,
        out,
    )
    return out


def _rollback_if_open(conn: sqlite3.Connection) -> None:
    """On the connection's thread: roll back if a transaction is still open (a statement
    in flight when the block failed may already have ended it)."""
    if conn.in_transaction:
        conn.execute("ROLLBACK")


async def backup_file(path: str | Path, out: str | Path) -> None:
    """Back up the database file at ``path`` to ``out`` without opening it as a store (so
    any schema version, including one that still needs migrating, can be saved first)."""
    path = Path(path)
    if not path.is_file():
        raise StoreError(f"no database at {path}")

    async def copy(target: sqlite3.Connection) -> None:
        # read-only URI: a backup must never change (or create) its source
        async with aiosqlite.connect(read_only_uri(path), uri=True) as src:
            await src.backup(target)

    await _backup_to(out, copy)


async def _backup_to(
    out: str | Path, copy: Callable[[sqlite3.Connection], Awaitable[None]]
) -> None:
    out = Path(out)
    if out.exists():
        raise StoreError(f"{out} already exists; choose a new file")
    target = sqlite3.connect(out)
    try:
        await copy(target)
        target.execute("PRAGMA journal_mode = DELETE")  # one self-contained file
    except BaseException:
        target.close()
        out.unlink(missing_ok=True)
        raise
    target.close()


async def _start_checkpointer(
    db: aiosqlite.Connection, path: Path, busy_timeout_ms: int
) -> WalCheckpointer | None:
    """Hand the WAL's checkpoints to a :class:`WalCheckpointer` and turn the connection's
    autocheckpoint off; if the checkpointer's connection cannot be opened, log it and keep
    SQLite's autocheckpoint (the WAL must be copied back by someone)."""
    checkpointer = WalCheckpointer(path, busy_timeout_ms=busy_timeout_ms)
    try:
        await asyncio.to_thread(checkpointer.open)
    except sqlite3.Error:
        log.exception("%s: no background WAL checkpointer; SQLite's autocheckpoint stays", path)
        return None
    try:
        await db.execute("PRAGMA wal_autocheckpoint = 0")
        checkpointer.start()
    except BaseException:
        await asyncio.to_thread(checkpointer.stop)
        raise
    return checkpointer
