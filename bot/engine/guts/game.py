"""One game of Zoot or Wheelers: ante, deal, lay-down windows and exchanges, showdown (RULES §1).

The engine is pure and deterministic given its deck and RNG. It follows check / can / do:
:meth:`GutsGame.legal_actions` and :meth:`GutsGame.can` say what a seat may do and why not,
:meth:`GutsGame.apply` does it and returns events. Every event says who may see it; a
player's cards appear only in events private to that player until the showdown.

Event kinds (``data`` keys):

- ``game_started`` {dealer, ante, players, sitting_out: {seat: reason}}
- ``ante`` {seat, amount, round} with a ChipMove ``ante``; ``ante_excused`` {seat}
- ``deal`` private {seat, cards}; ``draw`` private {seat, card}; ``dealt`` {count, seats}
- ``window_opened`` {round, order, seats, seconds}
- ``choice`` private {seat, choice, timed_out} (simultaneous; ``chosen`` {chosen, of} public)
- ``played_on`` / ``laid_down`` {seat, timed_out} (in turn: the choice is public)
- ``window_closed`` {round, lay_downs, challenger}
- ``out`` {seat, reason}: cannot pay the ante of an exchange (RULES §1.5)
- ``discard_opened`` {round, seats}; ``discard`` private {seat, card, timed_out};
  ``discarded`` {chosen, of}; ``refill`` {count}; ``exchanged`` {round}
- ``paused`` {reason}; ``resumed`` {}
- ``showdown`` {challenger, hands: {seat: {cards, name}}}
- ``award`` {seat, amount} (ChipMove ``award``); ``match`` {seat, amount} (ChipMove ``match``)
- ``game_over`` {result}
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, cast

from bot.engine.actions import Action, ActionOption
from bot.engine.cards import CARDS, Card, Deck, Shuffler, format_cards
from bot.engine.errors import (
    GameError,
    GameOver,
    IllegalAction,
    InvalidConfig,
    NotYourTurn,
    SnapshotError,
)
from bot.engine.events import ChipMove, Event, private, public
from bot.engine.guts.rules import GutsRules
from bot.engine.guts.setup import GutsSetup
from bot.engine.hands import guts_ranking
from bot.engine.shuffle import SeededShuffle

Phase = Literal["ready", "window", "discard", "paused", "over"]
ACTION_KINDS: tuple[str, ...] = ("lay_down", "play_on", "discard")
SNAPSHOT_VERSION = 1


class GutsRanking(Protocol):
    """The hand ranking the engine needs (``bot.engine.hands.guts_ranking``)."""

    def score(self, cards: Sequence[Card]) -> int: ...

    def name(self, cards: Sequence[Card]) -> str: ...

    def strength(self, cards: Sequence[Card]) -> float: ...

    def best_discard(
        self, cards: Sequence[Card], *, unseen: Iterable[Card] | None = None
    ) -> Card: ...


def load_ranking(rules: GutsRules) -> GutsRanking:
    """The ranking of the table's game (Zoot or Wheelers, with its corner rule)."""
    return guts_ranking(rules.game, wraparound=rules.wraparound)


class NotEnoughPlayers(GameError):
    """Fewer players than the game needs can play it (they are away or cannot ante)."""


@dataclass(frozen=True, slots=True)
class ShownHand:
    cards: tuple[Card, ...]
    name: str


