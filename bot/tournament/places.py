"""Finishing places, from the order in which entries were eliminated.

* Places follow the **bust order**: the first entry out finishes last; the last one left
  wins.
* **Players busted in the same hand** are placed by the chips they started that hand with,
  more chips a better place (TDA: of players eliminated in one hand, the one who began
  it with more chips finishes higher); entries that started it with
  the same chips **share** the places they cover (a tie: 3rd-4th), and their prizes are
  split (:func:`bot.tournament.payouts.pay_finishes`). During hand-for-hand play the
  director may count one round of hands as one hand (same ``order``), as TDA does.
* **Every entry is placed** (a re-entry is a new entry, TDA "Alternates, Late Registrants
  and Re-Entries"; the field is the
  number of entries); a player's **result** is their best-placed entry
  (:func:`best_finishes`). A rebuy is not an entry: it keeps the entry alive.

The ``order`` of an elimination is the place of its hand in the sequence of hands that
eliminated someone (the director counts them); busts that share an ``order`` were in the
same hand. Give a hand's busts in seat order from the button's left: that order decides
who gets an odd chip of a shared prize (TDA "Odd Chips", as in a split pot).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import groupby


@dataclass(frozen=True)
class Elimination:
    """Entry ``entry`` was eliminated in hand ``order`` having started it with
    ``started_with`` chips."""

    entry: int
    order: int
    started_with: int


@dataclass(frozen=True)
class Finish:
    """Entry ``entry`` finished ``place`` (1 is the winner), sharing the ``shared`` places
    ``place`` .. ``place + shared - 1`` with the other entries of its tie."""

    entry: int
    place: int
    shared: int = 1

    @property
    def last_place(self) -> int:
        return self.place + self.shared - 1

    @property
    def label(self) -> str:
        """``3rd`` or ``3rd-4th`` (a shared place).

        >>> Finish(7, 3, 2).label, Finish(7, 1).label, Finish(7, 12).label
        ('3rd-4th', '1st', '12th')
        """
        if self.shared == 1:
            return ordinal(self.place)
        return f"{ordinal(self.place)}-{ordinal(self.last_place)}"


def ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``11th``, ``22nd``.

    >>> [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '101st']
    """
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def place_eliminations(field: int, eliminations: Iterable[Elimination]) -> tuple[Finish, ...]:
    """The places of the eliminated entries of a field of ``field`` entries, best first.

    The entries still in (``field`` minus the eliminated) hold the places above them.

    >>> out = place_eliminations(6, [
    ...     Elimination(entry=5, order=1, started_with=300),
    ...     Elimination(entry=2, order=2, started_with=800),   # same hand: more chips,
    ...     Elimination(entry=4, order=2, started_with=1500),  # better place
    ...     Elimination(entry=3, order=3, started_with=900),
    ... ])
    >>> [(f.entry, f.label) for f in out]
    [(3, '3rd'), (4, '4th'), (2, '5th'), (5, '6th')]
    >>> [f.label for f in place_eliminations(4, [
    ...     Elimination(1, 1, 500), Elimination(2, 1, 500)])]
    ['3rd-4th', '3rd-4th']
    """
    ordered = sorted(eliminations, key=lambda e: e.order)  # stable: seat order kept
    if len({e.entry for e in ordered}) != len(ordered):
        raise ValueError("an entry is eliminated once")
    if len(ordered) > field:
        raise ValueError(f"{len(ordered)} eliminations in a field of {field}")
    worst = field  # the worst place not given yet
    out: list[Finish] = []
    for _, hand in groupby(ordered, key=lambda e: e.order):
        busts = list(hand)
        # more chips at the start of the hand: a better place; equal chips share
        ranked = sorted(busts, key=lambda e: -e.started_with)  # stable within a tie
        best = worst - len(busts) + 1
        place = best
        for _, tie in groupby(ranked, key=lambda e: e.started_with):
            tied = list(tie)
            out += [Finish(e.entry, place, len(tied)) for e in tied]
            place += len(tied)
        worst = best - 1
    out.sort(key=lambda f: f.place)  # stable: a tie keeps its seat order
    return tuple(out)


def final_places(entries: Sequence[int], eliminations: Iterable[Elimination]) -> tuple[Finish, ...]:
    """Every entry's place once one entry is left: the one not eliminated wins.

    >>> [(f.entry, f.place) for f in final_places([1, 2, 3], [
    ...     Elimination(2, 1, 100), Elimination(1, 2, 100)])]
    [(3, 1), (1, 2), (2, 3)]
    """
    elim = list(eliminations)
    out = {e.entry for e in elim}
    left = [e for e in entries if e not in out]
    if len(left) != 1:
        raise ValueError(f"the tournament is over with one entry left, not {len(left)}")
    return (Finish(left[0], 1), *place_eliminations(len(entries), elim))


def best_finishes(finishes: Iterable[Finish], owner: Mapping[int, int]) -> dict[int, Finish]:
    """Each player's result: the best place among their entries (``owner``: entry ->
    player). A player with two entries is placed once, by the better one.

    >>> best_finishes([Finish(1, 1), Finish(2, 2), Finish(3, 3)], {1: 10, 2: 20, 3: 10})
    {10: Finish(entry=1, place=1, shared=1), 20: Finish(entry=2, place=2, shared=1)}
    """
    best: dict[int, Finish] = {}
    for f in finishes:
        player = owner[f.entry]
        if player not in best or f.place < best[player].place:
            best[player] = f
    return best
