"""The flop games' own refusal: a bet or raise amount outside the legal range."""

from __future__ import annotations

from bot.engine.errors import IllegalAction


class BetOutOfRange(IllegalAction):
    """A bet/raise "to" amount below the minimum or above the maximum allowed now.

    ``minimum`` and ``maximum`` are the legal "to" totals (the Discord layer shows them).

    >>> e = BetOutOfRange("raise", 7, minimum=20, maximum=35)
    >>> e.message
    'cannot raise to 7: the legal range is 20 to 35'
    """

    def __init__(self, kind: str, amount: int, *, minimum: int, maximum: int) -> None:
        if minimum == maximum:
            text = f"cannot {kind} to {amount}: the only legal amount is {minimum}"
        else:
            text = f"cannot {kind} to {amount}: the legal range is {minimum} to {maximum}"
        super().__init__(text)
        self.amount = amount
        self.minimum = minimum
        self.maximum = maximum
