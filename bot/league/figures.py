"""The statistics a poker tracker shows, per player and hand, and their totals.

Definitions (PokerTracker's; the rule book's glossary, rules §11, says them for players):

- **VPIP**: the hands in which the player put chips in the pot voluntarily on the first
  betting round (a call, bet, raise or, in stud, a completion; blinds, antes and the
  bring-in are forced, checking is free), over the hands dealt less the *walks* (the big
  blind or bring-in winning when everyone else folds to it, with no decision).
- **PFR**: the hands in which the player raised on the first betting round (in stud: completed
  the bring-in or raised), over the same hands.
- **3-bet**: the hands in which the player re-raised when facing exactly one raise on the first
  betting round (Hold'em and Omaha: the big blind is the bet, the open raise the one
  raise; stud: the completion is the bet, so the 3-bet is the re-raise after completion
  and one raise), over the hands in which they faced exactly one raise with chips to
  raise with.
- **WTSD** (went to showdown): the hands the player took to a showdown, over the hands in
  which they saw the flop (stud: 4th street), all-in runouts included.
- **W$SD** (won at showdown): the showdowns in which the player won chips, over their
  showdowns.
- **AF** (aggression factor): bets and raises over calls, after the first betting round.
- **All-in luck**: in the hands where the betting ended with two or more players and cards to
  come, the chips the player won minus the chips they could expect
  (:mod:`bot.league.equity`).
- Zoot and Wheelers: the **lay-down rate**, lay-downs over lay-down windows the player
  chose in; **challenge success**, the games the player won as the challenger (best hand
  or tied for it) over the games they were the challenger.
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any

from bot import games as registry
from bot.league.equity import Pot, Runout, expected_chips
from bot.league.hand_record import Act, Deal, HandRecord, HandRecordError, read_hand

GUTS_GAMES = frozenset(registry.keys(family="guts"))


@dataclass(frozen=True, slots=True)
class Facts:
    """One player's part in one hand (poker) or game (Zoot, Wheelers); counts add up."""

    hands: int = 0
    """Poker hands dealt in."""
    walks: int = 0
    vpip: int = 0
    pfr: int = 0
    three_bet_chances: int = 0
    three_bets: int = 0
    saw_flop: int = 0
    showdowns: int = 0
    showdown_wins: int = 0
    aggressive: int = 0
    """Bets and raises after the first betting round."""
    calls: int = 0
    """Calls after the first betting round."""
    all_in_hands: int = 0
    expected: float = 0.0
    """Expected net chips in the all-in hands."""
    all_in_won: int = 0
    """Net chips won in the all-in hands."""
    games: int = 0
    """Zoot and Wheelers games dealt in."""
    windows: int = 0
    laydowns: int = 0
    challenges: int = 0
    challenge_wins: int = 0
    net: int = 0
    """Net chips of every hand and game counted."""


@dataclass(slots=True)
class Tally:
    """Sums of :class:`Facts` and the figures made of them (None where a figure has no
    hand to count)."""

    hands: int = 0
    walks: int = 0
    vpip: int = 0
    pfr: int = 0
    three_bet_chances: int = 0
    three_bets: int = 0
    saw_flop: int = 0
    showdowns: int = 0
    showdown_wins: int = 0
    aggressive: int = 0
    calls: int = 0
    all_in_hands: int = 0
    expected: float = 0.0
    all_in_won: int = 0
    games: int = 0
    windows: int = 0
    laydowns: int = 0
    challenges: int = 0
    challenge_wins: int = 0
    net: int = 0

    def add(self, facts: Facts) -> None:
        for f in _FIELDS:
            setattr(self, f, getattr(self, f) + getattr(facts, f))

    @classmethod
    def of(cls, facts: Iterable[Facts]) -> Tally:
        tally = cls()
        for f in facts:
            tally.add(f)
        return tally

    @staticmethod
    def _rate(part: int, whole: int) -> float | None:
        return part / whole if whole > 0 else None

    @property
    def vpip_rate(self) -> float | None:
        return self._rate(self.vpip, self.hands - self.walks)

    @property
    def pfr_rate(self) -> float | None:
        return self._rate(self.pfr, self.hands - self.walks)

    @property
    def three_bet_rate(self) -> float | None:
        return self._rate(self.three_bets, self.three_bet_chances)

    @property
    def wtsd_rate(self) -> float | None:
        return self._rate(self.showdowns, self.saw_flop)

    @property
    def wsd_rate(self) -> float | None:
        return self._rate(self.showdown_wins, self.showdowns)

    @property
    def aggression(self) -> float | None:
        """Bets and raises per call; infinite with no call, None with neither."""
        if self.calls:
            return self.aggressive / self.calls
        return math.inf if self.aggressive else None

    @property
    def luck(self) -> float | None:
        """Chips won minus chips expected in all-in hands."""
        return self.all_in_won - self.expected if self.all_in_hands else None

    @property
    def laydown_rate(self) -> float | None:
        return self._rate(self.laydowns, self.windows)

    @property
    def challenge_rate(self) -> float | None:
        return self._rate(self.challenge_wins, self.challenges)


