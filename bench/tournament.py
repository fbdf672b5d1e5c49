"""Benchmark: the REST requests a tournament costs against Discord's global rate limit.

Run:  python bench/tournament.py [--players 45] [--seats-per-table 9] [--hands 3] [--seed S]

The real bot (its TableService and TournamentService on a real SQLite store) runs against
the fake Discord, as bench/requests.py does: the host runs ``/tournament create`` with
``computers:`` filling every seat (a practice tournament) and presses the lobby's
**Start**; the tables play in the threads the bot opens. The computers play in real time;
the tournament's clock is a virtual one the bench moves, so a level change comes when the
bench says (never after 20 real minutes). Counted requests are those Discord's global
limit counts (:mod:`bot.testing.request_count`: interaction callbacks and webhooks
excepted).

Three measures:

- **per hand**: from the moment every table has dealt its first hand, the counted requests
  until each table has played ``--hands`` more on average, divided by the hands played
  per table: what one hand at every table costs together (summed over the tables);
- **per level change**: the clock is moved to the stored time of the next level; the
  requests the change itself costs, summed over the tables and the lobby: edits of a
  table message that change only what it says of the tournament (an edit that also
  carries a hand's news is a hand's, the level riding on it for free), and the lobby's
  edit. At most 2 a table;
- **no edit on a timer**: every edit of a message is classified: a hand's news (the
  message's hand part changed), the level change's, or neither (nothing a hand did nor a
  click): the last must be 0. Then the director pauses the tournament, the tables finish
  their hands, and ten minutes of clock pass in ten-second steps: no request at all.

The last line: ``RESULT tournament45_requests_per_hand=X level_change_requests=Y``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import io
import json
import random
import re
import sys
import tempfile
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.app import HomeGameBot, PublishRelay
from bot.config import BackupSettings, DatabaseSettings, DiscordSettings, Settings
from bot.engine.errors import HomeGameError
from bot.store import Store
from bot.tables.service import TableService
from bot.testing import ADMINISTRATOR, FakeDiscord, running_client
from bot.testing.fake_discord import RequestRecord
from bot.testing.request_count import count_routes, counts_against_global_limit

LEVELS = "50/100 20m, 100/200 20m, 200/400 20m, 400/800 20m, 800/1600 20m, 1500/3000 20m"
"""Twenty-minute levels: no change comes but the one the bench moves the clock to."""
MAX_PER_TABLE = 2
"""The issue's bound on a level change's requests, per table."""
HANG = 600.0
"""Seconds of real time after which a wait is taken to hang (a guard, not a measure)."""
BANNER = re.compile(r"^(🏆 |\*\*Level \d+\*\*|Next: |⏸ |☕ )")
"""The lines of a table message that say what the tournament is at (above its hand)."""
VERBOSE = False
"""Print where the bench waits (for a run that seems to hang)."""
_PATCH = re.compile(r"^/channels/(\d+)/messages/(\d+)$")


class Clock:
    """The whole bot's clock, which the bench moves; the timers sleep on it."""

    def __init__(self, now: float) -> None:
        self.now = now
        self._sleepers: list[tuple[float, asyncio.Future[None]]] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        entry = (self.now + seconds, fut)
        self._sleepers.append(entry)
        try:
            await fut
        finally:
            self._sleepers.remove(entry)

    def advance(self, seconds: float) -> None:
        self.now += seconds
        for when, fut in list(self._sleepers):
            if when <= self.now and not fut.done():
                fut.set_result(None)


@dataclass
class Edits:
    """Every edit of a guild message, classified by what caused it."""

    last: dict[int, tuple[str, str]] = field(default_factory=dict)
    kinds: Counter[str] = field(default_factory=Counter)

    def classify(self, record: RequestRecord, *, level_window: bool) -> str | None:
        match = _PATCH.match(record.path)
        if record.method != "PATCH" or match is None or not isinstance(record.body, dict):
            return None
        message_id = int(match.group(2))
        full = json.dumps(record.body, sort_keys=True)
        hand = json.dumps(_without_banner(record.body), sort_keys=True)
        before = self.last.get(message_id)
        self.last[message_id] = (full, hand)
        if before is None or hand != before[1]:
            kind = "hand or click"
        elif full != before[0] and level_window:
            kind = "level change"
        else:
            kind = "timer"  # nothing a hand did, no click, no level change
        self.kinds[kind] += 1
        return kind


