"""A table as the TableService holds it between actions (:class:`LiveTable`, its seats),
and what one mutation did (:class:`Step`); rebuilt from the store on any failure.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.engine.events import Event
from bot.store import HandFinish, Table, TableAccounts
from bot.tables.games import GameFamily, load_family
from bot.tables.pace import Pace

SESSION_VERSION = 1
RECENT = 8
"""How many public sentences a table view keeps."""
PRACTICE_CHIPS = 1000
"""Play chips of each player at a practice table (no league chips move there)."""
BLIND_STATES = ("wait", "post")
"""A new player's choice at a Hold'em or Omaha table: wait for the big blind, or post one."""


@dataclass(slots=True)
class SeatInfo:
    seat_no: int
    user_id: int
    is_computer: bool
    away: bool
    dm_ok: bool | None
    blind: str | None = None
    """A player new to a Hold'em or Omaha table (rules 6.14): "wait" (for the big blind)
    or "post" (a big blind, to play the next hand); None once dealt in. Saved with the
    table's snapshot (``blinds``), so it survives a restart."""


@dataclass(slots=True)
class LiveTable:
    """A table held in memory between actions; rebuilt from the store on failure."""

    id: int
    guild_id: int
    channel_id: int
    game: str
    host_id: int
    practice: bool
    status: str
    version: int
    deadline: int | None
    family: GameFamily
    seats: dict[int, SeatInfo] = field(default_factory=dict)
    names: dict[int, str] = field(default_factory=dict)
    next_seat: int = 0
    hand_id: int | None = None
    hand_number: int = 0
    paid: dict[int, int] = field(default_factory=dict)
    won: dict[int, int] = field(default_factory=dict)
    pending: str | None = None
    leaving: set[int] = field(default_factory=set)
    practice_stacks: dict[int, int] = field(default_factory=dict)
    balances: dict[int, int] = field(default_factory=dict)
    recent: list[str] = field(default_factory=list)
    result: str | None = None
    closing: str | None = None
    """Once closed: the closing post (what went back, each player's balance after it)."""
    accounts: TableAccounts | None = None
    """Cached ids of the season, the pot and the seated players' wallets (see
    :meth:`TableService._accounts`); dropped with the table on any failure."""
    verifiable: bool = False
    """Opened with ``verifiable:on``: each hand is dealt from a seed (bot/engine/shuffle.py)."""
    seed: str | None = None
    """A verifiable table's seed of the hand being played (or last dealt). Secret: it shows
    every card of the hand; the store publishes it when the table closes."""
    next_seed: str | None = None
    """A verifiable table's seed for the next hand, drawn ahead so the table message shows
    its commitment before the deal."""
    rabbits: dict[int, list[dict[str, Any]]] = field(default_factory=dict)
    """Hand number -> the board its result's **Rabbit** button shows (the last few hands
    that ended before the river; bot/tables/house.py)."""
    pace: Pace = field(default_factory=Pace)
    """Time banks, choices made in advance, sitting out, turns, next hand's stakes
    (bot/tables/pace.py); saved with the snapshot (``pace``)."""
    tournament_id: int | None = None
    """A tournament's table (bot/tables/tournament.py): it plays tournament stacks, its
    director gives the stakes of each hand."""
    tournament: dict[str, Any] = field(default_factory=dict)
    """A tournament table's part of the snapshot: ``banner`` (what its message shows of
    the tournament), ``stakes`` (the level's, from the next hand on), ``level`` (of the
    hand being played), ``hand_started_at``, ``report`` (the last hand's busts, for the
    director), ``hold`` (why it waits)."""

    # ---- lookups
    def seat_of(self, user_id: int) -> SeatInfo | None:
        return next((s for s in self.seats.values() if s.user_id == user_id), None)

    def user(self, seat: int) -> int:
        return self.seats[seat].user_id

    def name(self, seat: int) -> str:
        info = self.seats.get(seat)
        if info is None:
            return f"seat {seat}"
        return self.names.get(info.user_id, f"player {info.user_id}")

    # ---- persistence
    def session(self) -> dict[str, Any]:
        return {
            "v": SESSION_VERSION,
            "game": self.family.session_json(),
            "names": {str(u): n for u, n in self.names.items()},
            "next_seat": self.next_seat,
            "hand_id": self.hand_id,
            "hand_number": self.hand_number,
            "paid": {str(s): n for s, n in self.paid.items()},
            "won": {str(s): n for s, n in self.won.items()},
            "pending": self.pending,
            "leaving": sorted(self.leaving),
            "practice_stacks": {str(u): n for u, n in self.practice_stacks.items()},
            "balances": {str(u): n for u, n in self.balances.items()},
            "recent": list(self.recent),
            "result": self.result,
            "seed": self.seed,
            "next_seed": self.next_seed,
            "blinds": {str(s): i.blind for s, i in sorted(self.seats.items()) if i.blind},
            "rabbits": {str(h): r for h, r in sorted(self.rabbits.items())},
            "pace": self.pace.to_json(),
            "tournament": self.tournament,
        }

    @classmethod
    def from_store(cls, table: Table, seats: Iterable[Any]) -> LiveTable:
        snap: Mapping[str, Any] = table.snapshot or {}
        family = load_family(table.game, table.rules, snap.get("game"))
        tournament = dict(snap.get("tournament") or {})
        if tournament.get("stakes"):
            # a tournament's level since the table opened (the rules row keeps the first)
            family = family.with_stakes(tournament["stakes"])
        live = cls(
            id=table.id,
            guild_id=table.guild_id,
            channel_id=table.channel_id,
            game=table.game,
            host_id=table.host_id or 0,
            practice=table.practice,
            status=table.status,
            version=table.version,
            deadline=table.deadline,
            family=family,
            verifiable=table.verifiable,
            tournament_id=table.tournament_id,
            tournament=tournament,
        )
        for s in seats:
            live.seats[s.seat_no] = SeatInfo(s.seat_no, s.user_id, s.is_computer, s.away, s.dm_ok)
        live.names = {int(u): str(n) for u, n in snap.get("names", {}).items()}
        live.next_seat = int(snap.get("next_seat", max(live.seats, default=-1) + 1))
        live.hand_id = snap.get("hand_id")
        live.hand_number = int(snap.get("hand_number", 0))
        live.paid = {int(s): int(n) for s, n in snap.get("paid", {}).items()}
        live.won = {int(s): int(n) for s, n in snap.get("won", {}).items()}
        live.pending = snap.get("pending")
        live.leaving = {int(u) for u in snap.get("leaving", [])}
        live.practice_stacks = {int(u): int(n) for u, n in snap.get("practice_stacks", {}).items()}
        live.balances = {int(u): int(n) for u, n in snap.get("balances", {}).items()}
        live.recent = [str(x) for x in snap.get("recent", [])]
        live.result = snap.get("result")
        live.seed = snap.get("seed")
        live.next_seed = snap.get("next_seed")
        live.rabbits = {int(h): list(r) for h, r in snap.get("rabbits", {}).items()}
        live.pace = Pace.from_json(snap.get("pace"))
        for seat, blind in snap.get("blinds", {}).items():
            info = live.seats.get(int(seat))
            if info is not None and blind in BLIND_STATES:
                info.blind = str(blind)
        return live


