"""Mixed tables through the fake Discord (issue 13, item 6; RULES §9): the real bot, service
and store, three users clicking.

- ``/dealers-choice``: after each hand the player who deals next picks the game from the
  menu on the table message; another player's pick and a menu of an earlier deal are
  refused with the reason and change nothing; on the second orbit the dealer lets the time
  run out and the game just played is dealt again.
- ``/horse``: fixed-limit Hold'em for one orbit of the button, then fixed-limit Omaha
  Hi-Lo.

Balances match the ledger after each hand."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from bot.app import HomeGameBot
from bot.tables.service import TableService
from bot.tables.views import TableView
from bot.testing import FakeMessage, FakeUser
from bot.testing.clock import VirtualClock
from tests.discord.conftest import World
from tests.discord.tablebot import (
    assert_all_acknowledged,
    cog,
    eventually,
    footer_state,
    table_bot,
)

STAKES = {"small_bet": 4}
"""Razz 4/8 with a bring-in of 2 and no ante; Zoot and Wheelers ante 4."""


class Clock:
    """One clock the test moves, for the fake (message ages) and the bot (its deadlines
    and its timers): a window or the next hand's delay runs out when the test says, never
    while the test is looking (issue 19, item 16: with real timers, a forced tick racing
    the table's own timer dealt past a dealer's pick on a loaded machine)."""

    def __init__(self, world: World) -> None:
        self.virtual = VirtualClock(time.time())
        self.fake = world.fake

    def now(self) -> float:
        return self.virtual.now

    async def sleep(self, seconds: float) -> None:
        await self.virtual.sleep(seconds)

    def advance(self, seconds: float) -> None:
        self.virtual.advance(seconds)
        self.fake.advance(seconds)


def clocked(world: World, clock: Clock, *, seed: int = 7):  # type: ignore[no-untyped-def]
    """The bot on ``clock`` (its deadlines and its timers)."""
    return table_bot(
        world, seed=seed, clock=clock.now, sleep=clock.sleep, autostart_delay=AUTOSTART
    )


AUTOSTART = 0.2
"""Seconds between a hand's end (or a dealer's pick) and the next deal."""


def service(bot: HomeGameBot) -> TableService:
    assert bot.service is not None
    return bot.service


async def table_message(world: World, bot: HomeGameBot, tid: int) -> FakeMessage:
    _, message_id = (await service(bot).messages(tid))["table"]
    return world.fake.messages[message_id]


async def fresh_table(world: World, bot: HomeGameBot, tid: int) -> FakeMessage:
    """The table message once it shows the table's committed state."""
    version = (await service(bot).view(tid)).version

    async def ready() -> FakeMessage | None:
        message = await table_message(world, bot, tid)
        return message if message.embeds and footer_state(message) >= version else None

    found: FakeMessage = await eventually(ready, what="the table message at the table's state")
    return found


async def open_table(
    world: World, bot: HomeGameBot, command: str, options: dict[str, object]
) -> tuple[int, list[FakeUser]]:
    players = [world.alice, world.bob, world.carol]
    fake = world.fake
    reply = await (await fake.invoke(world.alice, world.channel, command, options)).response()
    assert reply.message is not None and not reply.ephemeral, reply.content
    for user in players[1:]:
        assert (
            await (await fake.click_label(user, reply.message, "Join")).response()
        ).updated_message
    await (await fake.click_label(world.alice, reply.message, "Start")).response()
    view = await service(bot).table_in_channel(world.channel.id)
    assert view is not None and view.hand_number == 1
    return view.table_id, players


async def betting_hand(world: World, bot: HomeGameBot, tid: int) -> None:
    """A hand of a betting game (Razz, Stud, Hold'em, Omaha): each player to act presses
    Call, Check or Bring in on the table message."""
    hand = (await service(bot).view(tid)).hand_number
    for _ in range(100):
        view = await service(bot).view(tid)
        if view.hand_number != hand or not view.to_act_user_ids:
            return
        (uid,) = view.to_act_user_ids
        message = await fresh_table(world, bot, tid)
        labels = [str(b["label"]) for b in message.buttons() if not b.get("disabled")]
        label = next(x for x in ("Call", "Check", "Bring in") if x in labels)
        rec = await world.fake.click_label(world.fake.users[uid], message, label)
        # the answer, not only the acknowledgement: the click is applied once it is out,
        # so the next look at the table sees its result (on a loaded machine the look
        # after the acknowledgement could still see the old turn)
        await rec.response()
        await asyncio.sleep(0.01)
    raise AssertionError("the betting hand does not end")