def _without_banner(body: dict[str, Any]) -> dict[str, Any]:
    out = dict(body)
    embeds = []
    for embed in body.get("embeds") or ():
        e = dict(embed)
        text = str(e.get("description") or "")
        e["description"] = "\n".join(x for x in text.split("\n") if not BANNER.match(x))
        embeds.append(e)
    out["embeds"] = embeds
    return out


@dataclass
class Measurement:
    players: int
    tables: int
    hands: int
    """Hands played in the measured part, summed over the tables."""
    requests: Counter[str]
    """Counted requests of the measured hands, by route."""
    level_change: int
    level_change_routes: Counter[str]
    edits: Counter[str]
    quiet: int
    """Requests while the paused tournament's clock ran ten minutes (must be 0)."""

    @property
    def per_hand(self) -> float:
        """Requests of one hand at every table, summed over the tables."""
        total = sum(n for k, n in self.requests.items() if k != "pictures")
        return total * self.tables / max(1, self.hands)


async def _until(check: Callable[[], Awaitable[bool]], what: str) -> None:
    loop = asyncio.get_running_loop()
    if VERBOSE:
        print(f"[{loop.time():.1f}] waiting for {what}", file=sys.stdout, flush=True)
    end = loop.time() + HANG
    while not await check():
        if loop.time() > end:
            raise RuntimeError(f"the bench waited in vain for {what}")
        await asyncio.sleep(0.02)


async def measure(
    players: int = 45, seats: int = 9, *, hands: int = 3, seed: int = 1
) -> Measurement:
    """Run the tournament of ``players`` computers at ``seats``-seat tables; measure
    ``hands`` hands a table, one level change and ten quiet paused minutes."""
    fake = FakeDiscord()
    await fake.start()
    try:
        guild = fake.add_guild("Home Game tournament")
        channel = fake.add_channel(guild, "poker")
        host = fake.add_user("host")
        fake.add_member(guild, host, permissions=ADMINISTRATOR)
        clock = Clock(float(int(fake.now())) + 0.25)
        with tempfile.TemporaryDirectory(prefix="homegame-tournament-") as tmp:
            db_path = Path(tmp) / "homegame.db"
            settings = Settings(
                discord=DiscordSettings(token=fake.token, api_base=fake.api_base),
                database=DatabaseSettings(path=db_path),
                backup=BackupSettings(enabled=False, dir=Path(tmp) / "backups"),
            )
            store = await Store.open(db_path, clock=clock)
            seeds = random.Random(seed)
            relay = PublishRelay()
            service = TableService(
                store,
                clock=clock,
                rng_factory=lambda: random.Random(seeds.random()),
                subscriber=relay,
                autostart_delay=0,
                computer_delay=0.01,
                sleep=clock.sleep,
            )
            bot = HomeGameBot(
                settings=settings, store=store, service=service, relay=relay, clock=clock
            )
            try:
                async with running_client(fake, bot):
                    return await _run(fake, bot, clock, host, channel, players, seats, hands)
            finally:
                await service.stop_service()
                await store.close()
    finally:
        await fake.stop()


