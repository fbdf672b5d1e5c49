"""``/history`` and ``/leaderboard game:`` with the issue-13 games, through the fake
Discord: a Hold'em, a Stud Hi-Lo and a HORSE hand each open from the history menu as a
replay with its PHH file, in which a folded player's hole cards stay ``??`` to the others;
the leaderboard of each new game lists its players."""

from __future__ import annotations

import re

from bot.app import HomeGameBot
from bot.testing import FakeUser
from tests.discord.conftest import World
from tests.discord.tablebot import assert_all_acknowledged, eventually, footer_state, table_bot
from tests.discord.test_flop_games import open_table
from tests.discord.test_mixed_tables import (
    STAKES,
    betting_hand,
    play_hand,
    service,
)
from tests.discord.test_mixed_tables import open_table as open_mixed

DEALT = re.compile(r"'d dh (p\d+) ([^' ]+)")


async def open_last_hand(world: World, user: FakeUser) -> tuple[dict, dict[str, str]]:  # type: ignore[type-arg]
    """``/history``, then the newest hand in its menu: the replay embed and the files."""
    fake = world.fake
    reply = await (await fake.invoke(user, world.channel, "history")).response()
    assert reply.ephemeral and reply.message is not None, reply.content
    (menu,) = reply.message.selects()
    newest = str(menu["options"][0]["value"])
    opened = await (
        await fake.select(user, reply.message, str(menu["custom_id"]), [newest])
    ).response()
    assert opened.ephemeral and opened.message is not None, opened.content
    files = {a.filename: a.data.decode("utf-8") for a in opened.message.attachments}
    return opened.message.embeds[0], files


async def stored_history(bot: HomeGameBot, tid: int) -> str:
    async with bot.store.read() as tx:
        (hand,) = await tx.hands(tid)
    assert hand.status == "finished" and hand.history
    return hand.history


async def test_history_opens_a_holdem_hand_folded_cards_stay_hidden(world: World) -> None:
    fake = world.fake
    players = [world.alice, world.bob, world.carol]
    async with table_bot(world, autostart_delay=30) as bot:
        table = await open_table(world, "holdem", {}, players)
        await (await fake.click_label(world.alice, table, "Start")).response()
        view = await service(bot).table_in_channel(world.channel.id)
        assert view is not None
        tid = view.table_id
        (uid,) = view.to_act_user_ids
        folder = fake.users[uid]
        await eventually(lambda: footer_state(table) == view.version, what="table")
        assert (await (await fake.click_label(folder, table, "Fold")).response()).updated_message
        await betting_hand(world, bot, tid)
        history = await stored_history(bot, tid)
        viewer = next(u for u in players if u is not folder)
        embed, files = await open_last_hand(world, viewer)
        assert str(embed["title"]).startswith("Hold'em · table #")
        (name,) = [n for n in files if n.endswith(".phh")]
        redacted = files[name]
        assert "variant = 'NT'" in redacted
        seats = {s.user_id: s.seat for s in (await service(bot).view(tid)).seats}
        order = sorted(seats.values())  # p1.. in seat order from the button's left
        dealt = dict(DEALT.findall(history))
        shown = dict(DEALT.findall(redacted))
        assert set(dealt) == set(shown) == {f"p{i + 1}" for i in range(len(order))}
        folded = [p for p, cards in dealt.items() if shown[p] != cards]
        assert len(folded) >= 1 and all(set(shown[p]) == {"?"} for p in folded)
        # the viewer's own cards are there
        assert any(shown[p] == dealt[p] and "?" not in shown[p] for p in dealt)
        # beside it, PokerStars' text (issue 22.7): the viewer's hole cards are dealt to
        # them, the folded players' appear nowhere
        (stars,) = [n for n in files if n.endswith("-pokerstars.txt")]
        text = files[stars]
        assert text.startswith("PokerStars Hand #") and "Hold'em No Limit (" in text
        assert text.count("Dealt to ") == 1
        for p in folded:
            for i in range(0, len(dealt[p]), 2):
                assert dealt[p][i : i + 2] not in text, (p, dealt[p])
    assert_all_acknowledged(world)


async def test_history_opens_a_stud_hi_lo_and_a_horse_hand_and_leaderboards(
    world: World,
) -> None:
    fake = world.fake
    players = [world.alice, world.bob, world.carol]
    async with table_bot(world, autostart_delay=30) as bot:
        table = await open_table(world, "stud", {"split": "hi-lo"}, players)
        await (await fake.click_label(world.alice, table, "Start")).response()
        view = await service(bot).table_in_channel(world.channel.id)
        assert view is not None
        await betting_hand(world, bot, view.table_id)
        history = await stored_history(bot, view.table_id)
        embed, files = await open_last_hand(world, world.bob)
        # the hand says which stud it was (the game key is "stud" for both splits)
        assert str(embed["title"]).startswith("Stud Hi-Lo · table #"), embed["title"]
        assert str(embed.get("description"))
        listed = await (await fake.invoke(world.bob, world.channel, "history")).response()
        assert listed.message is not None
        (menu,) = listed.message.selects()
        assert str(menu["options"][0]["label"]).startswith("Stud Hi-Lo · table #")
        assert "Stud Hi-Lo, table #" in listed.content
        (name,) = [n for n in files if n.endswith(".phh")]
        assert "variant = 'F7S/8'" in history and "variant = 'F7S/8'" in files[name]
        (stars,) = [n for n in files if n.endswith("-pokerstars.txt")]
        assert "7 Card Stud Hi/Lo Limit (" in files[stars] and "*** 3rd STREET ***" in files[stars]
        reply = await (
            await fake.invoke(world.alice, world.channel, "table", subcommand="end")
        ).response()
        assert "is closed" in reply.content
    async with table_bot(world, autostart_delay=30) as bot:
        tid, _ = await open_mixed(world, bot, "horse", STAKES)
        await play_hand(world, bot, tid, players)
        embed, files = await open_last_hand(world, world.carol)
        assert str(embed["title"]).startswith("Hold'em · table #"), embed["title"]
        assert [n for n in files if n.endswith(".phh")]
        for game, label in (("stud", "Stud"), ("holdem", "Hold'em")):
            board = await (
                await fake.invoke(world.alice, world.channel, "leaderboard", {"game": game})
            ).response()
            text = board.content + "".join(
                str(e.get("description", "")) + str(e.get("title", ""))
                for e in (board.message.embeds if board.message else ())
            )
            assert label in text and f"<@{world.carol.id}>" in text, text
    assert_all_acknowledged(world)
