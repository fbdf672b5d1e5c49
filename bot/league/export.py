"""The ledger as CSV: one row per ledger entry, in id order.

Columns: ``id, time, from, to, amount, kind, table, hand, actor, reason``; ``time`` is ISO
8601 in UTC, accounts are ``house``, ``pot:<table>`` or ``user:<id>``, empty cells for
what an entry has not got.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from datetime import UTC, datetime

from bot.store.stats import LedgerRow

COLUMNS: tuple[str, ...] = (
    "id",
    "time",
    "from",
    "to",
    "amount",
    "kind",
    "table",
    "hand",
    "actor",
    "reason",
)


def iso_time(unix: int) -> str:
    return datetime.fromtimestamp(unix, UTC).isoformat().replace("+00:00", "Z")


def _cell(value: int | str | None) -> str:
    return "" if value is None else str(value)


def ledger_csv(rows: Iterable[LedgerRow]) -> bytes:
    """UTF-8 CSV text (with a header row) of ``rows``."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(COLUMNS)
    for r in rows:
        writer.writerow(
            [
                r.id,
                iso_time(r.created_at),
                r.from_name,
                r.to_name,
                r.amount,
                r.kind,
                _cell(r.table_id),
                _cell(r.hand_id),
                _cell(r.actor_id),
                _cell(r.reason),
            ]
        )
    return buf.getvalue().encode("utf-8")
