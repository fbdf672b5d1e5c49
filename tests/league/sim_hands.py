"""10,000 simulated hands written through the real TableService and SQLite (``python -m
bot sim``'s :func:`~bot.tables.sim.run_sim`), for the statistics' and the exports'
differential tests: every game the exports cover, in pokerkit's variants (no-limit and
fixed-limit Hold'em, pot-limit Omaha, fixed-limit Omaha hi-lo, Stud, Stud Hi-Lo, Razz),
and Zoot and Wheelers. A no-limit table stops when players bust; the simulation then
grants the busted computers chips and plays on at a new table, as a league would."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from bot.store import Store
from bot.tables.sim import SIM_GUILD, run_sim

PLAN: tuple[tuple[str, dict[str, Any], int], ...] = (
    ("holdem", {}, 2_700),
    ("holdem", {"betting": "fixed-limit"}, 1_580),
    ("omaha", {}, 120),
    ("omaha", {"betting": "fixed-limit", "split": "hi-lo"}, 700),
    ("stud", {}, 1_200),
    ("stud", {"split": "hi-lo"}, 1_000),
    ("razz", {}, 1_300),
    ("zoot", {}, 700),
    ("wheelers", {}, 700),
)
PLAYERS = 5
STACK = 1_000


async def _top_up(db: Path) -> None:
    store = await Store.open(db)
    try:
        async with store.transaction() as tx:
            for k in range(PLAYERS):
                uid = -(k + 1)
                wallet = await tx.find_wallet(SIM_GUILD, uid)
                balance = 0 if wallet is None else wallet.balance
                if balance < STACK:
                    await tx.grant(SIM_GUILD, uid, STACK - balance, actor_id=-1, reason="top-up")
    finally:
        await store.close()


async def _build(db: Path) -> int:
    hands = 0
    seed = 2026
    for game, options, count in PLAN:
        done = 0
        while done < count:
            seed += 1
            report = await run_sim(
                game=game,
                players=PLAYERS,
                hands=count - done,
                seed=seed,
                db=db,
                options=options or None,
            )
            assert report.audit is not None and report.audit.ok
            done += report.hands
            await _top_up(db)
        hands += done
    return hands


def build_sim_db(db: Path) -> int:
    """Play the plan into ``db``; the number of hands played (10,000)."""
    return asyncio.run(_build(db))
