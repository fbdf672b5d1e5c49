"""Issue 20, "the shape of the code": one registry of games (bot/games.py) that every other
place asks, so a ninth game is its engine, its adapter, its command, its rules and its line
in the registry, nothing more.

Three kinds of test: the registry agrees with what the engines, adapters and commands do
(its PHH codes are the engines', its families build the games, its commands and pages are
the bot's); a ninth game registered before the bot is imported shows up in every listing
(run in a fresh interpreter, since the listings are read at import); and a source scan
finds no list of game keys written out anywhere else.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot import games as registry
from bot.engine.errors import InvalidConfig
from bot.tables.games import load_family, make_family

ROOT = Path(__file__).resolve().parent.parent


# ----------------------------------------------------------------- the registry agrees


def test_issue20_registry_lists_the_eight_games_in_the_order_every_listing_shows() -> None:
    assert registry.keys() == (
        "zoot",
        "wheelers",
        "razz",
        "stud",
        "holdem",
        "omaha",
        "horse",
        "dealers-choice",
    )
    assert registry.keys(mixed=True) == ("horse", "dealers-choice")
    assert {g.family for g in registry.games()} == set(registry.FAMILIES)
    for g in registry.games():
        assert g.command == g.key == g.page
        assert g.title and g.help and g.rules and g.section
        assert g.mixed == (g.family == "mixed") and g.mixed == bool(g.mode) == bool(g.plays)


def test_issue20_registry_phh_codes_are_the_ones_the_engines_write_and_read() -> None:
    from bot.engine.flop.phh import VARIANTS as FLOP_CODES
    from bot.engine.guts.history import VARIANTS as GUTS_CODES
    from bot.engine.stud.replay import GAMES as STUD_CODES
    from bot.engine.verify import STUD_VARIANTS

    def codes(family: str) -> set[str]:
        return {c for g in registry.games(family=family) for c in g.phh}

    assert codes("flop") == set(FLOP_CODES)
    assert codes("stud") == set(STUD_CODES) == set(STUD_VARIANTS)
    assert {g.key: g.phh for g in registry.games(family="guts")} == {
        game: (code,) for game, code in GUTS_CODES.items()
    }
    assert not codes("mixed")  # each hand is written as the game dealt
    # a split game's hi-lo codes end in /8, as /history reads them
    for g in registry.games():
        assert any(c.endswith("/8") for c in g.phh) == ("hi-lo" in g.splits)


def test_issue20_every_game_is_built_by_its_family_from_the_registry() -> None:
    for g in registry.games():
        fam = make_family(g.key, {})
        stored = load_family(g.key, fam.rules_json, None)
        assert type(stored) is type(fam)
        assert (fam.mixed() is not None) == g.mixed
        if not g.mixed:
            assert fam.game == g.key
        for split in g.splits:
            assert make_family(g.key, {"split": split}).rules_json["split"] == split
        for betting in g.bettings:
            assert make_family(g.key, {"betting": betting}).rules_json["betting"] == betting
    with pytest.raises(InvalidConfig) as refused:
        make_family("badugi", {})
    assert refused.value.field == "game"
    assert ", ".join(registry.keys()) in refused.value.reason


def test_issue20_every_league_setting_has_its_config_keys_and_opens_a_table() -> None:
    """The [league] config keys of the eight games are a documented contract (README,
    config.example.toml): each setting's ``<prefix>_<stake>`` is a field, and no field
    names a setting the registry does not have."""
    from bot.config import LeagueSettings
    from bot.tables.games import check_league_settings

    fields = LeagueSettings.model_fields
    settings = LeagueSettings().game_settings()
    expected = {"starting_chips", "rebuy_amount", "rebuy_cooldown_minutes", "decision_seconds"}
    for d in registry.league_settings():
        for name in (*d.stakes, *d.times):
            assert f"{d.config}_{name}" in fields, (d.key, name)
            expected.add(f"{d.config}_{name}")
        check_league_settings(d.key, settings[d.key])
    assert set(fields) == expected
    assert list(settings) == [d.key for d in registry.league_settings()]
    assert registry.settings_key("stud", {"split": "hi-lo"}) == "stud-hi-lo"
    assert registry.settings_key("stud", {"split": "high"}) == "stud"
    assert registry.settings_key("omaha", {"split": "hi-lo"}) == "omaha"


def test_issue20_every_rules_page_and_table_command_is_the_registrys() -> None:
    from bot.render import rulebook
    from cogs.rules import RulesCog

    pages = [c.name for c in RulesCog.rules.commands]
    assert pages == [*(g.page for g in registry.games()), *rulebook.TOPICS, "compare"]
    descriptions = {c.name: c.description for c in RulesCog.rules.commands}
    for g in registry.games():
        assert descriptions[g.page] == g.rules
        assert rulebook.PARTS[g.page], g.key
        assert g.section in {number for number, *_ in rulebook.SECTIONS}
    listed = {game for *_, house in rulebook.SECTIONS for game in house}
    assert listed == set(registry.keys())


def test_issue20_every_table_command_of_the_bot_is_a_registry_game() -> None:
    """The bot's slash commands that open a table are exactly the registry's commands, and
    each has the ``split``/``betting`` options the registry says."""
    from cogs.tables import TablesCog

    commands = {c.name: c for c in TablesCog.__cog_app_commands__ if c.parent is None}
    for g in registry.games():
        command = commands[g.command]
        options = {p.name for p in command.parameters}
        assert ("split" in options) == bool(g.splits), g.key
        assert ("betting" in options) == bool(g.bettings), g.key
        for name, values in (("split", g.splits), ("betting", g.bettings)):
            param = next((p for p in command.parameters if p.name == name), None)
            if param is not None:
                assert [c.value for c in param.choices] == list(values), (g.key, name)
    assert "practice" in {p.name for p in commands["zoot"].parameters}


def test_issue20_a_tournament_names_its_game_once_in_the_registry() -> None:
    """The games a tournament deals are the registry's (``stud8`` is a Stud table split
    hi-lo); each one's seats are what its family's table seats, its bettings its game's,
    and the pure director reads them from there (no list of games of its own)."""
    from bot.tournament.config import max_seats
    from bot.tournament.structure import TOURNAMENT_GAMES, game_kind

    assert registry.tournament_keys() == ("holdem", "omaha", "stud", "stud8", "razz", "horse")
    assert registry.tournament_keys() == TOURNAMENT_GAMES
    for t in registry.tournament_games():
        family = make_family(t.game, dict(t.options))
        assert family.max_players == t.seats == max_seats(t.key), t.key
        assert t.family == registry.game(t.game).family
        assert t.bettings == registry.game(t.game).bettings
        if t.bettings:
            assert t.default_betting in t.bettings
            assert make_family(t.game, dict(t.options)).rules_json["betting"] == t.default_betting
        assert game_kind(t.key) == {"flop": "blinds", "stud": "stud", "mixed": "mixed"}[t.family]
    assert make_family("stud", dict(registry.tournament_game("stud8").options)).rules_json[
        "split"
    ] == ("hi-lo")


# ----------------------------------------------------------------- a ninth game

NINTH = """
import json, sys
from bot import games as registry

