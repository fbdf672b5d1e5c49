"""Leaderboard ranking and pagination.

A leaderboard ranks :class:`~bot.store.stats.PlayerSummary` rows by one chip figure
(``by``): net result (balance minus chips received; with a game chosen, that game's hand
results), balance, hands played or biggest pot won; or members' statistics
(:class:`~bot.league.figures.Tally`) by one of :data:`~bot.league.glossary.FIGURES`, among
those with at least ``min_hands`` hands it is measured over. Equal figures share a rank
(1, 2, 2, 4); within a tie the richer player (for a statistic: the one with more hands) is
listed first, then by user id, so the order is stable.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from bot.engine.errors import InvalidConfig
from bot.league.figures import Tally
from bot.league.glossary import FIGURES
from bot.store.stats import PlayerSummary

PAGE_SIZE = 10
DEFAULT_MIN_HANDS = 20
"""Hands a member needs to be ranked by a statistic when ``min_hands`` is not given (the
chip figures rank everyone)."""

CHIP_CHOICES: dict[str, str] = {
    "net": "net result",
    "balance": "balance",
    "hands": "hands played",
    "pot": "biggest pot",
}
POINTS_CHOICE: dict[str, str] = {"points": "league points"}
"""Ranked by the season's tournament points (``/league setup points:``, bot/tournament)."""
BY_CHOICES: dict[str, str] = {
    **CHIP_CHOICES,
    **POINTS_CHOICE,
    **{k: f.title for k, f in FIGURES.items()},
}
"""Every ``by:`` a leaderboard takes (Discord allows 25 choices)."""


@dataclass(frozen=True, slots=True)
class Ranked:
    rank: int
    user_id: int
    value: int
    summary: PlayerSummary


@dataclass(frozen=True, slots=True)
class RankedFigure:
    rank: int
    user_id: int
    value: float
    tally: Tally


R = TypeVar("R", Ranked, RankedFigure)


@dataclass(frozen=True, slots=True)
class Page(Generic[R]):
    rows: tuple[R, ...]
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
    raise InvalidConfig("by", f"one of {', '.join(CHIP_CHOICES)}, not {by!r}")


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


def min_hands_for(by: str, min_hands: int | None) -> int:
    """The hands a member needs to be listed: ``min_hands`` when given, else
    :data:`DEFAULT_MIN_HANDS` for a statistic and none for a chip figure."""
    if min_hands is not None:
        return min_hands
    return DEFAULT_MIN_HANDS if by in FIGURES else 0


def rank_figure(tallies: Mapping[int, Tally], by: str, *, min_hands: int) -> list[RankedFigure]:
    """Members ranked by the statistic ``by`` (highest first), those with fewer than
    ``min_hands`` hands it is measured over (at least one) or no value left out."""
    figure = FIGURES.get(by)
    if figure is None:
        raise InvalidConfig("by", f"one of {', '.join(FIGURES)}, not {by!r}")
    rows = []
    for user_id, tally in tallies.items():
        value = figure.value(tally)
        if value is not None and figure.count(tally) >= max(min_hands, 1):
            rows.append((value, -figure.count(tally), user_id, tally))
    rows.sort(key=lambda r: (-r[0], r[1], r[2]))
    out: list[RankedFigure] = []
    for i, (value, _, user_id, tally) in enumerate(rows):
        r = out[-1].rank if out and out[-1].value == value else i + 1
        out.append(RankedFigure(rank=r, user_id=user_id, value=value, tally=tally))
    return out


def paginate(rows: Sequence[R], page: int, size: int = PAGE_SIZE) -> Page[R]:
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
