"""The TableService's chips rule (a part of :class:`bot.tables.service.TableService`):
what ``/chips take`` may take from a seated player, and what a hand does when a wallet
cannot pay what the game asks of it (issue 11, item 2).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from bot.store import LedgerEntry, Overdraft, Store
from bot.tables.errors import ChipsInPlay, TableClosed

if TYPE_CHECKING:
    from bot.store import Tx
    from bot.tables.live import LiveTable, Step

log = logging.getLogger("bot.tables.service")


class TableChips:
    """Mixin of the TableService: what it needs of the service is declared below."""

    store: Store
    _tables: dict[int, LiveTable]
    _lock: Callable[[int], asyncio.Lock]
    _run: Callable[..., Awaitable[tuple[LiveTable, Any, Any]]]
    _get: Callable[[int], Awaitable[LiveTable]]
    _void: Callable[..., Awaitable[None]]

    async def take_chips(
        self, guild_id: int, user_id: int, amount: int, *, actor_id: int, reason: str
    ) -> tuple[LedgerEntry, int]:
        """``/chips take``: remove chips from a member's wallet (ledger ``take``); returns
        the entry and the balance after it.

        Rule: a member dealt into a hand being played at a live league table keeps in
        their wallet at least their chips behind in that hand (what the game may still ask
        of them: antes, the match, bets up to all in), until the hand ends; only chips
        beyond that (e.g. a grant during the hand) can be taken meanwhile. A bigger take is
        refused with :class:`ChipsInPlay`, naming the table and the most that can be taken
        now, and nothing changes. Between hands any amount the wallet holds can be taken
        (the next hand is dealt on the wallet as it is). The check and the take run under
        the table's lock, so the hand cannot move in between."""
        for _ in range(3):
            async with self.store.read() as tx:
                table_id = await tx.league_table_of(guild_id, user_id)
            if table_id is None:
                async with self.store.transaction() as tx:
                    entry = await tx.take(
                        guild_id, user_id, amount, actor_id=actor_id, reason=reason
                    )
                    return entry, await tx.balance(entry.from_account)
            try:
                await self._get(table_id)
            except TableClosed:
                continue
            async with self._lock(table_id):
                live = self._tables.get(table_id)
                info = None if live is None else live.seat_of(user_id)
                if live is None or info is None or live.status == "closed":
                    continue  # they left that table meanwhile: look again
                fam = live.family
                need = 0
                if fam.hand_running and fam.in_hand(info.seat_no):
                    need = fam.stacks().get(info.seat_no, 0)
                async with self.store.transaction() as tx:
                    wallet = await tx.wallet(guild_id, user_id)
                    most = max(0, wallet.balance - need)
                    if amount > most:
                        name = live.names.get(user_id, f"player {user_id}")
                        raise ChipsInPlay(
                            f"{name} plays hand {live.hand_number} at table #{live.id} in "
                            f"<#{live.channel_id}> with {need} chips in play: at most {most} "
                            "chips can be taken now (more once the hand ends). Nothing was "
                            "changed."
                        )
                    entry = await tx.take(
                        guild_id, user_id, amount, actor_id=actor_id, reason=reason
                    )
                    return entry, await tx.balance(entry.from_account)
        raise TableClosed("the member's table changed while taking chips: try again")

    async def rebuy(self, guild_id: int, user_id: int) -> tuple[LedgerEntry, int]:
        """``/rebuy``: top the member's wallet up to the league's rebuy amount (see
        :meth:`bot.store.Tx.rebuy`); returns the entry and the balance after it.

        Rule (rules §5.3 in docs/rules.md): a rebuy is between hands. A member dealt into
        a hand being played at a live league table is refused with :class:`ChipsInPlay`
        naming the table, and nothing changes (table stakes: nobody adds chips during a
        hand); once it ends they may rebuy, and the next hand is dealt on the wallet as it
        is then. The check and the rebuy run under the table's lock."""
        for _ in range(3):
            async with self.store.read() as tx:
                table_id = await tx.league_table_of(guild_id, user_id)
            if table_id is None:
                async with self.store.transaction() as tx:
                    entry = await tx.rebuy(guild_id, user_id)
                    return entry, await tx.balance(entry.to_account)
            try:
                await self._get(table_id)
            except TableClosed:
                continue
            async with self._lock(table_id):
                live = self._tables.get(table_id)
                info = None if live is None else live.seat_of(user_id)
                if live is None or info is None or live.status == "closed":
                    continue  # they left that table meanwhile: look again
                fam = live.family
                if fam.hand_running and fam.in_hand(info.seat_no):
                    raise ChipsInPlay(
                        f"You play hand {live.hand_number} at table #{live.id} in "
                        f"<#{live.channel_id}>: a rebuy is between hands, so ask again when "
                        "it ends. Nothing changed."
                    )
                async with self.store.transaction() as tx:
                    entry = await tx.rebuy(guild_id, user_id)
                    return entry, await tx.balance(entry.to_account)
        raise TableClosed("your table changed while rebuying: try again")

    async def _settle_short_wallet(self, table_id: int, short: Overdraft) -> str | None:
        """A payment of the hand failed: a wallet holds fewer chips than the game knows of
        (chips left it outside the game, which ``/chips take`` refuses, see
        :meth:`take_chips`; or a database edited by hand). Rule: the hand is voided, every
        chip it moved goes back by the ledger, and the table goes on with the next hand,
        which is dealt on the wallets as they are. Retrying would fail the same way on every
        tick, also after a restart. If even the void cannot be booked, the table pauses (no
        timer runs into it again) for a league manager. Returns what the table was told,
        None if no hand was running (the refusal stands as it is)."""
        told: list[str] = []

        async def void(live: LiveTable, tx: Tx, step: Step) -> None:
            if live.hand_id is None or not live.family.hand_running:
                return
            who = "a player"
            if short.user_id is not None:
                who = live.names.get(short.user_id, f"player {short.user_id}")
            why = (
                f"{who}'s wallet holds {short.have} chips, fewer than the {short.needed} the"
                " hand asked of it: chips left it during the hand"
            )
            await self._void(
                live, tx, step, actor_id=None, reason="a wallet could not pay", why=why
            )
            told.append(
                f"Hand {live.hand_number} was voided: {why}. Every chip it moved went back."
            )

        try:
            await self._run(table_id, void, settle=False)
            return told[0] if told else None
        except Exception:
            log.exception("voiding the unpayable hand of table %s failed", table_id)

        async def pause(live: LiveTable, tx: Tx, step: Step) -> None:
            live.status = "paused"
            live.deadline = None
            live.pending = None
            step.touched.update(i.user_id for i in live.seats.values())
            text = (
                "Table paused: a wallet cannot pay what the hand needs and the hand could not"
                " be voided; a league manager can look with /audit"
            )
            step.announcements.append(text)
            told.append(text)

        try:
            await self._run(table_id, pause, settle=False)
        except Exception:
            log.exception("pausing table %s after an unpayable hand failed", table_id)
            return None
        return told[-1]
