"""Recording a settle-up and its transfers: who pays whom, numbered, each marked Paid by its
payer or payee, or carried into a later night's settle-up.

Two sides, in one transaction (all or nothing):

- the money: the fewest transfers that settle each member's total (the tables, the bank,
  the expenses, a forced end's unaccounted share and the debts carried in), respecting the
  ``settle_with`` groups (:func:`bot.league.settle.settle_up`). They are the settlement's
  ``transfers`` and one ``settle_transfers`` row each;
- the league chips: the chips won at the bot's tables go back to where the period began,
  as ledger rows of kind ``settle`` between two wallets of the season (the fewest transfers
  of the table nets alone, payee to payer: the payer paid for them in money). A settle-up
  is a payment, not an undo: the season's results leave these rows out. A bank night, whose
  money never was league chips, writes none.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from bot.league.settle import Transfer, fewest_transfers, parse_chip_value, settle_up
from bot.store._base import dump_json, load_json
from bot.store.bank import NightError
from bot.store.errors import NotFound, Overdraft
from bot.store.imports import ImportOps
from bot.store.night_models import (
    Night,
    PeriodResults,
    Settlement,
    SettleTransfer,
)


def _transfer_row(row: sqlite3.Row) -> SettleTransfer:
    return SettleTransfer(**{name: row[name] for name in SettleTransfer.__slots__})


def snapshot(results: PeriodResults) -> dict[str, object]:
    """A night's results as settled (read back by :meth:`NightOps.night_results`)."""
    pot = results.biggest_pot
    return {
        "players": [
            [
                p.user_id,
                p.net,
                p.hands,
                p.bought_in,
                p.cashed_out,
                p.expenses,
                p.unaccounted,
                p.carried,
            ]
            for p in results.players
        ],
        "hands": results.hands,
        "pot": None
        if pot is None
        else [pot.hand_id, pot.table_id, pot.number, pot.chips, list(pot.winners)],
        "kind": results.kind,
        "unaccounted": results.unaccounted,
        "expenses": [
            {
                "id": e.id,
                "what": e.what,
                "chips": e.chips,
                "paid_by": e.paid_by,
                "shared_by": None if e.shared_by is None else list(e.shared_by),
            }
            for e in results.expenses
        ],
        "groups": [sorted(g) for g in results.groups],
    }


