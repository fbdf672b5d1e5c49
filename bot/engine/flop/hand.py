"""One hand of Texas Hold'em or Omaha (high or hi-lo; no-, pot- or fixed-limit).

Check / can / do as in Razz: :meth:`FlopHand.legal_actions` says what each action kind
would do or why it is refused, :meth:`FlopHand.apply` does one and returns its events.

Positions: 0..n-1 clockwise from the dealer's left; with three or more players position 0
posts the small blind and position 1 the big blind; heads-up the button (position 1)
posts the small blind and acts first before the flop, position 0 posts the big blind
(RULES, the heads-up rule). PHH's ``pN`` is position N-1, as pokerkit orders players.

The engine plays Robert's Rules of Poker (RRP; issue 18): the fixed-limit cap of a bet (the
big blind before the flop) and three raises, no cap heads-up, the half-bet rule for all-ins
in fixed limit and the full-raise rule in no-limit and pot-limit, a short all-in big blind
that does not lower the price, each pot split on its own, folding allowed when checking
is free. pokerkit 0.7.7 reads each of these otherwise: every one is a class switch
(:attr:`FlopHand.BLIND_IS_THE_BET` ...) that the differential tests turn off to replay
pokerkit's hands exactly and to prove that each hand where the two differ differs by a
documented reading. Where the rules are silent the engine does what pokerkit does
(comments say "pokerkit:"): who may still act (a player who cannot lose more is skipped),
uncalled chips returned at the end of each street.

The button may sit on an empty seat (a dead button: ``dealer`` is then a seat number that
is not a player's, and the players are given in clockwise seat order), the small blind may
be dead (``dead_small``: position 0 posts the big blind) and a player new to the table may
post a big blind out of turn (``posts``: a live blind, acting in turn with the option to
raise); the table decides who posts (docs/rules.md 6.14).

>>> import random
>>> from bot.engine.actions import Action
>>> hand = FlopHand(FlopRules(), [(1, 500), (2, 500), (3, 500)], dealer=3, rng=random.Random(4))
>>> _ = hand.start()
>>> hand.to_act(), hand.raise_range(3)  # the button acts first: seats 1 and 2 are blinds
(frozenset({3}), (20, 500))
>>> [e.kind for e in hand.apply(Action(3, "fold"))]
['action']
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from typing import Any, ClassVar, Final

from bot.engine.actions import Action
from bot.engine.cards import CARDS, Card
from bot.engine.errors import GameError, InvalidConfig
from bot.engine.events import ChipMove, Event
from bot.engine.flop._snapshot import dump, load
from bot.engine.flop.house import HouseRules
from bot.engine.flop.options import AGGRESSIONS, OVER, ActionOptions
from bot.engine.flop.rules import FlopRules
from bot.engine.flop.showdown import award_uncontested

# Events and chip moves on the hot path are built from a whole tuple (every field, in
# order) with tuple.__new__, skipping the named tuple's Python-level constructor (as Razz).
_new: Final = tuple.__new__
CODE: Final[tuple[str, ...]] = tuple(str(c) for c in CARDS)
STREET_NAMES: Final = {1: "preflop", 2: "flop", 3: "turn", 4: "river"}
#: Board cards dealt at the start of each street.
BOARD_CARDS: Final = {2: 3, 3: 1, 4: 1}

#: ``AFTER[n][p]``: the other n - 1 positions clockwise from ``p``.
AFTER: Final = tuple(
    tuple(tuple((p + k) % n for k in range(1, n)) for p in range(n)) for n in range(10)
)
#: PHH action strings by position, built once.
PHH_CC: Final = tuple(f"p{p + 1} cc" for p in range(9))
PHH_FOLD: Final = tuple(f"p{p + 1} f" for p in range(9))
PHH_DEAL: Final = tuple(f"d dh p{p + 1} " for p in range(9))


#: ``rules.model_dump()`` by ``id(rules)`` (pydantic's dump costs more than a whole action;
#: the entry holds its rules, so the id cannot be reused while it is here).
_DUMPS: dict[int, tuple[FlopRules, dict[str, Any]]] = {}


#: ``to_act`` answers by seat, built once (frozensets are immutable, so shareable).
_TURNS: dict[int, frozenset[int]] = {}


def _rules_data(rules: FlopRules) -> dict[str, Any]:
    hit = _DUMPS.get(id(rules))
    if hit is None or hit[0] is not rules:
        if len(_DUMPS) >= 64:
            _DUMPS.clear()
        hit = _DUMPS[id(rules)] = (rules, rules.model_dump())
    return hit[1].copy()


def next_button(seats: Sequence[int], button: int) -> int:
    """The button after a hand: the next seat to the left (clockwise) of ``button``.

    ``seats`` are the players dealt the next hand (seat numbers increase clockwise); the
    old button may have left the table.

    >>> next_button([1, 4, 6], 4), next_button([1, 4, 6], 6), next_button([1, 6], 4)
    (6, 1, 6)
    """
    if not seats:
        raise InvalidConfig("seats", "no players for the next hand")
    ordered = sorted(seats)
    return next((s for s in ordered if s > button), ordered[0])


class FlopHand(ActionOptions, HouseRules):
    """One hand. Build it, call :meth:`start`, then :meth:`apply` actions.

    The deck is injected: a ``random.Random`` (default ``secrets.SystemRandom``) deals
    each card uniformly from those left (lazily: the deal has the distribution of an
    up-front shuffle), or ``deck`` stacks it (top first). Hole cards are dealt player
    by player from position 0, then the board; no burn cards (a stacked deck from a hand
    history has none).

    What home games play (:mod:`bot.engine.flop.house`): ``straddle`` is the seat that
    straddles (under the gun or the button), ``bomb`` a bomb pot's ante (no blinds, the
    hand starts on the flop) and ``boards`` its number of boards (1 or 2).
    """

    # Robert's Rules of Poker where pokerkit 0.7.7 reads otherwise (module docstring).
    #: Fixed limit: the big blind is the pre-flop round's bet (the blind and three raises;
    #: pokerkit allows four raises).
    BLIND_IS_THE_BET: ClassVar[bool] = True
    #: Fixed limit: no cap while two players not all-in contest the round.
    HEADS_UP_UNCAPPED: ClassVar[bool] = True
    #: A big blind all in for less still costs the full big blind to call.
    FULL_BIG_BLIND: ClassVar[bool] = True
    #: Fixed limit: an all-in of half a bet or more counts as a bet or raise (pokerkit: a
    #: full one only).
    HALF_BET_RULE: ClassVar[bool] = True
    #: Each pot is split on its own, with its own odd chip (pokerkit: pots left with the
    #: same winners are paid as one).
    POTS_APART: ClassVar[bool] = True
    #: A player may fold when checking is free (pokerkit, tournament mode: not; its hand
    #: histories allow it, but cannot finish a hand whose last player with chips folds so
    #: to an all-in player).
    FREE_FOLD: ClassVar[bool] = True

    def __init__(
        self,
        rules: FlopRules,
        players: Sequence[tuple[int, int]],
        dealer: int,
        *,
        rng: random.Random | None = None,
        deck: Sequence[Card] | None = None,
        dead_small: bool = False,
        posts: Sequence[int] = (),
        straddle: int | None = None,
        bomb: int = 0,
        boards: int = 1,
    ) -> None:
        n = len(players)
        if not rules.min_players <= n <= rules.max_players:
            raise InvalidConfig(
                "players", f"need {rules.min_players} to {rules.max_players} players, got {n}"
            )
        seat_list = [int(s) for s, _ in players]
        if len(set(seat_list)) != n:
            raise InvalidConfig("players", f"a seat appears twice in {seat_list}")
        for s, c in players:
            if c <= 0:
                raise InvalidConfig("players", f"seat {s} has no chips ({c})")
        if dealer in seat_list:
            d = seat_list.index(dealer) + 1
        elif seat_list == sorted(seat_list):
            # a dead button on an empty seat: position 0 is the first player after it
            d = next((i for i, s in enumerate(seat_list) if s > dealer), 0)
        else:
            raise InvalidConfig(
                "dealer", f"seat {dealer} is not a player's and the seats are not in order"
            )
        stacks = [int(c) for _, c in players]
        self.rules = rules
        self.dealer = dealer
        self.n = n
        self.seat_ids: tuple[int, ...] = (*seat_list[d:], *seat_list[:d])
        self.starting: list[int] = stacks[d:] + stacks[:d]
        if deck is not None:
            cards = [CARDS[int(c)] for c in deck]
            if len(set(cards)) != len(cards):
                raise InvalidConfig("deck", "a card appears twice in the stacked deck")
            self._rng: random.Random | None = None
        else:
            cards = list(CARDS)
            self._rng = rng or secrets.SystemRandom()
        #: Dealt cards in deal order, then the undealt ones (in no order while ``_rng``).
        self._deck: list[Card] = cards
        self._next = 0
        self.stacks: list[int] = self.starting[:]
        self.bets: list[int] = [0] * n
        self.contrib: list[int] = [0] * n
        self.dead = 0  # dead antes (in the main pot, belonging to no one's contribution)
        self.folded: list[bool] = [False] * n
        self.hole: list[list[Card]] = [[] for _ in range(n)]
        # Nominal blinds by position (heads-up: position 0 is the big blind; with a dead
        # small blind too, and a posted big blind of a new player is one more).
        blinds = [0] * n
        if n == 2:
            if dead_small or posts:
                raise InvalidConfig("blinds", "heads-up the button posts the small blind")
            blinds[0], blinds[1] = rules.big_blind, rules.small_blind
            self.bb_pos = 0
        elif dead_small:
            blinds[0] = rules.big_blind
            self.bb_pos = 0
        else:
            blinds[0], blinds[1] = rules.small_blind, rules.big_blind
            self.bb_pos = 1
        post_pos: list[int] = []
        if posts:
            where = dict(zip(self.seat_ids, range(n), strict=True))
            for seat in posts:
                p = where.get(seat, -1)
                if p <= self.bb_pos or p in post_pos:
                    raise InvalidConfig("posts", f"seat {seat} cannot post a big blind out of turn")
                blinds[p] = rules.big_blind
                post_pos.append(p)
        self.posts: tuple[int, ...] = tuple(sorted(post_pos))
        if boards not in (1, 2):
            raise InvalidConfig("boards", f"one or two boards, got {boards}")
        if bomb < 0:
            raise InvalidConfig("bomb", f"a bomb pot's ante cannot be negative ({bomb})")
        self.bomb = bomb
        self.straddle_pos: int | None = None
        if bomb:
            # a bomb pot: antes only, no blinds (nor a straddle, nor a posted big blind)
            blinds = [0] * n
            self.posts = ()
        elif straddle is not None:
            where = dict(zip(self.seat_ids, range(n), strict=True))
            p = where.get(straddle, -1)
            button = dealer in seat_list and p == n - 1
            if n < 3 or p in self.posts or (p != self.bb_pos + 1 and not button):
                raise InvalidConfig(
                    "straddle", f"seat {straddle} is neither under the gun nor on the button"
                )
            blinds[p] = rules.straddle_amount
            self.straddle_pos = p
        self.blinds = blinds
        self.board: list[Card] = []
        self.boards: list[list[Card]] = [self.board] + [[] for _ in range(boards - 1)]
        self._multi = boards > 1
        self.runs = 1
        self.choice: str | None = None
        self.choices: dict[int, str | None] = {}
        self.street = 0
        self.actors: list[int] = []
        self.acted: set[int] = set()
        self.top = 0
        self.level = 0
        self.capped = False
        self.raise_size = 0  # pokerkit: completion_betting_or_raising_amount
        self.aggressions = 0
        self.shorts: list[int] = []  # pokerkit: consecutive_short_all_in_amounts
        self.opener: int | None = None
        self.shown_early = False  # the hands were shown before an all-in run-out
        #: The current actor's allowed kinds, worked out once per turn (None: not yet),
        #: and with a bet/raise among them its minimum "to" total.
        self._kinds: tuple[str, ...] | None = None
        self._low = 0
        self._cap = rules.max_aggressions
        self._street_bet = rules.street_bet(1)
        self._half = self.HALF_BET_RULE and rules.betting == "fixed-limit"
        # RRP (rules 6.5): a player may fold even when checking is free
        self._check_kinds: tuple[str, ...] = ("fold", "check") if self.FREE_FOLD else ("check",)
        self._pos: dict[int, int] | None = None
        self.log: list[Event] = []
        self.phh_actions: list[str] = []
        self.result: dict[str, Any] | None = None

    # ------------------------------------------------------------------ queries

    @property
    def is_over(self) -> bool:
        return self.street == OVER

    @property
    def started(self) -> bool:
        return self.street != 0

    @property
    def street_name(self) -> str:
        return STREET_NAMES.get(self.street, "over" if self.is_over else "not started")

    def seat_stacks(self) -> dict[int, int]:
        """Each seat's chips behind (not counting chips in the pot)."""
        return {self.seat_ids[p]: self.stacks[p] for p in range(self.n)}

    @property
    def pot_total(self) -> int:
        """Every chip in the middle, the bets of this street included."""
        return 0 if self.is_over else sum(self.contrib) + self.dead

    def to_act(self) -> frozenset[int]:
        if not self.actors or self.street == OVER:
            return frozenset() if self.choice is None else self.choosing()
        seat = self.seat_ids[self.actors[0]]
        turn = _TURNS.get(seat)
        if turn is None:
            turn = _TURNS[seat] = frozenset((seat,))
        return turn

    def hole_cards(self, seat: int) -> list[Card]:
        return list(self.hole[self.position(seat)])

    def _live(self) -> list[int]:
        return [p for p in range(self.n) if not self.folded[p]]

    # --------------------------------------------------------------- the deal

    def _draw(self, k: int) -> list[Card]:
        deck, start = self._deck, self._next
        end = start + k
        if end > len(deck):
            raise GameError(f"the deck has {len(deck) - start} cards, {k} needed")
        rng = self._rng
        if rng is not None:
            # One Fisher-Yates step per card dealt (as Razz): a uniformly random undealt
            # card swapped into place, so a hand shuffles only the 9 to 41 cards it deals.
            random_ = rng.random
            left = len(deck)
            for i in range(start, end):
                j = i + int(random_() * (left - i))
                deck[i], deck[j] = deck[j], deck[i]
        self._next = end
        return deck[start:end]

    def fix_deck(self) -> None:
        """Shuffle the undealt cards once and deal them in that order from now on (a
        snapshot stores the order, so a restored hand deals the same cards)."""
        rng = self._rng
        if rng is not None:
            rest = self._deck[self._next :]
            rng.shuffle(rest)
            self._deck[self._next :] = rest
            self._rng = None

    def _pay(self, p: int, amount: int, kind: str, *, bet: bool = True) -> ChipMove:
        self.stacks[p] -= amount
        if bet:
            self.bets[p] += amount
            self.contrib[p] += amount
        return _new(ChipMove, (self.seat_ids[p], amount, kind))

    def start(self) -> list[Event]:
        """Antes, blinds, the hole cards and the first player's turn."""
        if self.street:
            raise GameError("this hand has already started")
        rules, n = self.rules, self.n
        self.street = 1
        out = [
            Event(
                "hand_start",
                {
                    "seats": list(self.seat_ids),
                    "stacks": self.starting[:],
                    "dealer": self.dealer,
                    "rules": _rules_data(rules),
                },
            )
        ]
        if self.bomb:
            self._bomb_antes(out)
        elif rules.ante:
            big = self.bb_pos
            antes = [0] * n
            for p in range(n):
                if not rules.bb_ante or p == big:
                    antes[p] = min(rules.ante, self.stacks[p])
            dead = rules.antes_dead
            moves = tuple(self._pay(p, a, "ante", bet=False) for p, a in enumerate(antes) if a)
            if dead:
                self.dead = sum(antes)
            else:
                self.contrib = antes[:]
            out.append(Event("antes", {"amounts": antes, "dead": dead}, None, moves))
            if not dead:
                # pokerkit (ante trimming): an ante above every other is partly returned.
                top, cutoff = sorted(antes)[-1:-3:-1]
                if top > cutoff:
                    out.append(self._refund(antes.index(top), top - cutoff))
        if not self.bomb:
            posted = [min(b, self.stacks[p]) for p, b in enumerate(self.blinds)]
            moves = tuple(self._pay(p, b, "blind") for p, b in enumerate(posted) if b)
            blinds: dict[str, Any] = {"amounts": posted}
            if self.bb_pos != (0 if n == 2 else 1):
                blinds["dead_small"] = True
            if self.posts:
                blinds["posts"] = [self.seat_ids[p] for p in self.posts]
            if self.straddle_pos is not None:
                blinds["straddle"] = self.seat_ids[self.straddle_pos]
            out.append(Event("blinds", blinds, None, moves))
        k = rules.hole_cards
        dealt = self._draw(k * n)
        seat_ids, hole, phh = self.seat_ids, self.hole, self.phh_actions
        for p in range(n):
            cards = dealt[p * k : p * k + k]
            hole[p] = cards
            codes = [CODE[c] for c in cards]
            seat = seat_ids[p]
            out.append(_new(Event, ("deal_hole", {"seat": seat, "cards": codes}, seat, ())))
            phh.append(PHH_DEAL[p] + "".join(codes))
        if self.bomb:
            self.street = 2  # a bomb pot: no betting before the flop
            self._deal_board(out)
        self._begin_betting(out)
        self.log.extend(out)
        return out

    def _bomb_antes(self, out: list[Event]) -> None:
        """A bomb pot: every player antes (live, as a bet all put in before the flop)."""
        antes = [min(self.bomb, s) for s in self.stacks]
        moves = tuple(self._pay(p, a, "ante", bet=False) for p, a in enumerate(antes) if a)
        self.contrib = antes[:]
        data = {"amounts": antes, "dead": False, "bomb": True, "boards": len(self.boards)}
        out.append(Event("antes", data, None, moves))
        top, cutoff = sorted(antes)[-1:-3:-1]
        if top > cutoff:  # an ante nobody else could match goes back in part (as pokerkit)
            out.append(self._refund(antes.index(top), top - cutoff))

    def _deal_board(self, out: list[Event]) -> None:
        if self._multi:
            self._deal_boards(out)
            return
        cards = self._draw(BOARD_CARDS[self.street])
        self.board.extend(cards)
        codes = [CODE[c] for c in cards]
        out.append(
            Event(
                "board",
                {
                    "street": self.street_name,
                    "cards": codes,
                    "board": [CODE[c] for c in self.board],
                },
            )
        )
        self.phh_actions.append(f"d db {''.join(codes)}")

    # ------------------------------------------------------------ betting flow

    def _begin_betting(self, out: list[Event]) -> None:
        n, bets = self.n, self.bets
        # pokerkit: the player after the largest blind posted opens (the first left of the
        # button after the flop, when no bets are out). A big blind posted out of turn by a
        # new player is not a straddle: it acts in turn.
        top, best, blinds, posts = 0, -1, self.blinds, self.posts
        for i in range(n):
            b = bets[i] if blinds[i] > 0 and i not in posts else 0
            if b >= best:
                top, best = i, b
        opener = (top + 1) % n
        order = (opener, *AFTER[n][opener])
        if self.straddle_pos is not None and self.street == 1:
            order = self._straddle_order(order)
            opener = order[0]
        self.opener = opener
        folded, stacks = self.folded, self.stacks
        # pokerkit: only a player who can still lose chips acts (the effective stack: up
        # to the second-largest total of the live players).
        totals = sorted(bets[i] + stacks[i] for i in range(n) if not folded[i])
        second = totals[-2]
        self.actors = [p for p in order if not folded[p] and stacks[p] > 0 and second - bets[p] > 0]
        self._kinds = None
        self._street_bet = self.rules.street_bet(self.street)
        self.acted = set()
        self.raise_size = 0
        self.aggressions = 0
        self.capped = False
        self.shorts = []
        price = max(bets)
        if self.street == 1:
            big = self.rules.big_blind
            if self.FULL_BIG_BLIND and price < big:
                price = big  # a short all-in big blind does not lower the price (RRP)
            if self._cap is not None and self.BLIND_IS_THE_BET:
                self.aggressions = 1  # the big blind is the round's bet (RRP)
            self.level = big if self._half else price
            if self.straddle_pos is not None:
                # the straddle is a blind raise: fixed limit, the round's first raise; else
                # the smallest raise goes one straddle over it
                if self._cap is not None:
                    self.aggressions += 1
                    self.level = price
                else:
                    self._street_bet = price
        else:
            self.level = price
        self.top = price
        data = {
            "street": STREET_NAMES[self.street],
            "opener": self.seat_ids[opener],
            "bet": self._street_bet,
        }
        out.append(_new(Event, ("betting", data, None, ())))
        actors = self.actors
        if not actors or (len(actors) == 1 and bets[actors[0]] >= price):
            self._end_betting(out)

    def _end_betting(self, out: list[Event]) -> None:
        self.actors = []
        bets = self.bets
        top, cutoff = sorted(bets)[-1:-3:-1]
        if top > cutoff:  # uncalled chips go back
            out.append(self._refund(bets.index(top), top - cutoff))
        self.bets = [0] * self.n
        live = self._live()
        if len(live) == 1:
            award_uncontested(self, live[0], out)
            return
        if self.street == 4 or sum(1 for p in live if self.stacks[p] > 0) <= 1:
            if self.street < 4:
                # Betting is closed (all-in): the hands are shown (pokerkit shows them here,
                # from the last opener round), then the board is run out.
                first = self.opener or 0
                for p in sorted(live, key=lambda i: (i - first) % self.n):
                    cards = "".join(CODE[c] for c in self.hole[p])
                    self.phh_actions.append(f"p{p + 1} sm {cards}")
                self.shown_early = True
                if self.rules.run_it_twice == "ask" and not self._multi:
                    self._ask_runout(out, live)  # Once or Twice (house.py)
                    return
            self._run_out(out)
            return
        self.street += 1
        self._deal_board(out)
        self._begin_betting(out)

    def _refund(self, p: int, amount: int) -> Event:
        self.stacks[p] += amount
        self.contrib[p] -= amount
        if self.bets[p] >= amount:
            self.bets[p] -= amount
        seat = self.seat_ids[p]
        return Event(
            "refund", {"seat": seat, "amount": amount}, chips=(ChipMove(seat, -amount, "refund"),)
        )

    def apply(self, action: Action) -> list[Event]:
        """Do ``action``; raises NotYourTurn / IllegalAction / GameOver changing nothing."""
        actors = self.actors
        kind = action.kind
        p = actors[0] if actors and self.street != OVER else -1
        if (
            p >= 0
            and action.amount is None
            and self.seat_ids[p] == action.seat
            and kind in (self._kinds or self._allowed(p))
        ):
            # A plain legal action by the current actor (_check's answer, precomputed).
            target: int | None = self._low if kind in AGGRESSIONS else None
        else:
            if self.choice is not None:
                return self._choose(action)  # Once/Twice, Show/Muck (house.py)
            p, target = self._check(action)
        seat = self.seat_ids[p]
        stacks, bets = self.stacks, self.bets
        del actors[0]
        self._kinds = None
        self.acted.add(p)
        street = STREET_NAMES[self.street]
        # The event data is one dict display per kind (keys: seat, action, street, then
        # amount, to, all_in).
        data: dict[str, Any]
        moves: tuple[ChipMove, ...] = ()
        if kind == "fold":
            self.folded[p] = True
            self.phh_actions.append(PHH_FOLD[p])
            data = {"seat": seat, "action": kind, "street": street}
        elif target is None:  # check or call
            mine = bets[p]
            cost = self.top - mine
            stack = stacks[p]
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
        else:
            kind = self.aggressive_kind()
            top = self.top
            increment = target - top
            cost = target - bets[p]
            moves = (self._pay(p, cost, "bet"),)
            folded = self.folded
            actors[:] = [i for i in AFTER[self.n][p] if not folded[i] and stacks[i] > 0]
            self.opener = p
            all_in = stacks[p] == 0
            self.top = target
            if self._half:
                # RRP's half-bet rule: a full bet or raise, or an all-in of half a bet or
                # more, counts (and a raise of a player with chips left reopens the betting
                # for all); a smaller all-in is not a raise: who already acted may only call
                if not all_in or 2 * (target - self.level) >= self._street_bet:
                    self.level = target
                    self.aggressions += 1
                    if not all_in:
                        self.acted = {p}
            else:
                # pokerkit: a raise at least as big as the largest one reopens the betting.
                if increment >= self.raise_size:
                    self.acted = {p}
                    self.raise_size = increment
                self.level = target
                self.aggressions += 1
                shorts = self.shorts
                if all_in:
                    shorts.append(increment)
                    if sum(shorts) >= self.raise_size:
                        shorts.clear()
                elif shorts:
                    shorts.clear()
            cap = self._cap
            if cap is not None and not self.capped and self.aggressions >= cap:
                # RRP: capped while three or more players not all-in contest the round;
                # heads-up the raising goes on (and a later fold does not lift a cap)
                self.capped = not self.HEADS_UP_UNCAPPED or (
                    sum(1 for i in range(self.n) if not folded[i] and stacks[i] > 0) >= 3
                )
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
            data["timed_out"] = True
        out = [_new(Event, ("action", data, None, moves))]
        if not actors or (kind == "fold" and self.folded.count(False) <= 1):
            self._end_betting(out)
        self.log.extend(out)
        return out

    # ---------------------------------------------------------------- records

    def snapshot(self) -> dict[str, Any]:
        """The whole state as JSON-able data (the deck order included); PHH text is
        :func:`bot.engine.flop.phh.hand_to_phh`."""
        self.fix_deck()
        return dump(self)

    @classmethod
    def restore(cls, snap: Any) -> FlopHand:
        """Rebuild a hand from :meth:`snapshot`; raises SnapshotError naming a bad field."""
        return load(cls, snap)
