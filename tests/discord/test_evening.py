"""An evening on one server (issue 11): Zoot, Wheelers and Razz in three channels, five
players each, about four hours of play on a moved clock, with a player closing DMs, Attach
Files taken away, a table message deleted by a moderator, a 429 burst and a 5xx, a bot
restart and refused commands at each table. Every result is posted once, every player can
see their current cards, Discord refuses nothing for a limit, the timers fire, the ledger
balances."""

from __future__ import annotations

import asyncio

from bot.app import HomeGameBot
from bot.engine.cards import parse_cards
from bot.testing import FakeChannel, FakeMessage, FakeUser
from bot.testing.fake_model import ATTACH_FILES
from tests.discord.conftest import World
from tests.discord.tablebot import HANG, cog, eventually, footer_state, table_bot
from tests.discord.test_discord_refusals import (
    Evening,
    play_out,
    refused,
    service,
    table_message,
    until_renewed,
)
from tests.discord.test_guts_games import window_open
from tests.discord.test_razz_table import STAKES

GAMES = {"zoot": {"ante": 10}, "wheelers": {"ante": 10}, "razz": STAKES}


async def open_table(
    world: World, bot: HomeGameBot, channel: FakeChannel, game: str, players: list[FakeUser]
) -> tuple[int, FakeMessage]:
    fake = world.fake
    reply = await (await fake.invoke(players[0], channel, game, GAMES[game])).response()
    assert reply.message is not None and not reply.ephemeral
    for user in players[1:]:
        assert (
            await (await fake.click_label(user, reply.message, "Join")).response()
        ).updated_message
    # a double Start: two players press Start at once, before the message changes
    first, second = await asyncio.gather(
        fake.click_label(players[0], reply.message, "Start"),
        fake.click_label(players[1], reply.message, "Start"),
    )
    answers = [await first.response(), await second.response()]
    assert sum(a.ephemeral for a in answers) == 1, [a.content for a in answers]
    return await refusals(world, bot, channel, game, reply.message, players, foreign=None)


async def refusals(
    world: World,
    bot: HomeGameBot,
    channel: FakeChannel,
    game: str,
    message: FakeMessage,
    players: list[FakeUser],
    *,
    foreign: FakeUser | None,
) -> tuple[int, FakeMessage]:
    """A second table opened in the channel, and (when given) a Join by a member seated at
    another table: both refused with a message, the table unchanged."""
    view = await service(bot).table_in_channel(channel.id)
    assert view is not None
    seats = [s.user_id for s in view.seats]
    again = await world.fake.invoke(players[1], channel, game, GAMES[game])
    reply = await again.response()
    assert reply.ephemeral and reply.content, "a second table in the channel is refused"
    if foreign is not None:
        reply = await (await world.fake.click_label(foreign, message, "Join")).response()
        assert reply.ephemeral and reply.content, "a foreign Join is refused with a reason"
    after = await service(bot).view(view.table_id)
    assert [s.user_id for s in after.seats] == seats
    return view.table_id, message


async def guts_hand(world: World, bot: HomeGameBot, tid: int, players: list[FakeUser]) -> None:
    """One game of Zoot or Wheelers: in the first window one player lays down, the others
    with open DMs play on, and the last seat's time runs out (the timer: play on)."""
    hand = (await service(bot).view(tid)).hand_number
    fake = world.fake
    active = [u for u in players[:-1] if u.dm_open]
    while not (await service(bot).view(tid)).to_act_user_ids:
        await asyncio.sleep(0.02)
    version = (await service(bot).view(tid)).version
    for i, user in enumerate(active):
        dm = await eventually(
            lambda u=user: (
                fake.dms(u)[-1]
                if window_open(fake.dms(u)[-1]) and footer_state(fake.dms(u)[-1]) >= version
                else None
            ),
            what=f"{user.name}'s window",
        )
        label = "Lay down" if i == 0 else "Play on"
        reply = await (await fake.click_label(user, dm, label)).response()
        assert reply.updated_message and not reply.ephemeral, reply.content
    for _ in range(200):
        view = await service(bot).view(tid)
        if view.hand_number != hand or not await service(bot).hand_in_progress(tid):
            return
        await service(bot).tick(tid, force=True)
        await asyncio.sleep(0.02)
    raise AssertionError(f"the guts game does not end: {view}")


def cards_field(embeds: tuple[dict, ...] | list[dict]) -> str | None:  # type: ignore[type-arg]
    """The cards an embed shows its reader: Cards (guts), or Down and Up (stud)."""
    names = ("Cards", "Down (only you)", "Up (everyone)")
    found = [
        str(f.get("value")).replace("—", "")
        for embed in embeds
        for f in embed.get("fields", ())
        if f.get("name") in names
    ]
    return " ".join(found) if found else None


