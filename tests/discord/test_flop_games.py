"""Hold'em and Omaha through the fake Discord (issue 13): the real bot, service and store.

A no-limit Hold'em hand where a raise amount is typed in the Bet/Raise modal, a short stack
goes all in with its amount button and the two others bet on into a side pot, to the
showdown; a pot-limit Omaha hand where a too-large raise is refused with the legal range,
nothing changes, and the turn's timer still fires. After each the wallets match the
table and the ledger, and the audit holds."""

from __future__ import annotations

import re
import time

from bot.app import HomeGameBot
from bot.testing import FakeMessage, FakeUser
from bot.testing.clock import VirtualClock
from tests.discord.conftest import World
from tests.discord.privacy import PrivacyRecorder, assert_private
from tests.discord.tablebot import (
    assert_all_acknowledged,
    eventually,
    field,
    footer_state,
    table_bot,
)
from tests.discord.test_razz_table import enabled, short_stack

SHORT = 300
"""Carol's chips in the Hold'em hand: she goes all in before the flop."""


async def open_table(
    world: World, command: str, options: dict, players: list[FakeUser]
) -> FakeMessage:
    fake = world.fake
    reply = await (await fake.invoke(players[0], world.channel, command, options)).response()
    table = reply.message
    assert table is not None and not reply.ephemeral
    for user in players[1:]:
        assert (await (await fake.click_label(user, table, "Join")).response()).updated_message
    return table


async def amounts(world: World, user: FakeUser, table: FakeMessage, label: str) -> FakeMessage:
    """Press Bet/Raise on the table message: the clicker alone gets the amount buttons."""
    reply = await (await world.fake.click_label(user, table, label)).response()
    assert reply.ephemeral and reply.message is not None, reply.content
    assert "how much?" in reply.content
    return reply.message


async def type_amount(world: World, user: FakeUser, menu: FakeMessage, amount: str) -> str:
    """**Other amount…**, then type ``amount`` in the modal; the bot's answer."""
    fake = world.fake
    opened = await fake.click_label(user, menu, "Other amount…")
    shown = await opened.response()
    assert shown.callback_type == 9 and shown.modal is not None  # a modal, nothing else
    submitted = await fake.submit_modal(user, opened, {"amount": amount})
    return (await submitted.response()).content


async def wallets_match_the_table(bot: HomeGameBot, world: World, table_id: int) -> None:
    service = bot.service
    assert service is not None
    view = await service.view(table_id)
    async with bot.store.read() as tx:
        for seat in view.seats:
            wallet = await tx.wallet(world.guild.id, seat.user_id)
            assert wallet.balance == seat.stack, (seat.name, wallet.balance, seat.stack)
    report = await bot.store.audit(world.guild.id)
    assert report.ok, report.format()


