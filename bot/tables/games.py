"""A uniform adapter over the engines, so the TableService holds no game rule.

One class per game family, behind :class:`GameFamily`: :class:`~bot.tables.guts.GutsFamily`
(Zoot, Wheelers: a table plays a sequence of *games* with a pot that may carry over,
RULES §1) and :class:`RazzFamily` (a sequence of *hands*, the deal rotating, RULES §4). Each
keeps the engine of the current hand (kept after it ends, so its result can be shown) and
the session state between hands, and serialises both to JSON for the table's snapshot.
:func:`make_family` and :func:`load_family` pick the family of a game key.

Seat numbers are the store's seat numbers; clockwise order is ascending seat number.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.engine.actions import Action, ActionOption
from bot.engine.cards import CARDS, Card, parse_card
from bot.engine.errors import GameError, IllegalAction, InvalidConfig, NotYourTurn
from bot.engine.events import Event
from bot.engine.guts import GutsRules
from bot.engine.razz import RazzHand, RazzRules, draw_for_deal
from bot.engine.razz import policy as razz_policy
from bot.render.text import hand_name_text

NameOf = Callable[[int], str]
"""Seat number -> the player's display name."""


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

    @abstractmethod
    def start_hand(
        self, stacks: Mapping[int, int], away: frozenset[int], rng: random.Random
    ) -> list[Event]: ...

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
        self, stacks: Mapping[int, int], away: frozenset[int], *, computers: frozenset[int]
    ) -> float | None:
        """The next hand is scheduled: seconds the table waits for a decision first (a
        dealer's choice), or None for its usual pause."""
        return None

    def mixed(self) -> Any:
        """What a mixed table shows of its games (:class:`bot.tables.mixed.MixedInfo`)."""
        return None


# ============================================================================ razz


