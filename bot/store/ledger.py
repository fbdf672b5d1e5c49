"""Accounts and the append-only ledger: wallets, transfers, grants, rebuys, seasons' ends.

Every chip that moves is one ledger row (RULES §5.1), written in the same transaction as the
guarded update of the two cached balances; the audit checks the cache against the ledger.
"""

from __future__ import annotations

import sqlite3

from bot.store._base import dump_json
from bot.store.errors import (
    InvalidAmount,
    NotFound,
    Overdraft,
    RebuyCooldown,
    RebuyNotNeeded,
    SeasonError,
    StoreError,
)
from bot.store.leagues import LeagueOps
from bot.store.models import LEDGER_KINDS, Account, LedgerEntry, Season, Standing

_MAX_REASON = 500
ISSUERS = frozenset({"house", "chip_bank"})
"""Accounts that issue chips, so may go below zero: the league's house (league chips) and
a tournament's chip bank (its tournament chips)."""


def account_from_row(row: sqlite3.Row) -> Account:
    return Account(
        id=row["id"],
        guild_id=row["guild_id"],
        kind=row["kind"],
        season_id=row["season_id"],
        user_id=row["user_id"],
        table_id=row["table_id"],
        balance=row["balance"],
        tournament_id=row["tournament_id"],
    )


def entry_from_row(row: sqlite3.Row) -> LedgerEntry:
    return LedgerEntry(**{name: row[name] for name in LedgerEntry.__slots__})


def check_amount(amount: object) -> int:
    # bool is an int subclass: True must not become one chip
    if type(amount) is not int:
        raise InvalidAmount(f"chip amounts are whole numbers, not {amount!r}")
    if amount <= 0:
        raise InvalidAmount(f"a chip amount must be more than 0, not {amount}")
    return amount


def check_reason(reason: object) -> str:
    if not isinstance(reason, str) or not reason.strip():
        raise InvalidAmount("a reason is required (who is it for and why)")
    if len(reason) > _MAX_REASON:
        raise InvalidAmount(f"the reason is longer than {_MAX_REASON} characters")
    return reason.strip()


