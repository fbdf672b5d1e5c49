"""The seven-deuce game (issue 18 item 14; docs/rules.md 6.20): a Hold'em house rule that
pays whoever wins a pot with the worst starting hand, 7-2 offsuit, and shows it.

The payment is the table's, not the pot's: every other player dealt in (folded ones too)
pays the table's ``seven_deuce`` amount out of what they have left after the pots, and a
player with less pays what they have. It moves through the hand's own chip moves (ledger
kind ``seven_deuce``: each payer's chips in, the winner's total out), so the ledger says
who paid whom and the hand's result counts it.

>>> from bot.engine.cards import parse_cards
>>> is_seven_deuce(parse_cards("7c 2d")), is_seven_deuce(parse_cards("2h 7h"))
(True, False)
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from typing import Any

from bot.engine.cards import Card
from bot.engine.events import ChipMove, Event
from bot.engine.flop.state import FlopState

KIND = "seven_deuce"
"""The ledger kind of a seven-deuce payment (both ways through the table's pot)."""


def is_seven_deuce(cards: Sequence[Card]) -> bool:
    """Two hole cards, a seven and a deuce of different suits."""
    return (
        len(cards) == 2
        and sorted((cards[0].rank, cards[1].rank)) == [2, 7]
        and cards[0].suit != cards[1].suit
    )


def pay_seven_deuce(
    hand: FlopState, winners: Iterable[int], shown: Collection[int], out: list[Event]
) -> list[dict[str, Any]]:
    """Pay each winning position that holds 7-2 offsuit and showed it (``shown``); returns
    what was paid, for the hand's result (empty: no seven-deuce at this table or hand)."""
    amount = hand.rules.seven_deuce
    paid_out: list[dict[str, Any]] = []
    if not amount:
        return paid_out
    for w in sorted(set(winners)):
        if w not in shown or not is_seven_deuce(hand.hole[w]):
            continue
        moves: list[ChipMove] = []
        paid: dict[str, int] = {}
        total = 0
        for p in range(hand.n):
            if p == w:
                continue
            a = min(amount, hand.stacks[p])
            if a:
                hand.stacks[p] -= a
                seat = hand.seat_ids[p]
                moves.append(ChipMove(seat, a, KIND))
                paid[str(seat)] = a
                total += a
        seat = hand.seat_ids[w]
        if total:
            hand.stacks[w] += total
            moves.append(ChipMove(seat, -total, KIND))
        data = {
            "seat": seat,
            "cards": [str(c) for c in hand.hole[w]],
            "amount": amount,
            "paid": paid,
            "total": total,
        }
        out.append(Event(KIND, data, chips=tuple(moves)))
        paid_out.append(data)
    return paid_out
