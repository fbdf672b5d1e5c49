"""Crash tests: ``python -m bot sim`` killed with SIGKILL at random moments loses nothing.

Every action is one store transaction, so after each kill the audit passes and
``sim --resume --hands 0`` finishes the interrupted hands with no chip created or lost.

The moments are random but not timed: each kill lands at the start of a random N-th SQL
statement of the sim (tests/tables/crash_at.py), so where it lands (mid-hand, mid-
transaction, at a COMMIT) is the same on a quiet machine and on a loaded one (issue 19,
item 16: a kill after a random 0.05-0.5 s fell before the first hand under load).
"""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
KILLS = 20
HANG = 600
"""Seconds after which a child process is taken to hang: a guard, never a measure (a
sim is killed by its own statement count, not by this)."""
FIRST_HAND = 120
"""Statements before the sim's first hand is under way (opening the store, the league,
the table: about 70 on a migrated database); every kill lands past it."""
LAST_KILL = 1500
"""The latest kill: 5-30 hands in, depending on the game and the players."""


def _bot(*args: str, timeout: float = HANG) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )


def _query(db: Path, sql: str) -> int:
    con = sqlite3.connect(f"{db.as_uri()}?mode=ro", uri=True, timeout=10)
    try:
        (value,) = con.execute(sql).fetchone()
        return int(value or 0)
    finally:
        con.close()


def _circulation(db: Path) -> int:
    return _query(db, "SELECT -COALESCE(SUM(balance), 0) FROM accounts WHERE kind = 'house'")


def test_sim_killed_with_sigkill_then_resumed_creates_and_loses_no_chip(tmp_path: Path) -> None:
    rng = random.Random(20240611)
    db = tmp_path / "crash.db"
    assert _bot("db", "migrate", "--db", str(db)).returncode == 0
    kills = mid_hand = 0
    for i in range(KILLS):
        game = rng.choice(("zoot", "wheelers", "razz"))
        tables_before = _query(db, "SELECT COUNT(*) FROM tables")
        kill_at = rng.randint(FIRST_HAND, LAST_KILL)
        players = str(rng.randint(2, 5))
        sim = ["sim", game, "--players", players, "--hands", "100000", "--seed", str(i)]
        killed = subprocess.run(
            [sys.executable, "-m", "tests.tables.crash_at", str(kill_at), *sim, "--db", str(db)],
            cwd=REPO,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            timeout=HANG,
            env={**os.environ, "PYTHONPATH": str(REPO)},
        )
        # killed by its own N-th statement, not ended (100000 hands) nor failed
        assert killed.returncode == -signal.SIGKILL, killed.stderr
        assert _query(db, "SELECT COUNT(*) FROM tables") == tables_before + 1
        kills += 1
        mid_hand += _query(db, "SELECT COUNT(*) FROM hands WHERE status = 'running'")

        audit = _bot("db", "audit", "--db", str(db))
        assert audit.returncode == 0, audit.stdout + audit.stderr
        total = _circulation(db)
        resumed = _bot("sim", game, "--resume", "--hands", "0", "--db", str(db))
        assert resumed.returncode == 0, resumed.stdout + resumed.stderr
        assert "audit: OK" in resumed.stdout
        assert _circulation(db) == total
        assert _query(db, "SELECT COUNT(*) FROM hands WHERE status = 'running'") == 0
        assert _query(db, "SELECT COUNT(*) FROM tables WHERE status <> 'closed'") == 0
        assert _query(db, "SELECT COUNT(*) FROM accounts WHERE kind = 'pot' AND balance <> 0") == 0
    assert kills >= KILLS
    assert mid_hand >= KILLS // 2, f"only {mid_hand} kills landed in the middle of a hand"
