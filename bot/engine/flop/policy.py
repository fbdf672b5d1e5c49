"""A computer player for Hold'em and Omaha, for simulations and empty seats.

Plain poker sense, no solver, cheap enough for thousands of simulated hands:

* **Before the flop** a starting hand is ranked among all starting hands of its game
  (:class:`~bot.engine.hands.odds.Percentiles`: Hold'em by the Chen formula, Omaha by a
  four-card score of pairs, suits, connected ranks, high cards and, in hi-lo, low cards).
  First in, a player raises the top share of hands that its position allows (the fewer
  players still to act, the wider) and folds the rest; the small blind also completes some;
  facing a raise it calls with a narrower share (wider in the big blind, which is getting
  a price) and re-raises with the best few; facing a re-raise only premium hands go on.
* **After the flop** a hand is worth its equity against the live opponents holding random
  cards (:func:`~bot.engine.hands.odds.flop_equity`), discounted for every bet it faces
  (who bets holds better than random cards). It bets its good hands, continues its
  pre-flop raise on some flops, calls when the equity beats the price and raises its
  strong hands.
* **Sizes** are fractions of the pot within the legal range (never a shove for its own
  sake): a raise first in to two and a half big blinds, re-raises about three times,
  bets of a half to three quarters of the pot. All in only when the bet would commit
  most of the stack anyway with a strong hand, or with a short stack (push or fold).

Only the engine's public action API is used (:meth:`FlopHand.legal_actions`,
:meth:`FlopHand.raise_range`, the hand's cards, bets, stacks and event log), so the
betting rules may change under it. ``style``: "tight" (the tables' player), "loose"
(plays and bets more) or "random" (uniform among the legal kinds). Every random choice
comes from the injected ``rng``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations
from typing import Final, Literal, NamedTuple

from bot.engine.actions import Action
from bot.engine.cards import CARDS, Card
from bot.engine.flop.hand import FlopHand
from bot.engine.hands.odds import Percentiles, flop_equity, sampled_hands

Style = Literal["tight", "loose", "random"]

# ----------------------------------------------------------------- starting hands

_CHEN_HIGH: Final = {14: 10.0, 13: 8.0, 12: 7.0, 11: 6.0}


def chen_score(cards: Sequence[Card]) -> float:
    """Bill Chen's points of a Hold'em starting hand (unrounded): the high card's points,
    doubled for a pair (at least 5), +2 suited, minus the gap, +1 for small connectors.

    >>> from bot.engine.cards import parse_cards
    >>> [chen_score(parse_cards(text)) for text in ("As Ad", "Ks Qs", "7c 2d")]
    [20.0, 10.0, -1.5]
    """
    a, b = int(cards[0]), int(cards[1])
    hi, lo = max(a >> 2, b >> 2) + 2, min(a >> 2, b >> 2) + 2
    points = _CHEN_HIGH.get(hi, hi / 2)
    if hi == lo:
        return max(5.0, 2 * points)
    if a & 3 == b & 3:
        points += 2
    gap = hi - lo - 1
    points -= (0, 1, 2, 4)[gap] if gap < 4 else 5
    if gap <= 1 and hi < 12:
        points += 1
    return points


def omaha_score(cards: Sequence[Card], hi_lo: bool = False) -> float:
    """Points of an Omaha starting hand: pairs (high ones most), two suited cards (with
    the ace or king most; double-suited counts twice), ranks close enough to make
    straights together, high cards; trips and unconnected "dangling" cards count against.
    Hi-lo adds points for low cards, most for an ace with a deuce or a three.

    >>> from bot.engine.cards import parse_cards
    >>> omaha_score(parse_cards("As Ah Ks Kh")) > omaha_score(parse_cards("Jh Tc 9d 8s"))
    True
    >>> low_draw, two_pair = parse_cards("As 2s 3d Kd"), parse_cards("Qs Qd 9c 9h")
    >>> omaha_score(low_draw, True) > omaha_score(two_pair, True)
    True
    """
    ranks = [(int(c) >> 2) + 2 for c in cards]
    suits = [int(c) & 3 for c in cards]
    counts = {r: ranks.count(r) for r in ranks}
    points = 0.0
    for r, k in counts.items():
        if k == 2:
            points += 3 + (r - 2) * 0.5
        elif k == 3:
            points += (r - 2) * 0.2
        elif k == 4:
            points -= 4
    for s in set(suits):
        held = [r for r, t in zip(ranks, suits, strict=True) if t == s]
        if len(held) >= 2:
            top = max(held)
            points += (2.0 if len(held) == 2 else 1.0) + (2 if top == 14 else 1 if top == 13 else 0)
    distinct = set(ranks) | ({1} if 14 in ranks else set())
    window = max(len(distinct & set(range(lo, lo + 5))) for lo in range(1, 11))
    points += {4: 6.0, 3: 3.5, 2: 1.0}.get(window, 0.0)
    points += sum(max(0, r - 9) for r in ranks) * 0.5
    for r, s in zip(ranks, suits, strict=True):
        near = any(
            abs(r - o) <= 4 or (r == 14 and o <= 5) or (o == 14 and r <= 5) for o in ranks if o != r
        )
        if counts[r] == 1 and suits.count(s) == 1 and not near:
            points -= 1.5
    if not hi_lo:
        return points
    lows = {1 if r == 14 else r for r in ranks if r <= 8 or r == 14}
    low = 0.0
    if 1 in lows:
        low += 7 if 2 in lows else 6 if 3 in lows else 3.5 if lows & {4, 5} else 1.5
    elif {2, 3} <= lows:
        low += 3
    low += max(0, len(lows) - 2) * 1.5
    low -= sum(1 for r, k in counts.items() if k >= 2 and (r <= 8 or r == 14)) * 1.5
    return 0.8 * points + 1.6 * low


_HOLDEM: Final = Percentiles(lambda: [chen_score(c) for c in combinations(CARDS, 2)])
_OMAHA: Final = Percentiles(lambda: [omaha_score(h) for h in sampled_hands(4, 10_000)])
_OMAHA8: Final = Percentiles(lambda: [omaha_score(h, True) for h in sampled_hands(4, 10_000)])


def starting_share(hand: FlopHand, p: int) -> float:
    """The share of starting hands of this game that position ``p``'s hole cards beat."""
    cards = hand.hole[p]
    if hand.rules.game == "holdem":
        return _HOLDEM.share(chen_score(cards))
    if hand.rules.split == "hi-lo":
        return _OMAHA8.share(omaha_score(cards, True))
    return _OMAHA.share(omaha_score(cards))


