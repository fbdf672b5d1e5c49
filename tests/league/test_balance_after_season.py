"""Issue 19, item 5: after ``/league season end``, ``/balance user:`` of someone who played the
whole last season says what they have now (nothing yet this season: their first seat brings
the starting chips) and what they had (their final standing), not "has not played yet"."""

from __future__ import annotations

from bot.app import HomeGameBot
from bot.store import Store
from tests.league.conftest import World


async def test_issue19_item5_balance_after_season_end_says_what_they_have_and_had(
    world: World, bot: HomeGameBot, store: Store
) -> None:
    guild = world.guild.id
    async with store.transaction() as tx:
        await tx.take(guild, world.bob.id, 250, actor_id=world.alice.id, reason="lost at cards")
        await tx.grant(guild, world.carol.id, 500, actor_id=world.alice.id, reason="won at cards")
        await tx.wallet(guild, world.dave.id)
    ended = await (
        await world.fake.invoke(world.alice, world.channel, "league", subcommand="season end")
    ).response()
    assert "Season 1 is over" in ended.content

    reply = await (
        await world.fake.invoke(world.alice, world.channel, "balance", {"user": world.bob})
    ).response()
    text = reply.content
    assert reply.ephemeral and "has not played yet" not in text
    assert f"<@{world.bob.id}> has no chips in season 2 yet" in text
    assert "first seat brings 1,000 chips" in text
    assert "Season 1 ended with them at **750** chips (3rd of 3)" in text

    own = await (await world.fake.invoke(world.carol, world.channel, "balance")).response()
    assert "Season 1 ended with them at **1,500** chips (1st of 3)" in own.content

    # a member who never played any season: as before
    never = await (
        await world.fake.invoke(world.alice, world.channel, "balance", {"user": world.outsider})
    ).response()
    assert "has not played yet: the first seat at a table brings 1,000 chips" in never.content

    # once they sit down again (a wallet this season): what they have, and what they had
    async with store.transaction() as tx:
        await tx.wallet(guild, world.bob.id)
    again = await (
        await world.fake.invoke(world.alice, world.channel, "balance", {"user": world.bob})
    ).response()
    assert f"<@{world.bob.id}> has **1,000** chips in season 2." in again.content
    assert "Season 1 ended with them at **750** chips" in again.content
