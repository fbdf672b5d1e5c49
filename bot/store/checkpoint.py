"""WAL checkpoints off the writers' path.

SQLite's default (``wal_autocheckpoint`` = 1000 pages) copies the WAL back into the
database inside whichever COMMIT crosses the threshold: that one write then pays for
~1000 page copies and two fsyncs (3-4 ms where a table action takes ~0.4 ms). A table
action writes ~8 pages, so one action in ~125 paid it: exactly the p99.

The store therefore runs its connection with ``PRAGMA wal_autocheckpoint = 0`` and this
checkpointer does the copying: its OWN sqlite3 connection on its OWN thread (never the
event loop, never the store's connection thread), a ``PASSIVE`` checkpoint (it never waits
for, and never blocks, a reader or a writer) whenever the database changed since the last
look (``PRAGMA data_version``), and a ``TRUNCATE`` checkpoint when it stops (the WAL file
shrinks back to nothing on :meth:`Store.close`).

A passive checkpoint copies the frames that were committed when it began. The WAL file only
starts over from its beginning when a writer finds EVERY frame copied; under writes that
never pause, each checkpoint ends with a few frames committed while it ran, so the file
would grow for as long as the load lasts. Once the WAL holds :data:`WAL_LIMIT_PAGES` frames
and a checkpoint could not catch up, the checkpointer asks the store's writer to copy that
small rest itself (:meth:`WalCheckpointer.take_finish`, a ``PASSIVE`` checkpoint on the
store's connection between two transactions): the next write then restarts the WAL. So the
WAL stays bounded, and a writer pays for a checkpoint only then (a few dozen frames and two
fsyncs, not a thousand).

Failures are the checkpointer's own: logged, never raised into a writer; the next round
tries again. If its connection cannot even be opened, the store keeps SQLite's
autocheckpoint instead (see :meth:`Store.open`).
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from pathlib import Path

log = logging.getLogger(__name__)

CHECKPOINT_INTERVAL = 0.05
"""Seconds between the checkpointer's looks at the database. Short, so each checkpoint is
small (at a busy table's ~2,000 actions/s, ~800 pages: a few ms on the checkpointer's
thread, none on a writer's) and the WAL stays small; each look without a change costs one
``PRAGMA data_version`` (microseconds), so an idle bot pays nothing worth counting."""

WAL_LIMIT_PAGES = 4000
"""WAL frames (pages, 4 KiB each: ~16 MB) above which a checkpoint that could not catch up
asks the store's writer to copy the rest (see the module docstring). Four times SQLite's
default autocheckpoint: under ordinary load the background checkpoints catch up in the
pauses between writes long before this, so a writer pays it only under writes that never
pause, once per ~500 actions."""


class WalCheckpointer:
    """Background ``PASSIVE`` checkpoints of the database at ``path`` (see the module
    docstring). :meth:`open` the connection (on a worker thread: it touches the disk),
    :meth:`start`, then :meth:`stop` (joins the thread; ends with a ``TRUNCATE``)."""

    def __init__(
        self,
        path: Path,
        *,
        interval: float | None = None,
        wal_limit: int | None = None,
        busy_timeout_ms: int = 5000,
    ) -> None:
        self.path = path
        self.interval = CHECKPOINT_INTERVAL if interval is None else interval
        self.wal_limit = WAL_LIMIT_PAGES if wal_limit is None else wal_limit
        self.busy_timeout_ms = busy_timeout_ms
        self._conn: sqlite3.Connection | None = None
        self._thread: threading.Thread | None = None
        self._stopping = threading.Event()
        self._seen: int | None = None
        """``PRAGMA data_version`` at the last checkpoint (None: none yet)."""
        self._behind = False
        """The last checkpoint left frames uncopied (committed while it ran)."""
        self._finish = False
        """Set on this thread, taken by the store's writer (:meth:`take_finish`)."""
        self.checkpoints = 0
        """Checkpoints run (including those that found nothing to copy)."""
        self.max_wal = 0
        """The most frames the WAL held when a checkpoint began."""
        self.finishes = 0
        """Checkpoints the store's writer ran on the checkpointer's request."""
        self.failures = 0
        """Checkpoints that raised (logged)."""

    def open(self) -> None:
        """Open the checkpointer's own connection (raises sqlite3.Error if it cannot)."""
        conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        try:
            conn.execute(f"PRAGMA busy_timeout = {int(self.busy_timeout_ms)}")
        except BaseException:
            conn.close()
            raise
        self._conn = conn

    def start(self) -> None:
        if self._conn is None:
            raise RuntimeError("open() the checkpointer first")
        self._thread = threading.Thread(target=self._main, name="homegame-wal-checkpoint")
        self._thread.daemon = True  # a store never closed must not keep the process alive
        self._thread.start()

    def stop(self) -> None:
        """Stop the thread (blocking: call it on a worker thread): a last ``TRUNCATE``
        checkpoint, then the connection closes."""
        self._stopping.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None
        elif self._conn is not None:  # opened, never started
            self._close()

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def take_finish(self) -> bool:
        """Whether the store's writer should run a checkpoint before its next transaction
        (the flag is cleared: one request, one checkpoint)."""
        if not self._finish:
            return False
        self._finish = False
        self.finishes += 1
        return True

    # ---- the thread ------------------------------------------------------------------

    def _main(self) -> None:
        try:
            while not self._stopping.wait(self.interval):
                self._look()
        finally:
            self._close()

    def _look(self) -> None:
        """One look of the thread: a checkpoint if the database changed; a failure is
        counted and logged (the first, then every thousandth), never raised."""
        try:
            self._round()
        except Exception:
            self.failures += 1
            if self.failures == 1 or self.failures % 1000 == 0:
                log.exception(
                    "WAL checkpoint of %s failed (%d so far); writes go on",
                    self.path,
                    self.failures,
                )

    def _round(self) -> None:
        conn = self._conn
        assert conn is not None
        (version,) = conn.execute("PRAGMA data_version").fetchone()
        if version == self._seen and not self._behind:
            return
        busy, frames, copied = conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        # the checkpoint reports the frames there were when it began: a commit while it ran
        # (the data version moved) left frames it did not copy
        (self._seen,) = conn.execute("PRAGMA data_version").fetchone()
        self.checkpoints += 1
        if frames < 0:  # not in WAL mode (cannot happen for a store's database)
            self._behind = False
            return
        self.max_wal = max(self.max_wal, frames)
        self._behind = bool(busy) or copied < frames or self._seen != version
        if self._behind and frames >= self.wal_limit:
            self._finish = True

    def _close(self) -> None:
        conn, self._conn = self._conn, None
        if conn is None:
            return
        try:
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        except Exception:
            log.exception("final WAL checkpoint of %s failed", self.path)
        try:
            conn.close()
        except Exception:
            log.exception("closing the WAL checkpointer's connection to %s failed", self.path)


def finish_checkpoint(conn: sqlite3.Connection) -> None:
    """On the store's connection thread, between two transactions: copy what the
    background checkpoints left (see the module docstring). Never raises: a failed
    checkpoint is logged and the write that follows goes on."""
    try:
        conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
    except Exception:
        log.exception("WAL checkpoint on the writer's connection failed; writes go on")
