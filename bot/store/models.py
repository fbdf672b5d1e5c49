"""Rows of the store as frozen records. JSON columns come back decoded."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from bot import games as registry

AccountKind = Literal["house", "player", "pot", "prize_pool", "bounties", "chip_bank", "stack"]
TableStatus = Literal["open", "running", "paused", "closed"]
HandStatus = Literal["running", "finished", "voided"]

GAMES: frozenset[str] = frozenset(registry.keys(mixed=False))
"""The games a hand is stored as (bot/games.py)."""
MIXED_GAMES: frozenset[str] = frozenset(registry.keys(mixed=True))
"""Tables whose game changes between hands; each hand is stored as the game dealt."""
SETTINGS_GAMES: frozenset[str] = frozenset(d.key for d in registry.league_settings())
"""The keys of a league's game settings: every table command's game, Stud Hi-Lo apart."""
TABLE_STATUSES: frozenset[str] = frozenset({"open", "running", "paused", "closed"})
LEDGER_KINDS: frozenset[str] = frozenset(
    {
        "start",  # a wallet's starting chips, once per member per season
        "grant",  # an admin adds chips (reason + actor required)
        "take",  # an admin removes chips (reason + actor required)
        "rebuy",
        "ante",
        "bring_in",
        "blind",  # Hold'em, Omaha: the small and big blinds
        "bet",
        "match",  # Zoot/Wheelers: a beaten challenger matches the pot (RULES §1.7)
        "award",
        "refund",  # chips back from a pot to whoever paid them (RULES §1.10)
        "void",  # a voided hand's chips returned
        "season_end",  # a finished season's wallets swept back to the house
        "settle",  # settle-up: chips back from the payee to the payer, who paid in money
        "seven_deuce",  # Hold'em's seven-deuce: each player dealt in pays a shown 7-2 winner
        # a tournament (issue 20): league chips into its prize pool and bounties, and out
        "tournament_buy_in",
        "tournament_bounty",  # a bounty paid in with the buy-in (or a rebuy)
        "tournament_rebuy",
        "tournament_add_on",
        "prize",
        "bounty",  # a bounty won (or the winner's own back)
        "tournament_refund",  # unregistered, or the tournament cancelled
        # tournament chips: the tournament's chip bank to a player's stack, and back
        "tournament_chips",
        "tournament_chips_back",
    }
)
TOURNAMENT_KINDS: frozenset[str] = frozenset(
    k for k in LEDGER_KINDS if k.startswith("tournament_") or k in ("prize", "bounty")
)
"""The ledger kinds a tournament books (bot/store/tournaments.py)."""
POT_KINDS_IN: frozenset[str] = frozenset({"ante", "bring_in", "blind", "bet", "match"})
"""Kinds of a chip move from a wallet into a pot; the other way is award, refund or void."""
POT_KINDS_BOTH: frozenset[str] = frozenset({"seven_deuce"})
"""Kinds of a chip move either way: a seven-deuce payment goes in from each payer and out
to the winner in one action (bot/engine/flop/sevendeuce.py)."""


@dataclass(frozen=True, slots=True)
class LeagueDefaults:
    """What a league starts with when it is created (its first table): the config file's
    ``[league]`` section (``bot.config.LeagueSettings.defaults``); without one, the
    database's column defaults and each game's own stakes."""

    starting_chips: int = 1000
    rebuy_amount: int = 1000
    rebuy_cooldown_seconds: int = 86_400
    game_settings: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class League:
    guild_id: int
    starting_chips: int
    rebuy_amount: int
    rebuy_cooldown_seconds: int
    game_settings: Mapping[str, Any]
    """Per game: ``{"stakes": {...}, "house_rules": {...}}``; validated by the engine."""
    admin_role_id: int | None
    allowed_channel_ids: tuple[int, ...]
    """Empty: every channel may host tables."""
    images: bool
    created_at: int
    updated_at: int
    chip_value: str | None = None
    """What one chip is worth (a decimal as text, e.g. ``"0.01"``); None: chips only."""
    currency: str | None = None
    """ISO 4217 code of the chip value (bot/league/settle.py ``CURRENCIES``)."""
    timezone: str | None = None
    """IANA time zone (``Europe/Berlin``) ``/night schedule when:`` is read in; None: UTC."""

    def channel_allowed(self, channel_id: int) -> bool:
        return not self.allowed_channel_ids or channel_id in self.allowed_channel_ids


@dataclass(frozen=True, slots=True)
class Season:
    id: int
    guild_id: int
    number: int
    started_at: int
    ended_at: int | None
    standings: tuple[Standing, ...] | None
    """Archived final standings, once the season has ended."""

    @property
    def open(self) -> bool:
        return self.ended_at is None


@dataclass(frozen=True, slots=True)
class Standing:
    rank: int
    user_id: int
    balance: int

    def to_json(self) -> dict[str, int]:
        return {"rank": self.rank, "user_id": self.user_id, "balance": self.balance}


@dataclass(frozen=True, slots=True)
class Account:
    id: int
    guild_id: int
    kind: AccountKind
    season_id: int | None
    user_id: int | None
    table_id: int | None
    balance: int
    """The cached balance; :meth:`Tx.ledger_balance` derives it from the ledger."""
    tournament_id: int | None = None
    """A tournament's prize pool, bounties, chip bank or a player's stack in it."""

    @property
    def label(self) -> str:
        if self.kind == "player":
            return f"wallet of user {self.user_id}"
        if self.kind == "pot":
            return f"pot of table {self.table_id}"
        if self.kind == "stack":
            return f"tournament stack of user {self.user_id}"
        if self.kind in ("prize_pool", "bounties", "chip_bank"):
            return f"{self.kind.replace('_', ' ')} of tournament {self.tournament_id}"
        return f"house of league {self.guild_id}"


@dataclass(frozen=True, slots=True)
class LedgerEntry:
    id: int
    guild_id: int
    season_id: int
    from_account: int
    to_account: int
    amount: int
    kind: str
    table_id: int | None
    hand_id: int | None
    actor_id: int | None
    reason: str | None
    created_at: int


@dataclass(frozen=True, slots=True)
class Table:
    id: int
    guild_id: int
    channel_id: int
    game: str
    rules: Mapping[str, Any]
    status: TableStatus
    host_id: int | None
    snapshot: Mapping[str, Any] | None
    version: int
    deadline: int | None
    practice: bool
    created_at: int
    updated_at: int
    pot_account: int
    verifiable: bool = False
    """Opened with ``verifiable:on``: each hand's deck comes from a seed (bot/engine/shuffle.py)."""
    tournament_id: int | None = None
    """A tournament's table: it plays the players' tournament stacks, not their wallets."""


