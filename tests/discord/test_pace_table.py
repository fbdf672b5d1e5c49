"""Issue 22, items 1-5, through the fake Discord and the real bot, with the service's clock
moved forward (never real waiting): a time bank spent and topped up, a Check/Fold chosen in
advance taken at once, a choice cleared by a raise, turn pings (once per turn, the previous
one deleted, none with ``off``, a mention of that member alone), sitting out two hands and
back posting the missed big blind, ``/table stakes`` applied from the next hand only,
``/table seat`` and ``/table rules``. Balances are read from the ledger."""

from __future__ import annotations

import re
import time
from typing import Any

from bot.app import HomeGameBot
from bot.testing import FakeMessage, FakeUser
from bot.testing.clock import VirtualClock
from cogs._pace import PING_MARK
from tests.discord.conftest import World
from tests.discord.tablebot import (
    assert_all_acknowledged,
    cog,
    eventually,
    field,
    footer_state,
    hand_dm,
    pings,
    table_bot,
)

TO_ACT = re.compile(r"To act: <@(\d+)>(.*)")


def service(bot: HomeGameBot) -> Any:
    assert bot.service is not None
    return bot.service


async def open_table(
    world: World, command: str, options: dict[str, Any], players: list[FakeUser]
) -> tuple[int, FakeMessage]:
    fake = world.fake
    reply = await (await fake.invoke(players[0], world.channel, command, options)).response()
    assert reply.message is not None and not reply.ephemeral, reply.content
    for user in players[1:]:
        assert (
            await (await fake.click_label(user, reply.message, "Join")).response()
        ).updated_message
    return int(re.findall(r"table #(\d+)", reply.message.embeds[0]["title"])[0]), reply.message


async def table_message(world: World, bot: HomeGameBot, tid: int) -> FakeMessage:
    """The table message at the service's current state (edited in place)."""
    view = await service(bot).view(tid)
    _, mid = (await service(bot).messages(tid))["table"]

    def shown() -> FakeMessage | None:
        message = world.fake.messages[mid]
        return message if footer_state(message) >= view.version else None

    return await eventually(shown, what="the table message at the current state")


async def press(world: World, bot: HomeGameBot, tid: int, user: FakeUser, label: str) -> None:
    table = await table_message(world, bot, tid)
    reply = await (await world.fake.click_label(user, table, label)).response()
    assert reply.updated_message, reply.content


async def dm_press(world: World, user: FakeUser, label: str, *, state: int | None = None) -> Any:
    """Press ``label`` on the user's hand DM (once it shows state ``state``, if given)."""
    if state is not None:
        await eventually(lambda: footer_state(hand_dm(world, user)) >= state, what="the DM")
    dm = await eventually(lambda: hand_dm(world, user).button(label) and hand_dm(world, user))
    return await (await world.fake.click_label(user, dm, label)).response()


async def check_or_call(world: World, bot: HomeGameBot, tid: int, user: FakeUser) -> None:
    table = await table_message(world, bot, tid)
    labels = {b["label"] for b in table.buttons() if not b.get("disabled")}
    await press(world, bot, tid, user, "Check" if "Check" in labels else "Call")


async def to_act(bot: HomeGameBot, tid: int) -> int:
    (uid,) = (await service(bot).view(tid)).to_act_user_ids
    return int(uid)


async def fold_out(world: World, bot: HomeGameBot, tid: int) -> None:
    """The players to act fold (check when free) until the hand is over."""
    by_id = {u.id: u for u in world.fake.users.values()}
    while await service(bot).hand_in_progress(tid):
        uid = await to_act(bot, tid)
        table = await table_message(world, bot, tid)
        labels = {b["label"] for b in table.buttons() if not b.get("disabled")}
        await press(world, bot, tid, by_id[uid], "Fold" if "Fold" in labels else "Check")


async def next_hand(bot: HomeGameBot, clock: VirtualClock, tid: int) -> None:
    view = await service(bot).view(tid)
    assert view.deadline is not None
    clock.advance(max(0.0, view.deadline - clock.now) + 0.1)
    await _hand_running(bot, tid)


async def _hand_running(bot: HomeGameBot, tid: int) -> None:
    # a hang guard (tablebot.HANG), not a time the deal must beat on a busy machine
    await eventually(lambda: service(bot).hand_in_progress(tid), what="the next hand dealt")


