"""A computer player for Seven-card Stud and Stud Hi-Lo (and, with its own starting hands,
Razz: :mod:`bot.engine.razz.policy`), for simulations and empty seats.

* **3rd street**: the three cards are ranked among all three-card starting hands of the
  game (:class:`~bot.engine.hands.odds.Percentiles`), after counting against the cards it
  needs that show in other hands (a pair whose third card is gone, a flush whose suit is
  out). Only the best few complete the bring-in (more when few players are still to act);
  a wider share calls the bring-in, a narrower one calls a completion, and the best handful
  raises. The bring-in completes only a strong hand, and calls a completion a little wider
  (it has half a bet in already).
* **4th to 7th street**: a hand is worth its equity against the live opponents' boards,
  their hidden cards and the cards to come dealt at random
  (:func:`~bot.engine.hands.odds.stud_equity`), discounted for every bet it faces. It bets
  its good hands, raises its strong ones and calls when the equity beats the price (in
  fixed limit the price of a call is small next to the pot).

Only the engine's public action API is used (:meth:`StudHand.legal_actions`, the cards,
bets and the event log), so the betting rules may change under it. Every random choice
comes from the injected ``rng``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations
from typing import Final, Literal, NamedTuple

from bot.engine.actions import Action
from bot.engine.cards import CARDS, Card
from bot.engine.hands.odds import Percentiles, StudParts, stud_equity
from bot.engine.stud.betting import StudHand

Style = Literal["tight", "loose"]


def _low(card: int) -> int:
    """Ace-low rank 1..13."""
    rank = (card >> 2) + 2
    return 1 if rank == 14 else rank


def high_start_score(cards: Sequence[Card]) -> float:
    """Points of three stud cards for high: trips, then pairs by rank (and kicker), then
    three to a straight flush, a flush or a straight, then high cards.

    >>> from bot.engine.cards import parse_cards
    >>> s = high_start_score
    >>> s(parse_cards("5s 5d 5c")) > s(parse_cards("As Ad 2c")) > s(parse_cards("Ks Qs Js"))
    True
    >>> s(parse_cards("Ks Qs Js")) > s(parse_cards("2s 2d 7c")) > s(parse_cards("Ac 9d 4h"))
    True
    """
    ranks = sorted(((int(c) >> 2) + 2 for c in cards), reverse=True)
    suits = {int(c) & 3 for c in cards}
    a, b, c = ranks
    if a == c:
        return 60.0 + a
    if a == b or b == c:
        pair, kicker = (a, c) if a == b else (b, a)
        return 20.0 + 2 * pair + kicker / 4
    distinct = set(ranks) | ({1} if a == 14 else set())
    straight = any(len(distinct & set(range(lo, lo + 5))) == 3 for lo in range(1, 11))
    flush = len(suits) == 1
    if straight and flush:
        return 24.0 + a / 2
    if flush:
        return 15.0 + a / 2 + b / 4
    if straight:
        return 13.0 + a / 2
    return (a + b) / 2


def low_start_score(cards: Sequence[Card]) -> float:
    """Points of three stud cards for an eight-or-better low: three different low cards
    (an ace best, then the lower the better), two low cards a little.

    >>> from bot.engine.cards import parse_cards
    >>> s = low_start_score
    >>> s(parse_cards("Ac 2d 3h")) > s(parse_cards("4c 6d 8h")) > s(parse_cards("2c 5d Kh"))
    True
    """
    lows = sorted({_low(int(c)) for c in cards if _low(int(c)) <= 8})
    if len(lows) == 3:
        return 34.0 - lows[-1] + (4 if lows[0] == 1 else 0) - lows[1] / 4
    if len(lows) == 2:
        return 10.0 - lows[-1] / 2 + (2 if lows[0] == 1 else 0)
    return 0.0


def hi_lo_start_score(cards: Sequence[Card]) -> float:
    """Stud Hi-Lo: the better of the high and the low points, more for a hand with both
    (aces with a low card, three low cards suited or in a row)."""
    high, low = high_start_score(cards), low_start_score(cards)
    ranks = [(int(c) >> 2) + 2 for c in cards]
    if 20 <= high < 60 and 14 not in ranks and max(ranks) > 8:
        high -= 4  # a middle pair plays for half the pot at best
    return max(high, low) + (4 if high >= 15 and low >= 20 else 0)


_THREES: Final = tuple(combinations(CARDS, 3))
_HIGH: Final = Percentiles(lambda: [high_start_score(h) for h in _THREES])
_HI_LO: Final = Percentiles(lambda: [hi_lo_start_score(h) for h in _THREES])


def _dead_points(hand: StudHand, p: int) -> float:
    """How much the cards showing in other hands spoil ``p``'s three for high: each card
    of a pair's rank that shows elsewhere, each card of a flush draw's suit."""
    mine = [*hand.down[p], *hand.up[p]]
    ranks = [int(c) >> 2 for c in mine]
    suits = [int(c) & 3 for c in mine]
    shown = [int(c) for i in range(hand.n) if i != p for c in hand.up[i]]
    pairs = {r for r in ranks if ranks.count(r) >= 2}
    penalty = 6.0 * sum(1 for c in shown if c >> 2 in pairs)
    if len(set(suits)) == 1:
        penalty += 2.0 * sum(1 for c in shown if c & 3 == suits[0])
    return penalty


def start_share(hand: StudHand, p: int) -> float:
    """The share of three-card starting hands (of this game) that ``p``'s cards beat."""
    cards = [*hand.down[p], *hand.up[p]][:3]
    if "low" in hand.PARTS:
        return _HI_LO.share(hi_lo_start_score(cards) - _dead_points(hand, p) / 2)
    return _HIGH.share(high_start_score(cards) - _dead_points(hand, p))


