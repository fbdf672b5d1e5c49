"""Zoot and Wheelers through the fake Discord: the real bot, service and store, four users
clicking (RULES §1): open, join, start, hands by DM, a window where everyone plays on, an
exchange by the discard menu, a showdown lost by the challenger who matches the pot, and
the next game starting with the carried pot; the ledger and the balances agree."""

from __future__ import annotations

import pytest

from bot.engine.hands import wheelers_score, zoot_score
from bot.testing import FakeMessage
from tests.discord.conftest import World
from tests.discord.privacy import PrivacyRecorder, assert_private
from tests.discord.tablebot import (
    assert_all_acknowledged,
    dm_cards,
    eventually,
    field,
    hand_dm,
    table_bot,
)

SCORE = {"zoot": zoot_score, "wheelers": wheelers_score}


async def open_and_fill(world: World, game: str) -> FakeMessage:
    fake = world.fake
    rec = await fake.invoke(world.alice, world.channel, game, {"ante": 10})
    reply = await rec.response()
    table = reply.message
    assert table is not None and not reply.ephemeral
    assert [b["label"] for b in table.buttons()] == ["Join", "Leave", "Start", "My hand"]
    assert "Lay-down window:" in (field(table, "House rules") or "")
    for user in (world.bob, world.carol, world.dave):
        click = await fake.click_label(user, table, "Join")
        assert (await click.response()).updated_message
    assert all(user.name in (field(table, "Seats") or "") for user in world.players)
    return table


def window_open(dm: FakeMessage) -> bool:
    buttons = {b["label"]: b for b in dm.buttons()}
    return "Play on" in buttons and not buttons["Play on"].get("disabled")


async def choose_all(world: World, choices: dict[str, str]) -> None:
    """Each player presses their button in their own hand DM."""
    for user in world.players:
        dm = hand_dm(world, user)
        label = choices.get(user.name, "Play on")
        rec = await world.fake.click_label(user, dm, label)
        reply = await rec.response()
        assert reply.updated_message and not reply.content.startswith("Sorry"), reply.content


async def discard_suggested(world: World) -> None:
    for user in world.players:
        dm = await eventually(
            lambda user=user: hand_dm(world, user).selects() and hand_dm(world, user),
            what=f"{user.name}'s discard menu",
        )
        menu = dm.selects()[0]
        marked = [o["value"] for o in menu["options"] if "suggested" in o["label"]]
        assert len(marked) == 1 and len(menu["options"]) == 5
        rec = await world.fake.select(user, dm, menu["custom_id"], marked)
        assert (await rec.response()).updated_message


@pytest.mark.parametrize("game", ["zoot", "wheelers"])
async def test_rule_1_7_challenger_loses_matches_and_pot_carries_into_next_game(
    world: World, game: str
) -> None:
    fake = world.fake
    recorder = PrivacyRecorder(clock=fake.clock)
    async with table_bot(world, relay=recorder) as bot:
        service = bot.service
        assert service is not None
        table = await open_and_fill(world, game)
        start = await fake.click_label(world.alice, table, "Start")
        assert (await start.response()).updated_message

        # 1.3: five cards by DM to each player, edited in place
        hands = await eventually(
            lambda: {u.name: dm_cards(world, u) for u in world.players}, what="the deal"
        )
        assert all(len(h) == 5 for h in hands.values())
        assert len({c for h in hands.values() for c in h}) == 20
        view = await service.table_in_channel(world.channel.id)
        assert view is not None and view.hand_number == 1 and view.pot == 40

        # 1.4/1.5: nobody lays down -> everyone antes again, discards one and draws one
        await choose_all(world, {})
        await discard_suggested(world)
        await eventually(
            lambda: all(window_open(hand_dm(world, u)) for u in world.players),
            what="the second window",
        )
        hands = {u.name: dm_cards(world, u) for u in world.players}
        view = await service.view(view.table_id)
        pot = view.pot
        assert pot == 80

        # 1.7: the weakest hand lays down, loses, and pays the pot: it carries over
        score = SCORE[game]
        scores = {name: score(cards) for name, cards in hands.items()}
        loser = min(scores, key=lambda n: scores[n])
        assert scores[loser] < max(scores.values())
        await choose_all(world, {loser: "Lay down"})

        results = await eventually(
            lambda: [
                m
                for m in fake.channel_messages(world.channel)
                if m is not table and m.content and "match" in m.content.lower()
            ],
            what="the showdown result",
        )
        assert results
        loser_user = next(u for u in world.players if u.name == loser)
        async with bot.store.read() as tx:
            matches = await tx.entries(table_id=view.table_id, kind="match")
            wallet = await tx.find_wallet(world.guild.id, loser_user.id)
        assert wallet is not None
        assert [(m.from_account, m.amount) for m in matches] == [(wallet.id, pot)]

        # 1.9: the next game starts with the carried pot plus the new antes
        await eventually(
            lambda: f"Game 2 · pot **{pot + 40}**" in table.embeds[0].get("description", ""),
            what="game 2 on the table message",
        )
        view = await service.view(view.table_id)
        assert view.hand_number == 2 and view.pot == pot + 40

        # §5: chips are conserved and every balance is its ledger sum
        report = await bot.store.audit(world.guild.id)
        assert report.ok, report.format()
        async with bot.store.read() as tx:
            for user in world.players:
                acct = await tx.find_wallet(world.guild.id, user.id)
                assert acct is not None
                assert acct.balance == await tx.ledger_balance(acct.id)
    # an exchange, a showdown and a new deal: before each showdown nobody saw another's card
    assert_private(fake, recorder, [*world.players, world.outsider])
    assert_all_acknowledged(world)
