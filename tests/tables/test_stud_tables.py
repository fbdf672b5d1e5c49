"""Seven-card Stud and Stud Hi-Lo at a table (issue 13), and Razz through the same adapter
(bot/tables/stud.py): the TableService over the real stud engines and a real SQLite store
in a temp dir, with the cards of each hand chosen (tests/tables/stacked.py).

Seats: Alice 0 (the host), Bob 1, Carol 2. The draw ``Kc 2d Qh`` makes Bob (2♦, the
lowest) the first dealer, so the deal order (positions) is Carol, Alice, Bob.
"""

from __future__ import annotations

import json
import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.engine.errors import IllegalAction, InvalidConfig
from bot.engine.stud.replay import replay_phh_text
from bot.store import Store
from bot.tables import TableService
from bot.tables.games import load_family, make_family
from bot.tables.stud import StudFamily

from .conftest import ALICE, BOB, CAROL, GUILD, Clock, Recorder
from .stacked import StackedRng, stacked_factory

DRAW = "Kc 2d Qh"  # Bob draws the lowest card and deals first
NAMES = {ALICE: "Alice", BOB: "Bob", CAROL: "Carol"}
DATA = Path(__file__).parent / "data"

#: A Stud Hi-Lo hand, position by position (Carol, Alice, Bob), street by street: Alice
#: makes kings full of queens, Bob a 7-5-3-2-A low, Carol a pair of sixes and no low.
SPLIT_HAND = [
    "6c 6d Th  Kc Ks Kd  Ac 2c 3d",  # 3rd: Bob's 3♦ is the lowest up card: he brings in
    "4c Qs 5h",
    "Js Qd 7s",
    "9d 9h 8d",
    "Qc 9c Jd",
]
#: Carol and Bob both make 7-5-3-2-A: the low half is quartered between them.
QUARTER_HAND = [
    "Ad 2d 3h  Kc Ks Kd  Ac 2c 3d",
    "5c Qs 5h",
    "7c Qd 7s",
    "Jc 9h 8d",
    "Qh 9c Jd",
]


async def _service(
    store: Store, clock: Clock, recorder: Recorder, *rngs: random.Random
) -> TableService:
    svc = TableService(
        store,
        clock=clock,
        rng_factory=stacked_factory(*rngs),
        subscriber=recorder,
        autostart_delay=3.0,
        timers=False,
    )
    await svc.start_service()
    return svc


@pytest.fixture
async def hi_lo(
    store: Store, clock: Clock, recorder: Recorder
) -> AsyncIterator[tuple[TableService, int]]:
    svc = await _service(store, clock, recorder, StackedRng(SPLIT_HAND, draw=DRAW))
    tid = await _open(svc, "stud", split="hi-lo", ante=2, bring_in=5, small_bet=10, big_bet=20)
    yield svc, tid
    await svc.stop_service()


async def _open(svc: TableService, game: str, **options: Any) -> int:
    view = await svc.open_table(
        guild_id=GUILD,
        channel_id=880,
        host_id=ALICE,
        host_name="Alice",
        game=game,
        options=options,
    )
    await svc.join(view.table_id, BOB, "Bob")
    await svc.join(view.table_id, CAROL, "Carol")
    return view.table_id


async def _passive_to_end(svc: TableService, tid: int) -> list[tuple[int, str]]:
    """Everyone posts the bring-in, checks or calls (by the buttons' options) to the end."""
    done: list[tuple[int, str]] = []
    while True:
        view = await svc.view(tid)
        if not view.to_act_user_ids:
            return done
        (uid,) = view.to_act_user_ids
        allowed = {o.kind for o in view.public_actions if o.allowed}
        kind = next(k for k in ("bring_in", "check", "call") if k in allowed)
        await svc.act(tid, uid, kind, version=view.version)
        done.append((uid, kind))