@dataclass(frozen=True, slots=True)
class Seat:
    table_id: int
    seat_no: int
    user_id: int
    is_computer: bool
    away: bool
    dm_channel_id: int | None
    dm_message_id: int | None
    dm_ok: bool | None
    """None: not checked yet; False: DMs fail, the player uses the "My hand" button."""
    joined_at: int


@dataclass(frozen=True, slots=True)
class Hand:
    id: int
    table_id: int
    number: int
    game: str
    status: HandStatus
    started_at: int
    ended_at: int | None
    history: str | None
    result: Mapping[str, Any] | None
    seed: str | None = None
    """A verifiable table's hand: its seed. It shows every card dealt, so nothing shows it
    before the table closes (cogs/league.py's /history)."""


@dataclass(frozen=True, slots=True)
class HandResult:
    """One player's outcome of a hand: ``net`` is ``won - paid``."""

    user_id: int
    seat_no: int
    paid: int = 0
    won: int = 0
    won_pot: bool = False
    detail: Mapping[str, Any] = field(default_factory=dict)

    @property
    def net(self) -> int:
        return self.won - self.paid


@dataclass(frozen=True, slots=True)
class TableMessage:
    table_id: int
    kind: str
    channel_id: int
    message_id: int
    updated_at: int


@dataclass(frozen=True, slots=True)
class Contribution:
    """What one account put into a table's pot still standing (RULES §1.10)."""

    account_id: int
    user_id: int | None
    amount: int
