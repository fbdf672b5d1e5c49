"""The flop games at the table: Texas Hold'em and Omaha (high, hi-lo) behind
:class:`~bot.tables.games.GameFamily`.

A table plays a sequence of hands (``docs/rules.md``, the flop games): the first button
goes to the highest card drawn (ace high, then ♠ > ♥ > ♦ > ♣); from then on the blinds
follow Robert's Rules' dead-button rule (:mod:`bot.tables.blinds`): the big blind moves one
player each hand, so nobody posts it twice in a row or skips it when a player busts, leaves
or arrives; a player who sits down later waits for the big blind or posts one (the seat's
``blind`` state, kept by the service). The session keeps the engine of the current hand
(kept after it ends, so its result can be shown), the last hand's button, small and big
blind seats, what a voided hand puts back (it is dealt again from the same blinds) and
whether anyone acted in the hand (a hand where every player timed out pauses the table,
as in Razz).

What home games play (the straddle, bomb pots, run it twice, seven-deuce, the rabbit) is
in :mod:`bot.tables.house` (the mixin :class:`~bot.tables.house.HouseTable`) and its words
in :mod:`bot.tables.house_text`.

Seat numbers are the store's seat numbers; clockwise order is ascending seat number.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.engine.actions import Action, ActionOption
from bot.engine.cards import CARDS, Card
from bot.engine.errors import InvalidConfig, NotYourTurn
from bot.engine.events import Event
from bot.engine.flop import FlopHand, FlopRules, next_button
from bot.engine.flop import policy as flop_policy
from bot.engine.flop.phh import hand_to_phh
from bot.engine.flop.sevendeuce import is_seven_deuce
from bot.engine.flop.showdown import high_name, scores
from bot.engine.hands.low8 import low8_name
from bot.engine.shuffle import seed_deck
from bot.tables.betting import BettingFamily
from bot.tables.blinds import plan_blinds
from bot.tables.flop_text import _shown_name, describe_event, hand_result_text
from bot.tables.games import (
    HandEnd,
    NameOf,
    SeatCards,
    SeatShow,
    _cards,
    _cards_text,
    _merge_settings,
)
from bot.tables.house import CHOICE_WORDS, STRADDLE_SECONDS, HouseTable

GAMES = ("holdem", "omaha")
DEFAULT_BETTING = {"holdem": "no-limit", "omaha": "pot-limit"}
KINDS = ("fold", "check", "call", "bet", "raise")


def draw_for_button(seats: Sequence[int], rng: random.Random) -> tuple[int, Event]:
    """One card to each seat; the highest (ace high, then ♠ > ♥ > ♦ > ♣) takes the button
    (Robert's Rules: the button's first place is drawn for by high card)."""
    cards = list(CARDS)
    rng.shuffle(cards)
    drawn = dict(zip(seats, cards, strict=False))
    button = max(seats, key=lambda s: (drawn[s].rank, drawn[s].suit))
    event = Event(
        "draw_for_button",
        {"cards": {str(s): str(c) for s, c in drawn.items()}, "button": button},
    )
    return button, event


def bet_sizes(hand: FlopHand, seat: int) -> tuple[tuple[str, int], ...]:
    """The named bet/raise ``to`` totals a button offers ``seat`` now (no-limit and
    pot-limit): the minimum, half the pot, the pot and all-in, each within the legal range.
    "Pot" is the pot-limit maximum (the pot after calling, added to the call); "½ pot"
    adds half of that pot to the call."""
    span = hand.raise_range(seat)
    if span is None or hand.rules.betting == "fixed-limit":
        return ()
    low, high = span
    p = hand.position(seat)
    top = hand.top
    owed = top - hand.bets[p]
    pot_after_call = hand.pot_total + owed
    everything = hand.stacks[p] + hand.bets[p]
    out: list[tuple[str, int]] = [("min", low)]
    half = top + pot_after_call // 2
    if low < half < high:
        out.append(("½ pot", half))
    pot = top + pot_after_call
    if low < pot <= high:
        out.append(("pot (all-in)" if pot == everything else "pot", pot))
    if high == everything and high > low and pot != everything:
        out.append(("all-in", high))
    if high == low == everything:
        out[0] = ("all-in", low)
    return tuple(out)


@dataclass(frozen=True, slots=True)
class _Deal:
    """Who the next hand is dealt to and from where (``button`` None: drawn at the deal)."""

    button: int | None
    seats: list[int]
    dead_small: bool = False
    posts: tuple[int, ...] = ()
    small: int | None = None
    big: int | None = None


class FlopFamily(HouseTable, BettingFamily):
    """Hold'em (no-limit by default, pot-limit, fixed-limit) and Omaha (high or hi-lo,
    pot-limit by default, fixed-limit also)."""

    def __init__(self, rules: FlopRules) -> None:
        self.rules = rules
        self.game = rules.game
        self.engine: FlopHand | None = None
        self.last_button: int | None = None
        self.last_small: int | None = None
        """The seat of last hand's small blind (None: it was dead, or no hand yet)."""
        self.last_big: int | None = None
        """The seat of last hand's big blind (None: no hand yet; the chain starts over)."""
        self.redeal_button: int | None = None
        """The button of a voided first hand: the next hand is dealt from it again."""
        self.undo: tuple[int | None, int | None, int | None] | None = None
        """(button, small, big) before the hand being played: a voided hand puts them back."""
        self.acted = False
        self.bomb_next: dict[str, Any] | None = None
        """A bomb pot the host called for the next hand: {"ante", "double_board"}."""
        self.straddle_offer: dict[str, Any] | None = None
        """The straddle of the next hand: {"seat", "choice": None (asked), True, False}."""
        self.hand_no = 0
        """Hands this game dealt at the table (``bomb_pot_every`` counts them)."""
        self.undo_house: dict[str, Any] | None = None
        """What a voided hand puts back of the house games (a bomb pot called, the count)."""

    @classmethod
    def parse(
        cls, game: str, options: Mapping[str, Any], settings: Mapping[str, Any] | None = None
    ) -> FlopFamily:
        if game not in GAMES:
            raise InvalidConfig("game", f"not a flop game: {game!r}")
        values = _merge_settings(settings, options)
        values.setdefault("betting", DEFAULT_BETTING[game])
        values["game"] = game
        return cls(FlopRules.create(**values))

    @classmethod
    def stored(cls, rules: Mapping[str, Any]) -> FlopFamily:
        return cls(FlopRules.create(**dict(rules)))

    # ---- rules
    @property
    def rules_json(self) -> dict[str, Any]:
        return self.rules.model_dump()

    @property
    def decision_seconds(self) -> int:
        # a decision outside the betting has its own window (Once/Twice, Show/Muck)
        hand = self.engine
        if hand is not None and hand.choice is not None:
            return self.choice_seconds(hand) or self.rules.decision_seconds
        return self.rules.decision_seconds

    def describe_rules(self) -> tuple[tuple[str, str, str], ...]:
        """The table's rules as it announces them: the ones that apply to its game and
        betting, with the values in force (a default left unset shows what it means)."""
        r = self.rules
        rows = {name: (value, desc) for name, value, desc in r.describe()}
        keep = ["betting", "small_blind", "big_blind"]
        if r.game == "omaha":
            keep.insert(1, "split")
        out = [(name, *rows[name]) for name in keep]
        if r.betting == "fixed-limit":
            out.append(("limits", f"{r.small_limit}/{r.big_limit}", "small bet/big bet"))
        elif r.min_raise_bet != r.big_blind:
            out.append(("min_bet", str(r.min_raise_bet), rows["min_bet"][1]))
        if r.ante:
            out.append(("ante", str(r.ante), rows["ante"][1]))
            if r.bb_ante:
                out.append(("bb_ante", "on", rows["bb_ante"][1]))
        for name in ("showdown_reveal", "decision_seconds", "min_players", "max_players"):
            out.append((name, *rows[name]))
        # what home games play: the ones the table plays
        if r.straddle != "off":
            out.append(("straddle", r.straddle, rows["straddle"][1]))
        if r.run_it_twice != "off":
            out.append(("run_it_twice", r.run_it_twice, rows["run_it_twice"][1]))
        if r.bomb_pot_every:
            kind = "double board" if r.bomb_pot_double_board else "one board"
            every = f"every {r.bomb_pot_every} hands, ante {r.bomb_ante}, {kind}"
            out.append(("bomb_pot_every", every, rows["bomb_pot_every"][1]))
        if r.seven_deuce:
            out.append(("seven_deuce", str(r.seven_deuce), rows["seven_deuce"][1]))
        if not r.rabbit_hunt:
            out.append(("rabbit_hunt", "off", rows["rabbit_hunt"][1]))
        return tuple(out)

    # ---- session
    def session_json(self) -> dict[str, Any]:
        return {
            "engine": None if self.engine is None else self.engine.snapshot(),
            "last_button": self.last_button,
            "last_small": self.last_small,
            "last_big": self.last_big,
            "redeal_button": self.redeal_button,
            "undo": None if self.undo is None else list(self.undo),
            "acted": self.acted,
            "house": self.house_json(),
            "bomb_next": self.bomb_next,
            "straddle_offer": self.straddle_offer,
            "hand_no": self.hand_no,
            "undo_house": self.undo_house,
        }

    def load(self, raw: Mapping[str, Any]) -> None:
        eng = raw.get("engine")
        self.engine = None if eng is None else FlopHand.restore(eng)
        self.last_button = raw.get("last_button")
        # a session saved before the dead-button rule has no blinds: the next hand starts
        # the chain from the button, as the moving button did
        self.last_small = raw.get("last_small")
        self.last_big = raw.get("last_big")
        self.redeal_button = raw.get("redeal_button")
        undo = raw.get("undo")
        self.undo = None if undo is None else (undo[0], undo[1], undo[2])
        self.acted = bool(raw.get("acted", False))
        # the house options the host set since the table opened (a session saved before
        # them has none: the table's rules stand)
        self.load_house(raw.get("house"))
        bomb = raw.get("bomb_next")
        self.bomb_next = None if bomb is None else dict(bomb)
        offer = raw.get("straddle_offer")
        self.straddle_offer = None if offer is None else dict(offer)
        self.hand_no = int(raw.get("hand_no", 0))
        undo_house = raw.get("undo_house")
        self.undo_house = None if undo_house is None else dict(undo_house)

    # ---- the hand
    def follow_deal(self, last_dealer: int | None) -> None:
        # a mixed table turns to this game: the button moves on from the last dealer, and
        # the blinds start from it
        self.last_button = last_dealer
        self.last_small = self.last_big = None
        self.redeal_button = None

    def newcomer_blind(self) -> str | None:
        # a hand has been dealt: a player sitting down now waits for the big blind (or
        # posts one), rules 6.14
        return "wait" if self.last_big is not None else None

    def _deal_plan(
        self,
        stacks: Mapping[int, int],
        away: frozenset[int],
        blinds: Mapping[int, str] | None,
    ) -> _Deal:
        """Who the next hand is dealt to, from which button, with which blinds (pure:
        :meth:`start_hand` deals it, :meth:`before_hand` offers its straddle)."""
        seats = self._players(stacks, away)[: self.max_players]
        if self.last_big is not None and self.last_button is not None:
            chosen = blinds or {}
            plan = plan_blinds(
                seats,
                last_button=self.last_button,
                last_small=self.last_small,
                last_big=self.last_big,
                waiting=[s for s in seats if chosen.get(s) == "wait"],
                posting=[s for s in seats if chosen.get(s) == "post"],
            )
            return _Deal(
                plan.button,
                list(plan.dealt),
                dead_small=plan.small is None and not plan.heads_up,
                posts=plan.posts,
                small=plan.small,
                big=plan.big,
            )
        # the first hand (or the first of this game at a mixed table): everyone plays
        if self.redeal_button in seats:
            return _Deal(self.redeal_button, seats)
        if self.last_button is None:
            return _Deal(None, seats)  # the button is drawn for
        return _Deal(next_button(seats, self.last_button), seats)

    def before_hand(
        self,
        stacks: Mapping[int, int],
        away: frozenset[int],
        *,
        computers: frozenset[int],
        blinds: Mapping[int, str] | None = None,
    ) -> float | None:
        # the straddle of the next hand is offered before its deal (bot/tables/house.py)
        if self.rules.straddle == "off" or self._bomb_for_next() is not None:
            self.straddle_offer = None
            return None
        deal = self._deal_plan(stacks, away, blinds)
        seat = None
        if deal.button is not None and len(deal.seats) >= 3:
            seat = self._straddle_seat(
                deal.seats, deal.button, dead_small=deal.dead_small, posts=deal.posts
            )
        if seat is None or stacks.get(seat, 0) <= self.rules.straddle_amount:
            self.straddle_offer = None
            return None
        offer = self.straddle_offer
        if offer is not None and offer.get("seat") == seat:
            return STRADDLE_SECONDS if offer.get("choice") is None else None
        if seat in computers:
            self.straddle_offer = {"seat": seat, "choice": False}  # computers never straddle
            return None
        self.straddle_offer = {"seat": seat, "choice": None}
        return float(STRADDLE_SECONDS)

    def start_hand(
        self,
        stacks: Mapping[int, int],
        away: frozenset[int],
        rng: random.Random,
        *,
        seed: str | None = None,
        blinds: Mapping[int, str] | None = None,
    ) -> list[Event]:
        events: list[Event] = []
        self.undo = (self.last_button, self.last_small, self.last_big)
        self.undo_house = {"bomb_next": self.bomb_next, "hand_no": self.hand_no}
        deal = self._deal_plan(stacks, away, blinds)
        seats, dead_small, posts = deal.seats, deal.dead_small, deal.posts
        small, big = deal.small, deal.big
        if deal.button is None:
            button, drawn = draw_for_button(seats, rng)
            events.append(drawn)
        else:
            button = deal.button
        bomb = self._bomb_for_next()
        straddle: int | None = None
        offer = self.straddle_offer
        if bomb is None and offer is not None and offer.get("choice"):
            seat = self._straddle_seat(seats, button, dead_small=dead_small, posts=posts)
            if (
                seat is not None
                and seat == offer["seat"]
                and stacks.get(seat, 0) > self.rules.straddle_amount
            ):
                straddle = seat
        hand = FlopHand(
            self.rules,
            [(s, stacks[s]) for s in seats],
            button,
            rng=rng if seed is None else None,
            # a verifiable table: the seed's deck, dealt from the top
            deck=None if seed is None else seed_deck(seed),
            dead_small=dead_small and bomb is None,
            posts=posts if bomb is None else (),
            straddle=straddle,
            bomb=0 if bomb is None else int(bomb["ante"]),
            boards=2 if bomb is not None and bomb["double_board"] else 1,
        )
        if big is None:  # the blinds by position (heads-up: the button is the small blind)
            big = hand.seat_ids[hand.bb_pos]
            small = hand.seat_ids[1 if hand.n == 2 else 0]
        events.extend(hand.start())
        self.engine = hand
        self.redeal_button = None
        self.last_button, self.last_small, self.last_big = button, small, big
        if dead_small:
            # the dead small blind's seat is last hand's big blind's: the button goes there
            self.last_small = self.undo[2]
        self.acted = False
        self.hand_no += 1
        self.bomb_next = None
        self.straddle_offer = None
        return events

    def price(self, seat: int) -> int | None:
        hand = self.engine
        # the price to call: ``top`` (a short all-in big blind does not lower it, 6.6)
        return self._owed(hand, seat, 0 if hand is None else hand.top)

    def big_blind_passed(self, seat: int) -> bool:
        # the big blind moved from last hand's (``undo``) to this hand's over ``seat``
        before = None if self.undo is None else self.undo[2]
        big = self.last_big
        if before is None or big is None or seat in (before, big):
            return False
        if before < big:
            return before < seat < big
        return seat > before or seat < big  # it went round past the highest seat

    def _hand(self) -> FlopHand:
        if self.engine is None:
            raise NotYourTurn("no hand is being played at this table")
        return self.engine

    def check(self, action: Action) -> None:
        hand = self._hand()
        if hand.can(action) is not None:
            hand.apply(action)  # validates first: raises the typed refusal, changing nothing

    def apply(self, action: Action) -> list[Event]:
        if not action.timed_out:
            self.acted = True
        return self._hand().apply(action)

    def timeout(self) -> tuple[list[Event], list[tuple[int, str]]]:
        hand = self._hand()
        events: list[Event] = []
        done: list[tuple[int, str]] = []
        for seat in sorted(hand.to_act()):
            if seat not in hand.to_act():
                continue  # the others' choices ended the decision
            act = hand.default_action(seat)
            events.extend(hand.apply(act))
            done.append((seat, CHOICE_WORDS.get(act.kind, act.kind + "s")))
        return events, done

    def computer_action(self, seat: int, rng: random.Random) -> Action:
        hand = self._hand()
        if hand.choice == "runout":
            return Action(seat, "twice")  # computer players agree to run it twice
        if hand.choice == "show":
            # a computer shows a 7-2 offsuit (it is paid), else mucks
            shows = is_seven_deuce(hand.hole[hand.position(seat)])
            return Action(seat, "show" if shows else "muck")
        return flop_policy.choose(hand, seat, rng)

    def new_turn(self, events: Sequence[Event]) -> bool:
        # one player's Once/Twice does not start the window again for the others
        return bool(events) and not all(e.kind == "runout_choice" for e in events)

    def _sized(self, hand: FlopHand, seat: int, opts: list[ActionOption]) -> list[ActionOption]:
        """The bet/raise option with its largest total and the button's named sizes."""
        span = hand.raise_range(seat)
        if span is None:
            return opts
        sizes = bet_sizes(hand, seat)
        return [
            o._replace(most=span[1], sizes=sizes) if o.allowed and o.kind in ("bet", "raise") else o
            for o in opts
        ]

    def options(self, seat: int) -> list[ActionOption]:
        straddle = self.straddle_options(seat)  # between hands: the next hand's straddle
        if straddle:
            return straddle + [ActionOption(k, False, "no hand is being played") for k in KINDS]
        hand = self.engine
        if hand is None or seat not in hand.seat_ids:
            return [ActionOption(k, False, "you are not in this hand") for k in KINDS]
        p = hand.position(seat)
        if hand.choice is not None and not hand.is_over:
            # Once / Twice, Show / Muck (the hand DM's buttons); the betting is over
            chosen = self.choice_options(hand, seat)
            why = hand.legal_actions(seat)[0].reason or "not now"
            if not chosen and p in hand.choices:
                why = f"you chose {hand.choices[p]}: waiting for the others"
            return chosen + [ActionOption(k, False, why) for k in KINDS]
        if not hand.is_over:
            # said as it is, not "not your turn": these players never act again this hand
            if hand.folded[p]:
                return [ActionOption(k, False, "you folded this hand") for k in KINDS]
            if hand.stacks[p] == 0:
                return [ActionOption(k, False, "you are all in this hand") for k in KINDS]
        return self._sized(hand, seat, hand.legal_actions(seat))

    def public_options(self) -> tuple[ActionOption, ...]:
        hand = self.engine
        if hand is None or hand.is_over or hand.choice is not None:
            return ()  # a decision outside the betting is made in the hand DMs
        to_act = hand.to_act()
        if not to_act:
            return ()
        seat = next(iter(to_act))
        return tuple(self._sized(hand, seat, hand.legal_actions(seat)))

    def finish(self, names: NameOf) -> HandEnd:
        hand = self._hand()
        result = hand.result or {}
        winners = frozenset(int(w) for p in result.get("pots", []) for w in p["shares"])
        detail = {int(s): dict(v) for s, v in result.get("shown", {}).items()}
        pause = None if self.acted else "a whole hand passed with no player acting"
        return HandEnd(
            history=hand_to_phh(hand, players=[names(s) for s in hand.seat_ids]),
            summary=dict(result),
            winners=winners,
            pause_reason=pause,
            detail=detail,
        )

    def void(self) -> None:
        # the voided hand is dealt again from the same blinds (the first hand: from its
        # button; a seat that left: the draw or the rule picks the next one)
        hand = self._hand()
        if self.undo is not None:
            self.last_button, self.last_small, self.last_big = self.undo
            self.undo = None
        if self.undo_house is not None:
            # a voided bomb pot called by the host is called again; the count goes back
            self.bomb_next = self.undo_house.get("bomb_next")
            self.hand_no = int(self.undo_house.get("hand_no", self.hand_no))
            self.undo_house = None
        if self.last_big is None:
            self.redeal_button = hand.dealer
        self.engine = None

    @property
    def dealer(self) -> int | None:
        return self.last_button

    def seat_show(self, seat: int) -> SeatShow:
        hand = self.engine
        if hand is None:
            return SeatShow("waiting", None)
        if seat not in hand.seat_ids:
            return SeatShow("sitting_out", None)
        p = hand.position(seat)
        shown = None
        name = None
        if hand.is_over and hand.result is not None:
            s = hand.result.get("shown", {}).get(str(seat))
            if s is not None:
                shown, name = _cards(s["cards"]), _shown_name(s) if "high" in s else None
        elif hand.choice == "runout" and p in hand.choices:
            shown = tuple(hand.hole[p])  # all in: the hands are shown (rules 6.8)
        if hand.folded[p]:
            status = "folded"
        elif hand.stacks[p] == 0 and not hand.is_over:
            status = "all_in"
        else:
            status = "playing"
        bet = 0 if hand.is_over else hand.bets[p]
        return SeatShow(status, hand.stacks[p], bet=bet, shown=shown, hand_name=name)

    def seat_cards(self, seat: int) -> SeatCards:
        hand = self.engine
        if hand is None or seat not in hand.seat_ids:
            return SeatCards()
        p = hand.position(seat)
        cards = tuple(hand.hole[p])
        name = None
        if len(hand.board) >= 3:
            names = []
            for b, board in enumerate(hand.boards):
                if len(board) < 3:
                    continue
                high, low = scores(hand, p, board)
                text = high_name(high)
                if hand.rules.split == "hi-lo":
                    text += f"; low: {low8_name(low)}"
                if b:  # a second board (run): its cards, then the hand it makes
                    text = f"{_cards_text([str(c) for c in board])}: {text}"
                names.append(text)
            name = (
                names[0]
                if len(names) == 1
                else " · ".join(
                    f"{'Run' if hand.runs > 1 else 'Board'} {b + 1}: {t}"
                    for b, t in enumerate(names)
                )
            )
        # the board is every player's face-up cards: the hand view shows it with theirs
        return SeatCards(cards=cards, down=cards, up=tuple(hand.board), hand_name=name)

    def community(self) -> tuple[Card, ...]:
        return () if self.engine is None else tuple(self.engine.board)

    def phase_text(self) -> str:
        hand = self.engine
        if hand is None:
            return "waiting for players"
        if hand.is_over:
            return "showdown" if (hand.result or {}).get("showdown") else "hand over"
        if hand.choice == "runout":
            return "all in: run it once or twice?"
        if hand.choice == "show":
            return "pot won: show or muck?"
        return {1: "before the flop", 2: "the flop", 3: "the turn", 4: "the river"}.get(
            hand.street, hand.street_name
        )

    def describe(self, event: Event, name: NameOf) -> str | None:
        return describe_event(self, event, name)

    def result_text(self, events: Sequence[Event], name: NameOf) -> str | None:
        return hand_result_text(self, events, name)