async def _ledger_matches(store: Store, tid: int) -> dict[int, int]:
    """The audit holds, the pot is empty, and each wallet is its ledger sum."""
    report = await store.audit(GUILD)
    assert report.ok, report.format()
    async with store.read() as tx:
        wallets = {u: await tx.wallet(GUILD, u) for u in NAMES}
        for w in wallets.values():
            assert w.balance == await tx.ledger_balance(w.id)
        assert sum(c.amount for c in await tx.pot_contributions(tid)) == 0
    return {u: w.balance for u, w in wallets.items()}


async def test_stud_hi_lo_split_pot_odd_chip_to_high_half_ledger_exact(
    hi_lo: tuple[TableService, int], store: Store, recorder: Recorder
) -> None:
    svc, tid = hi_lo
    view = await svc.start(tid, ALICE)
    assert view.game == "stud" and view.dealer_seat == 1
    assert view.rules[0][:2] == ("split", "hi-lo")
    assert view.to_act_user_ids == {BOB}  # the lowest up card, 3♦, brings in
    assert view.phase == "3rd street"
    played = await _passive_to_end(svc, tid)
    assert played[0] == (BOB, "bring_in")
    # antes 3 x 2 + the bring-in 5 called twice: 21 chips, high half 11, low half 10
    balances = await _ledger_matches(store, tid)
    assert balances == {ALICE: 1000 - 7 + 11, BOB: 1000 - 7 + 10, CAROL: 1000 - 7}
    async with store.read() as tx:
        (hand,) = await tx.hands(tid)
        results = {r.user_id: r for r in await tx.hand_results(hand.id)}
    assert hand.game == "stud" and hand.result is not None
    (pot,) = hand.result["pots"]
    assert pot["parts"] == [
        {"part": "high", "amount": 11, "winners": [0], "shares": {"0": 11}},
        {"part": "low", "amount": 10, "winners": [1], "shares": {"1": 10}},
    ]
    assert hand.result["shown"]["1"]["low"] == "7-5-3-2-A"
    assert hand.result["shown"]["0"]["high"] == "full house, kings over queens"
    assert {u: r.net for u, r in results.items()} == {ALICE: 4, BOB: 3, CAROL: -7}
    assert results[ALICE].won_pot and results[BOB].won_pot and not results[CAROL].won_pot
    # the history is pokerkit's F7S/8 and replays to the same stacks
    assert hand.history is not None and "variant = 'F7S/8'" in hand.history
    replayed = replay_phh_text(hand.history)
    assert replayed.finishing_stacks == [993, 1004, 1003]  # Carol, Alice, Bob
    (text,) = [r for p in recorder.published for r in p.results]
    assert "Pot 21: high 11 to Alice; low 10 to Bob" in text
    assert "Bob: " in text and "pair of sixes; no low" in text
    assert "Alice wins 11" in text and "Bob wins 10" in text


async def test_stud_hi_lo_quartered_pot_two_equal_lows_share_the_low_half(
    store: Store, clock: Clock, recorder: Recorder
) -> None:
    svc = await _service(store, clock, recorder, StackedRng(QUARTER_HAND, draw=DRAW))
    try:
        tid = await _open(svc, "stud", split="hi-lo", ante=2, bring_in=5, small_bet=10)
        await svc.start(tid, ALICE)
        await _passive_to_end(svc, tid)
        balances = await _ledger_matches(store, tid)
        async with store.read() as tx:
            (hand,) = await tx.hands(tid)
    finally:
        await svc.stop_service()
    assert hand.result is not None
    (pot,) = hand.result["pots"]
    assert pot["parts"] == [
        {"part": "high", "amount": 11, "winners": [0], "shares": {"0": 11}},
        # Carol, Bob: clockwise order
        {"part": "low", "amount": 10, "winners": [2, 1], "shares": {"1": 5, "2": 5}},
    ]
    assert balances == {ALICE: 1004, BOB: 998, CAROL: 998}
    (text,) = [r for p in recorder.published for r in p.results]
    assert "Pot 21: high 11 to Alice; low 10 split Carol 5, Bob 5" in text