class SettleOps(ImportOps):
    async def settlement_from_row(self, row: sqlite3.Row) -> Settlement:
        value = (
            None
            if row["chip_value"] is None
            else parse_chip_value(row["chip_value"], row["currency"])
        )
        rows = await self._all(
            "SELECT * FROM settle_transfers WHERE settlement_id = ? ORDER BY number", (row["id"],)
        )
        return Settlement(
            id=row["id"],
            period=row["period"],
            night_id=row["night_id"],
            actor_id=row["actor_id"],
            transfers=tuple(
                Transfer(payer=t["payer"], payee=t["payee"], chips=t["chips"])
                for t in load_json(row["transfers"])
            ),
            value=value,
            created_at=row["created_at"],
            rows=tuple(_transfer_row(r) for r in rows),
            channel_id=row["channel_id"],
            message_id=row["message_id"],
        )

    async def settlement(self, settlement_id: int) -> Settlement:
        row = await self._one("SELECT * FROM settlements WHERE id = ?", (settlement_id,))
        if row is None:
            raise NotFound(f"no settle-up {settlement_id}")
        return await self.settlement_from_row(row)

    async def settle_posted(self, settlement_id: int, channel_id: int, message_id: int) -> None:
        """Where the settle-up's post (with its Paid buttons) is."""
        await self._exec(
            "UPDATE settlements SET channel_id = ?, message_id = ? WHERE id = ?",
            (channel_id, message_id, settlement_id),
        )

    async def settle_transfer(self, transfer_id: int) -> SettleTransfer:
        row = await self._one("SELECT * FROM settle_transfers WHERE id = ?", (transfer_id,))
        if row is None:
            raise NotFound(f"no transfer {transfer_id}")
        return _transfer_row(row)

    async def open_transfers(self, guild_id: int) -> list[SettleTransfer]:
        """Every transfer of the server's settle-ups not yet paid nor carried, oldest first."""
        rows = await self._all(
            "SELECT * FROM settle_transfers WHERE guild_id = ? AND paid_at IS NULL"
            " AND carried_into IS NULL ORDER BY settlement_id, number",
            (guild_id,),
        )
        return [_transfer_row(r) for r in rows]

    async def mark_paid(self, guild_id: int, transfer_id: int, *, user_id: int) -> SettleTransfer:
        """Its payer or payee marks a transfer paid, once; refused (nothing changed) for
        anyone else, a transfer already paid, or one carried into a later settle-up."""
        try:
            t = await self.settle_transfer(transfer_id)
        except NotFound:
            raise NightError(
                "That transfer is not one of this server's. Nothing changed."
            ) from None
        if t.settlement_id is None or t.payer == t.payee:  # pragma: no cover - CHECKs
            raise NightError("That transfer is damaged. Nothing changed.")
        row = await self._one("SELECT guild_id FROM settle_transfers WHERE id = ?", (t.id,))
        if row is None or row["guild_id"] != guild_id:
            raise NightError("That transfer is not one of this server's. Nothing changed.")
        if user_id not in (t.payer, t.payee):
            raise NightError(
                f"Only <@{t.payer}> (who pays) or <@{t.payee}> (who is paid) may mark this "
                "transfer paid. Nothing changed."
            )
        if t.paid_at is not None:
            raise NightError(
                f"This transfer was already marked paid by <@{t.paid_by}> "
                f"<t:{t.paid_at}:R>. Nothing changed."
            )
        if t.carried_into is not None:
            raise NightError(
                f"This transfer was carried into settle-up #{t.carried_into}: it is paid "
                "there. Nothing changed."
            )
        changed = await self._exec(
            "UPDATE settle_transfers SET paid_at = ?, paid_by = ? WHERE id = ?"
            " AND paid_at IS NULL AND carried_into IS NULL",
            (self.now(), user_id, t.id),
        )
        if changed != 1:  # pragma: no cover - one writer at a time; the guard is the rule
            raise NightError("This transfer changed meanwhile. Nothing changed.")
        return await self.settle_transfer(t.id)

    async def _record(
        self,
        guild_id: int,
        results: PeriodResults,
        *,
        night: Night | None,
        actor_id: int,
        carried: Sequence[SettleTransfer] = (),
    ) -> int:
        """Write the settle-up of ``results`` (see the module's docstring); returns its id."""
        if night is not None:
            taken = await self._one("SELECT id FROM settlements WHERE night_id = ?", (night.id,))
            if taken is not None:
                raise NightError(f"Night #{night.number} is already settled.")
        money = settle_up(results.owed(), groups=results.groups)
        tables = night is None or night.tables
        chips = fewest_transfers({p.user_id: p.net + p.settled for p in results.players})
        season = await self.current_season(guild_id)
        value = results.value
        settlement_id = await self._insert(
            "INSERT INTO settlements (guild_id, season_id, period, night_id, actor_id,"
            " chip_value, currency, transfers, results, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                guild_id,
                season.id,
                results.period,
                None if night is None else night.id,
                actor_id,
                None if value is None else f"{value.per_chip:f}",
                None if value is None else value.currency,
                dump_json([{"payer": t.payer, "payee": t.payee, "chips": t.chips} for t in money]),
                None if night is None else dump_json(snapshot(results)),
                self.now(),
            ),
        )
        for number, t in enumerate(money, start=1):
            await self._insert(
                "INSERT INTO settle_transfers (settlement_id, guild_id, number, payer, payee,"
                " chips) VALUES (?, ?, ?, ?, ?, ?)",
                (settlement_id, guild_id, number, t.payer, t.payee, t.chips),
            )
        if carried:
            marks = ", ".join("?" for _ in carried)
            changed = await self._exec(
                f"UPDATE settle_transfers SET carried_into = ? WHERE id IN ({marks})"
                " AND paid_at IS NULL AND carried_into IS NULL",
                (settlement_id, *(c.id for c in carried)),
            )
            if changed != len(carried):  # pragma: no cover - inside one write transaction
                raise NightError("An open transfer changed meanwhile. Nothing changed.")
        if not tables:
            return settlement_id
        for t in chips:
            payer = await self.find_wallet(guild_id, t.payer, season=season)
            payee = await self.find_wallet(guild_id, t.payee, season=season)
            if payer is None or payee is None:
                raise NightError(
                    f"A player of {results.label} has no wallet this season; nothing was settled."
                )
            price = "" if value is None else f" ({value.format(value.rounded(t.chips))})"
            try:
                await self.transfer(
                    payee.id,
                    payer.id,
                    t.chips,
                    "settle",
                    actor_id=actor_id,
                    reason=f"settle-up #{settlement_id}, {results.label}: a payment in money"
                    f"{price}: the {t.chips:,} chips <@{t.payee}> won from <@{t.payer}> at the"
                    " tables go back to them",
                )
            except Overdraft as exc:
                # chips taken from the winner since (an admin's /chips take): the settle-up
                # would need chips they no longer hold
                raise NightError(
                    f"<@{t.payee}> holds {exc.have:,} chips but the settle-up of "
                    f"{results.label} returns {t.chips:,} from them to <@{t.payer}>. "
                    "Nothing was changed."
                ) from None
        return settlement_id
