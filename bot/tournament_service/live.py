"""A tournament as its service holds it between steps (:class:`LiveTournament`), what one
step tells the players (:class:`Notices`), and what the lobby message shows (:class:`Lobby`).
Plain data: the store keeps ``state`` (the director's :class:`~bot.tournament.Tournament`,
bot/tournament/snapshot.py) and ``extra`` (the integration's own: the draws, the names,
which hands it booked) in the tournament's row.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Protocol

from bot.tournament import Entry, Tournament
from bot.tournament.snapshot import dump


@dataclass(slots=True)
class LiveTournament:
    id: int
    guild_id: int
    number: int
    channel_id: int
    host_id: int
    game: str
    t: Tournament
    extra: dict[str, Any]
    version: int
    deadline: int | None = None
    lobby: tuple[int, int] | None = None
    """(channel id, message id) of the lobby message."""
    tables: dict[int, int] = field(default_factory=dict)
    """Table number -> table id, of the tables not closed."""
    breaking: set[int] = field(default_factory=set)
    """Table ids being broken (their players are moved; no hand is dealt there)."""

    # ---- what the integration keeps in ``extra``
    @property
    def practice(self) -> bool:
        """Computers fill seats: no league chips move, no points (as at a practice table)."""
        return bool(self.extra.get("practice"))

    @property
    def threads(self) -> bool:
        return bool(self.extra.get("threads"))

    def name(self, user_id: int) -> str:
        return str(self.extra.get("names", {}).get(str(user_id), f"player {user_id}"))

    def set_name(self, user_id: int, name: str) -> None:
        self.extra.setdefault("names", {})[str(user_id)] = name

    def is_computer(self, user_id: int) -> bool:
        return user_id < 0

    def rng(self) -> random.Random:
        """The next draw's generator (seats, breaking tables): from the tournament's seed
        and a count of the draws made, so a restart draws what the run would have."""
        draws = int(self.extra.get("draws", 0))
        self.extra["draws"] = draws + 1
        return random.Random(f"{self.extra.get('seed', 0)}:{draws}")

    def booked(self, table_id: int) -> int:
        """The last hand of ``table_id`` whose report was booked."""
        return int(self.extra.get("hands", {}).get(str(table_id), 0))

    def set_booked(self, table_id: int, hand_number: int) -> None:
        self.extra.setdefault("hands", {})[str(table_id)] = hand_number

    def entry_of(self, user_id: int) -> Entry | None:
        """The player's entry still in (None: none)."""
        e = self.t.latest_entry(user_id)
        return e if e is not None and e.alive and not e.closed else None

    def state(self) -> dict[str, Any]:
        return dump(self.t)


@dataclass(frozen=True, slots=True)
class Offer:
    """Buttons a post carries: what a busted player may do (``rebuy``, ``re_enter``,
    ``decline``), or the add-on offered to every player at a table (``add_on``)."""

    tournament_id: int
    actions: tuple[str, ...]
    user_id: int | None = None
    """Whose buttons they are (None: every player of the tournament, the add-on's)."""
    until: int | None = None


@dataclass(frozen=True, slots=True)
class Post:
    channel_id: int
    text: str
    offer: Offer | None = None


@dataclass(slots=True)
class Notices:
    """What a step tells the players, sent once the tournament's lock is released."""

    lobby: bool = False
    posts: list[Post] = field(default_factory=list)
    dms: list[tuple[int, str]] = field(default_factory=list)
    results: bool = False

    def extend(self, other: Notices) -> None:
        self.lobby = self.lobby or other.lobby
        self.posts += other.posts
        self.dms += other.dms
        self.results = self.results or other.results


@dataclass(frozen=True, slots=True)
class LobbyEntry:
    user_id: int
    name: str
    alive: bool
    rebuys: int
    add_on: bool
    entries: int
    bounty: int


@dataclass(frozen=True, slots=True)
class Lobby:
    """What the lobby message shows: the field, the prize pool, the structure, the start
    or the clock, and which buttons it offers."""

    tournament_id: int
    number: int
    guild_id: int
    title: str
    host_id: int
    status: str
    players: tuple[LobbyEntry, ...]
    entries: int
    max_players: int
    buy_in: int
    bounty: int
    prize_pool: int
    bounty_fund: int
    practice: bool
    structure: str
    """The levels in the compact text (``10/20 15m, ...``)."""
    options: tuple[str, ...]
    """Rebuys, add-on, re-entry, late registration, payouts: one line each."""
    starts_at: int | None
    level: int | None
    stakes: str | None
    next_change: int | None
    next_what: str
    on_break: bool
    paused: bool
    tables: tuple[tuple[int, int, int], ...]
    """(number, table id, channel id) of the tables playing."""
    left: int
    registration_open: bool
    payouts: tuple[int, ...]
    """The prizes of the paid places if it ended now (whole chips)."""
    rounding: str
    version: int
    can_start: bool = False
    add_on_open: bool = False


class TournamentSubscriber(Protocol):
    """Where the director's words go (cogs/tournament.py): the lobby message, posts in the
    tables' channels, DMs; and the channel a new table plays in (a thread, or the
    tournament's channel)."""

    async def tournament_notices(self, tournament_id: int, notices: Notices) -> None: ...

    async def table_channel(self, tournament_id: int, number: int) -> int: ...