class RazzFamily(GameFamily):
    """Fixed-limit Razz. Session: the last dealer (the first by :func:`draw_for_deal`),
    and whether anyone acted in the hand (an all-timeout hand pauses the table)."""

    game = "razz"

    def __init__(self, rules: RazzRules) -> None:
        self.rules = rules
        self.engine: RazzHand | None = None
        self.last_dealer: int | None = None
        self.acted = False
        self.hand_start_dealer: int | None = None
        self._legal: tuple[RazzHand | None, int, dict[int, list[ActionOption]]] = (None, 0, {})
        """legal_actions per seat for one engine state (the hand, its PHH action count):
        the table view, each private view and the publish step ask for the same ones."""
        self._named: dict[tuple[Card, ...], str] = {}
        """Low-hand names by cards (a seat's cards change only when dealt)."""

    def _legal_actions(self, hand: RazzHand, seat: int) -> list[ActionOption]:
        done = len(hand.phh_actions)  # every action and deal adds one
        held, at, cached = self._legal
        if held is not hand or at != done:
            cached = {}
            self._legal = (hand, done, cached)
        opts = cached.get(seat)
        if opts is None:
            opts = cached[seat] = hand.legal_actions(seat)
        return list(opts)

    @classmethod
    def parse(
        cls, game: str, options: Mapping[str, Any], settings: Mapping[str, Any] | None = None
    ) -> RazzFamily:
        if game != "razz":
            raise InvalidConfig("game", f"not razz: {game!r}")
        return cls(RazzRules.create(**_merge_settings(settings, options)))

    @property
    def rules_json(self) -> dict[str, Any]:
        return self.rules.model_dump()

    def describe_rules(self) -> tuple[tuple[str, str, str], ...]:
        return tuple(self.rules.describe())

    @property
    def decision_seconds(self) -> int:
        return self.rules.decision_seconds

    @property
    def min_players(self) -> int:
        return self.rules.min_players

    @property
    def max_players(self) -> int:
        return self.rules.max_players

    def session_json(self) -> dict[str, Any]:
        return {
            "engine": None if self.engine is None else self.engine.snapshot(),
            "last_dealer": self.last_dealer,
            "acted": self.acted,
            "hand_start_dealer": self.hand_start_dealer,
        }

    def load(self, raw: Mapping[str, Any]) -> None:
        eng = raw.get("engine")
        self.engine = None if eng is None else RazzHand.restore(eng)
        self.last_dealer = raw.get("last_dealer")
        self.acted = bool(raw.get("acted", False))
        self.hand_start_dealer = raw.get("hand_start_dealer")

    @property
    def hand_over(self) -> bool:
        return self.engine is not None and self.engine.is_over

    def _players(self, stacks: Mapping[int, int], away: frozenset[int]) -> list[int]:
        return [s for s in sorted(stacks) if s not in away and stacks[s] > 0]

    def follow_deal(self, last_dealer: int | None) -> None:
        self.last_dealer = last_dealer

    def start_reason(self, stacks: Mapping[int, int], away: frozenset[int]) -> str | None:
        can = self._players(stacks, away)
        if len(can) < self.min_players:
            return (
                f"only {len(can)} player(s) can play (not away, with chips);"
                f" a hand needs {self.min_players}"
            )
        return None

    def start_hand(
        self, stacks: Mapping[int, int], away: frozenset[int], rng: random.Random
    ) -> list[Event]:
        seats = self._players(stacks, away)
        if len(seats) > self.max_players:
            seats = seats[: self.max_players]
        events: list[Event] = []
        if self.last_dealer is None:
            dealer, events = draw_for_deal(seats, rng)  # RULES §4.3
        else:
            # RULES §4.3: the deal moves clockwise each hand
            later = [s for s in seats if s > self.last_dealer]
            dealer = later[0] if later else seats[0]
        hand = RazzHand(self.rules, [(s, stacks[s]) for s in seats], dealer, rng=rng)
        events.extend(hand.start())
        self.engine = hand
        self.hand_start_dealer = self.last_dealer
        self.last_dealer = dealer
        self.acted = False
        return events

    def _hand(self) -> RazzHand:
        if self.engine is None:
            raise NotYourTurn("no hand is being played at this table")
        return self.engine

    def to_act(self) -> frozenset[int]:
        return frozenset() if self.engine is None else self.engine.to_act()

    def in_hand(self, seat: int) -> bool:
        return self.engine is not None and seat in self.engine.seat_ids

    def check(self, action: Action) -> None:
        hand = self._hand()
        if hand.can(action) is not None:
            hand.apply(action)  # validates first: raises the typed refusal, changing nothing
        return None

    def apply(self, action: Action) -> list[Event]:
        if not action.timed_out:
            self.acted = True
        return self._hand().apply(action)

    def timeout(self) -> tuple[list[Event], list[tuple[int, str]]]:
        hand = self._hand()
        events: list[Event] = []
        done: list[tuple[int, str]] = []
        for seat in sorted(hand.to_act()):
            act = hand.default_action(seat)
            events.extend(hand.apply(act))
            done.append((seat, {"bring_in": "posts the bring-in"}.get(act.kind, act.kind + "s")))
        return events, done

    def default_action(self, seat: int) -> Action:
        return self._hand().default_action(seat)

    def computer_action(self, seat: int, rng: random.Random) -> Action:
        return razz_policy.choose(self._hand(), seat, rng)

    def options(self, seat: int) -> list[ActionOption]:
        hand = self.engine
        kinds = ("bring_in", "complete", "fold", "check", "call", "bet", "raise")
        if hand is None or seat not in hand.seat_ids:
            return [ActionOption(k, False, "you are not in this hand") for k in kinds]
        p = hand.position(seat)
        if not hand.is_over:
            # said as it is, not "not your turn": these players never act again this hand
            if hand.folded[p]:
                return [ActionOption(k, False, "you folded this hand") for k in kinds]
            if hand.stacks[p] == 0:
                return [ActionOption(k, False, "you are all in this hand") for k in kinds]
        return self._legal_actions(hand, seat)

    def public_options(self) -> tuple[ActionOption, ...]:
        hand = self.engine
        if hand is None or hand.is_over:
            return ()
        to_act = hand.to_act()
        if not to_act:
            return ()
        return tuple(self._legal_actions(hand, next(iter(to_act))))

    def finish(self, names: NameOf) -> HandEnd:
        hand = self._hand()
        result = hand.result or {}
        winners = frozenset(int(w) for p in result.get("pots", []) for w in p["winners"])
        detail = {int(s): dict(v) for s, v in result.get("shown", {}).items()}
        pause = None if self.acted else "a whole hand passed with no player acting"
        return HandEnd(
            history=hand.to_phh(players=[names(s) for s in hand.seat_ids]),
            summary=dict(result),
            winners=winners,
            pause_reason=pause,
            detail=detail,
        )

    def void(self) -> None:
        self._hand()
        self.last_dealer = self.hand_start_dealer  # the voided hand's dealer deals again
        self.engine = None

    @property
    def pot(self) -> int:
        return 0 if self.engine is None else self.engine.pot_total

    @property
    def dealer(self) -> int | None:
        return self.last_dealer

    def stacks(self) -> dict[int, int]:
        return {} if self.engine is None else self.engine.seat_stacks()

    def seat_show(self, seat: int) -> SeatShow:
        hand = self.engine
        if hand is None:
            return SeatShow("waiting", None)
        if seat not in hand.seat_ids:
            return SeatShow("sitting_out", None)
        p = hand.position(seat)
        up = tuple(hand.up[p])
        shown = None
        name = None
        if hand.is_over and hand.result is not None:
            s = hand.result.get("shown", {}).get(str(seat))
            if s is not None:
                shown, name = _cards(s["cards"]), str(s["low"])
        if hand.folded[p]:
            status = "folded"
        elif hand.stacks[p] == 0 and not hand.is_over:
            status = "all_in"
        else:
            status = "playing"
        return SeatShow(
            status, hand.stacks[p], bet=hand.bets[p], up_cards=up, shown=shown, hand_name=name
        )

    def seat_cards(self, seat: int) -> SeatCards:
        hand = self.engine
        if hand is None or seat not in hand.seat_ids:
            return SeatCards()
        p = hand.position(seat)
        down, up = tuple(hand.down[p]), tuple(hand.up[p])
        cards = tuple(hand.hole_cards(p))
        name = None
        if len(cards) + (hand.community is not None) >= 5:
            key = (*cards, *self.community())
            name = self._named.get(key)
            if name is None:
                from bot.engine.hands import low_name

                if len(self._named) > 256:
                    self._named.clear()
                name = self._named[key] = low_name(list(key))
        return SeatCards(cards=cards, down=down, up=up, hand_name=name)

    def community(self) -> tuple[Card, ...]:
        hand = self.engine
        return () if hand is None or hand.community is None else (hand.community,)

    def phase_text(self) -> str:
        hand = self.engine
        if hand is None:
            return "waiting for players"
        if hand.is_over:
            return "showdown" if (hand.result or {}).get("showdown") else "hand over"
        return f"{hand.street}{ {3: 'rd'}.get(hand.street, 'th') } street"

    @property
    def paused(self) -> bool:
        return False

    def resume(self) -> list[Event]:
        raise IllegalAction("the hand is not paused")

    def new_turn(self, events: Sequence[Event]) -> bool:
        return bool(events)  # every action passes the turn

    def describe(self, event: Event, name: NameOf) -> str | None:
        d = event.data
        if not event.public:
            return None
        k = event.kind
        if k == "draw_for_deal":
            return f"{name(d['dealer'])} draws the lowest card and deals first"
        if k == "antes":
            return f"Everyone antes {max(d['amounts'])}" if d["amounts"] else None
        if k == "street":
            return f"{d['street']}{ {3: 'rd'}.get(d['street'], 'th') } street"
        if k == "community":
            return f"Not enough cards: {parse_card(d['card']).pretty} is dealt face up for all"
        if k == "action":
            who = name(d["seat"])
            act = d["action"]
            tail = " (timed out)" if d.get("timed_out") else ""
            if act == "bring_in":
                return f"{who} brings in {d['amount']}{tail}"
            if act in ("complete", "bet", "raise"):
                verb = {"complete": "completes", "bet": "bets", "raise": "raises"}[act]
                return f"{who} {verb} to {d['to']}{tail}"
            if act == "call":
                return f"{who} calls {d['amount']}{tail}"
            return f"{who} {act}s{tail}"
        if k == "show":
            return f"{name(d['seat'])} shows {_cards_text(d['cards'])}: {hand_name_text(d['low'])}"
        if k == "muck":
            return f"{name(d['seat'])} mucks"
        if k == "award":
            return f"{name(d['seat'])} wins {d['amount']}"
        if k == "refund":
            return f"{d['amount']} uncalled chips go back to {name(d['seat'])}"
        return None

    def result_text(self, events: Sequence[Event], name: NameOf) -> str | None:
        if not any(e.kind == "hand_over" for e in events):
            return None
        lines = [
            f"{name(e.data['seat'])}: {_cards_text(e.data['cards'])}"
            f" — {hand_name_text(e.data['low'])}"
            for e in events
            if e.kind == "show"
        ]
        lines += [
            f"{name(e.data['seat'])} wins {e.data['amount']}" for e in events if e.kind == "award"
        ]
        return "\n".join(lines)

    def seat_left(self, seat: int) -> None:
        return None