class _Plan(NamedTuple):
    """The shares of starting hands (the best ones) a player takes each way."""

    open: tuple[float, ...]  # raise first in, by players still to act (index capped)
    complete: float  # the small blind also completes this much more, unraised
    limp: float  # over-limp behind limpers: this much more than the open share
    call: float  # call one raise
    blind_call: float  # the big blind calls one raise with this much more
    three_bet: float  # re-raise one raise
    call_three: float  # call a re-raise
    four_bet: float  # raise again, or call when it is all in


#: By game: Hold'em, Omaha (either split). The open shares, first in with 1 .. 6+
#: players still to act: the small blind against the big blind, the button, ... .
_PLANS: Final = {
    "holdem": _Plan(
        open=(0.5, 0.42, 0.34, 0.28, 0.23, 0.2),
        complete=0.15,
        limp=0.06,
        call=0.13,
        blind_call=0.14,
        three_bet=0.04,
        call_three=0.05,
        four_bet=0.015,
    ),
    "omaha": _Plan(
        open=(0.48, 0.4, 0.33, 0.27, 0.23, 0.2),
        complete=0.15,
        limp=0.08,
        call=0.15,
        blind_call=0.15,
        three_bet=0.04,
        call_three=0.06,
        four_bet=0.015,
    ),
}
#: Fixed limit: raises cost a bet, so more calls and re-raises.
_LIMIT_PLAN: Final = _Plan(
    open=(0.5, 0.42, 0.34, 0.28, 0.23, 0.2),
    complete=0.15,
    limp=0.06,
    call=0.15,
    blind_call=0.15,
    three_bet=0.05,
    call_three=0.08,
    four_bet=0.03,
)

#: Post-flop, by game: the equity per opponent (against the hands that would call, or
#: the range that bet) to bet for value, to raise.
_VALUE: Final = {"holdem": (0.56, 0.66), "omaha": (0.55, 0.64)}
#: A short stack (in big blinds) pushes or folds before the flop (no-limit, pot-limit).
SHORT_STACK_BB: Final = 12


class _Round(NamedTuple):
    """What happened so far in the current betting round (from the hand's event log)."""

    raises: int  # bets and raises (the blinds not counted)
    calls: int  # calls
    aggressor: int | None  # the seat of the last bet or raise before the flop


def _round(hand: FlopHand) -> _Round:
    raises = calls = 0
    for event in reversed(hand.log):
        if event.kind == "betting":
            break
        if event.kind == "action":
            kind = event.data.get("action")
            raises += kind in ("bet", "raise")
            calls += kind == "call"
    else:
        # a hand restored from a snapshot has no log: the engine's own count
        return _Round(hand.aggressions, 0, None)
    aggressor: int | None = None
    if hand.street > 1:
        for event in hand.log:
            data = event.data
            if (
                event.kind == "action"
                and data.get("street") == "preflop"
                and data.get("action") in ("bet", "raise")
            ):
                aggressor = data.get("seat")
    return _Round(raises, calls, aggressor)