async def blinds_of(bot: HomeGameBot, tid: int, number: int) -> dict[int, int]:
    """Each player's blinds in hand ``number``, from the ledger."""
    async with bot.store.read() as tx:
        hand = next(h for h in await tx.hands(tid) if h.number == number)
        out: dict[int, int] = {}
        for e in await tx.entries(hand_id=hand.id, kind="blind"):
            uid = (await tx.account(e.from_account)).user_id
            assert uid is not None
            out[uid] = out.get(uid, 0) + e.amount
    return out


async def ledger_matches(bot: HomeGameBot, world: World) -> None:
    report = await bot.store.audit(world.guild.id)
    assert report.ok, report.format()


def virtual() -> VirtualClock:
    return VirtualClock(time.time())


async def ping_waits(bot: HomeGameBot, clock: VirtualClock) -> None:
    """Every turn ping the bot scheduled is asleep on the clock (so moving it wakes them):
    the table's timer and each ping task sleep on it."""
    tasks = cog(bot)._ping_tasks
    await eventually(lambda: clock.sleeping >= 1 + len(tasks), what="the pings asleep")


# ----------------------------------------------------------------------------- item 1


async def test_item1_time_bank_spent_then_topped_up_through_the_fake(world: World) -> None:
    clock = virtual()
    players = [world.alice, world.bob]
    by_id = {u.id: u for u in players}
    async with table_bot(world, clock=clock, sleep=clock.sleep, autostart_delay=1) as bot:
        options = {"decision_seconds": 10, "time_bank": 30}
        tid, _ = await open_table(world, "holdem", options, players)
        await press(world, bot, tid, world.alice, "Start")
        uid = await to_act(bot, tid)
        user = by_id[uid]
        view = await service(bot).view(tid)
        await eventually(lambda: clock.sleeping, what="the table's timer")
        clock.advance(view.deadline - clock.now + 0.2)  # the decision clock runs out
        await eventually(
            lambda: (service(bot)._views.get(tid) or view).bank_user == uid, what="the bank"
        )
        bank = await service(bot).view(tid)
        table = await table_message(world, bot, tid)
        line = TO_ACT.search(table.embeds[0]["description"])
        assert line is not None and int(line.group(1)) == uid
        assert f"time bank: runs out <t:{int(bank.deadline)}:R>" in line.group(2)
        clock.advance(12)  # twelve seconds of the bank spent, then the player calls
        await press(world, bot, tid, user, "Call")
        assert (await service(bot).private_view(tid, uid)).bank == 18
        await fold_out(world, bot, tid)
        seen = []
        for _ in range(2):  # heads-up the button alternates: hand 3 ends the orbit
            await next_hand(bot, clock, tid)
            seen.append((await service(bot).private_view(tid, uid)).bank)
            await fold_out(world, bot, tid)
        assert seen == [18, 23]  # 18 + 5 after the orbit
        # the player's own DM says what is left when it is their turn
        await next_hand(bot, clock, tid)
        while await to_act(bot, tid) != uid:
            await press(world, bot, tid, by_id[await to_act(bot, tid)], "Call")
        now = field(await eventually(lambda: hand_dm(world, user)), "Now")
        await eventually(
            lambda: "Then your time bank: 23 seconds" in (field(hand_dm(world, user), "Now") or ""),
            what=f"the bank in the DM ({now})",
        )
        await ledger_matches(bot, world)
    assert_all_acknowledged(world)


# ----------------------------------------------------------------------------- item 2


async def _fixed_three(world: World, bot: HomeGameBot) -> tuple[int, dict[int, FakeUser]]:
    players = [world.alice, world.bob, world.carol]
    tid, _ = await open_table(world, "holdem", {"betting": "fixed-limit"}, players)
    await press(world, bot, tid, world.alice, "Start")
    return tid, {u.id: u for u in players}


async def _blind_order(bot: HomeGameBot, tid: int) -> tuple[int, int, int]:
    """(button, small blind, big blind) of hand 1 (three-handed: the button acts first)."""
    button = await to_act(bot, tid)
    paid = await blinds_of(bot, tid, 1)
    small = next(u for u, a in paid.items() if a == 5)
    big = next(u for u, a in paid.items() if a == 10)
    return button, small, big


