"""Who posts the blinds at a Hold'em or Omaha table: Robert's Rules of Poker's dead-button
rule (docs/rules.md 6.14), a pure function of the last hand's blinds and who sits now.

Seat numbers increase clockwise. Each hand:

1. the **big blind** moves to the next player clockwise after last hand's big blind: a
   player who sits out (away, or without chips) or has left is passed over, a player new
   to the table who waits for the big blind is not: it reaches them, and they are dealt in;
2. the **small blind** is last hand's big blind; when that player is gone there is no small
   blind this hand (a dead small blind);
3. the **button** goes to the seat of last hand's small blind, even when that player is gone
   (a dead button, on an empty seat);
4. heads-up the button posts the small blind: the player who is not the big blind; going
   from heads-up to three players or more, the button goes to the player before the small
   blind (and in any seating where rule 3 would put a player between the button and the
   blinds, e.g. one who came back from away there, likewise);
5. a player new to the table who chose to post a big blind is dealt in at once, the blind
   live; one who would sit between the button and the big blind waits one hand more.

So nobody posts the big blind twice in a row, and nobody skips it when a player busts,
leaves or arrives. If dealing only the players who may play would leave fewer than two,
everyone is dealt in.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class BlindPlan:
    """The blinds of one hand. ``small`` is None when the small blind is dead; ``button``
    may be a seat nobody sits in (a dead button); ``posts`` post a big blind out of turn."""

    button: int
    small: int | None
    big: int
    dealt: tuple[int, ...]
    posts: tuple[int, ...] = ()

    @property
    def heads_up(self) -> bool:
        return len(self.dealt) == 2


def _after(seats: Sequence[int], seat: int) -> int:
    """The first of ``seats`` (sorted) clockwise after ``seat``."""
    return next((s for s in seats if s > seat), seats[0])


def _before(seats: Sequence[int], seat: int) -> int:
    """The last of ``seats`` (sorted) clockwise before ``seat``."""
    return next((s for s in reversed(seats) if s < seat), seats[-1])


def _clockwise_from(seats: Sequence[int], seat: int) -> list[int]:
    """``seats`` (sorted) in clockwise order, starting after ``seat``."""
    return [s for s in seats if s > seat] + [s for s in seats if s <= seat]


def plan_blinds(
    seats: Sequence[int],
    *,
    last_button: int,
    last_small: int | None,
    last_big: int,
    waiting: Collection[int] = (),
    posting: Collection[int] = (),
) -> BlindPlan:
    """The blinds of the next hand (module docstring). ``seats``: the players who may play
    (with chips, not away), those who ``wait`` for the big blind and those ``posting`` one
    among them; ``last_*``: the seats of last hand's button, small blind (None: dead) and
    big blind, whether or not their players are still here.

    >>> plan_blinds([1, 2, 3, 4], last_button=1, last_small=2, last_big=3)
    BlindPlan(button=2, small=3, big=4, dealt=(1, 2, 3, 4), posts=())
    >>> plan_blinds([1, 2, 4], last_button=1, last_small=2, last_big=3)  # seat 3 left
    BlindPlan(button=2, small=None, big=4, dealt=(1, 2, 4), posts=())
    >>> plan_blinds([2, 3], last_button=1, last_small=2, last_big=3)  # seat 1 busted
    BlindPlan(button=3, small=3, big=2, dealt=(2, 3), posts=())
    >>> plan_blinds([2, 4, 5], last_button=2, last_small=3, last_big=1, posting=[4, 5])
    BlindPlan(button=5, small=None, big=2, dealt=(2, 4, 5), posts=())
    """
    everyone = sorted(seats)
    if len(everyone) < 2:
        raise ValueError(f"a hand needs two players, got {everyone}")
    big = _after(everyone, last_big)
    regular = [s for s in everyone if (s not in waiting and s not in posting) or s == big]
    posters = [s for s in everyone if s in posting and s not in regular]
    if len(regular) + len(posters) < 2:
        regular, posters = everyone, []  # too few to wait: everyone plays
    if len(regular) + len(posters) == 2:
        return _heads_up(sorted([*regular, *posters]), big)
    small = last_big if last_big in regular and last_big != big else None
    first = big if small is None else small
    button: int | None = None
    if last_small is not None and last_small != last_button and last_small not in (small, big):
        button = last_small  # rule 3 (perhaps an empty seat)
        order = _clockwise_from([s for s in regular if s != button], button)
        if order[: 1 if small is None else 2] != ([big] if small is None else [small, big]):
            button = None  # someone sits between the button and the blinds: rule 4
    if button is None:
        button = _before(sorted({*regular, *posters}), first)
    # rule 5: a new player between the button and the big blind waits a hand more
    ring = _clockwise_from(everyone, button)
    between = set(ring[: ring.index(big)])
    posts = tuple(s for s in posters if s not in between)
    dealt = tuple(sorted({*regular, *posts}))
    if len(dealt) < 2 and (waiting or posting):
        # rule 5 would leave one player: too few to wait, everyone plays (as above)
        return plan_blinds(
            everyone, last_button=last_button, last_small=last_small, last_big=last_big
        )
    if len(dealt) == 2:
        return _heads_up(list(dealt), big)
    return BlindPlan(button=button, small=small, big=big, dealt=dealt, posts=posts)


def _heads_up(dealt: list[int], big: int) -> BlindPlan:
    """Heads-up: the button posts the small blind (rule 4)."""
    other = dealt[0] if dealt[1] == big else dealt[1]
    return BlindPlan(button=other, small=other, big=big, dealt=tuple(dealt))
