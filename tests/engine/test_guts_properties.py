"""Random guts games (hypothesis): chips conserved, cards unique, five cards per live hand,
no event ever shows a seat another seat's hidden cards before the showdown, snapshot/restore
continues identically, and every game's hand history replays to the same stacks."""

from __future__ import annotations

import copy as copy_module
import json
import random
from collections.abc import Iterator, Mapping
from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from bot.engine.actions import Action
from bot.engine.cards import CARDS
from bot.engine.errors import GameError
from bot.engine.events import Event
from bot.engine.guts import GutsGame, GutsRules, GutsSetup, NotEnoughPlayers
from bot.engine.guts.history import parse_history, to_history
from bot.engine.hands import guts_ranking

SHOWDOWN_KINDS = {"showdown", "game_over"}


@st.composite
def games(draw: st.DrawFn) -> tuple[GutsGame, list[int]]:
    n = draw(st.integers(2, 10))
    short = st.integers(0, 25)
    deep = st.integers(25, 3000)
    stacks = draw(st.lists(st.one_of(short, deep), min_size=n, max_size=n))
    seats = tuple(sorted(draw(st.sets(st.integers(0, 30), min_size=n, max_size=n))))
    game_name = draw(st.sampled_from(["zoot", "wheelers"]))
    rules = GutsRules.parse(
        game=game_name,
        ante=draw(st.integers(1, 20)),
        laydown_order=draw(st.sampled_from(["simultaneous", "in_turn"])),
        laydown_requires_cover=draw(st.booleans()),
        excuse_matcher_ante=draw(st.booleans()),
        wheelers_wraparound=draw(st.booleans()),
    )
    pot = draw(st.dictionaries(st.sampled_from(seats), st.integers(0, 200), max_size=3))
    setup = GutsSetup(
        seats=seats,
        stacks=dict(zip(seats, stacks, strict=True)),
        dealer=draw(st.sampled_from(seats)),
        pot=pot,
        excused=frozenset(draw(st.sets(st.sampled_from(seats), max_size=1))),
        away=frozenset(draw(st.sets(st.sampled_from(seats), max_size=2))),
    )
    rng = random.Random(draw(st.integers(0, 2**32)))
    game = GutsGame(
        rules, setup, rng=rng, ranking=guts_ranking(game_name, wraparound=rules.wraparound)
    )
    # Long random move lists reach the exchanges, refills and showdowns; hypothesis' own
    # lists stay short, so it draws a seed and a length instead.
    moves = random.Random(draw(st.integers(0, 2**32)))
    steps = [moves.randrange(10**6) for _ in range(draw(st.integers(1, 300)))]
    return game, steps


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for k, v in value.items():
            yield str(k)
            yield from _strings(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from _strings(v)


class HandTracker:
    """Each seat's hand as told by its own private events, followed event by event.

    A privacy check must use the hands as they were when each event happened: a card
    discarded by one seat may be dealt to another after a refill (RULES §1.6).
    """

    def __init__(self) -> None:
        self.hands: dict[int, set[str]] = {}

    def see(self, ev: Event) -> None:
        if ev.kind not in SHOWDOWN_KINDS:
            shown = set(_strings(ev.to_json()["data"]))
            for seat, cards in self.hands.items():
                if ev.visible_to != seat and cards:
                    assert not (shown & cards), f"{ev.kind} shows seat {seat}'s cards"
        if ev.kind == "deal":
            assert ev.visible_to == ev.data["seat"]
            self.hands[ev.data["seat"]] = set(ev.data["cards"])
        elif ev.kind == "discard":
            self.hands[ev.data["seat"]].remove(ev.data["card"])
        elif ev.kind == "draw":
            self.hands[ev.data["seat"]].add(ev.data["card"])

    def agrees_with(self, game: GutsGame) -> None:
        assert set(self.hands) == set(game.players)
        for seat in game.players:
            held = {str(c) for c in game.hand(seat)}
            if game.phase == "discard":  # a chosen discard stays in hand until the exchange
                assert self.hands[seat] <= held and len(held - self.hands[seat]) <= 1
            else:
                assert self.hands[seat] == held


def check_invariants(
    game: GutsGame, total: int, events: list[Event], pot_before: int, tracker: HandTracker
) -> None:
    assert sum(game.stacks.values()) + game.pot == total, "chips conserved"
    assert all(c >= 0 for c in game.stacks.values())
    moved = sum(m.amount for e in events for m in e.chips)
    assert game.pot - pot_before == moved, "every chip that moves is in an event"
    held = [c for s in game.players for c in game.hand(s)]
    every = held + list(game.stock) + list(game.discard_pile)
    assert len(every) == len(set(every)) and set(every) <= set(CARDS)
    for seat in game.live:
        assert len(game.hand(seat)) == 5
    for ev in events:
        tracker.see(ev)
    tracker.agrees_with(game)


def step(game: GutsGame, x: int) -> list[Event]:
    """One move chosen by ``x``: a timeout, an action, or an illegal try that must fail."""
    if game.paused:
        return game.resume()
    pending = sorted(game.to_act())
    if x % 13 == 0:
        return game.timeout()
    seat = pending[x % len(pending)]
    y = x // 13
    if x % 11 == 0:  # an illegal action must raise and change nothing
        before = json.dumps(game.snapshot())
        outsider = max(game.setup.seats) + 1
        try:
            game.apply(Action(outsider, "play_on"))
        except GameError:
            pass
        else:  # pragma: no cover - the assertion reports it
            raise AssertionError("a seat outside the game acted")
        assert json.dumps(game.snapshot()) == before
    if game.phase == "discard":
        card = game.hand(seat)[y % 5]
        return game.apply(Action(seat, "discard", card=card))
    kind = "lay_down" if y % 60 == 0 else "play_on"
    if game.can(Action(seat, kind)) is not None:
        kind = "play_on"
    return game.apply(Action(seat, kind))


def play(
    game: GutsGame, steps: list[int], total: int, tracker: HandTracker
) -> list[dict[str, Any]]:
    log: list[dict[str, Any]] = []
    for x in steps:
        if game.over:
            break
        pot_before = game.pot
        events = step(game, x)
        check_invariants(game, total, events, pot_before, tracker)
        log += [e.to_json() for e in events]
    return log


@settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(games(), st.integers(0, 200))
def test_random_games_keep_chips_cards_and_privacy(
    case: tuple[GutsGame, list[int]], cut: int
) -> None:
    game, steps = case
    total = sum(game.stacks.values()) + game.pot
    try:
        events = game.start()
    except NotEnoughPlayers:
        event("not enough players")
        assert game.phase == "ready" and sum(game.stacks.values()) + game.pot == total
        return
    tracker = HandTracker()
    check_invariants(game, total, events, sum(game.setup.pot.values()), tracker)
    cut = min(cut, len(steps))
    play(game, steps[:cut], total, tracker)
    snap = json.loads(json.dumps(game.snapshot()))
    copy = GutsGame.restore(snap, ranking=game.ranking)
    rest = steps[cut:]
    copy_tracker = copy_module.deepcopy(tracker)
    assert play(game, rest, total, tracker) == play(copy, rest, total, copy_tracker)
    assert game.stacks == copy.stacks and game.log == copy.log
    event(f"over={game.over} paused={game.paused} round>2={game.round > 2}")
    event(f"refill={any(a.startswith('d rf') for a in game.log)}")
    replay = parse_history(to_history(game))
    assert replay.stacks == game.stacks and replay.log == game.log
    assert replay.pot_ledger == game.pot_ledger
