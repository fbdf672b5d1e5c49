"""Found by trying to break the service (issue 11's spirit: the game goes on): at a Zoot or
Wheelers table, a player who sits a game out (cannot pay its ante, or away) and leaves
during it left the table at once, but the game's end still went through every seat the
game was set up with: it failed on the missing seat at every try, and the game could
never end."""

from __future__ import annotations

import pytest

from bot.store import Store
from bot.tables import TableService

from .conftest import ALICE, BOB, CAROL, GUILD, Recorder


@pytest.mark.parametrize("game", ["zoot", "wheelers"])
async def test_a_player_sitting_out_who_leaves_mid_game_does_not_block_its_end(
    service: TableService, store: Store, recorder: Recorder, game: str
) -> None:
    view = await service.open_table(
        guild_id=GUILD,
        channel_id=991,
        host_id=ALICE,
        host_name="Alice",
        game=game,
        options={"ante": 10},
    )
    tid = view.table_id
    await service.join(tid, BOB, "Bob")
    await service.join(tid, CAROL, "Carol")
    async with store.transaction() as tx:
        await tx.take(GUILD, CAROL, 995, actor_id=ALICE, reason="test: below the ante")
    started = await service.start(tid, ALICE)
    assert next(s for s in started.seats if s.user_id == CAROL).status == "sitting_out"
    left = await service.leave(tid, CAROL)  # not in the game: she leaves at once
    assert left.seat_of(CAROL) is None
    await service.act(tid, ALICE, "lay_down")
    await service.act(tid, BOB, "play_on")  # the window closes: the showdown ends the game
    ended = await service.view(tid)
    assert ended.result is not None and not ended.to_act_user_ids
    assert any(" wins " in r for p in recorder.published for r in p.results)
    assert await service.tick(tid, force=True)  # and the next game is dealt
    assert (await service.view(tid)).hand_number == 2
    assert (await store.audit(GUILD)).ok
