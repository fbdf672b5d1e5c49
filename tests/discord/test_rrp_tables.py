"""Robert's Rules of Poker at the table, as users meet them through the fake Discord (the
real bot, service and store; issue 18 item 7, issue 19 item 17):

- a hand nobody could finish: with ``ante: 0`` everyone folds to the bring-in (Razz, Stud,
  a dealer's-choice Razz), and heads-up Hold'em with ``small_blind: 0`` the small blind
  folds; the hand ends (the uncalled forced bet goes back), the next hand is dealt;
- a player who sits down mid-session waits for the big blind or posts one with the table
  message's **Post big blind** / **Wait for big blind** buttons;
- a shrinking Hold'em table where nobody posts the big blind twice.

After each: the wallets match the table, the ledger and the audit.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Callable

import pytest

from bot.app import HomeGameBot
from bot.testing import FakeMessage, FakeUser
from tests.discord.conftest import World
from tests.discord.tablebot import eventually, footer_state, table_bot
from tests.discord.test_flop_games import open_table, wallets_match_the_table
from tests.discord.test_razz_table import enabled

ZERO_CHIP = "a chip move is a non-zero whole number"


async def _table_id(bot: HomeGameBot, world: World) -> int:
    assert bot.service is not None
    view = await bot.service.table_in_channel(world.channel.id)
    assert view is not None
    return view.table_id


async def _click_until(
    world: World,
    bot: HomeGameBot,
    table: FakeMessage,
    tid: int,
    players: list[FakeUser],
    pick: Callable[[FakeUser, list[str]], str],
    *,
    until: Callable[[object], bool],
) -> int:
    """Click the table message's buttons as the player to act, ``pick`` choosing the label,
    until ``until(view)``; returns the clicks made."""
    service = bot.service
    assert service is not None
    by_id = {u.id: u for u in players}
    clicks = 0
    while True:
        view = await service.view(tid)
        if until(view):
            return clicks
        if not view.to_act_user_ids:
            await asyncio.sleep(0.02)  # the next hand is being dealt
            continue
        (uid,) = view.to_act_user_ids
        await eventually(lambda v=view: footer_state(table) == v.version, what="table message")
        label = pick(by_id[uid], enabled(table))
        reply = await (await world.fake.click_label(by_id[uid], table, label)).response()
        assert reply.updated_message, reply.content
        clicks += 1
        assert clicks < 80, "the hands do not end"


def _no_zero_chip_refusal(world: World) -> None:
    texts = [m.content for m in world.fake.channel_messages(world.channel)]
    texts += [str(e) for m in world.fake.channel_messages(world.channel) for e in m.embeds]
    assert not any(ZERO_CHIP in t for t in texts)


@pytest.mark.parametrize(
    ("command", "options"),
    [
        ("razz", {"ante": 0}),
        ("stud", {"ante": 0}),
        ("dealers-choice", {"games": "razz", "ante": 0}),
    ],
    ids=["razz", "stud", "dealers-choice-razz"],
)
async def test_ante_zero_everyone_folds_to_the_bring_in_the_hand_ends_and_the_next_is_dealt(
    world: World, command: str, options: dict[str, object]
) -> None:
    players = [world.alice, world.bob, world.carol]
    async with table_bot(world, autostart_delay=0.3) as bot:
        table = await open_table(world, command, options, players)
        tid = await _table_id(bot, world)
        await (await world.fake.click_label(world.alice, table, "Start")).response()

        def fold_to_the_bring_in(user: FakeUser, labels: list[str]) -> str:
            return "Bring in" if "Bring in" in labels else "Fold"

        await _click_until(
            world,
            bot,
            table,
            tid,
            players,
            fold_to_the_bring_in,
            until=lambda v: v.hand_number >= 2 and bool(v.to_act_user_ids),  # type: ignore[attr-defined]
        )
        # hand 1 ended: the bring-in's uncalled chips went back, no chip changed hands
        result = await eventually(
            lambda: [
                m
                for m in world.fake.channel_messages(world.channel)
                if "Everyone else folded:" in m.content
            ],
            what="hand 1's result",
        )
        assert "takes back their uncalled" in result[0].content
        assert "no chip changed hands" in result[0].content
        assert bot.service is not None
        async with bot.store.read() as tx:
            hands = await tx.hands(tid)
            wallets = [(await tx.wallet(world.guild.id, u.id)).balance for u in players]
        assert hands[0].status == "finished" and hands[1].status != "voided"
        view = await bot.service.view(tid)
        # hand 2 is being played: the wallets are 1,000 less what it took so far
        assert sum(wallets) + view.pot == 3000
        await wallets_match_the_table(bot, world, tid)
        _no_zero_chip_refusal(world)


async def test_small_blind_zero_heads_up_small_blind_folds_and_the_next_hand_is_dealt(
    world: World,
) -> None:
    players = [world.alice, world.bob]
    async with table_bot(world, autostart_delay=0.3) as bot:
        table = await open_table(world, "holdem", {"small_blind": 0}, players)
        tid = await _table_id(bot, world)
        await (await world.fake.click_label(world.alice, table, "Start")).response()
        await _click_until(
            world,
            bot,
            table,
            tid,
            players,
            lambda user, labels: "Fold",
            until=lambda v: v.hand_number >= 3,  # type: ignore[attr-defined]
        )
        async with bot.store.read() as tx:
            hands = await tx.hands(tid)
        assert [h.status for h in hands[:2]] == ["finished", "finished"]
        assert all(h.result["pots"][0]["amount"] == 0 for h in hands[:2])
        await wallets_match_the_table(bot, world, tid)
        _no_zero_chip_refusal(world)


# ------------------------------------------------------------ the big blind (item 7)


def _fold_to_the_big_blind(user: FakeUser, labels: list[str]) -> str:
    return "Fold" if "Call" in labels else "Check"


async def _big_blinds(bot: HomeGameBot, world: World, tid: int) -> list[int]:
    """Who posted the big blind (10) in each hand, by the ledger."""
    async with bot.store.read() as tx:
        hands = await tx.hands(tid)
        entries = await tx.entries(table_id=tid, kind="blind")
        accounts = {
            (await tx.wallet(world.guild.id, u.id)).id: u.id
            for u in [world.alice, world.bob, world.carol, world.dave]
        }
    out = []
    for h in hands:
        bigs = [accounts[e.from_account] for e in entries if e.hand_id == h.id and e.amount == 10]
        out.append(bigs[0] if len(bigs) == 1 else -1)
    return out


async def test_shrinking_table_nobody_posts_the_big_blind_twice(world: World) -> None:
    """Three players; during each of the first two hands one of them presses Leave (the
    button, then the next): they leave after the hand. The big blind moves on each hand."""
    players = [world.alice, world.bob, world.carol, world.dave]
    async with table_bot(world, autostart_delay=0.3) as bot:
        service = bot.service
        assert service is not None
        table = await open_table(world, "holdem", {}, players)
        tid = await _table_id(bot, world)
        await (await world.fake.click_label(world.alice, table, "Start")).response()
        by_id = {u.id: u for u in players}
        for hand in (1, 2):
            view = await service.view(tid)
            assert view.hand_number == hand
            button = next(s for s in view.seats if s.seat == view.dealer_seat)
            leaver = by_id[button.user_id]
            reply = await (await world.fake.click_label(leaver, table, "Leave")).response()
            assert reply.updated_message
            players = [p for p in players if p is not leaver]
            await _click_until(
                world,
                bot,
                table,
                tid,
                players,
                _fold_to_the_big_blind,
                until=lambda v, n=hand: v.hand_number > n,  # type: ignore[attr-defined]
            )
        # two players are left: they play heads-up
        await _click_until(
            world,
            bot,
            table,
            tid,
            players,
            _fold_to_the_big_blind,
            until=lambda v: v.hand_number > 4,  # type: ignore[attr-defined]
        )
        bigs = await _big_blinds(bot, world, tid)
        assert -1 not in bigs[:4]
        assert all(a != b for a, b in itertools.pairwise(bigs[:5])), bigs
        await wallets_match_the_table(bot, world, tid)


async def test_player_joining_mid_session_posts_or_waits_with_the_buttons(world: World) -> None:
    players = [world.alice, world.bob, world.carol]
    async with table_bot(world, autostart_delay=0.3) as bot:
        service = bot.service
        assert service is not None
        table = await open_table(world, "holdem", {}, players)
        tid = await _table_id(bot, world)
        assert "Post big blind" not in [b["label"] for b in table.buttons()]
        await (await world.fake.click_label(world.alice, table, "Start")).response()
        # hand 1: Dave sits down; he waits for the big blind, and the buttons offer both
        reply = await (await world.fake.click_label(world.dave, table, "Join")).response()
        assert reply.updated_message
        view = await service.view(tid)
        dave = view.seat_of(world.dave.id)
        assert dave is not None and dave.blind == "wait"
        await eventually(
            lambda: (
                {"Post big blind", "Wait for big blind"} <= {b["label"] for b in table.buttons()}
            ),
            what="the blind buttons",
        )
        assert "waits for the big blind" in str(table.embeds[0])
        # a player already dealt in is told why not; nothing changes
        refused = await (
            await world.fake.click_label(world.bob, table, "Post big blind")
        ).response()
        assert refused.ephemeral and "already dealt in" in refused.content
        refused = await (
            await world.fake.click_label(world.dave, table, "Wait for big blind")
        ).response()
        assert refused.ephemeral and "already wait for the big blind" in refused.content
        # Dave posts: he plays the next hand
        done = await (await world.fake.click_label(world.dave, table, "Post big blind")).response()
        assert done.updated_message
        assert (await service.view(tid)).seat_of(world.dave.id).blind == "post"  # type: ignore[union-attr]
        players = [*players, world.dave]
        await _click_until(
            world,
            bot,
            table,
            tid,
            players,
            _fold_to_the_big_blind,
            until=lambda v: v.hand_number >= 2,  # type: ignore[attr-defined]
        )
        view = await service.view(tid)
        dave = view.seat_of(world.dave.id)
        assert dave is not None and dave.blind is None and dave.status != "waits_for_big_blind"
        async with bot.store.read() as tx:
            hand2 = (await tx.hands(tid))[1]
            entries = await tx.entries(table_id=tid, kind="blind")
            wallet = await tx.wallet(world.guild.id, world.dave.id)
        posted = [
            e.amount for e in entries if e.hand_id == hand2.id and e.from_account == wallet.id
        ]
        assert posted == [10]  # his post (or the big blind itself): 10 by the ledger
        await eventually(
            lambda: "Post big blind" not in {b["label"] for b in table.buttons()},
            what="the buttons gone once nobody waits",
        )
        await wallets_match_the_table(bot, world, tid)


async def test_rules_holdem_states_robert_s_rules_in_two_messages(world: World) -> None:
    """``/rules holdem`` shows every rule of issue 18 (6.6, 6.7, 6.11, 6.14), across two
    ephemeral messages: Discord takes at most 6,000 characters of embeds in one."""
    async with table_bot(world):
        rec = await world.fake.invoke(world.bob, world.channel, "rules", subcommand="holdem")
        first = await rec.response()
        more = await rec.followup(0)
        assert first.ephemeral and more.flags & 64  # the follow-up is ephemeral too
        text = " ".join(
            str(f.get("value"))
            for message in (first.message, more)
            for embed in message.embeds  # type: ignore[union-attr]
            for f in embed.get("fields", ())
        )
        for words in (
            "the blind and three raises",
            "the raising has no cap",
            "the others still owe the full big blind",
            "**Fixed limit: the half-bet rule**",
            "**No-limit and pot-limit: the full-raise rule**",
            "**Each pot is split on its own**",
            "**The dead button** (Robert's Rules of Poker's rule",
            "**Post big blind**",
            "even when checking is free",
        ):
            assert words in text, words
