"""What home games play at the table (issue 18 items 11-15): the TableService over the real
flop engine and a real SQLite store in a tmp dir, its clock moved by the test (no timers:
the test ticks). After each chip-moving test the wallets match the table and the audit
holds; every refusal changes nothing, deadline included."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.engine.errors import IllegalAction, InvalidConfig, NotYourTurn
from bot.engine.flop import FlopHand
from bot.engine.flop.phh import replay_flop_phh_text
from bot.store import Store
from bot.tables import TableService
from bot.tables.errors import NotAllowed
from bot.tables.flop import FlopFamily
from bot.tables.house import RUNOUT_SECONDS, SHOW_SECONDS, STRADDLE_SECONDS

from .conftest import ALICE, BOB, CAROL, GUILD, Clock, Recorder, seeded
from .stacked import stacked_hands

DAVE = 24
NAMES = {ALICE: "Alice", BOB: "Bob", CAROL: "Carol", DAVE: "Dave"}


async def _service(
    store: Store, clock: Clock, recorder: Recorder, factory: Callable[[], random.Random]
) -> TableService:
    svc = TableService(
        store,
        clock=clock,
        rng_factory=factory,
        subscriber=recorder,
        autostart_delay=3.0,
        timers=False,
    )
    await svc.start_service()
    return svc


async def _table(
    service: TableService, channel: int, players: tuple[int, ...], **options: object
) -> int:
    view = await service.open_table(
        guild_id=GUILD,
        channel_id=channel,
        host_id=players[0],
        host_name=NAMES[players[0]],
        game="holdem",
        options=options,
    )
    for uid in players[1:]:
        await service.join(view.table_id, uid, NAMES[uid])
    return view.table_id


async def _wallets_match(service: TableService, store: Store, tid: int) -> None:
    view = await service.view(tid)
    async with store.read() as tx:
        for seat in view.seats:
            assert (await tx.wallet(GUILD, seat.user_id)).balance == seat.stack, seat.name
    report = await store.audit(GUILD)
    assert report.ok, report.format()


def _engine(service: TableService, tid: int) -> FlopHand:
    fam = service._tables[tid].family
    assert isinstance(fam, FlopFamily) and fam.engine is not None
    return fam.engine


async def _fold_around(service: TableService, tid: int) -> None:
    """Everyone folds to the big blind (a shown or mucked win, as the table asks)."""
    while True:
        view = await service.view(tid)
        if not view.to_act_user_ids or not service._tables[tid].family.hand_running:
            return
        uid = min(view.to_act_user_ids)
        pv = await service.private_view(tid, uid)
        kinds = {o.kind for o in pv.options if o.allowed}
        kind = "muck" if "muck" in kinds else "fold" if "call" in kinds else "check"
        await service.act(tid, uid, kind)


async def _next_hand(service: TableService, clock: Clock, tid: int) -> None:
    clock.now += 60
    assert await service.tick(tid)


# ------------------------------------------------------------------- 11. the straddle


async def test_straddle_is_offered_before_the_deal_to_the_seat_under_the_gun(
    store: Store, clock: Clock, recorder: Recorder
) -> None:
    service = await _service(store, clock, recorder, seeded(3))
    tid = await _table(service, 901, (ALICE, BOB, CAROL, DAVE), straddle="under-the-gun")
    await service.start(tid, ALICE)
    assert (await service.view(tid)).house is None  # not on the first hand (button drawn)
    await _fold_around(service, tid)
    view = await service.view(tid)
    info = view.house
    assert info is not None and info.straddle_seat is not None
    # the next hand waits for the choice, longer than the usual pause
    assert view.deadline == pytest.approx(clock.now + STRADDLE_SECONDS, abs=1)
    offered = next(s for s in view.seats if s.seat == info.straddle_seat)
    other = next(s for s in view.seats if s.seat != info.straddle_seat)
    with pytest.raises(NotYourTurn, match="another seat"):
        await service.straddle(tid, other.user_id, yes=True)
    assert await service.view(tid) == view  # refused: nothing changed, deadline included
    with pytest.raises(Exception, match="earlier deal"):
        await service.straddle(tid, offered.user_id, yes=True, after_hand=0)
    took = await service.straddle(tid, offered.user_id, yes=True, after_hand=1)
    assert took.house is not None and took.house.straddling == offered.seat
    assert took.deadline == pytest.approx(clock.now + 3, abs=1)  # dealt at once
    with pytest.raises(IllegalAction, match="already chose"):
        await service.straddle(tid, offered.user_id, yes=False)
    await _next_hand(service, clock, tid)
    hand = _engine(service, tid)
    assert hand.straddle_pos is not None
    assert hand.seat_ids[hand.straddle_pos] == offered.seat
    assert hand.bets[hand.straddle_pos] == 20 and hand.top == 20
    # the player after the straddler opens; the straddler acts last
    assert hand.to_act() == frozenset({hand.seat_ids[(hand.straddle_pos + 1) % hand.n]})
    async with store.read() as tx:
        blinds = await tx.entries(table_id=tid, kind="blind")
    assert sorted(e.amount for e in blinds if e.hand_id == blinds[-1].hand_id) == [5, 10, 20]
    await _wallets_match(service, store, tid)


async def test_straddle_window_running_out_deals_without_a_straddle(
    store: Store, clock: Clock, recorder: Recorder
) -> None:
    service = await _service(store, clock, recorder, seeded(4))
    tid = await _table(service, 902, (ALICE, BOB, CAROL), straddle="button")
    await service.start(tid, ALICE)
    await _fold_around(service, tid)
    assert (await service.view(tid)).house is not None
    clock.now += STRADDLE_SECONDS - 1
    assert not await service.tick(tid)  # not yet
    clock.now += 2
    assert await service.tick(tid)
    hand = _engine(service, tid)
    assert hand.straddle_pos is None and hand.top == 10


async def test_no_straddle_is_offered_when_the_option_is_off(
    service: TableService, clock: Clock
) -> None:
    tid = await _table(service, 903, (ALICE, BOB, CAROL))
    await service.start(tid, ALICE)
    await _fold_around(service, tid)
    view = await service.view(tid)
    assert view.house is None
    assert view.deadline == pytest.approx(clock.now + 3, abs=1)


# ------------------------------------------------------ house options between hands


async def test_host_changes_house_options_between_hands_they_apply_from_the_next_hand(
    store: Store, clock: Clock, recorder: Recorder
) -> None:
    service = await _service(store, clock, recorder, seeded(5))
    tid = await _table(service, 904, (ALICE, BOB, CAROL))
    await service.start(tid, ALICE)
    with pytest.raises(NotAllowed):
        await service.set_house(tid, BOB, {"run_it_twice": "ask"}, may_manage=False)
    with pytest.raises(InvalidConfig, match="straddle"):
        await service.set_house(tid, ALICE, {"straddle": "sideways"}, may_manage=False)
    view, changed = await service.set_house(
        tid, ALICE, {"run_it_twice": "ask", "seven_deuce": 25}, may_manage=False
    )
    assert changed == [("run_it_twice", "ask"), ("seven_deuce", "25")]
    assert "House rules from the next hand: run it twice: ask, seven-deuce: 25" in view.recent
    assert ("run_it_twice", "ask") in [(n, v) for n, v, _ in view.rules]
    # the hand being played keeps its own rules
    assert _engine(service, tid).rules.run_it_twice == "off"
    with pytest.raises(IllegalAction, match="already"):
        await service.set_house(tid, ALICE, {"run_it_twice": "ask"}, may_manage=False)
    await _fold_around(service, tid)
    await _next_hand(service, clock, tid)
    assert _engine(service, tid).rules.run_it_twice == "ask"
    assert _engine(service, tid).rules.seven_deuce == 25
    # a restart keeps them
    await service.stop_service()
    again = await _service(store, clock, recorder, seeded(6))
    fam = again._tables[tid].family
    assert isinstance(fam, FlopFamily) and fam.rules.seven_deuce == 25
    await again.stop_service()


async def test_seven_deuce_is_refused_at_an_omaha_table(service: TableService) -> None:
    view = await service.open_table(
        guild_id=GUILD, channel_id=905, host_id=ALICE, host_name="Alice", game="omaha"
    )
    with pytest.raises(InvalidConfig, match="Hold'em only"):
        await service.set_house(view.table_id, ALICE, {"seven_deuce": 10}, may_manage=False)
    with pytest.raises(InvalidConfig, match="Hold'em only"):
        await service.open_table(
            guild_id=GUILD,
            channel_id=906,
            host_id=BOB,
            host_name="Bob",
            game="omaha",
            options={"seven_deuce": 10},
        )


# --------------------------------------------------------------------- 13. bomb pots


async def test_bomb_pot_every_n_hands_antes_only_and_starts_on_the_flop(
    store: Store, clock: Clock, recorder: Recorder
) -> None:
    service = await _service(store, clock, recorder, seeded(8))
    tid = await _table(service, 907, (ALICE, BOB, CAROL), bomb_pot_every=2, bomb_pot_ante=15)
    await service.start(tid, ALICE)
    info = (await service.view(tid)).house
    assert info is not None and info.bomb_ante == 15  # the next hand is one
    await _fold_around(service, tid)
    await _next_hand(service, clock, tid)
    hand = _engine(service, tid)
    assert hand.bomb == 15 and hand.street_name == "flop" and hand.pot_total == 45
    async with store.read() as tx:
        hands = await tx.hands(tid)
        antes = await tx.entries(table_id=tid, kind="ante")
        blinds = await tx.entries(table_id=tid, kind="blind")
    assert sorted(e.amount for e in antes if e.hand_id == hands[1].id) == [15, 15, 15]
    assert not [e for e in blinds if e.hand_id == hands[1].id]
    await _fold_around(service, tid)
    await _next_hand(service, clock, tid)
    assert _engine(service, tid).bomb == 0  # hand 3: blinds again
    await _wallets_match(service, store, tid)


async def test_host_calls_a_double_board_bomb_pot_for_the_next_hand(
    store: Store, clock: Clock, recorder: Recorder
) -> None:
    service = await _service(store, clock, recorder, seeded(9))
    tid = await _table(service, 908, (ALICE, BOB, CAROL))
    await service.start(tid, ALICE)
    with pytest.raises(NotAllowed):
        await service.bomb_pot(tid, CAROL, ante=20, double_board=True, may_manage=False)
    view = await service.bomb_pot(tid, ALICE, ante=20, double_board=True, may_manage=False)
    assert "The next hand is a bomb pot: everyone antes 20" in view.recent[-1]
    await _fold_around(service, tid)
    await _next_hand(service, clock, tid)
    hand = _engine(service, tid)
    assert hand.bomb == 20 and len(hand.boards) == 2
    while service._tables[tid].family.hand_running:
        view = await service.view(tid)
        uid = min(view.to_act_user_ids)
        await service.act(tid, uid, "check")
    assert hand.is_over and all(len(b) == 5 for b in hand.boards)
    async with store.read() as tx:
        history = (await tx.hands(tid))[1].history
    assert history and "starting_board_count = 2" in history
    assert replay_flop_phh_text(history).match is True
    assert (await service.view(tid)).house is None or not (await service.view(tid)).house.bomb_ante
    await _wallets_match(service, store, tid)


async def test_voided_bomb_pot_is_called_again(
    store: Store, clock: Clock, recorder: Recorder
) -> None:
    service = await _service(store, clock, recorder, seeded(10))
    tid = await _table(service, 909, (ALICE, BOB, CAROL))
    await service.start(tid, ALICE)
    await service.bomb_pot(tid, ALICE, ante=20, double_board=False, may_manage=False)
    await _fold_around(service, tid)
    await _next_hand(service, clock, tid)
    assert _engine(service, tid).bomb == 20
    await service.void_hand(tid, ALICE, may_manage=True)
    await _next_hand(service, clock, tid)
    assert _engine(service, tid).bomb == 20  # dealt again as the bomb pot it was
    await _wallets_match(service, store, tid)


# ---------------------------------------------------------------- 12. run it twice

# seats 0, 1, 2 (Alice, Bob, Carol); Carol draws the button: Alice small blind, Bob big
ALL_IN = "Ac Kc  2d 3d  Qh Qs  Kd 7s 2c 3h 4s  8d 7c 2h 3s 9c"
DRAW = "2s 3s As"


async def _all_in_preflop(service: TableService, tid: int) -> None:
    await service.start(tid, ALICE)
    await service.act(tid, CAROL, "raise", amount=1000)
    await service.act(tid, ALICE, "call")
    await service.act(tid, BOB, "fold")


async def test_run_it_twice_window_is_15_seconds_once_by_default(
    store: Store, clock: Clock, recorder: Recorder
) -> None:
    service = await _service(store, clock, recorder, stacked_hands((ALL_IN, DRAW)))
    tid = await _table(service, 910, (ALICE, BOB, CAROL), run_it_twice="ask")
    await _all_in_preflop(service, tid)
    view = await service.view(tid)
    assert view.to_act_user_ids == {ALICE, CAROL} and view.phase.startswith("all in")
    assert view.deadline == pytest.approx(clock.now + RUNOUT_SECONDS, abs=1)
    pv = await service.private_view(tid, ALICE)
    assert [o.kind for o in pv.options if o.allowed] == ["once", "twice"]
    with pytest.raises(IllegalAction, match="Once or Twice"):
        await service.act(tid, ALICE, "check")
    clock.now += 5
    await service.act(tid, ALICE, "twice")
    after = await service.view(tid)
    assert after.deadline == view.deadline  # one choice does not restart the window
    assert after.to_act_user_ids == {CAROL}
    clock.now += RUNOUT_SECONDS
    assert await service.tick(tid)
    assert "Carol timed out; the table runs it once for them" in recorder.announcements
    hand = _engine(service, tid)
    assert hand.is_over and hand.runs == 1
    await _wallets_match(service, store, tid)


async def test_run_it_twice_all_twice_each_run_wins_half_of_the_pot(
    store: Store, clock: Clock, recorder: Recorder
) -> None:
    service = await _service(store, clock, recorder, stacked_hands((ALL_IN, DRAW)))
    tid = await _table(service, 911, (ALICE, BOB, CAROL), run_it_twice="ask")
    await _all_in_preflop(service, tid)
    await service.act(tid, CAROL, "twice")
    await service.act(tid, ALICE, "twice")
    hand = _engine(service, tid)
    assert hand.runs == 2 and [str(c) for c in hand.boards[1]] == ["8d", "7c", "2h", "3s", "9c"]
    result = next(p.results[-1] for p in reversed(recorder.published) if p.results)
    assert "Run 1: K♦ 7♠ 2♣ 3♥ 4♠" in result and "Run 2: 8♦ 7♣ 2♥ 3♠ 9♣" in result
    assert "Half the pot (1,005): Alice wins it" in result
    assert "Half the pot (1,005): Carol wins it" in result
    view = await service.view(tid)
    assert view.house is not None and [label for label, _ in view.house.boards] == [
        "Run 1",
        "Run 2",
    ]
    async with store.read() as tx:
        history = (await tx.hands(tid))[0].history
    assert history and "runout_count = 2" in history
    assert replay_flop_phh_text(history).match is True
    await _wallets_match(service, store, tid)


async def test_run_it_twice_choice_survives_a_restart(
    store: Store, clock: Clock, recorder: Recorder
) -> None:
    service = await _service(store, clock, recorder, stacked_hands((ALL_IN, DRAW)))
    tid = await _table(service, 912, (ALICE, BOB, CAROL), run_it_twice="ask")
    await _all_in_preflop(service, tid)
    await service.act(tid, CAROL, "twice")
    await service.stop_service()
    again = await _service(store, clock, recorder, seeded(1))
    view = await again.view(tid)
    assert view.to_act_user_ids == {ALICE}
    await again.act(tid, ALICE, "twice")
    assert _engine(again, tid).runs == 2
    await _wallets_match(again, store, tid)
    await again.stop_service()


# --------------------------------------------------------------------- 14. seven-deuce

# Carol (the button) holds 7-2 offsuit and raises; the blinds fold
SEVEN_DEUCE = "Kd Qd  4s 4h  7c 2d  Jc Jh 5d 6s Tc"


async def test_seven_deuce_uncontested_show_is_paid_by_every_other_player_by_the_ledger(
    store: Store, clock: Clock, recorder: Recorder
) -> None:
    service = await _service(store, clock, recorder, stacked_hands((SEVEN_DEUCE, DRAW)))
    tid = await _table(service, 913, (ALICE, BOB, CAROL), seven_deuce=25)
    await service.start(tid, ALICE)
    await service.act(tid, CAROL, "raise", amount=40)
    await service.act(tid, ALICE, "fold")
    await service.act(tid, BOB, "fold")
    view = await service.view(tid)
    assert view.to_act_user_ids == {CAROL} and view.phase == "pot won: show or muck?"
    assert view.deadline == pytest.approx(clock.now + SHOW_SECONDS, abs=1)
    with pytest.raises(NotYourTurn):
        await service.act(tid, ALICE, "show")
    await service.act(tid, CAROL, "show")
    async with store.read() as tx:
        paid = await tx.entries(table_id=tid, kind="seven_deuce")
        wallets = {u: (await tx.wallet(GUILD, u)).balance for u in (ALICE, BOB, CAROL)}
    assert sorted(e.amount for e in paid) == [25, 25, 50]
    assert wallets == {ALICE: 1000 - 5 - 25, BOB: 1000 - 10 - 25, CAROL: 1000 + 15 + 50}
    result = next(p.results[-1] for p in reversed(recorder.published) if p.results)
    assert "Seven-deuce: Carol won with 7♣ 2♦ and is paid 50 (Alice 25, Bob 25)" in result
    assert "The pot (25): Carol wins it" in result  # the pot was won a step before
    await _wallets_match(service, store, tid)


async def test_seven_deuce_uncontested_muck_is_not_paid(
    store: Store, clock: Clock, recorder: Recorder
) -> None:
    service = await _service(store, clock, recorder, stacked_hands((SEVEN_DEUCE, DRAW)))
    tid = await _table(service, 914, (ALICE, BOB, CAROL), seven_deuce=25)
    await service.start(tid, ALICE)
    await service.act(tid, CAROL, "raise", amount=40)
    await service.act(tid, ALICE, "fold")
    await service.act(tid, BOB, "fold")
    clock.now += SHOW_SECONDS
    assert await service.tick(tid)  # the window ran out: mucked
    result = next(p.results[-1] for p in reversed(recorder.published) if p.results)
    assert "The pot (25): Carol wins it" in result and "shows" not in result
    assert [p.rabbit_hand for p in recorder.published if p.rabbit_hand] == [1]
    async with store.read() as tx:
        assert not await tx.entries(table_id=tid, kind="seven_deuce")
    await _wallets_match(service, store, tid)


# --------------------------------------------------------------------- 15. the rabbit


async def test_rabbit_of_a_hand_that_ended_before_the_river_changes_nothing(
    store: Store, clock: Clock, recorder: Recorder
) -> None:
    service = await _service(store, clock, recorder, stacked_hands((SEVEN_DEUCE, DRAW)))
    tid = await _table(service, 915, (ALICE, BOB, CAROL))
    await service.start(tid, ALICE)
    await service.act(tid, CAROL, "raise", amount=40)
    await service.act(tid, ALICE, "fold")
    await service.act(tid, BOB, "fold")
    assert [p.rabbit_hand for p in recorder.published if p.rabbit_hand] == [1]
    before = await service.view(tid)
    async with store.read() as tx:
        ledger = await tx.entries(table_id=tid)
    rabbit = await service.rabbit(tid, 1)
    assert [c for r in rabbit for c in r["cards"]] == ["Jc", "Jh", "5d", "6s", "Tc"]
    assert await service.view(tid) == before
    async with store.read() as tx:
        assert await tx.entries(table_id=tid) == ledger
    with pytest.raises(IllegalAction, match="no rabbit"):
        await service.rabbit(tid, 7)


async def test_rabbit_hunt_off_gives_no_rabbit(
    store: Store, clock: Clock, recorder: Recorder, tmp_path: Path
) -> None:
    service = await _service(store, clock, recorder, stacked_hands((SEVEN_DEUCE, DRAW)))
    tid = await _table(service, 916, (ALICE, BOB, CAROL), rabbit_hunt=False)
    await service.start(tid, ALICE)
    await service.act(tid, CAROL, "raise", amount=40)
    await service.act(tid, ALICE, "fold")
    await service.act(tid, BOB, "fold")
    assert not [p for p in recorder.published if p.rabbit_hand]
    with pytest.raises(IllegalAction):
        await service.rabbit(tid, 1)


# ----------------------------------------------------------- dealer's choice, Razz


async def test_dealers_choice_house_options_apply_to_its_holdem_and_omaha_games(
    service: TableService,
) -> None:
    from bot.tables.mixed import MixedFamily

    view = await service.open_table(
        guild_id=GUILD,
        channel_id=917,
        host_id=ALICE,
        host_name="Alice",
        game="dealers-choice",
        options={"games": "holdem omaha razz", "straddle": "button", "seven_deuce": 10},
    )
    fam = service._tables[view.table_id].family
    assert isinstance(fam, MixedFamily)
    holdem, omaha, razz = fam.rules
    assert holdem["straddle"] == "button" and holdem["seven_deuce"] == 10
    assert omaha["straddle"] == "button" and omaha["seven_deuce"] == 0  # Hold'em's rule
    assert "straddle" not in razz
    _, changed = await service.set_house(
        view.table_id, ALICE, {"run_it_twice": "ask"}, may_manage=False
    )
    assert changed == [("run_it_twice", "ask")]
    assert fam.rules[0]["run_it_twice"] == "ask" and fam.rules[1]["run_it_twice"] == "ask"
    bomb = await service.bomb_pot(
        view.table_id, ALICE, ante=20, double_board=False, may_manage=False
    )
    assert "The next Hold'em or Omaha hand is a bomb pot" in bomb.recent[-1]
    # a restart keeps the options of the games
    await service.stop_service()
    await service.start_service()
    again = service._tables[view.table_id].family
    assert isinstance(again, MixedFamily)
    assert again.rules[0]["run_it_twice"] == "ask" and again.bomb_next == {
        "ante": 20,
        "double_board": False,
    }


async def test_dealers_choice_bomb_pot_is_dealt_at_its_next_holdem_hand(
    store: Store, clock: Clock, recorder: Recorder
) -> None:
    service = await _service(store, clock, recorder, seeded(12))
    view = await service.open_table(
        guild_id=GUILD,
        channel_id=918,
        host_id=ALICE,
        host_name="Alice",
        game="dealers-choice",
        options={"games": "holdem omaha"},
    )
    tid = view.table_id
    for uid in (BOB, CAROL):
        await service.join(tid, uid, NAMES[uid])
    await service.start(tid, ALICE)
    await service.bomb_pot(tid, ALICE, ante=25, double_board=True, may_manage=False)
    await _fold_around(service, tid)
    clock.now += 120  # the next dealer's pick runs out: Hold'em again
    assert await service.tick(tid)
    fam = service._tables[tid].family
    hand = fam.engine
    assert isinstance(hand, FlopHand) and hand.bomb == 25 and len(hand.boards) == 2
    await _wallets_match(service, store, tid)


async def test_house_options_and_bomb_pots_are_refused_at_a_razz_table(
    service: TableService,
) -> None:
    view = await service.open_table(
        guild_id=GUILD, channel_id=919, host_id=ALICE, host_name="Alice", game="razz"
    )
    before = await service.view(view.table_id)
    with pytest.raises(InvalidConfig, match="no house options"):
        await service.set_house(view.table_id, ALICE, {"straddle": "button"}, may_manage=False)
    with pytest.raises(InvalidConfig, match="Hold'em and Omaha"):
        await service.bomb_pot(view.table_id, ALICE, ante=5, double_board=None, may_manage=False)
    assert await service.view(view.table_id) == before


async def test_straddle_offer_survives_a_restart_and_a_double_click_is_refused(
    store: Store, clock: Clock, recorder: Recorder
) -> None:
    service = await _service(store, clock, recorder, seeded(3))
    tid = await _table(service, 920, (ALICE, BOB, CAROL, DAVE), straddle="under-the-gun")
    await service.start(tid, ALICE)
    await _fold_around(service, tid)
    offered = (await service.view(tid)).house
    assert offered is not None and offered.straddle_seat is not None
    await service.stop_service()
    again = await _service(store, clock, recorder, seeded(4))
    view = await again.view(tid)
    assert view.house == offered and view.deadline is not None
    uid = next(s.user_id for s in view.seats if s.seat == offered.straddle_seat)
    await again.straddle(tid, uid, yes=True, after_hand=1)
    with pytest.raises(IllegalAction, match="already chose"):
        await again.straddle(tid, uid, yes=True, after_hand=1)
    await _next_hand(again, clock, tid)
    assert _engine(again, tid).straddle_pos is not None
    await again.stop_service()


async def test_run_it_twice_a_second_click_is_refused_and_the_window_stays(
    store: Store, clock: Clock, recorder: Recorder
) -> None:
    service = await _service(store, clock, recorder, stacked_hands((ALL_IN, DRAW)))
    tid = await _table(service, 921, (ALICE, BOB, CAROL), run_it_twice="ask")
    await _all_in_preflop(service, tid)
    await service.act(tid, CAROL, "twice")
    before = await service.view(tid)
    with pytest.raises(IllegalAction, match="already chose twice"):
        await service.act(tid, CAROL, "once")
    assert await service.view(tid) == before
    with pytest.raises(NotYourTurn):
        await service.act(tid, BOB, "twice")  # folded: not asked
    clock.now += RUNOUT_SECONDS
    assert await service.tick(tid)  # the refused clicks left the timer alone
    assert _engine(service, tid).is_over
    await _wallets_match(service, store, tid)
