"""League tests: the real bot on the fake Discord with a real SQLite store in a temp dir
(the World fixtures of the Discord tests), plus helpers to count and read the ledger."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.app import EXTENSIONS, HomeGameBot
from bot.store import Store
from bot.testing import running_client
from tests.discord.conftest import World, fake_discord, store, world

__all__ = ["World", "fake_discord", "store", "world"]

TABLE_FREE = tuple(e for e in EXTENSIONS if e != "cogs.tables")


@pytest.fixture
async def bot(world: World, store: Store) -> AsyncIterator[HomeGameBot]:
    """The bot without the tables cog (no TableService): league commands only."""
    client = HomeGameBot(
        settings=world.settings(), store=store, service=None, extensions=TABLE_FREE
    )
    async with running_client(world.fake, client) as running:
        yield running


async def ledger_count(store: Store) -> int:
    async with store.read() as tx:
        row = await tx._one("SELECT COUNT(*) AS n FROM ledger")
    assert row is not None
    return int(row["n"])


def unlock(world: World, name: str) -> None:
    """What a server admin does in Server Settings > Integrations: show the admin command
    ``/name`` to everyone (Discord's per-server override of default_permissions). The bot's
    own check at run time must then still refuse members without rights."""
    world.fake.command(name)["default_member_permissions"] = None


@pytest.fixture(scope="session")
def sim_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database with 10,000 simulated hands (tests/league/sim_hands.py), built once."""
    from tests.league.sim_hands import build_sim_db

    db = tmp_path_factory.mktemp("sim") / "sim.db"
    assert build_sim_db(db) == 10_000
    return db