async def test_stud_high_best_high_hand_takes_the_whole_pot(
    store: Store, clock: Clock, recorder: Recorder
) -> None:
    svc = await _service(store, clock, recorder, StackedRng(SPLIT_HAND, draw=DRAW))
    try:
        tid = await _open(svc, "stud")  # split high by default, the default stakes 2/5/10/20
        view = await svc.view(tid)
        assert dict((n, v) for n, v, _ in view.rules)["split"] == "high"
        await svc.start(tid, CAROL)
        await _passive_to_end(svc, tid)
        balances = await _ledger_matches(store, tid)
        async with store.read() as tx:
            (hand,) = await tx.hands(tid)
    finally:
        await svc.stop_service()
    assert balances == {ALICE: 1000 + 14, BOB: 1000 - 7, CAROL: 1000 - 7}
    assert hand.history is not None and "variant = 'F7S'" in hand.history
    assert replay_phh_text(hand.history).finishing_stacks == [993, 1014, 993]
    (text,) = [r for p in recorder.published for r in p.results]
    assert "Alice wins 21" in text and "full house, kings over queens" in text
    assert "low" not in text


async def test_stud_pair_showing_on_4th_allows_the_big_bet_through_the_service(
    store: Store, clock: Clock, recorder: Recorder
) -> None:
    # Alice's K♦ K♠ shows a pair on 4th street: the cardroom rule lets her bet 20, not 10
    streets = ["6c 6d Th  Kc Qs Kd  Ac 2c 3d", "4c Ks 5h"]
    svc = await _service(store, clock, recorder, StackedRng(streets, draw=DRAW))
    try:
        tid = await _open(svc, "stud")
        await svc.start(tid, ALICE)
        for uid, kind in ((BOB, "bring_in"), (CAROL, "call"), (ALICE, "call")):
            await svc.act(tid, uid, kind)
        view = await svc.view(tid)
        assert view.phase == "4th street" and view.to_act_user_ids == {ALICE}
        big = next(o for o in view.public_actions if o.kind == "big_bet")
        plain = next(o for o in view.public_actions if o.kind == "bet")
        assert (big.allowed, big.to, plain.to) == (True, 20, 10)
        before = view.version
        with pytest.raises(IllegalAction, match="fixed limit allows 10 or 20"):
            await svc.act(tid, ALICE, "bet", amount=15)
        assert (await svc.view(tid)).version == before  # refused: nothing changed
        await svc.act(tid, ALICE, "big_bet", version=before)  # the table message's button
        view = await svc.view(tid)
        alice = view.seat_of(ALICE)
        assert alice is not None and alice.bet == 20
        assert not any(o.kind == "big_bet" for o in view.public_actions)  # raises are big now
        raise_option = next(o for o in view.public_actions if o.kind == "raise")
        assert raise_option.to == 40  # once the big bet is made, raises are big
    finally:
        await svc.stop_service()


async def test_stud_big_bet_without_a_pair_showing_is_refused_and_changes_nothing(
    hi_lo: tuple[TableService, int],
) -> None:
    svc, tid = hi_lo
    await svc.start(tid, ALICE)
    for uid, kind in ((BOB, "bring_in"), (CAROL, "call"), (ALICE, "call")):
        await svc.act(tid, uid, kind)
    view = await svc.view(tid)
    assert view.phase == "4th street" and view.to_act_user_ids == {ALICE}  # K♦ Q♠ opens
    assert not any(o.kind == "big_bet" for o in view.public_actions)
    with pytest.raises(IllegalAction, match="only allowed on 4th street when a pair shows"):
        await svc.act(tid, ALICE, "big_bet")
    after = await svc.view(tid)
    assert (after.version, after.pot, after.to_act_user_ids) == (view.version, 21, {ALICE})


