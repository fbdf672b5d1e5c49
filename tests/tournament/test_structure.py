"""Issue 20 item 1 (structures): the compact ``levels`` text, its errors, its rendering back,
the presets, and the stakes a level gives the real table families."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tables.games import make_family
from bot.tournament.errors import StructureError
from bot.tournament.presets import LEVELS, PRESETS, SPECS, ladder, preset
from bot.tournament.structure import (
    KINDS,
    TOURNAMENT_GAMES,
    Break,
    Kind,
    Level,
    Structure,
    game_kind,
    parse_levels,
    render_levels,
)

ISSUE_EXAMPLE = "10/20 15m, 15/30 15m, break 5m, 25/50/5 15m"


def test_issue_example_levels_text_is_sb_bb_ante_and_length() -> None:
    s = parse_levels(ISSUE_EXAMPLE, "blinds")
    assert s.steps == (
        Level.blinds(10, 20, 900),
        Level.blinds(15, 30, 900),
        Break(300),
        Level.blinds(25, 50, 900, ante=5),
    )
    assert render_levels(s) == ISSUE_EXAMPLE


def test_big_blind_ante_is_written_bb_and_amount_or_bb_alone_for_the_big_blind() -> None:
    s = parse_levels("25/50/bb50 20m, 50/100/bb 20m", "blinds")
    assert [(lv.ante, lv.bb_ante) for lv in s.levels] == [(50, True), (100, True)]
    assert s.level(1).table_stakes("blinds") == {
        "small_blind": 25, "big_blind": 50, "ante": 50, "bb_ante": True,
    }  # fmt: skip
    assert render_levels(s) == "25/50/bb50 20m, 50/100/bb100 20m"


def test_fixed_limit_levels_name_the_limits_and_the_blinds_are_half_and_one_small_bet() -> None:
    lv = parse_levels("20/40 15m", "limit").level(1)
    assert (lv.small_bet, lv.big_bet, lv.small_blind, lv.big_blind) == (20, 40, 10, 20)


def test_stud_levels_have_an_ante_and_a_bring_in_of_half_the_small_bet_unless_written() -> None:
    s = parse_levels("20/40/4 15m, 30/60/5/bi15 15m", "stud")
    assert [(lv.ante, lv.bring_in) for lv in s.levels] == [(4, 10), (5, 15)]
    assert render_levels(s) == "20/40/4 15m, 30/60/5 15m"  # bi15 is the default: not written
    odd = parse_levels("30/60/5/bi8 15m", "stud")
    assert render_levels(odd) == "30/60/5/bi8 15m"


def test_horse_levels_are_one_set_of_stakes_with_the_big_bet_twice_the_small_bet() -> None:
    lv = parse_levels("20/40/4 15m", "mixed").level(1)
    assert lv.table_stakes("mixed") == {"small_bet": 20, "ante": 4}
    with pytest.raises(StructureError, match=r"twice the small bet.*write 20/40"):
        parse_levels("20/30 15m", "mixed")


def test_a_level_without_a_length_lasts_as_long_as_the_level_before() -> None:
    s = parse_levels("10/20 12m, 15/30, break 5m, 20/40, 30/60 20m, 40/80", "blinds")
    assert [lv.seconds for lv in s.levels] == [720, 720, 720, 1200, 1200]


def test_lengths_take_hours_minutes_and_seconds() -> None:
    s = parse_levels("10/20 1h30m, 20/40 20min, 30/60 90s, 40/80 1h", "blinds")
    assert [lv.seconds for lv in s.levels] == [5400, 1200, 90, 3600]
    assert render_levels(s) == "10/20 1h30m, 20/40 20m, 30/60 1m30s, 40/80 1h"


BAD_TEXTS = [
    ("blinds", "", "The `levels` text is empty"),
    ("blinds", "10/20", "entry 1 `10/20`: give the first level's length"),
    ("blinds", "10/20 15", "entry 1 `10/20 15`: give the level's length with its unit"),
    ("blinds", "10/20 15m, 15/3O 15m", "entry 2 `15/3O 15m`: write the blinds as two whole"),
    ("blinds", "break 5m, 10/20 15m", "entry 1 `break 5m`: a structure starts with a level"),
    ("blinds", "10/20 15m, break 5m", "entry 2 `break 5m`: a structure ends with a level"),
    ("blinds", "10/20 15m, break 5m, break 5m, 20/40 15m", "entry 3 `break 5m`: two breaks"),
    ("blinds", "20/10 15m", "entry 1 `20/10 15m`: the small blind (20) is more than"),
    ("blinds", "10/20 15m, 20/40 15m, 5/10 15m", "entry 3 `5/10 15m`: the big blind (10) is less"),
    ("blinds", "10/20/bbx 15m", "entry 1 `10/20/bbx 15m`: write a big-blind ante as bb"),
    ("blinds", "10/20 15m,, 20/40 15m", "entry 2 ``: is empty"),
    ("blinds", "10/20/bi5 15m", "entry 1 `10/20/bi5 15m`: `bi5` is not an ante here"),
    ("blinds", "10/20/5/5 15m", "entry 1 `10/20/5/5 15m`: one ante per level"),
    ("blinds", "0/20 15m", "entry 1 `0/20 15m`: the small blind is at least 1"),
    ("blinds", "10/20 30s", "entry 1 `10/20 30s`: a level lasts from 1 minute to 24 hours"),
    ("blinds", "10/20 25h", "entry 1 `10/20 25h`: a level lasts from 1 minute to 24 hours"),
    ("blinds", "10/20 15m, break", "entry 2 `break`: give the break's length"),
    ("stud", "20/40/bb20 15m", "entry 1 `20/40/bb20 15m`: `bb20` is not an ante here"),
    ("stud", "20/40/4/bi20 15m", "the bring-in (20) is at least 1 and less than the small bet"),
    ("stud", "1/2 15m", "the small bet is at least 2"),
    ("limit", "40/20 15m", "the big bet (20) is less than the small bet (40)"),
    ("limit", "20/40/bb0 15m", "a big-blind ante is at least 1"),
]


@pytest.mark.parametrize(("kind", "text", "expected"), BAD_TEXTS)
def test_bad_levels_text_gets_one_clear_line_naming_the_bad_entry(
    kind: Kind, text: str, expected: str
) -> None:
    with pytest.raises(StructureError) as caught:
        parse_levels(text, kind)
    message = caught.value.message
    assert expected in message
    assert "\n" not in message and message[0].isupper()
    assert message.endswith("Nothing changed.")


@settings(max_examples=300, deadline=None)
@given(
    kind=st.sampled_from(KINDS),
    text=st.text(alphabet=st.sampled_from("0123456789/ ,;bkreamhsi\n"), max_size=60),
)
def test_any_levels_text_is_a_structure_or_a_structure_error_never_another_exception(
    kind: Kind, text: str
) -> None:
    try:
        s = parse_levels(text, kind)
    except StructureError as exc:
        assert exc.message.endswith("Nothing changed.") and "\n" not in exc.message
    else:
        assert parse_levels(render_levels(s), kind) == s


@st.composite
def structures(draw: st.DrawFn) -> Structure:
    kind = draw(st.sampled_from(KINDS))
    steps: list[Level | Break] = []
    stake = draw(st.integers(2, 50))
    for i in range(draw(st.integers(1, 12))):
        if i and draw(st.booleans()) and not isinstance(steps[-1], Break):
            steps.append(Break(60 * draw(st.integers(1, 30))))
        stake += draw(st.integers(0, 40))
        seconds = draw(st.sampled_from([60, 90, 600, 900, 1200, 3600, 5400]))
        ante = draw(st.integers(0, stake))
        if kind == "blinds":
            sb = draw(st.integers(1, stake))
            bb_ante = draw(st.booleans()) and ante > 0
            steps.append(Level.blinds(sb, stake, seconds, ante=ante, bb_ante=bb_ante))
        elif kind == "stud":
            bring_in = draw(st.integers(1, stake - 1))
            big = stake + draw(st.integers(0, stake))
            steps.append(Level.limits(kind, stake, big, seconds, ante=ante, bring_in=bring_in))
        elif kind == "mixed":
            steps.append(Level.limits(kind, stake, 2 * stake, seconds, ante=ante))
        else:
            big = stake + draw(st.integers(0, stake))
            bb_ante = draw(st.booleans()) and ante > 0
            steps.append(Level.limits(kind, stake, big, seconds, ante=ante, bb_ante=bb_ante))
    return Structure(kind, tuple(steps))


@settings(max_examples=300, deadline=None)
@given(structures())
def test_render_levels_reads_back_to_the_same_structure(s: Structure) -> None:
    assert parse_levels(render_levels(s), s.kind) == s


def test_game_kinds_of_the_tournament_games() -> None:
    kinds = {g: game_kind(g) for g in TOURNAMENT_GAMES}
    assert kinds == {
        "holdem": "blinds", "omaha": "blinds", "stud": "stud", "stud8": "stud",
        "razz": "stud", "horse": "mixed",
    }  # fmt: skip
    assert game_kind("holdem", "fixed-limit") == "limit"
    assert game_kind("omaha", "pot-limit") == "blinds"


# -------------------------------------------------------------------------- presets


def test_presets_are_scaled_to_the_starting_stack_by_their_depth() -> None:
    for name in PRESETS:
        for stack in (1_500, 3_000, 10_000, 20_000, 100_000):
            first = preset(name, "blinds", stack).level(1)
            depth = SPECS[name].depth
            assert first.big_blind <= max(2, stack // depth)
            rungs = ladder(60)
            nxt = rungs[rungs.index(first.small_blind) + 1]
            assert 2 * nxt > stack // depth or first.big_blind == 2  # the highest rung that fits


def test_preset_tables_at_ten_thousand_chips() -> None:
    """The documented tables (module docstring, rule book §10): level 1, its length, the
    first break and the first big-blind ante."""
    shown = {name: preset(name, "blinds", 10_000) for name in PRESETS}
    assert [shown[n].level(1).big_blind for n in PRESETS] == [200, 100, 50]
    assert [shown[n].level(1).seconds for n in PRESETS] == [600, 900, 1200]
    for name, s in shown.items():
        spec = SPECS[name]
        first_break = next(i for i, step in enumerate(s.steps) if isinstance(step, Break))
        assert s.level_at_step(first_break) == spec.break_every
        assert s.steps[first_break].seconds == spec.break_minutes * 60
        antes = [n for n, lv in enumerate(s.levels, 1) if lv.ante]
        assert antes[0] == spec.break_every + 1 and all(lv.bb_ante for lv in s.levels if lv.ante)
        assert all(lv.ante == lv.big_blind for lv in s.levels if lv.ante)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("name", PRESETS)
def test_every_preset_rises_every_level_and_has_a_break_each_hour(name: str, kind: Kind) -> None:
    s = preset(name, kind, 10_000)  # type: ignore[arg-type]
    stakes = [lv.stake(kind) for lv in s.levels]
    assert len(stakes) == LEVELS and all(a < b for a, b in itertools.pairwise(stakes))
    spec = SPECS[name]  # type: ignore[index]
    breaks = [s.level_at_step(i) for i, step in enumerate(s.steps) if isinstance(step, Break)]
    assert breaks == list(range(spec.break_every, LEVELS, spec.break_every))
    assert spec.minutes * spec.break_every == 60
    if kind in ("stud", "mixed"):
        assert all(lv.ante == lv.small_bet // 5 for lv in s.levels)
    if kind == "limit":
        assert not any(lv.ante for lv in s.levels)


def _family_options(game: str, kind: Kind, level: Level) -> tuple[str, dict[str, Any]]:
    stakes: dict[str, Any] = dict(level.table_stakes(kind))
    if game == "stud8":
        return "stud", {**stakes, "split": "hi-lo"}
    if kind == "limit":
        stakes["betting"] = "fixed-limit"
    return game, stakes


@pytest.mark.parametrize(
    ("game", "betting"),
    [("holdem", None), ("holdem", "fixed-limit"), ("omaha", None), ("omaha", "fixed-limit"),
     ("stud", None), ("stud8", None), ("razz", None), ("horse", None)],
)  # fmt: skip
@pytest.mark.parametrize("stack", [100, 1_500, 10_000, 1_000_000])
def test_every_preset_level_is_a_table_the_real_families_accept(
    game: str, betting: str | None, stack: int
) -> None:
    """A level's ``table_stakes`` are options the table families validate and deal with,
    both as a table's first stakes and as a level change of a table already dealing
    (``GameFamily.with_stakes``, how a tournament's table moves up: the mixed table's small
    bet is no longer capped at the /horse command's 1,000,000)."""
    kind = game_kind(game, betting)
    for name in PRESETS:
        levels = preset(name, kind, stack).levels
        key, options = _family_options(game, kind, levels[0])
        table = make_family(key, options)
        for level in levels:
            key, options = _family_options(game, kind, level)
            family = make_family(key, options)
            assert family is not None
            table = table.with_stakes(level.table_stakes(kind))
            assert table.rules_json == family.rules_json
