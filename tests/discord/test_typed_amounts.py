"""Issue 19, item 18: a typed amount with a decimal point or a comma became another number
("2.5" raised to 25, "10.00" would be 1,000 (all in), "1,5" read as 15). Digits with
thousands separators as people type them ("1,500", "1 500") are an amount; anything with a
fraction, or that reads two ways, is refused with the legal range and changes nothing (the
turn's timer still fires). One parser reads every typed amount (cogs/_amounts.py)."""

from __future__ import annotations

import asyncio
import time

import pytest

from bot.engine.errors import HomeGameError
from bot.render.text import format_chips
from bot.testing.clock import VirtualClock
from tests.discord.conftest import World
from tests.discord.tablebot import assert_all_acknowledged, eventually, footer_state, table_bot
from tests.discord.test_amount_menu_attacks import unchanged
from tests.discord.test_flop_games import (
    amounts,
    open_table,
    table_recent,
    type_amount,
    wallets_match_the_table,
)

AS_PEOPLE_TYPE_THEM = {
    "1500": 1500,
    " 40 ": 40,
    "040": 40,
    "1,500": 1500,
    "1 500": 1500,
    "1\u00a0500": 1500,  # a no-break space, as a phone keyboard or a copy puts it
    "1\u202f500": 1500,  # a narrow no-break space (French)
    "1'500": 1500,  # Swiss
    "12,345,678": 12_345_678,
    "1.500.000": 1_500_000,  # dots that cannot be a decimal point: three groups
    "1,50,000": 150_000,  # Indian grouping (lakh)
    "0": 0,  # a number: the table refuses it with the range
}

FRACTIONS = ["2.5", "10.00", "1,5", "0.5", ".5", "12,50", "1,500.50", "1.500,00", "2,", "1,5000"]
"""Each has a fraction (or an unfinished one): refused, never read as another number."""

TWO_WAYS = ["1.500", "10.000", "0,500"]
"""1.500 is 1.5 to some and 1,500 to others; 0,500 is half a chip or 500."""

JUNK = ["abc", "-5", "+5", "1e9", "12k", "½", "²", "4①", "1,,500", "1 ,500", "1,500 000"]


@pytest.mark.parametrize(("typed", "chips"), sorted(AS_PEOPLE_TYPE_THEM.items()))
def test_item18_digits_with_thousands_separators_are_an_amount(typed: str, chips: int) -> None:
    from cogs._amounts import parse_chips

    assert parse_chips(typed) == chips


@pytest.mark.parametrize("typed", FRACTIONS)
def test_item18_an_amount_with_a_fraction_is_refused_not_read_as_another_number(
    typed: str,
) -> None:
    from cogs._amounts import UnreadableAmount, parse_chips

    with pytest.raises(UnreadableAmount) as refused:
        parse_chips(typed)
    assert isinstance(refused.value, HomeGameError)
    assert "whole number of chips" in refused.value.message, refused.value.message


@pytest.mark.parametrize("typed", TWO_WAYS)
def test_item18_an_amount_that_reads_two_ways_is_refused(typed: str) -> None:
    from cogs._amounts import UnreadableAmount, parse_chips

    with pytest.raises(UnreadableAmount) as refused:
        parse_chips(typed)
    assert "reads two ways" in refused.value.message, refused.value.message


@pytest.mark.parametrize("typed", JUNK)
def test_item18_junk_is_not_a_number_of_chips(typed: str) -> None:
    from cogs._amounts import UnreadableAmount, parse_chips

    with pytest.raises(UnreadableAmount) as refused:
        parse_chips(typed)
    assert "is not a number of chips" in refused.value.message, refused.value.message


async def test_item18_typed_2_5_in_the_amount_box_is_refused_with_the_range_and_changes_nothing(
    world: World,
) -> None:
    """As a user meets it: Bob presses Raise, Other amount…, types 2.5 (then 10.00, 1,5,
    1.500): each is refused with the legal range and nothing changes; the turn's timer
    still runs out as it would have; then 1,000 typed with its comma raises all in.
    Balances = ledger after each step."""
    fake = world.fake
    players = [world.alice, world.bob, world.carol]
    by_id = {u.id: u for u in players}
    clock = VirtualClock(time.time())
    async with table_bot(world, autostart_delay=30, clock=clock, sleep=clock.sleep) as bot:
        service = bot.service
        assert service is not None
        table = await open_table(world, "holdem", {"decision_seconds": 30, "time_bank": 0}, players)
        await (await fake.click_label(world.alice, table, "Start")).response()
        view = await service.table_in_channel(world.channel.id)
        assert view is not None
        tid = view.table_id
        (uid,) = view.to_act_user_ids
        actor = by_id[uid]
        await eventually(lambda: footer_state(table) == view.version, what="table")
        menu = await amounts(world, actor, table, "Raise")
        before = await service.private_view(tid, uid)
        raise_to = next(o for o in before.options if o.kind == "raise")
        assert raise_to.to is not None and raise_to.most is not None
        legal = f"Raise to between {format_chips(raise_to.to)} and {format_chips(raise_to.most)}"
        for typed, why in (
            ("2.5", "is not a whole number of chips"),
            ("10.00", "is not a whole number of chips"),
            ("1,5", "is not a whole number of chips"),
            ("1.500", "reads two ways"),
        ):
            answer = await type_amount(world, actor, menu, typed)
            assert answer.startswith(f"{legal}: "), answer
            assert why in answer and answer.endswith("Nothing changed."), answer
            unchanged(await service.view(tid), view)
            await wallets_match_the_table(bot, world, tid)
        # the refusals kept the turn's timer: 29 s on, still Bob's turn; at 30 s he folds
        clock.advance(29)
        for _ in range(20):
            await asyncio.sleep(0)  # turns of the loop: a timer due would run
        unchanged(await service.view(tid), view)
        clock.advance(1)
        await eventually(
            lambda: any(f"{actor.name} folds (timed out)" in r for r in table_recent(table)),
            what="the timeout",
        )
        await wallets_match_the_table(bot, world, tid)
        # the next player types a whole amount with a thousands separator: taken as written
        after = await service.view(tid)
        (nxt_id,) = after.to_act_user_ids
        nxt = by_id[nxt_id]
        await eventually(lambda: footer_state(table) == after.version, what="table")
        menu = await amounts(world, nxt, table, "Raise")
        stack = next(s.stack + s.bet for s in after.seats if s.user_id == nxt_id)
        assert stack == 1000
        assert await type_amount(world, nxt, menu, "1,000") == "You raise to 1,000."
        await wallets_match_the_table(bot, world, tid)
    assert_all_acknowledged(world)