@dataclass(frozen=True, slots=True)
class GutsResult:
    """How a game ended (RULES §1.7).

    ``awards`` are the chips each winner took; ``matched`` what the challenger paid in
    (0 if the challenger won); ``carried_pot`` the pot ledger carried into the next game;
    ``net`` each seat's balance change over the game.
    """

    challenger: int | None
    winners: tuple[int, ...]
    awards: Mapping[int, int]
    matched: int
    carried_pot: Mapping[int, int]
    net: Mapping[int, int]
    hands: Mapping[int, ShownHand] = field(default_factory=dict)

    @property
    def carried_total(self) -> int:
        return sum(self.carried_pot.values())

    def to_json(self) -> dict[str, Any]:
        return {
            "challenger": self.challenger,
            "winners": list(self.winners),
            "awards": {str(s): a for s, a in self.awards.items()},
            "matched": self.matched,
            "carried_pot": {str(s): a for s, a in self.carried_pot.items()},
            "net": {str(s): a for s, a in self.net.items()},
            "hands": {
                str(s): {"cards": [str(c) for c in h.cards], "name": h.name}
                for s, h in self.hands.items()
            },
        }

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> GutsResult:
        return cls(
            challenger=None if raw["challenger"] is None else int(raw["challenger"]),
            winners=tuple(int(s) for s in raw["winners"]),
            awards={int(s): int(a) for s, a in raw["awards"].items()},
            matched=int(raw["matched"]),
            carried_pot={int(s): int(a) for s, a in raw["carried_pot"].items()},
            net={int(s): int(a) for s, a in raw["net"].items()},
            hands={
                int(s): ShownHand(tuple(_card(c, "result.hands") for c in h["cards"]), h["name"])
                for s, h in raw["hands"].items()
            },
        )


def _card(code: Any, where: str) -> Card:
    if not isinstance(code, str) or len(code) != 2:
        raise SnapshotError(f"{where}: {code!r} is not a card code")
    from bot.engine.cards import parse_card

    try:
        return parse_card(code)
    except ValueError:
        raise SnapshotError(f"{where}: {code!r} is not a card code") from None


def _codes(cards: Sequence[Card]) -> list[str]:
    return [str(c) for c in cards]


