"""The dealer's pick at a dealer's-choice table (a part of
:class:`bot.tables.service.TableService`; the rule itself is in :mod:`bot.tables.mixed`).

Between hands the player who deals next has the family's ``choice_seconds`` to pick the
game of their deal; the wait is the table's ordinary next-hand deadline (stored, so a
restart keeps it), and when it runs out the timer deals the default. A pick deals the hand
after the table's usual short pause. A refused pick (not the next dealer, no pick awaited,
a game the table does not allow, a menu of an earlier deal) changes nothing, timers
included (the service's ``_run`` reloads the table on any refusal).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from bot.engine.errors import IllegalAction, NotYourTurn
from bot.tables.errors import NotSeated, StaleAction
from bot.tables.mixed import MixedFamily

if TYPE_CHECKING:
    from bot.engine.events import Event
    from bot.store import Tx
    from bot.tables.live import LiveTable, Step
    from bot.tables.views import TableView


class TableChoices:
    """Mixin of the TableService: what it needs of the service is declared below."""

    autostart_delay: float
    _run: Callable[..., Awaitable[tuple[LiveTable, Any, Any]]]
    _emit: Callable[..., Awaitable[None]]
    _deadline_in: Callable[[LiveTable, float], int]
    _committed_view: Callable[[LiveTable], TableView]

    async def choose_game(
        self, table_id: int, user_id: int, key: str, *, after_hand: int | None = None
    ) -> TableView:
        """``user_id`` picks game ``key`` for the deal after hand ``after_hand`` (the menu's;
        None: the current pick). Returns the committed table view."""

        def prepare(live: LiveTable) -> bool:
            if live.seat_of(user_id) is None:
                raise NotSeated("you do not sit at this table")
            if not isinstance(live.family, MixedFamily) or live.family.mode != "choice":
                raise IllegalAction("this table's game is not the dealer's choice")
            if after_hand is not None and after_hand != live.hand_number:
                raise StaleAction("this menu was for an earlier deal")
            if live.status != "running" or live.pending != "next_hand":
                raise NotYourTurn("no game is being chosen now")
            return True

        async def do(live: LiveTable, tx: Tx, step: Step) -> None:
            fam = live.family
            assert isinstance(fam, MixedFamily)
            info = live.seat_of(user_id)
            assert info is not None
            event: Event = fam.choose(info.seat_no, key, live.name)
            await self._emit(live, tx, step, [event])
            live.deadline = self._deadline_in(live, self.autostart_delay)

        _, _, view = await self._run(table_id, do, prepare=prepare, want=self._committed_view)
        return view  # type: ignore[no-any-return]
