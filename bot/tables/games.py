"""A uniform adapter over the engines, so the TableService holds no game rule.

One class per game family, behind :class:`GameFamily`: :class:`~bot.tables.guts.GutsFamily`
(Zoot, Wheelers: a table plays a sequence of *games* with a pot that may carry over,
RULES §1) and :class:`~bot.tables.stud.StudFamily` (Razz, Stud, Stud Hi-Lo: a sequence of
*hands*, the deal rotating, RULES §4). Each keeps the engine of the current hand (kept
after it ends, so its result can be shown) and the session state between hands, and
serialises both to JSON for the table's snapshot.
:func:`make_family` and :func:`load_family` pick the family of a game key: the registry
of games (bot/games.py) names each game's family, :func:`adapters` each family's class.

Seat numbers are the store's seat numbers; clockwise order is ascending seat number.
"""

from __future__ import annotations

import functools
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot import games as registry
from bot.engine.actions import Action, ActionOption
from bot.engine.cards import CARDS, Card, parse_card
from bot.engine.errors import GameError, IllegalAction, InvalidConfig
from bot.engine.events import Event
from bot.engine.guts import GutsRules

NameOf = Callable[[int], str]
"""Seat number -> the player's display name."""


def can_play(n: int, seated: int, *, short: str = "out of chips") -> str:
    """Why too few players can be dealt in, in words (``short``: what keeps the others out).

    >>> can_play(1, 2)
    'only one player of 2 can play (the other is away or out of chips)'
    >>> can_play(1, 1)
    'only one player is seated'
    """
    if n >= seated:
        return "only one player is seated" if seated == 1 else f"only {seated} players are seated"
    who = "nobody" if n == 0 else "only one player" if n == 1 else f"only {n} players"
    others = "the other is" if seated - n == 1 else "the others are"
    return f"{who} of {seated} can play ({others} away or {short})"


@dataclass(frozen=True, slots=True)
class HandEnd:
    """What the service needs when a hand/game has ended."""

    history: str
    summary: Mapping[str, Any]
    winners: frozenset[int]
    newly_away: frozenset[int] = frozenset()
    pause_reason: str | None = None
    """The table should pause instead of dealing again (guts idle rule, RULES §1.11)."""
    detail: Mapping[int, Mapping[str, Any]] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class SeatShow:
    """The public face of one seat in the current hand."""

    status: str
    stack: int | None
    bet: int = 0
    up_cards: tuple[Card, ...] = ()
    shown: tuple[Card, ...] | None = None
    hand_name: str | None = None


@dataclass(frozen=True, slots=True)
class SeatCards:
    cards: tuple[Card, ...] = ()
    down: tuple[Card, ...] = ()
    up: tuple[Card, ...] = ()
    hand_name: str | None = None
    strength: float | None = None
    chosen: str | None = None


_CARD_OF: dict[object, Card] = {str(c): c for c in CARDS}
_PRETTY: dict[object, str] = {str(c): c.pretty for c in CARDS}
"""Canonical card code ("Td") -> the card: the engines' events and results carry these, so
the hot paths look them up instead of parsing (any other text still goes to parse_card)."""


def _cards(codes: Sequence[str]) -> tuple[Card, ...]:
    try:
        return tuple([_CARD_OF[c] for c in codes])
    except (KeyError, TypeError):
        return tuple(parse_card(c) for c in codes)


def _cards_text(codes: Sequence[str]) -> str:
    """The cards as players read them ("A♠ K♦ 10♥"): canonical codes are looked up (no
    parsing), anything else goes through the parser."""
    try:
        return " ".join(_PRETTY[c] for c in codes)
    except (KeyError, TypeError):
        return " ".join(c.pretty for c in _cards(codes))


def _merge_settings(
    settings: Mapping[str, Any] | None, options: Mapping[str, Any]
) -> dict[str, Any]:
    """League settings for the game (``{"stakes": {...}, "house_rules": {...}}``) under
    the table's own options."""
    merged: dict[str, Any] = {}
    if settings:
        for part in ("stakes", "house_rules"):
            value = settings.get(part)
            if isinstance(value, Mapping):
                merged.update(value)
    merged.update(options)
    return merged


