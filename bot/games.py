"""The one registry of games: what every other place asks about a game (DESIGN, "Games,
tables, tournaments, nights").

Each :class:`Game` is one line of :data:`REGISTRY`: its key (the game a table stores, its
slash command and its ``/rules`` page: one name for all three), its title, its family (the
adapter that deals it: ``guts``, ``stud``, ``flop`` or ``mixed``), its PHH variant codes,
its rule-book section, the splits and betting structures its command offers, the league
settings its command starts from, and the lines ``/help`` and ``/rules`` say of it. The
lists of games elsewhere (the stored games, the table commands answered in public, the
leaderboard's game choices and buttons, the titles, the rule book's house rules, the
league's settings and config keys, the CLIs' choices, the games a mixed table deals) are
read from here, so a ninth game is its engine, its adapter, its command, its rules and
its line below, nothing more.

Pure data, no I/O and no imports from the rest of the bot, so every layer may read it (the
engine included). Order matters: it is the order every listing shows.

>>> [g.key for g in games()]
['zoot', 'wheelers', 'razz', 'stud', 'holdem', 'omaha', 'horse', 'dealers-choice']
>>> title("holdem"), game("stud").family, keys(family="flop")
("Hold'em", 'stud', ('holdem', 'omaha'))
>>> tournament_keys(), tournament_game("stud8").options, tournament_game("horse").seats
(('holdem', 'omaha', 'stud', 'stud8', 'razz', 'horse'), {'split': 'hi-lo'}, 8)
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

FAMILIES: Final = ("guts", "stud", "flop", "mixed")
"""The adapters of bot/tables (``GutsFamily``, ``StudFamily``, ``FlopFamily``,
``MixedFamily``): a game's ``family`` is one of them."""

FAMILY_STAKES: Final[Mapping[str, tuple[str, ...]]] = {
    "guts": ("ante",),
    "stud": ("ante", "bring_in", "small_bet", "big_bet"),
    "flop": ("small_blind", "big_blind", "ante"),
    "mixed": ("small_bet", "ante"),
}
"""The stakes a league keeps for a game of each family (``[league]`` config keys
``<game>_<stake>``, ``/league show``)."""

DECISION_TIMES: Final = ("decision_seconds",)


@dataclass(frozen=True, slots=True)
class Defaults:
    """One of a league's game settings: the stakes and times a table command starts with.

    Most games have one, under their own key; a game whose splits are two commands' worth
    of defaults has one per split (``stud-hi-lo`` holds what ``/stud split:hi-lo`` starts
    with). ``config`` is the prefix of its ``[league]`` config keys (``stud_hi_lo_ante``).
    """

    key: str
    game: str
    title: str
    """How ``/league show`` names it: the game's full name (the rule book's), its split's."""
    stakes: tuple[str, ...]
    times: tuple[str, ...] = DECISION_TIMES
    options: Mapping[str, Any] = field(default_factory=dict)

    @property
    def config(self) -> str:
        return self.key.replace("-", "_")


@dataclass(frozen=True, slots=True)
class Variant:
    """One game a mixed table may deal: its key there, the game key of its family, its
    name and the game's own options (``holdem-fl``: Hold'em, fixed limit)."""

    key: str
    game: str
    label: str
    options: Mapping[str, Any] = field(default_factory=dict)

    @property
    def family(self) -> str:
        """Its game's family, which says how a mixed table's stakes become its options."""
        return game(self.game).family