async def current_cards_shown(world: World, bot: HomeGameBot, tid: int, user: FakeUser) -> None:
    """The player's current cards are on their newest DM, or (DMs closed) in My hand."""
    private = await service(bot).private_view(tid, user.id)
    cards = private.cards or (private.down_cards + private.up_cards)
    if not cards:
        return
    if user.dm_open:
        text = cards_field(world.fake.dms(user)[-1].embeds)
    else:
        message = await table_message(world, bot, tid)
        reply = await (await world.fake.click_label(user, message, "My hand")).response()
        text = cards_field(reply.embeds)
    assert text is not None, user.name
    assert sorted(map(str, parse_cards(text))) == sorted(map(str, cards)), user.name


async def razz_hand(world: World, bot: HomeGameBot, tid: int) -> None:
    hand = (await service(bot).view(tid)).hand_number
    await service(bot).tick(tid, force=True)  # one player's time runs out: the default action
    # (a table message near its hour is replaced on that change: act on the new one)
    await cog(bot).updates.idle()
    await play_out(world, bot, tid, hand)


async def test_an_evening_of_three_tables_with_faults_restart_and_refusals(
    world: World,
) -> None:
    fake = world.fake
    evening = Evening(world)
    channels = {g: fake.add_channel(world.guild, g) for g in GAMES}
    seated = {g: [fake.add_user(f"{g}{i}") for i in range(5)] for g in GAMES}
    for users in seated.values():
        for user in users:
            fake.add_member(world.guild, user)
    tids: dict[str, int] = {}
    openers: dict[str, FakeMessage] = {}
    hands_played = {g: 0 for g in GAMES}

    async def play_round(bot: HomeGameBot) -> None:
        for game in GAMES:
            tid = tids[game]
            view = await service(bot).view(tid)
            loop = asyncio.get_running_loop()
            hang = loop.time() + HANG  # a guard: the next game's timer is real time here
            while loop.time() < hang:
                if view.to_act_user_ids:
                    break
                if view.phase == "waiting for players" and view.deadline is None:
                    # (the next game waits for someone to press Start)
                    message = await table_message(world, bot, tid)
                    answer = await (
                        await fake.click_label(seated[game][0], message, "Start")
                    ).response()
                    assert not answer.ephemeral, answer.content
                await asyncio.sleep(0.02)
                view = await service(bot).view(tid)
            assert view.to_act_user_ids, view.phase
            if game == "razz":
                await razz_hand(world, bot, tid)
            else:
                await guts_hand(world, bot, tid, seated[game])
            hands_played[game] += 1

    async with table_bot(world, clock=evening.now) as bot:
        for game in GAMES:
            tids[game], openers[game] = await open_table(
                world, bot, channels[game], game, seated[game]
            )
        await play_round(bot)
        evening.advance(50 * 60)
        fake.close_dms(seated["zoot"][2])
        fake.close_dms(seated["razz"][3])
        fake.set_bot_permissions(channels["wheelers"], deny=ATTACH_FILES)
        burst = fake.inject(r"^(POST|PATCH) /channels/", status=429, count=4)
        await play_round(bot)
        server_error = fake.inject(r"^PATCH /channels/", status=503, count=1)
        evening.advance(50 * 60)
        deleted = await table_message(world, bot, tids["razz"])
        fake.delete_message(deleted)
        await service(bot).tick(tids["razz"], force=True)
        await until_renewed(bot, tids["razz"], deleted.id)
        await play_round(bot)
        for game in GAMES:
            others = [u for g, us in seated.items() if g != game for u in us]
            message = await table_message(world, bot, tids[game])
            await refusals(
                world, bot, channels[game], game, message, seated[game], foreign=others[0]
            )
        await cog(bot).updates.idle()
        assert burst.hits == 4 and server_error.hits == 1
    # a restart: the tables go on from the store
    async with table_bot(world, clock=evening.now, seed=2) as bot:
        evening.advance(50 * 60)
        await play_round(bot)
        evening.advance(50 * 60)
        await play_round(bot)
        await cog(bot).updates.idle()
        for game in GAMES:
            results = [
                m.content for m in fake.channel_messages(channels[game]) if " wins " in m.content
            ]
            assert len(results) == hands_played[game] == 5, (game, results)
            assert len(set(results)) == len(results)
            for user in seated[game]:
                await current_cards_shown(world, bot, tids[game], user)
        assert refused(world, 400) == []
        assert not [r for r in fake.requests if "30046" in str(r.body)]
        assert (await bot.store.audit(world.guild.id)).ok
