"""Razz through the fake Discord (RULES §4): the real bot, service and store, three users
betting with the table message's buttons. A short stack goes all in, the other two keep
betting into a side pot, the hand goes to showdown; the ledger pays each pot to its
winners, the audit holds, nobody saw a down card of anyone else before the showdown, and
every click was acknowledged within Discord's 3 seconds. Then the same with Discord
misbehaving (429, 5xx, a gateway drop)."""

from __future__ import annotations

import asyncio
from collections import defaultdict
from typing import Any

from bot.app import HomeGameBot
from bot.tables.views import TableView
from bot.testing import FakeMessage, FakeUser
from tests.discord.conftest import World
from tests.discord.privacy import PrivacyRecorder, assert_private
from tests.discord.tablebot import (
    assert_all_acknowledged,
    eventually,
    field,
    footer_state,
    hand_dm,
    table_bot,
)

STAKES = {"ante": 1, "bring_in": 2, "small_bet": 4, "big_bet": 8}
SHORT_STACK = 7
"""Carol's chips: ante 1 + bring-in or call 2 on 3rd street + a 4-chip bet on 4th = all in."""

POLICY = {
    # alice bets whenever she may (so betting goes on after carol is all in); the others call
    "alice": ("Bet", "Call", "Check", "Bring in"),
    "bob": ("Call", "Check", "Bring in"),
    "carol": ("Call", "Check", "Bring in"),
}


async def open_razz(world: World, players: list[FakeUser]) -> tuple[FakeMessage, int]:
    fake = world.fake
    reply = await (await fake.invoke(players[0], world.channel, "razz", STAKES)).response()
    table = reply.message
    assert table is not None and not reply.ephemeral
    assert "Small bet (3rd and 4th street): **4**" in (field(table, "House rules") or "")
    for user in players[1:]:
        assert (await (await fake.click_label(user, table, "Join")).response()).updated_message
    return table, footer_state(table)


async def start_razz(
    world: World, bot: HomeGameBot, players: list[FakeUser]
) -> tuple[FakeMessage, TableView, FakeUser]:
    """Open a Razz table with ``players``, start hand 1: the table message, its view and
    the player to act first (the bring-in, RULES §4.5)."""
    table, _ = await open_razz(world, players)
    await (await world.fake.click_label(players[0], table, "Start")).response()
    assert bot.service is not None
    view = await bot.service.table_in_channel(world.channel.id)
    assert view is not None and view.to_act_user_ids
    (first_id,) = view.to_act_user_ids
    return table, view, next(u for u in players if u.id == first_id)


async def short_stack(bot: HomeGameBot, world: World, user: FakeUser, chips: int) -> None:
    """An admin takes chips from ``user`` (a ledger entry) so they hold exactly ``chips``."""
    async with bot.store.transaction() as tx:
        wallet = await tx.wallet(world.guild.id, user.id)
        await tx.take(
            world.guild.id,
            user.id,
            wallet.balance - chips,
            actor_id=world.alice.id,
            reason="test: a short stack",
        )


def enabled(table: FakeMessage) -> list[str]:
    return [str(b["label"]) for b in table.buttons() if not b.get("disabled")]


async def play_razz_hand(world: World, bot: HomeGameBot, table: FakeMessage, tid: int) -> int:
    """Click through hand 1 with :data:`POLICY` until it is over; returns the clicks made."""
    service = bot.service
    assert service is not None
    by_id = {u.id: u for u in world.players}
    clicks = 0
    while True:
        view = await service.view(tid)
        if view.hand_number != 1 or not view.to_act_user_ids:
            return clicks
        (uid,) = view.to_act_user_ids
        user = by_id[uid]
        # the clicker sees the state they act on: the table message is up to date
        await eventually(lambda v=view: footer_state(table) == v.version, what="table message")
        label = next(x for x in POLICY[user.name] if x in enabled(table))
        reply = await (await world.fake.click_label(user, table, label)).response()
        assert reply.updated_message, reply.content
        clicks += 1
        assert clicks < 60, "the hand does not end"


async def hand_one(bot: HomeGameBot, tid: int) -> tuple[Any, dict[int, int]]:
    async with bot.store.read() as tx:
        hand = (await tx.hands(tid))[0]
    service = bot.service
    assert service is not None
    seats = {s.seat: s.user_id for s in (await service.view(tid)).seats}
    return hand, seats


