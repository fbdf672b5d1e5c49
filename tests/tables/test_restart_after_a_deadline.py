"""Defect: a restart after the clock passed a deadline (issue 11, evening test).

If the bot was down when a decision window's deadline (or any action deadline) passed,
the restored timer fired at once on start-up: everyone to act timed out together, and a
guts round (or a Razz hand) where nobody acted paused the table. The rule now: on start-up,
an action deadline that passed while the bot was down gets a fresh window from the restart
(the game's full decision time), and the channel is told. The idle rules (timeouts, away,
the idle pause) count only what players let run out while the bot was up.
"""

from __future__ import annotations

import math
from collections.abc import AsyncIterator

import pytest

from bot.store import Store
from bot.tables import TableService

from .conftest import ALICE, BOB, CAROL, GUILD, Recorder, VirtualClock, seeded, wait_for

DECISION = 10
DOWN = 600.0
"""How long the bot was down (well past any deadline)."""


@pytest.fixture
def vclock() -> VirtualClock:
    return VirtualClock()


@pytest.fixture
async def vstore(db_path: object, vclock: VirtualClock) -> AsyncIterator[Store]:
    s = await Store.open(db_path, clock=vclock)  # type: ignore[arg-type]
    yield s
    await s.close()


def timed(vstore: Store, vclock: VirtualClock, recorder: Recorder, seed: int) -> TableService:
    """A service with real timers sleeping on the test's clock (no computer players)."""
    return TableService(
        vstore,
        clock=vclock,
        rng_factory=seeded(seed),
        subscriber=recorder,
        autostart_delay=3.0,
        sleep=vclock.sleep,
        computer_delay=3600.0,
    )


async def open_three(service: TableService, game: str) -> int:
    # no time bank: the window's end is the default action (the bank's restart: tests/tables/
    # test_pace.py)
    options: dict[str, object] = {"decision_seconds": DECISION, "time_bank": 0}
    if game != "razz":
        options["ante"] = 10
    view = await service.open_table(
        guild_id=GUILD,
        channel_id=901,
        host_id=ALICE,
        host_name="Alice",
        game=game,
        options=options,
    )
    await service.join(view.table_id, BOB, "Bob")
    await service.join(view.table_id, CAROL, "Carol")
    await service.start(view.table_id, ALICE)
    return view.table_id


@pytest.mark.parametrize("game", ["zoot", "wheelers", "razz"])
async def test_a_deadline_passed_while_the_bot_was_down_gets_a_fresh_window_not_a_pause(
    game: str, vstore: Store, vclock: VirtualClock
) -> None:
    before = Recorder()
    first = timed(vstore, vclock, before, seed=5)
    await first.start_service()
    tid = await open_three(first, game)
    down = await first.view(tid)
    assert down.status == "running" and down.deadline is not None and down.to_act_user_ids
    await first.stop_service()  # the process stops in the middle of the window

    vclock.advance(DOWN)  # the deadline passes while nobody can act
    after = Recorder()
    again = timed(vstore, vclock, after, seed=6)
    await again.start_service()
    try:
        # the restored table settles: its timer sleeps until a deadline (or it paused)
        await wait_for(
            lambda: vclock.sleeping or any(p.view.status == "paused" for p in after.published),
            what="the restored table's timer",
        )
        view = await again.view(tid)
        # nobody timed out, nothing paused: the same window, open again from the restart
        assert not any("timed out" in a for a in after.announcements), after.announcements
        assert view.status == "running" and view.phase == down.phase, view.phase
        assert view.hand_number == down.hand_number and view.pot == down.pot
        assert view.to_act_user_ids == down.to_act_user_ids
        assert view.deadline == math.ceil(vclock.now + DECISION)
        # the players are told, and their DMs (which show the deadline) are redrawn
        told = [a for a in after.announcements if "fresh" in a]
        assert len(told) == 1 and str(DECISION) in told[0], after.announcements
        assert view.to_act_user_ids <= set().union(*(p.private_changed for p in after.published))
        for uid in view.to_act_user_ids:
            assert (await again.private_view(tid, uid)).deadline == view.deadline
        # the fresh window's timer runs: when it passes with nobody acting, the timeouts
        # (and the idle rule) happen as they would have with the bot up
        await wait_for(lambda: vclock.sleeping, what="the fresh window's timer")
        vclock.advance(DECISION + 1.0)
        await wait_for(
            lambda: any("timed out" in a for a in after.announcements),
            what="the fresh window's timeout",
        )
    finally:
        await again.stop_service()