async def test_item2_check_fold_in_advance_taken_at_once_through_the_dm(world: World) -> None:
    async with table_bot(world, autostart_delay=60) as bot:
        tid, by_id = await _fixed_three(world, bot)
        button, small, big = await _blind_order(bot, tid)
        state = (await service(bot).view(tid)).version
        dm = await eventually(lambda: hand_dm(world, by_id[big]).button("Check/Fold") and 1)
        assert dm
        labels = [b["label"] for b in hand_dm(world, by_id[big]).buttons()]
        assert "Check/Fold" in labels and "Check" in labels and "Sit out next hand" in labels
        reply = await dm_press(world, by_id[big], "Check/Fold", state=state)
        assert reply.updated_message  # the clicked DM answers: the choice is shown
        assert "In advance: **Check/Fold**" in (
            field(hand_dm(world, by_id[big]), "Your table") or ""
        )
        await press(world, bot, tid, by_id[button], "Call")
        await press(world, bot, tid, by_id[small], "Call")
        # the big blind's turn came: the check was taken at once, and the table says so
        view = await service(bot).view(tid)
        assert view.phase == "the flop"
        table = await table_message(world, bot, tid)
        recent = field(table, "Recent") or ""
        assert f"{by_id[big].name} checks (chosen in advance)" in recent
        await ledger_matches(bot, world)
    assert_all_acknowledged(world)


async def test_item2_a_raise_clears_a_choice_in_advance_through_the_dm(world: World) -> None:
    async with table_bot(world, autostart_delay=60) as bot:
        tid, by_id = await _fixed_three(world, bot)
        button, small, big = await _blind_order(bot, tid)
        state = (await service(bot).view(tid)).version
        reply = await dm_press(world, by_id[small], "Call 5", state=state)
        assert reply.updated_message
        assert "In advance: **Call 5**" in (field(hand_dm(world, by_id[small]), "Your table") or "")
        await press(world, bot, tid, by_id[button], "Raise")  # fixed limit: to 20
        # the price changed: the choice is cleared (the DM says so at once), nothing is
        # taken, and the small blind is asked
        view = await service(bot).view(tid)
        assert view.to_act_user_ids == {small}
        assert (await service(bot).private_view(tid, small)).advance_chosen is None
        await eventually(
            lambda: "In advance" not in (field(hand_dm(world, by_id[small]), "Your table") or "x"),
            what="the cleared choice in the DM",
        )
        table = await table_message(world, bot, tid)
        assert "chosen in advance" not in (field(table, "Recent") or "")
        # a button drawn at the old price is refused with the new one, the DM redrawn
        stale = await dm_press(world, by_id[big], "Check")
        assert stale.ephemeral and not stale.updated_message  # refused: nothing was taken
        assert "so Check is off" in stale.content and stale.content.endswith("Nothing changed.")
        await eventually(
            lambda: "Call 10" in [b["label"] for b in hand_dm(world, by_id[big]).buttons()],
            what="the DM redrawn at the new price",
        )
        await ledger_matches(bot, world)
    assert_all_acknowledged(world)


# ----------------------------------------------------------------------------- item 3


async def test_item3_turn_pings_once_per_turn_previous_deleted_none_with_off(
    world: World,
) -> None:
    clock = virtual()
    fake = world.fake
    players = [world.alice, world.bob, world.carol]
    async with table_bot(world, clock=clock, sleep=clock.sleep, autostart_delay=60) as bot:
        off = await (
            await fake.invoke(world.carol, world.channel, "settings", {"turn_ping": "off"})
        ).response()
        assert off.ephemeral and "**off**" in off.content
        tid, by_id = await _fixed_three(world, bot)
        # the deal: nobody acted, nobody is pinged
        clock.advance(6)
        assert not any(pings(world, u) for u in players)
        sent: dict[int, int] = {}
        for _ in range(4):  # four turns, each after another player's action
            actor = await to_act(bot, tid)
            await check_or_call(world, bot, tid, by_id[actor])
            if not await service(bot).hand_in_progress(tid):
                break
            nxt = await to_act(bot, tid)
            await ping_waits(bot, clock)
            clock.advance(5.1)  # the player has not acted 5 seconds later: one ping
            if by_id[nxt] is world.carol:
                continue
            want = sent.get(nxt, 0) + 1
            await eventually(
                lambda n=nxt, w=want: len(pings(world, by_id[n], include_deleted=True)) == w
            )
            sent[nxt] = want
            clock.advance(20)  # still their turn: no second ping for it
            await cog(bot).updates.idle()
            assert len(pings(world, by_id[nxt], include_deleted=True)) == want
        assert not pings(world, world.carol, include_deleted=True)  # turn_ping: off
        for uid, count in sent.items():
            every = pings(world, by_id[uid], include_deleted=True)
            assert len(every) == count
            assert len([m for m in every if not m.deleted]) == 1  # the previous one deleted
            new = every[-1]
            assert new.content.startswith(PING_MARK) and f"table #{tid}" in new.content
            assert len(new.versions) == 1  # a new message, never an edit
            assert hand_dm(world, by_id[uid]).id != new.id
        assert any(c > 1 for c in sent.values())
    assert_all_acknowledged(world)


