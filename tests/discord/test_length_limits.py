"""Discord's length and count limits (issue 11): content ≤ 2,000, embed description ≤ 4,096,
field value ≤ 1,024, ≤ 25 fields, all embed text ≤ 6,000, ≤ 25 select options, custom_id ≤
100. Lists that grow end with "and N more"; a reply Discord refuses after the change was
saved does not say "nothing changed". Checked here with the bot's own limit checker, so
these tests do not depend on the fake refusing them."""

from __future__ import annotations

from types import SimpleNamespace

import discord
from discord import app_commands

from bot.render.limits import CONTENT, FIELD_VALUE, fit_lines, join_within, message_problems
from bot.testing import FakeMessage
from cogs._errors import APOLOGY, refused_reply
from tests.discord.conftest import World
from tests.discord.tablebot import table_bot
from tests.discord.test_razz_table import play_razz_hand, start_razz


def problems(message: FakeMessage) -> list[str]:
    """Every limit any version of ``message`` broke."""
    found = []
    for v in message.versions:
        found += message_problems(v.content, list(v.embeds), list(v.components))
    return found


def test_fit_lines_and_join_within_stay_within_the_limit_and_say_how_many_more() -> None:
    lines = [f"{i}. <@{10_000_000_000_000_000 + i}>: net +0 · balance 1,000" for i in range(200)]
    text = fit_lines(lines, CONTENT)
    assert len(text) <= CONTENT and text.endswith(" more") and "… and " in text
    shown = text.count("\n")
    assert text.splitlines()[-1] == f"… and {200 - shown} more"
    channels = [f"<#{1_000_000_000_000_000_000 + i}>" for i in range(100)]
    joined = join_within(channels, 1200)
    assert len(joined) <= 1200 and joined.endswith(" more")
    n = joined.count("<#")
    assert joined.endswith(f" and {100 - n} more")
    assert fit_lines(["x" * 5000], FIELD_VALUE).endswith("…")
    assert len(fit_lines(["x" * 5000], FIELD_VALUE)) == FIELD_VALUE


async def test_every_message_of_a_razz_hand_is_within_discords_limits(world: World) -> None:
    async with table_bot(world) as bot:
        table, view, _ = await start_razz(world, bot, world.players[:3])
        await play_razz_hand(world, bot, table, view.table_id)
    messages = list(world.fake.messages.values())
    assert len(messages) >= 5
    for message in messages:
        assert not problems(message), (message.id, problems(message))


def _http_error(status: int, code: int) -> discord.HTTPException:
    response = SimpleNamespace(status=status, reason="Bad Request")
    return discord.HTTPException(response, {"code": code, "message": "Invalid Form Body"})  # type: ignore[arg-type]


def test_a_refused_reply_after_the_change_was_saved_never_says_nothing_changed() -> None:
    error = app_commands.CommandInvokeError.__new__(app_commands.CommandInvokeError)
    error.original = _http_error(400, 50035)
    text = refused_reply(error)
    assert text is not None and "50035" in text and "may already be done" in text
    for said in (text, APOLOGY):
        assert "unchanged" not in said and "nothing changed" not in said.lower()
    assert refused_reply(RuntimeError("a bug")) is None
