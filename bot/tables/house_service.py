"""What home games play, the TableService's part (a part of
:class:`bot.tables.service.TableService`; the rules are in :mod:`bot.tables.house` and
:mod:`bot.engine.flop.house`): the host changes house options between hands, calls a bomb
pot, the seat offered the straddle takes it or not, and a finished hand's rabbit is read.

Every change goes through the service's one mutation path (the table's lock, one store
transaction, a refusal changing nothing, timers included); reading the rabbit changes
nothing at all.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any

from bot.engine.errors import IllegalAction, NotYourTurn
from bot.tables.errors import NotSeated, StaleAction
from bot.tables.house import bomb_words
from bot.tables.live import RECENT
from bot.tables.tournament import refuse_at_tournament_table

if TYPE_CHECKING:
    from bot.store import Tx
    from bot.tables.live import LiveTable, Step
    from bot.tables.views import TableView

HOUSE_WORDS: dict[str, str] = {
    "straddle": "straddle",
    "run_it_twice": "run it twice",
    "bomb_pot_every": "a bomb pot every N hands",
    "bomb_pot_ante": "bomb pot ante",
    "bomb_pot_double_board": "regular bomb pots on two boards",
    "seven_deuce": "seven-deuce",
    "rabbit_hunt": "rabbit hunt",
}


def change_words(changed: list[tuple[str, str]]) -> str:
    """The changes as the table announces them.

    >>> change_words([("straddle", "button"), ("seven_deuce", "25")])
    'straddle: button, seven-deuce: 25'
    """
    out = []
    for name, value in changed:
        if value in ("True", "False"):
            value = "on" if value == "True" else "off"
        elif value == "None":
            value = "the default"
        elif name == "bomb_pot_every":
            out.append("no regular bomb pot" if value == "0" else f"a bomb pot every {value} hands")
            continue
        out.append(f"{HOUSE_WORDS.get(name, name)}: {value}")
    return ", ".join(out)


class TableHouse:
    """Mixin of the TableService: what it needs of the service is declared below."""

    autostart_delay: float
    _run: Callable[..., Awaitable[tuple[LiveTable, Any, Any]]]
    _run_view: Callable[..., Awaitable[TableView]]
    _emit: Callable[..., Awaitable[None]]
    _get: Callable[[int], Awaitable[LiveTable]]
    _deadline_in: Callable[[LiveTable, float], int]
    _schedule_next: Callable[..., Awaitable[None]]
    _may_manage: Callable[[LiveTable, int, bool], None]

    async def set_house(
        self,
        table_id: int,
        actor_id: int,
        changes: Mapping[str, Any],
        *,
        may_manage: bool,
        quiet: bool = False,
    ) -> tuple[TableView, list[tuple[str, str]]]:
        """The host (or a manager) changes house options; they apply from the next hand
        (the hand being played keeps its own). Returns the view and what changed.
        ``quiet``: the caller announces it (``/table house``'s public answer)."""
        holder: dict[str, list[tuple[str, str]]] = {}

        async def do(live: LiveTable, tx: Tx, step: Step) -> None:
            refuse_at_tournament_table(live)  # the director's table
            self._may_manage(live, actor_id, may_manage)
            if not changes:
                raise IllegalAction("give at least one house option to change")
            changed = live.family.set_house(changes)
            if not changed:
                raise IllegalAction("those are the table's house rules already")
            holder["changed"] = changed
            text = f"House rules from the next hand: {change_words(changed)}"
            if not quiet:
                step.announcements.append(text)
            live.recent.append(text)
            del live.recent[:-RECENT]
            if live.pending == "next_hand" and not live.family.hand_running:
                # between hands: the next hand's straddle follows the new rules at once
                await self._schedule_next(live, tx, step)

        view = await self._run_view(table_id, do)
        return view, holder["changed"]

    async def bomb_pot(
        self,
        table_id: int,
        actor_id: int,
        *,
        ante: int | None,
        double_board: bool | None,
        may_manage: bool,
        quiet: bool = False,
    ) -> TableView:
        """The host (or a manager) makes the next hand a bomb pot (``/table bomb-pot``;
        ``quiet``: its public answer announces it)."""

        async def do(live: LiveTable, tx: Tx, step: Step) -> None:
            refuse_at_tournament_table(live)  # the director's table
            self._may_manage(live, actor_id, may_manage)
            bomb = live.family.queue_bomb_pot(ante, double_board)
            words = bomb_words(int(bomb["ante"]), bool(bomb["double_board"]))
            info = live.family.house_info()
            later = bool(info is not None and getattr(info, "bomb_later", False))
            when = "The next Hold'em or Omaha hand" if later else "The next hand"
            text = f"{when} is a bomb pot: {words}"
            if not quiet:
                step.announcements.append(text)
            live.recent.append(text)
            del live.recent[:-RECENT]
            if live.pending == "next_hand" and not live.family.hand_running:
                await self._schedule_next(live, tx, step)  # no straddle in a bomb pot

        return await self._run_view(table_id, do)

    async def straddle(
        self, table_id: int, user_id: int, *, yes: bool, after_hand: int | None = None
    ) -> TableView:
        """The seat offered the next hand's straddle takes it (``yes``) or not; the hand is
        then dealt after the table's usual short pause. ``after_hand``: the button's (a
        button of an earlier deal is refused as stale)."""

        def prepare(live: LiveTable) -> bool:
            if live.seat_of(user_id) is None:
                raise NotSeated("you do not sit at this table")
            if after_hand is not None and after_hand != live.hand_number:
                raise StaleAction("this button was for an earlier deal")
            if live.status != "running" or live.pending != "next_hand":
                raise NotYourTurn("no straddle is offered now")
            return True

        async def do(live: LiveTable, tx: Tx, step: Step) -> None:
            info = live.seat_of(user_id)
            assert info is not None
            event = live.family.choose_straddle(info.seat_no, yes)
            await self._emit(live, tx, step, [event])
            live.deadline = self._deadline_in(live, self.autostart_delay)

        _, _, view = await self._run(table_id, do, prepare=prepare, want=self._committed_view)
        return view  # type: ignore[no-any-return]

    async def rabbit(self, table_id: int, hand_number: int) -> list[dict[str, Any]]:
        """The board hand ``hand_number`` would have had (its result's Rabbit button):
        a read, which changes nothing. Refused for a hand the table no longer keeps."""
        live = await self._get(table_id)
        cards = live.rabbits.get(hand_number)
        if cards is None:
            raise IllegalAction(
                f"hand {hand_number} has no rabbit to hunt now (the table keeps the last few)"
            )
        return [dict(r) for r in cards]

    _committed_view: Callable[[LiveTable], TableView]


def rabbit_text(hand_number: int, cards: list[dict[str, Any]]) -> str:
    """The rabbit as the table shows it.

    >>> rabbit_text(3, [{"street": "turn", "board": 1, "cards": ["3h"]},
    ...                 {"street": "river", "board": 1, "cards": ["4s"]}])
    '🐇 Rabbit hunt, hand 3: the turn would have been 3♥, the river 4♠ (no chip moves).'
    """
    from bot.tables.games import _cards_text

    two = any(int(r["board"]) > 1 for r in cards)
    parts = []
    for k, r in enumerate(cards):
        label = f"board {r['board']}'s {r['street']}" if two else f"the {r['street']}"
        verb = " would have been" if k == 0 else ""
        parts.append(f"{label}{verb} {_cards_text(r['cards'])}")
    return f"🐇 Rabbit hunt, hand {hand_number}: {', '.join(parts)} (no chip moves)."