async def test_item3_mention_pings_only_that_member_in_the_channel(world: World) -> None:
    clock = virtual()
    fake = world.fake
    async with table_bot(world, clock=clock, sleep=clock.sleep, autostart_delay=60) as bot:
        for user in (world.alice, world.bob):
            done = await (
                await fake.invoke(user, world.channel, "settings", {"turn_ping": "mention"})
            ).response()
            assert "**mention**" in done.content
        tid, _ = await open_table(world, "holdem", {}, [world.alice, world.bob])
        await press(world, bot, tid, world.alice, "Start")
        by_id = {world.alice.id: world.alice, world.bob.id: world.bob}
        first = await to_act(bot, tid)
        await press(world, bot, tid, by_id[first], "Call")
        other = await to_act(bot, tid)
        await ping_waits(bot, clock)
        clock.advance(5.1)

        def channel_pings() -> list[FakeMessage]:
            return [
                m
                for m in fake.channel_messages(world.channel, include_deleted=True)
                if m.content.startswith(PING_MARK)
            ]

        (ping,) = await eventually(channel_pings, what="the mention")
        assert f"<@{other}>" in ping.content
        assert fake.notified(ping) == {other}  # nobody else is ever mentioned
        assert not pings(world, by_id[other])  # not a DM as well
    assert_all_acknowledged(world)


async def test_item3_settings_turn_ping_is_the_members_own_and_kept(world: World) -> None:
    fake = world.fake
    async with table_bot(world) as bot:
        shown = await (await fake.invoke(world.bob, world.channel, "settings")).response()
        assert shown.ephemeral and "Your turn ping: **dm**" in shown.content  # the default
        done = await (
            await fake.invoke(world.bob, world.channel, "settings", {"turn_ping": "mention"})
        ).response()
        assert done.ephemeral and done.content.startswith("Saved. Your turn ping: **mention**")
        again = await (await fake.invoke(world.bob, world.channel, "settings")).response()
        assert "**mention**" in again.content
        other = await (await fake.invoke(world.carol, world.channel, "settings")).response()
        assert "**dm**" in other.content  # each member's own
        async with bot.store.read() as tx:
            assert (await tx.member_settings(world.guild.id, world.bob.id)).turn_ping == "mention"
    assert_all_acknowledged(world)


# ----------------------------------------------------------------------------- item 4


async def test_item4_sit_out_two_hands_and_back_posting_the_owed_blind(world: World) -> None:
    clock = virtual()
    players = [world.alice, world.bob, world.carol, world.dave]
    by_id = {u.id: u for u in players}
    async with table_bot(world, clock=clock, sleep=clock.sleep, autostart_delay=1) as bot:
        tid, _ = await open_table(world, "holdem", {}, players)
        await press(world, bot, tid, world.alice, "Start")
        paid = await blinds_of(bot, tid, 1)
        big = next(u for u, a in paid.items() if a == 10)
        seats = sorted((await service(bot).view(tid)).seats, key=lambda s: s.seat)
        k = next(i for i, s in enumerate(seats) if s.user_id == big)
        sitter = by_id[seats[(k + 1) % 4].user_id]  # the next big blind
        reply = await dm_press(world, sitter, "Sit out next hand")
        assert reply.updated_message
        assert "I'm back" in [b["label"] for b in hand_dm(world, sitter).buttons()]
        await fold_out(world, bot, tid)
        for number in (2, 3):
            await next_hand(bot, clock, tid)
            assert (await service(bot).view(tid)).hand_number == number
            assert sitter.id not in await blinds_of(bot, tid, number)
            await fold_out(world, bot, tid)
        reply = await dm_press(world, sitter, "I'm back")
        assert reply.updated_message
        view = await service(bot).view(tid)
        assert view.seat_of(sitter.id).blind == "wait"  # the big blind passed them
        await press(world, bot, tid, sitter, "Post big blind")
        await next_hand(bot, clock, tid)
        assert (await blinds_of(bot, tid, 4))[sitter.id] == 10
        async with bot.store.read() as tx:
            wallet = await tx.wallet(world.guild.id, sitter.id)
        view = await service(bot).view(tid)
        seat = view.seat_of(sitter.id)
        assert seat is not None and wallet.balance == seat.stack  # the blind is in the pot
        await ledger_matches(bot, world)
    assert_all_acknowledged(world)


