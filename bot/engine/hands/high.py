"""Standard high poker hands: best five of 5 to 7 cards (Hold'em, Stud) and Omaha's
exactly-two-hole-plus-three-board hand.

Scores are dense ranks 1..7462 (every distinct five-card value): higher is better, equal
scores tie, suits never break ties. The wheel (A-2-3-4-5) is the lowest straight.

Speed comes from one integer per hand: each card adds ``1 << 3*(rank-2)`` to a rank part
(three bits per rank: at most four of a rank) and ``1 << 4*suit`` to a suit part (four
bits per suit). The sum of a hand's card values, unlike a product of primes, is built with
additions only and carries both parts. Adding 3 to each suit nibble sets its top bit iff
that suit holds five or more cards: one AND says whether a flush is possible (about 3% of
seven-card hands); otherwise one dict lookup on the rank part gives the score. With five
or more cards of one suit among at most seven, no full house or quads is possible, so the
best flush is then the hand.

>>> from bot.engine.cards import parse_cards
>>> high_name(high_score(parse_cards("As Ks 2d 2c 7h 7d Qs")))
'two pair, sevens and twos'
>>> high_score(parse_cards("5h 4h 3h 2h Ah")) > high_score(parse_cards("Kd Kc Ks Kh 2c"))
True
>>> high_name(omaha_high_score(parse_cards("Ah Kh Qd Jd"), parse_cards("2h 3h 4h 9s 9c")))
'flush, ace high'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations, product, starmap
from operator import mul
from typing import Final

from bot.engine.cards import CARDS, RANK_NAMES, RANK_PLURALS, Card
from bot.engine.errors import InvalidHand
from bot.engine.hands._tables import RANK_PRIME, not_a_hand, rank_multisets, rank_product

_SUIT_BITS: Final = 16
#: Per card: suit part in the low 16 bits, rank part above.
VALUE: Final[tuple[int, ...]] = tuple(
    (1 << (_SUIT_BITS + 3 * (c >> 2))) | (1 << (4 * (c & 3))) for c in range(52)
)
#: Added to a sum: a suit nibble's top bit is then set iff the suit has 5+ cards.
_FLUSH_BASE: Final = 0x3333
_FLUSH_MASK: Final = 0x8888
#: Per card: ``1 << 4*suit``, the suit part of VALUE alone.
_SUIT_NIBBLE: Final[tuple[int, ...]] = tuple(1 << (4 * (c & 3)) for c in range(52))
#: Per card: its rank's bit (rank 2 = bit 0), for flush lookups.
_RANK_BIT: Final[tuple[int, ...]] = tuple(1 << (c >> 2) for c in range(52))

CATEGORIES: Final = (
    "high card",
    "pair",
    "two pair",
    "three of a kind",
    "straight",
    "flush",
    "full house",
    "four of a kind",
    "straight flush",
)
_STRAIGHT, _FLUSH, _STRAIGHT_FLUSH = 4, 5, 8

Key = tuple[int, ...]

#: rank part of a 5..7-card sum -> score of the best non-flush five.
_RANKS: Final[dict[int, int]] = {}
#: rank bitmask (5..7 bits) of one suit's cards -> score of the best flush among them.
_FLUSHES: Final[dict[int, int]] = {}
#: product of five rank primes -> score of those five ranks without a flush (Omaha).
_FIVES: Final[dict[int, int]] = {}
#: score -> key (category, tie-break ranks).
_KEYS: Final[list[Key]] = []


def _straight_top(distinct: set[int]) -> int:
    """The top rank of the highest straight within the ranks, 0 if none."""
    for top in range(14, 5, -1):
        if all(r in distinct for r in range(top - 4, top + 1)):
            return top
    if {14, 2, 3, 4, 5} <= distinct:
        return 5
    return 0


def _nonflush_key(ranks: Sequence[int]) -> Key:
    """Best five-card key of 5..7 ranks (2..14), suits ignored."""
    counts = Counter(ranks)
    by_count = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    quads = [r for r in by_count if counts[r] == 4]
    trips = sorted((r for r in counts if counts[r] == 3), reverse=True)
    pairs = sorted((r for r in counts if counts[r] == 2), reverse=True)
    if quads:
        q = quads[0]
        return (7, q, max(r for r in ranks if r != q))
    if trips and (len(trips) > 1 or pairs):
        t = trips[0]
        return (6, t, max([*trips[1:], *pairs]))
    top = _straight_top(set(ranks))
    if top:
        return (_STRAIGHT, top)
    if trips:
        t = trips[0]
        return (3, t, *sorted((r for r in ranks if r != t), reverse=True)[:2])
    if len(pairs) >= 2:
        a, b = pairs[:2]
        return (2, a, b, max(r for r in ranks if r not in (a, b)))
    if pairs:
        p = pairs[0]
        return (1, p, *sorted((r for r in ranks if r != p), reverse=True)[:3])
    return (0, *sorted(ranks, reverse=True)[:5])


def _flush_key(distinct: set[int]) -> Key:
    top = _straight_top(distinct)
    if top:
        return (_STRAIGHT_FLUSH, top)
    return (_FLUSH, *sorted(distinct, reverse=True)[:5])


def _build() -> None:
    keys: set[Key] = set()
    nonflush: dict[int, Key] = {}
    fives: dict[int, Key] = {}
    for size in (5, 6, 7):
        for ranks in rank_multisets(size):
            key = _nonflush_key(ranks)
            part = 0
            for r in ranks:
                part += 1 << (3 * (r - 2))
            nonflush[part] = key
            if size == 5:
                keys.add(key)
                fives[rank_product(ranks)] = key
    flush: dict[int, Key] = {}
    for size in (5, 6, 7):
        for ranks in combinations(range(2, 15), size):
            key = _flush_key(set(ranks))
            flush[sum(1 << (r - 2) for r in ranks)] = key
            if size == 5:
                keys.add(key)
    ordered = sorted(keys)
    score_of = {key: i + 1 for i, key in enumerate(ordered)}
    _KEYS.append(())  # score 0: no hand
    _KEYS.extend(ordered)
    _FLUSHES.update({m: score_of[k] for m, k in flush.items()})
    _FIVES.update({p: score_of[k] for p, k in fives.items()})
    _RANKS.update({p << _SUIT_BITS: score_of[k] for p, k in nonflush.items()})


def _flush_score(cards: Sequence[Card], suits: int) -> int:
    """Score of the best flush: ``suits`` is the sum's suit part plus the base."""
    for suit in range(4):
        if suits >> (4 * suit) & 8:
            mask = 0
            for c in cards:
                if c & 3 == suit:
                    mask |= _RANK_BIT[c]
            return _FLUSHES[mask]
    raise AssertionError("no flush suit")  # pragma: no cover - the caller checked


