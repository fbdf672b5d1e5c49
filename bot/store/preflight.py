"""Start-up checks of a database file, before the store opens it for writing.

:func:`inspect_file` turns every way a path can be wrong into one
:class:`DatabaseFileError` line naming the file: a folder, a file that is not SQLite, a
truncated or damaged database (``PRAGMA quick_check``), a schema newer than this code.
It never creates or changes anything: the file is opened read-only, and *immutable* when
neither it nor its folder may be written (a read-only file system, where SQLite could not
make the ``-shm`` file a WAL database needs).

:func:`read_only_uri` is the same way in for a reader (``db audit``, ``health``).
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from bot.store.errors import MigrationError, StoreError

SQLITE_HEADER = b"SQLite format 3\x00"
HEADER_SIZE = 100


class DatabaseFileError(StoreError):
    """The database file cannot be used as it is; the message is one line naming it."""


def writable(path: Path) -> bool:
    """Whether SQLite could write ``path`` and make its journal files next to it.
    ``os.access`` reports a read-only file system even to root (EROFS)."""
    folder = path.parent if str(path.parent) else Path(".")
    return os.access(folder, os.W_OK) and (not path.exists() or os.access(path, os.W_OK))


def read_only_uri(path: Path) -> str:
    """A URI that opens ``path`` for reading only: ``mode=ro``, plus ``immutable=1`` when the
    file or its folder is not writable (SQLite could not create the ``-shm`` a WAL database
    needs) or when no ``-wal`` file lies beside it (no connection has it open: the main file
    holds everything, and a read-only look must not leave ``-wal``/``-shm`` files behind).
    Never creates the file."""
    uri = f"{path.resolve().as_uri()}?mode=ro"
    live = Path(f"{path}-wal").exists()
    return uri if live and writable(path) else f"{uri}&immutable=1"


def inspect_file(path: Path, *, latest: int | None, must_exist: bool = False) -> int | None:
    """The schema version of the existing database at ``path`` (None: no file yet, or an
    empty one SQLite will make a database of). ``latest``: the newest schema this code
    knows (None: any version will do, e.g. for a backup). Raises :class:`DatabaseFileError`."""
    if path.is_dir():
        raise DatabaseFileError(f"{path} is a folder, not a database file")
    if not path.exists():
        if must_exist:
            raise DatabaseFileError(f"no database at {path}")
        folder = path.parent if str(path.parent) else Path(".")
        if not folder.is_dir():
            raise DatabaseFileError(f"{path}: the folder {folder} does not exist")
        return None
    if not path.is_file():
        raise DatabaseFileError(f"{path} is not a regular file")
    try:
        with path.open("rb") as f:
            head = f.read(HEADER_SIZE)
    except OSError as exc:
        raise DatabaseFileError(f"{path} cannot be read: {exc.strerror}") from None
    if not head:
        return None
    if not head.startswith(SQLITE_HEADER[: len(head)]):
        raise DatabaseFileError(f"{path} is not a SQLite database")
    if len(head) < HEADER_SIZE:
        raise DatabaseFileError(
            f"{path} is damaged: truncated ({len(head)} bytes); restore a backup"
        )
    try:
        db = sqlite3.connect(read_only_uri(path), uri=True, timeout=5)
    except sqlite3.Error as exc:
        raise DatabaseFileError(f"{path} does not open: {exc}") from None
    try:
        rows = db.execute("PRAGMA quick_check").fetchall()
        version = int(db.execute("PRAGMA user_version").fetchone()[0])
    except sqlite3.DatabaseError as exc:
        raise DatabaseFileError(f"{path} is damaged ({exc}); restore a backup") from None
    finally:
        db.close()
    # one line: a row of quick_check may itself hold several ("*** in database main ***\n
    # Page 7: ...")
    verdict = "; ".join(" ".join(str(r[0]).split()) for r in rows[:3])
    if verdict != "ok":
        raise DatabaseFileError(
            f"{path} is damaged (quick_check: {verdict[:200]}); restore a backup"
        )
    if latest is not None and version > latest:
        raise MigrationError(
            f"{path} has schema version {version}, newer than this homegame knows ({latest}):"
            " run the newer homegame, or restore a backup made before the upgrade"
        )
    return version
