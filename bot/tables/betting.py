"""What the betting games' adapters share (Razz, Stud and Stud Hi-Lo in :mod:`bot.tables.stud`;
Hold'em and Omaha in :mod:`bot.tables.flop`): one engine hand at a time, played turn by turn
until it is over, kept after its end so that its result can be shown.

A family here owns ``rules`` (a pydantic model with ``decision_seconds``, ``min_players`` and
``max_players``) and ``engine`` (the hand being played or last played, or None), and gives
``_hand`` (the engine, or the refusal that no hand is on). What differs (the deal, the
options shown, the words of the table) stays in each family's module.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from bot.engine.actions import Action
from bot.engine.errors import IllegalAction
from bot.engine.events import Event
from bot.tables.games import GameFamily, can_play


class BettingHand(Protocol):
    """What this module asks of a betting engine's hand (``FlopHand``, ``StudHand``)."""

    @property
    def is_over(self) -> bool: ...

    @property
    def seat_ids(self) -> Sequence[int]: ...

    @property
    def pot_total(self) -> int: ...

    def to_act(self) -> frozenset[int]: ...

    def default_action(self, seat: int) -> Action: ...

    def seat_stacks(self) -> dict[int, int]: ...


class BettingFamily(GameFamily):
    """The part of :class:`GameFamily` every betting game answers alike."""

    rules: Any
    engine: Any
    """The hand (a :class:`BettingHand`), or None before the first."""

    @abstractmethod
    def _hand(self) -> BettingHand:
        """The hand being played; NotYourTurn when there is none."""

    @property
    def decision_seconds(self) -> int:
        return self.rules.decision_seconds

    @property
    def min_players(self) -> int:
        return self.rules.min_players

    @property
    def max_players(self) -> int:
        return self.rules.max_players

    @property
    def hand_over(self) -> bool:
        return self.engine is not None and self.engine.is_over

    def _players(self, stacks: Mapping[int, int], away: frozenset[int]) -> list[int]:
        return [s for s in sorted(stacks) if s not in away and stacks[s] > 0]

    def start_reason(self, stacks: Mapping[int, int], away: frozenset[int]) -> str | None:
        can = self._players(stacks, away)
        if len(can) < self.min_players:
            return f"{can_play(len(can), len(stacks))}; a hand needs {self.min_players}"
        return None

    def to_act(self) -> frozenset[int]:
        return frozenset() if self.engine is None else self.engine.to_act()

    def in_hand(self, seat: int) -> bool:
        return self.engine is not None and seat in self.engine.seat_ids

    def default_action(self, seat: int) -> Action:
        return self._hand().default_action(seat)

    @property
    def pot(self) -> int:
        return 0 if self.engine is None else self.engine.pot_total

    def stacks(self) -> dict[int, int]:
        return {} if self.engine is None else self.engine.seat_stacks()

    @property
    def paused(self) -> bool:
        return False

    def resume(self) -> list[Event]:
        raise IllegalAction("the hand is not paused")

    def new_turn(self, events: Sequence[Event]) -> bool:
        return bool(events)  # every action passes the turn

    def seat_left(self, seat: int) -> None:
        return None

    # ---- pace: the time bank and acting in advance (bot/tables/pace.py)
    @property
    def betting(self) -> bool:
        return True

    def _owed(self, hand: Any, seat: int, top: int) -> int | None:
        """What ``seat`` would call facing ``top`` (capped by its chips), or None when it
        has no decision left in the hand (not dealt in, folded, all in, hand over)."""
        if hand is None or hand.is_over or seat not in hand.seat_ids:
            return None
        p = hand.position(seat)
        if hand.folded[p] or hand.stacks[p] == 0:
            return None
        return min(hand.stacks[p], max(0, top - hand.bets[p]))

    def round_key(self) -> int:
        hand = self.engine
        return -1 if hand is None or hand.is_over else int(hand.street)

    def advance_offers(self, seat: int) -> tuple[str, ...]:
        owed = self.price(seat)
        if owed is None:
            return ()
        if seat in self.to_act():
            # their turn (a DM drawn now): only what they may do now, and it acts at once
            allowed = {o.kind for o in self.options(seat) if o.allowed}
            kinds = ["check_fold"] if allowed & {"check", "fold"} else []
            if "check" in allowed:
                kinds.append("check")
            elif "call" in allowed:
                kinds.append("call")
            return tuple(kinds)
        return ("check_fold", "check") if owed == 0 else ("check_fold", "call")

    def advance_action(self, seat: int, choice: str, amount: int | None) -> Action | bool:
        allowed = {o.kind: o for o in self.options(seat) if o.allowed}
        if choice == "check_fold":
            # check when nothing is owed, else fold (what the default action does too)
            for kind in ("check", "fold"):
                if kind in allowed:
                    return Action(seat, kind)
            return False  # a forced bet (the bring-in): the player decides
        if choice == "check":
            return Action(seat, "check") if "check" in allowed else False
        if choice == "call":
            call = allowed.get("call")
            return Action(seat, "call") if call is not None and call.amount == amount else False
        return False
