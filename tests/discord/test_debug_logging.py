"""Defect 6 of issue 11: at ``log.level = DEBUG`` the hand DMs' bodies (cards) and the
interaction tokens reached stderr through discord.py's own loggers (``discord.http`` logs
request bodies, ``discord.gateway`` every event payload). The promise "never a card, never
a token in the logs" holds at every level."""

from __future__ import annotations

import io
import logging
import re

import pytest

from bot.config import DiscordSettings, Settings
from bot.engine.cards import parse_card
from bot.ops.logs import PAYLOAD_LOGGERS, SecretFilter, mask_urls, setup_logging
from tests.discord.conftest import World
from tests.discord.tablebot import table_bot
from tests.discord.test_razz_table import play_razz_hand, start_razz


def _leaks(text: str, cards: set[str], tokens: set[str]) -> list[str]:
    found = [t for t in tokens if t in text]
    for code in cards:
        pretty = parse_card(code).pretty
        if pretty in text or re.search(rf"(?<![A-Za-z0-9]){code}(?![A-Za-z0-9])", text):
            found.append(code)
    return found


async def test_no_card_and_no_token_in_the_logs_at_debug_level(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    stream = io.StringIO()
    settings = Settings(discord=DiscordSettings(token=world.fake.token), log={"level": "DEBUG"})  # type: ignore[arg-type]
    handler = setup_logging(settings, stream=stream)
    caplog.set_level(logging.DEBUG)
    try:
        async with table_bot(world) as bot:
            table, view, _ = await start_razz(world, bot, world.players[:3])
            await play_razz_hand(world, bot, table, view.table_id)
            logging.getLogger("homegame.test").debug("debug is on")
            async with bot.store.read() as tx:
                hand = (await tx.hands(view.table_id))[0]
                events = await tx.hand_events(hand.id)
    finally:
        logging.getLogger().removeHandler(handler)
        for name in PAYLOAD_LOGGERS:
            logging.getLogger(name).setLevel(logging.NOTSET)
    cards = {
        c
        for e in events
        if e.visible_to is not None
        for c in (e.data.get("cards") or [e.data.get("card")])
        if isinstance(c, str)
    }
    assert len(cards) >= 6  # two down cards each for three players, at least
    tokens = {r.token for r in world.fake.interactions.values()} | {world.fake.token}
    assert len(tokens) > 3
    text = stream.getvalue()
    assert "DEBUG homegame.test: debug is on" in text  # DEBUG was on for the bot's own lines
    assert not _leaks(text, cards, tokens)
    records = "\n".join(r.getMessage() for r in caplog.records)
    assert not _leaks(records, cards, tokens)


def test_interaction_tokens_in_urls_are_masked_in_warnings() -> None:
    url = "https://discord.com/api/v10/webhooks/1234/aW50ZXJhY3Rpb246MTIz:abc-DEF_ghi/messages/@original"
    masked = mask_urls(f"We are being rate limited. PATCH {url} responded with 429")
    assert "aW50ZXJhY3Rpb246MTIz" not in masked and "/webhooks/1234/***/messages" in masked
    cb = mask_urls("POST https://discord.com/api/v10/interactions/99/tok-en_1234.x/callback")
    assert cb.endswith("/interactions/99/***/callback")
    assert SecretFilter([]).mask("no secret here") == "no secret here"


async def test_no_hole_card_in_the_logs_of_a_holdem_hand_at_debug_level(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    """A Hold'em hand with a typed raise (the amount modal), a fold and a showdown: no hole
    card (dealt to one player alone) and no token reaches the logs at DEBUG."""
    from tests.discord.tablebot import eventually, footer_state
    from tests.discord.test_flop_games import amounts, open_table, type_amount
    from tests.discord.test_mixed_tables import betting_hand

    stream = io.StringIO()
    settings = Settings(discord=DiscordSettings(token=world.fake.token), log={"level": "DEBUG"})  # type: ignore[arg-type]
    handler = setup_logging(settings, stream=stream)
    caplog.set_level(logging.DEBUG)
    fake = world.fake
    try:
        async with table_bot(world, autostart_delay=30) as bot:
            assert bot.service is not None
            table = await open_table(world, "holdem", {}, world.players[:3])
            await (await fake.click_label(world.alice, table, "Start")).response()
            view = await bot.service.table_in_channel(world.channel.id)
            assert view is not None
            (uid,) = view.to_act_user_ids
            await eventually(lambda: footer_state(table) == view.version, what="table")
            menu = await amounts(world, fake.users[uid], table, "Raise")
            assert await type_amount(world, fake.users[uid], menu, "30") == "You raise to 30."
            view = await bot.service.view(view.table_id)
            (uid,) = view.to_act_user_ids
            await eventually(lambda: footer_state(table) == view.version, what="table")
            await (await fake.click_label(fake.users[uid], table, "Fold")).response()
            await betting_hand(world, bot, view.table_id)
            logging.getLogger("homegame.test").debug("debug is on")
            async with bot.store.read() as tx:
                hand = (await tx.hands(view.table_id))[0]
                events = await tx.hand_events(hand.id)
            assert hand.status == "finished"
    finally:
        logging.getLogger().removeHandler(handler)
        for name in PAYLOAD_LOGGERS:
            logging.getLogger(name).setLevel(logging.NOTSET)
    cards = {
        c
        for e in events
        if e.visible_to is not None
        for c in (e.data.get("cards") or [e.data.get("card")])
        if isinstance(c, str)
    }
    assert len(cards) >= 6  # two hole cards each for three players
    tokens = {r.token for r in fake.interactions.values()} | {fake.token}
    text = stream.getvalue()
    assert "DEBUG homegame.test: debug is on" in text  # DEBUG was on for the bot's own lines
    assert not _leaks(text, cards, tokens)
    assert not _leaks("\n".join(r.getMessage() for r in caplog.records), cards, tokens)
