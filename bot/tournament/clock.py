"""The level clock, as pure functions of stored times.

Nothing here keeps time: every answer is computed from three stored things -- the moment
the tournament started, the structure (each step's length) and the director's pauses --
and the moment asked about. So a restart loses no time and skips no level: the change
that was due at 21:15:00 is due at 21:15:00 whenever the bot asks, and a change the bot was
down for has happened when it comes back. Times are whole seconds (the store's); the
moment asked about may be a float (the injected clock's).

* The **clock** runs from the start, except during pauses (``/tournament pause`` to
  ``resume``); breaks are steps of the structure, so the clock runs through them.
* A step ends when the clock has run the lengths of it and every step before it: the
  change happens **at** that second (at 21:15:00 the new level is on).
* **A level change applies from the next hand** (TDA, "New Limits"): a table asks
  :func:`stakes_for_hand` when it deals, with the hand's start; a hand keeps the stakes it
  began with. During a break (or a pause) no hand starts; a hand under way at the start of a
  break is played to its end.
* After the last level the clock stays on it: no further change.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from bot.tournament.structure import Break, Level, Structure


@dataclass(frozen=True)
class Pause:
    """A pause of the clock from ``start`` to ``end`` (None: still paused)."""

    start: int
    end: int | None = None


def check_pauses(start: int, pauses: Sequence[Pause]) -> None:
    """Raise ``ValueError`` unless ``pauses`` are in order, apart, after ``start``, each
    ending after it starts, and only the last one open (the store keeps them so).

    >>> check_pauses(0, [Pause(10, 20), Pause(30)])
    >>> check_pauses(0, [Pause(10), Pause(30, 40)])
    Traceback (most recent call last):
    ...
    ValueError: only the last pause may be open
    """
    at = start
    for i, p in enumerate(pauses):
        if p.start < at:
            raise ValueError("pauses are in order, apart, and after the start")
        if p.end is None:
            if i != len(pauses) - 1:
                raise ValueError("only the last pause may be open")
            return
        if p.end < p.start:
            raise ValueError("a pause ends after it starts")
        at = p.end


def clock_seconds(start: int, pauses: Sequence[Pause], at: float) -> float:
    """How long the clock has run by ``at`` (0 before the start; frozen while paused).

    >>> clock_seconds(100, [Pause(160, 190)], 200)
    70
    >>> clock_seconds(100, [Pause(160)], 500)
    60
    """
    if at <= start:
        return 0
    ran: float = 0
    since: float = start
    for p in pauses:
        if at <= p.start:
            break
        ran += p.start - since
        if p.end is None or at <= p.end:
            return ran
        since = p.end
    return ran + (at - since)


def wall_time(start: int, pauses: Sequence[Pause], clock: int) -> int | None:
    """When the clock reaches ``clock`` seconds: the start plus ``clock`` plus every pause
    begun before then (None: a pause still open comes first, so nobody knows yet). A pause
    begun at that very second does not delay it.

    >>> wall_time(100, [Pause(160, 190)], 60), wall_time(100, [Pause(160, 190)], 61)
    (160, 191)
    >>> wall_time(100, [Pause(160)], 61) is None
    True
    """
    ran = 0
    since = start
    for p in pauses:
        if clock <= ran + (p.start - since):
            break
        ran += p.start - since
        if p.end is None:
            return None
        since = p.end
    return since + (clock - ran)


def step_ends(structure: Structure) -> tuple[int | None, ...]:
    """The clock second at which each step ends (None: the last level, which stays on).

    >>> from bot.tournament.structure import parse_levels
    >>> step_ends(parse_levels("10/20 15m, break 5m, 20/40 15m", "blinds"))
    (900, 1200, None)
    """
    out: list[int | None] = []
    total = 0
    for step in structure.steps[:-1]:
        total += step.seconds
        out.append(total)
    return (*out, None)


@dataclass(frozen=True)
class Reading:
    """What the clock says at a moment.

    ``step`` indexes :attr:`Structure.steps`; ``level`` is the level on, or during a break
    the level just played; ``next_change_at`` is when the step ends (None while paused, and
    on the last level; before the start, the start); ``remaining`` the clock seconds left in
    the step (None on the last level; frozen while paused).
    """

    started: bool
    step: int
    level: int
    on_break: bool
    paused: bool
    next_change_at: int | None
    remaining: float | None


def read_clock(structure: Structure, *, start: int, pauses: Sequence[Pause], at: float) -> Reading:
    """The clock of a tournament started at ``start`` with ``pauses``, at ``at``.

    >>> from bot.tournament.structure import parse_levels
    >>> s = parse_levels("10/20 15m, break 5m, 20/40 15m", "blinds")
    >>> r = read_clock(s, start=1000, pauses=[], at=1900)  # the change's very second
    >>> r.on_break, r.level, r.next_change_at
    (True, 1, 2200)
    >>> r = read_clock(s, start=1000, pauses=[Pause(1100, 1160)], at=1900)
    >>> r.on_break, r.level, r.next_change_at, r.remaining
    (False, 1, 1960, 60)
    """
    check_pauses(start, pauses)
    ran = clock_seconds(start, pauses, at)
    paused = bool(pauses) and pauses[-1].end is None and at >= pauses[-1].start
    ends = step_ends(structure)
    index = next(i for i, end in enumerate(ends) if end is None or ran < end)
    end = ends[index]
    return Reading(
        started=at >= start,
        step=index,
        level=structure.level_at_step(index),
        on_break=isinstance(structure.steps[index], Break),
        paused=paused,
        next_change_at=(
            start
            if at < start
            else None
            if end is None or paused
            else wall_time(start, pauses, end)
        ),
        remaining=None if end is None else end - ran,
    )


def step_start_time(
    structure: Structure, index: int, *, start: int, pauses: Sequence[Pause]
) -> int | None:
    """When step ``index`` begins (None: an open pause comes first).

    >>> from bot.tournament.structure import parse_levels
    >>> s = parse_levels("10/20 15m, break 5m, 20/40 15m", "blinds")
    >>> [step_start_time(s, i, start=0, pauses=[Pause(60, 120)]) for i in range(3)]
    [0, 960, 1260]
    """
    if index == 0:
        return start
    end = step_ends(structure)[index - 1]
    assert end is not None
    return wall_time(start, pauses, end)


def level_end_time(
    structure: Structure, number: int, *, start: int, pauses: Sequence[Pause]
) -> int | None:
    """When level ``number`` ends (None: it is the last level, or a pause is open)."""
    index = structure.step_of_level(number)
    end = step_ends(structure)[index]
    return None if end is None else wall_time(start, pauses, end)


@dataclass(frozen=True)
class Deal:
    """A hand may start now, at level ``level`` with these stakes."""

    level: int
    stakes: Level


@dataclass(frozen=True)
class Hold:
    """No hand may start now; ``until`` is when one may (None: not known, the clock is
    paused)."""

    reason: Literal["not started", "break", "paused"]
    until: int | None


def stakes_for_hand(
    structure: Structure, *, start: int, pauses: Sequence[Pause], at: float
) -> Deal | Hold:
    """What a table dealing a hand at ``at`` plays: the level on at that moment (TDA: a
    new level applies from the next hand), or why it must wait and until when.

    >>> from bot.tournament.structure import parse_levels
    >>> s = parse_levels("10/20 15m, break 5m, 20/40 15m", "blinds")
    >>> stakes_for_hand(s, start=0, pauses=[], at=899.5).stakes.big_blind
    20
    >>> stakes_for_hand(s, start=0, pauses=[], at=900)
    Hold(reason='break', until=1200)
    >>> stakes_for_hand(s, start=0, pauses=[], at=1200).level
    2
    """
    if at < start:
        return Hold("not started", start)
    reading = read_clock(structure, start=start, pauses=pauses, at=at)
    if reading.paused:
        return Hold("paused", None)
    if reading.on_break:
        return Hold("break", reading.next_change_at)
    return Deal(reading.level, structure.level(reading.level))


def next_change_time(
    structure: Structure, *, start: int, pauses: Sequence[Pause], at: float
) -> int | None:
    """When the clock next changes step after ``at`` (the time a table or the lobby shows as
    a Discord relative timestamp, and the store's deadline for the director's timer); None
    while paused or on the last level, or before the start: the start itself."""
    if at < start:
        return start
    return read_clock(structure, start=start, pauses=pauses, at=at).next_change_at


def seconds_until(moment: int | None, at: float) -> int | None:
    """Whole seconds from ``at`` to ``moment`` (rounded up, never negative)."""
    return None if moment is None else max(0, math.ceil(moment - at))


# ------------------------------------------------------------ periods counted in levels


def open_through_level(
    structure: Structure, number: int, *, start: int, pauses: Sequence[Pause], at: float
) -> bool:
    """Whether a period that lasts "through the end of level ``number``" is still open at
    ``at`` (``rebuy_until_level: 2`` means through the end of level 2; so does
    ``late_registration_levels: 2``). It is open before the start; ``number`` 0 closes it at
    the start; a period through the last level never closes.

    >>> from bot.tournament.structure import parse_levels
    >>> s = parse_levels("10/20 15m, 15/30 15m, break 5m, 20/40 15m", "blinds")
    >>> [open_through_level(s, 2, start=0, pauses=[], at=t) for t in (1799, 1800)]
    [True, False]
    >>> open_through_level(s, 0, start=0, pauses=[], at=-5), open_through_level(
    ...     s, 0, start=0, pauses=[], at=0)
    (True, False)
    """
    if at < start:
        return True
    if number <= 0:
        return False
    if number >= len(structure.levels):
        return True
    reading = read_clock(structure, start=start, pauses=pauses, at=at)
    return reading.step <= structure.step_of_level(number)


def period_end_time(
    structure: Structure, number: int, *, start: int, pauses: Sequence[Pause]
) -> int | None:
    """When a period "through the end of level ``number``" closes (None: never, or not known
    while a pause is open); ``number`` 0: at the start."""
    if number <= 0:
        return start
    if number >= len(structure.levels):
        return None
    return level_end_time(structure, number, start=start, pauses=pauses)


def add_on_break(structure: Structure, until_level: int) -> int | None:
    """The step index of the **add-on break**: the first break after level ``until_level``
    (the break that ends the rebuy period); None when no break follows that level.

    >>> from bot.tournament.structure import parse_levels
    >>> s = parse_levels("10/20 15m, 15/30 15m, break 5m, 20/40 15m", "blinds")
    >>> add_on_break(s, 2), add_on_break(s, 1), add_on_break(s, 3)
    (2, 2, None)
    """
    if until_level < 1 or until_level >= len(structure.levels):
        return None
    after = structure.step_of_level(until_level) + 1
    return next(
        (i for i in range(after, len(structure.steps)) if isinstance(structure.steps[i], Break)),
        None,
    )


def in_add_on_break(
    structure: Structure, until_level: int, *, start: int, pauses: Sequence[Pause], at: float
) -> bool:
    """Whether ``at`` falls in the add-on break (:func:`add_on_break`)."""
    index = add_on_break(structure, until_level)
    if index is None or at < start:
        return False
    return read_clock(structure, start=start, pauses=pauses, at=at).step == index
