"""A tournament's lobby through an evening (fake Discord, the clock moved): Discord caps
edits of messages older than an hour (30046; the fake refuses every one), and a
tournament plays for hours. The lobby is replaced by a fresh message once it is
``RENEW_AFTER`` old, as a table message is: the new one shows the level and keeps the
buttons; the old one keeps no button (it links to the new one, or, past Discord's hour,
it is deleted), and the new one is the one stored and edited from then on."""

from __future__ import annotations

from typing import Any

from bot.app import HomeGameBot
from bot.testing import FakeMessage
from cogs._delivery import RENEW_AFTER
from cogs._lobby import LOBBY_MOVED
from tests.discord.conftest import World
from tests.discord.tablebot import eventually, table_bot
from tests.discord.test_tournament_refusals import opened, register
from tests.discord.tournamentbot import MovedClock

LEVELS = "10/20 25m, 20/40 25m, 40/80 25m, 80/160 25m"
"""Level 3 at 50 minutes: past RENEW_AFTER (45), within Discord's hour."""


def lobby_text(message: FakeMessage) -> str:
    embeds = message.embeds
    return str(embeds[0].get("description", "")) if embeds else ""


async def started(world: World, bot: HomeGameBot, levels: str) -> tuple[int, FakeMessage, Any]:
    """A tournament every player registered for, started and at level 1: its id, its lobby
    message and the director."""
    fake = world.fake
    tid, lobby_id = await opened(world, bot, buy_in=100, levels=levels)
    for user in world.players:
        await register(world, user, lobby_id)
    lobby = fake.messages[lobby_id]
    await (await fake.click_label(world.alice, lobby, "Start")).response()
    d = bot.tournaments
    assert d is not None
    await eventually(lambda: d.lobby(tid).level == 1, what="level 1")
    return tid, lobby, d


def new_lobby(world: World, old: FakeMessage, level: int) -> FakeMessage | None:
    """A lobby message posted after ``old`` that shows ``level``, if any."""
    for m in world.fake.channel_messages(world.channel):
        if m.id > old.id and f"**Level {level}**" in lobby_text(m):
            return m
    return None


async def test_a_lobby_older_than_its_renewal_age_is_replaced_and_never_edited_past_its_hour(
    world: World,
) -> None:
    fake = world.fake
    clock = MovedClock(world)
    async with table_bot(world, clock=clock, sleep=clock.sleep, autostart_delay=0) as bot:
        tid, lobby, d = await started(world, bot, LEVELS)

        # level 2 after 25 minutes: the lobby is younger than RENEW_AFTER, edited in place
        change = d.lobby(tid).next_change
        assert change is not None
        clock.move(change - clock.now)
        await eventually(lambda: "**Level 2**" in lobby_text(lobby), what="level 2 on the lobby")
        assert d.lobby(tid).level == 2

        # level 3 at 50 minutes: past RENEW_AFTER, a new lobby replaces the old one
        labels = [b["label"] for b in lobby.buttons()]
        assert labels
        change = d.lobby(tid).next_change
        assert change is not None and change - clock.now + 25 * 60 > RENEW_AFTER
        clock.move(change - clock.now)

        fresh = await eventually(
            lambda: new_lobby(world, lobby, 3), what="a new lobby showing level 3"
        )
        assert [b["label"] for b in fresh.buttons()] == labels
        await eventually(lambda: lobby.content.startswith(LOBBY_MOVED), what="old lobby retired")
        assert lobby.buttons() == [] and not lobby.embeds
        assert str(fresh.id) in lobby.content  # the link to the new one
        async with bot.store.read() as tx:
            assert (await tx.tournament(tid)).lobby_message_id == fresh.id

        # level 4: the new lobby (25 minutes old) is edited in place, the old one never
        change = d.lobby(tid).next_change
        assert change is not None
        old_versions = len(lobby.versions)
        clock.move(change - clock.now)
        await eventually(
            lambda: "**Level 4**" in lobby_text(fresh), what="level 4 on the new lobby"
        )
        assert len(lobby.versions) == old_versions
        assert not [r for r in fake.requests if "30046" in str(r.body)]


async def test_a_lobby_first_changed_past_discords_hour_is_replaced_and_the_old_one_deleted(
    world: World,
) -> None:
    fake = world.fake
    clock = MovedClock(world)
    async with table_bot(world, clock=clock, sleep=clock.sleep, autostart_delay=0) as bot:
        tid, lobby, d = await started(world, bot, "10/20 70m, 20/40 70m")
        edits = len(lobby.versions)
        change = d.lobby(tid).next_change
        assert change is not None
        clock.move(change - clock.now)  # 70 minutes: no edit of the old lobby can pass

        fresh = await eventually(
            lambda: new_lobby(world, lobby, 2), what="a new lobby showing level 2"
        )
        await eventually(lambda: lobby.deleted, what="the old lobby deleted")
        assert len(lobby.versions) == edits  # not edited first (Discord would refuse it)
        assert fresh.buttons()
        assert not [r for r in fake.requests if "30046" in str(r.body)]
        async with bot.store.read() as tx:
            assert (await tx.tournament(tid)).lobby_message_id == fresh.id
