"""A second, independent implementation of the statistics, for the differential test.

It shares no code with :mod:`bot.league.figures` / :mod:`bot.league.hand_record` /
:mod:`bot.league.equity`: each PHH is loaded and replayed action by action by pokerkit
(``HandHistory.loads``, its state machine says who acts, the chips each call moves, who may
raise, the street and the pots); the figures are then counted straight from PokerTracker's
definitions. All-in equity: every runout enumerated when there are at most :data:`EXACT`
of them (pokerkit's own hand evaluators for a last card, ours beyond, for speed),
otherwise a plain Monte Carlo of :data:`SAMPLES` runouts whose standard error the test
allows for. Zoot and Wheelers: the TOML history's actions and stacks.
"""

from __future__ import annotations

import math
import random
import tomllib
from dataclasses import dataclass, field, replace
from itertools import combinations
from typing import Any

from pokerkit import (
    BoardDealing,
    BringInPosting,
    Card,
    CheckingOrCalling,
    CompletionBettingOrRaisingTo,
    Deck,
    EightOrBetterLowHand,
    Folding,
    HandHistory,
    HoleDealing,
    OmahaEightOrBetterLowHand,
    OmahaHoldemHand,
    StandardHighHand,
    StandardLowHand,
)

from bot.engine.cards import parse_card
from bot.engine.hands import high_score, low8_score, low_score, omaha_high_score
from bot.engine.hands.low8 import omaha_low8_score

EXACT = 1_200
POKERKIT_EVALUATED = 50
SAMPLES = 2_500


@dataclass
class Second:
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
    variance: float = 0.0
    """Sum of the Monte Carlo variances of ``expected`` (0 for exact runouts)."""
    all_in_won: int = 0
    games: int = 0
    windows: int = 0
    laydowns: int = 0
    challenges: int = 0
    challenge_wins: int = 0
    exact_expected: dict[int, float] = field(default_factory=dict)
    """hand id -> expected net chips, for the runouts counted exactly."""


def _game(variant: str) -> tuple[str, bool]:
    if variant == "FR":
        return "razz", False
    if variant.startswith("F7S"):
        return "stud", variant.endswith("/8")
    return ("omaha" if "O" in variant else "holdem"), variant.endswith("/8")


def _kind_of(op: Any) -> str | None:
    if isinstance(op, Folding):
        return "fold"
    if isinstance(op, CheckingOrCalling):
        return "call" if op.amount else "check"
    if isinstance(op, CompletionBettingOrRaisingTo):
        return "cbr"
    if isinstance(op, BringInPosting):
        return "bring_in"
    return None


class _Uncapped(HandHistory):
    """pokerkit's game with no cap on a round's raises: Robert's Rules let the raising go
    on heads-up (rules 6.6, 8.6), where pokerkit stops at four. This implementation replays
    the hands the engines played (they check the cap), it does not judge them."""

    def create_game(self) -> Any:
        game = super().create_game()
        game.streets = tuple(
            replace(s, max_completion_betting_or_raising_count=None) for s in game.streets
        )
        return game


