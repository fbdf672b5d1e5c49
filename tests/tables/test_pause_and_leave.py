"""Issue 19, item 19 at the service: a paused table shows no countdown, whatever a Leave
does to the hand meanwhile (a Leave or a kick that ends the hand: through the fake Discord,
tests/discord/test_pause_survives_a_leave.py)."""

from __future__ import annotations

from bot.store import Store
from bot.tables import TableService

from .conftest import ALICE, BOB, CAROL, GUILD


async def _razz_for_three(service: TableService) -> int:
    view = await service.open_table(
        guild_id=GUILD, channel_id=993, host_id=ALICE, host_name="Alice", game="razz"
    )
    await service.join(view.table_id, BOB, "Bob")
    await service.join(view.table_id, CAROL, "Carol")
    await service.start(view.table_id, ALICE)
    return view.table_id


async def test_item19_a_leave_that_does_not_end_the_hand_while_paused_sets_no_countdown(
    service: TableService, store: Store
) -> None:
    tid = await _razz_for_three(service)
    view = await service.view(tid)
    (actor,) = view.to_act_user_ids
    await service.pause(tid, ALICE)
    waiting = next(s.user_id for s in view.seats if s.user_id != actor)
    left = await service.leave(tid, waiting)  # not their turn: they leave after the hand
    assert left.status == "paused" and left.deadline is None
    assert not await service.tick(tid, force=True)
    resumed = await service.resume(tid, ALICE)
    assert resumed.status == "running" and resumed.deadline is not None
    assert (await store.audit(GUILD)).ok
