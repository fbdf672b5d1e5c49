"""TableService over the real engines and a real SQLite store (RULES §1, §4, §5)."""

from __future__ import annotations

import asyncio
import contextlib
import random
from pathlib import Path

import pytest

from bot.engine.errors import IllegalAction, InvalidCard, InvalidConfig, NotYourTurn
from bot.store import Store, TableExists
from bot.tables import AlreadySeated, NotAllowed, NotSeated, StaleAction, TableClosed, TableService

from .conftest import ALICE, BOB, CAROL, GUILD, Clock, Recorder, VirtualClock, seeded, wait_for


async def _zoot(service: TableService, channel: int = 500, **options: object) -> int:
    view = await service.open_table(
        guild_id=GUILD,
        channel_id=channel,
        host_id=ALICE,
        host_name="Alice",
        game="zoot",
        options=options,
    )
    await service.join(view.table_id, BOB, "Bob")
    return view.table_id


async def _razz(service: TableService, channel: int = 600, **options: object) -> int:
    view = await service.open_table(
        guild_id=GUILD,
        channel_id=channel,
        host_id=ALICE,
        host_name="Alice",
        game="razz",
        options=options or None,
    )
    await service.join(view.table_id, BOB, "Bob")
    await service.join(view.table_id, CAROL, "Carol")
    return view.table_id


async def _circulation(store: Store) -> tuple[int, int, int]:
    report = await store.audit(GUILD)
    assert report.ok, report.format()
    (f,) = report.leagues
    return f.in_circulation, f.players, f.pots


async def test_first_sit_down_grants_starting_chips_and_host_is_seated(service, store) -> None:
    tid = await _zoot(service)
    view = await service.view(tid)
    assert [s.user_id for s in view.seats] == [ALICE, BOB]
    assert [s.stack for s in view.seats] == [1000, 1000]
    assert view.status == "open" and view.phase == "waiting for players"
    assert await _circulation(store) == (2000, 2000, 0)


async def test_open_table_refuses_bad_house_rule_and_second_table_in_channel(service) -> None:
    with pytest.raises(InvalidConfig) as err:
        await service.open_table(
            guild_id=GUILD,
            channel_id=1,
            host_id=ALICE,
            host_name="A",
            game="zoot",
            options={"ante": 0},
        )
    assert err.value.field == "ante"
    await _zoot(service, channel=2)
    with pytest.raises(TableExists):
        await service.open_table(
            guild_id=GUILD, channel_id=2, host_id=CAROL, host_name="C", game="razz"
        )


async def test_rule_1_2_start_antes_every_player_by_the_ledger(service, store) -> None:
    tid = await _zoot(service, ante=10)
    view = await service.start(tid, BOB)
    assert view.status == "running" and view.pot == 20 and view.hand_number == 1
    assert view.to_act_user_ids == {ALICE, BOB}
    assert await _circulation(store) == (2000, 1980, 20)
    async with store.read() as tx:
        antes = await tx.entries(table_id=tid, kind="ante")
    assert sorted(e.amount for e in antes) == [10, 10]


async def test_act_errors_change_nothing(service, store) -> None:
    tid = await _zoot(service)
    await service.start(tid, ALICE)
    before = await service.view(tid)
    with pytest.raises(NotSeated):
        await service.act(tid, CAROL, "play_on")
    with pytest.raises(StaleAction):
        await service.act(tid, ALICE, "play_on", version=before.version - 1)
    with pytest.raises(IllegalAction):
        await service.act(tid, ALICE, "discard", card="As")
    with pytest.raises(InvalidCard):
        await service.act(tid, ALICE, "discard", card="Zz")
    with pytest.raises(IllegalAction):
        await service.act(tid, ALICE, "shove")
    with pytest.raises(TableClosed):
        await service.act(9999, ALICE, "play_on")
    after = await service.view(tid)
    assert after.version == before.version and after.to_act_user_ids == {ALICE, BOB}


