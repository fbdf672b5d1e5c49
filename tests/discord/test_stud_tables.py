"""Seven-card Stud and Stud Hi-Lo through the fake Discord (issue 13): the real bot, service
and store. ``/stud split:hi-lo`` opens a table, three users play a hand to a split pot with
the table message's buttons (the cards chosen, tests/tables/stacked.py); the result says
who took which half, the ledger pays exactly that, the balances match the ledger and the
audit holds, and nobody saw another's down card before the showdown. Then ``/rules stud``
and ``/rules compare`` for Stud Hi-Lo."""

from __future__ import annotations

from bot.app import HomeGameBot
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
from tests.tables.stacked import StackedRng, stacked_factory
from tests.tables.test_stud_tables import DRAW, SPLIT_HAND

STAKES = {"ante": 2, "bring_in": 5, "small_bet": 10, "big_bet": 20}
PASSIVE = ("Bring in", "Check", "Call")


def enabled(table: FakeMessage) -> list[str]:
    return [str(b["label"]) for b in table.buttons() if not b.get("disabled")]


async def open_stud(world: World, players: list[FakeUser], **options: object) -> FakeMessage:
    fake = world.fake
    reply = await (await fake.invoke(players[0], world.channel, "stud", options)).response()
    table = reply.message
    assert table is not None and not reply.ephemeral, reply.content
    for user in players[1:]:
        assert (await (await fake.click_label(user, table, "Join")).response()).updated_message
    return table


async def play_passively(world: World, bot: HomeGameBot, table: FakeMessage, tid: int) -> int:
    """Every player posts the bring-in, checks or calls with the buttons until hand 1 ends."""
    service = bot.service
    assert service is not None
    by_id = {u.id: u for u in world.players}
    clicks = 0
    while True:
        view = await service.view(tid)
        if view.hand_number != 1 or not view.to_act_user_ids:
            return clicks
        (uid,) = view.to_act_user_ids
        await eventually(lambda v=view: footer_state(table) == v.version, what="table message")
        label = next(x for x in PASSIVE if x in enabled(table))
        reply = await (await world.fake.click_label(by_id[uid], table, label)).response()
        assert reply.updated_message, reply.content
        clicks += 1
        assert clicks < 40, "the hand does not end"


async def test_stud_hi_lo_split_pot_through_discord_balances_match_the_ledger(
    world: World,
) -> None:
    fake = world.fake
    alice, bob, carol = players = [world.alice, world.bob, world.carol]
    recorder = PrivacyRecorder(clock=fake.clock)
    cards = stacked_factory(StackedRng(SPLIT_HAND, draw=DRAW))
    async with table_bot(world, autostart_delay=30, relay=recorder, rng_factory=cards) as bot:
        table = await open_stud(world, players, split="hi-lo", **STAKES)
        assert str(table.embeds[0]["title"]).startswith("Stud Hi-Lo — table #")
        assert "eight or better" in (field(table, "House rules") or "")
        assert bot.service is not None
        view = await bot.service.table_in_channel(world.channel.id)
        assert view is not None and view.game == "stud"
        tid = view.table_id
        await (await fake.click_label(alice, table, "Start")).response()
        for user in players:
            await eventually(
                lambda u=user: (field(hand_dm(world, u), "Down (only you)") or "—") != "—",
                what=f"{user.name}'s down cards",
            )
        assert "3♦" in (field(hand_dm(world, bob), "Up (everyone)") or "")
        clicks = await play_passively(world, bot, table, tid)
        assert clicks == 3 + 4 * 3  # 3rd street: bring-in, two calls; then three checks a street

        async with bot.store.read() as tx:
            (hand,) = await tx.hands(tid)
            results = {r.user_id: r for r in await tx.hand_results(hand.id)}
            wallets = {u.id: await tx.wallet(world.guild.id, u.id) for u in players}
            ledger = {uid: await tx.ledger_balance(w.id) for uid, w in wallets.items()}
        assert hand.status == "finished" and hand.result is not None
        (pot,) = hand.result["pots"]
        assert [(p["part"], p["amount"]) for p in pot["parts"]] == [("high", 11), ("low", 10)]
        # antes 3 x 2 + the bring-in 5 called twice = 21: Alice's full house takes the high
        # half and the odd chip (11), Bob's 7-5-3-2-A the low half (10)
        assert {u: r.net for u, r in results.items()} == {alice.id: 4, bob.id: 3, carol.id: -7}
        balances = {uid: w.balance for uid, w in wallets.items()}
        assert balances == ledger == {alice.id: 1004, bob.id: 1003, carol.id: 993}
        report = await bot.store.audit(world.guild.id)
        assert report.ok, report.format()

        result = await eventually(
            lambda: [m for m in fake.channel_messages(world.channel) if " wins " in m.content],
            what="the showdown result",
        )
        text = result[-1].content
        assert "high 11 to alice" in text and "low 10 to bob" in text, text
        assert "kings over queens" in text and "7-5-3-2-A" in text
        # the /balance each player asks for is the ledger's
        for user in players:
            reply = await (await fake.invoke(user, world.channel, "balance")).response()
            assert f"**{ledger[user.id]:,}** chips" in reply.content
    assert_private(fake, recorder, [*players, world.dave, world.outsider])
    assert assert_all_acknowledged(world) >= clicks + 4


