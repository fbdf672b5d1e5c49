"""What the adapters show: frozen views of a table, of one player's hand, and what changed.

Pure dataclasses, no I/O. A :class:`TableView` never holds a hidden card; a
:class:`PrivateView` holds only its own user's cards (tests check both).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.engine.actions import ActionOption
from bot.engine.cards import Card
from bot.engine.events import Event

SEAT_STATUSES = frozenset(
    {
        "waiting",
        "playing",
        "folded",
        "out",
        "away",
        "sitting_out",
        "all_in",
        "waits_for_big_blind",
        "posts_big_blind",
    }
)


@dataclass(frozen=True, slots=True)
class SeatView:
    seat: int
    user_id: int
    name: str
    stack: int
    status: str
    is_computer: bool
    to_act: bool
    bet: int = 0
    up_cards: tuple[Card, ...] = ()
    shown: tuple[Card, ...] | None = None
    hand_name: str | None = None
    away: bool = False
    """The idle rule sat this player out (RULES §1.11) until they press Join to come back."""
    blind: str | None = None
    """New to a Hold'em or Omaha table (rules 6.14): "wait" for the big blind, or "post" one
    to play the next hand."""
    sit_next: bool = False
    """Sits out from the next hand (pressed **Sit out next hand** during this one)."""


@dataclass(frozen=True, slots=True)
class TournamentBanner:
    """What a tournament table's message shows of its tournament (its director sets it:
    bot/tables/tournament.py), the next change as a time a Discord timestamp counts down
    to, never a message edited on a timer."""

    tournament_id: int
    number: int
    """The tournament's number in its league (#3)."""
    table: int
    """This table's number in the tournament (table 1 is the final table)."""
    level: int
    stakes: str
    """The level's stakes in words ("blinds 25/50, big-blind ante 50")."""
    next_change: int | None = None
    next_what: str = ""
    """What comes at ``next_change`` ("level 4", "a 10-minute break")."""
    state: str = "playing"
    """``playing``, ``break``, ``paused`` (by the director) or ``over``."""
    players_left: int = 0
    tables_left: int = 0
    title: str = ""
    """The tournament's game and name ("Hold'em tournament #3")."""

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> TournamentBanner:
        return cls(**{k: raw[k] for k in cls.__slots__ if k in raw})  # type: ignore[attr-defined]

    def to_json(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in self.__slots__}  # type: ignore[attr-defined]


@dataclass(frozen=True, slots=True)
class TableView:
    table_id: int
    guild_id: int
    channel_id: int
    game: str
    status: str
    host_id: int
    version: int
    practice: bool
    rules: tuple[tuple[str, str, str], ...]
    seats: tuple[SeatView, ...]
    dealer_seat: int | None
    pot: int
    phase: str
    hand_number: int
    deadline: float | None
    to_act_user_ids: frozenset[int]
    public_actions: tuple[ActionOption, ...]
    community: tuple[Card, ...] = ()
    recent: tuple[str, ...] = ()
    result: str | None = None
    mixed: Any = None
    """A mixed table's games (:class:`bot.tables.mixed.MixedInfo`), else None."""
    verifiable: bool = False
    """Opened with ``verifiable:on`` (each hand dealt from a seed, bot/engine/shuffle.py)."""
    commitment: str | None = None
    """A verifiable table's SHA-256 of the seed of hand ``commitment_hand``: the hand being
    played, else the next one (shown before its deal). Never the seed itself."""
    commitment_hand: int = 0
    closing: str | None = None
    """A closed table's closing post: what went back and each player's balance after it."""
    house: Any = None
    """What home games play, as the table message shows it (:class:`bot.tables.house.
    HouseInfo`: a straddle offered, a bomb pot next, two boards), else None."""
    bank_user: int | None = None
    """The player whose time bank counts down now: ``deadline`` is the bank's end."""
    turn_keys: tuple[tuple[int, int], ...] = ()
    """(user id, turn key) of each player to act: the key names one turn (turn pings)."""
    next_stakes: tuple[tuple[str, int], ...] = ()
    """Stakes the host set for the next hand (``/table stakes``), not yet in force."""
    tournament: TournamentBanner | None = None
    """A tournament's table: its level, stakes and next change (None: a cash table)."""

    def seat_of(self, user_id: int) -> SeatView | None:
        return next((s for s in self.seats if s.user_id == user_id), None)


@dataclass(frozen=True, slots=True)
class PrivateView:
    table_id: int
    user_id: int
    seat: int
    game: str
    version: int
    cards: tuple[Card, ...]
    down_cards: tuple[Card, ...]
    up_cards: tuple[Card, ...]
    hand_name: str | None
    strength: float | None
    options: tuple[ActionOption, ...]
    deadline: float | None
    chosen: str | None
    title: str = ""
    """The game's name (a stud table's split; a mixed table's game being dealt)."""
    hand_number: int = 0
    advance: tuple[tuple[str, int | None], ...] = ()
    """What the player may choose in advance now: (kind, price of a Call), in the order the
    buttons show them (bot/tables/pace.py)."""
    advance_chosen: tuple[str, int | None] | None = None
    """The choice they made in advance (kind, price of a Call), until it is taken or
    cleared."""
    sitting_out: bool = False
    """They sit out (the seat is kept for ``sit_out_hands`` hands)."""
    sit_next: bool = False
    """They sit out from the next hand."""
    missed: int = 0
    """Hands dealt without them since they sat out."""
    sit_out_hands: int = 0
    may_sit_out: bool = True
    """False at a tournament's table: its players are dealt in until they bust (TDA)."""
    bank: int | None = None
    """Whole seconds left in their time bank (None: the game has none)."""
    bank_on: bool = False
    """Their time bank counts down now (``deadline`` is its end)."""

    def option(self, kind: str) -> ActionOption | None:
        return next((o for o in self.options if o.kind == kind), None)


@dataclass(frozen=True, slots=True)
class Published:
    view: TableView
    events: tuple[Event, ...]
    user_ids_by_seat: Mapping[int, int]
    private_changed: frozenset[int] = frozenset()
    announcements: tuple[str, ...] = ()
    results: tuple[str, ...] = field(default=())
    results_after: tuple[int, ...] = ()
    """For each result, how many of the announcements came before it: a hand's result is
    posted before what follows from it ("out of chips", "Waiting for players")."""
    rabbit_hand: int | None = None
    """A hand whose result (the last one here) gets a **Rabbit** button: it ended before
    the river, and its table hunts the rabbit (bot/tables/house.py)."""
    pings: tuple[tuple[int, int], ...] = ()
    """(user id, turn key) of each turn that began after someone else acted: the turn
    pings (cogs/_pings.py), sent once per turn if it is still theirs a moment later."""

    def posts(self) -> tuple[tuple[str, bool], ...]:
        """The announcements and results in the order they happened, each marked whether
        it is a result (without ``results_after``: the announcements first)."""
        marks = self.results_after
        if len(marks) != len(self.results):
            marks = (len(self.announcements),) * len(self.results)
        out: list[tuple[str, bool]] = []
        taken = 0
        for text, mark in zip(self.results, marks, strict=True):
            out += [(a, False) for a in self.announcements[taken:mark]]
            taken = max(taken, mark)
            out.append((text, True))
        out += [(a, False) for a in self.announcements[taken:]]
        return tuple(out)
