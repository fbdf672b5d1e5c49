"""A PokerNow ledger CSV (pure: no Discord, no SQLite), as ``/night import file:`` reads it.

The layout accepted is the one PokerNow's game page downloads as "Ledger" (Download
Ledger): UTF-8 (a byte-order mark is allowed), comma-separated, one header row with exactly
these eight columns in this order, then one row per session (a player who left and came
back has one row per sitting, under the same ``player_id``):

=================  ============================================================
column             what it holds
=================  ============================================================
player_nickname    the name the player used at the table (1-100 characters)
player_id          PokerNow's id of the player (stable across sessions)
session_start_at   ISO 8601 time the session began (``2026-11-28T19:02:11.123Z``)
session_end_at     ISO 8601 time it ended; empty while the player is still seated
buy_in             what the player bought in for in that session
buy_out            what they cashed out when they left; empty while still seated
stack              what is in front of them now (0 once they left)
net                ``buy_out + stack - buy_in``
=================  ============================================================

Amounts are numbers without currency signs: whole numbers, or with a decimal point
(``20.50``). PokerNow keeps them in the game's smallest unit: a game played "in cents"
(PokerNow's decimal chip values) writes $20.50 as ``2050``. ``units`` says how to read
them: ``chips`` (default: league chips, 1 to 1, whole numbers only), ``cents`` (hundredths
of the league's currency: ``2050`` is 20.50 and becomes chips at the league's chip value)
or ``money`` (the league's currency: ``20.50``). Each player is booked as one buy-in (the
sum of their sessions' ``buy_in``) and one cash-out (the sum of ``buy_out + stack``), so
their net is the file's. Any row that does not fit is refused in one line naming the row
(as a spreadsheet numbers it: the header is row 1) and the column; nothing is booked.
"""

from __future__ import annotations

import csv
import hashlib
import io
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal, InvalidOperation

from bot.engine.errors import HomeGameError
from bot.league.settle import ChipValue

COLUMNS: tuple[str, ...] = (
    "player_nickname",
    "player_id",
    "session_start_at",
    "session_end_at",
    "buy_in",
    "buy_out",
    "stack",
    "net",
)
UNITS: tuple[str, ...] = ("chips", "cents", "money")
MAX_BYTES = 1024 * 1024
"""The largest file read (a night's ledger is a few kilobytes)."""
MAX_ROWS = 1000
MAX_NAME = 100
MAX_ID = 64


class BadLedger(HomeGameError, ValueError):
    """A file that is not a PokerNow ledger as documented; one line, naming the row and
    column, ending in "Nothing changed."."""


@dataclass(frozen=True, slots=True)
class ImportedPlayer:
    key: str
    """PokerNow's player_id."""
    name: str
    buy_in: int
    """League chips bought in, all sessions."""
    cash_out: int
    """League chips taken out (buy_out + stack), all sessions."""
    sessions: int
    seated: bool
    """Still at the table when the file was downloaded (a session without an end)."""

    @property
    def net(self) -> int:
        return self.cash_out - self.buy_in

    def to_json(self) -> dict[str, object]:
        return {
            "key": self.key,
            "name": self.name,
            "buy_in": self.buy_in,
            "cash_out": self.cash_out,
            "sessions": self.sessions,
            "seated": self.seated,
        }

    @classmethod
    def from_json(cls, data: dict[str, object]) -> ImportedPlayer:
        return cls(
            key=str(data["key"]),
            name=str(data["name"]),
            buy_in=int(data["buy_in"]),  # type: ignore[call-overload]
            cash_out=int(data["cash_out"]),  # type: ignore[call-overload]
            sessions=int(data["sessions"]),  # type: ignore[call-overload]
            seated=bool(data["seated"]),
        )


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _bad(row: int, column: str | None, why: str) -> BadLedger:
    where = f"Row {row}" + (f", column `{column}`" if column else "")
    return BadLedger(f"{where}: {why}. Nothing changed.")


def _time(text: str, row: int, column: str, *, empty: bool) -> datetime | None:
    if not text:
        if empty:
            return None
        raise _bad(row, column, "empty, where PokerNow writes the time the session began")
    try:
        return datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise _bad(row, column, f"`{text[:40]}` is not an ISO 8601 time") from None


def _amount(text: str, row: int, column: str, *, empty: bool, signed: bool = False) -> Decimal:
    if not text:
        if empty:
            return Decimal(0)
        raise _bad(row, column, "empty, where PokerNow writes an amount")
    try:
        value = Decimal(text)
    except InvalidOperation:
        raise _bad(row, column, f"`{text[:40]}` is not a number") from None
    if not value.is_finite() or "e" in text.lower():
        raise _bad(row, column, f"`{text[:40]}` is not a number")
    if value < 0 and not signed:
        raise _bad(row, column, f"`{text}` is negative")
    return value