def poker_hand(text: str) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    """Each player's counts of one PHH hand (PHH order), and the all-in situation (pots,
    cards, stacks) if the betting ended with cards to come."""
    hh = _Uncapped.loads(text)
    game, hi_lo = _game(hh.variant)
    stud = game in ("stud", "razz")
    n = len(hh.starting_stacks)
    rows: list[dict[str, Any]] = [
        {k: 0 for k in ("vpip", "pfr", "tbc", "tb", "tbc_seen", "agg", "calls", "acted0")}
        for _ in range(n)
    ]
    folded = [False] * n
    first_raiser: int | None = None
    raises0 = 0
    completed = False
    flop_seen: list[bool] | None = None
    allin: dict[str, Any] | None = None
    actions = list(hh.actions)
    betting_words = ("f", "cc", "cbr", "pb")
    last_bet = max(
        (i for i, a in enumerate(actions) if a.split()[1:2] and a.split()[1] in betting_words),
        default=-1,
    )
    done = 0  # actions applied
    could_raise = False
    street: int | None = 0
    before = 0
    previous: dict[str, Any] = {}
    most_put = [0] * n
    for state, action in hh.state_actions:
        if action is not None and done > last_bet and allin is None and _next_street(state, action):
            allin = _runout(previous, hh.starting_stacks, folded, game, hi_lo)
        if action is not None:
            words = action.split("#")[0].split()
            for op in state.operations[before:]:
                if _reaches_flop(op, state) and flop_seen is None:
                    flop_seen = [not f for f in folded]
                kind = _kind_of(op)
                if kind is None or words[0] == "d":
                    continue
                p = op.player_index
                row = rows[p]
                if kind == "fold":
                    folded[p] = True
                if street == 0 and kind != "bring_in":
                    row["acted0"] = 1
                if street == 0:
                    raise_kind = kind == "cbr" and not (stud and not completed)
                    if kind == "cbr" and stud and not completed:
                        completed = True  # the completion: a bet, not a raise
                    if raises0 == 1 and first_raiser != p and not row["tbc_seen"]:
                        row["tbc_seen"] = 1
                        row["tbc"] = int(could_raise)
                        row["tb"] = int(raise_kind)
                    if kind in ("call", "cbr"):
                        row["vpip"] = 1
                    if kind == "cbr":
                        row["pfr"] = 1
                    if raise_kind:
                        raises0 += 1
                        if raises0 == 1:
                            first_raiser = p
                elif street is not None:
                    if kind == "cbr":
                        row["agg"] += 1
                    elif kind == "call":
                        row["calls"] += 1
            done += 1
        else:
            for op in state.operations[before:]:
                if _reaches_flop(op, state) and flop_seen is None:
                    flop_seen = [not f for f in folded]
        # the most each player had put in (pokerkit pays the pots out after the last card,
        # and gives an uncalled bet back: both only raise a stack)
        for p in range(n):
            most_put[p] = max(most_put[p], hh.starting_stacks[p] - state.stacks[p])
        if done == len(actions):
            break  # the rest is pokerkit's own showdown: the PHH's finishing stacks say it
        # the state before the next action
        previous = _snapshot(state)
        before = len(state.operations)
        street = state.street_index
        # "with chips left to raise": more chips than the call (the definition's words)
        actor = state.actor_index
        could_raise = actor is not None and state.stacks[actor] > (
            state.checking_or_calling_amount or 0
        )
    if done != len(actions):
        raise AssertionError("pokerkit did not take every action")
    live = [p for p in range(n) if not folded[p]]
    showdown = len(live) >= 2
    finishing = hh.finishing_stacks
    assert finishing is not None
    out = []
    for p in range(n):
        row = rows[p]
        walk = not row["acted0"] and flop_seen is None and live == [p]
        uncalled = max(0, most_put[p] - max(most_put[q] for q in range(n) if q != p))
        won_chips = finishing[p] - hh.starting_stacks[p] + most_put[p] - uncalled
        out.append(
            {
                "hands": 1,
                "walks": int(walk),
                "vpip": row["vpip"],
                "pfr": row["pfr"],
                "three_bet_chances": row["tbc"],
                "three_bets": row["tb"] and row["tbc"],
                "saw_flop": int(flop_seen is not None and flop_seen[p]),
                "showdowns": int(showdown and not folded[p]),
                "showdown_wins": int(showdown and not folded[p] and won_chips > 0),
                "aggressive": row["agg"],
                "calls": row["calls"],
                "net": finishing[p] - hh.starting_stacks[p],
            }
        )
    return out, allin


def _reaches_flop(op: Any, state: Any) -> bool:
    """A card of the second betting round (the flop; stud's 4th street) was dealt."""
    street = state.street_index
    return isinstance(op, BoardDealing | HoleDealing) and street is not None and street >= 1


def _next_street(state: Any, action: str) -> bool:
    """``action`` (just applied) dealt a card of a later street than the first: a board
    card, or a stud player's 4th to 7th."""
    words = action.split()
    if words[:2] == ["d", "db"]:
        return True
    return words[:2] == ["d", "dh"] and len(state.hole_cards[int(words[2][1:]) - 1]) > 3


