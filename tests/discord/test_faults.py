"""Discord misbehaving in the middle of a game (429s, 5xx, a gateway drop): the game
still finishes and the ledger stays whole."""

from __future__ import annotations

from tests.discord.conftest import World
from tests.discord.tablebot import eventually, hand_dm, table_bot
from tests.discord.test_guts_games import choose_all, discard_suggested, open_and_fill, window_open


async def test_rate_limits_server_errors_and_gateway_drop_mid_game_it_finishes(
    world: World,
) -> None:
    fake = world.fake
    async with table_bot(world) as bot:
        table = await open_and_fill(world, "zoot")
        await (await fake.click_label(world.alice, table, "Start")).response()
        await eventually(lambda: all(window_open(hand_dm(world, u)) for u in world.players))
        limited = fake.inject(r"^PATCH /channels/\d+/messages/\d+$", status=429, retry_after=0.05)
        broken = fake.inject(r"^PATCH /channels/\d+/messages/\d+$", status=502)
        await choose_all(world, {})
        await fake.drop_gateway()
        await fake.wait_gateway_ready()
        await discard_suggested(world)
        await eventually(lambda: all(window_open(hand_dm(world, u)) for u in world.players))
        await choose_all(world, {"alice": "Lay down"})
        await eventually(
            lambda: any(
                "Game 2" in m.embeds[0].get("description", "") for m in [table] if m.embeds
            ),
            what="the next game on the table message",
        )
        assert limited.hits >= 1 and broken.hits >= 1 and fake.resumes == 1
        assert (await bot.store.audit(world.guild.id)).ok