class Plan(NamedTuple):
    """The shares of 3rd-street hands (the best ones) a player takes each way."""

    complete: float  # complete the bring-in, first in with several players to act
    complete_late: float  # ... this much more for each player fewer still to act
    limp: float  # call the bring-in
    bring_in_complete: float  # the bring-in completes
    call: float  # call a completion
    bring_in_call: float  # the bring-in calls a completion with this much more
    raise_: float  # raise a completion
    call_raise: float  # call a raise (and more)


#: Seven-card Stud and Stud Hi-Lo.
PLAN: Final = Plan(
    complete=0.15,
    complete_late=0.03,
    limp=0.3,
    bring_in_complete=0.08,
    call=0.2,
    bring_in_call=0.05,
    raise_=0.04,
    call_raise=0.08,
)


def _raises(hand: StudHand) -> int:
    """Completions, bets and raises so far this street (from the hand's event log)."""
    raises = 0
    for event in reversed(hand.log):
        if event.kind == "betting":
            return raises
        if event.kind == "action":
            raises += event.data.get("action") in ("complete", "bet", "raise")
    # a hand restored from a snapshot has no log: the engine's own count
    return hand.aggressions


def choose(hand: StudHand, seat: int, rng: random.Random, style: Style = "tight") -> Action:
    """The action ``seat`` takes now (a legal one; the timeout's default when none is)."""
    parts: StudParts = "hi-lo" if "low" in hand.PARTS else "high"
    share = start_share(hand, hand.position(seat)) if hand.street == 3 else 0.0
    return decide(hand, seat, rng, share=share, parts=parts, style=style)


def decide(
    hand: StudHand,
    seat: int,
    rng: random.Random,
    *,
    share: float,
    parts: StudParts,
    style: str = "tight",
    plan: Plan = PLAN,
) -> Action:
    """The stud games' betting, given the starting hand's ``share`` (used on 3rd street)
    and the game's ``parts`` (how hands are scored later)."""
    opts = {o.kind for o in hand.legal_actions(seat) if o.allowed}
    if not opts:
        return hand.default_action(seat)
    passive = "check" if "check" in opts else "fold" if "fold" in opts else None
    aggressive = next((k for k in ("complete", "bet", "raise") if k in opts), None)
    p = hand.position(seat)
    widen = 1.5 if style == "loose" else 1.0

    def act(kind: str | None) -> Action:
        if kind is None or kind not in opts:
            kind = "bring_in" if "bring_in" in opts else passive or sorted(opts)[0]
        return Action(seat, kind)

    if hand.street == 3:
        top = 1.0 - share + rng.uniform(-0.02, 0.02)  # 0 = the best hand
        raises = _raises(hand)
        if "bring_in" in opts:  # the bring-in's choice: complete, or post the bring-in
            return act("complete" if top < plan.bring_in_complete * widen else "bring_in")
        if raises == 0:
            behind = sum(1 for q in hand.actors[1:] if not hand.folded[q])
            late = max(0, 4 - behind) * plan.complete_late
            if top < (plan.complete + late) * widen:
                return act(aggressive or "call")
            return act("call" if top < plan.limp * widen else passive)
        brought_in = hand.bets[p] > 0
        if raises == 1:
            if top < plan.raise_ * widen:
                return act(aggressive or "call")
            wide = plan.call + (plan.bring_in_call if brought_in else 0.0)
            return act("call" if top < wide * widen else passive)
        if top < plan.raise_ / 2 * widen:
            return act(aggressive or "call")
        return act("call" if top < plan.call_raise * widen else passive)
    return act(_later(hand, p, rng, parts=parts, style=style, opts=opts))


def _later(
    hand: StudHand,
    p: int,
    rng: random.Random,
    *,
    parts: StudParts,
    style: str,
    opts: set[str],
) -> str | None:
    """4th street on: the kind to take (None: check, or fold when there is a bet)."""
    live = [i for i in range(hand.n) if i != p and not hand.folded[i]]
    community = [hand.community] if hand.community is not None else []
    mine = [*hand.down[p], *hand.up[p], *community]
    others = [[*hand.up[i], *community] for i in live]
    dead = [c for i in range(hand.n) if hand.folded[i] for c in hand.up[i]]
    equity = stud_equity(mine, others, dead, rng, parts=parts, trials=_trials(len(live)))
    # the equity against one opponent (as if each were beaten independently)
    per = max(0.0, min(1.0, equity ** (1 / max(1, len(live))) + rng.uniform(-0.03, 0.03)))
    value, strong = (0.62, 0.8) if style != "loose" else (0.55, 0.75)
    bets = hand.bets
    owed = max(bets) - bets[p]
    if owed <= 0:
        return "bet" if per >= value and rng.random() < 0.85 else None
    # who bets holds better than random cards, the more so the more bets
    against = per ** (1 + 0.5 * max(1, _raises(hand)))
    share = against ** max(1, len(live))
    price = owed / (hand.pot_total + owed)
    if against >= strong and "raise" in opts and rng.random() < 0.6:
        return "raise"
    return "call" if share >= price + 0.02 else None


def _trials(opponents: int) -> int:
    """Monte-Carlo deals: fewer the more opponents (each deal scores every hand)."""
    return max(20, min(60, 180 // (opponents + 1)))