def _snapshot(state: Any) -> dict[str, Any]:
    """What the equity needs of the state (pokerkit pays the pots out within the step that
    deals the last card, so the state before that step is kept)."""
    return {
        "pots": [(pot.amount, tuple(pot.player_indices)) for pot in state.pots],
        "stacks": list(state.stacks),
        "hole": [list(h) for h in state.hole_cards],
        "up": [list(u) for u in state.hole_card_statuses],
        "board": [c for cards in state.board_cards for c in cards],
    }


def _runout(
    before: dict[str, Any], starting: list[int], folded: list[bool], game: str, hi_lo: bool
) -> dict[str, Any] | None:
    """The all-in situation: the state before the first card dealt with no betting left."""
    n = len(starting)
    live = [p for p in range(n) if not folded[p]]
    if len(live) < 2:
        return None
    return {
        "live": live,
        "pots": before["pots"],
        "put": [starting[p] - before["stacks"][p] for p in range(n)],
        "hole": before["hole"],
        "up": before["up"],
        "board": before["board"],
        "game": game,
        "hi_lo": hi_lo,
        "folded": list(folded),
    }


# ----------------------------------------------------------------------------- equity


def _value_pokerkit(game: str, hi_lo: bool, hole: list[Any], board: list[Any]) -> tuple[Any, Any]:
    if game == "holdem":
        return StandardHighHand.from_game(hole, board), None
    if game == "omaha":
        high = OmahaHoldemHand.from_game(hole, board)
        if not hi_lo:
            return high, None
        try:
            return high, OmahaEightOrBetterLowHand.from_game(hole, board)
        except ValueError:
            return high, None
    if game == "razz":
        return StandardLowHand.from_game(hole, ()), None
    high = StandardHighHand.from_game(hole, ())
    if not hi_lo:
        return high, None
    try:
        return high, EightOrBetterLowHand.from_game(hole, ())
    except ValueError:
        return high, None


def _ours_of_pokerkit_cards(
    game: str, hi_lo: bool, hole: list[Any], board: list[Any]
) -> tuple[int, int | None]:
    return _ours(
        game, hi_lo, [parse_card(repr(c)) for c in hole], [parse_card(repr(c)) for c in board]
    )


def _ours(game: str, hi_lo: bool, hole: list[int], board: list[int]) -> tuple[int, int | None]:
    if game == "holdem":
        return high_score([*hole, *board]), None
    if game == "omaha":
        return omaha_high_score(hole, board), (omaha_low8_score(hole, board) if hi_lo else None)
    if game == "razz":
        return low_score(hole), None
    return high_score(hole), (low8_score(hole) if hi_lo else None)


def _split(
    pots: list[tuple[int, tuple[int, ...]]], values: dict[int, tuple[Any, Any]]
) -> dict[int, float]:
    got: dict[int, float] = {}
    for amount, eligible in pots:
        contenders = [p for p in eligible if p in values]
        best = max(values[p][0] for p in contenders)
        high = [p for p in contenders if values[p][0] == best]
        lows = [values[p][1] for p in contenders if values[p][1] is not None]
        if lows:
            best_low = max(lows)
            low = [p for p in contenders if values[p][1] == best_low]
            for p in high:
                got[p] = got.get(p, 0.0) + amount / 2 / len(high)
            for p in low:
                got[p] = got.get(p, 0.0) + amount / 2 / len(low)
        else:
            for p in high:
                got[p] = got.get(p, 0.0) + amount / len(high)
    return got


