"""The audit: proves the ledger and the cached balances agree and chips are conserved.

RULES §5.2: the sum of all balances plus all chips in pots equals all chips ever issued
minus all chips ever removed. A night's bank balances and its settle-up settles it
(:mod:`bot.store.night_audit`). Per league, chips are issued and removed only through the
house account, so the house's balance is minus everything in circulation.

A tournament's league chips (its prize pool and bounties) count with the wallets; its
tournament chips (stacks, the pots of its tables) are no league chips and are added up
apart, per tournament (:mod:`bot.store.tournament_audit`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.store._base import TxBase
from bot.store.night_audit import night_differences
from bot.store.tournament_audit import tournament_problems


@dataclass(frozen=True, slots=True)
class LeagueFigures:
    guild_id: int
    issued: int
    """Chips the house ever paid out (starting chips, grants, rebuys)."""
    removed: int
    """Chips ever paid back to the house (takes, season ends)."""
    players: int
    """Sum of the cached balances of all player wallets."""
    pots: int
    """Sum of the cached balances of all table pots."""
    house: int
    """The house's cached balance: ``-(issued - removed)`` when all is well."""
    wallets: int
    ledger_entries: int
    funds: int = 0
    """League chips the tournaments hold (their prize pools and bounties)."""
    tournament_chips: int = 0
    """Tournament chips in play (stacks and tournament tables' pots): no league chips."""

    @property
    def in_circulation(self) -> int:
        return self.issued - self.removed

    def to_json(self) -> dict[str, int]:
        return {
            "guild_id": self.guild_id,
            "issued": self.issued,
            "removed": self.removed,
            "in_circulation": self.in_circulation,
            "players": self.players,
            "pots": self.pots,
            "house": self.house,
            "wallets": self.wallets,
            "ledger_entries": self.ledger_entries,
            "tournament_funds": self.funds,
            "tournament_chips": self.tournament_chips,
        }


@dataclass(frozen=True, slots=True)
class Difference:
    """One thing that does not add up. ``expected`` and ``actual`` are chip counts."""

    guild_id: int
    what: str
    expected: int
    actual: int
    account_id: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "guild_id": self.guild_id,
            "what": self.what,
            "account_id": self.account_id,
            "expected": self.expected,
            "actual": self.actual,
        }

    def describe(self) -> str:
        return f"league {self.guild_id}: {self.what}: expected {self.expected}, found {self.actual}"


@dataclass(frozen=True, slots=True)
class AuditReport:
    leagues: tuple[LeagueFigures, ...]
    differences: tuple[Difference, ...] = field(default=())

    @property
    def ok(self) -> bool:
        return not self.differences

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "leagues": [f.to_json() for f in self.leagues],
            "differences": [d.to_json() for d in self.differences],
        }

    def format(self) -> str:
        """A human-readable report, one block per league."""
        lines: list[str] = []
        for f in self.leagues:
            lines += [
                f"league {f.guild_id}",
                f"  issued          {f.issued:>14,}",
                f"  removed         {f.removed:>14,}",
                f"  in circulation  {f.in_circulation:>14,}",
                f"  player wallets  {f.players:>14,}  ({f.wallets} wallets)",
                f"  table pots      {f.pots:>14,}",
                f"  tournament pool {f.funds:>14,}  (prize pools and bounties)",
                f"  house account   {f.house:>14,}",
                f"  ledger entries  {f.ledger_entries:>14,}",
                f"  tournament chips{f.tournament_chips:>14,}  (in play: no league chips)",
            ]
        if not self.leagues:
            lines.append("no leagues yet")
        if self.differences:
            lines.append(f"{len(self.differences)} difference(s):")
            lines += [f"  {d.describe()}" for d in self.differences]
        else:
            lines.append("OK: every balance matches the ledger and every chip is accounted for")
        return "\n".join(lines)


