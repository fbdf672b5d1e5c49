"""Issue 20 item 2 (the clock): levels change at exact times derived from the stored start,
the levels and the pauses -- a restart loses no time and skips no level --, a level change
applies from the next hand, breaks and pauses hold the deal, and the periods counted in
levels (rebuys, late registration, the add-on break)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournament.clock import (
    Deal,
    Hold,
    Pause,
    add_on_break,
    check_pauses,
    clock_seconds,
    in_add_on_break,
    next_change_time,
    open_through_level,
    period_end_time,
    read_clock,
    stakes_for_hand,
    step_start_time,
    wall_time,
)
from bot.tournament.presets import preset
from bot.tournament.structure import Break, Structure, parse_levels

START = 1_700_000_000
S = parse_levels("10/20 15m, 15/30 15m, break 5m, 25/50/5 15m, 50/100 20m", "blinds")


def test_levels_change_at_the_start_plus_the_lengths_before_them() -> None:
    changes = [step_start_time(S, i, start=START, pauses=[]) for i in range(len(S.steps))]
    assert changes == [START, START + 900, START + 1800, START + 2100, START + 3000]
    for i, at in enumerate(changes):
        assert read_clock(S, start=START, pauses=[], at=at).step == i  # on the very second
        if i:
            assert read_clock(S, start=START, pauses=[], at=at - 0.001).step == i - 1


def test_the_last_level_stays_on_with_no_next_change() -> None:
    late = read_clock(S, start=START, pauses=[], at=START + 10**7)
    assert (late.level, late.next_change_at, late.remaining) == (4, None, None)


def test_restart_loses_no_time_and_skips_no_level() -> None:
    """A bot that stops at 10 minutes into level 1 and is back 40 minutes later reads the
    clock from the stored start alone: the break (started at 30:00) is over, level 3 is on
    since 35:00, and level 3 changes at its stored time, 50:00 -- as if it had never
    stopped. Reading at any second gives the same answer as a clock that ran throughout."""
    before = read_clock(S, start=START, pauses=[], at=START + 600)
    assert (before.level, before.next_change_at) == (1, START + 900)
    after = read_clock(S, start=START, pauses=[], at=START + 3000 - 1)
    assert (after.level, after.on_break, after.next_change_at) == (3, False, START + 3000)
    ticking = None
    for second in range(0, 3600, 7):
        reading = read_clock(S, start=START, pauses=[], at=START + second)
        if ticking is not None and reading.step != ticking.step:
            assert reading.step == ticking.step + 1  # one step at a time: none skipped
            assert ticking.next_change_at is not None
            assert START + second >= ticking.next_change_at
        ticking = reading


def test_a_pause_moves_every_later_change_by_its_length() -> None:
    pauses = [Pause(START + 300, START + 420)]  # 2 minutes in level 1
    assert next_change_time(S, start=START, pauses=pauses, at=START + 10) == START + 1020
    assert step_start_time(S, 3, start=START, pauses=pauses) == START + 2100 + 120
    during = read_clock(S, start=START, pauses=[Pause(START + 300)], at=START + 5000)
    assert during.paused and during.next_change_at is None and during.remaining == 600
    assert during.level == 1  # the clock stood still


def test_a_pause_begun_on_the_change_second_does_not_delay_that_change() -> None:
    pauses = [Pause(START + 900, START + 960)]
    assert read_clock(S, start=START, pauses=pauses, at=START + 930).level == 2
    assert next_change_time(S, start=START, pauses=pauses, at=START + 900) == START + 1860


def test_level_change_applies_from_the_next_hand() -> None:
    """TDA: the new level is for the hands that start after the change; a hand begun one
    second before it keeps the old stakes."""
    old = stakes_for_hand(S, start=START, pauses=[], at=START + 899)
    new = stakes_for_hand(S, start=START, pauses=[], at=START + 900)
    assert isinstance(old, Deal) and isinstance(new, Deal)
    assert (old.level, old.stakes.big_blind) == (1, 20)
    assert (new.level, new.stakes.big_blind) == (2, 30)


def test_no_hand_starts_before_the_start_during_a_break_or_a_pause() -> None:
    assert stakes_for_hand(S, start=START, pauses=[], at=START - 5) == Hold("not started", START)
    assert stakes_for_hand(S, start=START, pauses=[], at=START + 1800) == Hold(
        "break", START + 2100
    )
    paused = [Pause(START + 100)]
    assert stakes_for_hand(S, start=START, pauses=paused, at=START + 200) == Hold("paused", None)
    resumed = [Pause(START + 100, START + 300)]
    deal = stakes_for_hand(S, start=START, pauses=resumed, at=START + 300)
    assert isinstance(deal, Deal) and deal.level == 1


def test_rebuy_until_level_2_means_through_the_end_of_level_2() -> None:
    assert open_through_level(S, 2, start=START, pauses=[], at=START + 1799.9)
    assert not open_through_level(S, 2, start=START, pauses=[], at=START + 1800)
    assert period_end_time(S, 2, start=START, pauses=[]) == START + 1800
    paused = [Pause(START + 1000, START + 1100)]
    assert period_end_time(S, 2, start=START, pauses=paused) == START + 1900


def test_late_registration_levels_zero_closes_at_the_start() -> None:
    assert open_through_level(S, 0, start=START, pauses=[], at=START - 1)
    assert not open_through_level(S, 0, start=START, pauses=[], at=START)
    assert open_through_level(S, 3, start=START, pauses=[], at=START + 2999)
    assert not open_through_level(S, 3, start=START, pauses=[], at=START + 3000)


def test_the_add_on_break_is_the_break_that_ends_the_rebuy_period() -> None:
    assert add_on_break(S, 2) == 2 and isinstance(S.steps[2], Break)
    assert in_add_on_break(S, 2, start=START, pauses=[], at=START + 1800)
    assert not in_add_on_break(S, 2, start=START, pauses=[], at=START + 2100)
    assert not in_add_on_break(S, 2, start=START, pauses=[], at=START + 1799)
    assert add_on_break(S, 3) is None  # no break after level 3


def test_pauses_are_checked() -> None:
    with pytest.raises(ValueError):
        check_pauses(START, [Pause(START + 50, START + 40)])
    with pytest.raises(ValueError):
        check_pauses(START, [Pause(START - 1, START + 40)])
    with pytest.raises(ValueError):
        check_pauses(START, [Pause(START + 50, START + 60), Pause(START + 55, START + 70)])


@st.composite
def pause_lists(draw: st.DrawFn) -> list[Pause]:
    at = START
    out: list[Pause] = []
    for _ in range(draw(st.integers(0, 4))):
        begin = at + draw(st.integers(0, 2000))
        out.append(Pause(begin, begin + draw(st.integers(0, 600))))
        at = out[-1].end or begin
    if draw(st.booleans()):
        out.append(Pause(at + draw(st.integers(0, 2000))))
    return out


@settings(max_examples=200, deadline=None)
@given(
    pauses=pause_lists(),
    at=st.integers(START - 100, START + 20_000),
    name=st.sampled_from(["turbo", "regular", "deep"]),
)
def test_clock_times_are_exact_functions_of_start_lengths_and_pauses(
    pauses: list[Pause], at: int, name: str
) -> None:
    structure: Structure = preset(name, "blinds", 10_000)  # type: ignore[arg-type]
    ran = clock_seconds(START, pauses, at)
    # the clock never runs faster than the wall, and a pause stops it
    assert 0 <= ran <= max(0, at - START)
    reading = read_clock(structure, start=START, pauses=pauses, at=at)
    if not reading.started:
        assert reading.next_change_at == START and reading.step == 0
    elif reading.next_change_at is not None:
        assert reading.next_change_at > at or (reading.remaining or 0) <= 0
        assert reading.next_change_at - at >= (reading.remaining or 0) - 1e-9
        nxt = read_clock(structure, start=START, pauses=pauses, at=reading.next_change_at)
        assert nxt.step == reading.step + 1
        before = read_clock(structure, start=START, pauses=pauses, at=reading.next_change_at - 1)
        assert before.step == reading.step
    closed = [p for p in pauses if p.end is not None]
    for clock in (0, 1, 600, 5000):
        when = wall_time(START, closed, clock)
        assert when is not None and clock_seconds(START, closed, when) == clock