class GameFamily(ABC):
    """The adapter's interface; see the two implementations below."""

    game: str
    engine: Any

    # ---- rules
    @property
    @abstractmethod
    def rules_json(self) -> dict[str, Any]: ...

    @abstractmethod
    def describe_rules(self) -> tuple[tuple[str, str, str], ...]: ...

    @property
    @abstractmethod
    def decision_seconds(self) -> int: ...

    @property
    @abstractmethod
    def min_players(self) -> int: ...

    @property
    @abstractmethod
    def max_players(self) -> int: ...

    # ---- session
    @abstractmethod
    def session_json(self) -> dict[str, Any]: ...

    @abstractmethod
    def load(self, raw: Mapping[str, Any]) -> None: ...

    # ---- the hand
    @property
    def hand_running(self) -> bool:
        return self.engine is not None and not self.hand_over

    @property
    @abstractmethod
    def hand_over(self) -> bool: ...

    @abstractmethod
    def start_reason(self, stacks: Mapping[int, int], away: frozenset[int]) -> str | None:
        """Why a hand cannot be dealt to these seats now, or None."""

    def short_of_chips(self, chips: int) -> str | None:
        """Why a player holding ``chips`` cannot be dealt in ("is out of chips"), or None
        (said after the hand that left them so, with how to get back in)."""
        return "is out of chips" if chips <= 0 else None

    @abstractmethod
    def start_hand(
        self,
        stacks: Mapping[int, int],
        away: frozenset[int],
        rng: random.Random,
        *,
        seed: str | None = None,
        blinds: Mapping[int, str] | None = None,
    ) -> list[Event]:
        """Deal the next hand. ``rng`` shuffles (and draws for the first deal); a
        verifiable table's ``seed`` makes the hand's deck and reshuffles instead
        (:mod:`bot.engine.shuffle`). ``blinds``: the seats of players new to a Hold'em or
        Omaha table who wait for the big blind ("wait") or post one ("post"), rules 6.14;
        the other games deal them in at once."""

    def newcomer_blind(self) -> str | None:
        """The blind state of a player who sits down now: "wait" (for the big blind, or
        post one) at a Hold'em or Omaha table that has dealt, else None (dealt in at once)."""
        return None

    @abstractmethod
    def to_act(self) -> frozenset[int]: ...

    @abstractmethod
    def in_hand(self, seat: int) -> bool:
        """Whether ``seat`` was dealt into the current hand."""

    @abstractmethod
    def check(self, action: Action) -> None:
        """Raise the engine's refusal (NotYourTurn, IllegalAction...) or return."""

    @abstractmethod
    def apply(self, action: Action) -> list[Event]: ...

    @abstractmethod
    def timeout(self) -> tuple[list[Event], list[tuple[int, str]]]:
        """Default actions for every seat whose time ran out: events, and (seat, what
        the table did for it) for the announcements."""

    @abstractmethod
    def default_action(self, seat: int) -> Action: ...

    @abstractmethod
    def computer_action(self, seat: int, rng: random.Random) -> Action: ...

    @abstractmethod
    def options(self, seat: int) -> list[ActionOption]: ...

    @abstractmethod
    def public_options(self) -> tuple[ActionOption, ...]: ...

    @abstractmethod
    def finish(self, names: NameOf) -> HandEnd: ...

    @abstractmethod
    def void(self) -> None:
        """Forget the current hand (its chips go back by the ledger); the next hand starts
        from the same point as this one did."""

    @property
    @abstractmethod
    def pot(self) -> int: ...

    @property
    @abstractmethod
    def dealer(self) -> int | None: ...

    @abstractmethod
    def stacks(self) -> dict[int, int]:
        """Chips behind of each seat in the current hand."""

    @abstractmethod
    def seat_show(self, seat: int) -> SeatShow: ...

    @abstractmethod
    def seat_cards(self, seat: int) -> SeatCards: ...

    @abstractmethod
    def community(self) -> tuple[Card, ...]: ...

    @abstractmethod
    def phase_text(self) -> str: ...

    @property
    @abstractmethod
    def paused(self) -> bool:
        """The engine itself waits (guts: a round where nobody acted)."""

    @abstractmethod
    def resume(self) -> list[Event]: ...

    @abstractmethod
    def new_turn(self, events: Sequence[Event]) -> bool:
        """Whether these events start a new decision (the deadline restarts)."""

    @abstractmethod
    def describe(self, event: Event, name: NameOf) -> str | None:
        """A short public sentence for a public event, or None."""

    @abstractmethod
    def result_text(self, events: Sequence[Event], name: NameOf) -> str | None:
        """The showdown text when these events end the hand with one."""

    @abstractmethod
    def seat_left(self, seat: int) -> None:
        """A seat left the table between hands."""

    # ---- mixed tables (bot/tables/mixed.py): the defaults are a one-game table's
    def follow_deal(self, last_dealer: int | None) -> None:
        """A mixed table turns to this game between hands: deal its next hand as if
        ``last_dealer`` had dealt the hand before (the deal moves on clockwise)."""
        raise InvalidConfig("games", f"{self.game} cannot be part of a mixed game")

    def hand_game(self, stacks: Mapping[int, int], away: frozenset[int]) -> str:
        """The game key of the hand :meth:`start_hand` deals next (the hand's row)."""
        return self.game

    def before_hand(
        self,
        stacks: Mapping[int, int],
        away: frozenset[int],
        *,
        computers: frozenset[int],
        blinds: Mapping[int, str] | None = None,
    ) -> float | None:
        """The next hand is scheduled: seconds the table waits for a decision first (a
        dealer's choice, a straddle), or None for its usual pause. ``blinds``: as for
        :meth:`start_hand`."""
        return None

    # ---- what home games play (Hold'em and Omaha: bot/tables/house.py); the defaults
    # are a table without them
    def set_house(self, changes: Mapping[str, Any]) -> list[tuple[str, str]]:
        """Change house options from the next hand; returns (name, value) changed."""
        raise InvalidConfig("house", "this table's game has no house options")

    def queue_bomb_pot(self, ante: int | None, double_board: bool | None) -> dict[str, Any]:
        """Make the next hand a bomb pot ({"ante", "double_board"} it will be)."""
        raise InvalidConfig("bomb_pot", "bomb pots are dealt at Hold'em and Omaha tables only")

    def choose_straddle(self, seat: int, yes: bool) -> Event:
        """The seat offered the straddle of the next hand takes it or not."""
        raise IllegalAction("this table has no straddle")

    def rabbit(self) -> list[dict[str, Any]] | None:
        """The board cards the finished hand would have had (None: nothing to hunt)."""
        return None

    def house_info(self) -> Any:
        """What the table message shows of the house games (bot/tables/house.py), or None."""
        return None

    def awaited_choice(self) -> tuple[int, float] | None:
        """The decision the table waits for before the next hand, if any: (the seat that
        makes it, its window in seconds): a dealer's pick. None: the usual pause."""
        return None

    def mixed(self) -> Any:
        """What a mixed table shows of its games (:class:`bot.tables.mixed.MixedInfo`)."""
        return None

    # ---- pace (bot/tables/pace.py): acting in advance, the time bank, the missed blind
    @property
    def betting(self) -> bool:
        """A betting game's hand (Razz, Stud, Hold'em, Omaha): a time bank, and Check/Fold,
        Check or Call N in advance. A guts game's choices are made in windows."""
        return False

    def time_bank_applies(self) -> bool:
        """The player to act now makes a betting decision, which a time bank extends (not
        a window outside the betting: Hold'em's Once / Twice, Show / Muck)."""
        return self.betting

    def price(self, seat: int) -> int | None:
        """What ``seat`` would put in to call now (0: nothing to call), or None when it
        cannot choose in advance (not in the hand, folded, all in, no hand)."""
        return None

    def round_key(self) -> int:
        """The betting round (street) being played: a choice made in advance is for it."""
        return -1

    def advance_offers(self, seat: int) -> tuple[str, ...]:
        """What ``seat`` may choose in advance now (bot/tables/pace.py's kinds)."""
        return ()

    def advance_action(self, seat: int, choice: str, amount: int | None) -> Action | bool:
        """The action a choice made in advance takes now that ``seat`` is to act, or
        True to keep it for later (not the kind of decision it is for), or False to drop
        it (it no longer applies: the price changed, laying down needs cover)."""
        return False

    def big_blind_passed(self, seat: int) -> bool:
        """Whether the hand just dealt passed the big blind over ``seat`` (a player who
        sits out owes it on their return, docs/rules.md 6.14)."""
        return False

    # ---- a tournament's levels (bot/tables/tournament.py)
    def with_stakes(self, stakes: Mapping[str, Any]) -> GameFamily:
        """This table's family dealing from the next hand at ``stakes`` (a tournament level's
        ``table_stakes``: the options its rules take), with this one's session (the deal,
        the blinds, what a mixed table plays): validated as any table's rules are."""
        fam = load_family(self.game, {**self.rules_json, **stakes}, None)
        fam.load(self.session_json())
        return fam