async def guts_hand(world: World, bot: HomeGameBot, tid: int, players: list[FakeUser]) -> None:
    """One game of Zoot or Wheelers: in the first window one player lays down by their DM,
    the others play on; then the windows run out (the timer plays on) until it ends."""
    svc = service(bot)
    hand = (await svc.view(tid)).hand_number
    while not (await svc.view(tid)).to_act_user_ids:
        await asyncio.sleep(0.02)
    version = (await svc.view(tid)).version
    fake = world.fake
    for i, user in enumerate(players):

        def window(u: FakeUser = user) -> FakeMessage | None:
            dm = fake.dms(u)[-1]
            buttons = {b["label"]: b for b in dm.buttons()}
            if "Play on" in buttons and not buttons["Play on"].get("disabled"):
                return dm if footer_state(dm) >= version else None
            return None

        dm = await eventually(window, what=f"{user.name}'s window")
        label = "Lay down" if i == 0 else "Play on"
        reply = await (await fake.click_label(user, dm, label)).response()
        assert reply.updated_message and not reply.ephemeral, reply.content
    for _ in range(200):
        view = await svc.view(tid)
        if view.hand_number != hand or not await svc.hand_in_progress(tid):
            return
        await svc.tick(tid, force=True)
        await asyncio.sleep(0.02)
    raise AssertionError("the guts game does not end")


async def play_hand(world: World, bot: HomeGameBot, tid: int, players: list[FakeUser]) -> str:
    game = (await service(bot).view(tid)).game
    if game in ("razz", "stud", "holdem", "omaha"):
        await betting_hand(world, bot, tid)
    else:
        await guts_hand(world, bot, tid, players)
    return game


async def balances_match_the_ledger(world: World, bot: HomeGameBot, tid: int) -> None:
    """Each seat's stack is its wallet in the ledger. The table and the ledger are read as
    of one state: the next hand's timer may deal (and post blinds) between the two reads,
    and then they are read again (it failed on a loaded machine: a stack read before the
    deal, a wallet after it)."""
    report = await bot.store.audit(world.guild.id)
    assert report.ok, report.format()

    async def one_state() -> tuple[Any, dict[int, int]] | None:
        view = await service(bot).view(tid)
        async with bot.store.read() as tx:
            wallets = {
                s.user_id: (await tx.wallet(world.guild.id, s.user_id)).balance for s in view.seats
            }
        return (view, wallets) if (await service(bot).view(tid)).version == view.version else None

    view, wallets = await eventually(one_state, what="the table and the ledger at one state")
    for seat in view.seats:
        assert seat.stack == wallets[seat.user_id], (seat.name, seat.stack, wallets)


async def hand_games(bot: HomeGameBot, tid: int) -> list[str]:
    async with bot.store.read() as tx:
        return [h.game for h in await tx.hands(tid)]


async def next_hand_started(
    bot: HomeGameBot, tid: int, after: int, clock: Clock | None = None
) -> None:
    """Wait for hand ``after + 1``; on ``clock``, first let the next deal's delay run out."""
    if clock is not None:
        await cog(bot).updates.idle()
        clock.advance(AUTOSTART)

    async def started() -> bool:
        view = await service(bot).view(tid)
        return view.hand_number > after and bool(view.to_act_user_ids)

    await eventually(started, what=f"hand {after + 1} dealt")


async def game_menu(world: World, bot: HomeGameBot, tid: int) -> tuple[FakeMessage, dict]:  # type: ignore[type-arg]
    """The table message once it shows the next dealer's game menu."""

    async def shown() -> tuple[FakeMessage, dict] | None:  # type: ignore[type-arg]
        message = await fresh_table(world, bot, tid)
        if message.selects():
            (menu,) = message.selects()
            return message, menu
        return None

    found: tuple[FakeMessage, dict] = await eventually(shown, what="the game menu")  # type: ignore[type-arg]
    return found