@dataclass(frozen=True, slots=True)
class Game:
    """One game a table deals (see the module's docstring)."""

    key: str
    """The game a table stores, and its slash command and ``/rules`` page."""
    title: str
    """Its short name: the leaderboard's choice, ``/history``, ``/league show``."""
    family: str
    """The adapter that deals it (:data:`FAMILIES`)."""
    section: str
    """The rule-book section its house rules are listed in (docs/rules.md)."""
    help: str
    """What ``/help`` says of it (after its title)."""
    rules: str
    """The description of its ``/rules`` page."""
    phh: tuple[str, ...] = ()
    """The variant codes of its hand histories (PHH; ``ZOOT``/``WHEELERS``: our TOML)."""
    long_title: str = ""
    """Its full name where it is introduced (the rule book, ``/help``); default the title."""
    table_titles: Mapping[str, str] = field(default_factory=dict)
    """A table's name by its ``split`` where one key deals two games (Stud, Stud Hi-Lo)."""
    hi_lo_title: str | None = None
    """The name of its hi-lo split (a hand's game in ``/history``, ``/rules compare``)."""
    splits: tuple[str, ...] = ()
    """The values of its command's ``split`` option (none: no such option)."""
    bettings: tuple[str, ...] = ()
    """The values of its command's ``betting`` option (none: no such option)."""
    defaults: tuple[Defaults, ...] = ()
    """Its league settings (default: one, under its key, its family's stakes)."""
    mode: str | None = None
    """A mixed game's: ``rotation`` (each game an orbit) or ``choice`` (the dealer's)."""
    plays: tuple[str, ...] = ()
    """A mixed game's: the :data:`VARIANTS` it deals unless its ``games`` option says."""
    default_betting: str | None = None
    """The betting its table plays when its command's ``betting`` is not given."""

    @property
    def command(self) -> str:
        """The slash command that opens its table."""
        return self.key

    @property
    def page(self) -> str:
        """Its ``/rules`` page."""
        return self.key

    @property
    def name(self) -> str:
        """Its full name (:attr:`long_title`, else :attr:`title`)."""
        return self.long_title or self.title

    @property
    def mixed(self) -> bool:
        """Whether its table changes game between hands (each hand stored as the game
        dealt, never as this one)."""
        return self.family == "mixed"

    def settings(self) -> tuple[Defaults, ...]:
        """Its league settings: :attr:`defaults`, or one under its key."""
        if self.defaults:
            return self.defaults
        return (Defaults(self.key, self.key, self.name, FAMILY_STAKES[self.family]),)


def _stud_defaults() -> tuple[Defaults, ...]:
    stakes = FAMILY_STAKES["stud"]
    return (
        Defaults("stud", "stud", "Seven-card Stud", stakes),
        Defaults("stud-hi-lo", "stud", "Stud Hi-Lo", stakes, options={"split": "hi-lo"}),
    )


SPLITS: Final = ("high", "hi-lo")
BETTINGS: Final = ("no-limit", "pot-limit", "fixed-limit")

REGISTRY: list[Game] = [
    Game(
        "zoot",
        "Zoot",
        "guts",
        "1",
        help="five cards each; lay down to challenge the table for the pot: fewest suits wins",
        rules="Zoot: procedure, ranking by suits, house rules",
        phh=("ZOOT",),
    ),
    Game(
        "wheelers",
        "Wheelers",
        "guts",
        "3",
        help="Zoot's lay-down game, ranked by straights",
        rules="Wheelers: procedure, straights ranking, house rules",
        phh=("WHEELERS",),
    ),
    Game(
        "razz",
        "Razz",
        "stud",
        "4",
        help="seven-card stud, the lowest hand wins",
        rules="Razz: seven-card stud low, stakes and house rules",
        phh=("FR",),
    ),
    Game(
        "stud",
        "Stud",
        "stud",
        "8",
        help="Seven-card Stud, high only or hi-lo (eight or better)",
        rules="Seven-card Stud and Stud Hi-Lo: stakes, splits, house rules",
        phh=("F7S", "F7S/8"),
        long_title="Seven-card Stud",
        table_titles={"high": "Seven-card Stud", "hi-lo": "Stud Hi-Lo"},
        hi_lo_title="Stud Hi-Lo",
        splits=SPLITS,
        defaults=_stud_defaults(),
    ),
    Game(
        "holdem",
        "Hold'em",
        "flop",
        "6",
        help="Texas Hold'em: two cards each and a board of five; no-limit by default",
        rules="Texas Hold'em: blinds, betting, side pots",
        phh=("NT", "PT", "FT"),
        bettings=BETTINGS,
        default_betting="no-limit",
    ),
    Game(
        "omaha",
        "Omaha",
        "flop",
        "6",
        help="four cards each, exactly two of them with three of the board; high or hi-lo",
        rules="Omaha high and hi-lo: two from the hand, three",
        phh=("NO", "PO", "FO", "NO/8", "PO/8", "FO/8"),
        hi_lo_title="Omaha Hi-Lo",
        splits=SPLITS,
        bettings=BETTINGS,
        default_betting="pot-limit",
    ),
    Game(
        "horse",
        "HORSE",
        "mixed",
        "9",
        help="Hold'em, Omaha Hi-Lo, Razz, Stud and Stud Hi-Lo in turn, an orbit each",
        rules="HORSE: five games in turn, one orbit each",
        mode="rotation",
        plays=("holdem-fl", "omaha-hi-lo-fl", "razz", "stud", "stud-hi-lo"),
    ),
    Game(
        "dealers-choice",
        "Dealer's choice",
        "mixed",
        "9",
        help="each dealer picks the game of their deal",
        rules="Dealer's choice: the next dealer picks the game",
        defaults=(
            Defaults(
                "dealers-choice",
                "dealers-choice",
                "Dealer's choice",
                FAMILY_STAKES["mixed"],
                times=(*DECISION_TIMES, "choice_seconds"),
            ),
        ),
        mode="choice",
        plays=(
            "zoot",
            "wheelers",
            "razz",
            "holdem",
            "omaha",
            "omaha-hi-lo",
            "stud",
            "stud-hi-lo",
        ),
    ),
]
"""Every game, in the order every listing shows them."""