async def test_same_action_twice_at_once_is_applied_once(service, store) -> None:
    tid = await _razz(service)
    await service.start(tid, ALICE)
    view = await service.view(tid)
    (actor,) = view.to_act_user_ids
    results = await asyncio.gather(
        service.act(tid, actor, "bring_in", version=view.version),
        service.act(tid, actor, "bring_in", version=view.version),
        return_exceptions=True,
    )
    errors = [r for r in results if isinstance(r, Exception)]
    assert len(errors) == 1 and isinstance(errors[0], StaleAction | NotYourTurn)
    async with store.read() as tx:
        assert len(await tx.entries(table_id=tid, kind="bring_in")) == 1
    # without a version the second click is refused by the turn check
    view = await service.view(tid)
    (actor,) = view.to_act_user_ids
    results = await asyncio.gather(
        service.act(tid, actor, "call"), service.act(tid, actor, "call"), return_exceptions=True
    )
    assert sum(isinstance(r, NotYourTurn) for r in results) == 1


async def test_two_grants_to_one_wallet_at_once_both_land(service, store) -> None:
    await _zoot(service)

    async def grant(n: int) -> None:
        async with store.transaction() as tx:
            await tx.grant(GUILD, ALICE, n, actor_id=1, reason="test")

    await asyncio.gather(grant(5), grant(7))
    async with store.read() as tx:
        assert (await tx.wallet(GUILD, ALICE)).balance == 1012


async def test_twenty_tables_acting_at_once_conserve_chips(store, clock) -> None:
    svc = TableService(store, clock=clock, rng_factory=seeded(3), timers=False, autostart_delay=0)
    await svc.start_service()
    tids = []
    for i in range(20):
        v = await svc.open_table(
            guild_id=GUILD,
            channel_id=1000 + i,
            host_id=-1,
            host_name="C1",
            game="razz",
            computers=0,
            seat_host=False,
        )
        for k in (1, 2):
            await svc.join(v.table_id, -(100 * i + k), f"C{k}", computer=True)
        await svc.start(v.table_id, -(100 * i + 1))
        tids.append(v.table_id)

    async def worker(tid: int) -> None:
        for _ in range(60):
            if not await svc.hand_in_progress(tid):
                return
            moves = svc.computer_moves(tid)
            if moves:
                uid, action = moves[0]
                # the other task may have got there first
                with contextlib.suppress(NotYourTurn, IllegalAction, StaleAction):
                    await svc.act(tid, uid, action.kind, amount=action.amount)

    await asyncio.gather(*(worker(t) for t in tids for _ in range(2)))
    for tid in tids:
        assert not await svc.hand_in_progress(tid)
    total, players, pots = await _circulation(store)
    assert total == 40 * 1000 and players + pots == total
    await svc.stop_service()


async def test_rule_1_11_timeout_plays_on_and_is_announced(service, store, clock, recorder) -> None:
    tid = await _zoot(service, decision_seconds=10)
    await service.start(tid, ALICE)
    await service.act(tid, ALICE, "play_on")
    view = await service.view(tid)
    assert view.deadline is not None
    assert not await service.tick(tid)  # not due yet
    clock.now = view.deadline + 1
    assert await service.tick(tid)
    assert any("Bob timed out" in a and "plays on" in a for a in recorder.announcements)
    view = await service.view(tid)
    assert view.phase.startswith("discard")  # nobody laid down: ante again, discard (§1.5)


