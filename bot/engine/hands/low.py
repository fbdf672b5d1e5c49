"""Ace-to-five low (RULES §4.1, §4.5): Razz hands and Razz boards.

Best five of 5 to 7 cards, aces low, straights and flushes ignored, pairs count against
(no pair < one pair < two pair < trips < full house < quads, as pokerkit's
``RegularLowHand`` orders them; the tests check that on random seven-card pairs). The value
depends only on the rank multiset, so one product of rank primes and one dict lookup give
the score of 5, 6 or 7 cards.

>>> from bot.engine.cards import parse_cards
>>> low_score(parse_cards("4s 5h 7c 9d Td Js Qh")) > low_score(parse_cards("3s 3d 5s 6h 6s 8h Kd"))
True
>>> low_name(parse_cards("4s 5h 7c 9d Td Js Qh"))
'T-9-7-5-4'
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations, combinations_with_replacement
from typing import Final

from bot.engine.cards import CARDS, RANK_CHARS, RANK_PLURALS, Card
from bot.engine.errors import InvalidHand
from bot.engine.hands._tables import (
    RANK_PRIME,
    RANK_PRIMES,
    not_a_hand,
    rank_multisets,
)

#: Category of a multiplicity pattern, best (lowest) first.
_CATEGORY: Final = {
    (1, 1, 1, 1): 0,  # boards of fewer than five cards (board_key)
    (1, 1, 1): 0,
    (1, 1): 0,
    (1,): 0,
    (1, 1, 1, 1, 1): 0,
    (2, 1, 1, 1): 1,
    (2, 1, 1): 1,
    (2, 1): 1,
    (2,): 1,
    (2, 2, 1): 2,
    (2, 2): 2,
    (3, 1, 1): 3,
    (3, 1): 3,
    (3,): 3,
    (3, 2): 4,
    (4, 1): 5,
    (4,): 5,
}
_CATEGORY_NAMES: Final = ("", "pair", "two pair", "three", "full house", "four")

LowKey = tuple[int, ...]

#: rank product of 5..7 cards -> score (higher = lower hand = better). Built on first use.
_SCORE: Final[dict[int, int]] = {}
#: score -> the ace-low ranks of the five cards played, highest first.
_RANKS: Final[list[tuple[int, ...]]] = []


def _low(rank: int) -> int:
    return 1 if rank == 14 else rank


def low_key(low_ranks: Sequence[int]) -> LowKey:
    """Key of ace-low ranks (1..13): SMALLER is the lower (better) hand.

    (category, ranks grouped by count then high to low): pairs are compared first, as in
    standard poker.
    """
    counts: dict[int, int] = {}
    for r in low_ranks:
        counts[r] = counts.get(r, 0) + 1
    grouped = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    return (_CATEGORY[tuple(sorted(counts.values(), reverse=True))], *grouped)


def _best_five(low_ranks: tuple[int, ...]) -> tuple[LowKey, tuple[int, ...]]:
    """Best 5-card key of sorted ace-low ranks (5..7 of them) and the ranks played."""
    distinct = sorted(set(low_ranks))
    if len(distinct) >= 5:
        five = tuple(distinct[4::-1])
        return (0, *five), five
    best: tuple[LowKey, tuple[int, ...]] | None = None
    for five_ranks in set(combinations(low_ranks, 5)):
        key = low_key(five_ranks)
        if best is None or key < best[0]:
            best = key, tuple(sorted(five_ranks, reverse=True))
    assert best is not None
    return best


def _build() -> None:
    # Walk the rank multisets in ace-low order (1..13), so each is already sorted: about
    # 74,000 of them for 5, 6 and 7 cards. Most hold five different ranks, whose best five
    # are simply the five lowest; only the rest need the search over five-card subsets.
    fives = [tuple(sorted(_low(r) for r in ranks)) for ranks in rank_multisets(5)]
    ordered = sorted({low_key(f) for f in fives}, reverse=True)  # worst first
    score_of = {key: score for score, key in enumerate(ordered)}
    played: list[tuple[int, ...]] = [()] * len(ordered)
    table: dict[int, int] = {}
    prime = (0, RANK_PRIMES[12], *RANK_PRIMES[:12])  # ace-low rank -> its prime
    for size in (5, 6, 7):
        for low_ranks in combinations_with_replacement(range(1, 14), size):
            if any(low_ranks[i] == low_ranks[i + 4] for i in range(size - 4)):
                continue  # five of a rank: not in one deck
            product = 1
            for r in low_ranks:
                product *= prime[r]
            distinct = sorted(set(low_ranks))
            if len(distinct) >= 5:
                five = tuple(distinct[4::-1])
                key: LowKey = (0, *five)
            else:
                key, five = _best_five(low_ranks)
            score = score_of[key]
            played[score] = five
            table[product] = score
    _RANKS.extend(played)
    _SCORE.update(table)


def _miss(cards: Sequence[Card]) -> int:
    if not _SCORE:
        _build()
        return low_score(cards)
    raise not_a_hand(cards, "Razz")


def low_score(cards: Sequence[Card]) -> int:
    """Ace-to-five low of the best five of 5..7 cards: the LOWER hand has the HIGHER score."""
    n = len(cards)
    try:
        if n == 7:
            a, b, c, d, e, f, g = cards
            return _SCORE[
                RANK_PRIME[a]
                * RANK_PRIME[b]
                * RANK_PRIME[c]
                * RANK_PRIME[d]
                * RANK_PRIME[e]
                * RANK_PRIME[f]
                * RANK_PRIME[g]
            ]
        if n == 5 or n == 6:
            product = 1
            for x in cards:
                product *= RANK_PRIME[x]
            return _SCORE[product]
    except (KeyError, IndexError, TypeError):
        return _miss(cards)
    raise InvalidHand(f"Razz hands have 5 to 7 cards, got {n}")


def low_ranks_of_score(score: int) -> tuple[int, ...]:
    """The ace-low ranks (1..13) of the five cards a score stands for, highest first."""
    if not _SCORE:
        _build()
    return _RANKS[score]


def best_low(cards: Sequence[Card]) -> tuple[Card, ...]:
    """The five cards played, highest first (ace low); among equal ranks, the first given."""
    ranks = list(low_ranks_of_score(low_score(cards)))
    chosen: list[Card] = []
    for c in cards:
        r = _low(CARDS[c].rank)
        if r in ranks:
            ranks.remove(r)
            chosen.append(CARDS[c])
    return tuple(sorted(chosen, key=lambda c: (c.low_rank, -c), reverse=True))


def _rank_text(low_rank: int) -> str:
    return "A" if low_rank == 1 else RANK_CHARS[low_rank - 2]


#: score -> its name, filled on first use (a few thousand scores at most).
_NAMES: Final[dict[int, str]] = {}


def low_name_of_score(score: int) -> str:
    name = _NAMES.get(score)
    if name is None:
        name = _NAMES[score] = _name_of_score(score)
    return name


def _name_of_score(score: int) -> str:
    ranks = low_ranks_of_score(score)
    text = "-".join(_rank_text(r) for r in ranks)
    key = low_key(ranks)
    category = key[0]
    if category == 0:
        return text
    high = [14 if r == 1 else r for r in key[1:]]
    if category == 1:
        what = f"pair of {RANK_PLURALS[high[0]]}"
    elif category == 2:
        what = f"two pair, {RANK_PLURALS[high[0]]} and {RANK_PLURALS[high[1]]}"
    elif category == 3:
        what = f"three {RANK_PLURALS[high[0]]}"
    elif category == 4:
        what = f"full house, {RANK_PLURALS[high[0]]} over {RANK_PLURALS[high[1]]}"
    else:
        what = f"four {RANK_PLURALS[high[0]]}"
    return f"{text} ({what})"


def low_name(cards: Sequence[Card]) -> str:
    """E.g. "8-6-4-2-A"; a hand that must play a pair says so: "5-4-2-2-A (pair of twos)"."""
    return low_name_of_score(low_score(cards))


def board_key(upcards: Sequence[Card]) -> tuple[int, ...]:
    """Key of 1..4 Razz up cards: the SMALLER key is the lower board, which acts first
    from 4th street (RULES §4.5).

    Any unpaired board is lower than any paired one (6-7-8-9 opens before 3-4-5-5);
    unpaired boards compare from the highest card down, ace low. Paired boards compare by
    their pairs first, lowest pair best (2-2-K-Q opens before 3-3-4-5), then the other
    cards from the highest down; one pair < two pair < trips < quads. This is §4.5 as
    reworded, and pokerkit's ``FixedLimitRazz`` opener order. Suits never matter.

    >>> from bot.engine.cards import parse_cards
    >>> board_key(parse_cards("6s 7s 8s 9s")) < board_key(parse_cards("3s 4s 5s 5d"))
    True
    >>> board_key(parse_cards("2s 2d Kh Qc")) < board_key(parse_cards("3s 3d 4h 5c"))
    True
    """
    if not 1 <= len(upcards) <= 4:
        raise InvalidHand(f"a Razz board has 1 to 4 up cards, got {len(upcards)}")
    ranks = []
    for c in upcards:
        if not (isinstance(c, int) and 0 <= c < 52):
            raise InvalidHand(f"{c!r} is not a card")
        ranks.append(_low(CARDS[c].rank))
    if len(set(upcards)) != len(upcards):
        raise not_a_hand(upcards, "Razz")
    return low_key(ranks)