async def test_a_deadline_still_ahead_at_the_restart_is_kept(
    vstore: Store, vclock: VirtualClock
) -> None:
    """Only a deadline that passed while the bot was down is moved (nothing announced)."""
    first = timed(vstore, vclock, Recorder(), seed=5)
    await first.start_service()
    tid = await open_three(first, "zoot")
    down = await first.view(tid)
    await first.stop_service()
    vclock.advance(DECISION / 2)
    after = Recorder()
    again = timed(vstore, vclock, after, seed=6)
    await again.start_service()
    try:
        assert (await again.view(tid)).deadline == down.deadline
        assert after.published == []
    finally:
        await again.stop_service()


async def test_a_next_hand_due_while_the_bot_was_down_is_dealt_at_the_restart(
    vstore: Store, vclock: VirtualClock
) -> None:
    """The pause between hands is no decision window: the next hand is dealt on start-up."""
    first = timed(vstore, vclock, Recorder(), seed=5)
    await first.start_service()
    tid = await open_three(first, "razz")
    for _ in range(200):
        view = await first.view(tid)
        if view.hand_number > 1 or not view.to_act_user_ids:
            break
        (uid,) = view.to_act_user_ids
        kinds = [o.kind for o in view.public_actions if o.allowed]
        kind = next(k for k in ("bring_in", "check", "call", "fold") if k in kinds)
        await first.act(tid, uid, kind)
    between = await first.view(tid)  # the hand is over, the next one is due
    assert between.hand_number == 1 and not between.to_act_user_ids and between.deadline
    await first.stop_service()
    vclock.advance(DOWN)
    after = Recorder()
    again = timed(vstore, vclock, after, seed=6)
    await again.start_service()
    try:
        await wait_for(
            lambda: any(p.view.hand_number == 2 for p in after.published),
            what="the next hand dealt at the restart",
        )
        assert not any("fresh" in a for a in after.announcements)
    finally:
        await again.stop_service()


async def test_item21_a_dealers_pick_missed_while_the_bot_was_down_gets_a_fresh_window(
    vstore: Store, vclock: VirtualClock
) -> None:
    """Issue 19, item 21: the pause before a dealer's-choice hand is a decision window (the
    next dealer picks the game): one that ran out while the bot was down opens again for
    its full length, as a hand's windows do, instead of dealing the default game."""
    first = timed(vstore, vclock, Recorder(), seed=5)
    await first.start_service()
    view = await first.open_table(
        guild_id=GUILD,
        channel_id=902,
        host_id=ALICE,
        host_name="Alice",
        game="dealers-choice",
        options={"games": "razz wheelers", "choice_seconds": 45, "small_bet": 10},
    )
    tid = view.table_id
    await first.join(tid, BOB, "Bob")
    await first.join(tid, CAROL, "Carol")
    await first.start(tid, ALICE)
    for _ in range(200):
        view = await first.view(tid)
        if view.hand_number > 1 or not view.to_act_user_ids:
            break
        (uid,) = view.to_act_user_ids
        kinds = [o.kind for o in view.public_actions if o.allowed]
        kind = next(k for k in ("bring_in", "check", "call", "fold") if k in kinds)
        await first.act(tid, uid, kind)
    waiting = await first.view(tid)
    assert waiting.mixed is not None and waiting.mixed.chooser is not None
    assert waiting.hand_number == 1 and waiting.deadline is not None
    await first.stop_service()
    vclock.advance(DOWN)
    after = Recorder()
    again = timed(vstore, vclock, after, seed=6)
    await again.start_service()
    try:
        view = await again.view(tid)
        assert view.hand_number == 1 and view.mixed == waiting.mixed
        assert view.deadline == math.ceil(vclock.now + 45)
        told = [a for a in after.announcements if "fresh" in a]
        assert len(told) == 1 and "45-second window to pick" in told[0], after.announcements
        assert not any("did not pick" in a for a in after.announcements)
        chooser = next(s for s in view.seats if s.seat == view.mixed.chooser)
        assert chooser.name in told[0]
        # the window's timer runs: it ends in the default game if nobody picks
        await wait_for(lambda: vclock.sleeping, what="the fresh window's timer")
        vclock.advance(46)
        await wait_for(
            lambda: any(p.view.hand_number == 2 for p in after.published), what="the default"
        )
        assert (await again.view(tid)).game == "razz"
        assert (await vstore.audit(GUILD)).ok
    finally:
        await again.stop_service()
