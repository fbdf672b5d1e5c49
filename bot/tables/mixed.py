"""Tables whose game changes between hands (issue 13): HORSE and dealer's choice.

:class:`MixedFamily` is a :class:`~bot.tables.games.GameFamily` that wraps the family of
the game being played (built by the same factory as any table's) and changes it only
between hands:

- **rotation** (``horse``): the games in turn, each for one orbit of the button. The orbit
  is over when the deal would come back to a player who already dealt this game (cardroom
  practice; the stud games' notional button moves each hand for this count). A new
  player dealt in during the orbit deals once too before it ends.
- **choice** (``dealers-choice``): each time the deal passes, the player who deals next picks
  the game of their deal from the games allowed. They have ``choice_seconds``; if the time
  runs out the table plays the game just played again (the default: the table goes on as it
  was, and an absent dealer forces no change). A computer dealer picks at once: the next game
  in the list after the one just played. The table's first hand is the first game listed.

Either way the deal keeps moving clockwise across games: the new game's first hand is dealt
by the player after the last hand's dealer (:meth:`GameFamily.follow_deal`). A pot that
carries over between Zoot or Wheelers games belongs to that game: the game goes on (no
change, no pick) until the pot is won.

The house options of what home games play (a straddle, run it twice, bomb pots, seven-deuce,
the rabbit: bot/tables/house.py) apply to the Hold'em and Omaha games the table deals
(seven-deuce to Hold'em's); a bomb pot the host calls waits for the next of them.

One set of stakes for every game: ``small_bet`` (fixed-limit games' small bet, big bet twice
it; Hold'em and Omaha blinds half and one small bet; Zoot and Wheelers ante one small bet;
stud bring-in half a small bet) and ``ante`` (the stud games'; default a fifth of the small
bet).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot import games as registry
from bot.engine.actions import Action, ActionOption
from bot.engine.cards import Card
from bot.engine.errors import IllegalAction, InvalidConfig, NotYourTurn
from bot.engine.events import Event
from bot.engine.flop.rules import HOUSE_OPTIONS
from bot.tables.games import (
    GameFamily,
    HandEnd,
    NameOf,
    SeatCards,
    SeatShow,
    load_family,
    make_family,
)
from bot.tables.house import HouseTable
from bot.tables.variants import (
    VARIANTS,
    Variant,
    family_deals,
    house_options_of,
    variant_keys,
    variant_options,
)

MODES = {g.key: g.mode for g in registry.games(mixed=True)}
"""A mixed game's mode (``rotation``, ``choice``), by its key (bot/games.py)."""
NAMES = {g.key: g.title for g in registry.games(mixed=True)}

SMALL_BET = 10
CHOICE_SECONDS = 30
MAX_STAKE = 10**12
"""The most a mixed table's small bet or ante may be (a tournament level's, at most its
structure's largest amount)."""


@dataclass(frozen=True, slots=True)
class MixedInfo:
    """What the table message shows of a mixed table's games."""

    name: str
    mode: str
    key: str
    label: str
    next_label: str | None
    """Rotation: the game after this orbit; choice: the game picked for the next deal."""
    orbit_left: int | None
    """Rotation: hands left in this orbit (None before the first hand)."""
    chooser: int | None
    """Choice: the seat that picks the next game now (None: no pick is awaited)."""
    choices: tuple[tuple[str, str], ...]
    """(key, name) of the games allowed."""
    default_label: str
    carried: bool
    """A pot carries over: the game goes on until it is won."""


