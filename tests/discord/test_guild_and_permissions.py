"""Issue 11: a click acts only on a table of the server it came from (the guild is checked,
not only the custom_id); before opening a table the bot checks its own permissions in the
channel (``interaction.app_permissions``) and names what is missing and where to grant it."""

from __future__ import annotations

import dataclasses

import pytest

from bot.testing.fake_model import (
    ATTACH_FILES,
    EMBED_LINKS,
    READ_MESSAGE_HISTORY,
    SEND_MESSAGES,
)
from tests.discord.conftest import World
from tests.discord.tablebot import field, table_bot


async def test_a_click_for_a_table_of_another_server_is_refused_and_changes_nothing(
    world: World,
) -> None:
    fake = world.fake
    other = fake.add_guild("Elsewhere")
    there = fake.add_channel(other, "cards")
    for user in (world.bob, world.carol):
        fake.add_member(other, user)
    async with table_bot(world, autostart_delay=60) as bot:
        home = (await (await fake.invoke(world.alice, world.channel, "zoot")).response()).message
        away = (await (await fake.invoke(world.bob, there, "zoot")).response()).message
        assert home is not None and away is not None
        assert bot.service is not None
        view = await bot.service.table_in_channel(world.channel.id)
        assert view is not None
        before = (view.version, [s.user_id for s in view.seats])
        # A message in the other server carries the home table's buttons (copied by
        # another app or a webhook: a custom_id is only text); Carol presses its Join there.
        join = str(home.button("Join")["custom_id"])
        away.versions.append(dataclasses.replace(away.latest, components=home.latest.components))
        record = await fake.click(world.carol, away, join)
        reply = await record.response()
        assert reply.ephemeral and "another server" in reply.content
        after = await bot.service.view(view.table_id)
        assert (after.version, [s.user_id for s in after.seats]) == before
        assert world.carol.name not in (field(home, "Seats") or "")
        # the same click from the home server works
        ok = await (await fake.click(world.carol, home, join)).response()
        assert ok.updated_message and world.carol.name in (field(home, "Seats") or "")


@pytest.mark.parametrize(
    ("removed", "named"),
    [
        (EMBED_LINKS, "Embed Links"),
        (ATTACH_FILES, "Attach Files"),
        (SEND_MESSAGES | READ_MESSAGE_HISTORY, "Send Messages, Read Message History"),
    ],
)
async def test_opening_a_table_without_the_bots_permissions_names_what_is_missing(
    world: World, removed: int, named: str
) -> None:
    fake = world.fake
    # the bot's permissions come from @everyone and its own role: take them from both
    world.guild.everyone.permissions &= ~removed
    bot_member = world.guild.members[fake.bot_user.id]
    for role in bot_member.roles:
        role.permissions &= ~removed
    async with table_bot(world) as bot:
        reply = await (await fake.invoke(world.alice, world.channel, "zoot")).response()
        assert reply.ephemeral
        assert f"I need {named} in #{world.channel.name}" in reply.content
        assert "Permissions" in reply.content and "role" in reply.content
        assert "\n" not in reply.content.strip()
        assert bot.service is not None
        assert await bot.service.table_in_channel(world.channel.id) is None
        assert not fake.channel_messages(world.channel)
