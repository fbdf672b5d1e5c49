"""The records of nights, their bank and their settle-ups (frozen, no I/O), shared by
:mod:`bot.store.nights`, :mod:`bot.store.bank` and :mod:`bot.store.settleup`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from bot.league.bank import Expense
from bot.league.settle import ChipValue, Transfer, settle_up

Period = Literal["night", "season"]
NightKind = Literal["tables", "bank", "both"]
NIGHT_KINDS: tuple[str, ...] = ("tables", "bank", "both")


@dataclass(frozen=True, slots=True)
class Night:
    id: int
    guild_id: int
    number: int
    season_id: int
    host_id: int
    channel_id: int | None
    started_at: int
    ended_at: int | None
    ended_by: int | None
    kind: str = "tables"
    """``tables`` (the bot's tables count), ``bank`` (buy-ins and cash-outs of a game
    played anywhere) or ``both``."""
    schedule_id: int | None = None
    """The scheduled night (``/night schedule``) it was started on the day of."""

    @property
    def open(self) -> bool:
        return self.ended_at is None

    @property
    def tables(self) -> bool:
        """Whether the bot's league tables count this night."""
        return self.kind in ("tables", "both")

    @property
    def bank(self) -> bool:
        """Whether the night books buy-ins and cash-outs."""
        return self.kind in ("bank", "both")


@dataclass(frozen=True, slots=True)
class SettleTransfer:
    """One transfer of a recorded settle-up, numbered as its post lists them."""

    id: int
    settlement_id: int
    number: int
    payer: int
    payee: int
    chips: int
    paid_at: int | None
    paid_by: int | None
    carried_into: int | None

    @property
    def open(self) -> bool:
        return self.paid_at is None and self.carried_into is None

    @property
    def transfer(self) -> Transfer:
        return Transfer(payer=self.payer, payee=self.payee, chips=self.chips)


@dataclass(frozen=True, slots=True)
class Settlement:
    id: int
    period: Period
    night_id: int | None
    actor_id: int | None
    transfers: tuple[Transfer, ...]
    value: ChipValue | None
    created_at: int
    rows: tuple[SettleTransfer, ...] = ()
    """The transfers with their Paid state (the same order)."""
    channel_id: int | None = None
    message_id: int | None = None


@dataclass(frozen=True, slots=True)
class PlayerResult:
    user_id: int
    net: int
    """Chips won (+) or lost (-) in the period's hands at the bot's tables."""
    hands: int
    settled: int = 0
    """What the period's recorded settle-up moved (the opposite of what was settled)."""
    bought_in: int = 0
    """A bank night: chips bought in (money at the chip value)."""
    cashed_out: int = 0
    expenses: int = 0
    """What the night's expenses add: + what the member paid, - their shares."""
    unaccounted: int = 0
    """Their share of what a forced end found missing (+) or over (-)."""
    carried: int = 0
    """Open debts of earlier settle-ups carried into this one: + owed to them, - owed."""

    @property
    def bank(self) -> int:
        return self.cashed_out - self.bought_in

    @property
    def total(self) -> int:
        """What the settle-up settles for the member: tables, bank, expenses, unaccounted
        share and carried debts."""
        return self.net + self.bank + self.expenses + self.unaccounted + self.carried

    @property
    def owed(self) -> int:
        """What is left to settle: 0 once settled."""
        return self.total + self.settled


@dataclass(frozen=True, slots=True)
class BiggestPot:
    hand_id: int
    table_id: int
    number: int
    chips: int
    winners: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class PeriodResults:
    period: Period
    label: str
    """``night #3`` or ``season 2``."""
    players: tuple[PlayerResult, ...]
    """Biggest winner first (ties by member id)."""
    hands: int
    biggest_pot: BiggestPot | None
    value: ChipValue | None
    settlement: Settlement | None = None
    """Night: its recorded settle-up, once ended."""
    kind: str = "tables"
    expenses: tuple[Expense, ...] = ()
    unaccounted: int = 0
    """A forced end: money in minus money out that nobody accounted for (chips)."""
    groups: tuple[frozenset[int], ...] = field(default=())
    """``settle_with`` groups the settle-up respected."""

    def owed(self) -> dict[int, int]:
        return {p.user_id: p.owed for p in self.players}

    def plan(self) -> list[Transfer]:
        """The recorded transfers of a settled period, else the fewest that settle now."""
        if self.settlement is not None:
            return list(self.settlement.transfers)
        return settle_up(self.owed(), groups=self.groups)

    @property
    def money_in(self) -> int:
        return sum(p.bought_in for p in self.players)

    @property
    def money_out(self) -> int:
        return sum(p.cashed_out for p in self.players)