registry.register(
    registry.Game(
        "badugi", "Badugi", "stud", "10",
        help="four cards, four suits, the lowest wins",
        rules="Badugi: draws, the ranking, house rules",
        phh=("FB",),
        splits=("high", "hi-lo"),
        hi_lo_title="Badugi Hi-Lo",
    ),
    registry.Variant("badugi", "badugi", "Badugi"),
)

from discord import app_commands

from bot.cli.compare import GAMES as COMPARE_GAMES
from bot.cli.sim import GAMES as SIM_GAMES, SPLIT_GAMES
from bot.config import LEAGUE_GAMES
from bot.ops.sandbox import GAMES as SANDBOX_GAMES, TABLE_BUTTON_GAMES
from bot.render import rulebook
from bot.render.text import game_title
from bot.store.models import GAMES, SETTINGS_GAMES
from bot.tables.variants import VARIANTS
from cogs._answer import PUBLIC_COMMANDS
from cogs._ids import LB_GAMES, LeaderboardId, parse_leaderboard_id
from cogs._render import STUD_GAMES, TABLE_ACTIONS_OF
from cogs.admin import SETTINGS_TITLES
from cogs.help import sections
from cogs.league import GAME_CHOICES, hand_game_name
from cogs.rules import COMPARE_EXTRA, RulesCog


async def _open(interaction) -> None:
    pass


