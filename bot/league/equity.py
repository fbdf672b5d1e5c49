"""All-in equity: what each player could expect from the pots when the betting ended with
cards still to come, by enumeration of every runout (or, where there are too many, by a
seeded sample large enough to be stable to half a chip).

A :class:`Runout` is the situation at that moment: each contestant's known cards, the board
so far (Hold'em, Omaha), the cards known to be out of the deck (stud up cards of folded
players), and the pots with who may win each. :func:`expected_chips` returns each
contestant's expected chips from the pots (a :class:`~fractions.Fraction` when exact).

How (glossary, rules §11 (/rules glossary)):

- **Hold'em and Omaha, one or two cards to come**: every board (at most 1,128).
- **Hold'em and Omaha, five to come** (all-in before the flop): exactly, over all
  C(48, 5) = 1,712,304 boards, by classes of boards on which every hand ranks alike. With
  at most two cards of any suit a board makes no flush for anyone (Hold'em needs three of
  the suit on the board, Omaha three), so its outcome depends only on its ranks: one board
  per rank multiset is evaluated (about 6,000), weighted by how many boards have those
  ranks. A board with three or more of one suit (at most one suit can) is one of the
  classes (suit, its ranks of that suit, the ranks of the other cards); the flush it may
  give is evaluated for the players holding enough of that suit, and the class's weight
  moves from its rank multiset's outcome to its own.
- **Stud and Razz**: every deal of the missing cards when there are at most
  :data:`EXACT_LIMIT`; otherwise a sample, seeded by the hand's cards (the same hand gives
  the same figure on every machine), drawn until each player's standard error is at most
  :data:`TARGET_ERROR` chips, or :data:`MAX_SAMPLES` runouts.

Pots are shared as the hand's rules share them: the best high hand(s) among those
eligible; in a hi-lo game half to the best eight-or-better low(s) when one qualifies.
Odd chips are not rounded (an expectation is a fraction).

>>> from bot.engine.cards import parse_cards
>>> spot = Runout("holdem", cards=(tuple(parse_cards("As Ah")), tuple(parse_cards("Kd Kc"))),
...               board=tuple(parse_cards("Ad Kh 2c 7s")), pots=(Pot(200, (0, 1)),))
>>> [float(x) for x in expected_chips(spot).expected]  # only the last king saves Kd Kc
[195.45454545454547, 4.545454545454546]
"""

from __future__ import annotations

import hashlib
import math
import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations, combinations_with_replacement

from bot import games as registry
from bot.engine.hands import high_score, low8_score, low_score, omaha_high_score
from bot.engine.hands.low8 import omaha_low8_score

GAMES = (*registry.keys(family="flop"), *registry.keys(family="stud"))
EXACT_LIMIT = 60_000
"""Stud and Razz: runouts enumerated one by one up to this many (6th street heads-up is
1,560; 5th street heads-up already ~670,000)."""
TARGET_ERROR = 0.5
"""Sampling stops when every player's standard error is at most this many chips."""
MAX_SAMPLES = 120_000
BATCH = 4_000
UNIT = 5040
"""Shares are counted in 1/5040 of a pot: 2 x lcm(1..10), so halves split between up to
ten players stay whole numbers."""

Hand = tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Pot:
    amount: int
    eligible: tuple[int, ...]
    """Indexes into :attr:`Runout.cards` of the players who may win it."""


@dataclass(frozen=True, slots=True)
class Runout:
    game: str
    """``holdem``, ``omaha``, ``stud`` or ``razz``."""
    cards: tuple[Hand, ...]
    """Each contestant's known cards: hole cards (flop games) or all cards so far (stud)."""
    pots: tuple[Pot, ...]
    board: Hand = ()
    dead: Hand = ()
    """Cards known to be out of the deck (the up cards of stud players who folded)."""
    hi_lo: bool = False

    def __post_init__(self) -> None:
        if self.game not in GAMES:
            raise ValueError(f"unknown game {self.game!r}")
        if not 2 <= len(self.cards) <= 10:
            raise ValueError("a runout has 2 to 10 contestants")
        known = [*self.board, *self.dead, *(c for h in self.cards for c in h)]
        if len(set(known)) != len(known) or not all(0 <= c < 52 for c in known):
            raise ValueError("cards must be distinct, 0..51")
        for pot in self.pots:
            if not pot.eligible or not all(0 <= i < len(self.cards) for i in pot.eligible):
                raise ValueError("a pot needs eligible contestants")

    @property
    def flop_game(self) -> bool:
        return registry.family_of(self.game) == "flop"

    def deck(self) -> list[int]:
        known = {*self.board, *self.dead, *(c for h in self.cards for c in h)}
        return [c for c in range(52) if c not in known]

    def to_come(self) -> int:
        """Cards still to come: board cards (flop games) or cards per player (stud)."""
        if self.flop_game:
            return 5 - len(self.board)
        return 7 - len(self.cards[0])


