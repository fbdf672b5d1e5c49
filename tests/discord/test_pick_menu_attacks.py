"""The dealer's-choice game menu attacked: the next dealer double-picks (two selects sent
before the first is answered: one pick, one refusal), and the menu of a table closed with
``/table end`` is refused with a reason; nothing changes and the chips are right."""

from __future__ import annotations

import asyncio

from tests.discord.conftest import World
from tests.discord.tablebot import assert_all_acknowledged, table_bot
from tests.discord.test_mixed_tables import (
    STAKES,
    balances_match_the_ledger,
    game_menu,
    hand_games,
    next_hand_started,
    open_table,
    play_hand,
    service,
)


async def test_dealers_choice_double_pick_is_one_pick_and_a_closed_tables_menu_is_refused(
    world: World,
) -> None:
    fake = world.fake
    options = {"games": "razz stud", "choice_seconds": 60, **STAKES}
    async with table_bot(world) as bot:
        tid, players = await open_table(world, bot, "dealers-choice", options)
        await play_hand(world, bot, tid, players)
        message, menu = await game_menu(world, bot, tid)
        waiting = await service(bot).view(tid)
        assert waiting.mixed is not None and waiting.mixed.chooser is not None
        uid = next(s.user_id for s in waiting.seats if s.seat == waiting.mixed.chooser)
        picker = fake.users[uid]
        custom_id = str(menu["custom_id"])
        first = await fake.select(picker, message, custom_id, ["stud"])
        second = await fake.select(picker, message, custom_id, ["razz"])
        replies = await asyncio.gather(first.response(), second.response())
        refused = [r for r in replies if r.ephemeral]
        assert len(refused) == 1 and refused[0].content, [r.content for r in replies]
        await next_hand_started(bot, tid, 1)
        assert (await service(bot).view(tid)).game == "stud"
        await play_hand(world, bot, tid, players)
        await balances_match_the_ledger(world, bot, tid)
        message, menu = await game_menu(world, bot, tid)
        # the table is closed while the next dealer picks: the menu is refused, says why
        reply = await (
            await fake.invoke(world.alice, world.channel, "table", subcommand="end")
        ).response()
        assert "is closed" in reply.content, reply.content
        rec = await fake.select(picker, message, str(menu["custom_id"]), ["razz"])
        answer = await rec.response()
        assert answer.ephemeral and "closed" in answer.content.lower(), answer.content
        assert await hand_games(bot, tid) == ["razz", "stud"]
        report = await bot.store.audit(world.guild.id)
        assert report.ok, report.format()
    assert_all_acknowledged(world)
