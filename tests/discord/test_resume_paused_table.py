"""Defect: a paused table could not be resumed from Discord (issue 11, evening test).

The idle rule (RULES §1.11, §4.10) pauses a table when a whole round (Zoot, Wheelers) or a
whole hand (Razz) passes with nobody acting; the service had ``resume``, but no button or
command reached it, so the table stayed paused until it was closed. Now the paused table's
message carries a **Resume** button that any seated player (or the host, or someone with
Manage Server) presses; the game goes on where it paused.
"""

from __future__ import annotations

import pytest

from bot.testing import FakeMessage
from tests.discord.conftest import World
from tests.discord.tablebot import eventually, hand_dm, table_bot
from tests.discord.test_guts_games import open_and_fill, window_open
from tests.discord.test_razz_table import open_razz


def labels(message: FakeMessage) -> dict[str, bool]:
    """The table message's buttons: label -> enabled."""
    return {str(b["label"]): not b.get("disabled") for b in message.buttons()}


@pytest.mark.parametrize("game", ["zoot", "razz"])
async def test_a_table_paused_by_the_idle_rule_is_resumed_by_its_resume_button(
    world: World, game: str
) -> None:
    fake = world.fake
    async with table_bot(world) as bot:
        service = bot.service
        assert service is not None
        if game == "razz":
            table, _ = await open_razz(world, world.players)
        else:
            table = await open_and_fill(world, game)
        assert "Resume" not in labels(table)  # only a paused table shows it
        await (await fake.click_label(world.alice, table, "Start")).response()
        view = await service.table_in_channel(world.channel.id)
        assert view is not None
        tid = view.table_id
        # nobody acts: every window (or turn) runs out until the idle rule pauses the table
        for _ in range(40):
            if (await service.view(tid)).status == "paused":
                break
            await service.tick(tid, force=True)
        paused = await service.view(tid)
        assert paused.status == "paused", paused.phase
        await eventually(lambda: labels(table).get("Resume"), what="an enabled Resume button")
        assert not labels(table)["Start"]

        # someone who does not sit there is refused, and nothing changes
        refused = await (await fake.click_label(world.outsider, table, "Resume")).response()
        assert refused.ephemeral and "not at this table" in (refused.content or "")
        assert (await service.view(tid)).status == "paused"

        answer = await (await fake.click_label(world.bob, table, "Resume")).response()
        assert answer.updated_message
        resumed = await service.view(tid)
        assert resumed.status == "running", resumed.phase
        # the game goes on: someone is to act again, with a deadline, and the button goes
        await eventually(
            lambda: (
                "Resume" not in labels(table)
                and any("resumed" in m.content for m in fake.channel_messages(world.channel))
            ),
            what="the table resumed",
        )
        if game == "razz":
            # the next hand is dealt after the pause between hands
            await eventually(lambda: "Hand 2" in str(table.embeds[0].get("description")))
        else:
            await eventually(
                lambda: (
                    any(window_open(hand_dm(world, u)) for u in world.players)
                    or hand_dm(world, world.bob).selects()
                ),
                what="the choices open again in the DMs",
            )
        assert (await service.view(tid)).deadline is not None
        assert (await bot.store.audit(world.guild.id)).ok
