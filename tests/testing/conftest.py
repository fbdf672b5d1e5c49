"""Fixtures for Discord-level tests: a started fake Discord (movable to tests/conftest.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.testing import FakeDiscord


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    """A fake Discord listening on 127.0.0.1 (random port), stopped after the test."""
    fake = FakeDiscord()
    await fake.start()
    try:
        yield fake
    finally:
        await fake.stop()
