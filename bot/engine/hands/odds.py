"""Odds for the computer players (``bot/engine/*/policy.py``): how a starting hand ranks
among all starting hands, and a hand's equity (its expected share of the pot) against
opponents holding random cards.

Cheap by design, so a simulation of thousands of hands stays fast: a starting hand's
percentile is one bisection in a table built once per game from a score (every two-card
Hold'em hand, every three-card stud hand, a fixed sample of Omaha hands); equity is a few
dozen Monte-Carlo deals scored with the project's own evaluators. Every random number comes
from the injected ``rng`` (a fixed seed builds the sampled tables), so a policy's choice
is a function of the hand and that rng.
"""

from __future__ import annotations

import random
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Sequence
from typing import Final, Literal

from bot.engine.cards import CARDS, Card
from bot.engine.hands.high import high_score, omaha_high_score
from bot.engine.hands.low import low_score
from bot.engine.hands.low8 import low8_score, omaha_low8_score

#: The seed of the sampled percentile tables (a constant: the same table in every run).
TABLE_SEED: Final = 20240518

StudParts = Literal["high", "low", "hi-lo"]


class Percentiles:
    """Where a score stands among the scores of every starting hand of a game.

    ``share(score)`` is the share of starting hands it beats, ties counted half: 0.0 the
    worst hand, close to 1.0 the best. The table is built on first use.

    >>> table = Percentiles(lambda: [1, 2, 2, 3])
    >>> table.share(3), table.share(2), table.share(0)
    (0.875, 0.5, 0.0)
    """

    __slots__ = ("_build", "_sorted")

    def __init__(self, build: Callable[[], Iterable[float]]) -> None:
        self._build = build
        self._sorted: list[float] | None = None

    def share(self, score: float) -> float:
        table = self._sorted
        if table is None:
            table = self._sorted = sorted(self._build())
        below = bisect_left(table, score)
        equal = bisect_right(table, score, lo=below) - below
        return (below + equal / 2) / len(table)


def sampled_hands(size: int, count: int) -> list[tuple[Card, ...]]:
    """``count`` random ``size``-card hands from a fixed seed (for a sampled table)."""
    rng = random.Random(TABLE_SEED)
    return [tuple(rng.sample(CARDS, size)) for _ in range(count)]


def _draw(rest: list[Card], k: int, rand: Callable[[], float]) -> None:
    """Put a uniform random sample of ``k`` of ``rest`` in its first ``k`` places (partial
    Fisher-Yates; any order of ``rest`` will do, so one list serves every deal)."""
    n = len(rest)
    for i in range(k):
        j = i + int(rand() * (n - i))
        rest[i], rest[j] = rest[j], rest[i]


def _share(highs: list[int], lows: list[int | None] | None) -> float:
    """The first player's share of one pot: high only (``lows`` None), or halved with the
    best eight-or-better low when anyone has one (the whole pot to high when nobody does)."""
    top = max(highs)
    high = 1.0 / highs.count(top) if highs[0] == top else 0.0
    if lows is None:
        return high
    qualified = [x for x in lows if x is not None]
    if not qualified:
        return high
    best = max(qualified)
    low = 1.0 / lows.count(best) if lows[0] == best else 0.0
    return (high + low) / 2


#: Random holdings scored for the opponents' ranges (the strongest ones make a range):
#: enough for about a dozen in the narrowest range, within these bounds.
RANGE_POOL: Final = (40, 120)


