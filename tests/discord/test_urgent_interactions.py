"""On the bot's loop (bot.ops.priority) a click is urgent from its gateway frame to its
acknowledgement, and only that: its listeners run urgent (those of a move acknowledged from
its frame, cogs._early, run after that answer and are not), the table's commit after the
deferred answer does not, nor does any other event's listener; the gateway socket is
read first."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.ops.priority import PriorityEventLoop, is_urgent
from tests.discord.conftest import World
from tests.discord.tablebot import RAZZ_STAKES, eventually, razz_act_label, table_bot

STAKES = RAZZ_STAKES


async def test_a_click_is_urgent_until_it_is_acknowledged(world: World) -> None:
    fake = world.fake
    async with table_bot(world) as bot:
        seen: dict[str, list[bool]] = {"listener": [], "act": [], "other event": []}

        async def on_interaction(interaction: Any) -> None:
            seen["listener"].append(is_urgent())

        async def on_socket_event_type(event: str) -> None:
            seen["other event"].append(is_urgent())  # dispatched by the urgent gateway task

        bot.add_listener(on_interaction, "on_interaction")
        bot.add_listener(on_socket_event_type, "on_socket_event_type")
        service: Any = bot.service
        act = service.act

        async def recording_act(*args: Any, **kwargs: Any) -> Any:
            seen["act"].append(is_urgent())  # after the deferred answer
            return await act(*args, **kwargs)

        service.act = recording_act
        reply = await (await fake.invoke(world.alice, world.channel, "razz", STAKES)).response()
        table = reply.message
        assert table is not None
        await (await fake.click_label(world.bob, table, "Join")).response()
        await (await fake.click_label(world.alice, table, "Start")).response()
        await eventually(lambda: razz_act_label(table) is not None, what="the first bet")
        view = await service.table_in_channel(world.channel.id)
        (uid,) = view.to_act_user_ids
        player = world.alice if uid == world.alice.id else world.bob
        label = razz_act_label(table)
        assert label is not None
        reply = await (await fake.click_label(player, table, label)).response()
        assert not reply.ephemeral
        # the command, Join and Start: urgent until answered; the move was answered from
        # its gateway frame (cogs._early), its handling after that is not urgent
        *answered_in_handling, move = seen["listener"]
        assert answered_in_handling and all(answered_in_handling)
        assert move is False
        assert seen["act"] == [False]
        assert seen["other event"] and not any(seen["other event"])
        loop = asyncio.get_running_loop()
        assert isinstance(loop, PriorityEventLoop)
        (socket, fd), *_ = bot._gateway_sockets
        assert not socket.closed and fd in loop._first_fds
