"""The fixed-limit stud games at a table: Razz, Seven-card Stud and Stud Hi-Lo (RULES §4
and the Stud part of the rule book), one adapter over the shared stud engine
(:mod:`bot.engine.stud`).

A table is a sequence of *hands*, the deal rotating (RULES §4.3). The variant is the only
difference: which hand class deals (bring-in, opener, showdown), which rules model holds
the stakes, and how a shown hand is named. The table's game key is ``razz`` or ``stud``;
a ``stud`` table's rules carry ``split`` (``high`` or ``hi-lo``), as ``/stud split:`` sets.

The session (the table snapshot's game part) has the same keys for every variant, and is
the format Razz tables have always saved: ``engine`` (the hand's snapshot), ``last_dealer``,
``acted`` and ``hand_start_dealer``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Final, Literal

from bot.engine.actions import Action, ActionOption
from bot.engine.cards import Card, parse_card
from bot.engine.errors import IllegalAction, InvalidConfig, NotYourTurn
from bot.engine.events import Event
from bot.engine.hands import high_name, high_score, low8_name, low8_score, low_name
from bot.engine.razz import RazzHand, RazzRules, draw_for_deal
from bot.engine.razz import policy as razz_policy
from bot.engine.shuffle import seed_deck
from bot.engine.stud import StudHand, StudRules
from bot.engine.stud import policy as stud_policy
from bot.engine.stud.games import StudHighHand, StudHiLoHand
from bot.render.rulebook import cite
from bot.render.rulebook_stud import SPLIT_ROW
from bot.render.text import format_chips as _c
from bot.render.text import hand_name_text, shown_hand_name
from bot.tables.betting import BettingFamily
from bot.tables.games import (
    HandEnd,
    NameOf,
    SeatCards,
    SeatShow,
    _cards,
    _cards_text,
    _merge_settings,
)

Variant = Literal["razz", "stud", "stud8"]

#: The action kind of Stud's big bet on 4th street with a pair showing (RULES 8.2).
BIG_BET: Final = "big_bet"
#: The table game keys this adapter plays.
STUD_GAMES: Final = frozenset({"razz", "stud"})
#: The hand class of each variant.
HANDS: Final[Mapping[str, type[StudHand]]] = {
    "razz": RazzHand,
    "stud": StudHighHand,
    "stud8": StudHiLoHand,
}
#: ``/stud split:`` -> the variant.
SPLITS: Final[Mapping[str, Variant]] = {"high": "stud", "hi-lo": "stud8"}
SPLIT_OF: Final[Mapping[str, str]] = {v: k for k, v in SPLITS.items()}
#: The table's game key of each variant (``stud8`` is a ``stud`` table split hi-lo).
GAME_OF: Final[Mapping[str, str]] = {"razz": "razz", "stud": "stud", "stud8": "stud"}
TITLES: Final[Mapping[str, str]] = {
    "razz": "Razz",
    "stud": "Seven-card Stud",
    "stud8": "Stud Hi-Lo",
}
_ORDINAL = {3: "rd"}


def _street(n: int) -> str:
    return f"{n}{_ORDINAL.get(n, 'th')} street"


def variant_of(game: str, values: Mapping[str, Any]) -> Variant:
    """The variant a table of ``game`` plays with these rule values (``split`` for stud)."""
    if game == "razz":
        if "split" in values:
            raise InvalidConfig("split", "Razz is low only: it has no split option")
        return "razz"
    if game not in STUD_GAMES:
        raise InvalidConfig("game", f"not a stud game: {game!r}")
    split = values.get("split", "high")
    variant = SPLITS.get(split) if isinstance(split, str) else None
    if variant is None:
        raise InvalidConfig("split", f"must be 'high' or 'hi-lo', got {split!r}")
    return variant


class StudFamily(BettingFamily):
    """Razz, Seven-card Stud and Stud Hi-Lo. Session: the last dealer (the first by
    :func:`draw_for_deal`), and whether anyone acted in the hand (an all-timeout hand
    pauses the table)."""

    def __init__(self, variant: Variant, rules: StudRules) -> None:
        if variant not in HANDS:
            raise InvalidConfig("variant", f"unknown stud variant {variant!r}")
        self.variant: Variant = variant
        self.game = GAME_OF[variant]
        self.hand_class = HANDS[variant]
        self.rules = rules
        self.engine: StudHand | None = None
        self.last_dealer: int | None = None
        self.acted = False
        self.hand_start_dealer: int | None = None
        self._legal: tuple[StudHand | None, int, dict[int, list[ActionOption]]] = (None, 0, {})
        """legal_actions per seat for one engine state (the hand, its PHH action count):
        the table view, each private view and the publish step ask for the same ones."""
        self._named: dict[tuple[Card, ...], str] = {}
        """Hand names by cards (a seat's cards change only when dealt)."""

    @property
    def hi_lo(self) -> bool:
        return self.variant == "stud8"

    @classmethod
    def parse(
        cls, game: str, options: Mapping[str, Any], settings: Mapping[str, Any] | None = None
    ) -> StudFamily:
        """A new table's adapter: the league's settings for ``game`` under the options."""
        values = _merge_settings(settings, options)
        variant = variant_of(game, values)
        values.pop("split", None)
        return cls(variant, cls.rules_model(variant).create(**values))

    @classmethod
    def stored(cls, game: str, rules: Mapping[str, Any]) -> StudFamily:
        """A stored table's adapter, from its rules row (:attr:`rules_json`)."""
        values = dict(rules)
        variant = variant_of(game, values)
        values.pop("split", None)
        return cls(variant, cls.rules_model(variant).create(**values))

    @staticmethod
    def rules_model(variant: str) -> type[StudRules]:
        return RazzRules if variant == "razz" else StudRules

    @property
    def rules_json(self) -> dict[str, Any]:
        data = self.rules.model_dump()
        if self.game == "stud":
            return {"split": SPLIT_OF[self.variant], **data}
        return data

    def describe_rules(self) -> tuple[tuple[str, str, str], ...]:
        rows = tuple(self.rules.describe())
        if self.game == "stud":
            name, _, meaning = SPLIT_ROW
            return ((name, SPLIT_OF[self.variant], meaning), *rows)
        return rows

    # ------------------------------------------------------------------ session

    def session_json(self) -> dict[str, Any]:
        return {
            "engine": None if self.engine is None else self.engine.snapshot(),
            "last_dealer": self.last_dealer,
            "acted": self.acted,
            "hand_start_dealer": self.hand_start_dealer,
        }

    def load(self, raw: Mapping[str, Any]) -> None:
        eng = raw.get("engine")
        self.engine = None if eng is None else self.hand_class.restore(eng)
        self.last_dealer = raw.get("last_dealer")
        self.acted = bool(raw.get("acted", False))
        self.hand_start_dealer = raw.get("hand_start_dealer")

    # ------------------------------------------------------------------ the hand

    def follow_deal(self, last_dealer: int | None) -> None:
        # a mixed table turns to this game: the deal goes on clockwise from the last dealer
        self.last_dealer = last_dealer

    def start_hand(
        self,
        stacks: Mapping[int, int],
        away: frozenset[int],
        rng: random.Random,
        *,
        seed: str | None = None,
        blinds: Mapping[int, str] | None = None,
    ) -> list[Event]:
        seats = self._players(stacks, away)  # no blinds: everyone is dealt in (antes)
        if len(seats) > self.max_players:
            seats = seats[: self.max_players]
        events: list[Event] = []
        if self.last_dealer is None:
            dealer, events = draw_for_deal(seats, rng)  # RULES §4.3, every stud game
        else:
            # RULES §4.3: the deal moves clockwise each hand
            later = [s for s in seats if s > self.last_dealer]
            dealer = later[0] if later else seats[0]
        players = [(s, stacks[s]) for s in seats]
        if seed is None:
            hand = self.hand_class(self.rules, players, dealer, rng=rng)
        else:  # a verifiable table: the seed's deck, dealt from the top
            hand = self.hand_class(self.rules, players, dealer, deck=seed_deck(seed))
        events.extend(hand.start())
        self.engine = hand
        self.hand_start_dealer = self.last_dealer
        self.last_dealer = dealer
        self.acted = False
        return events

    def price(self, seat: int) -> int | None:
        hand = self.engine
        if hand is None:
            return None
        top = max(hand.bets, default=0)
        if hand.bring_in_pending:
            top = max(top, self.rules.bring_in)  # the least anyone will face on 3rd street
        return self._owed(hand, seat, top)

    def _hand(self) -> StudHand:
        if self.engine is None:
            raise NotYourTurn("no hand is being played at this table")
        return self.engine

    def _legal_actions(self, hand: StudHand, seat: int) -> list[ActionOption]:
        done = len(hand.phh_actions)  # every action and deal adds one
        held, at, cached = self._legal
        if held is not hand or at != done:
            cached = {}
            self._legal = (hand, done, cached)
        opts = cached.get(seat)
        if opts is None:
            opts = cached[seat] = hand.legal_actions(seat)
        return list(opts)

    def _big_bet(self, hand: StudHand, seat: int) -> ActionOption | None:
        """Stud's open pair on 4th street (RULES 8.2): the bet or raise to the big bet, as
        an option of its own (``big_bet``) beside the plain one, which stays the small bet.
        None when it is not ``seat``'s to make now (or the plain action is already big)."""
        if not hand.OPEN_PAIR_BIG_BET or not hand.open_pair_on_4th():
            return None
        plain = next(
            (
                o
                for o in self._legal_actions(hand, seat)
                if o.allowed and o.kind in ("bet", "raise")
            ),
            None,
        )
        if plain is None:
            return None
        p = hand.position(seat)
        mine = hand.bets[p]
        # a big bet over the last full bet or raise (RRP; pokerkit's reading: over the top)
        base = hand.level if hand.HALF_BET_RULE else max(hand.bets)
        to = min(hand.stacks[p] + mine, base + self.rules.big_bet)
        if to <= plain.to or hand.can(Action(seat, plain.kind, amount=to)) is not None:
            return None
        return ActionOption(BIG_BET, True, None, to - mine, to)

    def _engine_action(self, hand: StudHand, action: Action) -> Action:
        """The engine's action for ``action``: ``big_bet`` is a bet or raise to the big bet."""
        if action.kind != BIG_BET:
            return action
        big = self._big_bet(hand, action.seat)
        if big is None:
            raise IllegalAction(
                f"the big bet is only allowed on 4th street when a pair shows ({cite('8.2')})"
            )
        kind = "bet" if max(hand.bets) == 0 else "raise"
        return action._replace(kind=kind, amount=big.to)

    def check(self, action: Action) -> None:
        hand = self._hand()
        action = self._engine_action(hand, action)
        if hand.can(action) is not None:
            hand.apply(action)  # validates first: raises the typed refusal, changing nothing

    def apply(self, action: Action) -> list[Event]:
        hand = self._hand()
        action = self._engine_action(hand, action)
        if not action.timed_out:
            self.acted = True
        return hand.apply(action)

    def timeout(self) -> tuple[list[Event], list[tuple[int, str]]]:
        hand = self._hand()
        events: list[Event] = []
        done: list[tuple[int, str]] = []
        for seat in sorted(hand.to_act()):
            act = hand.default_action(seat)
            events.extend(hand.apply(act))
            done.append((seat, {"bring_in": "posts the bring-in"}.get(act.kind, act.kind + "s")))
        return events, done

    def computer_action(self, seat: int, rng: random.Random) -> Action:
        hand = self._hand()
        if isinstance(hand, RazzHand):
            return razz_policy.choose(hand, seat, rng)
        return stud_policy.choose(hand, seat, rng)

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
        return self._with_big_bet(hand, seat)

    def _with_big_bet(self, hand: StudHand, seat: int) -> list[ActionOption]:
        opts = self._legal_actions(hand, seat)
        big = None if hand.is_over else self._big_bet(hand, seat)
        return opts if big is None else [*opts, big]

    def public_options(self) -> tuple[ActionOption, ...]:
        hand = self.engine
        if hand is None or hand.is_over:
            return ()
        to_act = hand.to_act()
        if not to_act:
            return ()
        return tuple(self._with_big_bet(hand, next(iter(to_act))))

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

    # ------------------------------------------------------------------ the table

    @property
    def dealer(self) -> int | None:
        return self.last_dealer

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
                shown, name = _cards(s["cards"]), shown_hand_name(s)
        if hand.folded[p]:
            status = "folded"
        elif hand.stacks[p] == 0 and not hand.is_over:
            status = "all_in"
        else:
            status = "playing"
        return SeatShow(
            status, hand.stacks[p], bet=hand.bets[p], up_cards=up, shown=shown, hand_name=name
        )

    def _name_cards(self, cards: list[Card]) -> str:
        if self.variant == "razz":
            return low_name(cards)
        high = high_name(high_score(cards))
        if not self.hi_lo:
            return high
        return f"{high}; " + (
            "no low yet" if (low := low8_score(cards)) is None else f"low {low8_name(low)}"
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
                if len(self._named) > 256:
                    self._named.clear()
                name = self._named[key] = self._name_cards(list(key))
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
        return _street(hand.street)

    # ------------------------------------------------------------------ texts

    def describe(self, event: Event, name: NameOf) -> str | None:
        d = event.data
        if not event.public:
            return None
        k = event.kind
        if k == "draw_for_deal":
            return f"{name(d['dealer'])} draws the lowest card and deals first"
        if k == "antes":
            return f"Everyone antes {_c(max(d['amounts']))}" if d["amounts"] else None
        if k == "street":
            return _street(d["street"])
        if k == "community":
            return f"Not enough cards: {parse_card(d['card']).pretty} is dealt face up for all"
        if k == "action":
            who = name(d["seat"])
            act = d["action"]
            tail = " (timed out)" if d.get("timed_out") else ""
            if act == "bring_in":
                return f"{who} brings in {_c(d['amount'])}{tail}"
            if act == "bet":  # a plain bet: its amount (nothing was bet before it)
                return f"{who} bets {_c(d['to'])}{tail}"
            if act in ("complete", "raise"):
                verb = {"complete": "completes", "raise": "raises"}[act]
                return f"{who} {verb} to {_c(d['to'])}{tail}"
            if act == "call":
                return f"{who} calls {_c(d['amount'])}{tail}"
            return f"{who} {act}s{tail}"
        if k == "show":
            named = hand_name_text(shown_hand_name(d))
            return f"{name(d['seat'])} shows {_cards_text(d['cards'])}: {named}"
        if k == "muck":
            return f"{name(d['seat'])} mucks"
        if k == "award":
            if not d["amount"]:
                return None  # an empty pot: the uncalled bring-in went back (the refund)
            return f"{name(d['seat'])} wins {_c(d['amount'])}"
        if k == "refund":
            return f"{_c(d['amount'])} uncalled chips go back to {name(d['seat'])}"
        return None

    def _split_lines(self, name: NameOf) -> list[str]:
        """Hi-Lo: how each pot was shared, half by half (``parts`` of the result)."""
        hand = self.engine
        pots = [] if hand is None or hand.result is None else hand.result.get("pots", [])
        if not pots or not any("parts" in p for p in pots):
            return []
        lines: list[str] = []
        for k, pot in enumerate(pots):
            label = ("Main pot" if k == 0 else f"Side pot {k}") if len(pots) > 1 else "Pot"
            parts = pot.get("parts", [])
            if len(parts) < 2:
                winners = [int(s) for s in parts[0]["winners"]] if parts else []
                who = " and ".join(name(s) for s in winners)
                verb = "takes" if len(winners) == 1 else "split"
                lines.append(f"{label} {_c(pot['amount'])}: {who} {verb} the whole pot (no low)")
                continue
            halves = []
            for part in parts:
                winners = [int(s) for s in part["winners"]]
                if len(winners) == 1:
                    halves.append(f"{part['part']} {_c(part['amount'])} to {name(winners[0])}")
                    continue
                got = part.get("shares")
                if got is None:  # a result saved before each part kept its shares
                    shares = _shares(part["amount"], len(winners))
                else:
                    shares = [int(got[str(s)]) for s in winners]
                who = ", ".join(f"{name(s)} {_c(c)}" for s, c in zip(winners, shares, strict=True))
                halves.append(f"{part['part']} {_c(part['amount'])} split {who}")
            lines.append(f"{label} {_c(pot['amount'])}: " + "; ".join(halves))
        return lines

    def result_text(self, events: Sequence[Event], name: NameOf) -> str | None:
        if not any(e.kind == "hand_over" for e in events):
            return None
        awards = [e.data for e in events if e.kind == "award"]
        if len(awards) == 1 and not awards[0]["amount"]:
            # no antes, everyone folded to the bring-in: its own chips were all the pot
            back = next((e.data for e in events if e.kind == "refund"), None)
            took = f" their uncalled {back['amount']}" if back is not None else " the bring-in"
            return (
                f"Everyone else folded: {name(int(awards[0]['seat']))} takes back{took};"
                " no chip changed hands"
            )
        lines = [
            f"{name(e.data['seat'])}: {_cards_text(e.data['cards'])}"
            f" — {hand_name_text(shown_hand_name(e.data))}"
            for e in events
            if e.kind == "show"
        ]
        if self.hi_lo and any(e.kind == "show" for e in events):
            lines += self._split_lines(name)
        won: dict[int, int] = {}
        for e in events:
            if e.kind == "award":
                seat = int(e.data["seat"])
                won[seat] = won.get(seat, 0) + int(e.data["amount"])
        if self.hi_lo:
            # one line per winner: with a split and side pots a seat has several awards
            lines += [f"{name(s)} wins {_c(c)}" for s, c in won.items()]
        else:
            lines += [
                f"{name(e.data['seat'])} wins {_c(e.data['amount'])}"
                for e in events
                if e.kind == "award"
            ]
        return "\n".join(lines)


def _shares(amount: int, n: int) -> list[int]:
    """``amount`` split ``n`` ways as the engine splits it (RULES §4.10): the odd chips all
    to the first winner clockwise from the dealer's left, the order the result lists them."""
    base, odd = divmod(amount, n)
    return [base + (odd if i == 0 else 0) for i in range(n)]
