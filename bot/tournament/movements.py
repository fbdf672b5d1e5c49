"""The league-chip movements a tournament makes, as records the integration books by the
ledger (one transaction per director step, with the step's new state).

Tournament chips are not league chips (DESIGN.md): the ledger moves league chips from a
player into one of the tournament's two funds and out of them again:

* the **prize pool** takes buy-ins, rebuys and add-ons and pays the prizes;
* the **bounties** fund takes each entry's bounty and pays it to whoever eliminates that
  entry (and the winner's own back to the winner).

A cancelled tournament pays back what each fund still holds to whoever paid it in.
Every movement is a whole positive ``amount``; :attr:`Movement.delta` is its effect on the
player's balance. The ledger's words for each kind are :data:`LEDGER_TEXT`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final, Literal

MovementKind = Literal["buy-in", "bounty-in", "rebuy", "add-on", "prize", "bounty", "refund"]
Fund = Literal["prize pool", "bounties"]

PAID_IN: Final[frozenset[MovementKind]] = frozenset({"buy-in", "bounty-in", "rebuy", "add-on"})
#: How the ledger (and ``/balance``'s history) names each movement (issue 20 item 7).
LEDGER_TEXT: Final[dict[MovementKind, str]] = {
    "buy-in": "tournament buy-in",
    "bounty-in": "tournament bounty",
    "rebuy": "tournament rebuy",
    "add-on": "tournament add-on",
    "prize": "prize",
    "bounty": "bounty",
    "refund": "tournament refund",
}


@dataclass(frozen=True)
class Movement:
    """``amount`` league chips of ``player`` (for ``entry``) into or out of ``fund``.

    >>> m = Movement("buy-in", player=42, entry=1, amount=100, fund="prize pool")
    >>> m.delta, m.ledger_text
    (-100, 'tournament buy-in')
    """

    kind: MovementKind
    player: int
    entry: int
    amount: int
    fund: Fund

    def __post_init__(self) -> None:
        if self.amount <= 0:
            raise ValueError("a movement moves at least one chip")

    @property
    def paid_in(self) -> bool:
        return self.kind in PAID_IN

    @property
    def delta(self) -> int:
        """The movement's effect on the player's league balance."""
        return -self.amount if self.paid_in else self.amount

    @property
    def ledger_text(self) -> str:
        return LEDGER_TEXT[self.kind]


def fund_balance(movements: Iterable[Movement], fund: Fund) -> int:
    """What ``fund`` holds after ``movements`` (paid in minus paid out).

    >>> fund_balance([Movement("buy-in", 1, 1, 100, "prize pool"),
    ...               Movement("prize", 1, 1, 60, "prize pool")], "prize pool")
    40
    """
    return sum(-m.delta for m in movements if m.fund == fund)
