"""League replies within Discord's limits (issue 11): ``/league show`` and ``/league
setup`` with 100 table channels, a leaderboard of 200 players (the list ends with "and N
more" or pages)."""

from __future__ import annotations

from bot.app import HomeGameBot
from bot.render.limits import CONTENT
from bot.store import Store
from tests.discord.test_length_limits import problems
from tests.league.conftest import World, unlock


async def test_league_show_and_setup_with_100_table_channels_fit_in_one_message(
    world: World,
    bot: HomeGameBot,
    store: Store,
) -> None:
    fake = world.fake
    for name in ("league",):
        unlock(world, name)
    async with store.transaction() as tx:
        await tx.league(world.guild.id)
        await tx.update_league(
            world.guild.id,
            allowed_channel_ids=[1_400_000_000_000_000_000 + i for i in range(100)],
        )
    show = await (
        await fake.invoke(world.alice, world.channel, "league", subcommand="show")
    ).response()
    assert len(show.content) <= CONTENT
    assert "Table channels: <#" in show.content and " more" in show.content
    table_line = next(x for x in show.content.splitlines() if x.startswith("Table channels"))
    n = table_line.count("<#")
    assert table_line.endswith(f" and {100 - n} more")
    setup = await (
        await fake.invoke(
            world.alice, world.channel, "league", {"images": False}, subcommand="setup"
        )
    ).response()
    assert "League settings updated" in setup.content and len(setup.content) <= CONTENT
    assert "Card images: off" in setup.content and " more" in setup.content


async def test_leaderboard_with_200_players_every_page_within_limits(
    world: World,
    bot: HomeGameBot,
    store: Store,
) -> None:
    async with store.transaction() as tx:
        for i in range(1, 201):
            await tx.grant(world.guild.id, 10**17 + i, i, actor_id=world.alice.id, reason="r")
    board = await (await world.fake.invoke(world.bob, world.channel, "leaderboard")).response()
    message = board.message
    assert message is not None and "page 1/" in board.content
    for _ in range(3):
        click = await world.fake.click(
            world.bob, message, str(message.button("Next ▶")["custom_id"])
        )
        await click.response()
    assert not problems(message)