@dataclass(frozen=True, slots=True)
class Equity:
    expected: tuple[Fraction, ...]
    """Each contestant's expected chips from the pots."""
    method: str
    """``exact`` or ``sampled``."""
    runouts: int
    """Runouts counted (boards, deals) or sampled."""
    error: float = 0.0
    """The largest standard error of a player's expectation, in chips (0 when exact)."""


# ----------------------------------------------------------------------------- scoring

Scores = tuple[tuple[int, ...], tuple[int | None, ...] | None]


def _scorer(spot: Runout) -> Callable[[Sequence[Hand], Hand], Scores]:
    """(high scores, low scores or None) of every contestant's final hand."""
    game, hi_lo = spot.game, spot.hi_lo
    if game == "holdem":

        def holdem(hands: Sequence[Hand], board: Hand) -> Scores:
            return tuple(high_score((*h, *board)) for h in hands), None

        return holdem
    if game == "omaha":

        def omaha(hands: Sequence[Hand], board: Hand) -> Scores:
            high = tuple(omaha_high_score(h, board) for h in hands)
            if not hi_lo:
                return high, None
            return high, tuple(omaha_low8_score(h, board) for h in hands)

        return omaha
    if game == "razz":

        def razz(hands: Sequence[Hand], board: Hand) -> Scores:
            return tuple(low_score(h) for h in hands), None

        return razz

    def stud(hands: Sequence[Hand], board: Hand) -> Scores:
        high = tuple(high_score(h) for h in hands)
        if not hi_lo:
            return high, None
        return high, tuple(low8_score(h) for h in hands)

    return stud


