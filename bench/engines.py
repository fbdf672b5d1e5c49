"""Engine throughput: random complete hands per second, our engines vs pokerkit.

Run: ``python bench/engines.py`` (from the repo root). A script, not a test.

Razz: our :class:`RazzHand` and pokerkit 0.7.7's ``FixedLimitRazz`` play complete hands
at 2, 4 and 8 players with the same random policy (uniformly one of the legal action
kinds), same stakes (ante 2, bring-in 5, bets 10/20) and stacks (300), in the same
process. Each side first warms up for WARMUP seconds (imports, lookup tables built on
first use: our Razz low table takes about half a second and is first needed at a
showdown), then the two are timed in alternating slices so that a change in the
machine's load hits both alike.

Seven-card Stud: our :class:`StudHighHand` and pokerkit's ``FixedLimitSevenCardStud``
at 6 players, the same method, stakes and stacks as Razz.
Hold'em: our :class:`FlopHand` and pokerkit's ``NoLimitTexasHoldem`` at 6 players, same
method (uniformly one of the legal action kinds; a bet or raise is the minimum), blinds
5/10, stacks 300.

Our engines let a player fold when checking is free (Robert's Rules); pokerkit's policy
here does not fold then, so neither does ours (:func:`_kinds`): both sides play the same
game. Heads-up, Stud (not Razz) has no cap on raises (Robert's Rules), so its random
raise wars are longer than pokerkit's: the ratio counts that work too.

Guts: Zoot and Wheelers games (ante 10, stacks 1000) played to the end by the computer
policy (:func:`bot.engine.guts.policy.choose`), games per second; no reference engine.

The last line is ``RESULT razz2_vs_pokerkit=R razz4_vs_pokerkit=R razz8_vs_pokerkit=R
stud6_vs_pokerkit=R holdem6_vs_pokerkit=R`` (R = our hands per second divided by
pokerkit's; target for stud6 and holdem6, issue 13: >= 10).
"""

from __future__ import annotations

import random
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.engine.actions import Action
from bot.engine.razz import RazzHand, RazzRules
from bot.engine.stud.betting import StudHand
from bot.engine.stud.games import StudHighHand
from bot.engine.stud.rules import StudRules

SECONDS = 1.5  # timed seconds per engine and table size
WARMUP = 0.3
SLICES = 6
STACK = 300

Play = Callable[[random.Random], None]


def _kinds(kinds: tuple[str, ...]) -> tuple[str, ...]:
    """The kinds the random policy picks from: no fold when checking is free (as the
    pokerkit side plays). Our engines list a free fold first, just before the check."""
    return kinds[1:] if len(kinds) > 1 and kinds[1] == "check" else kinds


def _rates(plays: dict[str, Play], seconds: float = SECONDS) -> dict[str, float]:
    """Complete plays per second of each entry, timed in alternating slices."""
    rngs = {name: random.Random(7) for name in plays}
    for name, play in plays.items():
        stop = time.perf_counter() + WARMUP
        while time.perf_counter() < stop:
            play(rngs[name])
    done = dict.fromkeys(plays, 0)
    spent = dict.fromkeys(plays, 0.0)
    for _ in range(SLICES):
        for name, play in plays.items():
            rng = rngs[name]
            start = now = time.perf_counter()
            stop = start + seconds / SLICES
            count = 0
            while now < stop:
                play(rng)
                count += 1
                now = time.perf_counter()
            done[name] += count
            spent[name] += now - start
    return {name: done[name] / spent[name] for name in plays}


# ---------------------------------------------------------------------------- Razz


def _ours(n: int, game: type[StudHand] = RazzHand) -> Callable[[random.Random], None]:
    rules = RazzRules() if game is RazzHand else StudRules()
    players = [(s, STACK) for s in range(n)]

    def play(rng: random.Random) -> None:
        hand = game(rules, players, dealer=0, rng=rng)
        hand.start()
        while not hand.is_over:
            (seat,) = hand.to_act()
            hand.apply(Action(seat, rng.choice(_kinds(hand.allowed_kinds(seat)))))

    return play


def _pokerkit(n: int, game: str = "FixedLimitRazz") -> Callable[[random.Random], None]:
    import pokerkit
    from pokerkit import Automation

    game_type = getattr(pokerkit, game)

    automations = (
        Automation.ANTE_POSTING,
        Automation.BET_COLLECTION,
        Automation.BLIND_OR_STRADDLE_POSTING,
        Automation.CARD_BURNING,
        Automation.HOLE_DEALING,
        Automation.BOARD_DEALING,
        Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
        Automation.HAND_KILLING,
        Automation.CHIPS_PUSHING,
        Automation.CHIPS_PULLING,
    )

    def play(rng: random.Random) -> None:
        state = game_type.create_state(automations, True, 2, 5, 10, 20, [STACK] * n, n)
        while state.status:
            choices: list[Callable[[], object]] = []
            if state.can_post_bring_in():
                choices.append(state.post_bring_in)
            if state.can_complete_bet_or_raise_to():
                choices.append(state.complete_bet_or_raise_to)
            if state.can_check_or_call():
                choices.append(state.check_or_call)
            if state.can_fold():
                choices.append(state.fold)
            if not choices:
                break
            rng.choice(choices)()

    return play


