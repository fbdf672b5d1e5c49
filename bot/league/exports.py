"""Stored hands as files: PHH (as the store keeps them) and PokerStars' hand-history text
(:mod:`bot.league.pokerstars`), for ``/history`` and ``python -m bot export``.

Only the poker games have a PokerStars form (Hold'em, Omaha, Stud, Stud Hi-Lo, Razz);
Zoot and Wheelers keep their own history format.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from bot import games as registry
from bot.league.figures import GUTS_GAMES
from bot.league.hand_record import HandRecordError, read_hand
from bot.league.pokerstars import SEPARATOR, Context, to_pokerstars
from bot.store.stat_hands import HandRow

#: A table's seats when its history does not say (the engines' most players: 9 at the flop
#: games, 8 at the stud games).
FAMILY_SEATS = {"flop": 9, "stud": 8}
DEFAULT_MAX_SEATS = {
    g.key: FAMILY_SEATS[g.family] for g in registry.games() if g.family in FAMILY_SEATS
}


def table_name(table_id: int) -> str:
    return f"Home Game table {table_id}"


def context_of(row: HandRow, *, hero: int | None, everyone: bool) -> Context:
    """The PokerStars context of a stored hand; ``hero`` a user id (their cards shown)."""
    position = {seat: i for i, seat in enumerate(row.seats)}
    hero_pos = next(
        (position[s] for s, u in row.users.items() if u == hero and s in position), None
    )
    biggest = max(row.seats, default=0) + 1
    return Context(
        hand_no=row.hand_id,
        table=table_name(row.table_id),
        started_at=row.started_at,
        seats=tuple(s + 1 for s in row.seats),
        max_seats=max(row.max_players or DEFAULT_MAX_SEATS.get(row.game, 9), biggest),
        hero=hero_pos,
        everyone=everyone,
        awards=tuple(
            (pot, position[seat], chips) for pot, seat, chips, _ in row.awards if seat in position
        ),
    )


def pokerstars_of_row(
    row: HandRow, *, viewer: int | None = None, everyone: bool = False
) -> str | None:
    """The hand in PokerStars format, with the hole cards of ``viewer`` (a user id; all
    players' with ``everyone``); None for Zoot, Wheelers or an unreadable history."""
    if row.game in GUTS_GAMES or not row.seats:
        return None
    try:
        hand = read_hand(row.history)
        return to_pokerstars(hand, context_of(row, hero=viewer, everyone=everyone))
    except (HandRecordError, ValueError):
        return None


def phh_name(row: HandRow) -> str:
    ext = "toml" if row.game in GUTS_GAMES else "phh"
    return f"table-{row.table_id}-hand-{row.number}.{ext}"


def write_phh(rows: Iterable[HandRow], out: Path) -> int:
    """Each hand's history as its own file in ``out``; the number written."""
    out.mkdir(parents=True, exist_ok=True)
    count = 0
    for row in rows:
        (out / phh_name(row)).write_text(row.history, encoding="utf-8")
        count += 1
    return count


def write_pokerstars(rows: Iterable[HandRow], out: Path, *, hero: int | None = None) -> int:
    """The poker hands in PokerStars format, one file per table (``table-<id>.txt``, hands
    in order, separated as PokerStars separates them); everyone's hole cards unless
    ``hero`` (a user id) is given. The number of hands written."""
    out.mkdir(parents=True, exist_ok=True)
    by_table: dict[int, list[str]] = {}
    for row in rows:
        text = pokerstars_of_row(row, viewer=hero, everyone=hero is None)
        if text is not None:
            by_table.setdefault(row.table_id, []).append(text)
    for table_id, hands in by_table.items():
        body = SEPARATOR.join(hands) + SEPARATOR
        (out / f"table-{table_id}.txt").write_text(body, encoding="utf-8")
    return sum(len(h) for h in by_table.values())