def _shares(pots: Sequence[Pot], n: int) -> Callable[[Scores], tuple[int, ...]]:
    """Scores -> each contestant's chips from the pots, in 1/UNIT chips (memoised: many
    runouts end alike)."""
    memo: dict[Scores, tuple[int, ...]] = {}

    def share(scores: Scores) -> tuple[int, ...]:
        hit = memo.get(scores)
        if hit is not None:
            return hit
        high, low = scores
        out = [0] * n
        for pot in pots:
            top = max(high[i] for i in pot.eligible)
            winners = [i for i in pot.eligible if high[i] == top]
            lows: list[int] = []
            if low is not None:
                best_low = max((s for i in pot.eligible if (s := low[i]) is not None), default=None)
                if best_low is not None:
                    lows = [i for i in pot.eligible if low[i] == best_low]
            if lows:
                for i in winners:
                    out[i] += pot.amount * (UNIT // 2) // len(winners)
                for i in lows:
                    out[i] += pot.amount * (UNIT // 2) // len(lows)
            else:
                for i in winners:
                    out[i] += pot.amount * UNIT // len(winners)
        result = tuple(out)
        memo[scores] = result
        return result

    return share


def _exact(total: list[int], weight: int, method: str, runouts: int) -> Equity:
    return Equity(
        expected=tuple(Fraction(t, UNIT * weight) for t in total), method=method, runouts=runouts
    )


# ----------------------------------------------------------------------------- flop games


def _boards_one_by_one(spot: Runout) -> Equity:
    score, n = _scorer(spot), len(spot.cards)
    share = _shares(spot.pots, n)
    total = [0] * n
    count = 0
    for extra in combinations(spot.deck(), spot.to_come()):
        got = share(score(spot.cards, (*spot.board, *extra)))
        for i in range(n):
            total[i] += got[i]
        count += 1
    return _exact(total, count, "exact", count)


def _flush_scorer(spot: Runout) -> Callable[[Hand, Hand], int]:
    """(a player's hole cards of one suit, the board's cards of that suit) -> the score of
    the best flush they make (0 if none)."""
    if spot.game == "holdem":

        def holdem(held: Hand, board: Hand) -> int:
            return high_score((*held, *board)) if len(held) + len(board) >= 5 else 0

        return holdem

    def omaha(held: Hand, board: Hand) -> int:
        return max(
            (
                high_score((*two, *three))
                for two in combinations(held, 2)
                for three in combinations(board, 3)
            ),
            default=0,
        )

    return omaha


def _suited_needed(spot: Runout, k: int) -> int:
    """Hole cards of one suit a player needs to make a flush with ``k`` board cards of it."""
    return 5 - k if spot.game == "holdem" else 2


def _boards_by_class(spot: Runout) -> Equity:
    """All C(deck, 5) boards from an empty board, by classes (module docstring)."""
    score, n = _scorer(spot), len(spot.cards)
    share = _shares(spot.pots, n)
    deck = set(spot.deck())
    avail = [sum(1 for s in range(4) if r * 4 + s in deck) for r in range(13)]
    total = [0] * n
    weight_sum = 0
    # (a) every rank multiset, on a board with no three cards of a suit; its ranks' weight
    rank_scores: dict[Hand, Scores] = {}
    for ranks in combinations_with_replacement(range(13), 5):
        counts = Counter(ranks)
        weight = 1
        for r, c in counts.items():
            weight *= math.comb(avail[r], c)
        if weight == 0:
            continue
        # suits in turn (0,1,2,3,0): equal ranks differ, no suit holds three
        board = tuple(r * 4 + i % 4 for i, r in enumerate(ranks))
        scores = score(spot.cards, board)
        rank_scores[ranks] = scores
        got = share(scores)
        for i in range(n):
            total[i] += weight * got[i]
        weight_sum += weight
    # (b) boards with k >= 3 cards of one suit: their class replaces its ranks' outcome.
    # Only that suit can make a flush, and only from those k board ranks: a player's high
    # hand is the better of its rank outcome and its best flush (the flush is scored once
    # per set of k ranks, for the players holding enough of the suit).
    flush_of = _flush_scorer(spot)
    rests = {k: list(combinations_with_replacement(range(13), 5 - k)) for k in (3, 4, 5)}
    for s in range(4):
        ranks_of_s = [r for r in range(13) if r * 4 + s in deck]
        others = [sum(1 for t in range(4) if t != s and r * 4 + t in deck) for r in range(13)]
        held = [tuple(c for c in h if c & 3 == s) for h in spot.cards]
        for k in (3, 4, 5):
            need = _suited_needed(spot, k)
            capable = [i for i in range(n) if len(held[i]) >= need]
            if not capable:
                continue  # nobody can make this flush: the rank outcome stands
            weighted = []
            for rest in rests[k]:
                weight = 1
                for r, c in Counter(rest).items():
                    weight *= math.comb(others[r], c)
                if weight:
                    weighted.append((rest, weight))
            for flush_ranks in combinations(ranks_of_s, k):
                suited_board = tuple(r * 4 + s for r in flush_ranks)
                flushes = [(i, flush_of(held[i], suited_board)) for i in capable]
                for rest, weight in weighted:
                    base_high, low = rank_scores[tuple(sorted((*flush_ranks, *rest)))]
                    high = list(base_high)
                    changed = False
                    for i, f in flushes:
                        if f > high[i]:
                            high[i] = f
                            changed = True
                    if not changed:
                        continue
                    got = share((tuple(high), low))
                    old = share((base_high, low))
                    for i in range(n):
                        total[i] += weight * (got[i] - old[i])
    return _exact(total, weight_sum, "exact", weight_sum)


# ----------------------------------------------------------------------------- stud games


def _deals(pool: Sequence[int], need: int, players: int) -> Iterable[tuple[Hand, ...]]:
    """Every way to give ``need`` cards from ``pool`` to each of ``players`` in turn."""
    if players == 0:
        yield ()
        return
    for first in combinations(pool, need):
        rest = [c for c in pool if c not in first]
        for tail in _deals(rest, need, players - 1):
            yield (first, *tail)


def _deal_count(pool: int, need: int, players: int) -> int:
    count = 1
    for p in range(players):
        count *= math.comb(pool - p * need, need)
    return count


def _seed(spot: Runout) -> int:
    text = repr((spot.game, spot.hi_lo, spot.cards, spot.board, spot.dead, spot.pots))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def _stud_runouts(spot: Runout) -> Equity:
    score, n = _scorer(spot), len(spot.cards)
    share = _shares(spot.pots, n)
    pool, need = spot.deck(), spot.to_come()
    if need * n > len(pool):
        raise ValueError("the deck cannot give every player a card (a community card)")
    count = _deal_count(len(pool), need, n)
    if count <= EXACT_LIMIT:
        total = [0] * n
        for extra in _deals(pool, need, n):
            got = share(score([(*h, *e) for h, e in zip(spot.cards, extra, strict=True)], ()))
            for i in range(n):
                total[i] += got[i]
        return _exact(total, count, "exact", count)
    rng = random.Random(_seed(spot))
    sums = [0] * n
    squares = [0] * n
    drawn = 0
    error = math.inf
    while drawn < MAX_SAMPLES and error > TARGET_ERROR:
        for _ in range(BATCH):
            cards = rng.sample(pool, need * n)
            hands = [(*h, *cards[i * need : (i + 1) * need]) for i, h in enumerate(spot.cards)]
            got = share(score(hands, ()))
            for i in range(n):
                sums[i] += got[i]
                squares[i] += got[i] * got[i]
        drawn += BATCH
        error = 0.0
        for i in range(n):
            mean = sums[i] / drawn
            var = max(squares[i] / drawn - mean * mean, 0.0)
            error = max(error, math.sqrt(var / drawn) / UNIT)
    return Equity(
        expected=tuple(Fraction(s, UNIT * drawn) for s in sums),
        method="sampled",
        runouts=drawn,
        error=error,
    )


# ----------------------------------------------------------------------------- entry


def expected_chips(spot: Runout) -> Equity:
    """Each contestant's expected chips from the pots of ``spot`` (module docstring)."""
    if spot.to_come() <= 0:
        raise ValueError("no card to come: the hands are already made")
    if spot.flop_game:
        if spot.to_come() == 5:
            return _boards_by_class(spot)
        return _boards_one_by_one(spot)
    return _stud_runouts(spot)