VARIANTS: list[Variant] = [
    Variant("zoot", "zoot", "Zoot"),
    Variant("wheelers", "wheelers", "Wheelers"),
    Variant("razz", "razz", "Razz"),
    Variant("holdem", "holdem", "Hold'em", {"betting": "no-limit"}),
    Variant("holdem-fl", "holdem", "Fixed-limit Hold'em", {"betting": "fixed-limit"}),
    Variant("omaha", "omaha", "Omaha", {"split": "high", "betting": "pot-limit"}),
    Variant("omaha-hi-lo", "omaha", "Omaha Hi-Lo", {"split": "hi-lo", "betting": "pot-limit"}),
    Variant(
        "omaha-hi-lo-fl",
        "omaha",
        "Fixed-limit Omaha Hi-Lo",
        {"split": "hi-lo", "betting": "fixed-limit"},
    ),
    Variant("stud", "stud", "Stud", {"split": "high"}),
    Variant("stud-hi-lo", "stud", "Stud Hi-Lo", {"split": "hi-lo"}),
]
"""Every game a mixed table knows, by its key there (HORSE's five, dealer's choice's
eight: :attr:`Game.plays`)."""


@dataclass(frozen=True, slots=True)
class TournamentGame:
    """A game ``/tournament create game:`` deals (issue 20): its option value, the game of
    the registry whose tables deal it and the table options that make it (``stud8`` is a
    Stud table split hi-lo). Its seats are its family's (:data:`FAMILY_SEATS`), its bettings
    and default betting its game's."""

    key: str
    game: str
    title: str
    options: Mapping[str, Any] = field(default_factory=dict)

    @property
    def family(self) -> str:
        return game(self.game).family

    @property
    def seats(self) -> int:
        """The most players at one of its tables."""
        return FAMILY_SEATS[self.family]

    @property
    def bettings(self) -> tuple[str, ...]:
        return game(self.game).bettings

    @property
    def default_betting(self) -> str | None:
        return game(self.game).default_betting


FAMILY_SEATS: Final[Mapping[str, int]] = {"guts": 10, "stud": 8, "flop": 9, "mixed": 8}
"""The most seats a table of each family has (the engines' ``max_players`` limits: guts 10,
stud 8, flop 9; a mixed table the fewest of its games', HORSE's stud games 8)."""

TOURNAMENT_GAMES: list[TournamentGame] = [
    TournamentGame("holdem", "holdem", "Hold'em"),
    TournamentGame("omaha", "omaha", "Omaha"),
    TournamentGame("stud", "stud", "Seven-card Stud", {"split": "high"}),
    TournamentGame("stud8", "stud", "Stud Hi-Lo", {"split": "hi-lo"}),
    TournamentGame("razz", "razz", "Razz"),
    TournamentGame("horse", "horse", "HORSE"),
]
"""The games a tournament deals, in the order ``/tournament create`` offers them."""


def register(new: Game, *variants: Variant, tournament: TournamentGame | None = None) -> None:
    """Add a game defined outside this file (and the variants a mixed table may deal of
    it). The listings elsewhere are read when their modules are imported: register first.
    Refuses a key, command or family that would make two games one."""
    if new.family not in FAMILIES:
        raise ValueError(f"{new.key}: family {new.family!r} is none of {', '.join(FAMILIES)}")
    taken = {g.key for g in REGISTRY} | {d.key for g in REGISTRY for d in g.settings()}
    if new.key in taken or any(d.key in taken for d in new.settings()):
        raise ValueError(f"{new.key}: a game or league setting of that name exists")
    if any(v.key in {w.key for w in VARIANTS} for v in variants):
        raise ValueError(f"{new.key}: a mixed table already deals a game of that name")
    if tournament is not None and tournament.key in tournament_keys():
        raise ValueError(f"{tournament.key}: a tournament already deals a game of that name")
    REGISTRY.append(new)
    VARIANTS.extend(variants)
    if tournament is not None:
        TOURNAMENT_GAMES.append(tournament)