MIXED_GAMES = registry.keys(mixed=True)
"""Tables whose game changes between hands (bot/tables/mixed.py)."""


@dataclass(frozen=True, slots=True)
class Adapter:
    """How a family's adapter class is built: from a table command's options and the
    league's settings (``parse``), or from a stored table's rules row (``stored``)."""

    parse: Callable[[str, Mapping[str, Any], Mapping[str, Any] | None], GameFamily]
    stored: Callable[[str, Mapping[str, Any]], GameFamily]


@functools.cache
def adapters() -> Mapping[str, Adapter]:
    """Each family of the registry of games (``bot.games.FAMILIES``) -> its adapter.

    The adapters are imported here, on call, because they build on this module; a game
    names its family in bot/games.py and this table is never asked about a game."""
    from bot.tables.flop import FlopFamily  # here: flop.py builds on this module
    from bot.tables.guts import GutsFamily  # so does guts.py
    from bot.tables.mixed import MixedFamily  # and mixed.py
    from bot.tables.stud import StudFamily  # and stud.py

    return {
        "guts": Adapter(
            GutsFamily.parse, lambda game, rules: GutsFamily(GutsRules.parse(**dict(rules)))
        ),
        "stud": Adapter(StudFamily.parse, StudFamily.stored),
        "flop": Adapter(FlopFamily.parse, lambda game, rules: FlopFamily.stored(rules)),
        "mixed": Adapter(MixedFamily.parse, MixedFamily.from_rules),
    }