async def test_restore_continues_the_same_hand_with_its_deadline(db_path: Path, clock) -> None:
    store = await Store.open(db_path, clock=clock)
    svc = TableService(store, clock=clock, rng_factory=seeded(11), timers=False)
    await svc.start_service()
    tid = await _razz(svc, time_bank=0)  # the default action at the deadline: no time bank
    await svc.start(tid, ALICE)
    view = await svc.view(tid)
    (actor,) = view.to_act_user_ids
    await svc.act(tid, actor, "bring_in")
    mid = await svc.view(tid)
    secret = {u: (await svc.private_view(tid, u)).cards for u in (ALICE, BOB, CAROL)}
    await svc.stop_service()
    await store.close()

    store = await Store.open(db_path, clock=clock)
    rec = Recorder()
    svc = TableService(store, clock=clock, subscriber=rec, timers=False)
    await svc.start_service()
    again = await svc.view(tid)
    assert again.version == mid.version and again.deadline == mid.deadline
    assert again.to_act_user_ids == mid.to_act_user_ids and again.pot == mid.pot
    assert {u: (await svc.private_view(tid, u)).cards for u in secret} == secret
    clock.now = mid.deadline + 1
    assert await svc.tick(tid)  # the stored deadline fires after the restart
    assert any("timed out" in a for a in rec.announcements)
    await svc.stop_service()
    await store.close()


async def test_restore_arms_asyncio_timer_from_stored_deadline(db_path: Path) -> None:
    clock = Clock()
    store = await Store.open(db_path, clock=clock)
    svc = TableService(store, clock=clock, rng_factory=seeded(5), timers=False)
    await svc.start_service()
    tid = await _zoot(svc)
    await svc.start(tid, ALICE)
    deadline = (await svc.view(tid)).deadline
    await svc.stop_service()
    # the bot was down past the deadline; its timers sleep on a clock the test moves
    vclock = VirtualClock(deadline + 5)
    rec = Recorder()
    svc = TableService(store, clock=vclock, subscriber=rec, timers=True, sleep=vclock.sleep)
    await svc.start_service()
    try:
        # nobody could act while it was down: the window opens again (issue 11), and its
        # asyncio timer fires the timeouts once the fresh deadline passes
        assert [a for a in rec.announcements if "fresh" in a], rec.announcements
        fresh = (await svc.view(tid)).deadline
        assert fresh is not None and fresh > vclock.now
        vclock.advance(fresh - 1 - vclock.now)
        for _ in range(20):
            await asyncio.sleep(0)  # turns of the loop: a timer due would run
        assert not any("timed out" in a for a in rec.announcements)
        assert vclock.sleeping == 1  # its timer, armed for the fresh deadline
        vclock.advance(2)
        await wait_for(
            lambda: sum("timed out" in a for a in rec.announcements) == 2, what="the timeouts"
        )
    finally:
        await svc.stop_service()
        await store.close()


async def test_void_hand_returns_every_chip(service, store) -> None:
    tid = await _razz(service)
    await service.start(tid, ALICE)
    for _ in range(4):
        (actor,) = (await service.view(tid)).to_act_user_ids
        opts = {o.kind for o in (await service.private_view(tid, actor)).options if o.allowed}
        kind = next(k for k in ("bring_in", "call", "check") if k in opts)
        await service.act(tid, actor, kind)
        if not await service.hand_in_progress(tid):
            break
    assert (await service.view(tid)).pot > 0
    with pytest.raises(NotAllowed):
        await service.void_hand(tid, BOB, may_manage=False)
    await service.void_hand(tid, BOB, may_manage=True)
    async with store.read() as tx:
        assert [(await tx.wallet(GUILD, u)).balance for u in (ALICE, BOB, CAROL)] == [1000] * 3
        (hand,) = await tx.hands(tid)
    assert hand.status == "voided"
    assert await _circulation(store) == (3000, 3000, 0)


