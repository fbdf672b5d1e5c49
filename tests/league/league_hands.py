"""League hands played by members (not computers) through the real TableService and store,
for the statistics commands' tests: each member acts by a small seeded habit (some raise
often, some call, some fold), so their figures differ."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from bot.store import Store
from bot.tables.service import TableService

HABITS: Mapping[str, Sequence[str]] = {
    # the first allowed of these, most of the time
    "raiser": ("raise", "bet", "complete", "call", "check"),
    "caller": ("call", "check"),
    "folder": ("check", "fold"),
}


async def play_league_hands(
    db: Path,
    *,
    guild_id: int,
    channel_id: int,
    players: Sequence[tuple[int, str, str]],
    game: str,
    hands: int,
    seed: int,
    options: Mapping[str, Any] | None = None,
) -> int:
    """Play ``hands`` hands of ``game`` at a new league table in ``channel_id``; ``players``
    are (user id, name, habit). Returns the table id; the table is closed after."""
    rng = random.Random(seed)
    store = await Store.open(db)
    service = TableService(
        store,
        rng_factory=lambda: random.Random(rng.getrandbits(64)),
        timers=False,
        autostart_delay=0,
    )
    await service.start_service()
    try:
        (host, host_name, _), *others = players
        view = await service.open_table(
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host,
            host_name=host_name,
            game=game,
            options=dict(options or {}),
        )
        tid = view.table_id
        for uid, name, _ in others:
            await service.join(tid, uid, name)
        habit = {uid: HABITS[h] for uid, _, h in players}
        done = 0
        while done < hands:
            if not await service.hand_in_progress(tid):
                view = await service.view(tid)
                if view.status == "running":
                    await service.tick(tid, force=True)
                else:
                    await service.start(tid, host)
                if not await service.hand_in_progress(tid):
                    break
            while await service.hand_in_progress(tid):
                view = await service.view(tid)
                if not view.to_act_user_ids:
                    await service.tick(tid, force=True)
                    continue
                uid = sorted(view.to_act_user_ids)[0]
                allowed = [
                    o.kind for o in (await service.private_view(tid, uid)).options if o.allowed
                ]
                order = (
                    list(habit[uid]) if rng.random() < 0.85 else rng.sample(allowed, len(allowed))
                )
                kind = next((k for k in (*order, *allowed) if k in allowed), None)
                assert kind is not None, allowed
                await service.act(tid, uid, kind)
            done += 1
        view = await service.view(tid)
        if view.status != "closed":
            await service.end(tid, host, may_manage=True)
        return tid
    finally:
        await service.stop_service()
        await store.close()