def _adapter(game: str) -> Adapter | None:
    family = registry.family_of(game)
    return None if family is None else adapters().get(family)


def make_family(
    game: str, options: Mapping[str, Any], settings: Mapping[str, Any] | None = None
) -> GameFamily:
    """The adapter of ``game`` with validated rules (:class:`InvalidConfig` otherwise)."""
    adapter = _adapter(game)
    if adapter is None:
        known = ", ".join(registry.keys())
        raise InvalidConfig("game", f"unknown game {game!r}; one of {known}")
    return adapter.parse(game, options, settings)


def league_settings_key(game: str, options: Mapping[str, Any]) -> str:
    """Which of the league's game settings a new table of ``game`` with ``options`` takes
    (``stud-hi-lo`` holds what ``/stud split:hi-lo`` starts with: bot/games.py)."""
    return registry.settings_key(game, options)


def check_league_settings(key: str, settings: Mapping[str, Any]) -> None:
    """Raise the game's :class:`InvalidConfig` if a table could not open with these league
    settings of ``key`` (a game key or another of the registry's league settings)."""
    entry = registry.settings_entry(key)
    game, options = (key, {}) if entry is None else (entry.game, dict(entry.options))
    make_family(game, options, settings)


def load_family(
    game: str, rules: Mapping[str, Any], session: Mapping[str, Any] | None
) -> GameFamily:
    """The adapter of a stored table: its rules row and its snapshot's game part."""
    adapter = _adapter(game)
    if adapter is None:
        raise GameError(f"unknown game {game!r}")
    fam = adapter.stored(game, rules)
    if session:
        fam.load(session)
    return fam