def _open_share(plan: _Plan, behind: int) -> float:
    """The share of hands raised first in with ``behind`` players still to act."""
    return plan.open[max(0, min(behind, len(plan.open)) - 1)]


def _clamp(to: int, span: tuple[int, int]) -> int:
    low, high = span
    to = max(low, min(high, to))
    # never leave crumbs behind: a bet of nearly everything is everything
    return high if to >= low and high - to < (high - low) // 8 else to


def choose(hand: FlopHand, seat: int, rng: random.Random, style: Style = "tight") -> Action:
    """The action ``seat`` takes now: always a legal one (the timeout's default when no
    kind is allowed). ``style="random"`` picks uniformly among the legal kinds (and a
    uniform amount in the legal range)."""
    opts = {o.kind: o for o in hand.legal_actions(seat) if o.allowed}
    if not opts:
        return hand.default_action(seat)
    span = hand.raise_range(seat)
    aggressive = next((k for k in ("bet", "raise") if k in opts), None)
    if aggressive is None:
        span = None
    if style == "random":
        kind = rng.choice(list(opts))
        if kind == aggressive and span is not None:
            return Action(seat, kind, amount=rng.randint(*span))
        return Action(seat, kind)
    p = hand.position(seat)
    loose = style == "loose"
    owed = (opts["call"].amount or 0) if "call" in opts else 0
    passive = Action(seat, "check") if "check" in opts else None
    if hand.street <= 1 or not hand.board:
        return _preflop(hand, seat, p, rng, loose, owed, aggressive, span, passive)
    return _postflop(hand, seat, p, rng, loose, owed, aggressive, span, passive)


def _fold_or_check(seat: int, passive: Action | None) -> Action:
    return passive if passive is not None else Action(seat, "fold")


def _preflop(
    hand: FlopHand,
    seat: int,
    p: int,
    rng: random.Random,
    loose: bool,
    owed: int,
    aggressive: str | None,
    span: tuple[int, int] | None,
    passive: Action | None,
) -> Action:
    rules = hand.rules
    plan = _LIMIT_PLAN if rules.betting == "fixed-limit" else _PLANS[rules.game]
    widen = 1.5 if loose else 1.0
    top = 1.0 - starting_share(hand, p) + rng.uniform(-0.02, 0.02)  # 0 = the best hand
    bb = max(1, rules.big_blind)
    bets = hand.bets
    high = max(bets)
    mine = hand.stacks[p] + bets[p]
    rnd = _round(hand)
    behind = sum(1 for q in hand.actors[1:] if not hand.folded[q])
    big_blind = hand.blinds[p] >= bb and hand.blinds[p] == max(hand.blinds)
    short = rules.betting != "fixed-limit" and mine <= SHORT_STACK_BB * bb

    def raise_to(to: int) -> Action | None:
        if aggressive is None or span is None:
            return None
        if rules.betting == "fixed-limit":
            return Action(seat, aggressive, amount=span[0])
        if rules.betting == "pot-limit":
            to = span[1]
        target = _clamp(to, span)
        if target >= 0.4 * mine:  # committing most of the stack: all of it
            target = span[1]
        return Action(seat, aggressive, amount=target)

    def call() -> Action:
        return Action(seat, "call") if owed else _fold_or_check(seat, passive)

    if short:
        # push or fold: the stack is too short to raise and fold
        if rnd.raises == 0 and top < _open_share(plan, behind) * widen:
            return raise_to(mine) or call()
        if rnd.raises > 0 and top < plan.call * widen:
            return raise_to(mine) or call()
        return call() if owed == 0 else _fold_or_check(seat, passive)
    if rnd.raises == 0:
        if owed == 0:  # the big blind, unraised
            if rnd.calls and top < plan.three_bet * 2 * widen:
                return raise_to((3 + rnd.calls) * bb) or _fold_or_check(seat, passive)
            return _fold_or_check(seat, passive)
        share = _open_share(plan, behind) * widen
        if top < share:
            size = 2.5 if behind > 2 else 3.0
            return raise_to(int((size + rnd.calls) * bb)) or call()
        if hand.blinds[p] and not big_blind and top < share + plan.complete * widen:
            return call()  # the small blind completes
        if rnd.calls and top < share + plan.limp * widen:
            return call()
        return _fold_or_check(seat, passive)
    price = owed / max(1, mine)
    if rnd.raises == 1:
        if top < plan.three_bet * widen:
            return raise_to(int(3 * high + rnd.calls * high)) or call()
        share = plan.call + (plan.blind_call if big_blind else 0.0)
        if price > 0.25:
            share = plan.three_bet  # a big raise: only the best hands
        return call() if top < share * widen else _fold_or_check(seat, passive)
    if rnd.raises == 2:
        if top < plan.four_bet * widen:
            return raise_to(int(2.3 * high)) or call()
        share = plan.call_three if price <= 0.3 else plan.four_bet
        return call() if top < share * widen else _fold_or_check(seat, passive)
    if top < plan.four_bet * widen:
        return raise_to(mine) or call()
    return _fold_or_check(seat, passive)