def high_score(cards: Sequence[Card]) -> int:
    """Score of the best five of 5..7 cards (standard high, RULES Hold'em/Stud)."""
    if not _RANKS:
        _build()
    try:
        if len(cards) == 7:
            a, b, c, d, e, f, g = cards
            s = VALUE[a] + VALUE[b] + VALUE[c] + VALUE[d] + VALUE[e] + VALUE[f] + VALUE[g]
        else:
            s = 0
            for x in cards:
                s += VALUE[x]
        suits = (s & 0xFFFF) + _FLUSH_BASE
        if suits & _FLUSH_MASK:
            return _flush_score(cards, suits)
        return _RANKS[s & ~0xFFFF]
    except (KeyError, IndexError, TypeError):
        if not 5 <= len(cards) <= 7:
            raise InvalidHand(f"a high hand has 5 to 7 cards, got {len(cards)}") from None
        raise not_a_hand(cards, "high hand") from None


def omaha_high_score(hole: Sequence[Card], board: Sequence[Card]) -> int:
    """Score of the best Omaha hand: exactly two hole cards with exactly three board cards.

    Hole cards: 2 or more (four in Omaha); board: 3 to 5 cards.
    """
    if not _RANKS:
        _build()
    if len(hole) < 2 or not 3 <= len(board) <= 5:
        raise InvalidHand(
            f"Omaha needs 2+ hole cards and 3 to 5 board cards, got {len(hole)}+{len(board)}"
        )
    # Sixty two-plus-three hands for four hole and five board cards: each a product of
    # five rank primes (one machine word) looked up in the five-card table; equal rank
    # products repeat, so pairs and triples go through sets first.
    p = RANK_PRIME
    try:
        if len(hole) == 4 and len(board) == 5:
            h1, h2, h3, h4 = hole
            a, b, c, d = p[h1], p[h2], p[h3], p[h4]
            b1, b2, b3, b4, b5 = board
            e, f, g, h, i = p[b1], p[b2], p[b3], p[b4], p[b5]
            pairs = {a * b, a * c, a * d, b * c, b * d, c * d}
            triples = {
                e * f * g, e * f * h, e * f * i, e * g * h, e * g * i,
                e * h * i, f * g * h, f * g * i, f * h * i, g * h * i,
            }  # fmt: skip
        else:
            pairs = {p[x] * p[y] for x, y in combinations(hole, 2)}
            triples = {p[x] * p[y] * p[z] for x, y, z in combinations(board, 3)}
        best = max(map(_FIVES.__getitem__, starmap(mul, product(pairs, triples))))
    except (KeyError, IndexError, TypeError):
        raise not_a_hand([*hole, *board], "Omaha") from None
    # A flush needs three board cards of a suit and two hole cards of the same suit.
    board_suits = 0
    for x in board:
        board_suits += _SUIT_NIBBLE[x]
    if (board_suits + 0x5555) & _FLUSH_MASK:  # some suit has 3+ board cards
        for suit in range(4):
            if board_suits >> (4 * suit) & 0xF < 3:
                continue
            held = [_RANK_BIT[x] for x in hole if x & 3 == suit]
            on_board = [_RANK_BIT[x] for x in board if x & 3 == suit]
            for two in combinations(held, 2):
                for t in combinations(on_board, 3):
                    best = max(best, _FLUSHES[two[0] | two[1] | t[0] | t[1] | t[2]])
    return best


