"""The fake refuses what Discord refuses: the cap on edits of messages older than an hour
(30046), the bot's channel permissions (50001, 50013), DM edits once a user closed DMs
(50007), every length and count limit of a message body (50035), deleted channels (10003)
and deleted messages (10008). Requests go through discord.py's own HTTP client, with raw
payloads where discord.py would refuse them before sending."""

from __future__ import annotations

import io
from typing import Any

import discord
import pytest
from discord.http import Route

from bot.testing import FakeMessage
from bot.testing.fake_model import ATTACH_FILES, EMBED_LINKS, SEND_MESSAGES, VIEW_CHANNEL
from tests.testing.test_fake_discord import World, world

__all__ = ["world"]  # the fixture, shared with the fake's other tests


async def post(world: World, payload: dict[str, Any]) -> Any:
    route = Route("POST", "/channels/{channel_id}/messages", channel_id=world.channel.id)
    return await world.bot.http.request(route, json=payload)


async def edit(world: World, message_id: int, payload: dict[str, Any]) -> Any:
    route = Route(
        "PATCH",
        "/channels/{channel_id}/messages/{message_id}",
        channel_id=world.channel.id,
        message_id=message_id,
    )
    return await world.bot.http.request(route, json=payload)


async def refused(world: World, payload: dict[str, Any]) -> int:
    with pytest.raises(discord.HTTPException) as caught:
        await post(world, payload)
    return caught.value.code


def text_channel(world: World) -> discord.TextChannel:
    channel = world.bot.get_channel(world.channel.id)
    assert isinstance(channel, discord.TextChannel)
    return channel


# ----------------------------------------------------------------------------- 30046


async def test_edit_of_message_older_than_an_hour_is_refused_with_30046(world: World) -> None:
    sent = await text_channel(world).send("table")
    await sent.edit(content="edited at once")
    world.fake.advance(59 * 60)
    await sent.edit(content="edited at 59 minutes")
    world.fake.advance(2 * 60)
    with pytest.raises(discord.HTTPException) as caught:
        await sent.edit(content="edited at 61 minutes")
    assert caught.value.status == 400 and caught.value.code == 30046
    assert world.fake.last_message(world.channel).content == "edited at 59 minutes"
    fresh = await text_channel(world).send("a fresh table")
    await fresh.edit(content="a fresh message is edited as usual")


async def test_old_message_edit_allowance_is_counted_per_message(world: World) -> None:
    world.fake.old_message_edits = 1
    sent = await text_channel(world).send("table")
    world.fake.advance(3 * 3600)
    await sent.edit(content="the one edit allowed")
    with pytest.raises(discord.HTTPException) as caught:
        await sent.edit(content="one too many")
    assert caught.value.code == 30046


async def test_snowflakes_and_timestamps_follow_the_moved_clock(world: World) -> None:
    world.fake.advance(2 * 3600)
    sent = await text_channel(world).send("later")
    age = discord.utils.utcnow() - sent.created_at
    assert -7300 < age.total_seconds() < -7100  # created two hours "from now"


# ----------------------------------------------------------------------------- permissions


async def test_post_without_send_messages_is_refused_with_50013(world: World) -> None:
    world.fake.set_bot_permissions(world.channel, deny=SEND_MESSAGES)
    assert await refused(world, {"content": "hi"}) == 50013
    world.fake.set_bot_permissions(world.channel)
    await post(world, {"content": "hi again"})


async def test_channel_the_bot_cannot_view_answers_50001_to_posts_and_edits(
    world: World,
) -> None:
    sent = await text_channel(world).send("before")
    world.fake.set_bot_permissions(world.channel, deny=VIEW_CHANNEL)
    assert await refused(world, {"content": "hi"}) == 50001
    with pytest.raises(discord.Forbidden) as caught:
        await edit(world, sent.id, {"content": "after"})
    assert caught.value.code == 50001


async def test_embed_and_file_need_embed_links_and_attach_files(world: World) -> None:
    sent = await text_channel(world).send("before")
    world.fake.set_bot_permissions(world.channel, deny=EMBED_LINKS | ATTACH_FILES)
    assert await refused(world, {"embeds": [{"title": "Table"}]}) == 50013
    with pytest.raises(discord.Forbidden) as caught:
        await sent.edit(embed=discord.Embed(title="Table"))
    assert caught.value.code == 50013
    png = discord.File(io.BytesIO(b"\x89PNG"), "hand.png")
    with pytest.raises(discord.Forbidden) as caught:
        await text_channel(world).send("picture", file=png)
    assert caught.value.code == 50013
    await sent.edit(content="plain text is still allowed")