top = [
    app_commands.Command(name=name, description=f"Open a {name} table", callback=_open)
    for name in ("zoot", "badugi")
]
games_page = next(s for s in sections(top) if s.key == "games")
button = str(LeaderboardId(3, "badugi", "net", 1))
json.dump(
    {
        "stored": "badugi" in GAMES,
        "settings": "badugi" in SETTINGS_GAMES and SETTINGS_TITLES.get("badugi"),
        "config": LEAGUE_GAMES.get("badugi"),
        "public": "badugi" in PUBLIC_COMMANDS,
        "lb_games": LB_GAMES[-1],
        "lb_button": parse_leaderboard_id(button).game,
        "lb_choice": [c.name for c in GAME_CHOICES if c.value == "badugi"],
        "history": [hand_game_name("badugi", hi_lo=False), hand_game_name("badugi", hi_lo=True)],
        "title": game_title("badugi"),
        "rules_titles": rulebook.GAME_TITLES.get("badugi"),
        "rules_pages": [c.name for c in RulesCog.rules.commands][-6:],
        "compare": [COMPARE_GAMES[-1], COMPARE_EXTRA.get("badugi8")],
        "table_commands": rulebook.table_commands_text(),
        "help": [line for line in games_page.lines if "Badugi" in line],
        "sim": [SIM_GAMES[-1], SANDBOX_GAMES[-1], "badugi" in SPLIT_GAMES],
        "buttons": ["badugi" in TABLE_BUTTON_GAMES, "badugi" in TABLE_ACTIONS_OF],
        "stud_family": "badugi" in STUD_GAMES,
        "mixed": VARIANTS["badugi"].game,
        "house_rules_section": rulebook.house_rules_of("10"),
    },
    sys.stdout,
)
"""


def test_issue20_a_ninth_game_registered_shows_in_every_listing() -> None:
    """A ninth game, registered before the rest of the bot is imported (a fresh
    interpreter), is in every list of games: the stored games and league settings (their
    config keys), the public commands, the leaderboard's game choice and its button's
    custom_id, /history's names, the titles, the /rules pages and compare choices, the
    table commands' list, the /help games page, the CLIs' choices, the table buttons and
    the mixed tables' games. Nothing but its registry line was added."""
    done = subprocess.run(
        [sys.executable, "-c", NINTH],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout)
    assert seen["stored"] and seen["settings"] == "Badugi"
    assert seen["config"] == [
        "badugi",
        ["ante", "bring_in", "small_bet", "big_bet"],
        ["decision_seconds"],
    ]
    assert seen["public"]
    assert seen["lb_games"] == "badugi" and seen["lb_button"] == "badugi"
    assert seen["lb_choice"] == ["Badugi"]
    assert seen["history"] == ["Badugi", "Badugi Hi-Lo"]
    assert seen["title"] == "Badugi" and seen["rules_titles"] == "Badugi"
    assert seen["rules_pages"] == [
        "badugi",
        "league",
        "tournament",
        "glossary",
        "table",
        "compare",
    ]
    assert seen["compare"] == ["badugi", "Badugi Hi-Lo"]
    assert seen["table_commands"].endswith("`/dealers-choice` or `/badugi`")
    assert seen["help"] == [
        "**Badugi**: four cards, four suits, the lowest wins. Open: `/badugi` · rules:"
        " `/rules badugi`"
    ]
    assert seen["sim"] == ["badugi", "badugi", True]
    assert seen["buttons"] == [True, True] and seen["stud_family"]
    assert seen["mixed"] == "badugi"
    assert seen["house_rules_section"] == ["badugi"]


def test_issue20_register_refuses_a_game_that_would_make_two_games_one() -> None:
    zoot = registry.game("zoot")
    with pytest.raises(ValueError, match="exists"):
        registry.register(zoot)
    with pytest.raises(ValueError, match="family"):
        registry.register(registry.Game("badugi", "Badugi", "draw", "10", help="h", rules="r"))
    assert registry.keys()[-1] == "dealers-choice"  # nothing was added


# ----------------------------------------------------------------- the source scan

GAME_KEYS = frozenset(registry.keys()) | {d.key for d in registry.league_settings()}
"""What names a game: its key, or one of the league's game settings (``stud-hi-lo``)."""