async def test_dealers_choice_dealer_picks_and_on_the_second_orbit_times_out_into_the_default(
    world: World,
) -> None:
    fake = world.fake
    clock = Clock(world)
    async with clocked(world, clock) as bot:
        tid, players = await open_table(
            world, bot, "dealers-choice", {"games": "razz wheelers", "choice_seconds": 10, **STAKES}
        )
        first = await fresh_table(world, bot, tid)
        assert str(first.embeds[0]["title"]).startswith("Dealer's choice: Razz")
        picked: dict[int, str] = {}  # hand number -> the game its dealer picked
        timed_out = 0
        while not timed_out:
            hand = (await service(bot).view(tid)).hand_number
            await play_hand(world, bot, tid, players)
            await balances_match_the_ledger(world, bot, tid)
            view = await service(bot).view(tid)
            if view.mixed.carried:
                # a Wheelers pot carries over: Wheelers again, no pick (RULES §9.4)
                assert view.mixed.chooser is None
                await next_hand_started(bot, tid, hand, clock)
                continue
            chooser = view.mixed.chooser
            assert chooser == (view.dealer_seat + 1) % 3, "the player who deals next picks"
            uid = next(s.user_id for s in view.seats if s.seat == chooser)
            picker = fake.users[uid]
            message, menu = await game_menu(world, bot, tid)
            assert picker.name in str(menu["placeholder"])
            assert [o["value"] for o in menu["options"]] == ["razz", "wheelers"]
            assert len(str(menu["custom_id"])) <= 100
            if hand >= 3 and len(picked) >= 2:
                # the second orbit (hand 4 on): the next dealer lets the time run out
                deadline = view.deadline
                assert deadline is not None and deadline - clock.now() > 5
                clock.advance(deadline - clock.now() + 1)  # the table's timer deals

                async def dealt(played: int = hand) -> TableView | None:
                    after = await service(bot).view(tid)
                    return after if after.hand_number > played else None

                after = await eventually(dealt, what="the default game dealt")
                timed_out = hand + 1
                assert after.game == view.game, "the default is the game just played"
                assert any("did not pick in time" in r for r in after.recent)
                await play_hand(world, bot, tid, players)
                await balances_match_the_ledger(world, bot, tid)
                break
            # another player's pick, and an onlooker's, are refused with the reason
            for other, reason in (
                (next(u for u in players if u is not picker), "deals next and picks"),
                (world.outsider, "do not sit"),
            ):
                rec = await fake.select(other, message, str(menu["custom_id"]), ["razz"])
                reply = await rec.response()
                assert reply.ephemeral and reason in reply.content, reply.content
            still = await service(bot).view(tid)
            assert still.mixed == view.mixed and still.deadline == view.deadline
            # the dealer picks the game other than the one just played
            want = "wheelers" if view.game == "razz" else "razz"
            rec = await fake.select(picker, message, str(menu["custom_id"]), [want])
            assert (await rec.response()).updated_message
            picked[hand + 1] = want
            await next_hand_started(bot, tid, hand, clock)
            dealt = await service(bot).view(tid)
            assert dealt.game == want and dealt.dealer_seat == chooser
        games = await hand_games(bot, tid)
        assert games[0] == "razz" and len(picked) >= 2
        for number, want in picked.items():
            assert games[number - 1] == want
        assert games[timed_out - 1] == games[timed_out - 2]  # the same game again
    assert assert_all_acknowledged(world) > 10


async def test_horse_table_changes_game_after_an_orbit(world: World) -> None:
    clock = Clock(world)
    async with clocked(world, clock) as bot:
        tid, players = await open_table(world, bot, "horse", STAKES)
        message = await fresh_table(world, bot, tid)
        assert str(message.embeds[0]["title"]).startswith("HORSE: Fixed-limit Hold'em")
        games: list[str] = []
        for hand in range(1, 5):
            view = await service(bot).view(tid)
            assert view.hand_number == hand
            games.append(await play_hand(world, bot, tid, players))
            await balances_match_the_ledger(world, bot, tid)
            if hand < 4:
                await next_hand_started(bot, tid, hand, clock)
        # three players: one orbit of Hold'em (each deals once), then Omaha Hi-Lo
        assert games == ["holdem", "holdem", "holdem", "omaha"]
        assert await hand_games(bot, tid) == games
        message = await fresh_table(world, bot, tid)
        assert str(message.embeds[0]["title"]).startswith("HORSE: Fixed-limit Omaha Hi-Lo")


async def test_horse_table_message_names_the_stakes_not_studs_small_bet(world: World) -> None:
    async with table_bot(world) as bot:
        tid, _ = await open_table(world, bot, "horse", STAKES)
        message = await fresh_table(world, bot, tid)
        rules = next(f["value"] for f in message.embeds[0]["fields"] if f["name"] == "House rules")
        # Hold'em is dealt first: no stud street is named for the table's stakes
        assert "Stakes (every game's small bet): **4**" in str(rules), rules
        assert "3rd and 4th street" not in str(rules), rules
        # the seats are the table's: HORSE seats 8 (Stud's most), not Hold'em's 9
        assert "Seats: **8**" in str(rules), rules