async def test_channel_permissions_reach_the_app_permissions_of_interactions(
    world: World,
) -> None:
    world.fake.set_bot_permissions(world.channel, deny=SEND_MESSAGES)
    reply = await (await world.fake.invoke(world.bob, world.channel, "whoami")).response()
    assert reply.content == "admin=False bot_send=False"
    other = world.fake.add_channel(world.guild, "lobby")
    reply = await (await world.fake.invoke(world.bob, other, "whoami")).response()
    assert reply.content == "admin=False bot_send=True"


# ----------------------------------------------------------------------------- DMs


async def test_dm_edit_after_user_closes_dms_is_refused_with_50007(world: World) -> None:
    dm = await world.bot.create_dm(discord.Object(id=world.bob.id))
    sent = await dm.send("your cards")
    world.fake.close_dms(world.bob)
    with pytest.raises(discord.Forbidden) as caught:
        await sent.edit(content="your new cards")
    assert caught.value.code == 50007
    assert [m.content for m in world.fake.dms(world.bob)] == ["your cards"]


# ----------------------------------------------------------------------------- 50035

LIMITS: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    # name: (a body exactly at the limit, the same one over it)
    "content 2000": ({"content": "x" * 2000}, {"content": "x" * 2001}),
    "embed title 256": ({"embeds": [{"title": "t" * 256}]}, {"embeds": [{"title": "t" * 257}]}),
    "embed description 4096": (
        {"embeds": [{"description": "d" * 4096}]},
        {"embeds": [{"description": "d" * 4097}]},
    ),
    "field name 256": (
        {"embeds": [{"fields": [{"name": "n" * 256, "value": "v"}]}]},
        {"embeds": [{"fields": [{"name": "n" * 257, "value": "v"}]}]},
    ),
    "field value 1024": (
        {"embeds": [{"fields": [{"name": "n", "value": "v" * 1024}]}]},
        {"embeds": [{"fields": [{"name": "n", "value": "v" * 1025}]}]},
    ),
    "25 fields": (
        {"embeds": [{"fields": [{"name": "n", "value": "v"}] * 25}]},
        {"embeds": [{"fields": [{"name": "n", "value": "v"}] * 26}]},
    ),
    "footer 2048": (
        {"embeds": [{"footer": {"text": "f" * 2048}}]},
        {"embeds": [{"footer": {"text": "f" * 2049}}]},
    ),
    "6000 over all embeds": (
        {"embeds": [{"description": "d" * 3000}, {"description": "d" * 3000}]},
        {"embeds": [{"description": "d" * 3000}, {"description": "d" * 3000, "title": "t"}]},
    ),
    "10 embeds": ({"embeds": [{"title": "t"}] * 10}, {"embeds": [{"title": "t"}] * 11}),
}


def _buttons(count: int, *, label: str = "b", prefix: str = "") -> list[dict[str, Any]]:
    return [
        {"type": 2, "style": 1, "label": label, "custom_id": f"{prefix}{i}"} for i in range(count)
    ]


def _select(options: int, *, text: str = "o", custom_id: str = "pick") -> dict[str, Any]:
    return {
        "type": 1,
        "components": [
            {
                "type": 3,
                "custom_id": custom_id,
                "options": [
                    {"label": f"{text}{i}"[-100:], "value": f"{i}", "description": text}
                    for i in range(options)
                ],
            }
        ],
    }


LIMITS |= {
    "5 action rows": (
        {"components": [{"type": 1, "components": _buttons(1, prefix=f"r{r}-")} for r in range(5)]},
        {"components": [{"type": 1, "components": _buttons(1, prefix=f"r{r}-")} for r in range(6)]},
    ),
    "5 buttons a row": (
        {"components": [{"type": 1, "components": _buttons(5)}]},
        {"components": [{"type": 1, "components": _buttons(6)}]},
    ),
    "25 select options": ({"components": [_select(25)]}, {"components": [_select(26)]}),
    "select option text 100": (
        {"components": [_select(2, text="o" * 100)]},
        {"components": [_select(2, text="o" * 101)]},
    ),
    "button label 80": (
        {"components": [{"type": 1, "components": _buttons(1, label="l" * 80)}]},
        {"components": [{"type": 1, "components": _buttons(1, label="l" * 81)}]},
    ),
    "custom_id 100": (
        {"components": [_select(2, custom_id="c" * 100)]},
        {"components": [_select(2, custom_id="c" * 101)]},
    ),
}


