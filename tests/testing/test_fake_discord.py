"""The real discord.py client against the fake Discord: connection, command sync, replies,
ephemerals, persistent buttons, DMs, rate limits, server errors, gateway drops and the
interaction-token rules. The tiny bot below is defined here on purpose: it exercises the
fake, not the project's cogs."""

from __future__ import annotations

import asyncio
import io
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass

import discord
import pytest
from discord import app_commands

from bot.testing import (
    ADMINISTRATOR,
    FakeChannel,
    FakeDiscord,
    FakeDiscordError,
    FakeGuild,
    FakeUser,
    running_client,
)


class CounterButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]], template=r"t:count:(?P<n>\d+)"
):
    """A persistent button whose state lives in its custom_id, like the project's buttons."""

    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label=f"Count {n}", custom_id=f"t:count:{n}"))
        self.n = n

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[discord.ui.View],
        match: re.Match[str],
        /,
    ) -> CounterButton:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.edit_message(
            content=f"count {self.n + 1}", view=counter_view(self.n + 1)
        )


def counter_view(n: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(CounterButton(n))
    return view


class PickView(discord.ui.View):
    @discord.ui.select(
        custom_id="t:pick",
        options=[discord.SelectOption(label=x, value=x) for x in ("razz", "zoot", "wheelers")],
    )
    async def pick(
        self, interaction: discord.Interaction, select: discord.ui.Select[PickView]
    ) -> None:
        await interaction.response.edit_message(content=f"picked {select.values[0]}", view=None)


class StakeModal(discord.ui.Modal, title="House rules"):
    ante: discord.ui.TextInput[StakeModal] = discord.ui.TextInput(label="Ante", custom_id="t:ante")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"ante set to {self.ante.value}")


