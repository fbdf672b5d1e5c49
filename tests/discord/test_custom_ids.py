"""The one custom_id grammar (STYLE 5): build and parse round-trip, under Discord's 100
characters, matched by the DynamicItem templates, and refusing what is not ours."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cogs._ids import (
    ACTIONS,
    BUTTON_TEMPLATE,
    GAME_SELECT_TEMPLATE,
    MAX_CUSTOM_ID,
    SELECT_TEMPLATE,
    BadCustomId,
    CustomId,
    build_custom_id,
    parse_custom_id,
)

ids = st.integers(min_value=1, max_value=10**19)
versions = st.integers(min_value=0, max_value=10**19)
args = st.one_of(st.none(), st.from_regex(r"[A-Za-z0-9_]{1,24}", fullmatch=True))


@given(ids, versions, st.sampled_from(ACTIONS), args)
def test_custom_id_round_trips_under_100_chars(
    table_id: int, version: int, action: str, arg: str | None
) -> None:
    text = build_custom_id(table_id, version, action, arg)
    assert len(text) <= MAX_CUSTOM_ID
    assert parse_custom_id(text) == CustomId(table_id, version, action, arg)
    # exactly one DynamicItem template claims it: the discard select, the dealer's game
    # menu, else the button
    button = re.fullmatch(BUTTON_TEMPLATE, text) is not None
    select = re.fullmatch(SELECT_TEMPLATE, text) is not None
    games = re.fullmatch(GAME_SELECT_TEMPLATE, text) is not None
    expect = {"discard": (False, True, False), "pick_game": (False, False, True)}
    assert (button, select, games) == expect.get(action, (True, False, False))


def test_custom_id_longest_possible_fits_discord_limit() -> None:
    longest = build_custom_id(10**19, 10**19, "lay_down", "x" * 24)
    assert len(longest) <= MAX_CUSTOM_ID


@pytest.mark.parametrize(
    "text",
    [
        "",
        "hg:1:2",
        "hg:0:2:join",  # table ids start at 1
        "hg:01:2:join",
        "hg:1:-2:join",
        "hg:1:2:shove",  # not an action
        "hg:1:2:join:bad arg",
        "xx:1:2:join",
        "hg:1:2:join:" + "a" * 200,
        "t:count:1",
    ],
)
def test_parse_refuses_foreign_or_damaged_custom_ids(text: str) -> None:
    with pytest.raises(BadCustomId):
        parse_custom_id(text)


@pytest.mark.parametrize(
    ("table_id", "version", "action", "arg"),
    [(0, 1, "join", None), (1, -1, "join", None), (1, 1, "all_in", None), (1, 1, "bet", "a:b")],
)
def test_build_refuses_values_it_cannot_carry(
    table_id: int, version: int, action: str, arg: str | None
) -> None:
    with pytest.raises(BadCustomId):
        build_custom_id(table_id, version, action, arg)