class LedgerOps(LeagueOps):
    async def account(self, account_id: int) -> Account:
        row = await self._one("SELECT * FROM accounts WHERE id = ?", (account_id,))
        if row is None:
            raise NotFound(f"no account {account_id}")
        return account_from_row(row)

    async def house(self, guild_id: int) -> Account:
        """The league's issuer: chips enter and leave circulation through it."""
        await self.league(guild_id)
        row = await self._one(
            "SELECT * FROM accounts WHERE guild_id = ? AND kind = 'house'", (guild_id,)
        )
        assert row is not None, "a league always has its house account"
        return account_from_row(row)

    async def find_wallet(
        self, guild_id: int, user_id: int, *, season: Season | None = None
    ) -> Account | None:
        """The member's wallet in ``season`` (default: the current one), without creating it."""
        if season is None:
            league = await self.find_league(guild_id)
            if league is None:
                return None
            season = await self.current_season(guild_id)
        row = await self._one(
            "SELECT * FROM accounts WHERE kind = 'player' AND season_id = ? AND user_id = ?",
            (season.id, user_id),
        )
        return None if row is None else account_from_row(row)

    async def wallet(self, guild_id: int, user_id: int) -> Account:
        """The member's wallet this season. The first time, it is created and receives the
        league's starting chips from the house (ledger kind ``start``)."""
        found = await self.find_wallet(guild_id, user_id)
        if found is not None:
            return found
        league = await self.league(guild_id)
        season = await self.current_season(guild_id)
        account_id = await self._insert(
            "INSERT INTO accounts (guild_id, kind, season_id, user_id, created_at)"
            " VALUES (?, 'player', ?, ?, ?)",
            (guild_id, season.id, user_id, self.now()),
        )
        if league.starting_chips > 0:
            house = await self.house(guild_id)
            await self.transfer(
                house.id, account_id, league.starting_chips, "start", reason="starting chips"
            )
        return await self.account(account_id)

    async def transfer(
        self,
        from_account: int,
        to_account: int,
        amount: int,
        kind: str,
        *,
        table_id: int | None = None,
        hand_id: int | None = None,
        actor_id: int | None = None,
        reason: str | None = None,
    ) -> LedgerEntry:
        """Move ``amount`` chips and record it. Raises :class:`Overdraft` (an
        ``InsufficientChips``) if the payer lacks them; on any refusal nothing changed.

        Only an issuer may go below zero (:data:`ISSUERS`): the house's balance is minus all
        league chips in circulation, a tournament's chip bank minus its chips in play.
        """
        check_amount(amount)
        if kind not in LEDGER_KINDS:
            raise InvalidAmount(f"unknown ledger kind {kind!r}")
        if from_account == to_account:
            raise InvalidAmount("an account cannot pay itself")
        payer = await self.account(from_account)
        payee = await self.account(to_account)
        if payer.guild_id != payee.guild_id:
            raise StoreError("chips never move between leagues")
        season = await self.current_season(payer.guild_id)
        for acct in (payer, payee):
            if acct.kind == "player" and acct.season_id != season.id and kind != "season_end":
                raise SeasonError(f"{acct.label} belongs to a season that has ended")
        if payer.kind in ISSUERS:
            await self._exec(
                "UPDATE accounts SET balance = balance - ? WHERE id = ?", (amount, payer.id)
            )
        else:
            # the guard and the debit are one statement: no read-then-write race
            changed = await self._exec(
                "UPDATE accounts SET balance = balance - ? WHERE id = ? AND balance >= ?",
                (amount, payer.id, amount),
            )
            if changed != 1:
                have = (await self.account(payer.id)).balance
                raise Overdraft(payer, have=have, needed=amount)
        await self._exec(
            "UPDATE accounts SET balance = balance + ? WHERE id = ?", (amount, payee.id)
        )
        entry_id = await self._insert(
            "INSERT INTO ledger (guild_id, season_id, from_account, to_account, amount, kind,"
            " table_id, hand_id, actor_id, reason, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                payer.guild_id,
                season.id,
                payer.id,
                payee.id,
                amount,
                kind,
                table_id,
                hand_id,
                actor_id,
                reason,
                self.now(),
            ),
        )
        return await self.entry(entry_id)

    async def entry(self, entry_id: int) -> LedgerEntry:
        row = await self._one("SELECT * FROM ledger WHERE id = ?", (entry_id,))
        if row is None:
            raise NotFound(f"no ledger entry {entry_id}")
        return entry_from_row(row)

    async def grant(
        self, guild_id: int, user_id: int, amount: int, *, actor_id: int, reason: str
    ) -> LedgerEntry:
        """An admin gives a member chips from the house; ``actor_id`` and ``reason`` are kept."""
        check_amount(amount)
        why = check_reason(reason)
        wallet = await self.wallet(guild_id, user_id)
        house = await self.house(guild_id)
        return await self.transfer(
            house.id, wallet.id, amount, "grant", actor_id=actor_id, reason=why
        )

    async def take(
        self, guild_id: int, user_id: int, amount: int, *, actor_id: int, reason: str
    ) -> LedgerEntry:
        """An admin removes chips from a member (back to the house); refused past zero."""
        check_amount(amount)
        why = check_reason(reason)
        wallet = await self.wallet(guild_id, user_id)
        house = await self.house(guild_id)
        return await self.transfer(
            wallet.id, house.id, amount, "take", actor_id=actor_id, reason=why
        )

    async def last_rebuy_at(self, account_id: int) -> int | None:
        row = await self._one(
            "SELECT MAX(created_at) AS at FROM ledger WHERE to_account = ? AND kind = 'rebuy'",
            (account_id,),
        )
        return None if row is None else row["at"]

    async def rebuy(self, guild_id: int, user_id: int) -> LedgerEntry:
        """Top the member's wallet up to the league's rebuy amount from the house (ledger
        ``rebuy`` of the difference; rules §5.3 in docs/rules.md). Only for a member below
        that amount (a busted one holds 0): at or above it, :class:`RebuyNotNeeded`; at
        most once per ``rebuy_cooldown_seconds`` (:class:`RebuyCooldown` with the time
        left). Whether a hand is in play is the table service's to check (a rebuy is
        between hands)."""
        league = await self.league(guild_id)
        if league.rebuy_amount <= 0:
            raise StoreError("Rebuys are off in this league. Nothing changed.")
        wallet = await self.wallet(guild_id, user_id)
        if wallet.balance >= league.rebuy_amount:
            raise RebuyNotNeeded(wallet.balance, league.rebuy_amount)
        last = await self.last_rebuy_at(wallet.id)
        if last is not None:
            left = last + league.rebuy_cooldown_seconds - self.now()
            if left > 0:
                raise RebuyCooldown(left)
        house = await self.house(guild_id)
        return await self.transfer(
            house.id,
            wallet.id,
            league.rebuy_amount - wallet.balance,
            "rebuy",
            actor_id=user_id,
            reason=f"rebuy: topped up to {league.rebuy_amount}",
        )

    async def balance(self, account_id: int) -> int:
        """The cached balance (kept in step with the ledger in every transaction)."""
        return (await self.account(account_id)).balance

    async def ledger_balance(self, account_id: int) -> int:
        """The balance derived from the ledger alone: all it received minus all it paid."""
        row = await self._one(
            "SELECT COALESCE(SUM(CASE WHEN to_account = :a THEN amount ELSE -amount END), 0)"
            " AS total FROM ledger WHERE to_account = :a OR from_account = :a",
            {"a": account_id},
        )
        assert row is not None
        total: int = row["total"]
        return total

    async def entries(
        self,
        *,
        guild_id: int | None = None,
        account_id: int | None = None,
        table_id: int | None = None,
        hand_id: int | None = None,
        kind: str | None = None,
        limit: int | None = None,
    ) -> list[LedgerEntry]:
        """Ledger rows matching every given filter, oldest first (``limit``: the newest N)."""
        where = []
        params: dict[str, object] = {}
        if guild_id is not None:
            where.append("guild_id = :guild")
            params["guild"] = guild_id
        if account_id is not None:
            where.append("(from_account = :acct OR to_account = :acct)")
            params["acct"] = account_id
        if table_id is not None:
            where.append("table_id = :table")
            params["table"] = table_id
        if hand_id is not None:
            where.append("hand_id = :hand")
            params["hand"] = hand_id
        if kind is not None:
            where.append("kind = :kind")
            params["kind"] = kind
        sql = "SELECT * FROM ledger"
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += " ORDER BY id DESC"
        if limit is not None:
            sql += " LIMIT :limit"
            params["limit"] = limit
        rows = await self._all(sql, params)
        return [entry_from_row(r) for r in reversed(rows)]

    async def standings(self, guild_id: int, *, season_number: int | None = None) -> list[Standing]:
        """Members by balance, richest first (ties by user id). An ended season gives its
        archived final standings."""
        season = (
            await self.current_season(guild_id)
            if season_number is None
            else await self.season(guild_id, season_number)
        )
        if season.standings is not None:
            return list(season.standings)
        rows = await self._all(
            "SELECT user_id, balance FROM accounts WHERE kind = 'player' AND season_id = ?"
            " ORDER BY balance DESC, user_id",
            (season.id,),
        )
        standings: list[Standing] = []
        for i, row in enumerate(rows):
            # equal balances share a rank (1, 2, 2, 4)
            if standings and standings[-1].balance == row["balance"]:
                rank = standings[-1].rank
            else:
                rank = i + 1
            standings.append(Standing(rank=rank, user_id=row["user_id"], balance=row["balance"]))
        return standings

    async def end_season(self, guild_id: int, *, actor_id: int | None = None) -> Season:
        """Archive the current season's standings, sweep its wallets back to the house
        (ledger kind ``season_end``) and open the next season, which is returned. Members
        get the starting chips again with their next wallet.

        Refused (:class:`SeasonError`) while a table's pot holds chips: those belong to the
        players of the ending season; close or finish those tables first. Refused too while
        a night is on (its settle-up belongs to this season).
        """
        season = await self.current_season(guild_id)
        night = await self._one(
            "SELECT number FROM nights WHERE guild_id = ? AND ended_at IS NULL", (guild_id,)
        )
        if night is not None:
            # the night's settle-up moves chips between this season's wallets
            raise SeasonError(f"night #{night['number']} is on; end it with /night end first")
        tournament = await self._one(
            "SELECT number FROM tournaments WHERE guild_id = ?"
            " AND status IN ('registering', 'running') ORDER BY id LIMIT 1",
            (guild_id,),
        )
        if tournament is not None:
            # its prize pool holds this season's chips, and its stacks play on
            raise SeasonError(
                f"tournament #{tournament['number']} is on; finish or cancel it"
                " (/tournament cancel) first"
            )
        busy = await self._all(
            "SELECT table_id, balance FROM accounts"
            " WHERE guild_id = ? AND kind = 'pot' AND balance <> 0 ORDER BY table_id",
            (guild_id,),
        )
        if busy:
            tables = ", ".join(f"table {r['table_id']} ({r['balance']} chips)" for r in busy)
            raise SeasonError(f"chips are still in play: {tables}; close those tables first")
        standings = await self.standings(guild_id)
        house = await self.house(guild_id)
        wallets = await self._all(
            "SELECT id, balance FROM accounts"
            " WHERE kind = 'player' AND season_id = ? AND balance > 0 ORDER BY id",
            (season.id,),
        )
        for w in wallets:
            await self.transfer(
                w["id"],
                house.id,
                w["balance"],
                "season_end",
                actor_id=actor_id,
                reason=f"end of season {season.number}",
            )
        now = self.now()
        await self._exec(
            "UPDATE seasons SET ended_at = ?, standings = ? WHERE id = ?",
            (now, dump_json([s.to_json() for s in standings]), season.id),
        )
        await self._insert(
            "INSERT INTO seasons (guild_id, number, started_at) VALUES (?, ?, ?)",
            (guild_id, season.number + 1, now),
        )
        return await self.current_season(guild_id)