def expected_nets(
    spot: dict[str, Any], seed: int
) -> tuple[dict[int, float], dict[int, float], bool]:
    """(expected net chips, their Monte Carlo variance, exact?) of each live player."""
    game, hi_lo, live = spot["game"], spot["hi_lo"], spot["live"]
    stud = game in ("stud", "razz")
    known = [c for p in live for c in spot["hole"][p]] + spot["board"]
    if stud:
        known += [
            c
            for p, f in enumerate(spot["folded"])
            if f
            for c, up in zip(spot["hole"][p], spot["up"][p], strict=True)
            if up
        ]
    deck = [c for c in Deck.STANDARD if c not in known]
    need = (7 - len(spot["hole"][live[0]])) if stud else 5 - len(spot["board"])
    total_need = need * len(live) if stud else need
    if stud:
        count = 1
        for k in range(len(live)):
            count *= math.comb(len(deck) - k * need, need)
    else:
        count = math.comb(len(deck), need)
    sums = {p: 0.0 for p in live}
    squares = {p: 0.0 for p in live}
    if count <= EXACT:
        runouts = list(_all_runouts(deck, need, len(live), stud))
        runs = len(runouts)
        # pokerkit's own evaluators where they are quick enough (a last card), ours beyond
        value = _value_pokerkit if runs <= POKERKIT_EVALUATED else _ours_of_pokerkit_cards
        for draw in runouts:
            values = {}
            for k, p in enumerate(live):
                if stud:
                    values[p] = value(game, hi_lo, spot["hole"][p] + list(draw[k]), [])
                else:
                    values[p] = value(game, hi_lo, spot["hole"][p], spot["board"] + list(draw[0]))
            got = _split(spot["pots"], values)
            for p in live:
                sums[p] += got.get(p, 0.0)
        exact = True
    else:
        rng = random.Random(seed)
        ints = [parse_card(repr(c)) for c in deck]
        hole = {p: [parse_card(repr(c)) for c in spot["hole"][p]] for p in live}
        board = [parse_card(repr(c)) for c in spot["board"]]
        runs = SAMPLES
        for _ in range(SAMPLES):
            drawn = rng.sample(ints, total_need)
            values = {}
            for k, p in enumerate(live):
                if stud:
                    values[p] = _ours(game, hi_lo, hole[p] + drawn[k * need : (k + 1) * need], [])
                else:
                    values[p] = _ours(game, hi_lo, hole[p], board + drawn)
            got = _split(spot["pots"], values)
            for p in live:
                v = got.get(p, 0.0)
                sums[p] += v
                squares[p] += v * v
        exact = False
    expected = {p: sums[p] / runs - spot["put"][p] for p in live}
    variance = {
        p: 0.0 if exact else max(squares[p] / runs - (sums[p] / runs) ** 2, 0.0) / runs
        for p in live
    }
    return expected, variance, exact


def _all_runouts(deck: list[Any], need: int, players: int, stud: bool) -> Any:
    if not stud:
        for combo in combinations(deck, need):
            yield (combo,)
        return

    def deal(pool: list[Any], k: int) -> Any:
        if k == 0:
            yield ()
            return
        for first in combinations(pool, need):
            rest = [c for c in pool if c not in first]
            for tail in deal(rest, k - 1):
                yield (first, *tail)

    yield from deal(deck, players)


# ----------------------------------------------------------------------------- guts


def guts_game(text: str) -> tuple[list[int], list[dict[str, int]]]:
    """Seats and each player's lay-down counts of one Zoot/Wheelers history; the challenger
    is the first player (from the dealer's left) laying down in the last window, and won
    if their balance did not go down."""
    data = tomllib.loads(text)
    seats, n = data["seats"], len(data["seats"])
    rows = [{"games": 0, "windows": 0, "laydowns": 0, "challenges": 0, "challenge_wins": 0}
            for _ in range(n)]  # fmt: skip
    window: list[tuple[int, str]] = []
    last_with_laydown: list[tuple[int, str]] = []
    for action in data["actions"]:
        words = action.split("#")[0].split()
        if words[1:2] in (["ld"], ["po"]):
            p = int(words[0][1:]) - 1
            window.append((p, words[1]))
            rows[p]["windows"] += 1
            rows[p]["laydowns"] += words[1] == "ld"
        else:
            if any(w == "ld" for _, w in window):
                last_with_laydown = window
            window = []
            if words[:2] == ["d", "dh"]:
                rows[int(words[2][1:]) - 1]["games"] = 1
    if any(w == "ld" for _, w in window):
        last_with_laydown = window
    if last_with_laydown:
        challenger = min(p for p, w in last_with_laydown if w == "ld")
        rows[challenger]["challenges"] = 1
        change = data["finishing_stacks"][challenger] - data["starting_stacks"][challenger]
        rows[challenger]["challenge_wins"] = int(change >= 0)
    return list(seats), rows


def card(code: str) -> Card:
    (c,) = Card.parse(code)
    return c


__all__ = ["Second", "card", "expected_nets", "guts_game", "poker_hand"]
