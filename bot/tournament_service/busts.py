"""The TournamentService's busts (a part of
:class:`bot.tournament_service.service.TournamentService`): each hand's knockouts booked
from its table's report (places by the bust order; players busted in the same hand by the
chips they began it with, TDA), the bounties paid to who won the chips, the buttons a
busted player gets while the structure allows them (**Rebuy**, **Re-enter**, **I'm out**),
and the add-on offered to every player at the break that ends the rebuy period.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from bot.engine.errors import HomeGameError
from bot.render.text import format_chips, plural
from bot.tournament import (
    Knockout,
    add_on,
    decline,
    finish_if_over,
    in_add_on_break,
    re_enter,
    read_clock,
    rebuy,
    record_hand,
    why_not_re_enter,
    why_not_rebuy,
)
from bot.tournament.state import decision_deadline
from bot.tournament_service.live import LiveTournament, Notices, Offer, Post

if TYPE_CHECKING:
    from bot.tables.service import TableService
    from bot.tournament import Outcome

log = logging.getLogger("bot.tournament")

COMPUTER_REBUYS = 0.6
"""How often a busted computer player rebuys (or re-enters) when it may."""


class TournamentBusts:
    """Mixin of the TournamentService: what it needs of the service is declared below."""

    tables: TableService
    clock: Callable[[], float]
    _commit: Callable[..., Awaitable[None]]
    _locked: Callable[..., Awaitable[object]]
    _balance: Callable[[LiveTournament, Notices], Awaitable[None]]
    _seat_back: Callable[[LiveTournament, int, Notices], Awaitable[None]]
    _seat_newcomer: Callable[[LiveTournament, int, Notices], Awaitable[None]]
    _channel_of: Callable[[LiveTournament, int], int | None]
    _finish: Callable[[LiveTournament, Outcome, Notices], Awaitable[None]]

    # ------------------------------------------------------------------ a hand's end

    async def _book_report(self, live: LiveTournament, table_id: int, notices: Notices) -> None:
        """Book table ``table_id``'s last hand once: its knockouts and their bounties."""
        try:
            report = await self.tables.tournament_report(table_id)
        except HomeGameError:
            return  # closed meanwhile
        if report is None or report.hand_number <= live.booked(table_id):
            return
        t = live.t
        busted = {b.user_id for b in report.busted}
        knockouts = []
        for b in report.busted:
            entry = live.entry_of(b.user_id)
            if entry is None:
                continue
            taken: dict[int, int] = {}
            for uid, weight in b.taken_by.items():
                winner = live.entry_of(uid)
                if winner is not None and uid not in busted and weight > 0:
                    taken[winner.number] = taken.get(winner.number, 0) + weight
            knockouts.append(Knockout(entry.number, b.started_with, taken))
        live.set_booked(table_id, report.hand_number)
        number = next((n for n, tid in live.tables.items() if tid == table_id), None)
        if not knockouts or t.status != "running" or len(t.alive) <= len(knockouts):
            await self._commit(live, t)
            return
        out = record_hand(t, knockouts, hand_started_at=report.started_at, now=int(self.clock()))
        for b in report.busted:
            if number is not None:
                live.extra.setdefault("seats", {})[str(b.user_id)] = [number, b.seat]
        await self._commit(live, out.tournament, movements=out.movements)
        notices.lobby = True
        channel = None if number is None else self._channel_of(live, number)
        for k in knockouts:
            entry = live.t.entry(k.entry)
            text, offer = self._bust_text(live, entry.player, k)
            if channel is not None:
                notices.posts.append(Post(channel, text, offer))
        for k in knockouts:
            uid = live.t.entry(k.entry).player
            if uid < 0:
                await self._computer_comes_back(live, uid, notices)

    def _bust_text(
        self, live: LiveTournament, user_id: int, k: Knockout
    ) -> tuple[str, Offer | None]:
        t = live.t
        name = live.name(user_id)
        entry = t.latest_entry(user_id)
        assert entry is not None
        words = [f"**{name}** is out ({plural(len(t.alive), 'player')} left)."]
        if t.config.bounty and k.taken_by:
            winners = [live.name(t.entry(n).player) for n in k.taken_by]
            words.append(
                f"The bounty of {format_chips(t.config.bounty)} goes to {', '.join(winners)}."
            )
        now = self.clock()
        actions: list[str] = []
        cfg = t.config
        if why_not_rebuy(t, user_id, stack=0, now=now, after_bust=True) is None:
            actions.append("rebuy")
            words.append(
                f"**Rebuy**: {format_chips(cfg.rebuy_cost)} league chips for "
                f"{format_chips(cfg.rebuy_stack)} tournament chips"
                + (f" (and a new bounty of {format_chips(cfg.bounty)})" if cfg.bounty else "")
                + "."
            )
        if why_not_re_enter(t, user_id, now=now) is None:
            actions.append("re_enter")
            words.append(
                f"**Re-enter**: a new entry for {format_chips(cfg.buy_in + cfg.bounty)} league"
                " chips."
            )
        until = None
        if actions:
            actions.append("decline")
            assert entry.bust is not None
            until = decision_deadline(t, entry.bust)
            words.append(f"Decide by <t:{until}:t> (<t:{until}:R>), or press **I'm out**.")
        offer = Offer(live.id, tuple(actions), user_id, until) if actions and user_id > 0 else None
        return " ".join(words), offer

    async def _after_busts(self, live: LiveTournament, notices: Notices) -> None:
        """The end when nobody busted may still come back, else balancing."""
        if live.t.status != "running":
            return
        out = finish_if_over(live.t, now=int(self.clock()))
        if out.tournament.status == "finished":
            await self._finish(live, out, notices)
            return
        await self._balance(live, notices)

    # ------------------------------------------------------------------ the player's

    async def rebuy(self, tournament_id: int, user_id: int) -> None:
        """A busted player's **Rebuy**: the rebuy price into the pool for the rebuy chips,
        back in their old seat (or a new one)."""

        async def do(live: LiveTournament, notices: Notices) -> None:
            await self._rebuy(live, user_id, notices)

        await self._locked(tournament_id, do)

    async def _rebuy(self, live: LiveTournament, user_id: int, notices: Notices) -> None:
        out = rebuy(live.t, user_id, stack=0, now=self.clock(), after_bust=True)
        await self._commit(
            live, out.tournament, movements=out.movements, chips=[(user_id, out.chips, "rebuy")]
        )
        notices.lobby = True
        notices.posts.append(
            Post(live.channel_id, f"**{live.name(user_id)}** rebuys and is back in.")
        )
        if out.needs_seat:
            await self._seat_back(live, user_id, notices)
        await self._balance(live, notices)

    async def re_enter(self, tournament_id: int, user_id: int) -> None:
        """**Re-enter**: a new entry (the buy-in, the starting stack, a random seat)."""

        async def do(live: LiveTournament, notices: Notices) -> None:
            await self._re_enter(live, user_id, notices)

        await self._locked(tournament_id, do)

    async def _re_enter(self, live: LiveTournament, user_id: int, notices: Notices) -> None:
        out = re_enter(live.t, user_id, now=self.clock())
        await self._commit(
            live,
            out.tournament,
            movements=out.movements,
            chips=[(user_id, out.chips, "re-entry")],
        )
        notices.lobby = True
        notices.posts.append(Post(live.channel_id, f"**{live.name(user_id)}** re-enters."))
        await self._seat_newcomer(live, user_id, notices)
        await self._balance(live, notices)

    async def decline(self, tournament_id: int, user_id: int) -> None:
        """**I'm out**: the tournament need not wait for them."""

        async def do(live: LiveTournament, notices: Notices) -> None:
            out = decline(live.t, user_id)
            await self._commit(live, out.tournament)
            notices.lobby = True
            await self._after_busts(live, notices)

        await self._locked(tournament_id, do)

    async def add_on(self, tournament_id: int, user_id: int) -> None:
        """**Add-on** at the break that ends the rebuy period: its price for its chips."""

        async def do(live: LiveTournament, notices: Notices) -> None:
            out = add_on(live.t, user_id, now=self.clock())
            await self._commit(
                live,
                out.tournament,
                movements=out.movements,
                chips=[(user_id, out.chips, "add-on")],
            )
            notices.lobby = True

        await self._locked(tournament_id, do)

    # ------------------------------------------------------------------ the add-on break

    async def _offer_add_on(self, live: LiveTournament, notices: Notices) -> None:
        """At the break that ends the rebuy period, the add-on is offered at every table
        (once); computer players take it."""
        t = live.t
        cfg = t.config
        if not cfg.add_on or t.started_at is None or live.extra.get("add_on_offered"):
            return
        now = self.clock()
        if not in_add_on_break(
            cfg.structure, cfg.rebuy_level, start=t.started_at, pauses=t.pauses, at=now
        ):
            return
        live.extra["add_on_offered"] = True
        r = read_clock(cfg.structure, start=t.started_at, pauses=t.pauses, at=now)
        until = r.next_change_at
        await self._commit(live, live.t)
        text = (
            f"**The add-on** (tournament #{live.number}): every player still in may take "
            f"{format_chips(cfg.add_on_stack)} tournament chips for "
            f"{format_chips(cfg.add_on_cost)} league chips, once, during this break"
            + (f" (it ends <t:{until}:R>)" if until else "")
            + "."
        )
        for number in sorted(live.tables):
            channel = self._channel_of(live, number)
            if channel is not None:
                notices.posts.append(Post(channel, text, Offer(live.id, ("add_on",), None, until)))
        for entry in list(live.t.alive):
            if entry.player < 0 and not entry.add_on:
                with contextlib.suppress(HomeGameError):
                    out = add_on(live.t, entry.player, now=now)
                    await self._commit(
                        live,
                        out.tournament,
                        movements=out.movements,
                        chips=[(entry.player, out.chips, "add-on")],
                    )
        notices.lobby = True

    # ------------------------------------------------------------------ computers

    async def _computer_comes_back(
        self, live: LiveTournament, user_id: int, notices: Notices
    ) -> None:
        """A busted computer player decides at once: it rebuys (or re-enters) when it may,
        more often than not; else it is out."""
        now = self.clock()
        t = live.t
        draw = live.rng().random()
        try:
            if why_not_rebuy(t, user_id, stack=0, now=now, after_bust=True) is None:
                if draw < COMPUTER_REBUYS:
                    await self._rebuy(live, user_id, notices)
                    return
            elif why_not_re_enter(t, user_id, now=now) is None and draw < COMPUTER_REBUYS:
                await self._re_enter(live, user_id, notices)
                return
            entry = live.t.latest_entry(user_id)
            if entry is not None and entry.bust is not None and not entry.bust.declined:
                out = decline(live.t, user_id)
                await self._commit(live, out.tournament)
        except HomeGameError:
            log.exception("computer %s of tournament %s could not decide", user_id, live.id)