async def test_rule_1_10_end_returns_carried_pot_by_the_ledger(service, store) -> None:
    tid = await _zoot(service, ante=10)
    for _ in range(30):
        if (await service.view(tid)).status != "running" or not await service.hand_in_progress(tid):
            await service.start(tid, ALICE) if (await service.view(tid)).status == "open" else (
                await service.tick(tid, force=True)
            )
        await service.act(tid, BOB, "play_on")
        await service.act(tid, ALICE, "lay_down")
        view = await service.view(tid)
        if view.pot > 0 and not await service.hand_in_progress(tid):
            break  # Alice challenged and lost: her match carries over (§1.7)
    else:
        pytest.fail("no carried pot in 30 games")
    async with store.read() as tx:
        contributions = {c.user_id: c.amount for c in await tx.pot_contributions(tid)}
        wallets = {u: (await tx.wallet(GUILD, u)).balance for u in (ALICE, BOB)}
    assert contributions == {ALICE: view.pot}
    with pytest.raises(NotAllowed):
        await service.end(tid, BOB, may_manage=False)
    await service.end(tid, ALICE, may_manage=False)
    async with store.read() as tx:
        after = {u: (await tx.wallet(GUILD, u)).balance for u in (ALICE, BOB)}
        refunds = await tx.entries(table_id=tid, kind="refund")
    assert after == {u: wallets[u] + contributions.get(u, 0) for u in wallets}
    assert [r.amount for r in refunds] == [view.pot]
    assert await _circulation(store) == (2000, 2000, 0)
    with pytest.raises(TableClosed):
        await service.view(tid)


async def test_end_mid_hand_voids_it_first(service, store) -> None:
    tid = await _razz(service)
    await service.start(tid, CAROL)
    await service.end(tid, CAROL, may_manage=True)
    assert await _circulation(store) == (3000, 3000, 0)


async def test_privacy_private_view_and_table_view_hold_no_foreign_hidden_cards(service) -> None:
    for make in (_zoot, _razz):
        tid = await make(service)
        await service.start(tid, ALICE)
        view = await service.view(tid)
        privs = {s.user_id: await service.private_view(tid, s.user_id) for s in view.seats}
        for uid, pv in privs.items():
            others = {c for u, p in privs.items() if u != uid for c in p.down_cards}
            assert not others & set(pv.cards)
        hidden = {c for pv in privs.values() for c in pv.down_cards}
        public = {c for s in view.seats for c in (*s.up_cards, *(s.shown or ()))}
        assert not hidden & public
        for p in [*service.subscriber.published]:
            for e in p.events:
                if e.kind in ("deal", "deal_down", "draw"):
                    assert e.visible_to is not None
        await service.end(tid, ALICE, may_manage=True)


async def test_one_league_table_at_a_time_per_player(service) -> None:
    await _zoot(service, channel=1)
    with pytest.raises(AlreadySeated):
        await _razz(service, channel=2)


async def test_leave_mid_game_plays_on_and_leaves_after(service, store) -> None:
    tid = await _zoot(service)
    await service.join(tid, CAROL, "Carol")
    await service.start(tid, ALICE)
    await service.leave(tid, CAROL)
    view = await service.view(tid)
    assert CAROL in {s.user_id for s in view.seats} and CAROL not in view.to_act_user_ids
    await service.act(tid, ALICE, "play_on")
    await service.act(tid, BOB, "play_on")
    # nobody laid down: discards; Carol's is made for her
    for uid in (ALICE, BOB):
        pv = await service.private_view(tid, uid)
        await service.act(tid, uid, "discard", card=str(pv.option("discard").suggested))
    assert CAROL not in (await service.view(tid)).to_act_user_ids
    assert (await _circulation(store))[0] == 3000


async def test_suggested_action_only_for_the_player_to_act_and_is_legal(service) -> None:
    tid = await _razz(service)
    assert service.suggested_action(tid, ALICE) is None  # no hand yet
    view = await service.start(tid, ALICE)
    (actor,) = view.to_act_user_ids
    others = [s.user_id for s in view.seats if s.user_id != actor]
    for uid in others:
        assert service.suggested_action(tid, uid) is None  # not their turn
    assert service.suggested_action(tid, 999_999) is None  # not seated
    hint = service.suggested_action(tid, actor, random.Random(3))
    assert hint is not None
    assert any(o.kind == hint.kind and o.allowed for o in view.public_actions)
    before = view.version
    await service.act(tid, actor, hint.kind, amount=hint.amount, version=before)
    assert (await service.view(tid)).version == before + 1