async def test_no_limit_holdem_typed_raise_all_in_and_side_pot_to_showdown(world: World) -> None:
    fake = world.fake
    players = [world.alice, world.bob, world.carol]
    by_id = {u.id: u for u in players}
    recorder = PrivacyRecorder(clock=fake.clock)
    async with table_bot(world, autostart_delay=30, relay=recorder) as bot:
        service = bot.service
        assert service is not None
        table = await open_table(world, "holdem", {}, players)
        rules = field(table, "House rules") or ""
        assert "Betting: **no-limit**" in rules and "Big blind: **10**" in rules
        view = await service.table_in_channel(world.channel.id)
        assert view is not None
        tid = view.table_id
        await short_stack(bot, world, world.carol, SHORT)
        await (await fake.click_label(world.alice, table, "Start")).response()
        typed = shoved = bet = False
        clicks = 0
        while True:
            view = await service.view(tid)
            if view.hand_number != 1 or not view.to_act_user_ids:
                break
            (uid,) = view.to_act_user_ids
            user = by_id[uid]
            await eventually(lambda v=view: footer_state(table) == v.version, what="table")
            can = enabled(table)
            raise_opt = next((o for o in view.public_actions if o.kind == "raise"), None)
            if user is world.carol and "Raise" in can and not shoved:
                menu = await amounts(world, user, table, "Raise")
                label = next(b["label"] for b in menu.buttons() if "all-in" in b["label"].lower())
                done = await (await fake.click_label(user, menu, str(label))).response()
                assert done.content == f"You raise to {SHORT}.", done.content
                shoved = True
            elif user is not world.carol and not typed and "Raise" in can and raise_opt:
                assert raise_opt.to is not None
                menu = await amounts(world, user, table, "Raise")
                # the named amounts, each within the legal range, and a typed one
                labels = [str(b["label"]) for b in menu.buttons()]
                assert labels[0].startswith("Min: ") and labels[-1] == "Other amount…"
                want = raise_opt.to + 15  # not one of the named amounts
                answer = await type_amount(world, user, menu, f"{want}")
                assert answer == f"You raise to {want}.", answer
                typed = True
            elif view.phase == "the flop" and not bet and "Bet" in can:
                menu = await amounts(world, user, table, "Bet")
                labels = [str(b["label"]) for b in menu.buttons()]
                half = next(x for x in labels if x.startswith(("½ pot: ", "Min: ")))
                done = await (await fake.click_label(user, menu, half)).response()
                assert done.content.startswith("You bet "), done.content
                bet = True
            else:
                label = next(x for x in ("Call", "Check") if x in can)
                assert (
                    await (await fake.click_label(user, table, label)).response()
                ).updated_message
            clicks += 1
            assert clicks < 40, "the hand does not end"
        assert typed and shoved and bet

        async with bot.store.read() as tx:
            (hand,) = await tx.hands(tid)
            carol = await tx.wallet(world.guild.id, world.carol.id)
        assert hand.status == "finished" and hand.result["showdown"] is True
        assert len(hand.result["board"]) == 5
        assert "variant = 'NT'" in hand.history
        # the showdown post names the main pot (all three) and the side pot (Alice, Bob)
        result = await eventually(
            lambda: [m for m in fake.channel_messages(world.channel) if "Main pot:" in m.content],
            what="the showdown result",
        )
        text = result[-1].content
        assert f"Main pot: {3 * SHORT} (" in text and "side pot 1: " in text, text
        side = re.search(r"side pot 1: \d+ \(([^)]*)\)", text)
        assert side is not None and "carol" not in side[1] and "alice" in side[1], text
        assert text.startswith("Board: ")
        seats = {s.user_id: str(s.seat) for s in (await service.view(tid)).seats}
        carol_won = sum(p["shares"].get(seats[world.carol.id], 0) for p in hand.result["pots"])
        assert carol.balance == carol_won
        await eventually(lambda: "Board: " in table.embeds[0].get("description", ""))
        await wallets_match_the_table(bot, world, tid)
    # nobody saw another player's hole cards before the showdown (DMs, ephemerals, table)
    assert_private(fake, recorder, [*players, world.dave, world.outsider])
    assert assert_all_acknowledged(world) >= clicks


async def test_pot_limit_omaha_refuses_a_raise_over_the_pot_and_the_timer_still_fires(
    world: World,
) -> None:
    fake = world.fake
    players = [world.alice, world.bob, world.carol]
    by_id = {u.id: u for u in players}
    clock = VirtualClock(time.time())  # the 10-second window runs out when the test says
    async with table_bot(world, autostart_delay=30, clock=clock, sleep=clock.sleep) as bot:
        service = bot.service
        assert service is not None
        # no time bank (issue 22): the turn's timer fires when the 10 seconds run out
        table = await open_table(world, "omaha", {"decision_seconds": 10, "time_bank": 0}, players)
        assert "Betting: **pot-limit**" in (field(table, "House rules") or "")
        await (await fake.click_label(world.bob, table, "Start")).response()
        view = await service.table_in_channel(world.channel.id)
        assert view is not None
        tid = view.table_id
        (uid,) = view.to_act_user_ids
        actor = by_id[uid]
        await eventually(lambda: footer_state(table) == view.version, what="table")
        menu = await amounts(world, actor, table, "Raise")
        # first to act, blinds 5 and 10 in: a pot-sized raise is to 35
        assert "Raise to between 20 and 35" in (await _content(menu))
        answer = await type_amount(world, actor, menu, "500")
        assert answer == "Raise to between 20 and 35: 500 is not allowed. Nothing changed."
        after = await service.view(tid)
        assert after.version == view.version and after.to_act_user_ids == {uid}
        assert after.deadline == view.deadline and after.pot == 15
        # the refusal kept the turn's timer: it runs out and the table folds for them
        clock.advance(10)  # the whole window, not a second more
        await eventually(
            lambda: any(f"{actor.name} folds (timed out)" in r for r in table_recent(table)),
            what="the timeout",
        )
        view = await service.view(tid)
        assert uid not in view.to_act_user_ids
        clicks = 0
        while view.hand_number == 1 and view.to_act_user_ids:
            (nxt,) = view.to_act_user_ids
            await eventually(lambda v=view: footer_state(table) == v.version, what="table")
            label = next(x for x in ("Check", "Call") if x in enabled(table))
            await (await fake.click_label(by_id[nxt], table, label)).response()
            view = await service.view(tid)
            clicks += 1
            assert clicks < 20
        async with bot.store.read() as tx:
            (hand,) = await tx.hands(tid)
        assert hand.status == "finished" and "variant = 'PO'" in hand.history
        await wallets_match_the_table(bot, world, tid)
    assert_all_acknowledged(world)


async def _content(message: FakeMessage) -> str:
    return message.latest.content


def table_recent(table: FakeMessage) -> list[str]:
    return (field(table, "Recent") or "").splitlines()
