"""Operations logging (one INFO line per table event, WARNING for Discord HTTP errors, the
token never logged) and the effective settings from config.example.toml plus environment
overrides (issue 6, Must show)."""

from __future__ import annotations

import io
import logging
import random
from pathlib import Path

import discord
import pytest

from bot.config import ConfigError, DiscordSettings, Settings, load_settings
from bot.ops.logs import SecretFilter, event_lines, log_published, setup_logging, warn_http_errors
from bot.store import Store
from bot.tables.service import TableService
from bot.tables.views import Published
from bot.testing import FakeDiscord, discord_endpoints

EXAMPLE = Path(__file__).resolve().parents[2] / "config.example.toml"
TOKEN = "MTIzNDU2.secret-token-value.xyz"


def test_effective_settings_are_the_example_file_plus_environment_overrides() -> None:
    env = {
        "HOMEGAME_DATABASE__PATH": "/data/homegame.db",
        "HOMEGAME_BACKUP__KEEP": "14",
        "homegame_log__level": "debug",
        "DISCORD_TOKEN": TOKEN,
    }
    settings = load_settings(EXAMPLE, env=env)
    assert settings.database.path == Path("/data/homegame.db")
    assert settings.backup.keep == 14 and settings.backup.hour_utc == 4  # file/default kept
    assert settings.log.level == "DEBUG"
    assert settings.token_value() == TOKEN
    masked = settings.masked()
    assert masked["discord"]["token"] == "***" and TOKEN not in repr(masked)


@pytest.mark.parametrize(
    ("name", "value", "setting"),
    [
        ("HOMEGAME_BACKUP__HOUR_UTC", "25", "backup.hour_utc"),
        ("HOMEGAME_BACKUP__KEEP", "0", "backup.keep"),
        ("HOMEGAME_BACKUP__ENABLED", "sometimes", "backup.enabled"),
        ("HOMEGAME_LOG__LEVEL", "loud", "log.level"),
    ],
)
def test_bad_environment_value_over_the_example_file_is_named(
    name: str, value: str, setting: str
) -> None:
    with pytest.raises(ConfigError) as caught:
        load_settings(EXAMPLE, env={name: value})
    line = caught.value.message
    assert line.startswith(f"{setting}: ") and f"(from {name})" in line and "\n" not in line


def _capture(level: str = "INFO", token: str | None = TOKEN) -> tuple[io.StringIO, logging.Handler]:
    stream = io.StringIO()
    settings = Settings(
        discord=DiscordSettings(token=token),
        log={"level": level},  # type: ignore[arg-type]
    )
    return stream, setup_logging(settings, stream=stream)


def test_token_is_masked_in_messages_and_tracebacks() -> None:
    stream, handler = _capture()
    try:
        log = logging.getLogger("homegame.test")
        log.info("connecting with %s", TOKEN)
        try:
            raise RuntimeError(f"bad header Authorization: Bot {TOKEN}")
        except RuntimeError:
            log.exception("login failed")
    finally:
        logging.getLogger().removeHandler(handler)
    text = stream.getvalue()
    assert TOKEN not in text
    assert "connecting with ***" in text and "Authorization: Bot ***" in text


def test_secret_filter_masks_the_longer_secret_first() -> None:
    short, long = "abcdefgh", "abcdefgh-ijkl"
    assert SecretFilter([short, long]).mask(f"x {long} y {short}") == "x *** y ***"


def test_secret_filter_leaves_words_alone_for_a_too_short_secret() -> None:
    # a one-letter "token" must not turn "next" into "ne***t"
    assert SecretFilter(["x"]).mask("next backup") == "next backup"


async def test_one_info_line_per_table_event_with_table_hand_action_user(tmp_path: Path) -> None:
    seen: list[Published] = []

    class Keep:
        async def publish(self, published: Published) -> None:
            seen.append(published)

    store = await Store.open(tmp_path / "homegame.db")
    service = TableService(
        store, rng_factory=lambda: random.Random(5), subscriber=Keep(), timers=False
    )
    stream, handler = _capture()
    try:
        await service.start_service()
        view = await service.open_table(
            guild_id=1, channel_id=2, host_id=101, host_name="alice", game="zoot"
        )
        await service.join(view.table_id, 102, "bob")
        await service.start(view.table_id, 101)
        await service.act(view.table_id, 102, "play_on")
        for published in seen:
            log_published(published)
    finally:
        logging.getLogger().removeHandler(handler)
        await service.stop_service()
        await store.close()
    events = [e for p in seen for e in p.events]
    lines = [ln for ln in stream.getvalue().splitlines() if "homegame.events" in ln]
    assert len(lines) == len(events) > 0
    assert all(" INFO homegame.events: table=" in ln for ln in lines)
    assert any("hand=1 action=ante user=101 chips=+" in ln for ln in lines)
    assert any("action=play_on user=102" in ln or "user=102" in ln for ln in lines)
    # never a card, even for the private deal events
    assert all(ln.count("♠") == 0 and "cards" not in ln for ln in lines)
    assert event_lines(seen[-1])  # the pure form the logger writes


async def test_discord_http_error_is_one_warning_line_and_still_raised() -> None:
    async with FakeDiscord() as fake:
        client = discord.Client(intents=discord.Intents.none())
        stream, handler = _capture(token=fake.token)
        try:
            with discord_endpoints(fake):
                await client.login(fake.token)
                warn_http_errors(client.http)
                warn_http_errors(client.http)  # idempotent: still one line per error
                with pytest.raises(discord.NotFound):
                    await client.http.get_channel(424242)
        finally:
            logging.getLogger().removeHandler(handler)
            await client.close()
    lines = [ln for ln in stream.getvalue().splitlines() if "homegame.discord" in ln]
    assert len(lines) == 1
    assert "WARNING" in lines[0] and "GET /channels/424242 -> 404" in lines[0]
    assert fake.token not in stream.getvalue()
