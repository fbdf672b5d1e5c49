"""Every test's event loop is the bot's own (bot.ops.priority): what the suite checks runs
on the loop ``python -m bot run`` runs on, urgent interactions first. pytest-asyncio makes
its loops with the global policy, set here once."""

from __future__ import annotations

import asyncio
import warnings

from bot.ops.priority import new_event_loop


class _BotLoopPolicy(asyncio.DefaultEventLoopPolicy):
    def new_event_loop(self) -> asyncio.AbstractEventLoop:
        return new_event_loop()


with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)  # policies are deprecated in 3.14
    asyncio.set_event_loop_policy(_BotLoopPolicy())