_FIELDS = tuple(f.name for f in fields(Facts))


# ----------------------------------------------------------------------------- poker


def _pots(hand: HandRecord) -> tuple[Pot, ...]:
    """The pots by the chips put in: each level of the live players' totals is a pot, open
    to the live players who reached it; dead antes go to the first."""
    live = hand.live
    index = {p: i for i, p in enumerate(live)}
    dead = sum(hand.antes) if hand.antes_dead else 0
    put = [
        c - (a if hand.antes_dead else 0) for c, a in zip(hand.contributed, hand.antes, strict=True)
    ]
    levels = sorted({put[p] for p in live if put[p] > 0})
    pots: list[Pot] = []
    previous = 0
    for level in levels:
        amount = sum(min(c, level) - min(c, previous) for c in put)
        eligible = tuple(index[p] for p in live if put[p] >= level)
        pots.append(Pot(amount, eligible))
        previous = level
    beyond = sum(max(c - previous, 0) for c in put)  # a folded player's chips above them all
    if pots:
        first = pots[0]
        pots[0] = Pot(first.amount + dead, first.eligible)
        last = pots[-1]
        pots[-1] = Pot(last.amount + beyond, last.eligible)
    elif dead or beyond:
        pots.append(Pot(dead + beyond, tuple(range(len(live)))))
    return tuple(p for p in pots if p.amount > 0)


def runout_of(hand: HandRecord) -> Runout | None:
    """The all-in situation of ``hand`` (None if the betting went to the last card, or a
    stud deck ran short: rules §4.8's community card is left out)."""
    at = hand.runout_from
    if at is None or hand.community:
        return None
    live = hand.live
    known = {c for s in hand.steps[:at] if isinstance(s, Deal) for c in s.cards}
    if hand.stud:
        cards = tuple(hand.cards_of(p, until=at) for p in live)
        need = (7 - len(cards[0])) * len(live)
        if 52 - len(known) < need:
            return None
        dead = tuple(
            c
            for s in hand.steps[:at]
            if isinstance(s, Deal) and s.player is not None and hand.folded[s.player]
            for c, up in zip(s.cards, s.up, strict=True)
            if up
        )
        board: tuple[int, ...] = ()
    else:
        cards = tuple(hand.cards_of(p) for p in live)
        board = tuple(
            c for s in hand.steps[:at] if isinstance(s, Deal) and s.player is None for c in s.cards
        )
        dead = ()
    return Runout(
        hand.game, cards=cards, pots=_pots(hand), board=board, dead=dead, hi_lo=hand.hi_lo
    )


def poker_facts(hand: HandRecord) -> list[Facts]:
    """Each player's :class:`Facts` of one poker hand, in PHH order."""
    n = hand.n
    first = [a for a in hand.acts if a.street == 0]
    later = [a for a in hand.acts if a.street > 0]
    flop_at = next(
        (j for j, s in enumerate(hand.steps) if isinstance(s, Deal) and s.street >= 1), None
    )
    folded_before_flop: set[int] = set()
    if flop_at is not None:
        folded_before_flop = {
            s.player for s in hand.steps[:flop_at] if isinstance(s, Act) and s.kind == "fold"
        }
    received = hand.received
    net = [r - c for r, c in zip(received, hand.contributed, strict=True)]
    one_street = flop_at is None
    expected: dict[int, float] = {}
    runout = runout_of(hand)
    if runout is not None:
        equity = expected_chips(runout)
        for i, p in enumerate(hand.live):
            expected[p] = float(equity.expected[i]) - hand.contributed[p]
    out = []
    for p in range(n):
        mine = [a for a in first if a.player == p]
        decided = [a for a in mine if a.kind != "bring_in"]
        walk = not decided and one_street and hand.live == [p]
        chance, three = _three_bet(first, p)
        showdown = hand.showdown and not hand.folded[p]
        out.append(
            Facts(
                hands=1,
                walks=int(walk),
                vpip=int(any(a.kind in ("call", "bet", "raise", "complete") for a in mine)),
                pfr=int(any(a.kind in ("bet", "raise", "complete") for a in mine)),
                three_bet_chances=int(chance),
                three_bets=int(three),
                saw_flop=int(flop_at is not None and p not in folded_before_flop),
                showdowns=int(showdown),
                showdown_wins=int(showdown and received[p] > 0),
                aggressive=sum(1 for a in later if a.player == p and a.kind in ("bet", "raise")),
                calls=sum(1 for a in later if a.player == p and a.kind == "call"),
                all_in_hands=int(p in expected),
                expected=expected.get(p, 0.0),
                all_in_won=net[p] if p in expected else 0,
                net=net[p],
            )
        )
    return out


