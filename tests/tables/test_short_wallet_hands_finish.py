"""Defect: a wallet smaller than the game expects made a hand unfinishable (issue 11,
item 2). ``/chips take`` on a seated player mid-hand (or any wallet change the game did not
see) made the owed ante or match fail with an overdraft on every tick, also after a
restart.

The rule (TableService.take_chips and TableService._settle_short_wallet): ``/chips take``
refuses to take a player's wallet below their chips in play in the hand being played
(naming the table and the most that can be taken now); and should a wallet still be short
when the hand asks it to pay, the hand is voided (every chip back by the ledger) and the
table goes on with the next hand.
"""

from __future__ import annotations

import pytest

from bot.store import Store
from bot.tables import TableService
from bot.tables.errors import ChipsInPlay, UnpayableHand

from .conftest import ALICE, BOB, CAROL, GUILD, Clock, Recorder, seeded


async def zoot_after_first_ante(service: TableService, channel: int = 971) -> int:
    view = await service.open_table(
        guild_id=GUILD,
        channel_id=channel,
        host_id=ALICE,
        host_name="Alice",
        game="zoot",
        options={"ante": 10},
    )
    await service.join(view.table_id, BOB, "Bob")
    await service.join(view.table_id, CAROL, "Carol")
    await service.start(view.table_id, ALICE)
    return view.table_id


async def balance(store: Store, user_id: int) -> int:
    async with store.read() as tx:
        return (await tx.wallet(GUILD, user_id)).balance


async def take_behind_the_games_back(store: Store, user_id: int, amount: int) -> None:
    """A wallet change the game does not see (the store directly, not /chips take)."""
    async with store.transaction() as tx:
        await tx.take(GUILD, user_id, amount, actor_id=ALICE, reason="test")


async def test_chips_take_refuses_below_the_chips_in_play_and_names_the_table(
    service: TableService, store: Store
) -> None:
    tid = await zoot_after_first_ante(service)
    assert await balance(store, CAROL) == 990
    with pytest.raises(ChipsInPlay) as refused:
        await service.take_chips(GUILD, CAROL, 1, actor_id=ALICE, reason="cheating")
    text = refused.value.message
    assert f"table #{tid}" in text and "<#971>" in text and "at most 0 chips" in text
    assert await balance(store, CAROL) == 990  # nothing changed
    # a grant during the hand is not in play: that much can be taken
    async with store.transaction() as tx:
        await tx.grant(GUILD, CAROL, 50, actor_id=ALICE, reason="bonus")
    with pytest.raises(ChipsInPlay, match="at most 50 chips"):
        await service.take_chips(GUILD, CAROL, 51, actor_id=ALICE, reason="too much")
    entry, left = await service.take_chips(GUILD, CAROL, 50, actor_id=ALICE, reason="undo")
    assert entry.amount == 50 and left == 990
    # a member at no table, or between hands: any amount the wallet holds
    async with store.transaction() as tx:
        await tx.wallet(GUILD, 99)
    _, left = await service.take_chips(GUILD, 99, 1000, actor_id=ALICE, reason="all")
    assert left == 0
    await service.void_hand(tid, ALICE, may_manage=True)
    _, left = await service.take_chips(GUILD, CAROL, 995, actor_id=ALICE, reason="between")
    assert left == 5
    assert await service.tick(tid, force=True)  # the next game: Carol cannot ante, sits out
    view = await service.view(tid)
    assert view.hand_number == 2
    assert next(s for s in view.seats if s.user_id == CAROL).status == "sitting_out"
    assert (await store.audit(GUILD)).ok


async def test_an_exchange_ante_a_short_wallet_cannot_pay_voids_the_hand_and_play_goes_on(
    service: TableService, store: Store, recorder: Recorder
) -> None:
    tid = await zoot_after_first_ante(service)
    await service.act(tid, ALICE, "play_on")
    await service.act(tid, BOB, "play_on")
    await take_behind_the_games_back(store, CAROL, 985)  # 5 left; the game thinks 990
    # Carol's window runs out: nobody laid down, everyone antes again: she cannot
    assert await service.tick(tid, force=True)
    assert any("Carol's wallet holds 5 chips" in a for a in recorder.announcements)
    view = await service.view(tid)
    assert view.hand_number == 1 and view.status == "running" and view.deadline is not None
    assert [await balance(store, u) for u in (ALICE, BOB, CAROL)] == [1000, 1000, 15]
    assert await service.tick(tid, force=True)  # the next game is dealt: no loop
    assert (await service.view(tid)).hand_number == 2
    assert (await store.audit(GUILD)).ok


async def test_a_short_wallet_found_after_a_restart_voids_the_hand_instead_of_looping(
    store: Store, clock: Clock, recorder: Recorder
) -> None:
    def make() -> TableService:
        return TableService(
            store, clock=clock, rng_factory=seeded(5), subscriber=recorder, timers=False
        )

    first = make()
    await first.start_service()
    tid = await zoot_after_first_ante(first)
    await first.act(tid, ALICE, "play_on")
    await first.act(tid, BOB, "play_on")
    await first.stop_service()
    await take_behind_the_games_back(store, CAROL, 985)
    second = make()
    await second.start_service()
    try:
        for _ in range(3):  # tick after tick: the game goes on
            assert await second.tick(tid, force=True)
        assert (await second.view(tid)).hand_number == 2
        assert any("voided" in a for a in recorder.announcements)
    finally:
        await second.stop_service()
    assert (await store.audit(GUILD)).ok


async def test_a_players_action_a_short_wallet_cannot_pay_says_why_and_voids_the_hand(
    service: TableService, store: Store
) -> None:
    view = await service.open_table(
        guild_id=GUILD, channel_id=972, host_id=ALICE, host_name="Alice", game="razz"
    )
    tid = view.table_id
    await service.join(tid, BOB, "Bob")
    await service.start(tid, ALICE)
    table = await service.view(tid)
    (actor,) = table.to_act_user_ids
    await take_behind_the_games_back(store, actor, await balance(store, actor))  # all of it
    with pytest.raises(UnpayableHand, match="wallet holds 0 chips"):
        await service.act(tid, actor, "bring_in")
    after = await service.view(tid)
    assert after.hand_number == 1 and not after.to_act_user_ids  # voided, next one pending
    assert (await store.audit(GUILD)).ok
