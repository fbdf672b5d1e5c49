"""Defect: ``/league void`` brought back players who were leaving or kicked (issue 11,
item 4): they stayed seated and anted into the next hand. After a void they are gone, with
every chip of the voided hand back in their wallets."""

from __future__ import annotations

import pytest

from bot.store import Store
from bot.tables import TableService

from .conftest import ALICE, BOB, CAROL, GUILD, Recorder

DAVE = 24


@pytest.mark.parametrize("game", ["zoot", "razz"])
async def test_void_removes_players_who_were_leaving_or_kicked(
    service: TableService, store: Store, recorder: Recorder, game: str
) -> None:
    view = await service.open_table(
        guild_id=GUILD, channel_id=951, host_id=ALICE, host_name="Alice", game=game
    )
    tid = view.table_id
    for uid, name in ((BOB, "Bob"), (CAROL, "Carol"), (DAVE, "Dave")):
        await service.join(tid, uid, name)
    await service.start(tid, ALICE)
    left = await service.leave(tid, CAROL)  # in the hand: leaves after it
    assert left.seat_of(CAROL) is not None
    kicked = await service.kick(tid, ALICE, DAVE, may_manage=False)
    assert kicked.seat_of(DAVE) is not None
    voided = await service.void_hand(tid, ALICE, may_manage=True)
    assert voided.seat_of(CAROL) is None and voided.seat_of(DAVE) is None
    assert any("Carol left the table" in a for a in recorder.announcements)
    assert any("Dave left the table" in a for a in recorder.announcements)
    async with store.read() as tx:
        assert {s.user_id for s in await tx.seats(tid)} == {ALICE, BOB}
        for uid in (ALICE, BOB, CAROL, DAVE):
            assert (await tx.wallet(GUILD, uid)).balance == 1000  # the void gave all back
    assert await service.tick(tid, force=True)  # the next hand: only Alice and Bob ante
    nxt = await service.view(tid)
    assert nxt.hand_number == 2
    assert {s.user_id for s in nxt.seats} == {ALICE, BOB}
    async with store.read() as tx:
        for uid in (CAROL, DAVE):
            assert (await tx.wallet(GUILD, uid)).balance == 1000
    assert (await store.audit(GUILD)).ok
