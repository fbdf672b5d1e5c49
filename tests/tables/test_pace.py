"""Issue 22, items 1-5, at the service: the time bank, choices made in advance, sitting out
and back, the host's stakes for the next hand, and the turn keys the pings go by. Real
engines, the real SQLite store in a temp dir, the test's clock moved (no real waiting);
chips are read back from the ledger."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from bot.engine.errors import IllegalAction, InvalidConfig
from bot.store import Store
from bot.tables import NotAllowed, TableService
from bot.tables.pace import TOP_UP

from .conftest import ALICE, BOB, CAROL, GUILD, Clock, Recorder, seeded

DAVE = 24
ERIN = 25
NAMES = {ALICE: "Alice", BOB: "Bob", CAROL: "Carol", DAVE: "Dave", ERIN: "Erin"}


async def _table(
    service: TableService, game: str, channel: int, *, players=(ALICE, BOB, CAROL), **options
) -> int:
    view = await service.open_table(
        guild_id=GUILD,
        channel_id=channel,
        host_id=players[0],
        host_name=NAMES[players[0]],
        game=game,
        options=options,
    )
    for uid in players[1:]:
        await service.join(view.table_id, uid, NAMES[uid])
    return view.table_id


async def _actor(service: TableService, tid: int) -> int:
    (actor,) = (await service.view(tid)).to_act_user_ids
    return actor


async def _next_hand(service: TableService, clock: Clock, tid: int) -> None:
    """Let the pause between hands run out: the next hand is dealt."""
    view = await service.view(tid)
    assert not await service.hand_in_progress(tid) and view.deadline is not None
    clock.now = max(clock.now, view.deadline + 0.01)
    assert await service.tick(tid)
    assert await service.hand_in_progress(tid)


async def _fold_to_the_end(service: TableService, tid: int) -> None:
    while await service.hand_in_progress(tid):
        actor = await _actor(service, tid)
        pv = await service.private_view(tid, actor)
        kind = next(k for k in ("fold", "check", "bring_in") if (o := pv.option(k)) and o.allowed)
        await service.act(tid, actor, kind)


async def _audit(store: Store) -> None:
    report = await store.audit(GUILD)
    assert report.ok, report.format()


async def _blinds_by_user(store: Store, tid: int, hand_number: int) -> dict[int, int]:
    async with store.read() as tx:
        hand = next(h for h in await tx.hands(tid) if h.number == hand_number)
        out: dict[int, int] = {}
        for e in await tx.entries(hand_id=hand.id, kind="blind"):
            uid = (await tx.account(e.from_account)).user_id
            assert uid is not None
            out[uid] = out.get(uid, 0) + e.amount
    return out


# ----------------------------------------------------------------------------- time bank


async def test_item1_time_bank_starts_when_the_clock_runs_out_is_spent_and_topped_up(
    service: TableService, store: Store, clock: Clock, recorder: Recorder
) -> None:
    tid = await _table(
        service, "holdem", 801, players=(ALICE, BOB), decision_seconds=10, time_bank=20
    )
    view = await service.start(tid, ALICE)
    actor = await _actor(service, tid)
    assert view.bank_user is None
    assert (await service.private_view(tid, actor)).bank == 20
    # the decision clock runs out: the bank starts instead of the default action
    clock.now = view.deadline + 0.25
    assert await service.tick(tid)
    view = await service.view(tid)
    assert view.to_act_user_ids == {actor} and view.bank_user == actor
    assert view.deadline == math.ceil(clock.now + 20)
    assert not any("timed out" in a for a in recorder.announcements)
    assert any("time bank" in r for r in view.recent)
    pv = await service.private_view(tid, actor)
    assert pv.bank_on and pv.deadline == view.deadline
    # acting 8 seconds into the bank takes 8 seconds off it
    clock.now += 8
    await service.act(tid, actor, "call")
    assert (await service.view(tid)).bank_user is None
    assert (await service.private_view(tid, actor)).bank == 12
    await _fold_to_the_end(service, tid)
    # heads-up the button alternates: the orbit ends when it comes back to the first seat
    banks = []
    for _ in range(4):
        await _next_hand(service, clock, tid)
        banks.append((await service.private_view(tid, actor)).bank)
        await _fold_to_the_end(service, tid)
    assert banks[0] == 12  # hand 2: the button's first move
    assert banks[1] == 12 + TOP_UP  # hand 3: back at the first button, one orbit
    assert banks[3] == 20  # two orbits: never past the bank's size (12 + 5 + 5 > 20)
    await _audit(store)


async def test_item1_both_clocks_run_out_the_default_action_and_an_empty_bank_stays_empty(
    service: TableService, store: Store, clock: Clock, recorder: Recorder
) -> None:
    tid = await _table(service, "holdem", 802, players=(ALICE, BOB), time_bank=15)
    await service.start(tid, ALICE)
    await service.act(tid, await _actor(service, tid), "call")  # the button calls
    bb = await _actor(service, tid)
    view = await service.view(tid)
    clock.now = view.deadline + 0.1
    assert await service.tick(tid)  # the decision clock ran out: the bank starts
    view = await service.view(tid)
    assert view.bank_user == bb
    clock.now = view.deadline + 0.1
    assert await service.tick(tid)  # both ran out: nothing owed, so the table checks
    assert f"{NAMES[bb]} checks (timed out)" in (await service.view(tid)).recent
    assert any(f"{NAMES[bb]} timed out; the table checks" in a for a in recorder.announcements)
    assert (await service.private_view(tid, bb)).bank == 0
    # on the flop the big blind acts first: with an empty bank the default comes at once
    view = await service.view(tid)
    assert view.phase == "the flop" and view.to_act_user_ids == {bb}
    clock.now = view.deadline + 0.1
    await service.tick(tid)
    view = await service.view(tid)
    assert view.bank_user is None and bb not in view.to_act_user_ids
    assert sum(1 for a in recorder.announcements if f"{NAMES[bb]} timed out" in a) == 2
    await _audit(store)


async def test_item1_stud_bring_in_on_timeout_posts_the_bring_in_after_the_bank(
    service: TableService, store: Store, clock: Clock, recorder: Recorder
) -> None:
    tid = await _table(service, "razz", 803, time_bank=10)
    view = await service.start(tid, ALICE)
    bring = await _actor(service, tid)
    clock.now = view.deadline + 0.1
    await service.tick(tid)
    assert (await service.view(tid)).bank_user == bring
    clock.now = (await service.view(tid)).deadline + 0.1
    await service.tick(tid)
    assert any(f"{NAMES[bring]} timed out; the table posts the bring-in" in a for a in
               recorder.announcements)  # fmt: skip
    await _audit(store)


async def test_item1_restart_mid_time_bank_resumes_and_a_bank_missed_while_down_refreshes(
    db_path: Path, clock: Clock
) -> None:
    store = await Store.open(db_path, clock=clock)
    svc = TableService(store, clock=clock, rng_factory=seeded(3), timers=False)
    await svc.start_service()
    tid = await _table(svc, "razz", 804, decision_seconds=10, time_bank=30)
    view = await svc.start(tid, ALICE)
    bring = await _actor(svc, tid)
    clock.now = view.deadline + 0.5
    await svc.tick(tid)
    running = await svc.view(tid)
    assert running.bank_user == bring
    await svc.stop_service()
    await store.close()

    # back within the bank: the same deadline, the bank goes on counting
    clock.now += 10
    store = await Store.open(db_path, clock=clock)
    svc = TableService(store, clock=clock, rng_factory=seeded(4), timers=False)
    await svc.start_service()
    again = await svc.view(tid)
    assert (again.deadline, again.bank_user) == (running.deadline, bring)
    await svc.stop_service()
    await store.close()

    # the bank's end passes while the bot is down: a fresh decision window, and the bank
    # as full as it was when it started (nobody could act meanwhile)
    clock.now = running.deadline + 100
    store = await Store.open(db_path, clock=clock)
    rec = Recorder()
    svc = TableService(store, clock=clock, subscriber=rec, rng_factory=seeded(5), timers=False)
    await svc.start_service()
    fresh = await svc.view(tid)
    assert fresh.bank_user is None and fresh.to_act_user_ids == {bring}
    assert fresh.deadline == math.ceil(clock.now + 10)
    assert any("fresh 10-second window" in a for a in rec.announcements)
    assert (await svc.private_view(tid, bring)).bank == 30
    clock.now = fresh.deadline + 0.1
    await svc.tick(tid)  # the window runs out: the bank starts again
    assert (await svc.view(tid)).bank_user == bring
    await svc.stop_service()
    await store.close()


# ----------------------------------------------------------------------------- in advance


async def _three_handed(
    service: TableService, channel: int, **options
) -> tuple[int, int, int, int]:
    """A three-handed Hold'em hand dealt: (table, button, small blind, big blind); the
    button acts first before the flop."""
    tid = await _table(service, "holdem", channel, **options)
    view = await service.start(tid, ALICE)
    button = await _actor(service, tid)
    order = sorted(s.seat for s in view.seats)
    seat_of = {s.seat: s.user_id for s in view.seats}
    b = next(s.seat for s in view.seats if s.user_id == button)
    after = [s for s in order if s > b] + [s for s in order if s <= b]
    return tid, button, seat_of[after[0]], seat_of[after[1]]


async def test_item2_check_fold_in_advance_is_taken_at_once_and_the_table_says_so(
    service: TableService, store: Store
) -> None:
    tid, button, sb, bb = await _three_handed(service, 811)
    sb_view = await service.private_view(tid, sb)
    assert sb_view.advance == (("check_fold", None), ("call", 5))  # owes the rest of the blind
    bb_view = await service.private_view(tid, bb)
    assert bb_view.advance == (("check_fold", None), ("check", None))
    await service.choose_in_advance(tid, sb, "check_fold", hand=1)
    await service.choose_in_advance(tid, bb, "check_fold", hand=1)
    assert (await service.private_view(tid, sb)).advance_chosen == ("check_fold", None)
    await service.act(tid, button, "call")
    # the small blind's turn came: it folds at once (there was a price); the big blind's
    # then: it checks at once (nothing owed); the flop is dealt
    view = await service.view(tid)
    assert f"{NAMES[sb]} folds (chosen in advance)" in view.recent
    assert f"{NAMES[bb]} checks (chosen in advance)" in view.recent
    assert view.phase == "the flop"
    assert (await service.private_view(tid, bb)).advance_chosen is None  # for one round
    await _audit(store)


async def test_item2_a_raise_clears_check_and_call_n_and_the_turn_is_asked_again(
    service: TableService, store: Store
) -> None:
    tid, button, sb, bb = await _three_handed(service, 812)
    await service.choose_in_advance(tid, sb, "call", amount=5, hand=1)
    await service.choose_in_advance(tid, bb, "check", hand=1)
    await service.act(tid, button, "raise", amount=30)
    # the price changed: both choices are cleared, and the small blind is asked
    assert (await service.private_view(tid, sb)).advance_chosen is None
    assert (await service.private_view(tid, bb)).advance_chosen is None
    view = await service.view(tid)
    assert view.to_act_user_ids == {sb}
    assert not any("chosen in advance" in r for r in view.recent)
    # the offer follows the new price; a stale Call is refused and changes nothing
    assert (await service.private_view(tid, bb)).advance == (("check_fold", None), ("call", 20))
    with pytest.raises(IllegalAction, match="the price is now 20, so Call 10 is off"):
        await service.choose_in_advance(tid, bb, "call", amount=10, hand=1)
    assert (await service.view(tid)).version == view.version
    # Call N at the price stands: taken when the turn comes
    await service.choose_in_advance(tid, bb, "call", amount=20, hand=1)
    await service.act(tid, sb, "call")
    view = await service.view(tid)
    assert f"{NAMES[bb]} calls 20 (chosen in advance)" in view.recent
    assert view.phase == "the flop" and view.pot == 90
    await _audit(store)


async def test_item2_pressed_again_cancels_and_on_your_turn_acts_now(
    service: TableService,
) -> None:
    tid, button, sb, bb = await _three_handed(service, 813)
    await service.choose_in_advance(tid, bb, "check", hand=1)
    pv = await service.choose_in_advance(tid, bb, "check", hand=1)
    assert pv.advance_chosen is None  # cancelled
    # the player to act presses Call 10 in their DM: it acts now
    await service.choose_in_advance(tid, button, "call", amount=10, hand=1)
    assert (await service.view(tid)).to_act_user_ids == {sb}
    with pytest.raises(IllegalAction):
        await service.choose_in_advance(tid, sb, "check", hand=1)  # owes 5: no check
    from bot.tables import StaleAction

    with pytest.raises(StaleAction):
        await service.choose_in_advance(tid, bb, "check", hand=7)


async def test_item2_choices_in_advance_are_kept_through_a_restart(
    db_path: Path, clock: Clock
) -> None:
    store = await Store.open(db_path, clock=clock)
    svc = TableService(store, clock=clock, rng_factory=seeded(9), timers=False)
    await svc.start_service()
    tid, button, sb, bb = await _three_handed(svc, 814)
    await svc.choose_in_advance(tid, bb, "check_fold", hand=1)
    await svc.stop_service()
    await store.close()
    store = await Store.open(db_path, clock=clock)
    svc = TableService(store, clock=clock, rng_factory=seeded(9), timers=False)
    await svc.start_service()
    assert (await svc.private_view(tid, bb)).advance_chosen == ("check_fold", None)
    await svc.act(tid, button, "call")
    await svc.act(tid, sb, "call")
    assert f"{NAMES[bb]} checks (chosen in advance)" in (await svc.view(tid)).recent
    await svc.stop_service()
    await store.close()


async def test_item2_guts_play_on_or_lay_down_chosen_for_the_next_window(
    service: TableService, store: Store
) -> None:
    tid = await _table(service, "zoot", 815, ante=5)
    await service.start(tid, ALICE)
    # the first window: nobody lays down
    for uid in (ALICE, BOB, CAROL):
        assert (await service.private_view(tid, uid)).advance == ()  # their window now
        await service.act(tid, uid, "play_on")
    view = await service.view(tid)
    assert view.phase.startswith("discard")
    pv = await service.private_view(tid, BOB)
    assert {k for k, _ in pv.advance} == {"lay_down", "play_on"}
    await service.choose_in_advance(tid, BOB, "lay_down", hand=view.hand_number)
    for uid in (ALICE, BOB, CAROL):
        pv = await service.private_view(tid, uid)
        await service.act(tid, uid, "discard", card=str(pv.option("discard").suggested))
    # the next window opened: Bob's choice was made at once (a secret: the table says
    # only how many chose)
    pv = await service.private_view(tid, BOB)
    assert pv.chosen == "lay_down" and pv.advance_chosen is None
    assert not any("chosen in advance" in r for r in (await service.view(tid)).recent)
    await _audit(store)


# ----------------------------------------------------------------------------- sitting out


async def test_item4_sit_out_two_hands_and_back_posting_the_missed_big_blind(
    service: TableService, store: Store, clock: Clock
) -> None:
    tid = await _table(service, "holdem", 821, players=(ALICE, BOB, CAROL, DAVE))
    await service.start(tid, ALICE)
    hand1 = await _blinds_by_user(store, tid, 1)
    big1 = next(u for u, a in hand1.items() if a == 10)
    view = await service.view(tid)
    order = sorted(view.seats, key=lambda s: s.seat)
    i = next(k for k, s in enumerate(order) if s.user_id == big1)
    sitter = order[(i + 1) % 4].user_id  # the next big blind: sitting out, it passes them
    pv = await service.sit_out(tid, sitter)
    assert pv.sit_next and not pv.sitting_out
    await _fold_to_the_end(service, tid)
    for hand in (2, 3):
        await _next_hand(service, clock, tid)
        view = await service.view(tid)
        assert view.hand_number == hand
        assert view.seat_of(sitter).status == "sitting_out"
        assert sitter not in await _blinds_by_user(store, tid, hand)
        await _fold_to_the_end(service, tid)
    pv = await service.private_view(tid, sitter)
    assert pv.sitting_out and pv.missed == 2
    # back: the big blind passed them, so they wait for it, or post one now
    pv = await service.sit_in(tid, sitter)
    assert not pv.sitting_out
    view = await service.view(tid)
    assert view.seat_of(sitter).blind == "wait"
    await service.post_blind(tid, sitter)
    await _next_hand(service, clock, tid)
    posted = await _blinds_by_user(store, tid, 4)
    assert posted[sitter] == 10  # the big blind they owed, live
    assert view.seat_of(sitter) is not None
    assert (await service.view(tid)).seat_of(sitter).status != "sitting_out"
    await _audit(store)


async def test_item4_back_before_the_big_blind_reaches_them_is_dealt_in_at_once(
    service: TableService, store: Store, clock: Clock
) -> None:
    tid = await _table(service, "holdem", 822, players=(ALICE, BOB, CAROL, DAVE))
    await service.start(tid, ALICE)
    hand1 = await _blinds_by_user(store, tid, 1)
    small1 = next(u for u, a in hand1.items() if a == 5)
    await service.sit_out(tid, small1)  # was the small blind: the big blind went past already
    await _fold_to_the_end(service, tid)
    await _next_hand(service, clock, tid)
    await service.sit_in(tid, small1)
    assert (await service.view(tid)).seat_of(small1).blind is None
    await _fold_to_the_end(service, tid)
    await _next_hand(service, clock, tid)
    assert (await service.view(tid)).seat_of(small1).status != "sitting_out"


async def test_item4_a_seat_is_kept_sit_out_hands_hands_then_freed(
    service: TableService, store: Store, clock: Clock, recorder: Recorder
) -> None:
    tid = await _table(service, "razz", 823, sit_out_hands=2)
    await service.start(tid, ALICE)
    await service.sit_out(tid, CAROL)
    await _fold_to_the_end(service, tid)
    for _ in range(2):
        await _next_hand(service, clock, tid)
        assert (await service.view(tid)).seat_of(CAROL) is not None
        await _fold_to_the_end(service, tid)
    await _next_hand(service, clock, tid)  # the third hand without her: the seat is freed
    view = await service.view(tid)
    assert view.seat_of(CAROL) is None
    assert any("Carol sat out 2 hands: the seat is free" in a for a in recorder.announcements)
    async with store.read() as tx:
        assert (await tx.wallet(GUILD, CAROL)).balance > 0  # her chips stay hers
    await _audit(store)


async def test_item4_sit_out_refusals_change_nothing(service: TableService) -> None:
    tid = await _table(service, "zoot", 824)
    pv = await service.sit_out(tid, BOB)  # no game yet: at once
    assert pv.sitting_out
    before = await service.view(tid)
    with pytest.raises(IllegalAction, match="you already sit out"):
        await service.sit_out(tid, BOB)
    with pytest.raises(IllegalAction, match="you are not sitting out"):
        await service.sit_in(tid, CAROL)
    assert (await service.view(tid)).version == before.version


# ----------------------------------------------------------------------------- host controls


async def test_item5_table_stakes_apply_from_the_next_hand_only(
    service: TableService, store: Store, clock: Clock
) -> None:
    tid = await _table(service, "holdem", 831)
    await service.start(tid, ALICE)
    view = await service.set_stakes(
        tid, ALICE, {"small_blind": 10, "big_blind": 20}, may_manage=False
    )
    assert view.next_stakes == (("big_blind", 20), ("small_blind", 10))
    assert any("Stakes from the next hand: small blind 10, big blind 20" in r for r in view.recent)
    rules = {k: v for k, v, _ in view.rules}
    assert (rules["small_blind"], rules["big_blind"]) == ("5", "10")  # still hand 1's
    actor = await _actor(service, tid)
    pv = await service.private_view(tid, actor)
    assert pv.option("call").amount == 10  # the hand being played keeps its blinds
    await _fold_to_the_end(service, tid)
    assert sorted((await _blinds_by_user(store, tid, 1)).values()) == [5, 10]
    await _next_hand(service, clock, tid)
    assert sorted((await _blinds_by_user(store, tid, 2)).values()) == [10, 20]
    view = await service.view(tid)
    rules = {k: v for k, v, _ in view.rules}
    assert (rules["small_blind"], rules["big_blind"]) == ("10", "20") and not view.next_stakes
    async with store.read() as tx:
        assert (await tx.table(tid)).rules["big_blind"] == 20  # kept in the table's row
    await _audit(store)


async def test_item5_table_stakes_refusals(service: TableService) -> None:
    hold = await _table(service, "holdem", 832)
    with pytest.raises(NotAllowed):
        await service.set_stakes(hold, BOB, {"big_blind": 20}, may_manage=False)
    with pytest.raises(InvalidConfig, match="small_blind"):
        await service.set_stakes(hold, ALICE, {"small_blind": 50}, may_manage=False)
    razz = await _table(service, "razz", 833, players=(DAVE,))
    with pytest.raises(InvalidConfig, match="no such stake"):
        await service.set_stakes(razz, DAVE, {"big_blind": 20}, may_manage=False)
    view = await service.set_stakes(razz, DAVE, {"small_bet": 20, "big_bet": 40}, may_manage=False)
    assert dict(view.next_stakes) == {"small_bet": 20, "big_bet": 40}
    horse = await _table(service, "horse", 834, players=(ERIN,))
    with pytest.raises(InvalidConfig, match="small_bet and ante"):
        await service.set_stakes(horse, ERIN, {"big_blind": 20}, may_manage=False)
    view = await service.set_stakes(horse, ERIN, {"small_bet": 20}, may_manage=False)
    assert dict(view.next_stakes) == {"small_bet": 20}


async def test_item5_the_host_seats_a_late_player(service: TableService, clock: Clock) -> None:
    tid = await _table(service, "holdem", 835)
    await service.start(tid, ALICE)
    with pytest.raises(NotAllowed):
        await service.seat_member(tid, BOB, DAVE, "Dave", may_manage=False)
    view = await service.seat_member(tid, ALICE, DAVE, "Dave", may_manage=False)
    assert view.seat_of(DAVE) is not None and view.seat_of(DAVE).blind == "wait"


# ----------------------------------------------------------------------------- turn keys


async def test_item3_a_turn_after_someone_else_acted_is_keyed_once(
    service: TableService, recorder: Recorder
) -> None:
    tid = await _table(service, "holdem", 841, players=(ALICE, BOB))
    view = await service.start(tid, ALICE)
    assert not any(p.pings for p in recorder.published)  # the deal: nobody acted
    first = await _actor(service, tid)
    other = BOB if first == ALICE else ALICE
    recorder.published.clear()
    await service.act(tid, first, "call")
    (pub,) = recorder.published
    ((uid, key),) = pub.pings
    view = await service.view(tid)
    assert uid == other and (other, key) in view.turn_keys and key == view.version
    # anything else that happens during that turn keeps its key and pings nobody
    recorder.published.clear()
    await service.choose_in_advance(tid, first, "check_fold", hand=view.hand_number)
    assert not recorder.published[-1].pings
    assert (other, key) in (await service.view(tid)).turn_keys