async def _run(
    fake: FakeDiscord,
    bot: HomeGameBot,
    clock: Clock,
    host: Any,
    channel: Any,
    players: int,
    seats: int,
    hands: int,
) -> Measurement:
    d, service = bot.tournaments, bot.service
    assert d is not None and service is not None
    options = {
        "game": "holdem",
        "computers": players,
        "seats_per_table": seats,
        "starting_stack": 10_000,
        "levels": LEVELS,
    }
    created = await (
        await fake.invoke(host, channel, "tournament", options, subcommand="create")
    ).response()
    if created.message is None:
        raise RuntimeError(f"/tournament create: {created.content}")
    (tid,) = d.live_ids()
    started = await (await fake.click_label(host, created.message, "Start")).response()
    if "starts" not in started.content:
        raise RuntimeError(f"Start: {started.content}")

    async def numbers() -> dict[int, int]:
        out = {}
        if tid not in d.live_ids():
            return out
        for table_id in d.live(tid).tables.values():
            with contextlib.suppress(HomeGameError):
                out[table_id] = (await service.view(table_id)).hand_number
        return out

    async def dealt(at_least: int) -> bool:
        got = await numbers()
        return bool(got) and all(n >= at_least for n in got.values())

    await _until(lambda: dealt(1), "every table's first hand")
    tables = len(d.live(tid).tables)
    edits = Edits()
    seen = 0

    def classify(level_window: bool) -> None:
        nonlocal seen
        for record in fake.requests[seen:]:
            edits.classify(record, level_window=level_window)
        seen = len(fake.requests)

    classify(False)
    start, first = len(fake.requests), sum((await numbers()).values())

    async def played() -> bool:
        classify(False)
        return sum((await numbers()).values()) - first >= hands * tables

    await _until(played, f"{hands} hands a table")
    end, last = len(fake.requests), sum((await numbers()).values())
    routes = count_routes(fake, fake.requests[start:end])

    # --- one level change, at its stored time
    lobby = d.lobby(tid)
    assert lobby.next_change is not None and lobby.level == 1
    classify(False)
    before = len(fake.requests)
    clock.advance(lobby.next_change - clock.now)

    async def shown() -> bool:
        if d.lobby(tid).level != 2:
            return False
        for table_id in d.live(tid).tables.values():
            thread = fake.channels[service._tables[table_id].channel_id]
            messages = [m for m in fake.channel_messages(thread) if m.embeds]
            if not messages or "**Level 2**" not in str(messages[0].embeds):
                return False
        cog: Any = bot.get_cog("Tournaments")
        await cog.updates.idle()
        return True

    await _until(shown, "level 2 on every table")
    window = fake.requests[before:]
    level_routes: Counter[str] = Counter()
    for record in window:
        kind = edits.classify(record, level_window=True)
        if kind == "level change":
            level_routes["table edit"] += 1
        elif (
            record.method == "PATCH"
            and record.path.startswith(f"/channels/{channel.id}/messages/")
            and counts_against_global_limit(record)
        ):
            level_routes["lobby edit"] += 1
    seen = len(fake.requests)
    level_change = sum(level_routes.values())

    # --- the director pauses; the tables finish their hands; ten minutes pass
    paused = await (await fake.invoke(host, channel, "tournament", subcommand="pause")).response()
    if "paused" not in paused.content:
        raise RuntimeError(f"/tournament pause: {paused.content}")

    async def held() -> bool:
        classify(False)
        if tid not in d.live_ids():
            return True
        for table_id in d.live(tid).tables.values():
            view = await service.view(table_id)
            if view.status != "paused":
                return False
        cog: Any = bot.get_cog("Tournaments")
        await cog.updates.idle()
        tables_cog: Any = bot.get_cog("Tables")
        await tables_cog.updates.idle()
        return True

    await _until(held, "every table held by the pause")
    await asyncio.sleep(0.2)
    classify(False)
    quiet_from = len(fake.requests)
    for _ in range(60):
        clock.advance(10)
        await asyncio.sleep(0.01)
    await asyncio.sleep(0.2)
    quiet = sum(1 for r in fake.requests[quiet_from:] if counts_against_global_limit(r))
    classify(False)
    return Measurement(
        players=players,
        tables=tables,
        hands=last - first,
        requests=routes,
        level_change=level_change,
        level_change_routes=level_routes,
        edits=edits.kinds,
        quiet=quiet,
    )


def check(m: Measurement) -> None:
    """The bench's assertions: a level change costs at most 2 requests a table; no message
    is edited on a timer (neither by a hand, a click nor the level change), and a paused
    tournament's clock running costs nothing."""
    assert m.level_change <= MAX_PER_TABLE * m.tables, (m.level_change, m.level_change_routes)
    assert m.edits["timer"] == 0, dict(m.edits)
    assert m.quiet == 0, m.quiet


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=45)
    parser.add_argument("--seats-per-table", type=int, default=9)
    parser.add_argument("--hands", type=int, default=3, help="hands measured a table")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    with contextlib.redirect_stderr(io.StringIO()):
        m = asyncio.run(
            measure(args.players, args.seats_per_table, hands=args.hands, seed=args.seed)
        )
    check(m)
    print(f"{m.players} computer players at {m.tables} tables of {args.seats_per_table}")
    print(f"hands measured: {m.hands} (summed over the tables)")
    print("requests of one hand at every table, by route:")
    for route, n in sorted(m.requests.items()):
        print(f"  {route}: {n * m.tables / max(1, m.hands):.1f}")
    print(f"one level change: {m.level_change} requests {dict(m.level_change_routes)}")
    print(f"edits by cause: {dict(m.edits)}")
    print(f"requests while paused for ten minutes of clock: {m.quiet}")
    print(
        f"RESULT tournament{m.players}_requests_per_hand={m.per_hand:.1f}"
        f" level_change_requests={m.level_change}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