def _trials(hand: FlopHand, opponents: int) -> int:
    """Monte-Carlo deals: fewer for Omaha (each deal scores sixty five-card hands)."""
    if hand.rules.game == "omaha":
        return max(16, min(48, 144 // (opponents + 1)))
    return max(24, min(80, 240 // (opponents + 1)))


def _postflop(
    hand: FlopHand,
    seat: int,
    p: int,
    rng: random.Random,
    loose: bool,
    owed: int,
    aggressive: str | None,
    span: tuple[int, int] | None,
    passive: Action | None,
) -> Action:
    rules = hand.rules
    live = [q for q in range(hand.n) if q != p and not hand.folded[q]]
    opponents = len(live)
    # who bets and calls holds better than random cards; deciding to bet, count on the
    # hands that would call it
    ranges = _ranges(hand, live, 1.0 if owed else CALL_RANGE)
    equity = flop_equity(
        hand.hole[p],
        hand.board,
        opponents,
        rng,
        omaha=rules.game == "omaha",
        hi_lo=rules.split == "hi-lo",
        trials=_trials(hand, opponents),
        ranges=ranges,
    )
    equity = max(0.0, min(1.0, equity + rng.uniform(-0.03, 0.03)))
    # the equity against one opponent (as if each were beaten independently)
    per = equity ** (1 / max(1, opponents))
    value, strong = _VALUE[rules.game]
    if loose:
        value, strong = value - 0.06, strong - 0.05
    pot = hand.pot_total
    rnd = _round(hand)

    def bet(fraction: float, *, commit: bool) -> Action | None:
        """A bet or raise of ``fraction`` of the pot (after calling); all in when that
        would commit most of the stack and ``commit``; None when it would and not."""
        if aggressive is None or span is None:
            return None
        if rules.betting == "fixed-limit":
            return Action(seat, aggressive, amount=span[0])
        top = max(hand.bets)
        to = top + int(fraction * (pot + owed))
        target = _clamp(to, span)
        if target - hand.bets[p] >= 0.5 * hand.stacks[p]:
            if not commit:
                return None
            target = span[1]
        return Action(seat, aggressive, amount=target)

    if owed == 0:
        if per >= value and rng.random() < 0.85:
            return bet(rng.uniform(0.5, 0.75), commit=True) or _fold_or_check(seat, passive)
        continuation = (
            hand.street == 2 and rnd.aggressor == seat and opponents <= 2 and rnd.raises == 0
        )
        if continuation and rng.random() < 0.55:
            return bet(0.5, commit=False) or _fold_or_check(seat, passive)
        last = not any(not hand.folded[q] for q in hand.actors[1:])
        if last and rnd.raises == 0 and per >= value - 0.1 and rng.random() < 0.5:
            return bet(0.5, commit=False) or _fold_or_check(seat, passive)
        return _fold_or_check(seat, passive)
    price = owed / (pot + owed)
    if per >= strong and rng.random() < 0.7:
        action = bet(0.6, commit=True)
        if action is not None:
            return action
    if equity >= price + 0.03:
        return Action(seat, "call")
    return _fold_or_check(seat, passive)


#: Deciding to bet: the share of each opponent's range that would call.
CALL_RANGE: Final = 0.7
#: How each action after the flop narrows a player's range (the strongest part stays).
_NARROWING: Final = {"call": 0.65, "bet": 0.45, "raise": 0.25}


def _ranges(hand: FlopHand, live: list[int], then: float) -> list[float]:
    """The share of holdings (the strongest on the board now) each of ``live`` is taken
    to hold, from its actions after the flop (then times ``then``)."""
    seats = {hand.seat_ids[q]: 1.0 for q in live}
    for event in hand.log:
        data = event.data
        if event.kind == "action" and data.get("street") != "preflop":
            seat = data.get("seat")
            if seat in seats:
                seats[seat] *= _NARROWING.get(data.get("action", ""), 1.0)
    return [max(0.04, seats[hand.seat_ids[q]] * then) for q in live]
