"""The stud machinery shared by Razz, Seven-card Stud and Stud Hi-Lo: the deal, the
state and the snapshot of a fixed-limit stud hand (RULES.md §4; the other stud games use
the same rules but for their bring-in, their opener and their showdown).

Positions: the engine numbers the players 0..n-1 clockwise from the dealer's left
(RULES §4.3: "player 1" of a hand history is position 0). Seat ids are what callers use
in actions and what events carry; positions are internal.

A game is a subclass of :class:`bot.engine.stud.betting.StudHand` that sets the hooks
declared here (``RULES``, ``VARIANT``, ``BRING_IN_ORDER``, ``opening_key``) and the
showdown's (:mod:`bot.engine.stud.showdown`). Where RULES.md is silent the engine does what
pokerkit 0.7.7 does (RULES §4.12); each such place says "pokerkit:" in a comment.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from typing import Any, ClassVar, Final, NamedTuple

from bot.engine.cards import CARDS, Card
from bot.engine.errors import GameError, InvalidConfig, NotYourTurn
from bot.engine.events import ChipMove, Event
from bot.engine.stud.pots import Pot, build_pots
from bot.engine.stud.rules import StudRules

# Events are built with positional arguments (kind, data, visible_to, chips): a named
# tuple's constructor takes keywords much more slowly, and a hand builds 20 to 60 events.
# On the hot paths they (and chip moves) are built from a whole tuple with
# ``tuple.__new__(Event, (...))``, skipping the constructor's Python-level frame (about
# 0.1 us less each); the tuple must give every field, in order.
_new: Final = tuple.__new__
STREET_NAMES: Final = {3: "3rd", 4: "4th", 5: "5th", 6: "6th", 7: "7th"}
#: Card codes by value ("Td"): a tuple lookup is much faster than ``str(card)``.
CODE: Final[tuple[str, ...]] = tuple(str(c) for c in CARDS)
ACTION_KINDS: Final = ("bring_in", "complete", "fold", "check", "call", "bet", "raise")
AGGRESSIONS: Final = frozenset(("complete", "bet", "raise"))
#: ``KINDS[base][aggression]``: the allowed kinds; base 0 bring-in due, 1 nothing to call,
#: 2 a bet to call; aggression 0 none, 1 complete, 2 bet, 3 raise. RRP: a player may fold
#: even when checking is free (``FREE_FOLD``); pokerkit (tournament mode) may not.
KINDS: Final = tuple(
    tuple(b + a for a in ((), ("complete",), ("bet",), ("raise",)))
    for b in (("bring_in",), ("fold", "check"), ("fold", "call"))
)
KINDS_NO_FREE_FOLD: Final = tuple(
    tuple(b + a for a in ((), ("complete",), ("bet",), ("raise",)))
    for b in (("bring_in",), ("check",), ("fold", "call"))
)
#: ``ROTATION[n][p]``: the n positions clockwise from ``p`` (``p`` first).
ROTATION: Final = tuple(
    tuple(tuple((p + k) % n for k in range(n)) for p in range(n)) for n in range(9)
)
#: ``AFTER[n][p]``: the other n - 1 positions clockwise from ``p``.
AFTER: Final = tuple(tuple(r[1:] for r in rows) for rows in ROTATION)
#: PHH action strings by position ("p1 cc"), built once.
PHH_CC: Final = tuple(f"p{p + 1} cc" for p in range(8))
PHH_FOLD: Final = tuple(f"p{p + 1} f" for p in range(8))
PHH_BRING_IN: Final = tuple(f"p{p + 1} pb" for p in range(8))
PHH_DEAL: Final = tuple(f"d dh p{p + 1} " for p in range(8))
#: A bet (on 3rd street the completion) and three raises per street (§4.6, RRP): the cap
#: while three or more players not all-in contest the street.
MAX_AGGRESSIONS: Final = 4


#: ``to_act`` answers by seat id, built once (frozensets are immutable, so shareable).
_TURNS: dict[int, frozenset[int]] = {}


class _Stakes(NamedTuple):
    """What a hand reads from its rules, worked out once per rules object."""

    rules: StudRules
    min_players: int
    max_players: int
    ante: int
    bring_in: int
    #: The fixed bet by street (``bet[street]``, 0..8; :meth:`StudRules.bet_size`).
    bet: tuple[int, ...]
    #: ``rules.model_dump()`` (the hand_start event copies it).
    data: dict[str, Any]


#: Stakes by ``id(rules)``; an entry holds its rules, so the id cannot be reused while it
#: is here, and a hit is checked with ``is`` (rules are frozen, so the entry stays true).
_STAKES: dict[int, _Stakes] = {}


def _stakes(rules: StudRules) -> _Stakes:
    if len(_STAKES) >= 64:
        _STAKES.clear()
    stakes = _STAKES[id(rules)] = _Stakes(
        rules,
        rules.min_players,
        rules.max_players,
        rules.ante,
        rules.bring_in,
        tuple(rules.bet_size(street) for street in range(9)),
        rules.model_dump(),
    )
    return stakes


class StudCore:
    """The state and the deal of one stud hand (see :class:`~bot.engine.stud.betting.StudHand`).

    The deck is injected: a seeded ``random.Random`` (default ``secrets.SystemRandom``) or
    a stacked card order (top first; ``redealt=True`` lets it repeat a card, to replay
    another tool's history that dealt mucked cards again). With an rng the deck is
    shuffled lazily: each card dealt is a uniformly random one of those still in the deck
    (one Fisher-Yates step per card, so a hand draws only as many random numbers as it
    deals cards; the deal has the same distribution as an up-front shuffle).
    :meth:`snapshot` shuffles the undealt rest once, with the same rng, and from then on
    the order is fixed, so the stored deck order continues identically after
    :meth:`restore`.
    """

    # Slots: a hand is built per deal and its attributes are read on every action; slotted
    # attributes are faster to set up and to reach (about 5% of a 2-player hand).
    __slots__ = (
        "__weakref__",
        "_deck",
        "_kinds",
        "_next",
        "_phh_community_in_hole",
        "_pos",
        "_rng",
        "_stakes",
        "_target",
        "acted",
        "actors",
        "aggressions",
        "bets",
        "bring_in_pending",
        "capped",
        "community",
        "completion_pending",
        "contrib",
        "dealer",
        "down",
        "folded",
        "last_aggressor",
        "level",
        "log",
        "n",
        "opener",
        "phh_actions",
        "raise_size",
        "result",
        "rules",
        "seat_ids",
        "seventh_opener",
        "shorts",
        "stacks",
        "starting",
        "street",
        "up",
    )

    #: The game's rules class (snapshots rebuild their rules with it).
    RULES: ClassVar[type[StudRules]] = StudRules
    #: pokerkit's PHH variant code ("FR", "F7S", "F7S/8").
    VARIANT: ClassVar[str] = ""
    #: ``BRING_IN_ORDER[card]``: the up card with the largest value brings in (§4.4).
    BRING_IN_ORDER: ClassVar[tuple[int, ...]] = ()
    #: Whether an open pair on 4th street allows the big bet (Stud's cardroom rule).
    OPEN_PAIR_BIG_BET: ClassVar[bool] = False
    # Robert's Rules of Poker where pokerkit 0.7.7 reads otherwise (issue 18). Each is a
    # switch that the differential tests turn off to replay pokerkit's hands exactly and to
    # prove that each hand where the two differ differs by a documented reading.
    #: No cap while two players not all-in contest the street (RRP; not in Razz, RULES 4.6).
    HEADS_UP_UNCAPPED: ClassVar[bool] = False
    #: An all-in of half a bet or more counts as a full completion, bet or raise; less does
    #: not reopen the betting, and the next player may complete it (RRP; pokerkit: only a
    #: full one counts).
    HALF_BET_RULE: ClassVar[bool] = True
    #: Each pot is split on its own (pokerkit: a hand that wins nothing is out before the
    #: pots are shared, and pots left with the same winners are paid as one).
    POTS_APART: ClassVar[bool] = True
    #: A tie's odd chip goes to the winner with the highest card by suit, of a low half to
    #: the lowest card by suit (RRP, Ties, games without a button; pokerkit and Razz's
    #: RULES 4.10: the first winner clockwise from the dealer's left).
    ODD_CHIP_BY_SUIT: ClassVar[bool] = False
    #: A player may fold when checking is free (RRP; pokerkit, tournament mode: not).
    FREE_FOLD: ClassVar[bool] = True
    #: The kinds table of the game's ``FREE_FOLD`` (set for each class).
    _KIND_TABLE: ClassVar[tuple[tuple[tuple[str, ...], ...], ...]] = KINDS

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._KIND_TABLE = KINDS if cls.FREE_FOLD else KINDS_NO_FREE_FOLD

    @staticmethod
    def opening_key(up: list[Card]) -> tuple[int, ...]:
        """The opener's order from 4th street: the SMALLEST key acts first (ties: the
        lowest position). Each game sets its own."""
        raise NotImplementedError

    def __init__(
        self,
        rules: StudRules,
        players: Sequence[tuple[int, int]],
        dealer: int,
        *,
        rng: random.Random | None = None,
        deck: Sequence[Card] | None = None,
        redealt: bool = False,
    ) -> None:
        n = len(players)
        stakes = _STAKES.get(id(rules))
        if stakes is None or stakes.rules is not rules:
            stakes = _stakes(rules)
        if not stakes.min_players <= n <= stakes.max_players:
            raise InvalidConfig(
                "players", f"need {rules.min_players} to {rules.max_players} players, got {n}"
            )
        seat_list = [int(s) for s, _ in players]
        stack_list = [int(c) for _, c in players]
        if len(set(seat_list)) != n:
            raise InvalidConfig("players", f"a seat appears twice in {seat_list}")
        if min(stack_list) <= 0:
            seat, stack = next((s, c) for s, c in players if c <= 0)
            raise InvalidConfig("players", f"seat {seat} has no chips ({stack})")
        if dealer not in seat_list:
            raise InvalidConfig("dealer", f"seat {dealer} is not one of the players {seat_list}")
        # Position 0 is the dealer's left (§4.3).
        d = seat_list.index(dealer) + 1
        self.rules = rules
        self._stakes = stakes
        self.dealer = dealer
        self.seat_ids: tuple[int, ...] = (*seat_list[d:], *seat_list[:d])
        self._pos: dict[int, int] | None = None  # seat -> position, built on first use
        self.n = n
        self.starting: list[int] = stack_list[d:] + stack_list[:d]
        if deck is not None:
            self._rng: random.Random | None = None  # set while the undealt order is open
            cards = [CARDS[int(c)] for c in deck]
            # ``redealt``: a replayed history in which another tool dealt mucked cards
            # again (the replay checks that each came back only once out of play).
            if len(set(cards)) != len(cards) and not redealt:
                raise InvalidConfig("deck", "a card appears twice in the stacked deck")
        else:
            cards = list(CARDS)
            self._rng = rng or secrets.SystemRandom()
        #: Dealt cards in deal order, then the undealt ones (in no order while ``_rng``).
        self._deck: list[Card] = cards
        self._next = 0
        #: The current actor's allowed kinds, computed once per turn (None: not yet).
        self._kinds: tuple[str, ...] | None = None
        self._target = 0  # the aggression total that goes with ``_kinds``
        self.stacks: list[int] = self.starting[:]
        self.bets: list[int] = [0] * n
        self.contrib: list[int] = [0] * n
        self.folded: list[bool] = [False] * n
        self.down: list[list[Card]] = [[] for _ in range(n)]
        self.up: list[list[Card]] = [[] for _ in range(n)]
        self.community: Card | None = None
        self.street = 0  # 0 before start, 3..7 during, 8 when over
        self.actors: list[int] = []
        self.acted: set[int] = set()
        self.bring_in_pending = False
        self.completion_pending = False
        self.aggressions = 0
        #: RRP: the street total of the last full completion, bet or raise (0 before one);
        #: the next raise is a bet over it. pokerkit's reading: the highest bet.
        self.level = 0
        #: No more completions, bets or raises this street.
        self.capped = False
        self.raise_size = 0  # pokerkit: completion_betting_or_raising_amount
        self.shorts: list[int] = []  # pokerkit: consecutive_short_all_in_amounts
        self.opener: int | None = None
        self.last_aggressor: int | None = None
        self.seventh_opener: int | None = None
        self._phh_community_in_hole = False
        self.log: list[Event] = []
        self.phh_actions: list[str] = []
        self.result: dict[str, Any] | None = None

    # ------------------------------------------------------------------ queries

    @property
    def is_over(self) -> bool:
        return self.street == 8

    @property
    def started(self) -> bool:
        return self.street != 0

    def seat_stacks(self) -> dict[int, int]:
        """Each seat's chips behind (not counting chips in the pot)."""
        return {self.seat_ids[p]: self.stacks[p] for p in range(self.n)}

    @property
    def pot_total(self) -> int:
        return sum(self.contrib) if not self.is_over else 0

    def pots(self) -> list[Pot]:
        """Main and side pots by what each position has put in (bets included)."""
        live = [not f for f in self.folded]
        return build_pots(self.contrib, live)

    def to_act(self) -> frozenset[int]:
        actors = self.actors  # empty before the start and once the hand is over
        if not actors or self.street == 8:
            return frozenset()
        seat = self.seat_ids[actors[0]]
        turn = _TURNS.get(seat)
        if turn is None:
            turn = _TURNS[seat] = frozenset((seat,))
        return turn

    def position(self, seat: int) -> int:
        pos = self._pos
        if pos is None:
            pos = self._pos = dict(zip(self.seat_ids, range(self.n), strict=True))
        try:
            return pos[seat]
        except KeyError:
            raise NotYourTurn(f"seat {seat} is not in this hand") from None

    def cards_of(self, seat: int) -> tuple[list[Card], list[Card]]:
        """(down cards, up cards) of a seat."""
        p = self.position(seat)
        return list(self.down[p]), list(self.up[p])

    # --------------------------------------------------------------- the deal

    def start(self) -> list[Event]:
        """Antes, the 3rd-street deal and the bring-in's turn."""
        if self.street:
            raise GameError("this hand has already started")
        self.street = 3
        stakes = self._stakes
        out = [
            _new(
                Event,
                (
                    "hand_start",
                    {
                        "seats": list(self.seat_ids),
                        "stacks": self.starting[:],
                        "dealer": self.dealer,
                        "rules": stakes.data.copy(),
                    },
                    None,
                    (),
                ),
            )
        ]
        ante = stakes.ante
        if ante > 0:
            # Ante trimming (PHH ante_trimming_status=true): a short stack antes what it has
            # and is all-in.
            seat_ids, stacks = self.seat_ids, self.stacks
            refunds = min(stacks) < ante  # equal antes: nothing to return
            if refunds:
                paid = [ante if s >= ante else s for s in stacks]
                self.stacks = [s - a for s, a in zip(stacks, paid, strict=True)]
            else:
                paid = [ante] * self.n
                self.stacks = [s - ante for s in stacks]
            self.contrib = paid[:]  # nothing was in before the antes
            moves = tuple(
                [_new(ChipMove, (seat_ids[p], amount, "ante")) for p, amount in enumerate(paid)]
            )
            out.append(_new(Event, ("antes", {"amounts": paid}, None, moves)))
            if refunds:
                # pokerkit: with trimmed antes, an ante above every other is partly returned.
                cutoff = sorted(paid)[-2]
                if max(paid) > cutoff:
                    for p, amount in enumerate(paid):
                        if amount > cutoff:
                            out.append(self._refund(p, amount - cutoff))
        self._deal_street(out)
        self._begin_betting(out)
        self.log.extend(out)
        return out

    def _draw(self, k: int) -> list[Card]:
        deck, start = self._deck, self._next
        end = start + k
        rng = self._rng
        if rng is not None:
            # One Fisher-Yates step per card: swap a uniformly random undealt card into
            # place (floor(random() * n), as random.shuffle did before Python 3.11).
            random_ = rng.random
            left = len(deck)
            for i in range(start, end):
                j = i + int(random_() * (left - i))
                deck[i], deck[j] = deck[j], deck[i]
        self._next = end
        return deck[start:end]

    def _fix_deck(self) -> None:
        """Shuffle the undealt cards once and deal them in that order from now on."""
        rng = self._rng
        if rng is not None:
            rest = self._deck[self._next :]
            rng.shuffle(rest)
            self._deck[self._next :] = rest
            self._rng = None

    @property
    def cards_left(self) -> int:
        return len(self._deck) - self._next

    def _deal_street(self, out: list[Event]) -> None:
        """Deal the current street, appending its events to ``out``."""
        folded = self.folded
        live: Sequence[int] = (
            [p for p in range(self.n) if not folded[p]] if True in folded else range(self.n)
        )
        street = self.street
        out.append(_new(Event, ("street", {"street": street}, None, ())))
        if street == 3:
            # Each player in turn: two down cards, then one up card.
            dealt = iter(self._draw(3 * len(live)))
            down, up, seat_ids, phh = self.down, self.up, self.seat_ids, self.phh_actions
            for p in live:
                c1, c2, c3 = next(dealt), next(dealt), next(dealt)
                down[p] += (c1, c2)
                up[p].append(c3)
                a, b, u = CODE[c1], CODE[c2], CODE[c3]
                seat = seat_ids[p]
                out.append(
                    _new(
                        Event, ("deal_down", {"seat": seat, "street": 3, "cards": [a, b]}, seat, ())
                    )
                )
                out.append(
                    _new(Event, ("deal_up", {"seat": seat, "street": 3, "card": u}, None, ()))
                )
                phh.append(PHH_DEAL[p] + a + b + u)
            return
        if len(self._deck) - self._next < len(live):
            # §4.8: not enough cards for everyone: one community card, face up, for all.
            card = self._draw(1)[0]
            self.community = card
            out.append(Event("community", {"street": street, "card": CODE[card]}))
            # PHH: pokerkit deals a board card ('d db') only when the deck *and* the burnt
            # and mucked cards cannot give everyone a card (it reuses mucked cards; §4.8
            # does not). Otherwise we write the same card dealt to each player, which
            # pokerkit loads (with a warning) and scores exactly like a community card.
            held = sum(len(self.down[p]) + len(self.up[p]) for p in live)
            if 52 - held < len(live):
                self.phh_actions.append(f"d db {CODE[card]}")
            else:
                self._phh_community_in_hole = True
                for p in live:
                    self.phh_actions.append(f"d dh p{p + 1} {CODE[card]}")
            return
        seat_ids, phh = self.seat_ids, self.phh_actions
        cards = self._draw(len(live))
        if street != 7:
            up = self.up
            for p, card in zip(live, cards, strict=True):
                up[p].append(card)
                code = CODE[card]
                out.append(
                    _new(
                        Event,
                        (
                            "deal_up",
                            {"seat": seat_ids[p], "street": street, "card": code},
                            None,
                            (),
                        ),
                    )
                )
                phh.append(PHH_DEAL[p] + code)
        else:
            down = self.down
            for p, card in zip(live, cards, strict=True):
                down[p].append(card)
                code = CODE[card]
                seat = seat_ids[p]
                out.append(
                    _new(
                        Event,
                        ("deal_down", {"seat": seat, "street": street, "cards": [code]}, seat, ()),
                    )
                )
                phh.append(PHH_DEAL[p] + code)

    def _begin_betting(self, out: list[Event]) -> None:
        """The street's betting (:class:`~bot.engine.stud.betting.StudHand`)."""
        raise NotImplementedError

    def _refund(self, p: int, amount: int) -> Event:
        self.stacks[p] += amount
        self.contrib[p] -= amount
        if self.street and self.bets[p] >= amount:
            self.bets[p] -= amount
        seat = self.seat_ids[p]
        return _new(
            Event,
            (
                "refund",
                {"seat": seat, "amount": amount},
                None,
                (_new(ChipMove, (seat, -amount, "refund")),),
            ),
        )

    def _final_stacks(self) -> dict[str, int]:
        """{seat as text: chips}, as the result and the hand_over event give them."""
        return dict(zip(map(str, self.seat_ids), self.stacks, strict=True))

    def hole_cards(self, p: int) -> list[Card]:
        """A position's own cards in deal order (down, down, up..., down on 7th)."""
        d, u = self.down[p], self.up[p]
        cards = [d[0], d[1], *u]
        cards.extend(d[2:])
        return cards

    def _phh_cards(self, p: int) -> str:
        cards = self.hole_cards(p)
        if self._phh_community_in_hole and self.community is not None:
            cards.append(self.community)
        return "".join(CODE[c] for c in cards)

    def _phh_show(self, live: list[int]) -> None:
        for p in live:
            self.phh_actions.append(f"p{p + 1} sm {self._phh_cards(p)}")

    # ---------------------------------------------------------------- snapshots

    def snapshot(self) -> dict[str, Any]:
        """The whole state as JSON-able data (the deck order included).

        The first snapshot of a hand dealt from an rng fixes the order of the undealt
        cards (see the class docstring), so that the stored order is the one it deals.
        """
        self._fix_deck()

        def codes(cards: Sequence[Card]) -> list[str]:
            return [CODE[c] for c in cards]

        return {
            "version": 1,
            "rules": dict(self._stakes.data),
            "dealer": self.dealer,
            "seats": list(self.seat_ids),
            "starting": list(self.starting),
            # the deck in order as ONE string of 2-character codes ("8c2h4c..."): a third
            # of the size of a list of codes; restore also reads the older list form
            "deck": "".join([CODE[c] for c in self._deck]),
            "next": self._next,
            "stacks": list(self.stacks),
            "bets": list(self.bets),
            "contrib": list(self.contrib),
            "folded": list(self.folded),
            "down": [codes(c) for c in self.down],
            "up": [codes(c) for c in self.up],
            "community": None if self.community is None else str(self.community),
            "street": self.street,
            "actors": list(self.actors),
            "acted": sorted(self.acted),
            "bring_in_pending": self.bring_in_pending,
            "completion_pending": self.completion_pending,
            "aggressions": self.aggressions,
            "level": self.level,
            "capped": self.capped,
            "raise_size": self.raise_size,
            "shorts": list(self.shorts),
            "opener": self.opener,
            "last_aggressor": self.last_aggressor,
            "seventh_opener": self.seventh_opener,
            "phh_community_in_hole": self._phh_community_in_hole,
            "phh_actions": list(self.phh_actions),
            "result": self.result,
        }
