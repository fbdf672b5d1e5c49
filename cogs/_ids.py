"""The one custom_id grammar of every Home Game button and select menu.

``hg:<table_id>:<version>:<action>[:<arg>]``

- ``table_id``: the table the component belongs to (so a click needs no in-memory state and
  keeps working after a restart: the components are ``DynamicItem``s matched by regex);
- ``version``: the table's state version when the component was drawn; the service refuses
  a game action whose version is not the current one (a stale or doubled click);
- ``action``: one of :data:`ACTIONS`; ``arg``: a short optional argument.

Discord limits a custom_id to 100 characters; the longest id we can build is far below it.

>>> build_custom_id(12, 7, "lay_down")
'hg:12:7:lay_down'
>>> parse_custom_id("hg:12:7:lay_down")
CustomId(table_id=12, version=7, action='lay_down', arg=None)
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot import games as registry
from bot.engine.errors import HomeGameError

PREFIX = "hg"
MAX_CUSTOM_ID = 100
"""Discord's limit on a component's custom_id."""

TABLE_ACTIONS: tuple[str, ...] = (
    "join",
    "leave",
    "start",
    "hand",
    "resume",
    "post_blind",  # a player new to a Hold'em/Omaha table posts a big blind (rules 6.14)
    "wait_blind",  # ... or waits for the big blind
    "straddle",  # the seat offered the next hand's straddle takes it (``:h<hand>``)
    "no_straddle",  # ... or not
    "rabbit",  # a hand's result: the cards that would have come (``:h<hand>``)
)
"""Buttons about the table itself: they are not tied to one state of the hand."""
GUTS_ACTIONS: tuple[str, ...] = ("lay_down", "play_on", "discard")
HOUSE_ACTIONS: tuple[str, ...] = ("once", "twice", "show", "muck")
"""Hold'em and Omaha's decisions outside the betting, in the hand DM (run it twice after
an all-in; an uncontested winner shows or mucks at a seven-deuce table): private controls
carrying the window's token, as the guts games' are."""
PRIVATE_ACTIONS: tuple[str, ...] = GUTS_ACTIONS + HOUSE_ACTIONS
"""The controls of the hand DM (or of **My hand**): a click from a DM may act."""
RAZZ_ACTIONS: tuple[str, ...] = (
    "bring_in",
    "complete",
    "fold",
    "check",
    "call",
    "bet",
    "raise",
    "big_bet",  # Stud: a pair showing on 4th street allows the big bet (RULES 8.2)
)
"""The stud games' betting buttons (Razz, Stud, Stud Hi-Lo), on the table message."""
FLOP_ACTIONS: tuple[str, ...] = ("fold", "check", "call", "bet", "raise")
"""Hold'em and Omaha: the betting buttons (a subset of the stud games'; a no-limit or
pot-limit bet's amount rides in the argument: ``hg:<table>:<version>:raise:40``)."""
MIXED_ACTIONS: tuple[str, ...] = ("pick_game",)
"""The next dealer's game menu at a dealer's-choice table (cogs/_mixed.py)."""
PACE_ACTIONS: tuple[str, ...] = ("advance", "sit_out", "sit_in")
"""The hand DM's pace controls (cogs/_pace.py): a choice made in advance (**Check/Fold**,
**Check**, **Call N**; **Play on**, **Lay down**: the argument is :func:`advance_arg`),
**Sit out next hand** and **I'm back**. Not tied to one state of the hand: others acting
meanwhile must not make them stale."""
DM_ACTIONS: tuple[str, ...] = PRIVATE_ACTIONS + PACE_ACTIONS
"""The controls of the hand DM (clicked in a DM, not in the table's server)."""
ACTIONS: tuple[str, ...] = (
    TABLE_ACTIONS + GUTS_ACTIONS + HOUSE_ACTIONS + RAZZ_ACTIONS + MIXED_ACTIONS + PACE_ACTIONS
)
_SELECTS = ("discard", "pick_game")

_ID = r"[1-9][0-9]{0,19}"
_VERSION = r"0|[1-9][0-9]{0,19}"
_ARG = r"[A-Za-z0-9_]{1,24}"

BUTTON_TEMPLATE = (
    rf"hg:(?P<table_id>{_ID}):(?P<version>{_VERSION}):"
    rf"(?P<action>{'|'.join(a for a in ACTIONS if a not in _SELECTS)})(?::(?P<arg>{_ARG}))?"
)
"""What a Home Game button's custom_id looks like (``DynamicItem`` template)."""
SELECT_TEMPLATE = (
    rf"hg:(?P<table_id>{_ID}):(?P<version>{_VERSION}):(?P<action>discard)(?::(?P<arg>{_ARG}))?"
)
"""What the discard select menu's custom_id looks like."""
GAME_SELECT_TEMPLATE = (
    rf"hg:(?P<table_id>{_ID}):(?P<version>{_VERSION}):(?P<action>pick_game)(?::(?P<arg>{_ARG}))?"
)
"""What the dealer's-choice game menu's custom_id looks like."""