class MixedFamily(GameFamily):
    """See the module docstring. Session: the game being played (its family's own session
    inside), the last dealer, who dealt in this orbit, the pending pick."""

    def __init__(
        self,
        key: str,
        variants: Sequence[Variant],
        rules: Sequence[Mapping[str, Any]],
        *,
        config: Mapping[str, Any],
    ) -> None:
        self.key = key
        self.mode = MODES[key]
        self.variants = tuple(variants)
        self.rules = [dict(r) for r in rules]
        self.config = dict(config)
        self.choice_seconds = int(config.get("choice_seconds", CHOICE_SECONDS))
        self._fresh: dict[int, GameFamily] = {}
        families = [self._family(i) for i in range(len(self.variants))]
        self._min = max(f.min_players for f in families)
        self._max = min(f.max_players for f in families)
        if self._max < self._min:
            raise InvalidConfig("games", "these games need different numbers of players")
        self.index = 0
        self.inner: GameFamily = self._family(0)
        self._fresh.pop(0, None)
        self.last_dealer: int | None = None
        self.dealt: set[int] = set()
        self.players: tuple[int, ...] = ()
        self.pick: dict[str, Any] | None = None
        """Choice: {"seat": the next dealer, "index": the game they picked or None}."""
        self.undo: dict[str, Any] | None = None
        """What a voided hand puts back (its dealer did not deal)."""
        self.hands = 0
        """Hands dealt at the table (0: the first hand is the first game listed)."""
        self.house: dict[str, Any] = {}
        """House options the host changed since the table opened (its Hold'em and Omaha
        games play them; the rules of each keep them too)."""
        self.bomb_next: dict[str, Any] | None = None
        """A bomb pot the host called: dealt at the next Hold'em or Omaha hand."""

    # ---- building
    @classmethod
    def parse(
        cls, game: str, options: Mapping[str, Any], settings: Mapping[str, Any] | None = None
    ) -> MixedFamily:
        values: dict[str, Any] = {}
        if settings:
            for part in ("stakes", "house_rules"):
                if isinstance(settings.get(part), Mapping):
                    values.update(settings[part])
        values.update(options)
        house = {k: values.pop(k) for k in HOUSE_OPTIONS if k in values}
        unknown = set(values) - {"games", "small_bet", "ante", "decision_seconds", "choice_seconds"}
        if unknown:
            raise InvalidConfig(sorted(unknown)[0], "not an option of a mixed table")
        # the commands' own ranges stop at 1,000,000; a tournament's levels climb past it
        small_bet = _int(values.get("small_bet", SMALL_BET), "small_bet", 2, MAX_STAKE)
        ante = values.get("ante")
        ante = None if ante is None else _int(ante, "ante", 0, MAX_STAKE)
        secs = values.get("decision_seconds")
        secs = None if secs is None else _int(secs, "decision_seconds", 10, 600)
        choice = _int(values.get("choice_seconds", CHOICE_SECONDS), "choice_seconds", 10, 300)
        if "games" in values and values["games"] is not None:
            keys = variant_keys(values["games"])
            missing = [VARIANTS[k].label for k in keys if not family_deals(VARIANTS[k])]
        elif MODES[game] == "rotation":  # every game of the rotation, or no table
            keys = registry.game(game).plays
            missing = [VARIANTS[k].label for k in keys if not family_deals(VARIANTS[k])]
        else:  # the dealer picks among the games this bot deals
            keys = tuple(k for k in registry.game(game).plays if family_deals(VARIANTS[k]))
            missing = []
        if missing:
            raise InvalidConfig("games", f"this bot does not deal {', '.join(missing)} yet")
        if MODES[game] == "rotation" and len(keys) < 2:
            raise InvalidConfig("games", "a rotation needs two games or more")
        variants = [VARIANTS[k] for k in keys]
        rules = [
            make_family(
                v.game,
                variant_options(
                    v, small_bet=small_bet, ante=ante, decision_seconds=secs, house=house
                ),
            ).rules_json
            for v in variants
        ]
        config = {"small_bet": small_bet, "ante": ante, "choice_seconds": choice}
        return cls(game, variants, rules, config=config)

    @classmethod
    def from_rules(cls, game: str, rules: Mapping[str, Any]) -> MixedFamily:
        variants = [VARIANTS[k] for k in rules["games"]]
        return cls(game, variants, rules["rules"], config=rules.get("config", {}))

    def with_stakes(self, stakes: Mapping[str, Any]) -> MixedFamily:
        """One set of stakes for every game (a tournament level's ``small_bet`` and
        ``ante``), the rotation and the deal where they were."""
        fam = MixedFamily.parse(
            self.key,
            {
                "games": [v.key for v in self.variants],
                "small_bet": stakes.get("small_bet", self.config.get("small_bet", SMALL_BET)),
                "ante": stakes.get("ante", self.config.get("ante")),
                "decision_seconds": self.inner.decision_seconds,
                "choice_seconds": self.choice_seconds,
            },
        )
        fam.load(self.session_json())
        return fam

    def _family(self, index: int) -> GameFamily:
        """A family of game ``index`` with no session (kept: asked again for its rules)."""
        fam = self._fresh.get(index)
        if fam is None:
            fam = load_family(self.variants[index].game, self.rules[index], None)
            self._fresh[index] = fam
        return fam

    def _switch(self, index: int) -> None:
        self.index = index
        self.inner = self._family(index)
        self._fresh.pop(index, None)  # this one now holds the session

    # ---- rules
    @property
    def game(self) -> str:  # type: ignore[override]
        return self.inner.game

    @property
    def engine(self) -> Any:  # type: ignore[override]
        return self.inner.engine

    @property
    def variant(self) -> Variant:
        return self.variants[self.index]

    @property
    def rules_json(self) -> dict[str, Any]:
        return {
            "mode": self.mode,
            "games": [v.key for v in self.variants],
            "rules": self.rules,
            "config": self.config,
        }

    def describe_rules(self) -> tuple[tuple[str, str, str], ...]:
        how = (
            "played in turn, each for one orbit of the button"
            if self.mode == "rotation"
            else f"the next dealer picks one for their deal ({self.choice_seconds} s;"
            " else the game just played)"
        )
        head = (
            ("games", ", ".join(v.label for v in self.variants), how),
            # not "small_bet": the table message would call it stud's 3rd/4th street bet
            ("stakes", str(self.config.get("small_bet")), "every game's stakes follow it"),
            ("now", self.variant.label, "the game being played"),
        )
        # the seats are the table's (what every one of its games allows), not the game's
        seats = {"min_players": str(self._min), "max_players": str(self._max)}
        return head + tuple(
            (name, seats.get(name, value), desc)
            for name, value, desc in self.inner.describe_rules()
        )

    @property
    def decision_seconds(self) -> int:
        return self.inner.decision_seconds

    @property
    def min_players(self) -> int:
        return self._min

    @property
    def max_players(self) -> int:
        return self._max

    # ---- session
    def session_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "inner": self.inner.session_json(),
            "last_dealer": self.last_dealer,
            "dealt": sorted(self.dealt),
            "players": list(self.players),
            "pick": self.pick,
            "undo": self.undo,
            "hands": self.hands,
            "house": dict(self.house),
            "bomb_next": self.bomb_next,
        }

    def load(self, raw: Mapping[str, Any]) -> None:
        house = raw.get("house")
        if house:
            self._house_rules(dict(house))
        bomb = raw.get("bomb_next")
        self.bomb_next = None if bomb is None else dict(bomb)
        self._switch(int(raw.get("index", 0)))
        inner = raw.get("inner")
        if inner:
            self.inner.load(inner)
        self.last_dealer = raw.get("last_dealer")
        self.dealt = {int(s) for s in raw.get("dealt", [])}
        self.players = tuple(int(s) for s in raw.get("players", []))
        pick = raw.get("pick")
        self.pick = None if pick is None else dict(pick)
        undo = raw.get("undo")
        self.undo = None if undo is None else dict(undo)
        self.hands = int(raw.get("hands", 0))

    # ---- between hands: which game is next
    @property
    def carried(self) -> bool:
        """A pot stands between hands (a Zoot or Wheelers pot carried over)."""
        return not self.inner.hand_running and self.inner.pot > 0

    def next_dealer(self, stacks: Mapping[int, int], away: frozenset[int]) -> int | None:
        """Who deals the next hand: the next player clockwise after the last dealer (the
        families' own rule), None before the first hand."""
        if self.last_dealer is None:
            return None
        can = [s for s in sorted(stacks) if s not in away and stacks[s] > 0]
        later = [s for s in can if s > self.last_dealer]
        return later[0] if later else (can[0] if can else None)

    def _plan(self, stacks: Mapping[int, int], away: frozenset[int]) -> tuple[int, str]:
        """The game of the next hand and why: first, carry, orbit, same, pick, default."""
        if self.hands == 0:
            return self.index, "first"
        if self.carried:
            return self.index, "carry"
        if self.mode == "rotation":
            nxt = self.next_dealer(stacks, away)
            if nxt is not None and nxt in self.dealt:
                return (self.index + 1) % len(self.variants), "orbit"
            return self.index, "same"
        if self.pick is not None and self.pick.get("index") is not None:
            return int(self.pick["index"]), "pick"
        return self.index, "default"

    def _planned(self, stacks: Mapping[int, int], away: frozenset[int]) -> GameFamily:
        index, _ = self._plan(stacks, away)
        return self.inner if index == self.index else self._family(index)

    def hand_game(self, stacks: Mapping[int, int], away: frozenset[int]) -> str:
        return self._planned(stacks, away).game

    def before_hand(
        self,
        stacks: Mapping[int, int],
        away: frozenset[int],
        *,
        computers: frozenset[int],
        blinds: Mapping[int, str] | None = None,
    ) -> float | None:
        wait = self._pick_wait(stacks, away, computers=computers)
        index, _ = self._plan(stacks, away)
        if wait is None and index == self.index and self.hands:
            # the same game again: its own decision before the hand (a straddle)
            return self.inner.before_hand(stacks, away, computers=computers, blinds=blinds)
        return wait

    def _pick_wait(
        self, stacks: Mapping[int, int], away: frozenset[int], *, computers: frozenset[int]
    ) -> float | None:
        if self.mode != "choice":
            return None
        _, why = self._plan(stacks, away)
        chooser = self.next_dealer(stacks, away)
        if why in ("first", "carry") or chooser is None or len(self.variants) < 2:
            self.pick = None
            return None
        if self.pick is not None and self.pick.get("seat") == chooser:
            return None if self.pick.get("index") is not None else float(self.choice_seconds)
        if chooser in computers:
            # a computer dealer picks at once: the next game in the list
            self.pick = {"seat": chooser, "index": (self.index + 1) % len(self.variants)}
            return None
        self.pick = {"seat": chooser, "index": None}
        return float(self.choice_seconds)

    def awaited_choice(self) -> tuple[int, float] | None:
        pick = self.pick
        if self.mode != "choice" or pick is None or pick.get("index") is not None:
            return None
        return int(pick["seat"]), float(self.choice_seconds)

    def choose(self, seat: int, key: str, name: NameOf) -> Event:
        """The next dealer picks the game of their deal (a typed refusal otherwise)."""
        pick = self.pick
        if self.mode != "choice":
            raise IllegalAction("this table's games change by themselves")
        if pick is None or self.inner.hand_running:
            raise NotYourTurn("no game is being chosen now")
        if pick["seat"] != seat:
            raise NotYourTurn(f"{name(int(pick['seat']))} deals next and picks the game")
        if pick.get("index") is not None:
            chosen = self.variants[int(pick["index"])].label
            raise IllegalAction(f"you already chose {chosen}")
        keys = [v.key for v in self.variants]
        if key not in keys:
            allowed = ", ".join(v.label for v in self.variants)
            raise IllegalAction(f"{key!r} is not one of this table's games ({allowed})")
        index = keys.index(key)
        self.pick = {"seat": seat, "index": index}
        return Event("game_chosen", {"seat": seat, "key": key, "label": self.variants[index].label})

    # ---- the hand
    @property
    def hand_over(self) -> bool:
        return self.inner.hand_over

    def start_reason(self, stacks: Mapping[int, int], away: frozenset[int]) -> str | None:
        return self._planned(stacks, away).start_reason(stacks, away)

    def short_of_chips(self, chips: int) -> str | None:
        return self.inner.short_of_chips(chips)

    def newcomer_blind(self) -> str | None:
        return self.inner.newcomer_blind()

    def start_hand(
        self,
        stacks: Mapping[int, int],
        away: frozenset[int],
        rng: random.Random,
        *,
        seed: str | None = None,
        blinds: Mapping[int, str] | None = None,
    ) -> list[Event]:
        index, why = self._plan(stacks, away)
        chooser = None if self.pick is None else self.pick.get("seat")
        events: list[Event] = []
        changed = index != self.index
        if changed:
            self._switch(index)
            self.inner.follow_deal(self.last_dealer)
            self.dealt = set()
        if why in ("first", "orbit", "pick", "default"):
            data = {"key": self.variant.key, "label": self.variant.label, "why": why}
            events.append(Event("game_on", {**data, "seat": chooser, "changed": changed}))
        self.undo = {"last_dealer": self.last_dealer, "dealt": sorted(self.dealt)}
        if isinstance(self.inner, HouseTable):
            # the table's count of hands (bomb_pot_every) and a bomb pot the host called
            self.inner.hand_no = self.hands
            if self.bomb_next is not None:
                self.inner.bomb_next, self.bomb_next = self.bomb_next, None
                self.undo["bomb_next"] = self.inner.bomb_next
        events.extend(self.inner.start_hand(stacks, away, rng, seed=seed, blinds=blinds))
        dealer = self.inner.dealer
        if dealer is not None:
            self.last_dealer = dealer
            self.dealt.add(dealer)
        self.players = tuple(s for s in sorted(stacks) if self.inner.in_hand(s))
        self.pick = None
        self.hands += 1
        return events

    def to_act(self) -> frozenset[int]:
        return self.inner.to_act()

    def in_hand(self, seat: int) -> bool:
        return self.inner.in_hand(seat)

    def check(self, action: Action) -> None:
        self.inner.check(action)

    def apply(self, action: Action) -> list[Event]:
        return self.inner.apply(action)

    def timeout(self) -> tuple[list[Event], list[tuple[int, str]]]:
        return self.inner.timeout()

    def default_action(self, seat: int) -> Action:
        return self.inner.default_action(seat)

    def computer_action(self, seat: int, rng: random.Random) -> Action:
        return self.inner.computer_action(seat, rng)

    def options(self, seat: int) -> list[ActionOption]:
        return self.inner.options(seat)

    def public_options(self) -> tuple[ActionOption, ...]:
        return self.inner.public_options()

    def finish(self, names: NameOf) -> HandEnd:
        return self.inner.finish(names)

    def void(self) -> None:
        self.inner.void()
        if isinstance(self.inner, HouseTable) and self.inner.bomb_next is not None:
            self.bomb_next, self.inner.bomb_next = self.inner.bomb_next, None
        if self.undo is not None:
            # the voided hand's dealer deals again (the same game: a change stands)
            self.last_dealer = self.undo.get("last_dealer")
            self.dealt = {int(s) for s in self.undo.get("dealt", [])}
            self.undo = None
        self.hands = max(0, self.hands - 1)

    @property
    def pot(self) -> int:
        return self.inner.pot

    @property
    def dealer(self) -> int | None:
        return self.inner.dealer

    def stacks(self) -> dict[int, int]:
        return self.inner.stacks()

    def seat_show(self, seat: int) -> SeatShow:
        return self.inner.seat_show(seat)

    def seat_cards(self, seat: int) -> SeatCards:
        return self.inner.seat_cards(seat)

    def community(self) -> tuple[Card, ...]:
        return self.inner.community()

    def phase_text(self) -> str:
        return f"{self.variant.label}: {self.inner.phase_text()}"

    @property
    def paused(self) -> bool:
        return self.inner.paused

    def resume(self) -> list[Event]:
        return self.inner.resume()

    def new_turn(self, events: Sequence[Event]) -> bool:
        return self.inner.new_turn(events)

    def describe(self, event: Event, name: NameOf) -> str | None:
        d = event.data
        if event.kind == "game_chosen":
            return f"{name(int(d['seat']))} picks {d['label']} for their deal"
        if event.kind == "game_on":
            why, label = d["why"], d["label"]
            who = None if d.get("seat") is None else name(int(d["seat"]))
            if why == "first":
                return f"{NAMES[self.key]}: the first game is {label}"
            if why == "orbit":
                return f"The orbit is over: now {label}"
            if why == "pick":
                return f"{who} deals {label}"
            if why == "default":
                return f"{who} did not pick in time: {label} again" if who else f"{label} again"
            return None
        return self.inner.describe(event, name)

    def result_text(self, events: Sequence[Event], name: NameOf) -> str | None:
        return self.inner.result_text(events, name)

    def seat_left(self, seat: int) -> None:
        self.inner.seat_left(seat)
        if self.pick is not None and self.pick.get("seat") == seat:
            self.pick = None  # the next dealer left: the next schedule asks the new one

    def follow_deal(self, last_dealer: int | None) -> None:
        raise InvalidConfig("games", "a mixed game cannot be part of another")

    # ---- what home games play: the Hold'em and Omaha games' (bot/tables/house.py)
    def _house_rules(self, changes: Mapping[str, Any]) -> list[tuple[str, str]]:
        """Apply house options to the rules of every Hold'em and Omaha game of the table."""
        flop = [i for i, v in enumerate(self.variants) if v.family == "flop"]
        if not flop:
            raise InvalidConfig("house", "this table deals no Hold'em or Omaha game")
        from bot.engine.flop import FlopRules

        changed: dict[str, str] = {}
        for i in flop:
            mine = house_options_of(self.variants[i], changes)
            rules = FlopRules.create(**{**self.rules[i], **mine})
            for name in mine:
                if getattr(rules, name) != self.rules[i].get(name):
                    changed[name] = str(getattr(rules, name))
            self.rules[i] = rules.model_dump()
        self.house.update({k: v for k, v in changes.items() if k in HOUSE_OPTIONS})
        self._fresh.clear()  # built again from the new rules
        return sorted(changed.items())

    def set_house(self, changes: Mapping[str, Any]) -> list[tuple[str, str]]:
        for name in changes:
            if name not in HOUSE_OPTIONS:
                raise InvalidConfig(name, "not a house option of this table")
        changed = self._house_rules(changes)
        if isinstance(self.inner, HouseTable):
            self.inner.set_house(house_options_of(self.variant, changes))
        return changed

    def queue_bomb_pot(self, ante: int | None, double_board: bool | None) -> dict[str, Any]:
        flop = [i for i, v in enumerate(self.variants) if v.family == "flop"]
        if not flop:
            raise InvalidConfig("bomb_pot", "this table deals no Hold'em or Omaha game")
        first = self._family(flop[0]) if flop[0] != self.index else self.inner
        assert isinstance(first, HouseTable)
        amount = first.rules.bomb_ante if ante is None else ante
        if amount < 1:
            raise InvalidConfig("ante", f"a bomb pot's ante is at least 1, got {amount}")
        double = first.rules.bomb_pot_double_board if double_board is None else double_board
        self.bomb_next = {"ante": amount, "double_board": bool(double)}
        return dict(self.bomb_next)

    def choose_straddle(self, seat: int, yes: bool) -> Event:
        return self.inner.choose_straddle(seat, yes)

    def rabbit(self) -> list[dict[str, Any]] | None:
        return self.inner.rabbit()

    def house_info(self) -> Any:
        info = self.inner.house_info()
        if self.bomb_next is None:
            return info
        from dataclasses import replace

        from bot.tables.house import HouseInfo

        # a bomb pot called: dealt at the table's next Hold'em or Omaha hand
        return replace(
            info or HouseInfo(),
            bomb_ante=int(self.bomb_next["ante"]),
            bomb_double=bool(self.bomb_next["double_board"]),
            bomb_later=True,
        )

    # ---- pace: the game being dealt's
    @property
    def betting(self) -> bool:
        return self.inner.betting

    def time_bank_applies(self) -> bool:
        return self.inner.time_bank_applies()

    def price(self, seat: int) -> int | None:
        return self.inner.price(seat)

    def round_key(self) -> int:
        return self.inner.round_key()

    def advance_offers(self, seat: int) -> tuple[str, ...]:
        return self.inner.advance_offers(seat)

    def advance_action(self, seat: int, choice: str, amount: int | None) -> Action | bool:
        return self.inner.advance_action(seat, choice, amount)

    def big_blind_passed(self, seat: int) -> bool:
        return self.inner.big_blind_passed(seat)

    def mixed(self) -> MixedInfo:
        nxt: str | None = None
        left: int | None = None
        if self.mode == "rotation":
            nxt = self.variants[(self.index + 1) % len(self.variants)].label
            if self.players:
                left = len([s for s in self.players if s not in self.dealt])
        elif self.pick is not None and self.pick.get("index") is not None:
            nxt = self.variants[int(self.pick["index"])].label
        chooser = None
        if self.pick is not None and self.pick.get("index") is None:
            chooser = int(self.pick["seat"])
        return MixedInfo(
            name=NAMES[self.key],
            mode=self.mode,
            key=self.variant.key,
            label=self.variant.label,
            next_label=nxt,
            orbit_left=left,
            chooser=chooser,
            choices=tuple((v.key, v.label) for v in self.variants),
            default_label=self.variant.label,
            carried=self.carried,
        )


def _int(value: object, field: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidConfig(field, f"a whole number, got {value!r}")
    if not low <= value <= high:
        raise InvalidConfig(field, f"between {low} and {high}, got {value}")
    return value