async def test_stud_table_survives_a_restart_mid_hand(
    store: Store, clock: Clock, recorder: Recorder, db_path: Path
) -> None:
    svc = await _service(store, clock, recorder, StackedRng(SPLIT_HAND, draw=DRAW))
    tid = await _open(svc, "stud", split="hi-lo", ante=2, bring_in=5, small_bet=10)
    await svc.start(tid, ALICE)
    for uid, kind in ((BOB, "bring_in"), (CAROL, "call"), (ALICE, "call")):
        await svc.act(tid, uid, kind)
    before = await svc.view(tid)
    await svc.stop_service()
    await store.close()
    store2 = await Store.open(db_path, clock=clock)
    svc2 = await _service(store2, clock, recorder)
    try:
        after = await svc2.view(tid)
        assert after.phase == "4th street" and after.to_act_user_ids == before.to_act_user_ids
        assert [s.up_cards for s in after.seats] == [s.up_cards for s in before.seats]
        await _passive_to_end(svc2, tid)
        balances = await _ledger_matches(store2, tid)
    finally:
        await svc2.stop_service()
        await store2.close()
    assert balances == {ALICE: 1004, BOB: 1003, CAROL: 993}


async def test_stud_bad_split_is_refused_and_opens_nothing(service: TableService, store) -> None:
    with pytest.raises(InvalidConfig) as err:
        await service.open_table(
            guild_id=GUILD,
            channel_id=881,
            host_id=ALICE,
            host_name="Alice",
            game="stud",
            options={"split": "low"},
        )
    assert err.value.field == "split" and "'high' or 'hi-lo'" in str(err.value)
    with pytest.raises(InvalidConfig, match="split"):
        make_family("razz", {"split": "hi-lo"})
    async with store.read() as tx:
        assert await tx.table_in_channel(881) is None


def test_razz_table_saved_before_stud_loads_and_plays_on_the_same() -> None:
    """A Razz table saved by the code before StudFamily (commit 2a9df4f, RazzFamily) loads:
    the session JSON keys and values are the same when saved again, and the hand finishes
    exactly as that code finished it."""
    saved = json.loads((DATA / "razz_session_2a9df4f.json").read_text())
    fam = load_family("razz", saved["rules"], saved["session"])
    assert isinstance(fam, StudFamily) and fam.variant == "razz"
    assert fam.rules_json == saved["rules"]
    # the same session, with the two fields of Robert's Rules' betting (issue 18) added
    # to the hand's snapshot: what they are when a snapshot has none
    again = fam.session_json()
    engine = again["engine"]
    assert (engine.pop("level"), engine.pop("capped")) == (0, False)
    assert again == saved["session"]
    while fam.hand_running:
        seat = min(fam.to_act())
        kinds = {o.kind for o in fam.options(seat) if o.allowed}
        kind = next(k for k in ("bring_in", "call", "check") if k in kinds)
        fam.apply(fam.default_action(seat)._replace(kind=kind, timed_out=False))
    end = fam.finish(lambda s: f"P{s}")
    expected = saved["after_passive_play"]
    assert {str(s): c for s, c in fam.stacks().items()} == expected["stacks"]
    assert end.history == expected["history"]
    assert sorted(end.winners) == expected["winners"]


def test_stud_rules_json_round_trips_through_the_stored_table() -> None:
    fam = make_family(
        "stud", {"split": "hi-lo", "ante": 1}, {"stakes": {"small_bet": 4, "bring_in": 2}}
    )
    assert isinstance(fam, StudFamily) and fam.variant == "stud8"
    assert fam.rules_json["split"] == "hi-lo" and fam.rules_json["small_bet"] == 4
    again = load_family("stud", fam.rules_json, None)
    assert isinstance(again, StudFamily)
    assert (again.variant, again.rules) == (fam.variant, fam.rules)
