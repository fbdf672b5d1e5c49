"""What home games play at a Hold'em or Omaha table (issue 18 items 11-15; docs/rules.md
6.17-6.21): the table's part, a mixin of :class:`~bot.tables.flop.FlopFamily` (the rules
themselves are the engine's, :mod:`bot.engine.flop.house`).

- **House options** (:data:`~bot.engine.flop.rules.HOUSE_OPTIONS`) change between hands
  (``/table house``): the table's rules change at once (the table message shows them) and
  the next hand is dealt with them; the hand being played keeps its own. They are kept in
  the session, so a restart keeps them.
- **Straddle**: between hands, the seat that would straddle the next hand (the player after
  the big blind, or the button) is offered it (**Straddle** / **No straddle** on the table
  message): the next hand waits :data:`STRADDLE_SECONDS` for the choice (the table's next
  hand deadline, stored), no straddle by default; a choice deals at once. Not offered on the
  table's first hand (its button is drawn at the deal), heads-up, in a bomb pot, to a player
  posting a big blind out of turn, or to one without more than the straddle.
- **Bomb pot**: the host calls one (``/table bomb-pot``) for the next hand, or
  ``bomb_pot_every`` makes every N-th hand one: dealt to the players the hand would deal,
  the button and blinds moving on as after any hand (nobody posts a blind in it).
- **Run it twice / seven-deuce**: the engine's decisions outside the betting, asked with
  **Once** / **Twice** and **Show** / **Muck** in the hand DM, within
  :data:`RUNOUT_SECONDS` and :data:`SHOW_SECONDS` (the stored deadline of the table).
- **Rabbit**: what a finished hand's board would have been (:meth:`HouseTable.rabbit`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.engine.actions import ActionOption
from bot.engine.errors import IllegalAction, InvalidConfig, NotYourTurn
from bot.engine.events import Event
from bot.engine.flop import FlopHand, FlopRules
from bot.engine.flop.rules import HOUSE_OPTIONS
from bot.render.text import format_chips as _c

STRADDLE_SECONDS = 10
"""How long the next hand waits for the straddle choice (the table's next-hand deadline)."""
RUNOUT_SECONDS = 15
"""How long the players still in have to choose Once or Twice (issue 18 item 12)."""
SHOW_SECONDS = 10
"""How long an uncontested winner at a seven-deuce table has to show or muck."""
CHOICE_KINDS = ("once", "twice", "show", "muck")
"""The hand DM's buttons of the decisions outside the betting."""
CHOICE_WORDS = {
    "once": "runs it once for them",
    "muck": "mucks for them",
}
"""What the table does for a player whose time to choose ran out."""


@dataclass(frozen=True, slots=True)
class HouseInfo:
    """What the table message shows of the house games between and during hands."""

    straddle_seat: int | None = None
    """The seat offered the straddle of the next hand (its choice not made yet)."""
    straddle_amount: int = 0
    straddle_where: str = ""
    """"under the gun" or "on the button"."""
    straddling: int | None = None
    """The seat that chose to straddle the next hand."""
    bomb_ante: int = 0
    """The next hand is a bomb pot with this ante (0: it is not)."""
    bomb_double: bool = False
    bomb_later: bool = False
    """A mixed table: the bomb pot waits for its next Hold'em or Omaha hand."""
    boards: tuple[tuple[str, tuple[Any, ...]], ...] = ()
    """Two boards of the hand (a double board, or two runs): (label, cards) each."""


def bomb_words(ante: int, double: bool) -> str:
    """How the table announces a bomb pot.

    >>> bomb_words(20, True)
    'everyone antes 20, no betting before the flop, two boards'
    """
    two = ", two boards" if double else ""
    return f"everyone antes {_c(ante)}, no betting before the flop{two}"


class HouseTable:
    """The house games of :class:`~bot.tables.flop.FlopFamily` (module docstring)."""

    rules: FlopRules
    engine: FlopHand | None
    last_button: int | None
    bomb_next: dict[str, Any] | None
    straddle_offer: dict[str, Any] | None
    hand_no: int

    # ---- house options
    def house_json(self) -> dict[str, Any]:
        """The house options in force (the session keeps them)."""
        return {name: getattr(self.rules, name) for name in HOUSE_OPTIONS}

    def load_house(self, raw: Mapping[str, Any] | None) -> None:
        if raw:
            known = {k: v for k, v in raw.items() if k in HOUSE_OPTIONS}
            self.rules = FlopRules.create(**{**self.rules.model_dump(), **known})

    def set_house(self, changes: Mapping[str, Any]) -> list[tuple[str, str]]:
        """Change house options from the next hand (InvalidConfig names a bad one);
        returns (name, new value) of each one that changed."""
        for name in changes:
            if name not in HOUSE_OPTIONS:
                raise InvalidConfig(name, "not a house option of this table")
        rules = FlopRules.create(**{**self.rules.model_dump(), **changes})
        changed = [
            (name, str(getattr(rules, name)))
            for name in changes
            if getattr(rules, name) != getattr(self.rules, name)
        ]
        self.rules = rules
        if self.straddle_offer is not None and rules.straddle == "off":
            self.straddle_offer = None
        return changed

    # ---- bomb pots
    def queue_bomb_pot(self, ante: int | None, double_board: bool | None) -> dict[str, Any]:
        """The next hand is a bomb pot (a second call changes what it will be)."""
        amount = self.rules.bomb_ante if ante is None else ante
        if amount < 1:
            raise InvalidConfig("ante", f"a bomb pot's ante is at least 1, got {amount}")
        double = self.rules.bomb_pot_double_board if double_board is None else double_board
        self.bomb_next = {"ante": amount, "double_board": bool(double)}
        self.straddle_offer = None  # no straddle in a bomb pot
        return dict(self.bomb_next)

    def _bomb_for_next(self) -> dict[str, Any] | None:
        """The bomb pot the next hand is (the host's, or a regular one), or None."""
        if self.bomb_next is not None:
            return self.bomb_next
        every = self.rules.bomb_pot_every
        if every and (self.hand_no + 1) % every == 0:
            return {"ante": self.rules.bomb_ante, "double_board": self.rules.bomb_pot_double_board}
        return None

    # ---- the straddle
    def _straddle_seat(
        self, seats: Sequence[int], button: int, *, dead_small: bool, posts: Sequence[int]
    ) -> int | None:
        """The seat the table's straddle option gives the straddle of a hand dealt to
        ``seats`` from ``button`` (None: no straddle for this hand)."""
        kind = self.rules.straddle
        n = len(seats)
        if kind == "off" or n < 3:
            return None
        ordered = sorted(seats)
        if button in ordered:
            d = ordered.index(button) + 1
        else:
            d = next((i for i, s in enumerate(ordered) if s > button), 0)
        ring = ordered[d:] + ordered[:d]  # positions from the button's left
        bb = 0 if dead_small else 1
        seat = ring[bb + 1] if kind == "under-the-gun" else ring[-1]
        if kind == "button" and button not in ordered:
            return None  # a dead button: nobody sits there to straddle
        return None if seat in posts else seat

    def straddle_options(self, seat: int) -> list[ActionOption]:
        """Straddle / No straddle, for the seat offered the next hand's straddle (its hand
        DM has the buttons too), between hands."""
        offer = self.straddle_offer
        hand = self.engine
        if offer is None or offer.get("choice") is not None or offer.get("seat") != seat:
            return []
        if hand is not None and not hand.is_over:
            return []
        amount = self.rules.straddle_amount
        return [ActionOption("straddle", True, amount=amount), ActionOption("no_straddle", True)]

    def straddle_where(self) -> str:
        return "on the button" if self.rules.straddle == "button" else "under the gun"

    def choose_straddle(self, seat: int, yes: bool) -> Event:
        """The seat offered the straddle takes it or not (typed refusals otherwise)."""
        offer = self.straddle_offer
        if offer is None:
            raise NotYourTurn("no straddle is offered now")
        if offer["seat"] != seat:
            raise NotYourTurn("the straddle is offered to another seat")
        if offer.get("choice") is not None:
            took = "straddle" if offer["choice"] else "not straddle"
            raise IllegalAction(f"you already chose to {took} this hand")
        offer["choice"] = yes
        return Event(
            "straddle_chosen",
            {"seat": seat, "straddle": yes, "amount": self.rules.straddle_amount},
        )

    # ---- decisions outside the betting
    def choice_options(self, hand: FlopHand, seat: int) -> list[ActionOption]:
        """Once / Twice or Show / Muck, when the hand asks ``seat``."""
        kinds = hand.choice_kinds(seat)
        if not kinds:
            return []
        if hand.choice == "runout":
            return [ActionOption(k, True) for k in ("once", "twice")]
        return [ActionOption(k, True) for k in ("show", "muck")]

    def time_bank_applies(self) -> bool:
        # Once / Twice and Show / Muck have their own windows: no time bank (rule 6.17-6.22)
        return self.engine is None or self.engine.choice is None

    def choice_seconds(self, hand: FlopHand) -> int | None:
        if hand.choice == "runout":
            return RUNOUT_SECONDS
        if hand.choice == "show":
            return SHOW_SECONDS
        return None

    # ---- the rabbit
    def rabbit(self) -> list[dict[str, Any]] | None:
        """The cards the finished hand's board would have had (None: nothing to hunt, or
        the table's rabbit_hunt is off)."""
        hand = self.engine
        if hand is None or not hand.is_over or not hand.rules.rabbit_hunt:
            return None
        cards = hand.rabbit()
        return cards or None

    def house_info(self) -> HouseInfo | None:
        hand = self.engine
        boards: tuple[tuple[str, tuple[Any, ...]], ...] = ()
        if hand is not None and len(hand.boards) > 1:
            word = "Run" if hand.runs > 1 else "Board"
            boards = tuple((f"{word} {b + 1}", tuple(cards)) for b, cards in enumerate(hand.boards))
        offer = self.straddle_offer
        bomb = self._bomb_for_next()  # the next hand's, also shown while one is played
        seat = straddling = None
        if offer is not None and (hand is None or hand.is_over):
            if offer.get("choice") is None:
                seat = int(offer["seat"])
            elif offer["choice"]:
                straddling = int(offer["seat"])
        if not (boards or bomb or seat is not None or straddling is not None):
            return None
        return HouseInfo(
            straddle_seat=seat,
            straddle_amount=self.rules.straddle_amount,
            straddle_where=self.straddle_where(),
            straddling=straddling,
            bomb_ante=0 if bomb is None else int(bomb["ante"]),
            bomb_double=bool(bomb and bomb["double_board"]),
            boards=boards,
        )
