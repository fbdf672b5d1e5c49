"""Issue 19, item 1: the config file's ``[league]`` settings are a new league's defaults.

Every key of the section (and its ``HOMEGAME_LEAGUE__*`` variable) has an effect: a league
created after the settings are loaded starts with them, and its first tables play with
them (each game's stakes and decision time), shown here per key, through the real store
and table service; ``decision_seconds`` says one range everywhere; a bad value is one line.
The same through the fake Discord, with ``python -m bot run`` reading only a config.toml:
tests/ops/test_league_from_config_file.py.
"""

from __future__ import annotations

import inspect
import os
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest

from bot.config import DECISION_RANGE, ConfigError, LeagueSettings, Settings, load_settings
from bot.store import Store
from bot.tables.games import load_family
from bot.tables.service import TableService

REPO = Path(__file__).resolve().parents[1]
GUILD, CHANNEL, HOST = 1, 2, 10

Rules = Mapping[str, Any]


def stake(name: str) -> Callable[[str, Rules], Any]:
    return lambda game, rules: rules[name]


def mixed(name: str) -> Callable[[str, Rules], Any]:
    return lambda game, rules: rules["config"][name]


def seconds(game: str, rules: Rules) -> int:
    return load_family(game, rules, None).decision_seconds


GAME_OF = {
    "zoot": ("zoot", {}),
    "wheelers": ("wheelers", {}),
    "razz": ("razz", {}),
    "stud": ("stud", {}),
    "stud_hi_lo": ("stud", {"split": "hi-lo"}),
    "holdem": ("holdem", {}),
    "omaha": ("omaha", {}),
    "horse": ("horse", {}),
    "dealers_choice": ("dealers-choice", {}),
}
"""Config prefix -> the table command's game and options that open it."""

TABLE_KEYS: dict[str, tuple[int, Callable[[str, Rules], Any]]] = {
    "zoot_ante": (7, stake("ante")),
    "zoot_decision_seconds": (21, seconds),
    "wheelers_ante": (9, stake("ante")),
    "wheelers_decision_seconds": (22, seconds),
    "razz_ante": (3, stake("ante")),
    "razz_bring_in": (4, stake("bring_in")),
    "razz_small_bet": (12, stake("small_bet")),
    "razz_big_bet": (24, stake("big_bet")),
    "razz_decision_seconds": (23, seconds),
    "stud_ante": (1, stake("ante")),
    "stud_bring_in": (3, stake("bring_in")),
    "stud_small_bet": (14, stake("small_bet")),
    "stud_big_bet": (28, stake("big_bet")),
    "stud_decision_seconds": (24, seconds),
    "stud_hi_lo_ante": (4, stake("ante")),
    "stud_hi_lo_bring_in": (2, stake("bring_in")),
    "stud_hi_lo_small_bet": (16, stake("small_bet")),
    "stud_hi_lo_big_bet": (32, stake("big_bet")),
    "stud_hi_lo_decision_seconds": (25, seconds),
    "holdem_small_blind": (2, stake("small_blind")),
    "holdem_big_blind": (20, stake("big_blind")),
    "holdem_ante": (1, stake("ante")),
    "holdem_decision_seconds": (26, seconds),
    "omaha_small_blind": (1, stake("small_blind")),
    "omaha_big_blind": (50, stake("big_blind")),
    "omaha_ante": (5, stake("ante")),
    "omaha_decision_seconds": (27, seconds),
    "horse_small_bet": (40, mixed("small_bet")),
    "horse_ante": (3, mixed("ante")),
    "horse_decision_seconds": (28, seconds),
    "dealers_choice_small_bet": (60, mixed("small_bet")),
    "dealers_choice_ante": (6, mixed("ante")),
    "dealers_choice_decision_seconds": (29, seconds),
    "dealers_choice_choice_seconds": (45, mixed("choice_seconds")),
}
"""Each game's key -> (a value other than the default, what the new table's rules say)."""

LEAGUE_KEYS = {"starting_chips", "rebuy_amount", "rebuy_cooldown_minutes", "decision_seconds"}


@pytest.fixture(autouse=True)
def _clean_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    for name in list(os.environ):
        if name.upper().startswith("HOMEGAME_") or name.upper() == "DISCORD_TOKEN":
            monkeypatch.delenv(name)