_ANY = re.compile(
    rf"hg:(?P<table_id>{_ID}):(?P<version>{_VERSION}):(?P<action>[a-z_]+)(?::(?P<arg>{_ARG}))?"
)


class BadCustomId(HomeGameError):
    """A component id that is not one of ours (or was tampered with)."""


@dataclass(frozen=True, slots=True)
class CustomId:
    table_id: int
    version: int
    action: str
    arg: str | None = None

    def __str__(self) -> str:
        return build_custom_id(self.table_id, self.version, self.action, self.arg)


def build_custom_id(table_id: int, version: int, action: str, arg: str | None = None) -> str:
    """The custom_id of a component; raises :class:`BadCustomId` for values it cannot carry."""
    if isinstance(table_id, bool) or not isinstance(table_id, int) or table_id < 1:
        raise BadCustomId(f"table id must be a positive integer, got {table_id!r}")
    if isinstance(version, bool) or not isinstance(version, int) or version < 0:
        raise BadCustomId(f"version must be a non-negative integer, got {version!r}")
    if action not in ACTIONS:
        raise BadCustomId(f"unknown action {action!r}")
    text = f"{PREFIX}:{table_id}:{version}:{action}"
    if arg is not None:
        if not re.fullmatch(_ARG, arg):
            raise BadCustomId(f"argument must be 1-24 letters, digits or _, got {arg!r}")
        text += f":{arg}"
    if len(text) > MAX_CUSTOM_ID or not _ANY.fullmatch(text):
        raise BadCustomId(f"custom_id out of range: {text[:40]}…")
    return text


ADVANCE_CODES: dict[str, str] = {
    "check_fold": "cf",
    "check": "ck",
    "call": "cl",
    "play_on": "po",
    "lay_down": "ld",
}
_ADVANCE_KINDS = {code: kind for kind, code in ADVANCE_CODES.items()}
_ADVANCE_ARG = re.compile(
    r"(?P<code>cf|ck|cl|po|ld)(?P<amount>0|[1-9][0-9]{0,11})?_(?P<hand>0|[1-9][0-9]{0,9})"
)


def advance_arg(kind: str, amount: int | None, hand: int) -> str:
    """The argument of a choice made in advance: its kind, a Call's price, the hand number.

    >>> advance_arg("call", 40, 12), advance_arg("check_fold", None, 3)
    ('cl40_12', 'cf_3')
    >>> parse_advance_arg("cl40_12"), parse_advance_arg("po_3")
    (('call', 40, 12), ('play_on', None, 3))
    """
    if kind not in ADVANCE_CODES:
        raise BadCustomId(f"unknown choice {kind!r}")
    price = "" if amount is None else str(int(amount))
    text = f"{ADVANCE_CODES[kind]}{price}_{int(hand)}"
    if not _ADVANCE_ARG.fullmatch(text) or (kind == "call") != (amount is not None):
        raise BadCustomId(f"choice out of range: {text[:30]}")
    return text


def parse_advance_arg(text: str | None) -> tuple[str, int | None, int]:
    """(kind, the price of a Call, hand number) of :func:`advance_arg`'s text."""
    match = None if text is None else _ADVANCE_ARG.fullmatch(text)
    if match is None:
        raise BadCustomId("this control is not one of Home Game's (or it is damaged)")
    kind = _ADVANCE_KINDS[match["code"]]
    amount = None if match["amount"] is None else int(match["amount"])
    if (kind == "call") != (amount is not None):
        raise BadCustomId("this control is not one of Home Game's (or it is damaged)")
    return kind, amount, int(match["hand"])


def parse_custom_id(text: str) -> CustomId:
    """The parts of a custom_id built by :func:`build_custom_id`; :class:`BadCustomId` if not."""
    match = _ANY.fullmatch(text) if len(text) <= MAX_CUSTOM_ID else None
    if match is None or match["action"] not in ACTIONS:
        raise BadCustomId("this control is not one of Home Game's (or it is damaged)")
    return CustomId(
        table_id=int(match["table_id"]),
        version=int(match["version"]),
        action=match["action"],
        arg=match["arg"],
    )


