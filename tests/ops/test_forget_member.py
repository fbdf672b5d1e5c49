"""``/league forget member:`` (issue 12, item 1): an admin removes a member's stored names
and DM links; every ledger row stays with its amount, so the audit still balances, and the
reply says what was done. A member at an open table, or a non-admin asking, changes nothing.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.app import HomeGameBot
from bot.store import FORGOTTEN
from bot.testing.fake_model import FakeDiscordError
from tests.discord.conftest import World
from tests.discord.tablebot import table_bot
from tests.discord.test_razz_table import play_razz_hand, start_razz


def stored_text(db: Path) -> str:
    """Every table's saved state and every hand history, as one text."""
    raw = sqlite3.connect(db)
    try:
        rows = raw.execute(
            "SELECT snapshot FROM tables UNION ALL SELECT history FROM hands"
        ).fetchall()
    finally:
        raw.close()
    return "\n".join(str(r[0]) for r in rows if r[0] is not None)


def ledger_and_balances(db: Path) -> tuple[list[tuple[int, ...]], list[tuple[int, ...]]]:
    raw = sqlite3.connect(db)
    try:
        ledger = raw.execute(
            "SELECT id, from_account, to_account, amount FROM ledger ORDER BY id"
        ).fetchall()
        balances = raw.execute("SELECT id, user_id, balance FROM accounts ORDER BY id").fetchall()
    finally:
        raw.close()
    return ledger, balances


async def play_and_close(world: World, bot: HomeGameBot) -> None:
    """A Razz hand among alice, bob and carol to its end, then the table is closed."""
    players = [world.alice, world.bob, world.carol]
    table, view, _ = await start_razz(world, bot, players)
    await play_razz_hand(world, bot, table, view.table_id)
    reply = await (
        await world.fake.invoke(world.alice, world.channel, "table", subcommand="end")
    ).response()
    assert "closed" in reply.content


async def test_item1_league_forget_replaces_names_keeps_the_ledger_and_the_audit_passes(
    world: World,
) -> None:
    async with table_bot(world) as bot:
        await play_and_close(world, bot)
        before_text = stored_text(world.db_path)
        assert "'bob'" in before_text and '"bob"' in before_text  # history and saved table
        ledger, balances = ledger_and_balances(world.db_path)
        rec = await world.fake.invoke(
            world.alice,
            world.channel,
            "league",
            {"member": world.bob},
            subcommand="forget",
        )
        reply = await rec.response()
        assert reply.ephemeral
        assert "“bob”" in reply.content and FORGOTTEN in reply.content
        assert "1 hand history" in reply.content and "Ledger:" in reply.content
        after = stored_text(world.db_path)
        assert "bob" not in after
        assert "alice" in after and "carol" in after  # the others keep their names
        assert ledger_and_balances(world.db_path) == (ledger, balances)  # not a chip moved
        audit = await (await world.fake.invoke(world.alice, world.channel, "audit")).response()
        assert "The ledger balances" in audit.content
        assert (await bot.store.audit(world.guild.id)).ok


async def test_item1_league_forget_is_refused_to_a_non_admin_and_at_an_open_table(
    world: World,
) -> None:
    async with table_bot(world) as bot:
        players = [world.alice, world.bob, world.carol]
        await start_razz(world, bot, players)
        before = stored_text(world.db_path)
        # bob is not an admin: Discord does not even show him the command
        with pytest.raises(FakeDiscordError, match="hidden from bob"):
            await world.fake.invoke(
                world.bob, world.channel, "league", {"member": world.carol}, subcommand="forget"
            )
        # carol still sits at the open table: her name would come back with its next save
        reply = await (
            await world.fake.invoke(
                world.alice, world.channel, "league", {"member": world.carol}, subcommand="forget"
            )
        ).response()
        assert reply.ephemeral and "still sits at table" in reply.content
        assert "Nothing was changed" in reply.content
        assert stored_text(world.db_path).count("carol") >= before.count("carol") > 0