def settings_from(source: str, key: str, value: int, tmp_path: Path) -> Settings:
    if source == "file":
        path = tmp_path / "config.toml"
        path.write_text(f"[league]\n{key} = {value}\n", encoding="utf-8")
        return load_settings(path, env={})
    return load_settings(env={f"HOMEGAME_LEAGUE__{key.upper()}": str(value)})


async def first_table(
    settings: Settings, tmp_path: Path, game: str, options: Mapping[str, Any]
) -> tuple[Store, Rules]:
    """A new league's first table, its league created with ``settings`` (as the bot sets
    its store up: bot/app.py); returns the store and the table's stored rules."""
    store = await Store.open(tmp_path / "homegame.db")
    store.league_defaults = settings.league.defaults()
    service = TableService(store, timers=False)
    view = await service.open_table(
        guild_id=GUILD,
        channel_id=CHANNEL,
        host_id=HOST,
        host_name="host",
        game=game,
        options=dict(options),
    )
    async with store.read() as tx:
        table = await tx.table(view.table_id)
    return store, table.rules


def test_issue19_item1_every_league_key_has_a_test_here() -> None:
    assert set(LeagueSettings.model_fields) == set(TABLE_KEYS) | LEAGUE_KEYS


@pytest.mark.parametrize("source", ["file", "env"])
@pytest.mark.parametrize("key", sorted(TABLE_KEYS))
async def test_issue19_item1_config_key_sets_a_new_leagues_first_table(
    key: str, source: str, tmp_path: Path
) -> None:
    value, read = TABLE_KEYS[key]
    prefix = next(p for p in sorted(GAME_OF, key=len, reverse=True) if key.startswith(p + "_"))
    game, options = GAME_OF[prefix]
    settings = settings_from(source, key, value, tmp_path)
    assert getattr(settings.league, key) != getattr(LeagueSettings(), key)  # not the default
    store, rules = await first_table(settings, tmp_path, game, options)
    try:
        assert read(game, rules) == value
        if read is seconds and game in ("horse", "dealers-choice"):
            assert {r["decision_seconds"] for r in rules["rules"]} == {value}  # every game
    finally:
        await store.close()


@pytest.mark.parametrize("source", ["file", "env"])
async def test_issue19_item1_decision_seconds_is_every_games_time_unless_its_own_is_set(
    source: str, tmp_path: Path
) -> None:
    settings = settings_from(source, "decision_seconds", 75, tmp_path)
    for i, (prefix, (game, options)) in enumerate(sorted(GAME_OF.items())):
        folder = tmp_path / str(i)
        folder.mkdir()
        store, rules = await first_table(settings, folder, game, options)
        await store.close()
        assert seconds(game, rules) == 75, prefix
    # a game's own time wins for that game only
    mine = LeagueSettings(decision_seconds=75, razz_decision_seconds=30).game_settings()
    assert mine["razz"]["house_rules"]["decision_seconds"] == 30
    assert mine["stud"]["house_rules"]["decision_seconds"] == 75


@pytest.mark.parametrize("source", ["file", "env"])
async def test_issue19_item1_starting_chips_is_what_the_first_seat_brings(
    source: str, tmp_path: Path
) -> None:
    settings = settings_from(source, "starting_chips", 5000, tmp_path)
    store, _ = await first_table(settings, tmp_path, "zoot", {})
    try:
        async with store.read() as tx:
            wallet = await tx.find_wallet(GUILD, HOST)
            league = await tx.league(GUILD)
        assert wallet is not None and wallet.balance == 5000
        assert league.starting_chips == 5000
    finally:
        await store.close()


@pytest.mark.parametrize("source", ["file", "env"])
async def test_issue19_item1_rebuy_amount_is_what_a_rebuy_tops_up_to(
    source: str, tmp_path: Path
) -> None:
    settings = settings_from(source, "rebuy_amount", 1500, tmp_path)
    store, _ = await first_table(settings, tmp_path, "zoot", {})
    try:
        async with store.transaction() as tx:
            entry = await tx.rebuy(GUILD, HOST)
            assert (await tx.league(GUILD)).rebuy_amount == 1500
            assert entry.amount == 500 and (await tx.balance(entry.to_account)) == 1500
    finally:
        await store.close()