@pytest.mark.parametrize("limit", sorted(LIMITS))
async def test_every_length_and_count_limit_is_refused_with_50035(world: World, limit: str) -> None:
    at_limit, over = LIMITS[limit]
    await post(world, at_limit)
    assert await refused(world, over) == 50035
    before = len(world.fake.channel_messages(world.channel))
    sent = world.fake.last_message(world.channel)
    with pytest.raises(discord.HTTPException) as caught:
        await edit(world, sent.id, over)
    assert caught.value.code == 50035
    assert len(world.fake.channel_messages(world.channel)) == before


async def test_more_than_10_attachments_is_refused_with_50035(world: World) -> None:
    def files(n: int) -> list[discord.File]:
        return [discord.File(io.BytesIO(b"x"), f"f{i}.txt") for i in range(n)]

    channel = text_channel(world)
    await channel.send("ten", files=files(10))
    # discord.py checks this one itself; the fake must refuse it anyway (another client may not)
    form = [{"name": "payload_json", "value": discord.utils._to_json({"content": "eleven"})}]
    for i in range(11):
        form.append(
            {"name": f"files[{i}]", "value": b"x", "filename": f"f{i}.txt"}
            | {"content_type": "text/plain"}
        )
    route = Route("POST", "/channels/{channel_id}/messages", channel_id=world.channel.id)
    with pytest.raises(discord.HTTPException) as caught:
        await world.bot.http.request(route, form=form, files=files(11))
    assert caught.value.code == 50035


# ----------------------------------------------------------------------------- deletions


async def test_deleted_channel_answers_10003(world: World) -> None:
    channel = text_channel(world)
    sent = await channel.send("table")
    world.fake.delete_channel(world.channel)
    with pytest.raises(discord.NotFound) as caught:
        await channel.send("anyone there?")
    assert caught.value.code == 10003
    with pytest.raises(discord.NotFound) as caught:
        await sent.edit(content="still here?")
    assert caught.value.code == 10003


async def test_deleted_message_answers_10008(world: World) -> None:
    sent = await text_channel(world).send("table")
    message: FakeMessage = world.fake.last_message(world.channel)
    world.fake.delete_message(message)
    with pytest.raises(discord.NotFound) as caught:
        await sent.edit(content="edited")
    assert caught.value.code == 10008
    with pytest.raises(discord.NotFound) as caught:
        await text_channel(world).fetch_message(sent.id)
    assert caught.value.code == 10008


async def test_injected_refusal_carries_its_discord_code(world: World) -> None:
    fault = world.fake.inject(r"^POST /channels/\d+/messages$", status=403, code=50013)
    assert await refused(world, {"content": "refused once"}) == 50013
    await post(world, {"content": "then allowed"})
    assert fault.hits == 1
    with pytest.raises(ValueError):
        world.fake.inject(status=403)  # a 4xx needs a code the fake knows


# ----------------------------------------------------------------------------- mentions


async def test_allowed_mentions_parse_and_users_together_are_refused_with_50035(
    world: World,
) -> None:
    """Discord: "The parse field is mutually exclusive with the other fields"."""
    uid = world.fake.bot_user.id
    code = await refused(
        world, {"content": f"<@{uid}>", "allowed_mentions": {"parse": ["users"], "users": [uid]}}
    )
    assert code == 50035
    assert await refused(world, {"content": "x", "allowed_mentions": {"parse": ["all"]}}) == 50035


async def test_the_fake_records_who_a_new_message_notified(world: World) -> None:
    """Only the content's mentions notify, filtered by allowed_mentions (none given: all);
    an edit notifies nobody (the first version's are the message's)."""
    a, b = 111, 222
    both = f"<@{a}> and <@!{b}>"
    sent = await post(world, {"content": both, "allowed_mentions": {"parse": [], "users": [a]}})
    message = world.fake.messages[int(sent["id"])]
    assert world.fake.notified(message) == {a}
    sent = await post(world, {"content": both})
    assert world.fake.notified(world.fake.messages[int(sent["id"])]) == {a, b}
    sent = await post(world, {"content": both, "allowed_mentions": {"parse": []}})
    assert world.fake.notified(world.fake.messages[int(sent["id"])]) == frozenset()
    sent = await post(world, {"content": "x", "embeds": [{"description": both}]})
    assert world.fake.notified(world.fake.messages[int(sent["id"])]) == frozenset()
    await edit(world, message.id, {"content": f"<@{b}>", "allowed_mentions": {"parse": ["users"]}})
    assert world.fake.notified(message) == {a}