def high_key(score: int) -> Key:
    """(category index in :data:`CATEGORIES`, tie-break ranks) of a score."""
    if not _RANKS:
        _build()
    return _KEYS[score]


def high_name(score: int) -> str:
    """E.g. "full house, kings over fives", "straight, five high", "pair of aces"."""
    category, *r = high_key(score)
    if category == 8:
        return "royal flush" if r[0] == 14 else f"straight flush, {RANK_NAMES[r[0]]} high"
    if category == 7:
        return f"four {RANK_PLURALS[r[0]]}"
    if category == 6:
        return f"full house, {RANK_PLURALS[r[0]]} over {RANK_PLURALS[r[1]]}"
    if category == 5:
        return f"flush, {RANK_NAMES[r[0]]} high"
    if category == 4:
        return f"straight, {RANK_NAMES[r[0]]} high"
    if category == 3:
        return f"three {RANK_PLURALS[r[0]]}"
    if category == 2:
        return f"two pair, {RANK_PLURALS[r[0]]} and {RANK_PLURALS[r[1]]}"
    if category == 1:
        return f"pair of {RANK_PLURALS[r[0]]}"
    return f"high card {RANK_NAMES[r[0]]}"


def best_high(cards: Sequence[Card]) -> tuple[Card, ...]:
    """The five cards played from 5..7 (first best combination in the given order)."""
    five = max(combinations(cards, 5), key=high_score)
    return tuple(CARDS[c] for c in five)


def best_omaha_high(hole: Sequence[Card], board: Sequence[Card]) -> tuple[Card, ...]:
    """The two hole and three board cards played."""
    two, three = max(
        ((h, b) for h in combinations(hole, 2) for b in combinations(board, 3)),
        key=lambda hb: high_score([*hb[0], *hb[1]]),
    )
    return tuple(CARDS[c] for c in (*two, *three))
