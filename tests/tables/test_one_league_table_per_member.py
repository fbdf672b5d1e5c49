"""Defect: one member could sit at two tables of one server when the two Joins arrived
together (issue 11, item 3): the check read only memory, under one table's lock. The
database now holds at most one live league seat per (server, member)."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bot.store import Store
from bot.tables import TableService
from bot.tables.errors import AlreadySeated

from .conftest import ALICE, BOB, CAROL, GUILD

OTHER_GUILD = 2002


async def _two_tables(service: TableService, guild: int = GUILD) -> tuple[int, int]:
    one = await service.open_table(
        guild_id=guild, channel_id=961, host_id=ALICE, host_name="Alice", game="zoot"
    )
    two = await service.open_table(
        guild_id=guild, channel_id=962, host_id=BOB, host_name="Bob", game="razz"
    )
    return one.table_id, two.table_id


async def test_two_joins_at_once_at_two_tables_of_one_server_seat_the_member_once(
    service: TableService, store: Store
) -> None:
    one, two = await _two_tables(service)
    got = await asyncio.gather(
        service.join(one, CAROL, "Carol"), service.join(two, CAROL, "Carol"), return_exceptions=True
    )
    refused = [g for g in got if isinstance(g, BaseException)]
    assert len(refused) == 1, got
    assert isinstance(refused[0], AlreadySeated), refused
    assert "already play at the table in <#96" in refused[0].message
    seated = [tid for tid in (one, two) if (await service.view(tid)).seat_of(CAROL) is not None]
    assert len(seated) == 1
    async with store.read() as tx:
        seats = [*await tx.seats(one), *await tx.seats(two)]
    assert sum(s.user_id == CAROL for s in seats) == 1
    # after leaving the first, the other table takes her
    await service.leave(seated[0], CAROL)
    other = two if seated[0] == one else one
    assert (await service.join(other, CAROL, "Carol")).seat_of(CAROL) is not None


async def test_a_member_may_sit_at_tables_of_two_servers(service: TableService) -> None:
    one = await service.open_table(
        guild_id=GUILD, channel_id=963, host_id=ALICE, host_name="Alice", game="zoot"
    )
    two = await service.open_table(
        guild_id=OTHER_GUILD, channel_id=964, host_id=BOB, host_name="Bob", game="zoot"
    )
    got = await asyncio.gather(
        service.join(one.table_id, CAROL, "Carol"), service.join(two.table_id, CAROL, "Carol")
    )
    assert all(v.seat_of(CAROL) is not None for v in got)


async def test_a_closed_table_frees_its_seats_and_practice_tables_do_not_count(
    service: TableService,
) -> None:
    one, two = await _two_tables(service)
    await service.join(one, CAROL, "Carol")
    practice = await service.open_table(
        guild_id=GUILD,
        channel_id=965,
        host_id=CAROL,
        host_name="Carol",
        game="razz",
        practice=True,
    )
    assert practice.seat_of(CAROL) is not None
    await service.end(one, ALICE, may_manage=False)
    assert (await service.join(two, CAROL, "Carol")).seat_of(CAROL) is not None


async def test_the_database_refuses_a_second_live_league_seat(
    service: TableService, db_path: Path
) -> None:
    one, two = await _two_tables(service)
    await service.join(one, CAROL, "Carol")
    with sqlite3.connect(db_path) as raw, pytest.raises(sqlite3.IntegrityError):
        raw.execute(
            "INSERT INTO seats (table_id, seat_no, user_id, joined_at) VALUES (?, 5, ?, 0)",
            (two, CAROL),
        )