# ----------------------------------------------------------------------------- league
#
# League components carry their whole state too, under their own prefixes (never a table
# id, so they cannot be mistaken for a table's controls):
#
# - ``hg:lb:<season>:<game>:<by>:<page>:<p|n>[:<min_hands>]``: a leaderboard page button
#   (Prev/Next); ``page`` is the 0-based page it opens, ``p``/``n`` tells Prev from Next
#   (two buttons of one message never share an id); ``min_hands`` when it was given (the
#   buttons of messages older than it have none);
# - ``hg:hh:<user_id>``: the select menu of ``/history`` listing that member's hands.
#
# The night's components (``hg:nb``, ``hg:np``, ``hg:ni``, ``hg:nr``: a bank request's
# Approve/Refuse, a transfer's Paid, an import's member menu, an invitation's In/Maybe/Out)
# are built and parsed in :mod:`cogs._night_items`, under the same rules.

LB_GAMES: tuple[str, ...] = ("all", *registry.keys(mixed=False))
"""The leaderboard's games: all, or one a hand is stored as (bot/games.py; a stored button
names one of them, so a game is never removed from the registry)."""
LB_BY: tuple[str, ...] = (
    "net",
    "balance",
    "hands",
    "pot",
    "points",
    "vpip",
    "pfr",
    "three_bet",
    "wtsd",
    "wsd",
    "af",
    "luck",
    "laydown",
    "challenge",
)
_SEASON = r"[1-9][0-9]{0,9}"
_PAGE = r"0|[1-9][0-9]{0,5}"
_MIN_HANDS = r"0|[1-9][0-9]{0,5}"

LEADERBOARD_TEMPLATE = (
    rf"hg:lb:(?P<season>{_SEASON}):(?P<game>{'|'.join(LB_GAMES)}):"
    rf"(?P<by>{'|'.join(LB_BY)}):(?P<page>{_PAGE}):(?P<dir>p|n)(?::(?P<min>{_MIN_HANDS}))?"
)
"""What a leaderboard page button's custom_id looks like (``DynamicItem`` template)."""
HISTORY_TEMPLATE = rf"hg:hh:(?P<user_id>{_ID})"
"""What the ``/history`` hand menu's custom_id looks like."""


@dataclass(frozen=True, slots=True)
class LeaderboardId:
    season: int
    game: str | None
    """None: all games."""
    by: str
    page: int
    direction: str = "n"
    min_hands: int | None = None
    """None: not given (the default of ``by``, :func:`bot.league.ranking.min_hands_for`)."""

    def __str__(self) -> str:
        return build_leaderboard_id(
            self.season, self.game, self.by, self.page, self.direction, self.min_hands
        )


def build_leaderboard_id(
    season: int,
    game: str | None,
    by: str,
    page: int,
    direction: str = "n",
    min_hands: int | None = None,
) -> str:
    """The custom_id of a leaderboard page button; :class:`BadCustomId` if out of range."""
    checks = [("season", season), ("page", page)]
    if min_hands is not None:
        checks.append(("min_hands", min_hands))
    for name, value in checks:
        if isinstance(value, bool) or not isinstance(value, int) or value < (name == "season"):
            raise BadCustomId(f"{name} out of range: {value!r}")
    text = f"{PREFIX}:lb:{season}:{game or 'all'}:{by}:{page}:{direction}"
    if min_hands is not None:
        text += f":{min_hands}"
    if len(text) > MAX_CUSTOM_ID or not re.fullmatch(LEADERBOARD_TEMPLATE, text):
        raise BadCustomId(f"not a leaderboard button: {text[:40]}")
    return text


def parse_leaderboard_id(text: str) -> LeaderboardId:
    match = re.fullmatch(LEADERBOARD_TEMPLATE, text) if len(text) <= MAX_CUSTOM_ID else None
    if match is None:
        raise BadCustomId("this control is not one of Home Game's (or it is damaged)")
    return LeaderboardId(
        season=int(match["season"]),
        game=None if match["game"] == "all" else match["game"],
        by=match["by"],
        page=int(match["page"]),
        direction=match["dir"],
        min_hands=None if match["min"] is None else int(match["min"]),
    )


def build_history_id(user_id: int) -> str:
    if isinstance(user_id, bool) or not isinstance(user_id, int) or user_id < 1:
        raise BadCustomId(f"user id must be a positive integer, got {user_id!r}")
    text = f"{PREFIX}:hh:{user_id}"
    if not re.fullmatch(HISTORY_TEMPLATE, text):
        raise BadCustomId(f"user id out of range: {user_id}")
    return text


def parse_history_id(text: str) -> int:
    match = re.fullmatch(HISTORY_TEMPLATE, text) if len(text) <= MAX_CUSTOM_ID else None
    if match is None:
        raise BadCustomId("this control is not one of Home Game's (or it is damaged)")
    return int(match["user_id"])
