"""What a database file holds, in one line: its path, schema version, members and hands.

``python -m bot run`` logs it at start-up (a mistyped ``database.path`` shows at once as a
new, empty file) and ``python -m bot health`` prints the same figures. :data:`SUMMARY_SQL`
is the one query both run (the bot on its own connection, the health check read-only).
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path

SUMMARY_SQL = (
    "SELECT (SELECT COUNT(*) FROM leagues) AS leagues,"
    " (SELECT COUNT(DISTINCT user_id) FROM accounts"
    "  WHERE kind = 'player' AND user_id > 0) AS members,"
    " (SELECT COUNT(*) FROM hands) AS hands"
)
"""Leagues, members (anyone who ever had a wallet; computer players are not members) and
hands (every hand dealt and kept, finished or voided)."""


@dataclass(frozen=True, slots=True)
class DatabaseSummary:
    path: Path
    schema_version: int
    leagues: int
    members: int
    hands: int
    created: bool = False
    """The file did not exist: this start created it (empty)."""

    def figures(self) -> str:
        """``/data/homegame.db, schema 8, 12 members, 3,456 hands``"""
        return (
            f"{self.path}, schema {self.schema_version}, {self.members:,} "
            f"member{'s' if self.members != 1 else ''}, {self.hands:,} "
            f"hand{'s' if self.hands != 1 else ''}"
        )

    def line(self) -> str:
        """The start-up line (``database /data/homegame.db, schema 8, …``)."""
        new = " (a new, empty file: check database.path if you expected a league)"
        return f"database {self.figures()}" + (new if self.created else "")


def summarize(
    conn: sqlite3.Connection, path: Path, version: int, *, created: bool = False
) -> DatabaseSummary:
    """The summary of the open database ``conn`` (a plain sqlite3 connection)."""
    leagues, members, hands = conn.execute(SUMMARY_SQL).fetchone()
    return DatabaseSummary(
        path=path.absolute(),
        schema_version=version,
        leagues=int(leagues),
        members=int(members),
        hands=int(hands),
        created=created,
    )
