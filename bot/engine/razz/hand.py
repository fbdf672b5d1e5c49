"""One hand of fixed-limit Razz (RULES.md §4): check / can / do, events, snapshots.

Positions: the engine numbers the players 0..n-1 clockwise from the dealer's left
(RULES §4.3: "player 1" of a hand history is position 0). Seat ids are what callers use
in actions and what events carry; positions are internal.

Where RULES.md is silent the engine does what pokerkit 0.7.7's ``FixedLimitRazz`` does
(RULES §4.12); each such place says "pokerkit:" in a comment.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from typing import Any, Final, NamedTuple

from bot.engine.actions import Action, ActionOption
from bot.engine.cards import CARDS, Card
from bot.engine.errors import GameError, GameOver, IllegalAction, InvalidConfig, NotYourTurn
from bot.engine.events import ChipMove, Event
from bot.engine.hands import board_key, low_score
from bot.engine.hands._tables import RANK_PRIME
from bot.engine.hands.low import low_name_of_score
from bot.engine.razz.pots import Pot, build_pots, split
from bot.engine.razz.rules import RazzRules

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
#: 2 a bet to call; aggression 0 none, 1 complete, 2 bet, 3 raise.
KINDS: Final = tuple(
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
#: pokerkit: a fixed-limit street allows at most 4 completions/bets/raises (§4.6).
MAX_AGGRESSIONS: Final = 4


#: ``UPCARD_ORDER[card]``: the card's place in the bring-in order (§4.4, the higher brings
#: in): king high, ace low; then ♠ > ♥ > ♦ > ♣.
UPCARD_ORDER: Final[tuple[int, ...]] = tuple(c.low_rank * 4 + c.suit for c in CARDS)
#: Board keys by the product of the up cards' rank primes (the key depends only on the
#: ranks), filled on first use: a board is keyed once per street, not once per compare.
_BOARD_KEYS: dict[int, tuple[int, ...]] = {}


#: ``to_act`` answers by seat id, built once (frozensets are immutable, so shareable).
_TURNS: dict[int, frozenset[int]] = {}


def _board_key(up: list[Card]) -> tuple[int, ...]:
    """:func:`board_key` of a dealt board (distinct cards, so no re-validation), memoised."""
    product = 1
    for c in up:
        product *= RANK_PRIME[c]
    key = _BOARD_KEYS.get(product)
    if key is None:
        key = _BOARD_KEYS[product] = board_key(up)
    return key


def draw_for_deal(
    seats: Sequence[int], rng: random.Random | None = None
) -> tuple[int, list[Event]]:
    """RULES §4.3: one card to each seat; the lowest card deals (ace low, clubs lowest).

    Returns the dealer seat and one public event showing the cards.

    >>> dealer, events = draw_for_deal([4, 7, 9], random.Random(1))
    >>> dealer in (4, 7, 9), events[0].kind
    (True, 'draw_for_deal')
    """
    if len(seats) < 2 or len(set(seats)) != len(seats):
        raise InvalidConfig("seats", f"need two or more distinct seats, got {list(seats)}")
    cards = list(CARDS)
    (rng or secrets.SystemRandom()).shuffle(cards)
    drawn = dict(zip(seats, cards, strict=False))
    dealer = min(seats, key=lambda s: (drawn[s].low_rank, drawn[s].suit))
    event = Event(
        "draw_for_deal",
        {"cards": {str(s): str(c) for s, c in drawn.items()}, "dealer": dealer},
    )
    return dealer, [event]


class _Stakes(NamedTuple):
    """What a hand reads from its rules, worked out once per rules object."""

    rules: RazzRules
    min_players: int
    max_players: int
    ante: int
    bring_in: int
    #: The fixed bet by street (``bet[street]``, 0..8; :meth:`RazzRules.bet_size`).
    bet: tuple[int, ...]
    #: ``rules.model_dump()`` (the hand_start event copies it).
    data: dict[str, Any]


#: Stakes by ``id(rules)``; an entry holds its rules, so the id cannot be reused while it
#: is here, and a hit is checked with ``is`` (rules are frozen, so the entry stays true).
_STAKES: dict[int, _Stakes] = {}


def _stakes(rules: RazzRules) -> _Stakes:
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


class RazzHand:
    """One hand of Razz. Build it, call :meth:`start`, then ``apply`` actions.

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
        "community",
        "completion_pending",
        "contrib",
        "dealer",
        "down",
        "folded",
        "last_aggressor",
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

    def __init__(
        self,
        rules: RazzRules,
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

    # ------------------------------------------------------------ betting flow

    def _first_to_act(self) -> int:
        up, folded = self.up, self.folded
        if self.street == 3:
            # §4.4: the highest up card brings in (everyone is live on 3rd street).
            orders = [UPCARD_ORDER[u[0]] for u in up]
            return orders.index(max(orders))
        # §4.5: the lowest board opens; exact ties go to the lowest position (the first
        # of equal keys).
        best = -1
        best_key: tuple[int, ...] = ()
        for p in range(self.n):
            if not folded[p]:
                key = _board_key(up[p])
                if best < 0 or key < best_key:
                    best, best_key = p, key
        return best

    def _begin_betting(self, out: list[Event]) -> None:
        opener = self._first_to_act()
        self.opener = opener
        street = self.street
        if street == 7:
            self.seventh_opener = opener
        self.bring_in_pending = self.completion_pending = street == 3
        folded, stacks = self.folded, self.stacks
        # pokerkit: only players with an effective stack act (get_effective_stack: what they
        # can still lose, up to the second-largest live total). No bets are out yet on a
        # new street, so that is everyone with chips, when at least two have chips.
        if True in folded or 0 in stacks:
            actors = [p for p in ROTATION[self.n][opener] if not folded[p] and stacks[p] > 0]
        else:
            actors = list(ROTATION[self.n][opener])
        if len(actors) < 2:
            actors = []
        self.actors = actors
        self._kinds = None
        self.acted = set()
        self.aggressions = 0
        self.raise_size = 0
        self.shorts = []
        out.append(
            _new(
                Event,
                (
                    "betting",
                    {
                        "street": street,
                        "opener": self.seat_ids[opener],
                        "bet": self._stakes.bet[street],
                    },
                    None,
                    (),
                ),
            )
        )
        if not actors:
            self._end_betting(out)

    def _end_betting(self, out: list[Event]) -> None:
        self.actors = []
        self.bring_in_pending = self.completion_pending = False
        n, bets, folded = self.n, self.bets, self.folded
        # Uncalled chips go back (pokerkit: collect_bets, cut at the second-highest bet; the
        # last live player gets back what no one else matched).
        # Only the one highest bet can be above the second-highest.
        top, cutoff = sorted(bets)[-1:-3:-1]
        if top > cutoff:
            out.append(self._refund(bets.index(top), top - cutoff))
        self.bets = [0] * n
        if folded.count(False) == 1:
            self._award_uncontested(folded.index(False), out)
            return
        stacks = self.stacks
        if self.street == 7:
            out.extend(self._showdown())
        elif 0 in stacks and sum(1 for p in range(n) if stacks[p] > 0 and not folded[p]) <= 1:
            live = [p for p in range(n) if not folded[p]]
            # Everyone (but at most one) is all-in: deal the rest with no betting.
            # pokerkit shows the hands at this point, then again at the end.
            self._phh_show(live)
            while self.street < 7:
                self.street += 1
                self._deal_street(out)
            out.extend(self._showdown())
        else:
            self.street += 1
            self._deal_street(out)
            self._begin_betting(out)

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

    # -------------------------------------------------------------- can / do

    def _aggression_kind(self, top: int | None = None) -> str:
        """complete, bet or raise (``top``: the highest bet, when the caller knows it)."""
        if self.completion_pending:
            return "complete"
        if top is None:
            top = max(self.bets)
        return "bet" if top == 0 else "raise"

    def _aggression_block(self, p: int, top: int | None = None) -> str | None:
        """Why ``p`` may not complete/bet/raise now (pokerkit's checks), or None.

        ``top`` is the highest bet, when the caller knows it."""
        bets, stacks = self.bets, self.stacks
        if top is None:
            top = max(bets)
        owed = top - bets[p]
        if owed > 0 and min(stacks[p], owed) < self.raise_size:
            return "a short all-in cannot be raised"
        if self.aggressions >= MAX_AGGRESSIONS:
            return "the betting is capped (one bet and three raises)"
        if self.shorts and sum(self.shorts) < self.raise_size and p in self.acted:
            return "you already acted and a short all-in does not reopen the betting"
        if stacks[p] <= owed:
            return "you cannot cover the bet: call instead"
        folded = self.folded
        for i in range(self.n):
            if i != p and not folded[i] and stacks[i] + bets[i] > top:
                return None
        return "every other player is all-in or has folded"

    def _raise_targets(self, p: int) -> list[int]:
        """The street totals a completion/bet/raise may go to: the fixed one first."""
        bets, stacks, folded = self.bets, self.stacks, self.folded
        top = max(bets)
        size = self._stakes.bet[self.street]
        if self.raise_size > size:
            size = self.raise_size
        full = size if self.completion_pending else top + size
        first = min(stacks[p] + bets[p], full)
        # §4.7: a raise "to" the largest amount an opponent can still match.
        reach = 0
        for i in range(self.n):
            if i != p and not folded[i] and stacks[i] + bets[i] > reach:
                reach = stacks[i] + bets[i]
        if top < reach < first:
            return [first, reach]
        return [first]

    def _allowed(self, p: int) -> tuple[str, ...]:
        """The action kinds the current actor ``p`` may take (the fast path of
        legal_actions), computed once per turn; with an aggression among them, also its
        fixed-limit total (``_target``, the first of :meth:`_raise_targets`).

        The aggression test is :meth:`_aggression_block` inlined."""
        kinds = self._kinds
        if kinds is not None:
            return kinds
        bets, stacks = self.bets, self.stacks
        top = max(bets)
        mine = bets[p]
        stack = stacks[p]
        if self.bring_in_pending:
            base = 0
        elif mine >= top:
            base = 1
        else:
            base = 2
        owed = top - mine
        raise_size = self.raise_size
        aggression = 0  # none
        if not (
            (owed > 0 and min(stack, owed) < raise_size)
            or self.aggressions >= MAX_AGGRESSIONS
            or (self.shorts and sum(self.shorts) < raise_size and p in self.acted)
            or stack <= owed
        ):
            # Someone else must still be able to match more than the top bet.
            folded = self.folded
            reach = 0
            for i in range(self.n):
                if i != p and not folded[i] and stacks[i] + bets[i] > reach:
                    reach = stacks[i] + bets[i]
            if reach > top:
                size = self._stakes.bet[self.street]
                if raise_size > size:
                    size = raise_size
                if self.completion_pending:
                    aggression = 1
                    full = size
                else:
                    aggression = 2 if top == 0 else 3
                    full = top + size
                self._target = full if stack + mine > full else stack + mine
        kinds = self._kinds = KINDS[base][aggression]
        return kinds

    def allowed_kinds(self, seat: int) -> tuple[str, ...]:
        """The action kinds ``seat`` may take now (empty when it is not their turn)."""
        actors = self.actors  # empty before the start and once the hand is over
        if not actors or self.seat_ids[actors[0]] != seat:
            return ()
        return self._kinds or self._allowed(actors[0])

    def legal_actions(self, seat: int) -> list[ActionOption]:
        """Every Razz action kind for ``seat`` now: allowed, or why not.

        An allowed completion/bet/raise gives the fixed-limit total (``to``), which is what
        the plain action does. §4.7 also allows a raise "to" the largest amount an
        opponent can still match when that is less: ``Action(seat, "raise", amount=...)``
        (the refusal of any other amount names both totals).
        """
        if self.is_over:
            return [ActionOption(k, False, "the hand is over") for k in ACTION_KINDS]
        p = self.position(seat)
        if not self.actors or self.actors[0] != p:
            reason = "it is not your turn"
            return [ActionOption(k, False, reason) for k in ACTION_KINDS]
        top = max(self.bets)
        mine = self.bets[p]
        call = min(self.stacks[p], top - mine)
        opts: list[ActionOption] = []
        if self.bring_in_pending:
            cost = min(self.stacks[p], self._stakes.bring_in)
            opts.append(ActionOption("bring_in", True, None, cost, mine + cost))
        else:
            opts.append(ActionOption("bring_in", False, "the bring-in is only on 3rd street"))
        kind = self._aggression_kind()
        block = self._aggression_block(p)
        for k in ("complete", "bet", "raise"):
            if k != kind:
                why = {
                    "complete": "completing is only on 3rd street, right after the bring-in",
                    "bet": "there is already a bet: raise instead",
                    "raise": "there is no bet to raise",
                }[k]
                if kind == "complete" and k != "complete":
                    why = "on 3rd street the first bet is the completion"
                opts.append(ActionOption(k, False, why))
            elif block:
                opts.append(ActionOption(k, False, block))
            else:
                to = self._raise_targets(p)[0]
                opts.append(ActionOption(k, True, None, to - mine, to))
        forced = (
            "the bring-in must post the bring-in or complete" if self.bring_in_pending else None
        )
        if forced:
            opts.append(ActionOption("fold", False, forced))
            opts.append(ActionOption("check", False, forced))
            opts.append(ActionOption("call", False, forced))
        else:
            # pokerkit (tournament mode): no folding when checking is free.
            if call == 0:
                opts.append(ActionOption("fold", False, "nothing to call: check instead"))
                opts.append(ActionOption("check", True, None, 0, mine))
                opts.append(ActionOption("call", False, "there is no bet to call"))
            else:
                opts.append(ActionOption("fold", True, None, 0, mine))
                opts.append(ActionOption("check", False, f"there is a bet of {top}: call or fold"))
                opts.append(ActionOption("call", True, None, call, mine + call))
        order = {k: i for i, k in enumerate(ACTION_KINDS)}
        opts.sort(key=lambda o: order[o.kind])
        return opts

    def can(self, action: Action) -> str | None:
        """Why ``action`` is refused now, or None when it is legal."""
        try:
            self._validate(action)
        except GameError as exc:
            return exc.message
        return None

    def _validate(self, action: Action) -> tuple[int, int | None]:
        """(position, target street total for an aggression) or raise a GameError."""
        actors = self.actors
        if actors and action.amount is None:
            # Fast path: a plain legal action by the current actor.
            p = actors[0]
            kind = action.kind
            if self.seat_ids[p] == action.seat and kind in (self._kinds or self._allowed(p)):
                return p, (self._target if kind in AGGRESSIONS else None)
        return self._check(action)

    def _check(self, action: Action) -> tuple[int, int | None]:
        """:meth:`_validate` step by step, with the reason for a refusal."""
        if not self.started:
            raise IllegalAction("the hand has not started")
        if self.is_over:
            raise GameOver("the hand is over")
        p = self.position(action.seat)
        if not self.actors or self.actors[0] != p:
            who = self.seat_ids[self.actors[0]] if self.actors else None
            raise NotYourTurn(f"it is seat {who}'s turn, not seat {action.seat}'s")
        if action.kind not in ACTION_KINDS:
            raise IllegalAction(f"unknown action {action.kind!r} (use {', '.join(ACTION_KINDS)})")
        for opt in self.legal_actions(action.seat):
            if opt.kind != action.kind:
                continue
            if not opt.allowed:
                raise IllegalAction(f"cannot {action.kind}: {opt.reason}")
            if action.kind in ("complete", "bet", "raise"):
                targets = self._raise_targets(p)
                if action.amount is None:
                    return p, targets[0]
                if action.amount not in targets:
                    allowed = " or ".join(str(t) for t in targets)
                    raise IllegalAction(
                        f"cannot {action.kind} to {action.amount}: fixed limit allows {allowed}"
                    )
                return p, action.amount
            if action.amount is not None and action.amount != opt.to:
                raise IllegalAction(f"cannot {action.kind} to {action.amount}: it goes to {opt.to}")
            return p, None
        raise IllegalAction(f"unknown action {action.kind!r}")  # pragma: no cover

    def default_action(self, seat: int) -> Action:
        """The timeout action: post the bring-in when due, else check, else fold."""
        if self.bring_in_pending and self.actors and self.seat_ids[self.actors[0]] == seat:
            return Action(seat, "bring_in", timed_out=True)
        p = self.position(seat)
        if self.actors and self.actors[0] == p and self.bets[p] >= max(self.bets):
            return Action(seat, "check", timed_out=True)
        return Action(seat, "fold", timed_out=True)

    def apply(self, action: Action) -> list[Event]:
        """Do ``action``; raises NotYourTurn / IllegalAction / GameOver changing nothing."""
        actors = self.actors
        p = actors[0] if actors else -1
        kind = action.kind
        if (
            p >= 0
            and action.amount is None
            and self.seat_ids[p] == action.seat
            and kind in (self._kinds or self._allowed(p))
        ):
            # A plain legal action by the current actor (as in _validate, inlined).
            target = self._target if kind in AGGRESSIONS else None
        else:
            p, target = self._check(action)
        # Do it (inline: one call per action less).
        seat = self.seat_ids[p]
        street = self.street
        del actors[0]
        self._kinds = None
        self.acted.add(p)
        stacks, bets = self.stacks, self.bets
        # The event data is built in one dict display per kind (keys in the order seat,
        # action, street, [timed_out], amount, to, all_in).
        data: dict[str, Any]
        moves: tuple[ChipMove, ...] = ()
        last_live = False
        if kind == "check" or kind == "call":
            stack = stacks[p]
            mine = bets[p]
            cost = max(bets) - mine
            if cost > stack:
                cost = stack
            if cost:
                stack -= cost
                stacks[p] = stack
                mine += cost
                bets[p] = mine
                self.contrib[p] += cost
                moves = (_new(ChipMove, (seat, cost, "match")),)
            data = {
                "seat": seat,
                "action": kind,
                "street": street,
                "amount": cost,
                "to": mine,
                "all_in": stack == 0,
            }
            self.phh_actions.append(PHH_CC[p])
        elif kind == "fold":
            folded = self.folded
            folded[p] = True
            self.phh_actions.append(PHH_FOLD[p])
            last_live = folded.count(False) == 1
            data = {"seat": seat, "action": kind, "street": street}
        elif kind == "bring_in":
            cost = min(stacks[p], self._stakes.bring_in)
            stacks[p] -= cost
            bets[p] += cost
            self.contrib[p] += cost
            self.bring_in_pending = False
            moves = (_new(ChipMove, (seat, cost, "bring_in")),)
            data = {"seat": seat, "action": kind, "street": street, "amount": cost, "to": bets[p]}
            self.phh_actions.append(PHH_BRING_IN[p])
        else:
            assert target is not None
            n, folded = self.n, self.folded
            top = max(bets)
            cost = target - bets[p]
            increment = target - top
            stacks[p] -= cost
            bets[p] = target
            self.contrib[p] += cost
            self.bring_in_pending = self.completion_pending = False
            # Everyone else with chips acts again, clockwise from the aggressor.
            if True in folded or 0 in stacks:
                actors[:] = [i for i in AFTER[n][p] if not folded[i] and stacks[i] > 0]
            else:
                actors[:] = AFTER[n][p]
            self.opener = p
            if street == 7:
                self.last_aggressor = p
            # pokerkit: a raise at least as big as the last one reopens the betting for all.
            raise_size = self.raise_size
            if increment >= raise_size:
                self.acted = {p}
                raise_size = self.raise_size = increment
            self.aggressions += 1
            shorts = self.shorts
            all_in = not stacks[p]
            if all_in:
                shorts.append(increment)
                if sum(shorts) >= raise_size:
                    shorts.clear()
            elif shorts:
                shorts.clear()
            moves = (_new(ChipMove, (seat, cost, "bet")),)
            data = {
                "seat": seat,
                "action": kind,
                "street": street,
                "amount": cost,
                "to": target,
                "all_in": all_in,
            }
            self.phh_actions.append(f"p{p + 1} cbr {target}")
        if action.timed_out:
            data = {"seat": seat, "action": kind, "street": street, "timed_out": True, **data}
        out = [_new(Event, ("action", data, None, moves))]
        if not actors or last_live:
            self._end_betting(out)
        self.log.extend(out)
        return out

    # ---------------------------------------------------------------- showdown

    def _award_uncontested(self, winner: int, out: list[Event]) -> None:
        amount = sum(self.contrib)
        seat = self.seat_ids[winner]
        self.stacks[winner] += amount
        self.contrib = [0] * self.n
        self.street = 8
        final = self._final_stacks()
        self.result = {
            "showdown": False,
            "pots": [{"amount": amount, "winners": [seat], "shares": {str(seat): amount}}],
            "shown": {},
            "mucked": [],
            "stacks": final,
        }
        out.append(
            _new(
                Event,
                (
                    "award",
                    {"pot": 0, "seat": seat, "amount": amount, "uncontested": True},
                    None,
                    (_new(ChipMove, (seat, -amount, "award")),),
                ),
            )
        )
        out.append(_new(Event, ("hand_over", {"stacks": final.copy()}, None, ())))

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

    def showdown_order(self) -> list[int]:
        """§4.9: the last 7th-street bettor/raiser shows first, else the 7th-street opener;
        then clockwise."""
        live = [p for p in range(self.n) if not self.folded[p]]
        first = self.last_aggressor
        if first is None:
            first = self.seventh_opener
        if first is None:
            first = min(live, key=lambda p: _board_key(self.up[p]))
        return sorted(live, key=lambda p: (p - first) % self.n)

    def _showdown(self) -> list[Event]:
        out: list[Event] = []
        live = [p for p in range(self.n) if not self.folded[p]]
        order = self.showdown_order()
        extra = [self.community] if self.community is not None else []
        scores = {p: low_score([*self.down[p], *self.up[p], *extra]) for p in live}
        pots = build_pots(self.contrib, [not f for f in self.folded])
        best_shown: dict[int, int] = {}
        shown: dict[str, Any] = {}
        mucked: list[int] = []
        reveal_all = self.rules.showdown_reveal == "all"
        phh_extra = (
            CODE[self.community]
            if self._phh_community_in_hole and self.community is not None
            else ""
        )
        for p in order:
            seat = self.seat_ids[p]
            score = scores[p]
            mine = [k for k, pot in enumerate(pots) if p in pot.eligible]
            could_win = any(score >= best_shown.get(k, -1) for k in mine)
            if reveal_all or could_win:
                # the name of the score of the same cards: low_name(cards) without scoring
                # them again
                name = low_name_of_score(score)
                codes = [CODE[c] for c in self.hole_cards(p)]
                shown[str(seat)] = {"cards": codes, "low": name}
                for k in mine:
                    best_shown[k] = max(best_shown.get(k, -1), score)
                out.append(
                    _new(Event, ("show", {"seat": seat, "cards": codes[:], "low": name}, None, ()))
                )
                self.phh_actions.append(f"p{p + 1} sm {''.join(codes)}{phh_extra}")
            else:
                mucked.append(seat)
                out.append(_new(Event, ("muck", {"seat": seat}, None, ())))
                self.phh_actions.append(f"p{p + 1} sm")
        pot_results = []
        for k, pot in enumerate(pots):
            best = max(scores[p] for p in pot.eligible)
            winners = [p for p in pot.eligible if scores[p] == best]
            shares = split(pot.amount, winners)
            for p, amount in shares.items():
                seat = self.seat_ids[p]
                self.stacks[p] += amount
                out.append(
                    _new(
                        Event,
                        (
                            "award",
                            {"pot": k, "seat": seat, "amount": amount},
                            None,
                            (_new(ChipMove, (seat, -amount, "award")),),
                        ),
                    )
                )
            pot_results.append(
                {
                    "amount": pot.amount,
                    "winners": [self.seat_ids[p] for p in winners],
                    "shares": {str(self.seat_ids[p]): a for p, a in shares.items()},
                }
            )
        self.contrib = [0] * self.n
        self.street = 8
        self.result = {
            "showdown": True,
            "pots": pot_results,
            "shown": shown,
            "mucked": mucked,
            "stacks": self._final_stacks(),
        }
        out.append(_new(Event, ("hand_over", {"stacks": self._final_stacks()}, None, ())))
        return out

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
            "raise_size": self.raise_size,
            "shorts": list(self.shorts),
            "opener": self.opener,
            "last_aggressor": self.last_aggressor,
            "seventh_opener": self.seventh_opener,
            "phh_community_in_hole": self._phh_community_in_hole,
            "phh_actions": list(self.phh_actions),
            "result": self.result,
        }

    @classmethod
    def restore(cls, snap: Any, rng: random.Random | None = None) -> RazzHand:
        """Rebuild a hand from :meth:`snapshot`; raises SnapshotError naming a bad field.

        ``rng`` is accepted for symmetry with the constructor; the stored deck order means
        nothing random is needed to continue.
        """
        from bot.engine.razz._snapshot import load_snapshot

        return load_snapshot(cls, snap)

    def to_phh(self, *, players: list[str] | None = None) -> str:
        """This finished hand as PHH text (see :mod:`bot.engine.razz.phh`)."""
        from bot.engine.razz.phh import hand_to_phh

        return hand_to_phh(self, players=players)
