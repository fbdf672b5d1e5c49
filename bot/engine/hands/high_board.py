"""The order of Seven-card Stud boards (the up cards) for who acts first from 4th street.

The highest showing hand opens: four of a kind > three of a kind > two pair > one pair >
high cards; within each, the grouped ranks first (the higher pair), then the other cards
from the highest down, the ace high. Straights and flushes do not count on an open board
and suits never matter (pokerkit's ``FixedLimitSevenCardStud`` opener order; exact ties go
to the first such player clockwise from the dealer's left).

>>> from bot.engine.cards import parse_cards
>>> high_board_key(parse_cards("2s 2d")) > high_board_key(parse_cards("As Kd"))
True
>>> high_board_key(parse_cards("3s 3d 2h")) > high_board_key(parse_cards("2s 2d Ah"))
True
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine.cards import Card
from bot.engine.errors import InvalidHand
from bot.engine.hands._tables import not_a_hand


def high_board_key(upcards: Sequence[Card]) -> tuple[int, ...]:
    """Key of 1..4 stud up cards: the LARGER key is the higher board, which opens.

    The key is the group sizes, largest first (``(2, 2)`` two pair beats ``(2, 1, 1)`` one
    pair), then the groups' ranks (2..14) in that order.
    """
    if not 1 <= len(upcards) <= 4:
        raise InvalidHand(f"a stud board has 1 to 4 up cards, got {len(upcards)}")
    counts: dict[int, int] = {}
    for c in upcards:
        if not (isinstance(c, int) and 0 <= c < 52):
            raise InvalidHand(f"{c!r} is not a card")
        rank = (c >> 2) + 2
        counts[rank] = counts.get(rank, 0) + 1
    if len(set(upcards)) != len(upcards):
        raise not_a_hand(upcards, "stud board")
    groups = sorted(((n, r) for r, n in counts.items()), reverse=True)
    return (*(n for n, _ in groups), *(r for _, r in groups))