class GutsGame:
    """One game of Zoot or Wheelers, from the ante to the showdown.

    ``setup`` gives the seats, balances, dealer, carried pot, excused and away seats;
    ``rng`` shuffles the deck and the discards (default ``secrets.SystemRandom``; a
    verifiable table's :class:`~bot.engine.shuffle.SeededShuffle`); ``deck`` stacks the
    cards (tests, replays); ``ranking`` defaults to the game's ranking.
    Call :meth:`start` to ante and deal.
    """

    def __init__(
        self,
        rules: GutsRules,
        setup: GutsSetup,
        *,
        rng: Shuffler | None = None,
        deck: Deck | None = None,
        ranking: GutsRanking | None = None,
    ) -> None:
        setup.check(max_players=rules.max_players)
        self.rules = rules
        self.setup = setup
        self.ranking = ranking if ranking is not None else load_ranking(rules)
        self._rng: Shuffler = rng if rng is not None else secrets.SystemRandom()
        if deck is not None and len(set(deck.cards)) != len(deck):
            raise InvalidConfig("deck", "a card appears twice in the stacked deck")
        self._deck = deck if deck is not None else Deck(rng=self._rng)
        self._order = setup.order()
        self._stacks: dict[int, int] = {s: setup.stacks[s] for s in setup.seats}
        self._contrib: dict[int, int] = {s: c for s, c in setup.pot.items() if c > 0}
        self._idle: dict[int, int] = {s: setup.idle.get(s, 0) for s in setup.seats}
        self._phase: Phase = "ready"
        self._players: tuple[int, ...] = ()
        self._sitting_out: dict[int, str] = {}
        self._dead: dict[int, str] = {}
        self._hands: dict[int, list[Card]] = {}
        self._discards: list[Card] = []
        self._round = 0
        self._choices: dict[int, str] = {}
        self._discard_choices: dict[int, Card] = {}
        self._turn = 0
        self._challenger: int | None = None
        self._acted_round = False
        self._log: list[str] = []
        self._result: GutsResult | None = None

    # ----------------------------------------------------------------- reading the state

    @property
    def phase(self) -> Phase:
        return self._phase

    @property
    def over(self) -> bool:
        return self._phase == "over"

    @property
    def paused(self) -> bool:
        """A whole round passed with no player acting: the table waits (RULES §1.11)."""
        return self._phase == "paused"

    @property
    def round(self) -> int:
        """1 for the first lay-down window, +1 after each exchange."""
        return self._round

    @property
    def stacks(self) -> Mapping[int, int]:
        return dict(self._stacks)

    @property
    def pot(self) -> int:
        return sum(self._contrib.values())

    @property
    def pot_ledger(self) -> Mapping[int, int]:
        """Who paid what into the pot standing now (RULES §1.10)."""
        return dict(self._contrib)

    @property
    def players(self) -> tuple[int, ...]:
        """Seats playing this game, clockwise from the dealer's left."""
        return self._players

    @property
    def live(self) -> tuple[int, ...]:
        """Players whose hands are still live, clockwise from the dealer's left."""
        return tuple(s for s in self._players if s not in self._dead)

    @property
    def sitting_out(self) -> Mapping[int, str]:
        return dict(self._sitting_out)

    @property
    def dead(self) -> Mapping[int, str]:
        return dict(self._dead)

    @property
    def idle(self) -> Mapping[int, int]:
        """Windows each seat has let run out in a row (RULES §1.11)."""
        return dict(self._idle)

    @property
    def last_round_acted(self) -> bool:
        """Whether any player acted (not a timeout) since the last ante."""
        return self._acted_round

    @property
    def challenger(self) -> int | None:
        return self._challenger

    @property
    def stock(self) -> tuple[Card, ...]:
        return tuple(self._deck.cards)

    @property
    def discard_pile(self) -> tuple[Card, ...]:
        return tuple(self._discards)

    @property
    def log(self) -> tuple[str, ...]:
        """The game's actions in hand-history notation (see ``history``)."""
        return tuple(self._log)

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The seat's current five cards (empty if it was not dealt in)."""
        return tuple(self._hands.get(seat, ()))

    @property
    def result(self) -> GutsResult:
        if self._result is None:
            raise GameError("the game is not over yet")
        return self._result

    def _p(self, seat: int) -> str:
        """The hand-history name of a seat: p1 is the dealer's left."""
        return f"p{self._order.index(seat) + 1}"

    # ----------------------------------------------------------------- check / can

    def to_act(self) -> frozenset[int]:
        """Seats that may act now."""
        if self._phase == "window":
            if self.rules.laydown_order == "in_turn":
                return frozenset({self.live[self._turn]})
            return frozenset(s for s in self.live if s not in self._choices)
        if self._phase == "discard":
            return frozenset(s for s in self.live if s not in self._discard_choices)
        return frozenset()

    def _not_acting_reason(self, seat: int) -> GameError | None:
        if self._phase == "over":
            return GameOver("the game is over")
        if self._phase == "ready":
            return NotYourTurn("the cards have not been dealt yet")
        if self._phase == "paused":
            return NotYourTurn("the table is paused")
        if seat not in self._players:
            reason = self._sitting_out.get(seat, "not at this table")
            return NotYourTurn(f"seat {seat} is not in this game ({reason})")
        if seat in self._dead:
            return NotYourTurn(f"seat {seat} is out of this game ({self._dead[seat]})")
        if seat in self.to_act():
            return None
        if self._phase == "window" and self.rules.laydown_order == "in_turn":
            return NotYourTurn(f"it is seat {self.live[self._turn]}'s turn to choose")
        return NotYourTurn("you have already chosen in this window")

    def _lay_down_reason(self, seat: int) -> str | None:
        if self.rules.laydown_requires_cover and self._stacks[seat] < self.pot:
            return (
                f"laying down needs the pot ({self.pot} chips) in your balance to match it; "
                f"you have {self._stacks[seat]} (house rule laydown_requires_cover)"
            )
        return None

    def _check(self, action: Action) -> GameError | None:
        if action.kind not in ACTION_KINDS:
            return IllegalAction(
                f"{action.kind!r} is not a guts action (use {', '.join(ACTION_KINDS)})"
            )
        blocked = self._not_acting_reason(action.seat)
        if blocked is not None:
            return blocked
        if action.kind in ("lay_down", "play_on"):
            if self._phase != "window":
                return IllegalAction("now is the time to discard one card, not to lay down")
            if action.kind == "lay_down":
                reason = self._lay_down_reason(action.seat)
                if reason is not None:
                    return IllegalAction(reason)
            if action.card is not None:
                return IllegalAction(f"{action.kind} takes no card")
            return None
        # discard
        if self._phase != "discard":
            return IllegalAction("discards come after a window where nobody laid down")
        if action.card is None:
            return IllegalAction("choose the card to discard")
        if action.card not in self._hands[action.seat]:
            return IllegalAction(f"{Card(action.card).pretty} is not in your hand")
        return None

    def can(self, action: Action) -> str | None:
        """Why ``action`` is illegal now, or None if it is legal."""
        err = self._check(action)
        return None if err is None else err.message

    def legal_actions(self, seat: int) -> list[ActionOption]:
        """Every guts action kind for ``seat`` now, allowed or with the reason it is not."""
        blocked = self._not_acting_reason(seat)
        window = self._phase == "window"
        out: list[ActionOption] = []
        for kind in ("lay_down", "play_on"):
            reason: str | None = None
            if blocked is not None:
                reason = blocked.message
            elif not window:
                reason = "now is the time to discard one card"
            elif kind == "lay_down":
                reason = self._lay_down_reason(seat)
            amount = None
            if kind == "lay_down" and window:
                # What the challenger risks: the pot, or what they have if not covering.
                amount = min(self.pot, self._stacks.get(seat, 0))
            out.append(ActionOption(kind, reason is None, reason, amount=amount))
        hand = tuple(self._hands.get(seat, ()))
        if blocked is not None:
            out.append(ActionOption("discard", False, blocked.message))
        elif self._phase != "discard":
            out.append(ActionOption("discard", False, "discards come after a lay-down window"))
        else:
            suggested = self.ranking.best_discard(hand)
            out.append(ActionOption("discard", True, cards=hand, suggested=suggested))
        return out

    def default_action(self, seat: int) -> Action:
        """What the table does for a seat whose time ran out: play on, or the best discard."""
        if self._phase == "discard":
            card = self.ranking.best_discard(tuple(self._hands[seat]))
            return Action(seat, "discard", card=card, timed_out=True)
        return Action(seat, "play_on", timed_out=True)

    # ----------------------------------------------------------------- do

    def start(self) -> list[Event]:
        """Antes (RULES §1.2) and the deal (§1.3); opens the first lay-down window."""
        if self._phase != "ready":
            raise GameOver("the game has already started")
        ante = self.rules.ante
        players: list[int] = []
        sitting_out: dict[int, str] = {}
        for seat in self._order:
            if seat in self.setup.away:
                sitting_out[seat] = "away"
            elif seat in self.setup.excused or self._stacks[seat] >= ante:
                players.append(seat)
            else:
                sitting_out[seat] = f"cannot pay the ante ({ante})"
        need = max(2, self.rules.min_players)
        if len(players) < need:
            raise NotEnoughPlayers(
                f"only {len(players)} player(s) can play; a game needs {need}"
                + "".join(f"; seat {s}: {r}" for s, r in sitting_out.items())
            )
        if len(players) * 5 > len(self._deck):
            raise IllegalAction(f"the stock has only {len(self._deck)} cards")
        self._players = tuple(players)
        self._sitting_out = sitting_out
        events = [
            public(
                "game_started",
                {
                    "dealer": self.setup.dealer,
                    "ante": ante,
                    "players": list(players),
                    "sitting_out": {str(s): r for s, r in sitting_out.items()},
                    "pot": self.pot,
                },
            )
        ]
        for seat in players:
            if seat in self.setup.excused:
                events.append(public("ante_excused", {"seat": seat}))
            else:
                events.append(self._pay(seat, ante, "ante", {"round": 1}))
        for seat in players:
            cards = self._deck.deal(5)
            self._hands[seat] = cards
            self._log.append(f"d dh {self._p(seat)} {''.join(_codes(cards))}")
            events.append(private(seat, "deal", {"seat": seat, "cards": _codes(cards)}))
        events.append(public("dealt", {"count": 5, "seats": list(players)}))
        self._round = 1
        self._acted_round = False
        events.extend(self._open_window())
        return events

    def apply(self, action: Action) -> list[Event]:
        """Do ``action``; raises NotYourTurn / IllegalAction / GameOver and changes nothing."""
        err = self._check(action)
        if err is not None:
            raise err
        seat = action.seat
        if action.timed_out:
            self._idle[seat] = self._idle.get(seat, 0) + 1
        else:
            self._idle[seat] = 0
            self._acted_round = True
        note = " # timeout" if action.timed_out else ""
        if action.kind == "discard":
            assert action.card is not None
            card = CARDS[action.card]
            self._discard_choices[seat] = card
            self._log.append(f"{self._p(seat)} sd {card}{note}")
            events = [
                private(
                    seat,
                    "discard",
                    {"seat": seat, "card": str(card), "timed_out": action.timed_out},
                ),
                public(
                    "discarded",
                    {"chosen": len(self._discard_choices), "of": len(self.live)},
                ),
            ]
            if not self.to_act():
                events.extend(self._exchange())
            return events
        code = "ld" if action.kind == "lay_down" else "po"
        self._log.append(f"{self._p(seat)} {code}{note}")
        self._choices[seat] = action.kind
        if self.rules.laydown_order == "in_turn":
            kind = "laid_down" if action.kind == "lay_down" else "played_on"
            events = [public(kind, {"seat": seat, "timed_out": action.timed_out})]
            if action.kind == "lay_down" or self._turn + 1 >= len(self.live):
                events.extend(self._close_window())
            else:
                self._turn += 1
            return events
        events = [
            private(
                seat,
                "choice",
                {"seat": seat, "choice": action.kind, "timed_out": action.timed_out},
            ),
            public("chosen", {"chosen": len(self._choices), "of": len(self.live)}),
        ]
        if not self.to_act():
            events.extend(self._close_window())
        return events

    def timeout(self) -> list[Event]:
        """The window's time ran out: the default action for every seat still pending."""
        if self._phase == "over":
            raise GameOver("the game is over")
        events: list[Event] = []
        phase, rnd = self._phase, self._round
        pending = sorted(self.to_act(), key=self._order.index)
        for seat in pending:
            if self._phase != phase or self._round != rnd:
                break  # the window closed (cannot happen before the last seat; kept safe)
            events.extend(self.apply(self.default_action(seat)))
        return events

    def resume(self) -> list[Event]:
        """Continue a paused table: the exchange's ante, then the discards (RULES §1.5)."""
        if self._phase != "paused":
            raise IllegalAction("the table is not paused")
        self._acted_round = True
        self._log.append("d resume")
        return [public("resumed", {}), *self._ante_again()]

    # ----------------------------------------------------------------- procedure

    def _pay(self, seat: int, amount: int, kind: str, extra: Mapping[str, Any]) -> Event:
        self._stacks[seat] -= amount
        self._contrib[seat] = self._contrib.get(seat, 0) + amount
        data = {"seat": seat, "amount": amount, **extra}
        return public(kind, data, (ChipMove(seat, amount, kind),))

    def _open_window(self) -> list[Event]:
        self._phase = "window"
        self._choices = {}
        self._turn = 0
        live = self.live
        return [
            public(
                "window_opened",
                {
                    "round": self._round,
                    "order": self.rules.laydown_order,
                    "seats": list(live),
                    "seconds": self.rules.decision_seconds,
                    "pot": self.pot,
                },
            )
        ]

    def _close_window(self) -> list[Event]:
        lay_downs = [s for s in self.live if self._choices.get(s) == "lay_down"]
        challenger = lay_downs[0] if lay_downs else None
        events = [
            public(
                "window_closed",
                {"round": self._round, "lay_downs": lay_downs, "challenger": challenger},
            )
        ]
        if challenger is not None:
            self._challenger = challenger
            events.extend(self._showdown(challenger))
        elif not self._acted_round:
            self._phase = "paused"
            events.append(public("paused", {"reason": "a whole round passed with nobody acting"}))
        else:
            events.extend(self._ante_again())
        return events

    def _ante_again(self) -> list[Event]:
        """Nobody laid down: everyone antes again (RULES §1.5), then discards."""
        ante = self.rules.ante
        events: list[Event] = []
        for seat in self.live:
            if self._stacks[seat] >= ante:
                events.append(self._pay(seat, ante, "ante", {"round": self._round + 1}))
            else:
                self._dead[seat] = f"could not pay the ante ({ante})"
                events.append(public("out", {"seat": seat, "reason": self._dead[seat]}))
        if len(self.live) < 2:
            # the game ends on the round just played: whether anyone acted in it stays
            # what it was (RULES 1.11 pauses only a table where nobody acted)
            events.extend(self._uncontested())
            return events
        self._acted_round = False  # a new round starts with this ante
        self._phase = "discard"
        self._discard_choices = {}
        events.append(public("discard_opened", {"round": self._round, "seats": list(self.live)}))
        return events

    def _exchange(self) -> list[Event]:
        """Everyone has discarded: refill the stock if needed (§1.6), one card each (§1.5)."""
        events: list[Event] = []
        live = self.live
        for seat in live:
            card = self._discard_choices[seat]
            self._hands[seat].remove(card)
            self._discards.append(card)
        if len(self._deck) < len(live):
            refill = list(self._discards)
            self._discards.clear()
            before = len(self._deck)
            self._deck.add(refill, rng=self._rng)
            added = self._deck.cards[before:]
            self._log.append(f"d rf {''.join(_codes(added))}")
            events.append(public("refill", {"count": len(added)}))
        for seat in live:
            (card,) = self._deck.deal(1)
            self._hands[seat].append(card)
            self._log.append(f"d dh {self._p(seat)} {card}")
            events.append(private(seat, "draw", {"seat": seat, "card": str(card)}))
        self._discard_choices = {}
        events.append(public("exchanged", {"round": self._round}))
        self._round += 1
        events.extend(self._open_window())
        return events

    def _showdown(self, challenger: int) -> list[Event]:
        """RULES §1.7: every live hand shown and compared with the challenger's."""
        live = self.live
        shown = {
            s: ShownHand(tuple(self._hands[s]), self.ranking.name(self._hands[s])) for s in live
        }
        scores = {s: self.ranking.score(self._hands[s]) for s in live}
        events = [
            public(
                "showdown",
                {
                    "challenger": challenger,
                    "hands": {
                        str(s): {"cards": _codes(h.cards), "name": h.name} for s, h in shown.items()
                    },
                },
            )
        ]
        pot = self.pot
        best = max(scores.values())
        if scores[challenger] == best:
            winners: tuple[int, ...] = (challenger,)
        else:
            winners = tuple(s for s in live if scores[s] == best)
        awards = {s: pot // len(winners) for s in winners}
        awards[winners[0]] += pot - sum(awards.values())  # odd chips: first from dealer's left
        for seat, amount in awards.items():
            self._stacks[seat] += amount
            events.append(
                public(
                    "award", {"seat": seat, "amount": amount}, (ChipMove(seat, -amount, "award"),)
                )
            )
        self._contrib = {}
        matched = 0
        if challenger not in winners:
            # The challenger matches what the pot held; with the cover rule off, a challenger
            # who cannot cover pays what they have (RULES §1.8).
            matched = min(pot, self._stacks[challenger])
            chips = (ChipMove(challenger, matched, "match"),) if matched else ()
            self._stacks[challenger] -= matched
            if matched:
                self._contrib[challenger] = matched
            events.append(
                public("match", {"seat": challenger, "amount": matched, "pot": pot}, chips)
            )
        events.extend(self._finish(challenger, winners, awards, matched, shown))
        return events

    def _uncontested(self) -> list[Event]:
        """Fewer than two live hands remain after an exchange's ante.

        Not covered by the source; our reading: a sole live hand takes the pot without a
        showdown (nobody challenged, so nobody matches); with no live hand the pot carries.
        """
        live = self.live
        events: list[Event] = []
        awards: dict[int, int] = {}
        if live:
            seat, pot = live[0], self.pot
            awards[seat] = pot
            self._stacks[seat] += pot
            self._contrib = {}
            events.append(
                public(
                    "award",
                    {"seat": seat, "amount": pot, "uncontested": True},
                    (ChipMove(seat, -pot, "award"),),
                )
            )
        events.extend(self._finish(None, tuple(awards), awards, 0, {}))
        return events

    def _finish(
        self,
        challenger: int | None,
        winners: tuple[int, ...],
        awards: Mapping[int, int],
        matched: int,
        shown: Mapping[int, ShownHand],
    ) -> list[Event]:
        self._phase = "over"
        self._result = GutsResult(
            challenger=challenger,
            winners=winners,
            awards=dict(awards),
            matched=matched,
            carried_pot=dict(self._contrib),
            net={s: self._stacks[s] - self.setup.stacks[s] for s in self.setup.seats},
            hands=dict(shown),
        )
        return [public("game_over", {"result": self._result.to_json()})]

    # ----------------------------------------------------------------- snapshot

    def snapshot(self) -> dict[str, Any]:
        """Everything needed to continue this game exactly (JSON-serialisable)."""
        snap: dict[str, Any] = {
            "version": SNAPSHOT_VERSION,
            "rules": self.rules.model_dump(),
            "setup": self.setup.to_json(),
            "phase": self._phase,
            "stacks": {str(s): c for s, c in self._stacks.items()},
            "pot": {str(s): c for s, c in self._contrib.items()},
            "idle": {str(s): n for s, n in self._idle.items()},
            "players": list(self._players),
            "sitting_out": {str(s): r for s, r in self._sitting_out.items()},
            "dead": {str(s): r for s, r in self._dead.items()},
            "hands": {str(s): _codes(h) for s, h in self._hands.items()},
            "stock": _codes(self._deck.cards),
            "discards": _codes(self._discards),
            "round": self._round,
            "choices": {str(s): c for s, c in self._choices.items()},
            "discard_choices": {str(s): str(c) for s, c in self._discard_choices.items()},
            "turn": self._turn,
            "challenger": self._challenger,
            "acted_round": self._acted_round,
            "log": list(self._log),
            "result": None if self._result is None else self._result.to_json(),
            "rng": None,
        }
        if type(self._rng) is random.Random:
            version, internal, gauss = self._rng.getstate()
            snap["rng"] = {"version": version, "state": list(internal), "gauss": gauss}
        elif isinstance(self._rng, SeededShuffle):
            # a verifiable table's: the seed and the next reshuffle's number
            snap["shuffle"] = self._rng.to_json()
        return snap

    @classmethod
    def restore(
        cls,
        snapshot: Mapping[str, Any],
        rng: Shuffler | None = None,
        *,
        ranking: GutsRanking | None = None,
    ) -> GutsGame:
        """A game that continues exactly where ``snapshot`` was taken.

        With no ``rng``, a stored ``random.Random`` state or seeded shuffle is resumed (so a
        refill shuffle continues identically); otherwise ``secrets.SystemRandom``. Raises
        :class:`SnapshotError` naming the malformed field.
        """
        return _restore(cls, snapshot, rng, ranking)


def _field(snap: Mapping[str, Any], name: str, kind: type | tuple[type, ...]) -> Any:
    if name not in snap:
        raise SnapshotError(f"{name}: missing")
    value = snap[name]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise SnapshotError(f"{name}: expected {getattr(kind, '__name__', kind)}, got {value!r}")
    return value


def _seat_map(snap: Mapping[str, Any], name: str, conv: Any) -> dict[int, Any]:
    raw = _field(snap, name, dict)
    try:
        return {int(s): conv(v) for s, v in raw.items()}
    except (TypeError, ValueError) as exc:
        raise SnapshotError(f"{name}: malformed ({exc})") from None


def _restore(
    cls: type[GutsGame],
    snap: Mapping[str, Any],
    rng: Shuffler | None,
    ranking: GutsRanking | None,
) -> GutsGame:
    from pydantic import ValidationError

    if not isinstance(snap, Mapping):
        raise SnapshotError("snapshot: not a mapping")
    if snap.get("version") != SNAPSHOT_VERSION:
        raise SnapshotError(f"version: expected {SNAPSHOT_VERSION}, got {snap.get('version')!r}")
    try:
        rules = GutsRules(**_field(snap, "rules", dict))
    except ValidationError as exc:
        raise SnapshotError(f"rules: invalid ({exc.errors()[0]['msg']})") from None
    setup = GutsSetup.from_json(_field(snap, "setup", dict))
    if rng is None and snap.get("rng") is not None:
        raw = _field(snap, "rng", dict)
        try:
            mersenne = random.Random()
            mersenne.setstate((raw["version"], tuple(raw["state"]), raw["gauss"]))
        except (KeyError, TypeError, ValueError) as exc:
            raise SnapshotError(f"rng: malformed ({exc})") from None
        rng = mersenne
    if rng is None and snap.get("shuffle") is not None:
        try:
            rng = SeededShuffle.from_json(_field(snap, "shuffle", dict))
        except (KeyError, TypeError, ValueError) as exc:
            raise SnapshotError(f"shuffle: malformed ({exc})") from None
    stock = [_card(c, "stock") for c in _field(snap, "stock", list)]
    try:
        game = cls(rules, setup, rng=rng, deck=Deck(cards=stock), ranking=ranking)
    except GameError as exc:  # pragma: no cover - setup errors are InvalidConfig
        raise SnapshotError(f"setup: {exc.message}") from None
    except ValueError as exc:
        raise SnapshotError(f"setup: {exc}") from None
    phase = _field(snap, "phase", str)
    if phase not in ("ready", "window", "discard", "paused", "over"):
        raise SnapshotError(f"phase: unknown phase {phase!r}")
    game._phase = cast(Phase, phase)
    game._stacks = _seat_map(snap, "stacks", int)
    game._contrib = _seat_map(snap, "pot", int)
    game._idle = _seat_map(snap, "idle", int)
    game._players = tuple(int(s) for s in _field(snap, "players", list))
    game._sitting_out = _seat_map(snap, "sitting_out", str)
    game._dead = _seat_map(snap, "dead", str)
    hands = _field(snap, "hands", dict)
    game._hands = {int(s): [_card(c, f"hands.{s}") for c in h] for s, h in hands.items()}
    game._discards = [_card(c, "discards") for c in _field(snap, "discards", list)]
    game._round = _field(snap, "round", int)
    game._choices = _seat_map(snap, "choices", str)
    game._discard_choices = _seat_map(snap, "discard_choices", lambda c: _card(c, "discard"))
    game._turn = _field(snap, "turn", int)
    challenger = snap.get("challenger")
    if challenger is not None and not isinstance(challenger, int):
        raise SnapshotError(f"challenger: expected a seat, got {challenger!r}")
    game._challenger = challenger
    game._acted_round = bool(_field(snap, "acted_round", bool))
    game._log = [str(x) for x in _field(snap, "log", list)]
    result = snap.get("result")
    if result is not None:
        try:
            game._result = GutsResult.from_json(result)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise SnapshotError(f"result: malformed ({exc})") from None
    for seat in game._players:
        if seat not in game._hands or seat not in game._stacks:
            raise SnapshotError(f"hands: seat {seat} plays but has no hand or balance")
        if seat not in game._dead and len(game._hands[seat]) != 5:
            raise SnapshotError(f"hands.{seat}: a live hand needs 5 cards")
    every = [c for h in game._hands.values() for c in h] + stock + game._discards
    if len(set(every)) != len(every):
        raise SnapshotError("hands: a card appears twice across hands, stock and discards")
    if game._phase == "window" and game._turn >= max(1, len(game.live)):
        raise SnapshotError(f"turn: {game._turn} is past the live players")
    return game


def describe_hand(game: GutsGame, seat: int) -> str:
    """``As Kd 7c 2h 3s: two-suited high card, ace high`` for a seat's DM."""
    cards = game.hand(seat)
    return f"{format_cards(cards)}: {game.ranking.name(cards)}"
