"""Odd display names (markdown, mentions, emoji, Discord's 32 characters) at a dealer's-choice
table: the table message and the next dealer's game menu (placeholder at most 150
characters, Discord's limit, checked by the fake) are drawn, the name stays text, the pick
works."""

from __future__ import annotations

from bot.render.text import NAME_LIMIT, safe_name
from tests.discord.conftest import World
from tests.discord.tablebot import assert_all_acknowledged, table_bot
from tests.discord.test_mixed_tables import (
    STAKES,
    balances_match_the_ledger,
    fresh_table,
    game_menu,
    next_hand_started,
    play_hand,
    service,
)

ODD = (
    "**__~~`||@everyone||`~~__**<#1>[",  # markdown and a mention, 32 characters
    "🃏" * 32,  # 32 emoji (64 UTF-16 units)
    "x" * 31 + "\\",  # a trailing backslash would escape what follows it
)


async def test_dealers_choice_menu_and_table_message_with_odd_32_character_names(
    world: World,
) -> None:
    fake = world.fake
    assert all(len(n) == NAME_LIMIT == 32 for n in ODD)
    users = [fake.add_user(n) for n in ODD]
    for user in users:
        fake.add_member(world.guild, user)
    options = {"games": "razz stud", "choice_seconds": 60, **STAKES}
    async with table_bot(world) as bot:
        reply = await (
            await fake.invoke(users[0], world.channel, "dealers-choice", options)
        ).response()
        assert reply.message is not None and not reply.ephemeral, reply.content
        for user in users[1:]:
            rec = await fake.click_label(user, reply.message, "Join")
            assert (await rec.response()).updated_message
        await (await fake.click_label(users[0], reply.message, "Start")).response()
        view = await service(bot).table_in_channel(world.channel.id)
        assert view is not None
        tid = view.table_id
        await play_hand(world, bot, tid, users)
        message, menu = await game_menu(world, bot, tid)
        waiting = await service(bot).view(tid)
        assert waiting.mixed is not None and waiting.mixed.chooser is not None
        uid = next(s.user_id for s in waiting.seats if s.seat == waiting.mixed.chooser)
        picker = fake.users[uid]
        placeholder = str(menu["placeholder"])
        assert len(placeholder) <= 150 and placeholder.startswith(picker.name), placeholder
        # the table message names the next dealer as text: no mention, no broken markdown
        text = str(message.embeds[0].get("description", "")) + "".join(
            str(f.get("value")) for f in message.embeds[0].get("fields", ())
        )
        assert "@everyone" not in text.replace("\\@everyone", "")
        assert f"🎲 {safe_name(picker.name)} deals next and picks" in text, text
        rec = await fake.select(picker, message, str(menu["custom_id"]), ["stud"])
        assert (await rec.response()).updated_message
        await next_hand_started(bot, tid, 1)
        assert (await service(bot).view(tid)).game == "stud"
        table = await fresh_table(world, bot, tid)
        assert str(table.embeds[0]["title"]).startswith("Dealer's choice: ")
        await play_hand(world, bot, tid, users)
        await balances_match_the_ledger(world, bot, tid)
    assert_all_acknowledged(world)
