"""Eight-or-better low for the hi-lo split games (Omaha Hi-Lo, Stud Hi-Lo).

A low qualifies with five cards of different ranks, all eight or lower, the ace low;
straights and flushes do not count against it. Lows compare from the highest card down:
8-6-4-2-A beats 8-7-3-2-A; 5-4-3-2-A (the wheel) is the best. Scores are 1..56 (the
C(8,5) possible lows), higher is better (the lower hand); ``None`` is no qualifying low.

Only the set of low ranks present matters, so each card contributes one bit (ace = bit 0,
eight = bit 7, nine and up nothing) and a 256-entry table answers.

>>> from bot.engine.cards import parse_cards
>>> low8_name(low8_score(parse_cards("Ah 2d 4c 6s 8h Kd Kc")))
'8-6-4-2-A'
>>> low8_score(parse_cards("Ah 2d 4c 9s 9h Kd Kc")) is None
True
>>> low8_name(omaha_low8_score(parse_cards("Ac 2c Kd Kh"), parse_cards("3d 4s 8h Ks Qs")))
'8-4-3-2-A'
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Final

from bot.engine.cards import RANK_CHARS, Card
from bot.engine.errors import InvalidHand
from bot.engine.hands._tables import not_a_hand


def _low_rank(card: int) -> int:
    rank = (card >> 2) + 2
    return 1 if rank == 14 else rank


#: Per card: the bit of its ace-low rank if eight or lower, else 0.
LOW_BIT: Final[tuple[int, ...]] = tuple(
    1 << (_low_rank(c) - 1) if _low_rank(c) <= 8 else 0 for c in range(52)
)

#: The 56 qualifying lows as ace-low ranks, highest first; worst first (index + 1 = score).
_LOWS: Final[tuple[tuple[int, ...], ...]] = tuple(
    sorted(
        (tuple(sorted(five, reverse=True)) for five in combinations(range(1, 9), 5)),
        reverse=True,
    )
)
_SCORE_OF: Final = {low: i + 1 for i, low in enumerate(_LOWS)}


def _table_entry(mask: int) -> int | None:
    ranks = [r for r in range(1, 9) if mask >> (r - 1) & 1]
    if len(ranks) < 5:
        return None
    return _SCORE_OF[tuple(sorted(ranks[:5], reverse=True))]


#: bits of the low ranks present -> score of the best low among them, or None.
_TABLE: Final[tuple[int | None, ...]] = tuple(_table_entry(m) for m in range(256))


def low8_score(cards: Sequence[Card]) -> int | None:
    """Best eight-or-better low of any five of 5..7 cards; ``None`` if none qualifies."""
    if not 5 <= len(cards) <= 7:
        raise InvalidHand(f"a low hand has 5 to 7 cards, got {len(cards)}")
    mask = 0
    try:
        for c in cards:
            mask |= LOW_BIT[c]
    except (IndexError, TypeError):
        raise not_a_hand(cards, "low hand") from None
    return _TABLE[mask]


def omaha_low8_score(hole: Sequence[Card], board: Sequence[Card]) -> int | None:
    """Best eight-or-better low with exactly two hole and exactly three board cards."""
    if len(hole) < 2 or not 3 <= len(board) <= 5:
        raise InvalidHand(
            f"Omaha needs 2+ hole cards and 3 to 5 board cards, got {len(hole)}+{len(board)}"
        )
    bit = LOW_BIT
    try:
        # Only two different low ranks in the hand and three on the board can make a low;
        # the two sets must not share a rank (five different ranks).
        twos = {
            bit[a] | bit[b]
            for a, b in combinations(hole, 2)
            if bit[a] and bit[b] and bit[a] != bit[b]
        }
        if not twos:
            return None
        threes = {
            bit[a] | bit[b] | bit[c]
            for a, b, c in combinations(board, 3)
            if bit[a] and bit[b] and bit[c] and len({bit[a], bit[b], bit[c]}) == 3
        }
    except (IndexError, TypeError):
        raise not_a_hand([*hole, *board], "Omaha") from None
    best: int | None = None
    table = _TABLE
    for h in twos:
        for t in threes:
            if not h & t:
                score = table[h | t]
                if score is not None and (best is None or score > best):
                    best = score
    return best


def low8_ranks(score: int) -> tuple[int, ...]:
    """The ace-low ranks (1..8) of a low score, highest first."""
    if not 1 <= score <= len(_LOWS):
        raise InvalidHand(f"no eight-or-better low has the score {score}")
    return _LOWS[score - 1]


def low8_name(score: int | None) -> str:
    """E.g. "7-5-4-2-A"; "no low" for ``None``."""
    if score is None:
        return "no low"
    return "-".join("A" if r == 1 else RANK_CHARS[r - 2] for r in low8_ranks(score))