@dataclass(slots=True)
class Step:
    """What one mutation did, for the commit and for the subscriber."""

    events: list[Event] = field(default_factory=list)
    announcements: list[str] = field(default_factory=list)
    results: list[str] = field(default_factory=list)
    results_after: list[int] = field(default_factory=list)
    """For each result, how many announcements came before it (the posts' order)."""
    touched: set[int] = field(default_factory=set)
    """User ids whose private view surely changed."""
    new_turn: bool = False
    closed: bool = False
    # writes not yet sent to the store (one round trip at the end, see _flush)
    moves: list[tuple[int, int, str]] = field(default_factory=list)
    log: list[Event] = field(default_factory=list)
    finish: HandFinish | None = None
    hand_id: int | None = None
    """The hand the pending moves, events and end belong to."""
    before: Mapping[int, tuple[Any, ...]] = field(default_factory=dict)
    """Each user's private marks before the mutation (only with a subscriber)."""
    predicted: dict[int, int] | None = None
    """Wallet balances the next hand was scheduled on without reading them (a hand's end:
    the engine's final stacks); the commit reads the real ones back to check."""
    predicted_ok: bool = False
    """Whether those balances let the next hand start."""
    rabbit_hand: int | None = None
    """The hand that ended in this step whose result gets a **Rabbit** button."""
    actors: set[int] = field(default_factory=set)
    """Users who acted in this mutation, or were acted for (a timeout, a choice made in
    advance): a turn that begins after another's action is pinged (bot/tables/pace.py)."""
    pings: list[tuple[int, int]] = field(default_factory=list)
    """(user id, turn key) of each turn that began after someone else acted."""
    tournament_hand: bool = False
    """A tournament table's hand ended: its director is told once the lock is released."""
