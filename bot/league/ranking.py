"""Leaderboard ranking and pagination.

A leaderboard ranks :class:`~bot.store.stats.PlayerSummary` rows by one figure (``by``):
net result (balance minus chips received; with a game chosen, that game's hand results),
balance, hands played or biggest pot won. Equal figures share a rank (1, 2, 2, 4); within
a tie the richer player is listed first, then by user id, so the order is stable.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.engine.errors import InvalidConfig
from bot.store.stats import PlayerSummary

PAGE_SIZE = 10

BY_CHOICES: dict[str, str] = {
    "net": "net result",
    "balance": "balance",
    "hands": "hands played",
    "pot": "biggest pot",
}


@dataclass(frozen=True, slots=True)
class Ranked:
    rank: int
    user_id: int
    value: int
    summary: PlayerSummary


@dataclass(frozen=True, slots=True)
class Page:
    rows: tuple[Ranked, ...]
    number: int
    """0-based page shown (clamped into range)."""
    count: int
    """How many pages there are (at least 1)."""
    total: int

    @property
    def has_prev(self) -> bool:
        return self.number > 0

    @property
    def has_next(self) -> bool:
        return self.number + 1 < self.count


def figure(summary: PlayerSummary, by: str, *, game: str | None = None) -> int:
    """The figure ``summary`` is ranked by."""
    if by == "net":
        return summary.hand_net if game is not None else summary.net
    if by == "balance":
        return summary.balance
    if by == "hands":
        return summary.hands
    if by == "pot":
        return summary.biggest_pot
    raise InvalidConfig("by", f"one of {', '.join(BY_CHOICES)}, not {by!r}")


def rank(
    summaries: Sequence[PlayerSummary], by: str = "net", *, game: str | None = None
) -> list[Ranked]:
    """Rank by ``by`` (highest first), equal figures sharing a rank. With ``game``, only
    members who played that game are listed."""
    rows = [s for s in summaries if game is None or s.hands > 0]
    keyed = sorted(
        ((figure(s, by, game=game), s) for s in rows),
        key=lambda vs: (-vs[0], -vs[1].balance, vs[1].user_id),
    )
    out: list[Ranked] = []
    for i, (value, s) in enumerate(keyed):
        r = out[-1].rank if out and out[-1].value == value else i + 1
        out.append(Ranked(rank=r, user_id=s.user_id, value=value, summary=s))
    return out


def paginate(rows: Sequence[Ranked], page: int, size: int = PAGE_SIZE) -> Page:
    """Page ``page`` (0-based; clamped) of ``rows``, ``size`` per page."""
    if size < 1:
        raise InvalidConfig("size", f"a page holds at least one row, not {size}")
    count = max(1, -(-len(rows) // size))
    number = min(max(page, 0), count - 1)
    return Page(
        rows=tuple(rows[number * size : (number + 1) * size]),
        number=number,
        count=count,
        total=len(rows),
    )