class TinyBot(discord.Client):
    def __init__(self, **options: object) -> None:
        super().__init__(intents=discord.Intents.default(), **options)
        self.tree = app_commands.CommandTree(self)
        self.errors: list[BaseException] = []
        self.last_interaction: discord.Interaction | None = None
        self.tree.on_error = self._on_tree_error  # type: ignore[method-assign]
        self._add_commands()

    async def _on_tree_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        self.errors.append(getattr(error, "original", error))

    async def setup_hook(self) -> None:
        self.add_dynamic_items(CounterButton)
        await self.tree.sync()

    def _add_commands(self) -> None:
        tree = self.tree

        @tree.command(name="deal", description="Open a table")
        @app_commands.describe(game="which game", stake="the ante", private="answer only me")
        @app_commands.choices(
            game=[app_commands.Choice(name=g, value=g) for g in ("razz", "zoot", "wheelers")]
        )
        async def deal(
            interaction: discord.Interaction,
            game: str,
            stake: app_commands.Range[int, 1, 100],
            private: bool = False,
        ) -> None:
            self.last_interaction = interaction
            await interaction.response.send_message(
                f"{game} at {stake}", ephemeral=private, view=counter_view(0)
            )

        @tree.command(name="hand", description="DM a player their cards")
        async def hand(interaction: discord.Interaction, player: discord.Member) -> None:
            try:
                await player.send("your cards: A♠ 2♠ 3♦")
            except discord.Forbidden as exc:
                await interaction.response.send_message(f"no DM: {exc.code}", ephemeral=True)
                return
            await interaction.response.send_message("dealt", ephemeral=True)

        @tree.command(name="whoami", description="Show permissions")
        async def whoami(interaction: discord.Interaction) -> None:
            admin = interaction.permissions.administrator
            may_send = interaction.app_permissions.send_messages
            await interaction.response.send_message(f"admin={admin} bot_send={may_send}")

        @tree.command(name="slow", description="Defer, then answer")
        async def slow(interaction: discord.Interaction, wait: float = 0.0) -> None:
            await asyncio.sleep(wait)
            await interaction.response.defer(thinking=True)
            await interaction.followup.send("done thinking")

        async def suggest_game(
            interaction: discord.Interaction, current: str
        ) -> list[app_commands.Choice[str]]:
            games = ("razz", "zoot", "wheelers")
            return [app_commands.Choice(name=g, value=g) for g in games if g.startswith(current)]

        @tree.command(name="find", description="Find a game")
        @app_commands.autocomplete(game=suggest_game)
        async def find(interaction: discord.Interaction, game: str) -> None:
            await interaction.response.send_message(f"found {game}", ephemeral=True)

        @tree.command(name="rules", description="Edit house rules")
        async def rules(interaction: discord.Interaction) -> None:
            await interaction.response.send_modal(StakeModal())

        @tree.command(name="pick", description="Choose a game")
        async def pick(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("pick one", view=PickView())


class ShardedTinyBot(TinyBot, discord.AutoShardedClient):
    """The project runs ``AutoShardedBot``: it asks GET /gateway/bot for the shard count."""


@dataclass
class World:
    fake: FakeDiscord
    bot: TinyBot
    guild: FakeGuild
    channel: FakeChannel
    alice: FakeUser
    bob: FakeUser


@pytest.fixture
async def world(fake_discord: FakeDiscord) -> AsyncIterator[World]:
    guild = fake_discord.add_guild("Home")
    channel = fake_discord.add_channel(guild, "poker")
    alice = fake_discord.add_user("alice")
    bob = fake_discord.add_user("bob")
    fake_discord.add_member(guild, alice, permissions=ADMINISTRATOR)
    fake_discord.add_member(guild, bob)
    async with running_client(fake_discord, TinyBot()) as bot:
        yield World(fake_discord, bot, guild, channel, alice, bob)
        assert not bot.errors
    assert not fake_discord.unhandled_requests


async def test_client_connects_ready_with_guild_available(world: World) -> None:
    guild = world.bot.get_guild(world.guild.id)
    assert guild is not None and not guild.unavailable
    assert guild.get_channel(world.channel.id) is not None
    assert world.bot.user is not None and world.bot.user.id == world.fake.bot_user.id
    assert world.bot.application_id == world.fake.application_id
    assert world.fake.identifies == 1


async def test_synced_commands_show_up_with_their_options(world: World) -> None:
    deal = world.fake.command("deal")
    assert [o["name"] for o in deal["options"]] == ["game", "stake", "private"]
    assert set(world.fake.commands()) == {"deal", "hand", "whoami", "slow", "find", "rules", "pick"}


async def test_slash_command_reply_is_public_in_channel(world: World) -> None:
    rec = await world.fake.invoke(world.alice, world.channel, "deal", {"game": "razz", "stake": 5})
    reply = await rec.response()
    assert reply.content == "razz at 5" and not reply.ephemeral
    assert rec.latency is not None and rec.latency < 3
    assert reply.message is not None and reply.message.button("Count 0")
    assert [m.content for m in world.fake.channel_messages(world.channel)] == ["razz at 5"]
    assert any(v.content == "razz at 5" for v in world.fake.visible_to(world.bob))


async def test_ephemeral_reply_is_seen_only_by_its_user(world: World) -> None:
    rec = await world.fake.invoke(
        world.alice, world.channel, "deal", {"game": "zoot", "stake": 2, "private": True}
    )
    reply = await rec.response()
    assert reply.ephemeral
    assert [m.content for m in world.fake.ephemerals(world.alice)] == ["zoot at 2"]
    assert world.fake.channel_messages(world.channel) == []
    assert all("zoot" not in v.text for v in world.fake.visible_to(world.bob))


async def test_clicking_persistent_button_updates_message_in_place(world: World) -> None:
    rec = await world.fake.invoke(world.bob, world.channel, "deal", {"game": "razz", "stake": 1})
    message = (await rec.response()).message
    assert message is not None
    click = await world.fake.click(world.alice, message, message.button("Count 0")["custom_id"])
    reply = await click.response()
    assert reply.callback_type == 7 and reply.message is message
    assert message.content == "count 1" and len(message.versions) == 2
    again = await world.fake.click(world.bob, message, "t:count:1")
    assert (await again.response()).content == "count 2"
    views = [v for v in world.fake.visible_to(world.bob) if v.message_id == message.id]
    assert [v.content for v in views] == ["razz at 1", "count 1", "count 2"]
    with pytest.raises(FakeDiscordError):
        await world.fake.click(world.bob, message, "t:count:0")  # that button is gone


async def test_waiting_for_a_message_change_wakes_at_the_edit_not_by_polling(
    world: World,
) -> None:
    rec = await world.fake.invoke(world.bob, world.channel, "deal", {"game": "razz", "stake": 1})
    message = (await rec.response()).message
    assert message is not None
    first = message.latest
    waiter = asyncio.create_task(message.changed(first, timeout=30))
    await asyncio.sleep(0)
    assert not waiter.done()  # nothing changed yet
    await (await world.fake.click(world.alice, message, "t:count:0")).response()
    shown = await waiter
    assert shown is message.latest and shown.content == "count 1"
    assert await message.changed(first) is shown  # already changed: at once
    with pytest.raises(TimeoutError):
        await message.changed(message.latest, timeout=0.01)


async def test_select_menu_choice_reaches_the_view(world: World) -> None:
    rec = await world.fake.invoke(world.alice, world.channel, "pick")
    message = (await rec.response()).message
    assert message is not None
    chosen = await world.fake.select(world.alice, message, "t:pick", ["zoot"])
    reply = await chosen.response()
    assert reply.content == "picked zoot" and reply.components == ()
    with pytest.raises(FakeDiscordError):
        await world.fake.select(world.alice, message, "t:pick", ["poker"])


async def test_autocomplete_returns_the_bots_suggestions(world: World) -> None:
    rec = await world.fake.autocomplete(
        world.bob, world.channel, "find", {"game": "z"}, focused="game"
    )
    reply = await rec.response()
    assert reply.callback_type == 8
    assert [c["value"] for c in reply.choices] == ["zoot"]
    assert world.fake.ack_latencies() == [rec.latency]


async def test_modal_opens_and_its_submission_reaches_the_bot(world: World) -> None:
    opened = await world.fake.invoke(world.alice, world.channel, "rules")
    assert (await opened.response()).modal is not None
    submitted = await world.fake.submit_modal(world.alice, opened, {"t:ante": "25"})
    assert (await submitted.response()).content == "ante set to 25"


async def test_dm_reaches_only_its_recipient(world: World) -> None:
    rec = await world.fake.invoke(world.alice, world.channel, "hand", {"player": world.bob})
    assert (await rec.response()).content == "dealt"
    assert [m.content for m in world.fake.dms(world.bob)] == ["your cards: A♠ 2♠ 3♦"]
    assert all("A♠" not in v.text for v in world.fake.visible_to(world.alice))
    assert any(v.kind == "dm" and "A♠" in v.text for v in world.fake.visible_to(world.bob))


async def test_dm_to_user_with_closed_dms_raises_forbidden_50007(world: World) -> None:
    world.fake.close_dms(world.bob)
    rec = await world.fake.invoke(world.alice, world.channel, "hand", {"player": world.bob})
    reply = await rec.response()
    assert reply.content == "no DM: 50007" and reply.ephemeral
    assert world.fake.dms(world.bob) == []


async def test_member_and_app_permissions_reach_the_interaction(world: World) -> None:
    admin = await (await world.fake.invoke(world.alice, world.channel, "whoami")).response()
    plain = await (await world.fake.invoke(world.bob, world.channel, "whoami")).response()
    assert admin.content == "admin=True bot_send=True"
    assert plain.content == "admin=False bot_send=True"


async def test_deferred_reply_is_filled_by_first_followup(world: World) -> None:
    rec = await world.fake.invoke(world.alice, world.channel, "slow")
    reply = await rec.response()
    assert rec.callback_type == 5 and reply.content == "done thinking"
    assert reply.message is not None and not reply.message.loading


async def test_rate_limit_429_then_send_succeeds(world: World) -> None:
    fault = world.fake.inject(r"^POST /channels/\d+/messages$", status=429, retry_after=0.05)
    channel = world.bot.get_channel(world.channel.id)
    assert isinstance(channel, discord.TextChannel)
    sent = await channel.send("after the limit")
    assert fault.hits == 1 and sent.content == "after the limit"
    posts = [r for r in world.fake.requests if r.method == "POST" and "/messages" in r.path]
    assert [r.status for r in posts] == [429, 200]


async def test_server_error_500_then_send_succeeds(world: World) -> None:
    fault = world.fake.inject(r"^POST /channels/\d+/messages$", status=500)
    channel = world.bot.get_channel(world.channel.id)
    assert isinstance(channel, discord.TextChannel)
    await channel.send("after the outage")  # discord.py retries a 500 after 1 s
    assert fault.hits == 1
    assert world.fake.last_message(world.channel).content == "after the outage"


async def test_attachment_bytes_are_stored_and_downloadable(world: World) -> None:
    channel = world.bot.get_channel(world.channel.id)
    assert isinstance(channel, discord.TextChannel)
    png = b"\x89PNG\r\n\x1a\n" + bytes(range(64))
    sent = await channel.send("table", file=discord.File(io.BytesIO(png), "table.png"))
    stored = world.fake.last_message(world.channel).attachments
    assert [(a.filename, a.content_type, a.data) for a in stored] == [
        ("table.png", "image/png", png)
    ]
    assert await sent.attachments[0].read() == png


async def test_gateway_drop_resumes_and_commands_still_work(world: World) -> None:
    await world.fake.drop_gateway()
    await world.fake.wait_gateway_ready()
    assert world.fake.resumes == 1
    rec = await world.fake.invoke(world.alice, world.channel, "deal", {"game": "razz", "stake": 3})
    assert (await rec.response()).content == "razz at 3"


async def test_invalid_session_forces_a_fresh_identify(world: World) -> None:
    world.fake.invalidate_sessions()
    await world.fake.drop_gateway(code=4000)
    await world.fake.wait_gateway_ready()
    assert world.fake.identifies == 2
    rec = await world.fake.invoke(world.bob, world.channel, "whoami")
    assert (await rec.response()).content.startswith("admin=False")


async def test_second_initial_callback_is_refused_with_40060(world: World) -> None:
    rec = await world.fake.invoke(world.alice, world.channel, "deal", {"game": "zoot", "stake": 4})
    await rec.response()
    # The same event delivered twice (e.g. replayed) builds a second Interaction object.
    twin = discord.Interaction(data=rec.payload, state=world.bot._connection)  # type: ignore[arg-type]
    with pytest.raises(discord.HTTPException) as info:
        await twin.response.send_message("again")
    assert info.value.code == 40060
    assert rec.refused == [40060]
    assert len(world.fake.channel_messages(world.channel)) == 1


async def test_expired_interaction_token_is_refused_with_50027(world: World) -> None:
    rec = await world.fake.invoke(world.alice, world.channel, "deal", {"game": "razz", "stake": 9})
    message = (await rec.response()).message
    interaction = world.bot.last_interaction
    assert interaction is not None and message is not None
    world.fake.token_ttl = 0.01
    await asyncio.sleep(0.02)
    with pytest.raises(discord.HTTPException) as info:
        await interaction.edit_original_response(content="too late")
    assert info.value.status == 401 and info.value.code == 50027
    assert message.content == "razz at 9" and len(message.versions) == 1


async def test_callback_after_three_seconds_is_unknown_interaction(world: World) -> None:
    world.fake.ack_deadline = 0.05  # Discord's 3 s, shrunk to keep the test fast
    rec = await world.fake.invoke(world.alice, world.channel, "slow", {"wait": 0.1})

    async def refused() -> None:  # the bot's late try, however late a busy machine makes it
        while not rec.refused or not world.bot.errors:
            await asyncio.sleep(0.01)

    await asyncio.wait_for(refused(), 60)  # a hang guard
    assert rec.callback_type is None and rec.refused == [10062]
    assert isinstance(world.bot.errors.pop(), discord.NotFound)


async def test_invoke_checks_options_against_the_synced_definition(world: World) -> None:
    fake = world.fake
    with pytest.raises(FakeDiscordError, match="no option"):
        await fake.invoke(world.alice, world.channel, "deal", {"game": "razz", "stakes": 1})
    with pytest.raises(FakeDiscordError, match="required"):
        await fake.invoke(world.alice, world.channel, "deal", {"game": "razz"})
    with pytest.raises(FakeDiscordError, match="choices"):
        await fake.invoke(world.alice, world.channel, "deal", {"game": "poker", "stake": 1})
    with pytest.raises(FakeDiscordError, match="outside"):
        await fake.invoke(world.alice, world.channel, "deal", {"game": "razz", "stake": 500})
    with pytest.raises(FakeDiscordError, match="no synced command"):
        await fake.invoke(world.alice, world.channel, "poker")
    assert fake.interactions == {}


async def test_auto_sharded_client_connects_and_survives_a_drop(fake_discord: FakeDiscord) -> None:
    guild = fake_discord.add_guild("Sharded")
    channel = fake_discord.add_channel(guild, "poker")
    carol = fake_discord.add_user("carol")
    fake_discord.add_member(guild, carol)
    async with running_client(fake_discord, ShardedTinyBot()) as bot:
        assert bot.shard_count == 1 and bot.get_guild(guild.id) is not None
        assert any(r.path == "/gateway/bot" for r in fake_discord.requests)
        await fake_discord.drop_gateway()
        await fake_discord.wait_gateway_ready()
        rec = await fake_discord.invoke(carol, channel, "deal", {"game": "razz", "stake": 7})
        assert (await rec.response()).content == "razz at 7"
    assert fake_discord.resumes == 1