MIXED_GAMES = ("horse", "dealers-choice")
"""Tables whose game changes between hands (bot/tables/mixed.py)."""


def make_family(
    game: str, options: Mapping[str, Any], settings: Mapping[str, Any] | None = None
) -> GameFamily:
    """The adapter of ``game`` with validated rules (:class:`InvalidConfig` otherwise)."""
    from bot.tables.guts import GutsFamily  # here: guts.py builds on this module

    if game in ("zoot", "wheelers"):
        return GutsFamily.parse(game, options, settings)
    if game == "razz":
        return RazzFamily.parse(game, options, settings)
    if game in MIXED_GAMES:
        from bot.tables.mixed import MixedFamily  # here: mixed.py builds on this module

        return MixedFamily.parse(game, options, settings)
    raise InvalidConfig("game", f"unknown game {game!r}; one of zoot, wheelers, razz")


def load_family(
    game: str, rules: Mapping[str, Any], session: Mapping[str, Any] | None
) -> GameFamily:
    """The adapter of a stored table: its rules row and its snapshot's game part."""
    from bot.tables.guts import GutsFamily  # here: guts.py builds on this module

    if game in ("zoot", "wheelers"):
        fam: GameFamily = GutsFamily(GutsRules.parse(**dict(rules)))
    elif game == "razz":
        fam = RazzFamily(RazzRules.create(**dict(rules)))
    elif game in MIXED_GAMES:
        from bot.tables.mixed import MixedFamily  # here: mixed.py builds on this module

        fam = MixedFamily.from_rules(game, rules)
    else:
        raise GameError(f"unknown game {game!r}")
    if session:
        fam.load(session)
    return fam
