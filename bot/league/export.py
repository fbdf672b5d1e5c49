"""The ledger as CSV: one row per ledger entry, in id order.

Columns: ``id, time, from, to, amount, kind, table, hand, actor, reason, from_name, to_name,
actor_name, what``; ``time`` is ISO 8601 in UTC, accounts are ``house``, ``pot:<table>``,
``user:<id>`` or a tournament's (``pool:<id>``, ``bounties:<id>``; its tournament chips'
``chip_bank:<id>`` and ``stack:<id>:<user>``), empty cells for what an entry has not got.
``kind`` is the ledger's own word; ``what`` says it as ``/history`` does, for the game of
the entry's hand (a ``match`` is a matched pot at Zoot and Wheelers, a call at the betting
games: :func:`entry_words`).
The ``*_name`` columns name the members as they are now (given by the caller: their server
names when the export is made), beside the ids, which stay: a name changes, an id does not.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime

from bot import games as registry
from bot.store.stats import LedgerRow
from bot.store.tournaments import MOVEMENT_KINDS
from bot.tournament.movements import LEDGER_TEXT

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
    "from_name",
    "to_name",
    "actor_name",
    "what",
)

KIND_WORDS = {
    "start": "starting chips",
    "ante": "ante",
    "bring_in": "bring-in",
    "blind": "blind",
    "bet": "bet or raise",
    "match": "matched the pot",
    "award": "won",
    "refund": "refund",
    "void": "hand voided",
    "rebuy": "rebuy",
    "grant": "grant",
    "take": "correction",
    "season_end": "season ended",
    "settle": "settle-up payment (paid in money; not a result)",
    # a tournament's league chips, in its own words (bot/tournament/movements.py):
    # "tournament buy-in", "tournament rebuy", "tournament add-on", "prize", "bounty"
    **{ledger: LEDGER_TEXT[kind] for kind, ledger in MOVEMENT_KINDS.items()},  # type: ignore[index]
    # and its tournament chips (a stack's, never a wallet's)
    "tournament_chips": "tournament chips",
    "tournament_chips_back": "tournament chips back to the bank",
}
"""A ledger kind in words (at Zoot and Wheelers; :func:`entry_words` for the others)."""
GUTS_GAMES = frozenset(registry.keys(family="guts"))
BETTING_WORDS = {"match": "call"}
"""What a kind means at the betting games (Razz, Stud, Hold'em, Omaha), where it differs:
the engines book a call as a ``match`` of the bet (the chips move the same way)."""


def entry_words(kind: str, game: str | None = None) -> str:
    """A ledger entry's kind as a player reads it, at the game of its hand (``None``: no
    hand, or unknown).

    >>> entry_words("match", "zoot"), entry_words("match", "holdem"), entry_words("bet", "razz")
    ('matched the pot', 'call', 'bet or raise')
    """
    if game is not None and game not in GUTS_GAMES and kind in BETTING_WORDS:
        return BETTING_WORDS[kind]
    return KIND_WORDS.get(kind, kind.replace("_", " "))


def iso_time(unix: int) -> str:
    return datetime.fromtimestamp(unix, UTC).isoformat().replace("+00:00", "Z")


def _cell(value: int | str | None) -> str:
    return "" if value is None else str(value)


_FORMULA = ("=", "+", "-", "@", "\t", "\r")
"""What a spreadsheet reads as a formula at the start of a cell (a name is anyone's text)."""


def _text_cell(text: str) -> str:
    """A member's name as a cell: never a formula when the file is opened in a spreadsheet."""
    return "'" + text if text.startswith(_FORMULA) else text


def member_of(label: str) -> int | None:
    """The user id of an account label (``user:<id>``), None for the house or a pot.

    >>> member_of("user:42"), member_of("pot:3"), member_of("house")
    (42, None, None)
    """
    if label.startswith("user:") and label[5:].lstrip("-").isdigit():
        return int(label[5:])
    return None


def _name(label: str, names: Mapping[int, str]) -> str:
    user_id = member_of(label)
    if user_id is not None:
        return _text_cell(names.get(user_id, ""))
    if label.startswith("pot:"):
        return f"table #{label.removeprefix('pot:')} pot"
    if label.startswith("pool:"):
        return f"prize pool of tournament id {label.removeprefix('pool:')}"
    if label.startswith("bounties:"):
        return f"bounties of tournament id {label.removeprefix('bounties:')}"
    return label  # the house, a tournament's chip bank or a stack


def ledger_csv(
    rows: Iterable[LedgerRow],
    names: Mapping[int, str] | None = None,
    *,
    games: Mapping[int, str] | None = None,
) -> bytes:
    """UTF-8 CSV text (with a header row) of ``rows``; ``names``: user id -> the member's
    name now (a member missing from it gets an empty name cell); ``games``: each hand's
    game by id (the ``what`` column reads a row at its game)."""
    known: Mapping[int, str] = names or {}
    games = games or {}
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
                _name(r.from_name, known),
                _name(r.to_name, known),
                "" if r.actor_id is None else _text_cell(known.get(r.actor_id, "")),
                entry_words(r.kind, None if r.hand_id is None else games.get(r.hand_id)),
            ]
        )
    return buf.getvalue().encode("utf-8")
