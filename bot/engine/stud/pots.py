"""Main and side pots from what each player put in (RULES §4.7, §4.10; every stud game).

Positions are indexes in clockwise order from the dealer's left, so "the first tied
winner clockwise from the dealer's left" is simply the lowest position.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Pot:
    """One pot: its chips and the positions that may win it."""

    amount: int
    eligible: tuple[int, ...]


def build_pots(contributions: Sequence[int], live: Sequence[bool]) -> list[Pot]:
    """Split the chips into a main pot and side pots.

    Each level is an amount some live (not folded) player put in; a pot holds, from every
    player, what they put in between the previous level and this one, and is contested by
    the live players who reached it. Pots with the same contestants are merged (as
    pokerkit does). Chips from folded players above every live level join the last pot.

    >>> build_pots([10, 30, 30], [True, True, True])
    [Pot(amount=30, eligible=(0, 1, 2)), Pot(amount=40, eligible=(1, 2))]
    >>> build_pots([20, 5, 20], [True, True, False])
    [Pot(amount=15, eligible=(0, 1)), Pot(amount=30, eligible=(0,))]
    """
    levels = sorted({c for c, alive in zip(contributions, live, strict=True) if alive and c > 0})
    if len(levels) == 1:
        # The common case, no one all-in for less: one pot, all chips, every live player
        # who put in the level (the live players who put in less put in nothing).
        eligible = tuple(i for i, c in enumerate(contributions) if live[i] and c > 0)
        return [Pot(sum(contributions), eligible)]
    pots: list[Pot] = []
    previous = 0
    for level in levels:
        amount = 0
        for c in contributions:
            if c > previous:
                amount += min(c, level) - previous
        eligible = tuple(i for i, c in enumerate(contributions) if live[i] and c >= level)
        if pots and pots[-1].eligible == eligible:
            pots[-1] = Pot(pots[-1].amount + amount, eligible)
        elif amount:
            pots.append(Pot(amount, eligible))
        previous = level
    leftover = sum(c - previous for c in contributions if c > previous)
    if leftover:
        if pots:
            pots[-1] = Pot(pots[-1].amount + leftover, pots[-1].eligible)
        else:
            pots.append(Pot(leftover, tuple(i for i, a in enumerate(live) if a)))
    return pots


def split(amount: int, winners: Sequence[int]) -> dict[int, int]:
    """Share a pot equally; the odd chips all go to the first winner (lowest position).

    >>> split(25, [3, 1])
    {1: 13, 3: 12}
    """
    ordered = sorted(winners)
    share, odd = divmod(amount, len(ordered))
    out = {p: share for p in ordered}
    out[ordered[0]] += odd
    return out