async def test_rule_4_7_razz_short_stack_all_in_side_pot_to_showdown(world: World) -> None:
    fake = world.fake
    players = [world.alice, world.bob, world.carol]
    recorder = PrivacyRecorder(clock=fake.clock)
    async with table_bot(world, autostart_delay=30, relay=recorder) as bot:
        table, _ = await open_razz(world, players)
        view = await bot.service.table_in_channel(world.channel.id)  # type: ignore[union-attr]
        assert view is not None
        tid = view.table_id
        await short_stack(bot, world, world.carol, SHORT_STACK)
        await (await fake.click_label(world.bob, table, "Start")).response()
        # RULES §4.4: two down cards and one up card, the down ones by DM only
        for user in players:
            await eventually(
                lambda u=user: (field(hand_dm(world, u), "Down (only you)") or "—") != "—",
                what=f"{user.name}'s down cards",
            )
        clicks = await play_razz_hand(world, bot, table, tid)
        assert clicks >= 8

        hand, seats = await hand_one(bot, tid)
        assert hand.status == "finished" and hand.result["showdown"] is True
        pots = hand.result["pots"]
        carol_seat = next(s for s, u in seats.items() if u == world.carol.id)
        assert len(pots) == 2, pots
        main, side = pots
        # the main pot: 3 x (ante 1 + 2 + 4) = the short stack's whole contribution, thrice
        assert main["amount"] == 3 * SHORT_STACK
        assert side["amount"] > 0 and carol_seat not in side["winners"]

        # the ledger pays each winner exactly their shares of both pots
        shares: dict[int, int] = defaultdict(int)
        for pot in pots:
            for seat, amount in pot["shares"].items():
                shares[seats[int(seat)]] += amount
        async with bot.store.read() as tx:
            awards = await tx.entries(hand_id=hand.id, kind="award")
            paid: dict[int, int] = defaultdict(int)
            for entry in awards:
                owner = (await tx.account(entry.to_account)).user_id
                assert owner is not None
                paid[owner] += entry.amount
            carol = await tx.wallet(world.guild.id, world.carol.id)
        assert dict(paid) == dict(shares)
        assert sum(paid.values()) == main["amount"] + side["amount"]
        assert carol.balance == shares.get(world.carol.id, 0)
        report = await bot.store.audit(world.guild.id)
        assert report.ok, report.format()

        # the showdown is posted in the channel with every shown hand
        result = await eventually(
            lambda: [m for m in fake.channel_messages(world.channel) if " wins " in m.content],
            what="the showdown result",
        )
        assert all(user.name in result[-1].content for user in players)
    assert_private(fake, recorder, [*players, world.dave, world.outsider])
    assert assert_all_acknowledged(world) >= clicks + 4


async def test_razz_rate_limits_server_errors_and_gateway_drop_mid_hand_it_finishes(
    world: World,
) -> None:
    fake = world.fake
    players = [world.alice, world.bob, world.carol]
    async with table_bot(world, autostart_delay=30) as bot:
        table, _ = await open_razz(world, players)
        view = await bot.service.table_in_channel(world.channel.id)  # type: ignore[union-attr]
        assert view is not None
        tid = view.table_id
        await short_stack(bot, world, world.carol, SHORT_STACK)
        await (await fake.click_label(world.alice, table, "Start")).response()
        await eventually(lambda: all(hand_dm(world, u).embeds for u in players))
        # DM edits get a 429 then a 502; the next click's answer a 502 (retried after 1 s)
        limited = fake.inject(r"^PATCH /channels/\d+/messages/\d+$", status=429, retry_after=0.05)
        broken = fake.inject(r"^PATCH /channels/\d+/messages/\d+$", status=502)
        answer = fake.inject(r"^POST /interactions/\d+/[^/]+/callback$", status=502)
        await fake.drop_gateway()
        await fake.wait_gateway_ready()
        await play_razz_hand(world, bot, table, tid)
        hand, _ = await hand_one(bot, tid)
        assert hand.status == "finished"
        await eventually(
            lambda: [m for m in fake.channel_messages(world.channel) if " wins " in m.content],
            what="the showdown result",
        )
        assert limited.hits >= 1 and broken.hits >= 1 and answer.hits == 1
        assert fake.resumes == 1
        assert (await bot.store.audit(world.guild.id)).ok
    assert_all_acknowledged(world)


async def test_razz_click_is_acknowledged_before_its_commit_and_a_doubled_one_is_refused_once(
    world: World,
) -> None:
    """DESIGN "Reliability rules": a click is acknowledged first (a deferred update, within
    Discord's 3 seconds whatever the database does), then the clicked table message is
    edited through the interaction; two presses of the same Razz button at once apply
    once, the other gets its reason as an ephemeral follow-up."""
    fake = world.fake
    players = [world.alice, world.bob]
    async with table_bot(world, autostart_delay=30) as bot:
        table, view, user = await start_razz(world, bot, players)
        service = bot.service
        assert service is not None
        await eventually(lambda: footer_state(table) == view.version, what="table message")
        label = next(x for x in ("Bring in", "Call", "Check") if x in enabled(table))
        custom_id = str(table.button(label)["custom_id"])
        first, second = [
            await r
            for r in [
                asyncio.ensure_future(fake.click(user, table, custom_id)),
                asyncio.ensure_future(fake.click(user, table, custom_id)),
            ]
        ]
        replies = [await first.response(), await second.response()]
        assert sorted(r.updated_message for r in replies) == [False, True], replies
        applied = next(r for r in replies if r.updated_message)
        refused = next(r for r in replies if not r.updated_message)
        # the applied one: a deferred update, then the message edited through the interaction
        assert applied.callback_type == 6 and footer_state(table) > view.version
        token = (first if replies[0] is applied else second).token
        assert any(
            r.method == "PATCH" and token in r.path and r.path.endswith("/messages/@original")
            for r in fake.requests
        )
        assert refused.callback_type == 6 and refused.via_followup and refused.ephemeral
        assert refused.content and not refused.content.startswith("Sorry"), refused.content
        after = await service.view(view.table_id)
        assert after.version == view.version + 1  # applied once
        report = await bot.store.audit(world.guild.id)
        assert report.ok, report.format()
    assert_all_acknowledged(world)
