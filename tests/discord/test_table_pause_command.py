"""``/table pause`` and ``/table resume``: a break in the evening's play.

The service could pause a table, but only the idle rule ever did; a host whose players
step away for a break had to let the timers fold everyone. Now a player at the table,
its host or someone with Manage Server pauses it, in or between hands: no timer runs, the
table message shows **Resume**, and ``/table resume`` (or the button) goes on where it
stopped, with a fresh decision window. Anyone else is refused and nothing changes; a
table that has not started has nothing to pause.
"""

from __future__ import annotations

from tests.discord.conftest import World
from tests.discord.tablebot import eventually, table_bot
from tests.discord.test_razz_table import open_razz, start_razz


async def test_table_pause_mid_hand_stops_the_timer_and_table_resume_goes_on(
    world: World,
) -> None:
    fake = world.fake
    async with table_bot(world) as bot:
        service = bot.service
        assert service is not None
        table, before, first = await start_razz(world, bot, world.players[:3])
        tid = before.table_id
        assert before.deadline is not None and first.id in before.to_act_user_ids

        outsider = await (
            await fake.invoke(world.outsider, world.channel, "table", subcommand="pause")
        ).response()
        assert outsider.ephemeral and "host" in (outsider.content or ""), outsider.content
        assert (await service.view(tid)).status == "running"

        paused = await (
            await fake.invoke(world.bob, world.channel, "table", subcommand="pause")
        ).response()
        assert not paused.ephemeral and "paused" in (paused.content or ""), paused.content
        view = await service.view(tid)
        assert view.status == "paused" and view.deadline is None
        # no timer runs: a forced tick acts for nobody, the turn stays where it was
        await service.tick(tid, force=True)
        still = await service.view(tid)
        assert still.status == "paused" and not still.to_act_user_ids  # nobody acts meanwhile
        assert still.version == view.version
        await eventually(
            lambda: any(b["label"] == "Resume" and not b.get("disabled") for b in table.buttons()),
            what="the Resume button on the table message",
        )
        again = await (
            await fake.invoke(world.carol, world.channel, "table", subcommand="pause")
        ).response()
        assert again.ephemeral and "already paused" in (again.content or "")

        resumed = await (
            await fake.invoke(world.carol, world.channel, "table", subcommand="resume")
        ).response()
        assert not resumed.ephemeral, resumed.content
        after = await service.view(tid)
        assert after.status == "running" and after.deadline is not None
        assert after.to_act_user_ids == before.to_act_user_ids

        # the game goes on: the player to act acts
        def bring_in_shown() -> bool:
            return any(b["label"] == "Bring in" and not b.get("disabled") for b in table.buttons())

        await eventually(bring_in_shown, what="the betting buttons back on the table message")
        acted = await (await fake.click_label(first, table, "Bring in")).response()
        assert acted.updated_message, acted.content
        assert (await service.view(tid)).to_act_user_ids != before.to_act_user_ids
        assert (await bot.store.audit(world.guild.id)).ok


async def test_table_pause_before_the_game_starts_is_refused(world: World) -> None:
    fake = world.fake
    async with table_bot(world) as bot:
        assert bot.service is not None
        await open_razz(world, world.players[:2])
        refused = await (
            await fake.invoke(world.alice, world.channel, "table", subcommand="pause")
        ).response()
        assert refused.ephemeral and "not started" in (refused.content or ""), refused.content
        view = await bot.service.table_in_channel(world.channel.id)
        assert view is not None and view.status == "open"
