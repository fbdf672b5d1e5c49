"""Hypothesis properties over random Razz hands (RULES §4, §5; DESIGN: card privacy)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine.actions import Action
from bot.engine.cards import CARDS
from bot.engine.errors import GameError, SnapshotError
from bot.engine.events import Event
from bot.engine.razz import RazzHand, RazzRules
from bot.engine.razz.policy import choose

tables = st.fixed_dictionaries(
    {
        "seed": st.integers(0, 2**32 - 1),
        "stacks": st.lists(st.integers(1, 150), min_size=2, max_size=8),
        "ante": st.integers(0, 3),
        "style": st.sampled_from(["tight", "loose", "random"]),
        "cut": st.integers(0, 60),
    }
)


def _new(t: dict[str, Any]) -> tuple[RazzHand, random.Random, list[Event]]:
    rng = random.Random(t["seed"])
    seats = list(range(10, 10 + len(t["stacks"])))
    hand = RazzHand(
        RazzRules(ante=t["ante"]),
        list(zip(seats, t["stacks"], strict=True)),
        dealer=seats[-1],
        rng=rng,
    )
    return hand, rng, hand.start()


def _strings(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(_strings(v) for v in value.values())) if value else set()
    if isinstance(value, list | tuple):
        return set().union(*(_strings(v) for v in value)) if value else set()
    return set()


@settings(max_examples=150, deadline=None)
@given(tables)
def test_razz_property_chips_conserved_cards_unique_and_private(t: dict[str, Any]) -> None:
    hand, rng, events = _new(t)
    total = sum(t["stacks"])
    while not hand.is_over:
        assert sum(hand.stacks) + hand.pot_total == total
        (seat,) = hand.to_act()
        events += hand.apply(choose(hand, seat, rng, t["style"]))
    assert sum(hand.stacks) == total
    # Every chip that moved is in a ChipMove, and they add up to the stack changes.
    moved = {s: 0 for s in hand.seat_ids}
    for e in events:
        for m in e.chips:
            moved[m.seat] += m.amount
    start = dict(zip(range(10, 10 + len(t["stacks"])), t["stacks"], strict=True))
    assert all(start[s] - moved[s] == hand.seat_stacks()[s] for s in hand.seat_ids)
    cards = [c for p in range(hand.n) for c in (*hand.down[p], *hand.up[p])]
    if hand.community is not None:
        cards.append(hand.community)
    assert len(cards) == len(set(cards))
    # Privacy: no event any seat (or an onlooker) may see shows another seat's down cards,
    # except the showdown's own "show" events.
    down = {hand.seat_ids[p]: {str(c) for c in hand.down[p]} for p in range(hand.n)}
    for e in events:
        json.dumps(e.to_json())
        if e.kind == "show":
            assert hand.result is not None and hand.result["showdown"]
            continue
        seen = _strings(e.data)
        for seat, secret in down.items():
            if e.visible_to == seat:
                continue
            assert not (seen & secret), (e, seat)


@settings(max_examples=120, deadline=None)
@given(tables, st.booleans())
def test_razz_property_snapshot_restore_continues_identically(
    t: dict[str, Any], old_deck_format: bool
) -> None:
    """Also from a snapshot written before the compact deck (a list of codes, as older
    databases hold): the restored hand plays on identically and snapshots compactly."""
    hand, rng, _ = _new(t)
    steps = 0
    while not hand.is_over and steps < t["cut"]:
        (seat,) = hand.to_act()
        hand.apply(choose(hand, seat, rng, t["style"]))
        steps += 1
    snap = json.loads(json.dumps(hand.snapshot()))
    assert isinstance(snap["deck"], str) and len(snap["deck"]) == 104
    if old_deck_format:
        snap["deck"] = [snap["deck"][i : i + 2] for i in range(0, 104, 2)]
    twin = RazzHand.restore(snap)
    assert twin.snapshot() == hand.snapshot()
    state = rng.getstate()
    twin_rng = random.Random()
    twin_rng.setstate(state)
    while not hand.is_over:
        (seat,) = hand.to_act()
        assert twin.to_act() == {seat}
        a = choose(hand, seat, rng, t["style"])
        assert choose(twin, seat, twin_rng, t["style"]) == a
        assert [e.to_json() for e in hand.apply(a)] == [e.to_json() for e in twin.apply(a)]
    assert twin.is_over and twin.stacks == hand.stacks and twin.result == hand.result
    assert twin.to_phh() == hand.to_phh()


@settings(max_examples=120, deadline=None)
@given(tables, st.integers(0, 6), st.integers(-5, 400))
def test_razz_property_illegal_actions_change_nothing(
    t: dict[str, Any], kind_index: int, amount: int
) -> None:
    hand, rng, _ = _new(t)
    kinds = ["bring_in", "complete", "fold", "check", "call", "bet", "raise"]
    while not hand.is_over:
        (seat,) = hand.to_act()
        others = [s for s in hand.seat_ids if s != seat]
        candidates = [
            Action(rng.choice(others), kinds[kind_index]),
            Action(seat, kinds[kind_index], amount=amount),
            Action(seat, kinds[(kind_index + rng.randint(0, 6)) % 7]),
        ]
        for attempt in candidates:
            if hand.can(attempt) is None:
                continue
            before = hand.snapshot()
            try:
                hand.apply(attempt)
            except GameError:
                pass
            else:  # pragma: no cover - can() said no
                raise AssertionError(f"{attempt} was applied although can() refused it")
            assert hand.snapshot() == before
        hand.apply(choose(hand, seat, rng, t["style"]))
    before = hand.snapshot()
    assert hand.can(Action(hand.seat_ids[0], "check")) == "the hand is over"
    assert hand.snapshot() == before


def test_razz_snapshot_deck_is_one_compact_string_and_bad_codes_are_named() -> None:
    hand, _, _ = _new({"seed": 7, "stacks": [100, 100, 100], "ante": 1})
    snap = hand.snapshot()
    listed = [snap["deck"][i : i + 2] for i in range(0, 104, 2)]
    assert sorted(listed) == sorted(str(c) for c in CARDS)
    assert len(json.dumps(snap)) < len(json.dumps({**snap, "deck": listed})) - 150
    for bad, why in (
        (snap["deck"][:-1], "2-character card codes"),
        (snap["deck"][:-2] + "1x", "'1x', which is not a card"),
        (snap["deck"][:-2] + snap["deck"][:2], "each of the 52 cards once"),
    ):
        with pytest.raises(SnapshotError, match=why):
            RazzHand.restore({**snap, "deck": bad})