@pytest.mark.parametrize("source", ["file", "env"])
async def test_issue19_item1_rebuy_cooldown_minutes_is_the_wait_between_rebuys(
    source: str, tmp_path: Path
) -> None:
    settings = settings_from(source, "rebuy_cooldown_minutes", 15, tmp_path)
    store, _ = await first_table(settings, tmp_path, "zoot", {})
    try:
        async with store.transaction() as tx:
            assert (await tx.league(GUILD)).rebuy_cooldown_seconds == 15 * 60
    finally:
        await store.close()


async def test_issue19_item1_an_existing_league_keeps_its_own_settings(tmp_path: Path) -> None:
    """The config seeds leagues created from now on; a league made before keeps what it
    has (its managers change it with /league setup)."""
    store = await Store.open(tmp_path / "homegame.db")
    async with store.transaction() as tx:
        await tx.league(GUILD)  # made with the built-in defaults
    store.league_defaults = load_settings(
        env={"HOMEGAME_LEAGUE__STARTING_CHIPS": "5000"}
    ).league.defaults()
    async with store.transaction() as tx:
        assert (await tx.league(GUILD)).starting_chips == 1000
        assert (await tx.league(GUILD + 1)).starting_chips == 5000
    await store.close()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("holdem_small_blind = 20", r"^league\.holdem_small_blind: must be at most the big blind"),
        ("stud_bring_in = 10", r"^league\.stud_bring_in: must be less than the small bet"),
        ("omaha_big_blind = 0", r"^league\.omaha_big_blind: .*greater than or equal to 1"),
        ("stud_hi_lo_big_bet = 5", r"^league\.stud_hi_lo_big_bet: must be at least the small"),
        ("zoot_ante = 0", r"^league\.zoot_ante: .*greater than or equal to 1"),
        ("dealers_choice_choice_seconds = 5", r"^league\.dealers_choice_choice_seconds: "),
        ("horse_small_bet = 1", r"^league\.horse_small_bet: .*greater than or equal to 2"),
        ("decision_seconds = 5", r"^league\.decision_seconds: .*greater than or equal to 10"),
        ("razz_decision_seconds = 601", r"^league\.razz_decision_seconds: .*less than or equal"),
    ],
)
def test_issue19_item1_a_bad_league_value_is_one_line_naming_the_key(
    text: str, expected: str, tmp_path: Path
) -> None:
    path = tmp_path / "c.toml"
    path.write_text(f"[league]\n{text}\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=expected) as err:
        load_settings(path, env={})
    assert "\n" not in err.value.message and str(path) in err.value.message


def test_issue19_item1_decision_seconds_says_one_range_in_config_commands_and_rules() -> None:
    low, high = DECISION_RANGE
    assert (low, high) == (10, 600)
    # the config: every decision key
    for name, info in LeagueSettings.model_fields.items():
        if name.endswith("decision_seconds"):
            bounds = {type(m).__name__: m for m in info.metadata}
            assert bounds["Ge"].ge == low and bounds["Le"].le == high, name
    example = (REPO / "config.example.toml").read_text(encoding="utf-8")
    assert f"({low}-{high})" in example
    # the commands: every table command's decision_seconds option
    from cogs import _flop, _mixed_commands, _stud_commands, tables

    sources = "".join(
        inspect.getsource(m) for m in (tables, _flop, _stud_commands, _mixed_commands)
    )
    ranges = re.findall(r"decision_seconds: app_commands\.Range\[int, (\d+), (\d+)\]", sources)
    assert len(ranges) == 8 and set(ranges) == {(str(low), str(high))}
    # the engines
    from bot.engine.flop.rules import FlopRules
    from bot.engine.guts.rules import GutsRules
    from bot.engine.stud.rules import StudRules

    for model in (GutsRules, StudRules, FlopRules):
        bounds = {type(m).__name__: m for m in model.model_fields["decision_seconds"].metadata}
        assert (bounds["Ge"].ge, bounds["Le"].le) == (low, high), model
    # the rules
    rules = (REPO / "docs" / "rules.md").read_text(encoding="utf-8")
    assert f"between {low} and {high} seconds" in rules