def _three_bet(first: Sequence[Act], p: int) -> tuple[bool, bool]:
    """(faced exactly one raise with chips to raise, re-raised then) on the first round."""
    raiser: int | None = None
    for a in first:
        if a.kind == "raise" and a.raises_before == 0:
            raiser = a.player
        if a.player == p and a.raises_before == 1 and raiser != p:
            could = a.kind == "raise" or a.behind > a.facing
            return could, a.kind == "raise"
    return False, False


# ----------------------------------------------------------------------------- guts


def guts_facts(history: str, result: Mapping[str, Any] | None) -> tuple[list[int], list[Facts]]:
    """The seats and each player's :class:`Facts` of one Zoot or Wheelers game, in the
    history's order. The challenger and the winners are the game's result (``hands.result``)."""
    try:
        data = tomllib.loads(history)
    except tomllib.TOMLDecodeError as exc:
        raise HandRecordError(f"not TOML: {exc}") from None
    seats = data.get("seats")
    actions = data.get("actions")
    if not isinstance(seats, list) or not isinstance(actions, list):
        raise HandRecordError("a guts history needs 'seats' and 'actions'")
    n = len(seats)
    start = data.get("starting_stacks", [0] * n)
    finish = data.get("finishing_stacks", start)
    dealt = [False] * n
    windows = [0] * n
    laydowns = [0] * n
    for text in actions:
        words = str(text).split("#", 1)[0].split()
        if words[:2] == ["d", "dh"] and len(words) == 4:
            dealt[int(words[2][1:]) - 1] = True
        elif len(words) == 2 and words[1] in ("ld", "po"):
            p = int(words[0][1:]) - 1
            windows[p] += 1
            laydowns[p] += words[1] == "ld"
    challenger = None if result is None else result.get("challenger")
    winners = set() if result is None else {int(w) for w in result.get("winners", [])}
    out = []
    for p, seat in enumerate(seats):
        mine = challenger is not None and int(challenger) == int(seat)
        out.append(
            Facts(
                games=int(dealt[p]),
                windows=windows[p],
                laydowns=laydowns[p],
                challenges=int(mine),
                challenge_wins=int(mine and int(seat) in winners),
                net=int(finish[p]) - int(start[p]),
            )
        )
    return [int(s) for s in seats], out


# ----------------------------------------------------------------------------- a stored hand


@dataclass(frozen=True, slots=True)
class StoredHand:
    """What the store keeps of a finished hand that the figures need."""

    hand_id: int
    game: str
    history: str
    seats: tuple[int, ...]
    """Seat numbers in the history's player order (p1 first); a Zoot or Wheelers history
    names its own."""
    users: Mapping[int, int]
    """Seat number -> user id."""
    result: Mapping[str, Any] | None = None


def hand_facts(hand: StoredHand) -> dict[int, Facts]:
    """user id -> :class:`Facts` of one stored hand (empty if its history is unreadable)."""
    seats: Sequence[int] = hand.seats
    try:
        if hand.game in GUTS_GAMES:
            seats, facts = guts_facts(hand.history, hand.result)
        else:
            facts = poker_facts(read_hand(hand.history))
    except (HandRecordError, ValueError, KeyError, TypeError):
        return {}
    if len(facts) != len(seats):
        return {}
    return {hand.users[s]: f for s, f in zip(seats, facts, strict=True) if s in hand.users}


def facts_of_hands(hands: Sequence[StoredHand]) -> list[tuple[int, dict[int, Facts]]]:
    """(hand id, user -> facts) of many hands: run in a worker process (picklable)."""
    return [(h.hand_id, hand_facts(h)) for h in hands]
