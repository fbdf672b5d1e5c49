"""``python -m tests.tables.crash_at N ARGS...``: run ``python -m bot ARGS`` and kill it
with SIGKILL at the start of the N-th SQL statement on its store's connection.

The crash test (tests/tables/test_crash.py) kills ``sim`` here rather than after a
random wall-clock delay: where a timed kill lands depends on how busy the machine is (on a
loaded one most kills fell before the first hand), where this one lands does not. SQLite
reports each statement to the trace callback as it begins to run (``sqlite3_trace_v2``,
SQLITE_TRACE_STMT), so the N-th may be a ``BEGIN``, any write of a transaction, or its
``COMMIT``: the process dies exactly as a power cut there would leave it, the statement
not run. Only aiosqlite's connections are traced (the store's one); the WAL checkpointer's
own connection, whose work depends on timing, is not counted.

``HOMEGAME_CRASH_COUNT=1`` instead lets the command run to its end and prints how many
statements it ran on stderr (to choose the range of N).
"""

from __future__ import annotations

import os
import signal
import sqlite3
import sys
import types
from typing import Any

import aiosqlite.core

from bot.__main__ import main


def _traced(kill_at: int | None) -> tuple[types.ModuleType, list[int]]:
    count = [0]

    def trace(_sql: str) -> None:
        count[0] += 1
        if count[0] == kill_at:
            os.kill(os.getpid(), signal.SIGKILL)

    def connect(*args: Any, **kwargs: Any) -> sqlite3.Connection:
        conn = sqlite3.connect(*args, **kwargs)
        conn.set_trace_callback(trace)
        return conn

    class Sqlite3(types.ModuleType):
        def __getattr__(self, name: str) -> Any:
            return getattr(sqlite3, name)

    proxy = Sqlite3("sqlite3")
    proxy.connect = connect  # type: ignore[attr-defined]
    return proxy, count


if __name__ == "__main__":
    counting = os.environ.get("HOMEGAME_CRASH_COUNT") == "1"
    kill_at = None if counting else int(sys.argv[1])
    module, ran = _traced(kill_at)
    aiosqlite.core.sqlite3 = module  # type: ignore[attr-defined]
    status = main(sys.argv[2:])
    if counting:
        print(f"statements: {ran[0]}", file=sys.stderr)
    sys.exit(status)
