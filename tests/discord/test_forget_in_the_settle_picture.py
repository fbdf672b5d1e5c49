"""Issue 19, item 21 (its second half): ``/league forget`` covers the ``/settle`` picture.
After a night, an admin forgets Bob; the settle-up posted afterwards (``/settle``) draws
"forgotten member" where Bob's name was, in the picture's rows and its biggest-pot line,
whether the table Bob played at has closed or is still open (he left it).

The picture takes its names from the tables' saved state (``Tx.seat_names``), which
``/league forget`` rewrites: for closed tables here; for an open one by item 8."""

from __future__ import annotations

import sys
from typing import Any

import pytest

from bot.app import HomeGameBot
from bot.store import FORGOTTEN
from tests.discord.conftest import World
from tests.discord.tablebot import table_bot
from tests.discord.test_razz_table import play_razz_hand, start_razz


class Drawn:
    """What the settle-up picture is drawn from (the rows and the footer given to it)."""

    def __init__(self) -> None:
        self.calls: list[tuple[Any, ...]] = []

    def texts(self) -> str:
        rows, footer = self.calls[-1]
        return "\n".join([*(str(name) for name, _net, _hands in rows), str(footer)])


async def spy_on_the_picture(bot: HomeGameBot, monkeypatch: pytest.MonkeyPatch) -> Drawn:
    """Record what ``/settle`` hands to the picture (the ``render`` of the module that
    draws the settle-up post, cogs._night_post, as the bot loaded it)."""
    drawn = Drawn()
    module = sys.modules["cogs._night_post"]
    real = module.render

    async def render(fn: Any, *args: Any, **kwargs: Any) -> Any:
        if getattr(fn, "__name__", "") == "render_night":
            drawn.calls.append((args[0], kwargs.get("footer", "")))
        return await real(fn, *args, **kwargs)

    monkeypatch.setattr(module, "render", render)
    return drawn


async def night_with_bob(world: World, bot: HomeGameBot) -> int:
    """A night: one Razz hand among Alice, Bob and Carol; Bob wins chips or loses some."""
    fake = world.fake
    started = await (
        await fake.invoke(world.alice, world.channel, "night", subcommand="start")
    ).response()
    assert "Night #1 starts" in started.content, started.content
    table, view, _ = await start_razz(world, bot, [world.alice, world.bob, world.carol])
    await play_razz_hand(world, bot, table, view.table_id)
    return view.table_id


async def forget_bob(world: World) -> None:
    reply = await (
        await world.fake.invoke(
            world.alice, world.channel, "league", {"member": world.bob}, subcommand="forget"
        )
    ).response()
    assert reply.ephemeral and "Removed the stored data" in reply.content, reply.content


async def settle_picture(world: World, drawn: Drawn) -> str:
    shown = await (
        await world.fake.invoke(world.carol, world.channel, "settle", {"period": "night"})
    ).response()
    assert not shown.ephemeral and [a.filename for a in shown.attachments] == ["night.png"]
    return drawn.texts()


async def test_item21_league_forget_covers_the_settle_picture_after_the_table_closed(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = world.fake
    async with table_bot(world, autostart_delay=60) as bot:
        drawn = await spy_on_the_picture(bot, monkeypatch)
        await night_with_bob(world, bot)
        closed = await (
            await fake.invoke(world.alice, world.channel, "table", subcommand="end")
        ).response()
        assert "closed" in closed.content
        await (await fake.invoke(world.alice, world.channel, "night", subcommand="end")).response()
        before = await settle_picture(world, drawn)
        assert "bob" in before  # the picture names him before he is forgotten
        await forget_bob(world)
        after = await settle_picture(world, drawn)
        assert "bob" not in after and FORGOTTEN in after, after
        assert "alice" in after and "carol" in after


async def test_item21_league_forget_covers_the_settle_picture_while_the_table_is_open(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with table_bot(world, autostart_delay=60) as bot:
        drawn = await spy_on_the_picture(bot, monkeypatch)
        tid = await night_with_bob(world, bot)
        assert bot.service is not None
        await bot.service.leave(tid, world.bob.id)  # Bob goes home; the table plays on
        before = await settle_picture(world, drawn)
        assert "bob" in before
        await forget_bob(world)
        after = await settle_picture(world, drawn)
        assert "bob" not in after and FORGOTTEN in after, after
