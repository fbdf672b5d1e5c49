"""Issue 19 item 4, "Settling erases the season": a settle-up is a payment, not an undo.
After ``/night end`` the wallets are back where the night began (the settle rows), but the
season's results (the chips won at the tables), the leaderboard's ranks, ``/stats`` and the
balance chart keep what was played. And item 20: a night (or the season) is not settled
while a hand of it is in play, even one whose pot is still empty (a bring-in to come)."""

from __future__ import annotations

import pytest

from bot.league.ranking import rank
from bot.store import NightError, Store
from tests.store.conftest import ALICE, BOB, CAROL, GUILD, Clock
from tests.store.test_nights import CHANNEL, DAVE, balances, play_hand


async def test_settling_erases_the_season_no_more_nets_and_ranks_survive_the_settle_up(
    store: Store, clock: Clock
) -> None:
    async with store.transaction() as tx:
        await tx.start_night(GUILD, host_id=ALICE, channel_id=CHANNEL)
    clock.now += 60
    await play_hand(store, {ALICE: 30, BOB: 30, CAROL: 30, DAVE: 30}, ALICE)  # A +90
    await play_hand(store, {BOB: 50, CAROL: 50}, CAROL)  # B -50, C +50
    clock.now += 60
    async with store.transaction() as tx:
        await tx.end_night(GUILD, actor_id=ALICE)
    # the wallets are back where the night began (as before the fix)
    assert await balances(store, ALICE, BOB, CAROL, DAVE) == dict.fromkeys(
        (ALICE, BOB, CAROL, DAVE), 1000
    )
    async with store.read() as tx:
        season = await tx.current_season(GUILD)
        summaries = await tx.player_summaries(GUILD, season=season)
    nets = {s.user_id: s.net for s in summaries}
    assert nets == {ALICE: 90, BOB: -80, CAROL: 20, DAVE: -30}
    ranked = rank(summaries)
    assert [(r.rank, r.user_id) for r in ranked] == [(1, ALICE), (2, CAROL), (3, DAVE), (4, BOB)]
    settled = {s.user_id: s.settled for s in summaries}
    # what the settle-up moved is said apart: the opposite of each net
    assert settled == {u: -n for u, n in nets.items()}
    assert (await store.audit(GUILD)).ok


async def test_the_balance_chart_as_played_leaves_the_settle_up_payments_out(
    store: Store, clock: Clock
) -> None:
    async with store.transaction() as tx:
        await tx.start_night(GUILD, host_id=ALICE)
    clock.now += 60
    await play_hand(store, {ALICE: 40, BOB: 40}, ALICE)
    clock.now += 60
    async with store.transaction() as tx:
        await tx.end_night(GUILD, actor_id=ALICE)
        wallet = await tx.find_wallet(GUILD, ALICE)
        assert wallet is not None
        everything = await tx.balance_points(wallet.id)
        played = await tx.balance_points(wallet.id, payments=False)
    assert everything[-1][1] == 1000  # the wallet after the settle-up
    assert played[-1][1] == 1040  # what the tables left her with
    assert len(everything) == len(played) + 1


async def test_night_end_during_a_bring_in_with_an_empty_pot_is_refused_naming_the_table(
    store: Store,
) -> None:
    async with store.transaction() as tx:
        await tx.start_night(GUILD, host_id=ALICE)
    await play_hand(store, {ALICE: 10, BOB: 10}, BOB)
    async with store.transaction() as tx:
        table = await tx.table_in_channel(CHANNEL)
        assert table is not None
        # a Razz hand at ante 0: dealt, waiting for its bring-in, not a chip in the pot
        await tx.start_hand(table.id)
    before = await balances(store, ALICE, BOB)
    async with store.transaction() as tx:
        with pytest.raises(NightError, match=rf"table #{table.id} \(<#{CHANNEL}>\)") as err:
            await tx.end_night(GUILD, actor_id=ALICE)
    assert "Nothing was changed" in err.value.message
    async with store.read() as tx:
        assert await tx.open_night(GUILD) is not None
        assert await tx.entries(guild_id=GUILD, kind="settle") == []
    assert await balances(store, ALICE, BOB) == before
    assert (await store.audit(GUILD)).ok


async def test_settle_record_season_during_a_bring_in_is_refused(store: Store) -> None:
    await play_hand(store, {ALICE: 10, BOB: 10}, BOB)
    async with store.transaction() as tx:
        table = await tx.table_in_channel(CHANNEL)
        assert table is not None
        await tx.start_hand(table.id)
    async with store.transaction() as tx:
        with pytest.raises(NightError, match="still being played"):
            await tx.settle_season(GUILD, actor_id=ALICE)
    async with store.read() as tx:
        assert await tx.entries(guild_id=GUILD, kind="settle") == []
