"""The TableService's writes (a part of :class:`bot.tables.service.TableService`): a
mutation's ledger moves, hand events and hand end wait in its :class:`~bot.tables.live.Step`
and go to the store in ONE round trip (with the table row and the commit at its end).
"""

from __future__ import annotations

from typing import Any

from bot.store import ActionRecord, StaleSeason, TableAccounts, Tx
from bot.tables.live import LiveTable, Step


class TableWrites:
    """Mixin of the TableService (it needs nothing of it: only the table, the transaction
    and the step it is given)."""

    async def _accounts(self, live: LiveTable, tx: Tx) -> TableAccounts:
        """The season, pot and wallet ids of the table, read once and kept on the table
        (re-read when a seated player is missing, or when the store says the season
        ended)."""
        acc = live.accounts
        if acc is None or (
            not acc.practice and any(i.user_id not in acc.wallets for i in live.seats.values())
        ):
            acc = await tx.table_accounts(live.id, [i.user_id for i in live.seats.values()])
            live.accounts = acc
        return acc

    async def _flush(
        self,
        live: LiveTable,
        tx: Tx,
        step: Step,
        *,
        balances: bool = False,
        save: bool = False,
        commit: bool = False,
    ) -> ActionRecord | None:
        """Send the step's pending writes (chip moves, hand events, the hand's end; with
        ``save`` the table row, with ``balances`` the seated players' wallet balances back)
        to the store in ONE round trip (``commit``: the transaction's COMMIT too). Called at
        the end of each mutation and before any other store call inside it, so every read
        sees the writes before it."""
        if not (step.moves or step.log or step.finish or balances or save):
            return None
        extra: dict[str, Any] = {}
        if save:
            extra = {
                "snapshot": live.session(),
                "expected_version": live.version,
                "deadline": live.deadline,
                "status": live.status,
            }
        for attempt in (1, 2):
            acc = await self._accounts(live, tx)
            asked = (
                [i.user_id for i in live.seats.values()] if balances and not acc.practice else ()
            )
            try:
                rec = await tx.record_action(
                    acc,
                    moves=step.moves,
                    hand_id=step.hand_id,
                    events=step.log,
                    finish=step.finish,
                    balances_of=asked,
                    commit=commit,
                    **extra,
                )
            except StaleSeason:
                # a season ended since the ids were read: the next wallets (nothing written)
                live.accounts = None
                if attempt == 2:
                    raise
                continue
            break
        step.moves = []
        step.log = []
        step.finish = None
        step.hand_id = None
        return rec

    async def _pend(self, live: LiveTable, tx: Tx, step: Step) -> None:
        """Make room for writes of the table's current hand (pending ones of another hand
        are sent first)."""
        if step.hand_id != live.hand_id and (step.moves or step.log or step.finish):
            await self._flush(live, tx, step)
        step.hand_id = live.hand_id