async def test_stud_bad_stakes_refused_with_the_reason_and_no_table(world: World) -> None:
    fake = world.fake
    async with table_bot(world) as bot:
        reply = await (
            await fake.invoke(world.alice, world.channel, "stud", {"bring_in": 10})
        ).response()
        assert reply.ephemeral and "bring_in" in reply.content and "small bet" in reply.content
        assert bot.service is not None
        assert await bot.service.table_in_channel(world.channel.id) is None


async def test_rules_stud_and_compare_stud_hi_lo_both_halves(world: World) -> None:
    fake = world.fake
    async with table_bot(world):
        rec = await fake.invoke(world.bob, world.channel, "rules", subcommand="stud")
        reply = await rec.response()
        text = str(reply.embeds)
        assert reply.ephemeral
        assert "**lowest** up card brings in" in text and "eight or lower" in text
        assert "split" in text and "hi-lo" in text
        rec = await fake.invoke(
            world.carol,
            world.channel,
            "rules",
            {
                "game": "stud8",
                "hands": "Kc Ks Kd Qs Qd 9h 9c | Ac 2c 3d 5h 7s 8d Jd | Ad 2d 3h 5c 7c Jc Qh",
            },
            subcommand="compare",
        )
        content = (await rec.response()).content
        assert content.splitlines()[0].startswith("🥇 `K♣ K♠ K♦ Q♠ Q♦ 9♥ 9♣`")
        assert "Low 🥇 `A♣ 2♣ 3♦ 5♥ 7♠ 8♦ J♦`: 7-5-3-2-A" in content
        assert "Tie for low" in content


async def test_stud_pair_showing_on_4th_big_bet_button(world: World) -> None:
    """RULES 8.2: Alice's K♦ K♠ show a pair on 4th street; the table message offers **Big
    bet** beside **Bet** (the small one), and pressing it bets 20."""
    fake = world.fake
    alice, bob, carol = players = [world.alice, world.bob, world.carol]
    streets = ["6c 6d Th  Kc Qs Kd  Ac 2c 3d", "4c Ks 5h"]
    cards = stacked_factory(StackedRng(streets, draw=DRAW))
    async with table_bot(world, autostart_delay=30, rng_factory=cards) as bot:
        table = await open_stud(world, players, **STAKES)
        assert str(table.embeds[0]["title"]).startswith("Seven-card Stud — table #")
        assert bot.service is not None
        view = await bot.service.table_in_channel(world.channel.id)
        assert view is not None
        tid = view.table_id
        await (await fake.click_label(alice, table, "Start")).response()
        for user, label in ((bob, "Bring in"), (carol, "Call"), (alice, "Call")):
            view = await bot.service.view(tid)
            await eventually(lambda v=view: footer_state(table) == v.version, what="table")
            assert (await (await fake.click_label(user, table, label)).response()).updated_message
        view = await bot.service.view(tid)
        assert view.phase == "4th street" and view.to_act_user_ids == {alice.id}
        await eventually(lambda: "Big bet" in enabled(table), what="the Big bet button")
        assert "Bet" in enabled(table)
        reply = await (await fake.click_label(alice, table, "Big bet")).response()
        assert reply.updated_message, reply.content
        view = await bot.service.view(tid)
        seat = view.seat_of(alice.id)
        assert seat is not None and seat.bet == 20 and view.pot == 6 + 15 + 20
        await eventually(lambda: "Big bet" not in enabled(table), what="the button gone")
        assert (await bot.store.audit(world.guild.id)).ok