# ----------------------------------------------------------------------------- item 5


async def test_item5_table_stakes_from_the_next_hand_only_seat_and_rules(world: World) -> None:
    clock = virtual()
    fake = world.fake
    players = [world.alice, world.bob]
    async with table_bot(world, clock=clock, sleep=clock.sleep, autostart_delay=1) as bot:
        tid, _ = await open_table(world, "holdem", {"time_bank": 45, "sit_out_hands": 4}, players)
        await press(world, bot, tid, world.alice, "Start")
        refused = await (
            await fake.invoke(
                world.bob, world.channel, "table", {"big_blind": 20}, subcommand="stakes"
            )
        ).response()
        assert refused.ephemeral and refused.content.endswith("Nothing changed.")
        said = await (
            await fake.invoke(
                world.alice,
                world.channel,
                "table",
                {"small_blind": 10, "big_blind": 20},
                subcommand="stakes",
            )
        ).response()
        assert not said.ephemeral  # announced at once, to the channel
        assert "from the next hand (hand 2): small blind 10, big blind 20" in said.content
        table = await table_message(world, bot, tid)
        assert (
            "Stakes from the next hand: small blind 10, big blind 20"
            in table.embeds[0]["description"]
        )
        await fold_out(world, bot, tid)
        assert sorted((await blinds_of(bot, tid, 1)).values()) == [5, 10]
        await next_hand(bot, clock, tid)
        assert sorted((await blinds_of(bot, tid, 2)).values()) == [10, 20]
        # the host seats a late player: they wait for the big blind
        seated = await (
            await fake.invoke(
                world.alice, world.channel, "table", {"member": world.carol}, subcommand="seat"
            )
        ).response()
        assert "is seated at table" in seated.content and "wait for the big blind" in seated.content
        assert (await service(bot).view(tid)).seat_of(world.carol.id) is not None
        # every option, one message, only to the asker
        shown = await (
            await fake.invoke(world.bob, world.channel, "table", subcommand="rules")
        ).response()
        assert shown.ephemeral and len(shown.embeds) == 1
        text = str(shown.embeds[0])
        for name in (
            "`big_blind` **20**",
            "`time_bank` **45**",
            "`sit_out_hands` **4**",
            "`betting`",
        ):
            assert name in text, name
        await ledger_matches(bot, world)
    assert_all_acknowledged(world)


async def test_item3_the_previous_ping_is_deleted_also_after_a_restart(world: World) -> None:
    clock = virtual()
    players = [world.alice, world.bob]
    by_id = {u.id: u for u in players}
    async with table_bot(world, clock=clock, sleep=clock.sleep, autostart_delay=60) as bot:
        tid, _ = await open_table(world, "holdem", {"betting": "fixed-limit"}, players)
        await press(world, bot, tid, world.alice, "Start")
        first = by_id[await to_act(bot, tid)]
        other = world.bob if first is world.alice else world.alice
        await check_or_call(world, bot, tid, first)
        await ping_waits(bot, clock)
        clock.advance(5.1)
        (ping,) = await eventually(lambda: pings(world, other), what="the first ping")
    # the bot restarts; the ping's id was stored: the next ping replaces it
    async with table_bot(world, clock=clock, sleep=clock.sleep, autostart_delay=60) as bot:
        # the big blind checks, acts first on the flop (no ping: after its own action),
        # then the button acts: the big blind's turn on the turn comes after another's
        for user in (other, other, first):
            assert await to_act(bot, tid) == user.id
            await check_or_call(world, bot, tid, user)
        assert await to_act(bot, tid) == other.id
        await ping_waits(bot, clock)
        clock.advance(5.1)
        await eventually(
            lambda: len(pings(world, other, include_deleted=True)) == 2, what="the second ping"
        )
        await eventually(lambda: world.fake.messages[ping.id].deleted, what="the first deleted")
        assert len(pings(world, other)) == 1
    assert_all_acknowledged(world)