def flop_equity(
    hole: Sequence[Card],
    board: Sequence[Card],
    opponents: int,
    rng: random.Random,
    *,
    omaha: bool = False,
    hi_lo: bool = False,
    trials: int = 60,
    ranges: Sequence[float] = (),
) -> float:
    """Hold'em or Omaha: the expected share of the pot of ``hole`` on ``board`` (0 to 5
    cards) against ``opponents`` hands, the rest of the board dealt at random.

    ``ranges`` (one per opponent, default 1.0 each): the share of all holdings, the
    strongest on this board now, that an opponent is taken to hold: 1.0 any cards, 0.3 a
    hand among the best 30 % (with three board cards or more; in hi-lo the best for high,
    and half as many of the best for low). Who bets and calls holds better than random
    cards. A range is drawn from random holdings scored once (:data:`RANGE_POOL`).

    >>> from bot.engine.cards import parse_cards
    >>> flop_equity(parse_cards("As Ks"), parse_cards("Qs Js Ts"), 3, random.Random(1))
    1.0
    >>> board, rng = parse_cards("Qh 7d 2c"), random.Random(3)
    >>> any_hand = flop_equity(parse_cards("Jc Jd"), board, 1, rng, trials=400)
    >>> strong = flop_equity(parse_cards("Jc Jd"), board, 1, rng, trials=400, ranges=[0.2])
    >>> any_hand > 0.7 > strong
    True
    """
    hole, board = list(hole), list(board)
    known = set(hole) | set(board)
    rest = [c for c in CARDS if c not in known]
    size = len(hole)
    to_come = 5 - len(board)
    opponents = max(0, min(opponents, (len(rest) - to_come) // size))
    rand = rng.random
    n_rest = len(rest)
    pools = _range_pools(hole, board, opponents, ranges, rest, rng, omaha=omaha, hi_lo=hi_lo)
    total = 0.0
    for _ in range(trials):
        taken: set[Card] = set()
        hands = [hole]
        for pool in pools:
            cards: list[Card] | None = None
            if pool:
                for _ in range(8):
                    pick = pool[int(rand() * len(pool))]
                    if taken.isdisjoint(pick):
                        cards = pick
                        break
            if cards is None:  # any cards (or a range crowded out by the others')
                cards = []
                while len(cards) < size:
                    c = rest[int(rand() * n_rest)]
                    if c not in taken:
                        taken.add(c)
                        cards.append(c)
            else:
                taken.update(cards)
            hands.append(cards)
        full = board[:]
        while len(full) < 5:
            c = rest[int(rand() * n_rest)]
            if c not in taken:
                taken.add(c)
                full.append(c)
        if omaha:
            highs = [omaha_high_score(h, full) for h in hands]
            lows = [omaha_low8_score(h, full) for h in hands] if hi_lo else None
        else:
            highs = [high_score(h + full) for h in hands]
            lows = None
        total += _share(highs, lows)
    return total / trials


def _range_pools(
    hole: list[Card],
    board: list[Card],
    opponents: int,
    ranges: Sequence[float],
    rest: list[Card],
    rng: random.Random,
    *,
    omaha: bool,
    hi_lo: bool,
) -> list[list[list[Card]]]:
    """Each opponent's range as holdings to draw from ([] for any cards): the strongest
    of some random holdings (:data:`RANGE_POOL`; for high, and in hi-lo also for
    low) now."""
    narrow = [ranges[i] if i < len(ranges) else 1.0 for i in range(opponents)]
    if len(board) < 3 or all(r >= 1 for r in narrow):
        return [[] for _ in range(opponents)]
    size = len(hole)
    rand = rng.random
    least, most = RANGE_POOL
    count = max(least, min(most, int(12 / max(0.01, min(narrow)))))
    scored: list[tuple[int, int, list[Card]]] = []
    for _ in range(count):
        _draw(rest, size, rand)
        cards = rest[:size]
        if omaha:
            high = omaha_high_score(cards, board)
            found = omaha_low8_score(cards, board) if hi_lo else None
        else:
            high, found = high_score(cards + board), None
        scored.append((high, -1 if found is None else found, cards))
    by_high = sorted(scored, key=lambda t: t[0], reverse=True)
    by_low = sorted((t for t in scored if t[1] >= 0), key=lambda t: t[1], reverse=True)
    pools: list[list[list[Card]]] = []
    for r in narrow:
        if r >= 1:
            pools.append([])
            continue
        k = max(3, round(r * count))
        pool = [t[2] for t in by_high[:k]]
        if hi_lo:
            pool += [t[2] for t in by_low[: k // 2]]
        pools.append(pool)
    return pools


def stud_equity(
    mine: Sequence[Card],
    others: Sequence[Sequence[Card]],
    dead: Iterable[Card],
    rng: random.Random,
    *,
    parts: StudParts,
    trials: int = 50,
) -> float:
    """A stud game: the expected share of the pot of ``mine`` (every card I hold, down and
    up) against opponents of whom ``others`` are the cards seen (their up cards), each dealt
    random cards up to seven, as I am; ``dead`` are the other cards seen (folded hands' up
    cards, a community card counted in every hand). ``parts``: "high" (Stud), "low" (Razz,
    ace-to-five) or "hi-lo" (Stud Hi-Lo, eight or better).

    When the deck cannot give every opponent seven cards (eight players), only as many are
    dealt as it can, and the share is scaled to the others as if they were alike.

    >>> from bot.engine.cards import parse_cards
    >>> quads = parse_cards("As Ah Ad Ac Kd")
    >>> stud_equity(quads, [parse_cards("2c 7d 9h")], (), random.Random(2), parts="high")
    1.0
    """
    mine = list(mine)
    seen = set(mine) | {c for hand in others for c in hand} | set(dead)
    rest = [c for c in CARDS if c not in seen]
    mine_need = max(0, 7 - len(mine))
    dealt: list[list[Card]] = []
    need = mine_need
    for hand in others:
        k = max(0, 7 - len(hand))
        if need + k > len(rest):
            break
        dealt.append(list(hand))
        need += k
    if mine_need > len(rest):
        return 0.5  # cannot happen with a real deck; an even guess keeps the policy going
    rand = rng.random
    total = 0.0
    for _ in range(trials):
        _draw(rest, need, rand)
        at = mine_need
        hands = [mine + rest[:mine_need]]
        for hand in dealt:
            k = 7 - len(hand)
            hands.append(hand + rest[at : at + k])
            at += k
        if parts == "low":
            total += _share([low_score(h) for h in hands], None)
        elif parts == "high":
            total += _share([high_score(h) for h in hands], None)
        else:
            total += _share([high_score(h) for h in hands], [low8_score(h) for h in hands])
    share = total / trials
    missing = len(others) - len(dealt)
    if missing and dealt:
        # the opponents not dealt are like those dealt: the share against each compounds
        share **= (len(dealt) + missing) / len(dealt)
    return share