def bench_razz() -> dict[int, tuple[float, float]]:
    """{players: (our hands/s, pokerkit hands/s)}."""
    out = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for n in (2, 4, 8):
            rates = _rates({"ours": _ours(n), "pokerkit": _pokerkit(n)})
            out[n] = (rates["ours"], rates["pokerkit"])
    return out


def bench_stud() -> dict[int, tuple[float, float]]:
    """{players: (our Seven-card Stud hands/s, pokerkit's)}."""
    out = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for n in (6,):
            rates = _rates(
                {
                    "ours": _ours(n, StudHighHand),
                    "pokerkit": _pokerkit(n, "FixedLimitSevenCardStud"),
                }
            )
            out[n] = (rates["ours"], rates["pokerkit"])
    return out


# ---------------------------------------------------------------------------- Hold'em


def _ours_holdem(n: int) -> Play:
    from bot.engine.flop import FlopHand, FlopRules

    rules = FlopRules(small_blind=5, big_blind=10)
    players = [(s, STACK) for s in range(n)]

    def play(rng: random.Random) -> None:
        hand = FlopHand(rules, players, dealer=n - 1, rng=rng)
        hand.start()
        while not hand.is_over:
            (seat,) = hand.to_act()
            hand.apply(Action(seat, rng.choice(_kinds(hand.allowed_kinds(seat)))))

    return play


def _pokerkit_holdem(n: int) -> Play:
    from pokerkit import Automation, NoLimitTexasHoldem

    automations = (
        Automation.ANTE_POSTING,
        Automation.BET_COLLECTION,
        Automation.BLIND_OR_STRADDLE_POSTING,
        Automation.CARD_BURNING,
        Automation.HOLE_DEALING,
        Automation.BOARD_DEALING,
        Automation.RUNOUT_COUNT_SELECTION,
        Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
        Automation.HAND_KILLING,
        Automation.CHIPS_PUSHING,
        Automation.CHIPS_PULLING,
    )

    def play(rng: random.Random) -> None:
        state = NoLimitTexasHoldem.create_state(automations, True, 0, (5, 10), 10, [STACK] * n, n)
        while state.status:
            choices: list[Callable[[], object]] = []
            if state.can_complete_bet_or_raise_to():
                choices.append(state.complete_bet_or_raise_to)
            if state.can_check_or_call():
                choices.append(state.check_or_call)
            if state.can_fold() and max(state.bets) > state.bets[state.actor_index or 0]:
                choices.append(state.fold)
            if not choices:
                break
            rng.choice(choices)()

    return play


def bench_holdem(n: int = 6) -> tuple[float, float]:
    """(our hands/s, pokerkit hands/s) of no-limit Hold'em at ``n`` players."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rates = _rates({"ours": _ours_holdem(n), "pokerkit": _pokerkit_holdem(n)})
    return rates["ours"], rates["pokerkit"]


# ---------------------------------------------------------------------------- Guts


def _guts(game: str, n: int) -> Play:
    from bot.engine.guts import GutsGame, GutsRules, GutsSetup
    from bot.engine.guts.policy import choose

    rules = GutsRules.parse(game=game)
    setup = GutsSetup(seats=tuple(range(n)), stacks=dict.fromkeys(range(n), 1000), dealer=0)

    def play(rng: random.Random) -> None:
        g = GutsGame(rules, setup, rng=rng)
        g.start()
        while not g.over:
            if g.paused:  # only after a round with no action; the policy always acts
                g.resume()
                continue
            seat = min(g.to_act())
            g.apply(choose(g, seat, rng))

    return play


def bench_guts() -> dict[tuple[str, int], float]:
    """{(game, players): games/s}."""
    return {
        (game, n): _rates({game: _guts(game, n)}, SECONDS / 2)[game]
        for game in ("zoot", "wheelers")
        for n in (2, 4, 8)
    }


def main() -> int:
    razz = bench_razz()
    print("| game | players | ours (hands/s) | pokerkit (hands/s) | ratio |")
    print("|---|---:|---:|---:|---:|")
    for n, (ours, pk) in razz.items():
        print(f"| Razz | {n} | {ours:,.0f} | {pk:,.0f} | {ours / pk:.1f}x |")
    stud = bench_stud()
    for n, (ours, pk) in stud.items():
        print(f"| Seven-card Stud | {n} | {ours:,.0f} | {pk:,.0f} | {ours / pk:.1f}x |")
    holdem = bench_holdem(6)
    print(
        f"| No-limit Hold'em | 6 | {holdem[0]:,.0f} | {holdem[1]:,.0f} | "
        f"{holdem[0] / holdem[1]:.1f}x |"
    )
    print()
    print("guts games per second (computer policy, ante 10, stacks 1000)")
    print()
    print("| game | players | games/s |")
    print("|---|---:|---:|")
    for (game, n), rate in bench_guts().items():
        print(f"| {game.title()} | {n} | {rate:,.0f} |")
    print(
        "RESULT "
        + " ".join(f"razz{n}_vs_pokerkit={ours / pk:.1f}" for n, (ours, pk) in razz.items())
        + " "
        + " ".join(f"stud{n}_vs_pokerkit={ours / pk:.1f}" for n, (ours, pk) in stud.items())
        + f" holdem6_vs_pokerkit={holdem[0] / holdem[1]:.1f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
