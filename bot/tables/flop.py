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

Seat numbers are the store's seat numbers; clockwise order is ascending seat number.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from bot.engine.actions import Action, ActionOption
from bot.engine.cards import CARDS, Card
from bot.engine.errors import InvalidConfig, NotYourTurn
from bot.engine.events import Event
from bot.engine.flop import FlopHand, FlopRules, next_button
from bot.engine.flop import policy as flop_policy
from bot.engine.flop.phh import hand_to_phh
from bot.engine.flop.showdown import high_name, scores
from bot.engine.hands.low8 import low8_name
from bot.engine.shuffle import seed_deck
from bot.render.text import format_chips as _c
from bot.render.text import hand_name_text
from bot.tables.betting import BettingFamily
from bot.tables.blinds import plan_blinds
from bot.tables.games import (
    HandEnd,
    NameOf,
    SeatCards,
    SeatShow,
    _cards,
    _cards_text,
    _merge_settings,
)

GAMES = ("holdem", "omaha")
DEFAULT_BETTING = {"holdem": "no-limit", "omaha": "pot-limit"}
KINDS = ("fold", "check", "call", "bet", "raise")
BOARD_WORDS = {"flop": "Flop", "turn": "Turn", "river": "River"}


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


class FlopFamily(BettingFamily):
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

    def start_hand(
        self,
        stacks: Mapping[int, int],
        away: frozenset[int],
        rng: random.Random,
        *,
        seed: str | None = None,
        blinds: Mapping[int, str] | None = None,
    ) -> list[Event]:
        seats = self._players(stacks, away)[: self.max_players]
        events: list[Event] = []
        self.undo = (self.last_button, self.last_small, self.last_big)
        dead_small = False
        posts: tuple[int, ...] = ()
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
            button, small, big, seats = plan.button, plan.small, plan.big, list(plan.dealt)
            dead_small = small is None and not plan.heads_up
            posts = plan.posts
        else:
            # the first hand (or the first of this game at a mixed table): everyone plays
            if self.redeal_button in seats:
                button = self.redeal_button
            elif self.last_button is None:
                button, drawn = draw_for_button(seats, rng)
                events.append(drawn)
            else:
                button = next_button(seats, self.last_button)
            small = big = None
        hand = FlopHand(
            self.rules,
            [(s, stacks[s]) for s in seats],
            button,
            rng=rng if seed is None else None,
            # a verifiable table: the seed's deck, dealt from the top
            deck=None if seed is None else seed_deck(seed),
            dead_small=dead_small,
            posts=posts,
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
            act = hand.default_action(seat)
            events.extend(hand.apply(act))
            done.append((seat, act.kind + "s"))
        return events, done

    def computer_action(self, seat: int, rng: random.Random) -> Action:
        return flop_policy.choose(self._hand(), seat, rng)

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
        hand = self.engine
        if hand is None or seat not in hand.seat_ids:
            return [ActionOption(k, False, "you are not in this hand") for k in KINDS]
        p = hand.position(seat)
        if not hand.is_over:
            # said as it is, not "not your turn": these players never act again this hand
            if hand.folded[p]:
                return [ActionOption(k, False, "you folded this hand") for k in KINDS]
            if hand.stacks[p] == 0:
                return [ActionOption(k, False, "you are all in this hand") for k in KINDS]
        return self._sized(hand, seat, hand.legal_actions(seat))

    def public_options(self) -> tuple[ActionOption, ...]:
        hand = self.engine
        if hand is None or hand.is_over:
            return ()
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
                shown, name = _cards(s["cards"]), _shown_name(s)
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
            high, low = scores(hand, p)
            name = high_name(high)
            if hand.rules.split == "hi-lo":
                name += f"; low: {low8_name(low)}"
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
        return {1: "before the flop", 2: "the flop", 3: "the turn", 4: "the river"}.get(
            hand.street, hand.street_name
        )

    def describe(self, event: Event, name: NameOf) -> str | None:
        if not event.public:
            return None
        d = event.data
        k = event.kind
        if k == "draw_for_button":
            return f"{name(d['button'])} draws the highest card and takes the button"
        if k == "antes":
            paid = [a for a in d["amounts"] if a]
            if not paid:
                return None
            if len(paid) == 1 and self.rules.bb_ante:
                return f"The big blind posts the ante for the table: {_c(paid[0])}"
            return f"Everyone antes {_c(max(paid))}"
        if k == "blinds":
            hand = self.engine
            if hand is None:
                return None
            posts = []
            for p, a in enumerate(d["amounts"]):
                who = name(hand.seat_ids[p])
                if p in hand.posts:
                    posts.append(f"{who} posts a big blind {_c(a)} to play now")
                elif a:
                    # heads-up the button (position 1) posts the small blind
                    which = "big" if p == hand.bb_pos else "small"
                    posts.append(f"{who} posts the {which} blind {_c(a)}")
            if d.get("dead_small"):
                posts.append("no small blind this hand (its player left)")
            return "; ".join(posts) or None
        if k == "board":
            word = BOARD_WORDS.get(d["street"], d["street"])
            return f"{word}: {_cards_text(d['cards'])} (board {_cards_text(d['board'])})"
        if k == "action":
            who = name(d["seat"])
            act = d["action"]
            tail = (" all in" if d.get("all_in") else "") + (
                " (timed out)" if d.get("timed_out") else ""
            )
            if act in ("bet", "raise"):
                verb = "bets" if act == "bet" else "raises to"
                return f"{who} {verb} {_c(d['to'])}{tail}"
            if act == "call":
                return f"{who} calls {_c(d['amount'])}{tail}"
            return f"{who} {act}s{tail}"
        if k == "show":
            return f"{name(d['seat'])} shows {_cards_text(d['cards'])}: {_shown_name(d)}"
        if k == "muck":
            return f"{name(d['seat'])} mucks"
        if k == "award":
            if not d["amount"]:
                return None  # an empty pot: the uncalled big blind went back (the refund)
            if d.get("no_low"):
                return f"{name(d['seat'])} takes the whole pot (no low): {_c(d['amount'])}"
            return f"{name(d['seat'])} wins {_c(d['amount'])}{_award_tail(d)}"
        if k == "refund":
            return f"{_c(d['amount'])} uncalled chips go back to {name(d['seat'])}"
        return None

    def result_text(self, events: Sequence[Event], name: NameOf) -> str | None:
        if not any(e.kind == "hand_over" for e in events):
            return None
        hand = self.engine
        lines: list[str] = []
        if hand is not None and hand.board and any(e.kind == "show" for e in events):
            lines.append(f"Board: {_cards_text([str(c) for c in hand.board])}")
        lines += [
            f"{name(e.data['seat'])}: {_cards_text(e.data['cards'])} — {_shown_name(e.data)}"
            for e in events
            if e.kind == "show"
        ]
        pots = next((e.data["pots"] for e in events if e.kind == "pots"), [])
        if pots:
            lines.append(
                "; ".join(
                    f"{'Main pot' if k == 0 else f'side pot {k}'}: {_c(pot['amount'])}"
                    f" ({', '.join(name(s) for s in pot['seats'])})"
                    for k, pot in enumerate(pots)
                )
            )
        awards = [e.data for e in events if e.kind == "award"]
        if len(awards) == 1 and not awards[0]["amount"]:
            # heads-up with a small blind of 0: the big blind's own chips were all the pot
            back = next((e.data for e in events if e.kind == "refund"), None)
            them = name(awards[0]["seat"])
            took = f" their uncalled {back['amount']}" if back is not None else " their blind"
            lines.append(f"Everyone else folded: {them} takes back{took}; no chip changed hands")
            return "\n".join(lines)
        lines += _award_lines(awards, name, merged=len(pots) > 1)
        return "\n".join(lines)


def _shown_name(d: Mapping[str, Any]) -> str:
    text = hand_name_text(str(d["high"]))
    if "low" in d:
        text += f"; low: {hand_name_text(str(d['low']))}"
    return text


def _pot_name(k: int) -> str:
    return "the main pot" if k == 0 else f"side pot {k}"


def _award_tail(d: Mapping[str, Any]) -> str:
    parts = []
    if d.get("pot", 0):
        parts.append(_pot_name(int(d["pot"])))
    if "half" in d:
        parts.append(f"{d['half']} half")
    return f" ({', '.join(parts)})" if parts else ""


def _award_lines(
    awards: Sequence[Mapping[str, Any]], name: NameOf, *, merged: bool = False
) -> list[str]:
    """One line per pot: who takes it, or each of its halves, or who splits them.
    ``merged``: there were side pots, and pots with the same winners are awarded as one
    (the engine's order), so a single award is "the pots".

    >>> names = {1: "Ann", 2: "Bob", 3: "Cy"}.__getitem__
    >>> _award_lines([{"pot": 0, "seat": 1, "amount": 90}], names)
    ['The pot (90): Ann wins it']
    >>> print(_award_lines([{"pot": 0, "seat": 1, "amount": 50, "half": "high"},
    ...                     {"pot": 0, "seat": 2, "amount": 25, "half": "low"},
    ...                     {"pot": 0, "seat": 3, "amount": 25, "half": "low"}], names)[0])
    ... # doctest: +NORMALIZE_WHITESPACE
    The pot (100): Ann wins the high half (50);
    Bob and Cy split the low half, quartered (Bob 25, Cy 25)
    >>> _award_lines([{"pot": 0, "seat": 1, "amount": 90, "no_low": True}], names)
    ['The pot (90): Ann takes the whole pot (no low)']
    """
    by_pot: dict[int, dict[str | None, list[tuple[int, int]]]] = {}
    for d in awards:
        halves = by_pot.setdefault(int(d.get("pot", 0)), {})
        halves.setdefault(d.get("half"), []).append((int(d["seat"]), int(d["amount"])))
    several = len(by_pot) > 1
    lines = []
    for k, halves in sorted(by_pot.items()):
        total = sum(a for got in halves.values() for _, a in got)
        parts = []
        no_low = any(d.get("no_low") for d in awards if int(d.get("pot", 0)) == k)
        for half, got in halves.items():
            whole = "them" if merged and len(by_pot) == 1 else "it"
            what = whole if half is None else f"the {half} half"
            if no_low:
                what = "the whole pot (no low)"  # hi-lo: no hand has a low, the high scoops
            if len(got) == 1:
                seat, amount = got[0]
                verb = "takes" if no_low else "wins"
                parts.append(f"{name(seat)} {verb} {what}" + (f" ({_c(amount)})" if half else ""))
                continue
            who = " and ".join(name(s) for s, _ in got)
            # hi-lo: two players sharing one half of a pot get a quarter each
            quartered = ", quartered" if len(halves) == 2 and len(got) == 2 else ""
            each = ", ".join(f"{name(s)} {_c(a)}" for s, a in got)
            parts.append(f"{who} split {what}{quartered} ({each})")
        pot = _pot_name(k).capitalize() if several or k else "The pot"
        if merged and not several:
            pot = "The pots"
        lines.append(f"{pot} ({_c(total)}): " + "; ".join(parts))
    return lines