def _chips(amount: Decimal, units: str, value: ChipValue | None, row: int, column: str) -> int:
    if units == "chips":
        if amount != amount.to_integral_value():
            raise _bad(row, column, f"`{amount}` is not a whole number of chips (units: chips)")
        return int(amount)
    if value is None:
        raise BadLedger(
            f"Importing with units:{units} needs the league's chip value "
            "(`/league setup chip_value:`); import with units:chips instead. Nothing changed."
        )
    money = amount / 100 if units == "cents" else amount
    if units == "cents" and amount != amount.to_integral_value():
        raise _bad(row, column, f"`{amount}` is not a whole number of cents (units: cents)")
    chips = money / value.per_chip
    if chips != chips.to_integral_value():
        raise _bad(
            row,
            column,
            f"{money.normalize():f} {value.currency} is not a whole number of chips at "
            f"{value.describe()}",
        )
    return int(chips)


def parse_ledger(
    data: bytes, *, units: str = "chips", value: ChipValue | None = None
) -> list[ImportedPlayer]:
    """The players of a PokerNow ledger file, by first appearance; :class:`BadLedger` for
    a file that does not fit the documented layout."""
    if units not in UNITS:
        raise BadLedger(f"The units are one of {', '.join(UNITS)}, not `{units}`. Nothing changed.")
    if len(data) > MAX_BYTES:
        raise BadLedger(
            f"The file is {len(data):,} bytes; a ledger is at most {MAX_BYTES:,}. Nothing changed."
        )
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise BadLedger(
            f"The file is not UTF-8 text (byte {exc.start + 1}): is it the CSV PokerNow "
            "downloads as the ledger? Nothing changed."
        ) from None
    rows = list(csv.reader(io.StringIO(text, newline="")))
    if not rows or not any(cell.strip() for cell in rows[0]):
        raise BadLedger("The file is empty: no header row. Nothing changed.")
    header = [cell.strip() for cell in rows[0]]
    for i, expected in enumerate(COLUMNS):
        got = header[i] if i < len(header) else None
        if got != expected:
            found = "nothing" if got is None else f"`{got[:40]}`"
            raise _bad(
                1,
                None,
                f"column {i + 1} is {found} where a PokerNow ledger has `{expected}` (its "
                f"columns: {', '.join(COLUMNS)})",
            )
    if len(header) > len(COLUMNS):
        raise _bad(1, None, f"column {len(COLUMNS) + 1} `{header[len(COLUMNS)][:40]}` is extra")
    if len(rows) - 1 > MAX_ROWS:
        raise BadLedger(f"The file has more than {MAX_ROWS:,} rows. Nothing changed.")
    players: dict[str, ImportedPlayer] = {}
    for number, raw in enumerate(rows[1:], start=2):
        if not any(cell.strip() for cell in raw):
            continue  # a blank line (a spreadsheet's last one)
        if len(raw) != len(COLUMNS):
            raise _bad(number, None, f"{len(raw)} columns where the header has {len(COLUMNS)}")
        cells = dict(zip(COLUMNS, (c.strip() for c in raw), strict=True))
        name = cells["player_nickname"]
        if not name or len(name) > MAX_NAME:
            raise _bad(number, "player_nickname", f"a name is 1 to {MAX_NAME} characters")
        key = cells["player_id"]
        if not key or len(key) > MAX_ID:
            raise _bad(number, "player_id", f"an id is 1 to {MAX_ID} characters")
        start = _time(cells["session_start_at"], number, "session_start_at", empty=False)
        end = _time(cells["session_end_at"], number, "session_end_at", empty=True)
        if start is not None and end is not None and end < start:
            raise _bad(number, "session_end_at", "the session ends before it began")
        buy_in = _amount(cells["buy_in"], number, "buy_in", empty=False)
        buy_out = _amount(cells["buy_out"], number, "buy_out", empty=True)
        stack = _amount(cells["stack"], number, "stack", empty=True)
        net = _amount(cells["net"], number, "net", empty=False, signed=True)
        if buy_out + stack - buy_in != net:
            raise _bad(
                number,
                "net",
                f"`{cells['net']}`, but buy_out + stack - buy_in is {buy_out + stack - buy_in}",
            )
        chips_in = _chips(buy_in, units, value, number, "buy_in")
        chips_out = _chips(buy_out, units, value, number, "buy_out") + _chips(
            stack, units, value, number, "stack"
        )
        old = players.get(key)
        players[key] = ImportedPlayer(
            key=key,
            name=name,
            buy_in=chips_in + (old.buy_in if old else 0),
            cash_out=chips_out + (old.cash_out if old else 0),
            sessions=1 + (old.sessions if old else 0),
            seated=(end is None) or bool(old and old.seated),
        )
    if not players:
        raise BadLedger("The file has a header but no players. Nothing changed.")
    return list(players.values())