OWN_FAMILY = {
    "guts": ("bot/engine/guts/", "bot/engine/hands/", "bot/tables/guts.py"),
    "stud": (
        "bot/engine/stud/",
        "bot/engine/razz/",
        "bot/tables/stud.py",
        "cogs/_stud",
        "bot/render/rulebook_stud.py",
    ),
    "flop": (
        "bot/engine/flop/",
        "bot/tables/flop.py",
        "cogs/_flop.py",
        "bot/cli/compare_flop",
        "bot/render/rulebook_flop.py",
    ),
    "mixed": ("bot/tables/mixed.py", "cogs/_mixed", "bot/render/rulebook_mixed.py"),
}
"""A game's own engine, adapter, command and rules modules, which may name their games."""

ALLOWED = {
    "bot/games.py": "the registry itself",
    "bot/render/rulebook.py": "the rule book's own text of each game (PARTS, house_rules):"
    " a ninth game's rules are written there",
    "bench/engines.py": "the engine benchmark's rows, one per engine it times",
    "cogs/admin.py": "/league setup's stake options (zoot_ante, razz_bring_in...), a"
    " contract by name: each is a parameter of the command",
    "bench/requests.py": "the requests benchmark's targets of the games issue 11 measured",
    "bench/evaluators.py": "the evaluator benchmark's rows, one per ranking it times",
}
"""Modules that may write out several games' keys together, and why."""


def _sources() -> Iterator[tuple[str, ast.Module]]:
    for folder in ("bot", "cogs", "bench"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if rel.startswith("bot/testing/"):
                continue  # the fake Discord: no game
            yield rel, ast.parse(path.read_text(encoding="utf-8"), filename=rel)


def _literal_keys(node: ast.AST) -> list[str]:
    """The game keys among a literal collection's string elements (a dict's keys)."""
    if isinstance(node, ast.Dict):
        items: list[ast.expr | None] = list(node.keys)
    elif isinstance(node, ast.Tuple | ast.List | ast.Set):
        items = list(node.elts)
    else:
        return []
    return [
        i.value
        for i in items
        if isinstance(i, ast.Constant) and isinstance(i.value, str) and i.value in GAME_KEYS
    ]


def _family(key: str) -> str:
    entry = registry.settings_entry(key)
    return registry.game(entry.game if entry is not None else key).family


def listings_of_games(rel: str, tree: ast.Module) -> list[str]:
    """Each literal collection of ``rel`` that names two games or more, unless they are all
    of one family and ``rel`` is one of that family's own modules."""
    found = []
    for node in ast.walk(tree):
        named = sorted(set(_literal_keys(node)))
        if len(named) < 2:
            continue
        families = {_family(k) for k in named}
        if len(families) == 1 and rel.startswith(OWN_FAMILY[families.pop()]):
            continue
        found.append(f"{rel}:{getattr(node, 'lineno', 0)}: {', '.join(named)}")
    return found


def test_issue20_no_module_but_the_registry_writes_out_a_list_of_games() -> None:
    """Every list, tuple, set or dict (its keys) in bot/, cogs/ and bench/ that names two
    games or more is a defect unless its module is a game's own (its engine, adapter or
    command naming its own games) or listed in :data:`ALLOWED` with its reason: a list
    written out is one a ninth game would have to be added to."""
    found = [
        hit
        for rel, tree in _sources()
        if rel not in ALLOWED
        for hit in listings_of_games(rel, tree)
    ]
    assert not found, "lists of games outside bot/games.py:\n" + "\n".join(found)


def test_issue20_the_scan_finds_a_list_of_games_and_spares_a_familys_own() -> None:
    sample = ast.parse(
        'GAMES = ("zoot", "wheelers", "razz")\n'
        'FLOP = {"holdem": 1, "omaha": 2}\n'
        'if game in ("zoot", "wheelers"): pass\n'
        'ONE = ("razz",)\n'
    )
    assert listings_of_games("cogs/new.py", sample) == [
        "cogs/new.py:1: razz, wheelers, zoot",
        "cogs/new.py:2: holdem, omaha",
        "cogs/new.py:3: wheelers, zoot",
    ]
    assert listings_of_games("bot/tables/flop.py", sample) == [
        "bot/tables/flop.py:1: razz, wheelers, zoot",
        "bot/tables/flop.py:3: wheelers, zoot",
    ]
