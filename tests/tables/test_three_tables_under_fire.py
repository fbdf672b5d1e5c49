"""Trying to break the service (issue 11): three tables of one server (Zoot, Razz,
Wheelers), twelve members throwing legal actions, refused commands and simultaneous
clicks at them (Start, kick, Join elsewhere, void, /chips take, Leave, Back, Resume), while
the clock moves on. Afterwards: every live table with a deadline still has its timer,
nobody sits at two league tables of the server, and the ledger balances."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable
from pathlib import Path
from typing import Any

from bot.engine.errors import HomeGameError
from bot.store import Store
from bot.tables import TableService

from .conftest import VirtualClock, seeded, wait_for

GUILD = 2005
USERS = list(range(100, 112))
STEPS = 300


async def _some_commands(
    service: TableService, tids: list[int], rng: random.Random
) -> list[Awaitable[Any]]:
    tid, user = rng.choice(tids), rng.choice(USERS)
    out: list[Awaitable[Any]] = []
    for _ in range(rng.randint(1, 4)):  # sent together: simultaneous clicks
        r = rng.random()
        if r < 0.5:
            try:
                pv = await service.private_view(tid, user)
            except HomeGameError:
                continue
            allowed = [o for o in pv.options if o.allowed]
            if allowed:
                o = rng.choice(allowed)
                card = str(o.cards[0]) if o.kind == "discard" and o.cards else None
                out.append(service.act(tid, user, o.kind, card=card, amount=o.to))
        elif r < 0.6:
            out.append(service.start(tid, user))
        elif r < 0.7:
            out.append(service.kick(tid, user, rng.choice(USERS), may_manage=False))
        elif r < 0.8:
            out.append(service.join(rng.choice(tids), user, f"u{user}"))
        elif r < 0.85:
            out.append(service.void_hand(tid, user, may_manage=rng.random() < 0.3))
        elif r < 0.9:
            amount = rng.randint(1, 50)
            out.append(service.take_chips(GUILD, user, amount, actor_id=1, reason="test"))
        elif r < 0.95:
            out.append(service.leave(tid, user))
        elif r < 0.97:
            out.append(service.back(tid, user))
        else:
            out.append(service.resume(tid, user, may_manage=True))
    return out


async def test_three_tables_under_refused_and_simultaneous_commands_keep_timers_and_chips(
    tmp_path: Path,
) -> None:
    clock = VirtualClock()
    store = await Store.open(tmp_path / "fire.db", clock=clock)
    service = TableService(
        store,
        clock=clock,
        rng_factory=seeded(3),
        sleep=clock.sleep,
        autostart_delay=3.0,
        computer_delay=3600.0,
    )
    await service.start_service()
    rng = random.Random(1)
    try:
        tids = []
        for i, game in enumerate(("zoot", "razz", "wheelers")):
            host, *others = USERS[i * 4 : i * 4 + 4]
            view = await service.open_table(
                guild_id=GUILD,
                channel_id=700 + i,
                host_id=host,
                host_name=f"u{host}",
                game=game,
                options={"decision_seconds": 10},
            )
            tids.append(view.table_id)
            for user in others:
                await service.join(view.table_id, user, f"u{user}")
            await service.start(view.table_id, host)
        for _ in range(STEPS):
            got = await asyncio.gather(
                *await _some_commands(service, tids, rng), return_exceptions=True
            )
            unexpected = [g for g in got if isinstance(g, BaseException)]
            unexpected = [g for g in unexpected if not isinstance(g, HomeGameError)]
            assert not unexpected, unexpected
            clock.advance(rng.choice([0.5, 3.1, 10.5]))
            for _ in range(5):
                await asyncio.sleep(0.005)  # the timers that woke race with the next commands

        async def unarmed() -> list[int]:
            """Tables with a deadline and no timer waiting for it."""
            out = []
            for tid in tids:
                try:
                    view = await service.view(tid)
                except HomeGameError:
                    continue  # closed: everyone left
                armed = tid in service._timer_tasks
                if view.deadline is not None and view.status != "paused" and not armed:
                    out.append(tid)
            return out

        # a timer that woke is off the list while it does its work, then arms again: wait
        # for that (however long a busy machine takes), then every table has its timer
        async def all_armed() -> bool:
            return not await unarmed()

        await wait_for(all_armed, what="every table's timer armed again")
        assert await unarmed() == []
        async with store.read() as tx:
            hands = [len(await tx.hands(tid)) for tid in tids]
            twice = await tx._all(
                "SELECT s.user_id FROM seats s JOIN tables t ON t.id = s.table_id"
                " WHERE t.status <> 'closed' AND t.practice = 0"
                " GROUP BY s.user_id HAVING COUNT(*) > 1"
            )
        assert not twice
        assert sum(hands) > len(tids)  # the tables did play on
        report = await store.audit(GUILD)
        assert report.ok, report.format()
    finally:
        await service.stop_service()
        await store.close()
