"""What the service tells the Discord layer after each action (only the DMs that really
changed), and timers at their exact time while the stored deadline stays in whole seconds."""

from __future__ import annotations

import asyncio

from bot.store import Store
from bot.tables import TableService

from .conftest import ALICE, BOB, CAROL, GUILD, Recorder, VirtualClock, seeded, wait_for

PLAIN = ("bring_in", "check", "call")


async def _table(service: TableService, game: str, channel: int) -> int:
    view = await service.open_table(
        guild_id=GUILD, channel_id=channel, host_id=ALICE, host_name="Alice", game=game
    )
    await service.join(view.table_id, BOB, "Bob")
    await service.join(view.table_id, CAROL, "Carol")
    await service.start(view.table_id, ALICE)
    return view.table_id


async def test_razz_action_edits_only_the_dms_whose_view_changed(
    service: TableService, recorder: Recorder
) -> None:
    """A Razz action passes the turn: the actor's and the next actor's DMs change (their
    options); the third player's cards and options do not, so their DM is left alone."""
    tid = await _table(service, "razz", 801)
    spared = 0
    for _ in range(12):
        view = await service.view(tid)
        if view.hand_number != 1 or not view.to_act_user_ids:
            break
        (actor,) = view.to_act_user_ids
        pv = await service.private_view(tid, actor)
        kind = next(o.kind for o in pv.options if o.allowed and o.kind in PLAIN)
        before = {u: await service.private_view(tid, u) for u in (ALICE, BOB, CAROL)}
        await service.act(tid, actor, kind)
        published = recorder.published[-1]
        after = {u: await service.private_view(tid, u) for u in (ALICE, BOB, CAROL)}
        assert actor in published.private_changed
        for uid in (ALICE, BOB, CAROL):
            same = (before[uid].cards, [o for o in before[uid].options if o.allowed]) == (
                after[uid].cards,
                [o for o in after[uid].options if o.allowed],
            )
            if uid != actor and same and published.results == ():
                assert uid not in published.private_changed
                spared += 1
            if not same:
                assert uid in published.private_changed
    assert spared > 0


async def test_guts_choice_edits_only_the_choosers_dm(
    service: TableService, recorder: Recorder
) -> None:
    """In a Zoot window everyone decides at once: one player's choice changes their own DM
    (their choice, their options), not the others' (same cards, same window)."""
    tid = await _table(service, "zoot", 802)
    pv = await service.private_view(tid, BOB)
    kind = next(o.kind for o in pv.options if o.allowed and o.kind in ("lay_down", "play_on"))
    await service.act(tid, BOB, kind)
    published = recorder.published[-1]
    if not published.results:  # the window stays open for the others
        assert published.private_changed == frozenset({BOB})


async def test_autostart_timer_fires_at_its_exact_time_not_the_next_whole_second(
    store: Store,
) -> None:
    """autostart_delay 0.05 s: the next hand starts about 0.05 s after the hand ends, not at
    the stored deadline rounded up to the whole second (up to 1 s later)."""
    clock = VirtualClock(1_800_000_000.1)  # just past a whole second; the test moves it
    service = TableService(
        store,
        clock=clock,
        sleep=clock.sleep,
        rng_factory=seeded(3),
        autostart_delay=0.05,
        computer_delay=30.0,
    )
    await service.start_service()
    try:
        tid = await _table(service, "razz", 803)
        for _ in range(12):
            view = await service.view(tid)
            if not view.to_act_user_ids or view.hand_number != 1:
                break
            (actor,) = view.to_act_user_ids
            pv = await service.private_view(tid, actor)
            allowed = {o.kind for o in pv.options if o.allowed}
            kind = "fold" if "fold" in allowed else next(k for k in PLAIN if k in allowed)
            await service.act(tid, actor, kind)
        ended = await service.view(tid)
        assert ended.hand_number == 1 and not ended.to_act_user_ids
        assert ended.deadline is not None and ended.deadline == int(ended.deadline)  # stored
        assert ended.deadline == 1_800_000_001  # 0.05 s from now, rounded up
        clock.advance(0.04)  # not yet
        for _ in range(20):
            await asyncio.sleep(0)  # the timer's task runs, if it were due
        assert (await service.view(tid)).hand_number == 1
        clock.advance(0.02)  # past the exact time, 0.94 s before the stored whole second

        async def dealt() -> bool:
            return (await service.view(tid)).hand_number == 2

        await wait_for(dealt, what="the next hand, at its exact time")
        assert clock.now < ended.deadline  # the whole second had not come
    finally:
        await service.stop_service()