async def run_audit(tx: TxBase, guild_id: int | None = None) -> AuditReport:
    """Add everything up, for one league or all of them."""
    only = "" if guild_id is None else " WHERE guild_id = :guild"
    params = {} if guild_id is None else {"guild": guild_id}
    differences: list[Difference] = []

    # every cached balance equals its ledger sum; nothing but the house below zero
    accounts = await tx._all(
        "SELECT a.id, a.guild_id, a.kind, a.balance,"
        " COALESCE((SELECT SUM(amount) FROM ledger WHERE to_account = a.id), 0)"
        " - COALESCE((SELECT SUM(amount) FROM ledger WHERE from_account = a.id), 0) AS derived"
        " FROM accounts a"
        + ("" if guild_id is None else " WHERE a.guild_id = :guild")
        + " ORDER BY a.id",
        params,
    )
    for a in accounts:
        if a["balance"] != a["derived"]:
            differences.append(
                Difference(
                    guild_id=a["guild_id"],
                    what=f"cached balance of {a['kind']} account {a['id']} vs its ledger",
                    expected=a["derived"],
                    actual=a["balance"],
                    account_id=a["id"],
                )
            )
        if a["kind"] not in ("house", "chip_bank") and (a["balance"] < 0 or a["derived"] < 0):
            differences.append(
                Difference(
                    guild_id=a["guild_id"],
                    what=f"{a['kind']} account {a['id']} is negative",
                    expected=0,
                    actual=min(a["balance"], a["derived"]),
                    account_id=a["id"],
                )
            )

    # entries whose accounts belong to another league than the entry
    strays = await tx._all(
        "SELECT l.id, l.guild_id, l.amount FROM ledger l"
        " JOIN accounts f ON f.id = l.from_account JOIN accounts t ON t.id = l.to_account"
        " WHERE (f.guild_id <> l.guild_id OR t.guild_id <> l.guild_id)"
        + ("" if guild_id is None else " AND l.guild_id = :guild"),
        params,
    )
    for s in strays:
        differences.append(
            Difference(
                guild_id=s["guild_id"],
                what=f"ledger entry {s['id']} moves chips of another league",
                expected=0,
                actual=s["amount"],
            )
        )

    figures: list[LeagueFigures] = []
    leagues = await tx._all(f"SELECT guild_id FROM leagues{only} ORDER BY guild_id", params)
    for league in leagues:
        g = league["guild_id"]
        row = await tx._one(
            """
            SELECT
              COALESCE(SUM(CASE WHEN f.kind = 'house' THEN l.amount END), 0) AS issued,
              COALESCE(SUM(CASE WHEN t.kind = 'house' THEN l.amount END), 0) AS removed,
              COUNT(l.id) AS entries
            FROM ledger l
            JOIN accounts f ON f.id = l.from_account
            JOIN accounts t ON t.id = l.to_account
            WHERE l.guild_id = :g
            """,
            {"g": g},
        )
        sums = await tx._one(
            """
            SELECT
              COALESCE(SUM(CASE WHEN a.kind = 'player' THEN a.balance END), 0) AS players,
              COALESCE(SUM(CASE WHEN a.kind = 'pot' AND t.tournament_id IS NULL
                           THEN a.balance END), 0) AS pots,
              COALESCE(SUM(CASE WHEN a.kind = 'house' THEN a.balance END), 0) AS house,
              COUNT(CASE WHEN a.kind = 'player' THEN 1 END) AS wallets,
              COALESCE(SUM(CASE WHEN a.kind IN ('prize_pool', 'bounties')
                           THEN a.balance END), 0) AS funds,
              COALESCE(SUM(CASE WHEN a.kind = 'stack'
                           OR (a.kind = 'pot' AND t.tournament_id IS NOT NULL)
                           THEN a.balance END), 0) AS tchips
            FROM accounts a LEFT JOIN tables t ON t.id = a.table_id WHERE a.guild_id = :g
            """,
            {"g": g},
        )
        assert row is not None and sums is not None
        f = LeagueFigures(
            guild_id=g,
            issued=row["issued"],
            removed=row["removed"],
            players=sums["players"],
            pots=sums["pots"],
            house=sums["house"],
            wallets=sums["wallets"],
            ledger_entries=row["entries"],
            funds=sums["funds"],
            tournament_chips=sums["tchips"],
        )
        figures.append(f)
        if f.players + f.pots + f.funds != f.in_circulation:
            differences.append(
                Difference(
                    guild_id=g,
                    what="player wallets + table pots"
                    + (" + tournament pools" if f.funds else "")
                    + " vs chips issued - removed",
                    expected=f.in_circulation,
                    actual=f.players + f.pots + f.funds,
                )
            )
        for p in await tournament_problems(tx, g):
            differences.append(Difference(g, p.what, p.expected, p.actual))
        # the nights' bank books and settle-ups (bot/store/night_audit.py)
        for n in await night_differences(tx, g):
            differences.append(Difference(g, n.what, n.expected, n.actual))
        if f.house != -f.in_circulation:
            differences.append(
                Difference(
                    guild_id=g,
                    what="house balance vs -(chips issued - removed)",
                    expected=-f.in_circulation,
                    actual=f.house,
                )
            )
    return AuditReport(leagues=tuple(figures), differences=tuple(differences))
