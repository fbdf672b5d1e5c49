"""The fake Discord after its split into modules (issue 13, "the shape of the code"): each
module stays under about 600 lines, every name tests and tools import is still where they
import it from, and the REST routes the layers add up to answer each path exactly once."""

from __future__ import annotations

import importlib
from pathlib import Path

import bot.testing
import bot.testing.fake_discord
from bot.testing import FakeDiscord

TESTING = Path(bot.testing.__file__).parent
MAX_LINES = 600

#: What tests, bench/ and bot/ops/ import from ``bot.testing.fake_discord`` and where each
#: name is now defined.
MOVED = {
    "RequestRecord": "bot.testing.fake_records",
    "Fault": "bot.testing.fake_records",
    "InteractionRecord": "bot.testing.fake_records",
    "InteractionReply": "bot.testing.fake_records",
    "INJECTABLE_CODES": "bot.testing.fake_records",
    "ALLOWED_CALLBACKS": "bot.testing.fake_records",
    "INTENT_GUILDS": "bot.testing.fake_gateway",
    "FakeDiscordError": "bot.testing.fake_model",
}


def test_every_fake_discord_module_is_under_600_lines() -> None:
    sizes = {p.name: len(p.read_text(encoding="utf-8").splitlines()) for p in TESTING.glob("*.py")}
    too_long = {name: n for name, n in sizes.items() if n > MAX_LINES}
    assert not too_long, f"modules over {MAX_LINES} lines: {too_long}"


def test_names_imported_from_fake_discord_and_bot_testing_still_resolve_to_one_object() -> None:
    for name in bot.testing.__all__:
        assert getattr(bot.testing, name) is not None, name
    for name in bot.testing.fake_discord.__all__:
        assert hasattr(bot.testing.fake_discord, name), name
    for name, home in MOVED.items():
        assert getattr(bot.testing.fake_discord, name) is getattr(
            importlib.import_module(home), name
        ), name
    assert bot.testing.FakeDiscord is bot.testing.fake_discord.FakeDiscord


def _example_path(pattern: str) -> str:
    """A concrete path for a route regex: ids for snowflakes, a token for tokens."""
    path = pattern.removeprefix("^").removesuffix("$")
    path = path.replace(r"(@original|\d+)", "@original")
    return path.replace(r"(\d+)", "123456789").replace(r"([^/]+)", "aW50ZXJhY3Rpb24")


def test_each_rest_route_of_the_layers_is_matched_by_exactly_one_route() -> None:
    routes = FakeDiscord()._routes()
    seen = {(method, pattern.pattern) for method, pattern, _, _ in routes}
    assert len(seen) == len(routes), "a route is declared twice"
    for method, pattern, handler, _ in routes:
        path = _example_path(pattern.pattern)
        matching = [h for m, p, h, _ in routes if m == method and p.match(path)]
        assert matching == [handler], f"{method} {path}: {matching}"
    # the endpoints discord.py calls for this bot, one from each layer
    wanted = {
        ("GET", "/gateway/bot"),
        ("PUT", "/applications/1/commands"),
        ("PATCH", "/channels/1/messages/2"),
        ("POST", "/interactions/1/tok/callback"),
        ("PATCH", "/webhooks/1/tok/messages/@original"),
    }
    for method, path in wanted:
        assert any(m == method and p.match(path) for m, p, _, _ in routes), (method, path)
