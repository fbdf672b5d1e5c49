"""League points for a tournament finish, and the season standings they make.

Points are kept in **hundredths** (an ``int``: 1234 is 12.34 points), rounded half up to
the hundredth once per finish, so a standing is an exact sum. ``/league setup points:``
chooses the formula:

``pokerstars``
    PokerStars Home Games' club points, as PokerStars publishes the formula for its Home
    Games club leaderboards:
    ``points = 10 × sqrt(n) / sqrt(k) × (1 + log10(b + 0.25))`` with *n* the number of
    entrants, *k* the finishing place and *b* the buy-in (without any fee) in the club's
    currency -- here the buy-in in league chips times the league's chip value, or the
    buy-in in chips when no chip value is set. Every finisher scores; a winner of 10 entries
    at a buy-in of 10 scores 10 × 3.1623 × 2.0107 = 63.58, a free roll's multiplier is
    1 + log10(0.25) = 0.398.
``fixed``
    A fixed table by place, 10 7 5 4 3 2 1 by default (configurable); other places 0.
``prize``
    "Prize money": the prize won in league chips (bounties not counted).

Only a tournament of at least :data:`MIN_PLAYERS` (4) players scores points, whatever the
formula: PokerStars Home Games counts only tournaments with at least four players toward a
club's standings (https://www.pokerstars.com/help/articles/hg-standings-statistics/214840/);
the formula itself is PokerStars' leader-board one
(https://www.pokerstars.com/poker/tournaments/leader-board/explained/). A smaller one is
still played, paid and listed in ``/tournament show``; its finishers score nothing.

A **shared place** (3rd-4th) scores the average of the places it covers. A player with
several entries (re-entries) scores once, by their best finish, with *n* counting every
entry. **Standings** add each player's points over the season; with ``points_best_of: N``
only each player's N best results count. Equal totals share a rank (1, 2, 2, 4), listed by
the better best result, then the earlier player id.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Final, Literal

from bot.tournament.places import Finish

PointsFormula = Literal["pokerstars", "fixed", "prize"]
POINTS_FORMULAS: Final[tuple[PointsFormula, ...]] = ("pokerstars", "fixed", "prize")
DEFAULT_FIXED: Final[tuple[int, ...]] = (10, 7, 5, 4, 3, 2, 1)
MIN_PLAYERS: Final = 4
"""The fewest players a tournament needs to score points (PokerStars Home Games' rule)."""


def scores_points(players: int) -> bool:
    """Whether a tournament of ``players`` players (people, not entries) scores points.

    >>> scores_points(3), scores_points(4)
    (False, True)
    """
    return players >= MIN_PLAYERS


def hundredths(value: float | Fraction) -> int:
    """``value`` in hundredths, rounded half up.

    >>> hundredths(63.5849), hundredths(Fraction(1, 8)), hundredths(2.675)
    (6358, 13, 268)
    """
    exact = (
        Decimal(value.numerator) / Decimal(value.denominator)
        if isinstance(value, Fraction)
        else Decimal(repr(value))
    )
    return int((exact * 100).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def show(points: int) -> str:
    """Points as people read them: ``63.58``.

    >>> show(6358), show(700), show(5)
    ('63.58', '7.00', '0.05')
    """
    return f"{points // 100}.{points % 100:02d}"


def pokerstars_points(entries: int, place: int, buy_in: float | Fraction) -> float:
    """PokerStars Home Games' points of place ``place`` among ``entries`` at ``buy_in``
    (in the currency), unrounded.

    >>> round(pokerstars_points(10, 1, 10), 4), round(pokerstars_points(10, 10, 0), 4)
    (63.5847, 3.9794)
    """
    if not 1 <= place <= entries or buy_in < 0:
        raise ValueError("a place is 1 to the entries, a buy-in never negative")
    return 10 * math.sqrt(entries) / math.sqrt(place) * (1 + math.log10(float(buy_in) + 0.25))


def finish_points(
    formula: PointsFormula,
    finish: Finish,
    *,
    entries: int,
    buy_in: float | Fraction = 0,
    prize: int = 0,
    table: Sequence[int] = DEFAULT_FIXED,
) -> int:
    """The points (hundredths) of one finish; a shared place scores the average of its
    places.

    >>> finish_points("pokerstars", Finish(1, 1), entries=10, buy_in=10)
    6358
    >>> finish_points("fixed", Finish(1, 3, 2), entries=10)  # 3rd-4th: (5 + 4) / 2
    450
    >>> finish_points("prize", Finish(1, 2), entries=10, prize=300)
    30000
    """
    places = range(finish.place, finish.last_place + 1)
    if formula == "prize":
        return prize * 100
    if formula == "fixed":
        total = sum(table[k - 1] if k <= len(table) else 0 for k in places)
        return hundredths(Fraction(total, finish.shared))
    mean = sum(pokerstars_points(entries, k, buy_in) for k in places) / finish.shared
    return hundredths(mean)


@dataclass(frozen=True)
class Result:
    """One player's result in one tournament: ``points`` in hundredths, ``place`` their best
    finish."""

    player: int
    tournament: int
    points: int
    place: int


@dataclass(frozen=True)
class Standing:
    """A row of the season standings: ``points`` (hundredths) are the sum of the ``counted``
    results out of ``played``."""

    rank: int
    player: int
    points: int
    played: int
    counted: int
    best_place: int


def standings(results: Iterable[Result], *, best_of: int | None = None) -> tuple[Standing, ...]:
    """The season standings of ``results``, best first; with ``best_of`` N, only each
    player's N best results count.

    >>> rs = [Result(1, 1, 1000, 1), Result(2, 1, 700, 2), Result(1, 2, 300, 4),
    ...       Result(2, 2, 1000, 1), Result(1, 3, 100, 6), Result(3, 3, 1300, 1)]
    >>> [(s.rank, s.player, s.points) for s in standings(rs)]
    [(1, 2, 1700), (2, 1, 1400), (3, 3, 1300)]
    >>> [(s.rank, s.player, s.points, s.counted) for s in standings(rs, best_of=1)]
    [(1, 3, 1300, 1), (2, 1, 1000, 1), (2, 2, 1000, 1)]
    """
    if best_of is not None and best_of < 1:
        raise ValueError("points_best_of counts at least one result")
    by_player: dict[int, list[Result]] = {}
    for r in results:
        by_player.setdefault(r.player, []).append(r)
    rows: list[tuple[int, int, int, int, int]] = []
    for player, own in by_player.items():
        ranked = sorted(own, key=lambda r: -r.points)
        counted = ranked if best_of is None else ranked[:best_of]
        best_place = min(r.place for r in own)
        rows.append((sum(r.points for r in counted), best_place, player, len(own), len(counted)))
    rows.sort(key=lambda row: (-row[0], row[1], row[2]))
    out: list[Standing] = []
    for i, (points, best_place, player, played, counted_n) in enumerate(rows):
        rank = out[-1].rank if out and out[-1].points == points else i + 1
        out.append(Standing(rank, player, points, played, counted_n, best_place))
    return tuple(out)
