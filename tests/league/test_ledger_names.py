"""Issue 19, item 9 (and issue 22, item 7's "``/ledger export`` rows carry member names as
well as ids"): the ledger CSV keeps every id column and adds each member's name as it is
now: their display name in the server when the export is made (a new nickname shows), the
name the tables last stored for someone who left the server."""

from __future__ import annotations

import csv
import io

from bot.league.export import COLUMNS, ledger_csv
from bot.store.stats import LedgerRow
from tests.discord.conftest import World
from tests.discord.tablebot import table_bot


async def test_issue19_item9_ledger_csv_names_members_as_they_are_now_and_keeps_the_ids(
    world: World,
) -> None:
    fake = world.fake
    async with table_bot(world) as bot:
        table = (await (await fake.invoke(world.alice, world.channel, "razz")).response()).message
        assert table is not None
        for user in (world.bob, world.carol):
            await (await fake.click_label(user, table, "Join")).response()
        async with bot.store.transaction() as tx:
            await tx.grant(world.guild.id, world.dave.id, 50, actor_id=world.alice.id, reason="x")
        world.guild.members[world.bob.id].nick = "Bobby"  # renamed since he sat down
        del world.guild.members[world.carol.id]  # left the server
        reply = await (
            await fake.invoke(world.alice, world.channel, "ledger", subcommand="export")
        ).response()
        rows = list(csv.DictReader(io.StringIO(reply.attachments[0].data.decode())))
    assert tuple(rows[0]) == COLUMNS
    assert {"from", "to", "actor", "from_name", "to_name", "actor_name"} <= set(COLUMNS)
    by_to = {r["to"]: r for r in rows if r["kind"] == "start"}
    assert by_to[f"user:{world.alice.id}"]["to_name"] == "alice"
    assert by_to[f"user:{world.bob.id}"]["to_name"] == "Bobby"  # as he is called now
    assert by_to[f"user:{world.carol.id}"]["to_name"] == "carol"  # the name the table kept
    assert all(r["from"] == "house" and r["from_name"] == "house" for r in by_to.values())
    (grant,) = [r for r in rows if r["kind"] == "grant"]
    assert grant["to"] == f"user:{world.dave.id}" and grant["to_name"] == "dave"
    assert grant["actor"] == str(world.alice.id) and grant["actor_name"] == "alice"


def test_issue19_item9_names_never_become_spreadsheet_formulas() -> None:
    rows = [
        LedgerRow(1, 0, "house", "user:5", 1000, "start", None, None, None, "starting chips"),
        LedgerRow(2, 60, "user:5", "pot:3", 10, "ante", 3, 7, None, None),
    ]
    parsed = list(csv.reader(io.StringIO(ledger_csv(rows, {5: "=HYPERLINK(1)"}).decode())))
    # the names, then the ``what`` column (added after them)
    assert parsed[1][-4:-1] == ["house", "'=HYPERLINK(1)", ""]
    assert parsed[2][-4:-1] == ["'=HYPERLINK(1)", "table #3 pot", ""]
    assert parsed[2][2:4] == ["user:5", "pot:3"]  # the ids stay
