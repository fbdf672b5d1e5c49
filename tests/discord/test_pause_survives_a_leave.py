"""Issue 19, item 19: ``/table pause`` was undone when a Leave or a kick ended the hand: the
next hand was dealt and the blinds posted while the table was paused. A paused table deals
nothing until it is resumed; the hand the Leave ends is paid as any other. Balances match
the ledger after each step."""

from __future__ import annotations

from bot.app import HomeGameBot
from bot.testing import FakeMessage, FakeUser
from tests.discord.conftest import World
from tests.discord.tablebot import assert_all_acknowledged, cog, eventually, footer_state, table_bot
from tests.discord.test_flop_games import open_table, wallets_match_the_table
from tests.discord.test_mixed_tables import service


async def heads_up_paused(
    world: World, bot: HomeGameBot, table: FakeMessage, players: list[FakeUser]
) -> tuple[int, FakeUser, FakeUser, FakeUser]:
    """Hold'em for three; the first to act folds, leaving two in the hand; Alice (Manage
    Server) pauses. (table id, the player to act when it paused, the other one in the
    hand, the folder)."""
    fake = world.fake
    by_id = {u.id: u for u in fake.users.values()}
    await (await fake.click_label(players[0], table, "Start")).response()
    view = await service(bot).table_in_channel(world.channel.id)
    assert view is not None
    tid = view.table_id
    (first_id,) = view.to_act_user_ids
    await eventually(lambda: footer_state(table) == view.version, what="table")
    assert (
        await (await fake.click_label(by_id[first_id], table, "Fold")).response()
    ).updated_message
    view = await service(bot).view(tid)
    (to_act,) = view.to_act_user_ids
    other = next(s.user_id for s in view.seats if s.user_id not in (first_id, to_act))
    paused = await (
        await fake.invoke(world.alice, world.channel, "table", subcommand="pause")
    ).response()
    assert not paused.ephemeral and "paused" in paused.content, paused.content
    assert (await service(bot).view(tid)).status == "paused"
    return tid, by_id[to_act], by_id[other], by_id[first_id]


async def deals_nothing_until_resumed(
    world: World, bot: HomeGameBot, tid: int, leaver: FakeUser, staying: list[FakeUser]
) -> None:
    fake = world.fake
    svc = service(bot)
    after = await svc.view(tid)
    # the Leave folded the hand to the other player: hand 1 is over and paid ...
    async with bot.store.read() as tx:
        hands = await tx.hands(tid)
    assert [h.status for h in hands] == ["finished"], [h.status for h in hands]
    # ... and the table is still paused: no hand 2, no blinds, no timer
    assert after.status == "paused" and after.hand_number == 1, after
    assert after.deadline is None and after.pot == 0
    assert leaver.id not in {s.user_id for s in after.seats}
    assert not await svc.tick(tid, force=True)  # the timer would find nothing to deal
    await cog(bot).updates.idle()
    assert (await svc.view(tid)).hand_number == 1
    await wallets_match_the_table(bot, world, tid)
    # the leaver's hand DM says so and keeps no controls (it logged an error before)
    (dm,) = fake.dms(leaver)
    assert dm.content == f"You left table #{tid}." and not dm.buttons() and not dm.selects()
    assert any(
        "the next hand waits for a resume" in m.content
        for m in fake.channel_messages(world.channel)
    )
    # resumed: now the next hand is dealt, with the players still there
    resumed = await (
        await fake.invoke(staying[0], world.channel, "table", subcommand="resume")
    ).response()
    assert not resumed.ephemeral, resumed.content

    async def dealt() -> bool:
        return (await svc.view(tid)).hand_number == 2

    await eventually(dealt, what="hand 2 dealt after the resume")
    view = await svc.view(tid)
    assert view.status == "running" and {s.user_id for s in view.seats} == {u.id for u in staying}
    await wallets_match_the_table(bot, world, tid)


async def test_item19_a_leave_that_ends_the_hand_while_paused_deals_nothing_until_resumed(
    world: World,
) -> None:
    fake = world.fake
    players = [world.alice, world.bob, world.carol]
    async with table_bot(world, autostart_delay=0.05) as bot:
        table = await open_table(world, "holdem", {}, players)
        tid, leaver, winner, folder = await heads_up_paused(world, bot, table, players)
        before = await service(bot).view(tid)
        await (await fake.click_label(leaver, table, "Leave")).response()
        await cog(bot).updates.idle()
        assert (await service(bot).view(tid)).version > before.version
        await deals_nothing_until_resumed(world, bot, tid, leaver, [winner, folder])
    assert_all_acknowledged(world)


async def test_item19_a_kick_that_ends_the_hand_while_paused_deals_nothing_until_resumed(
    world: World,
) -> None:
    fake = world.fake
    players = [world.bob, world.carol, world.dave]  # Alice manages the server, not seated
    async with table_bot(world, autostart_delay=0.05) as bot:
        table = await open_table(world, "holdem", {}, players)
        tid, kicked, winner, folder = await heads_up_paused(world, bot, table, players)
        # Alice removes the player whose turn it is: they fold, and that ends the hand
        done = await (
            await fake.invoke(
                world.alice, world.channel, "table", {"user": kicked}, subcommand="kick"
            )
        ).response()
        assert not done.ephemeral and "is removed from table" in done.content, done.content
        await deals_nothing_until_resumed(world, bot, tid, kicked, [winner, folder])
    assert_all_acknowledged(world)