# ------------------------------------------------------------------------ questions


def games(*, family: str | None = None, mixed: bool | None = None) -> tuple[Game, ...]:
    """The games in order; ``family``: of that family only; ``mixed``: only the mixed
    tables (True) or only the games a hand is stored as (False)."""
    return tuple(
        g
        for g in REGISTRY
        if (family is None or g.family == family) and (mixed is None or g.mixed == mixed)
    )


def keys(*, family: str | None = None, mixed: bool | None = None) -> tuple[str, ...]:
    """The keys of :func:`games`."""
    return tuple(g.key for g in games(family=family, mixed=mixed))


def game(key: str) -> Game:
    """The game of ``key``; :class:`KeyError` if no game has it."""
    for g in REGISTRY:
        if g.key == key:
            return g
    raise KeyError(key)


def find(key: str) -> Game | None:
    """The game of ``key``, or None."""
    return next((g for g in REGISTRY if g.key == key), None)


def family_of(key: str) -> str | None:
    """The family of game ``key`` (None: no such game)."""
    found = find(key)
    return None if found is None else found.family


def title(key: str) -> str:
    """A game's short name (the key itself for a game the registry does not know)."""
    found = find(key)
    return key if found is None else found.title


def table_title(key: str, split: str | None = None) -> str:
    """The name a table of ``key`` and its hand DMs give the game: a game whose key deals
    two games says which (``stud`` + ``hi-lo``: "Stud Hi-Lo")."""
    found = find(key)
    if found is None:
        return key
    if found.table_titles:
        return found.table_titles.get(split or found.splits[0], found.title)
    return found.title


def hand_title(key: str, *, hi_lo: bool) -> str:
    """A hand's game as ``/history`` names it: the split too (one key plays both)."""
    found = find(key)
    if found is None:
        return key
    return found.hi_lo_title if hi_lo and found.hi_lo_title else found.title


def league_settings() -> tuple[Defaults, ...]:
    """Every league game setting, in order (the table commands' defaults)."""
    return tuple(d for g in REGISTRY for d in g.settings())


def settings_key(key: str, options: Mapping[str, Any]) -> str:
    """Which of the league's game settings a new table of ``key`` with ``options`` takes."""
    for d in league_settings():
        if d.game == key and d.options and all(options.get(k) == v for k, v in d.options.items()):
            return d.key
    return key


def settings_entry(key: str) -> Defaults | None:
    """The league setting of that key (a game key, or ``stud-hi-lo``)."""
    return next((d for d in league_settings() if d.key == key), None)


def variants() -> dict[str, Variant]:
    """Every game a mixed table knows, by its key there."""
    return {v.key: v for v in VARIANTS}


def with_splits() -> tuple[str, ...]:
    """The games whose command has a ``split`` option."""
    return tuple(g.key for g in REGISTRY if g.splits)


def with_bettings() -> tuple[str, ...]:
    """The games whose command has a ``betting`` option."""
    return tuple(g.key for g in REGISTRY if g.bettings)


def in_words(names: tuple[str, ...] | list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``.

    >>> in_words(with_splits()), in_words(keys(family="guts")[:1])
    ('stud and omaha', 'zoot')
    """
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def tournament_games() -> tuple[TournamentGame, ...]:
    """The games a tournament deals (``/tournament create game:``), in order."""
    return tuple(TOURNAMENT_GAMES)


def tournament_keys() -> tuple[str, ...]:
    return tuple(t.key for t in TOURNAMENT_GAMES)


def tournament_game(key: str) -> TournamentGame:
    """The tournament game of ``key``; :class:`KeyError` if a tournament deals none."""
    for t in TOURNAMENT_GAMES:
        if t.key == key:
            return t
    raise KeyError(key)


def public_commands() -> Iterator[str]:
    """Every table command (their answer, the table, is everyone's)."""
    return (g.command for g in REGISTRY)
