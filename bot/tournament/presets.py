"""The structures ``structure: turbo|regular|deep`` names, for every kind of game.

A preset is scaled to the tournament's starting stack, so ``deep`` is deep whatever the
stack: level 1's big blind (the small bet in limit games) is the starting stack divided by
the preset's **depth**, rounded down to the chip ladder; then every level climbs one rung of
the ladder (about +29 % a level, the pace of the common 25/50, 50/100, 75/150 ... tables).

The **ladder** of small blinds: 1 2 3 4 5 6 8, then 10 15 20 25 30 40 50 60 80 times every
power of ten (100 150 200 ...); the big blind is twice the small blind. In limit games the
small bet is the ladder's big blind and the big bet twice that.

=========  =============  =======  ===================  =========================
preset     level length   depth    break                big-blind ante (blinds)
=========  =============  =======  ===================  =========================
turbo      10 minutes     50 BB    5 min every 6 levels  from level 7
regular    15 minutes     100 BB   10 min every 4 levels from level 5
deep       20 minutes     200 BB   10 min every 3 levels from level 4
=========  =============  =======  ===================  =========================

A break comes once an hour of play; the big-blind ante (equal to the big blind, TDA's
recommended single ante) starts with the first level after the first break. Stud games
ante a fifth of the small bet from level 1 and bring in half the small bet (the bot's cash
tables' proportions, rules §9.3); HORSE does the same for its stud games. Fixed-limit
Hold'em and Omaha have no ante. Every preset has :data:`LEVELS` levels; the last stays on.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

from bot.tournament.structure import Break, Kind, Level, Step, Structure

PresetName = Literal["turbo", "regular", "deep"]
PRESETS: Final[tuple[PresetName, ...]] = ("turbo", "regular", "deep")
LEVELS: Final = 30
#: The starting stack the rule book shows the presets with.
SHOWN_STACK: Final = 10_000


@dataclass(frozen=True)
class PresetSpec:
    """What a preset is made of (the table in the module's docstring)."""

    minutes: int
    depth: int
    """Level 1's big blind is at most the starting stack / depth."""
    break_minutes: int
    break_every: int
    """A break after every ``break_every`` levels."""

    @property
    def bb_ante_from(self) -> int:
        """The first level with a big-blind ante: the one after the first break."""
        return self.break_every + 1


SPECS: Final[dict[PresetName, PresetSpec]] = {
    "turbo": PresetSpec(minutes=10, depth=50, break_minutes=5, break_every=6),
    "regular": PresetSpec(minutes=15, depth=100, break_minutes=10, break_every=4),
    "deep": PresetSpec(minutes=20, depth=200, break_minutes=10, break_every=3),
}

_UNITS: Final = (1, 2, 3, 4, 5, 6, 8)
_MANTISSAS: Final = (10, 15, 20, 25, 30, 40, 50, 60, 80)


def ladder(rungs: int) -> tuple[int, ...]:
    """The first ``rungs`` small blinds of the ladder.

    >>> ladder(20)
    (1, 2, 3, 4, 5, 6, 8, 10, 15, 20, 25, 30, 40, 50, 60, 80, 100, 150, 200, 250)
    """
    out = list(_UNITS)
    power = 1
    while len(out) < rungs:
        out += [m * power for m in _MANTISSAS]
        power *= 10
    return tuple(out[:rungs])


def first_rung(starting_stack: int, depth: int) -> int:
    """The rung of level 1: the highest whose big blind is at most ``starting_stack /
    depth`` (rung 0, blinds 1/2, when even that is deeper than the stack allows).

    >>> rungs = ladder(40)
    >>> [rungs[first_rung(stack, 100)] * 2 for stack in (10_000, 3_000, 1_500, 100)]
    [100, 30, 12, 2]
    """
    target = starting_stack // depth
    rung = 0
    while 2 * ladder(rung + 2)[rung + 1] <= target:
        rung += 1
    return rung


def preset(name: PresetName, kind: Kind, starting_stack: int) -> Structure:
    """The structure of preset ``name`` for ``kind`` at ``starting_stack``.

    >>> s = preset("regular", "blinds", 10_000)
    >>> [lv.describe("blinds") for lv in s.levels[:5]]  # doctest: +NORMALIZE_WHITESPACE
    ['blinds 50/100', 'blinds 60/120', 'blinds 80/160', 'blinds 100/200',
     'blinds 150/300, big-blind ante 300']
    >>> s.steps[4]
    Break(seconds=600)
    >>> preset("turbo", "stud", 10_000).level(1).describe("stud")
    'limits 200/400, ante 40, bring-in 100'
    """
    spec = SPECS[name]
    start = first_rung(starting_stack, spec.depth)
    rungs = ladder(start + LEVELS)
    steps: list[Step] = []
    for number in range(1, LEVELS + 1):
        sb = rungs[start + number - 1]
        seconds = spec.minutes * 60
        if kind == "blinds":
            ante = 2 * sb if number >= spec.bb_ante_from else 0
            steps.append(Level.blinds(sb, 2 * sb, seconds, ante=ante, bb_ante=ante > 0))
        else:
            small = 2 * sb
            ante = small // 5 if kind in ("stud", "mixed") else 0
            steps.append(Level.limits(kind, small, 2 * small, seconds, ante=ante))
        if number % spec.break_every == 0 and number < LEVELS:
            steps.append(Break(spec.break_minutes * 60))
    return Structure(kind, tuple(steps))
