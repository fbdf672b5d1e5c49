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

- **per hand** (X): from the moment every table has dealt its first hand, the counted
  requests of the whole tournament (summed over all its tables, their DMs and the lobby)
  until each table has played ``--hands`` more on average, divided by the hands played at
  all the tables: what one hand costs, as bench/requests.py's ``holdem6`` figure does for a
  cash table. The details also give each table's own figure (the requests in its thread
  over its hands) and what one hand at every table costs together (X times the tables);
- **per level change** (Y): the clock is moved to the stored time of the next level; the
  requests the change costs, summed over the tables and the lobby. Measured twice: while
  the tables deal (an edit that also carries a hand's news is a hand's, the level riding
  on it for free), and -- the honest worst case, reported as Y -- while no table is in a
  hand: every table is between hands (as with people at the table, who are seconds apart,
  not the computers' hundredths), so the change costs an edit of every table message and
  one of the lobby, and every request of that moment is counted. At most 2 a table;
- **no edit on a timer**: every edit of a message is classified: a hand's news (the
  message's hand part changed), the level change's, or neither (nothing a hand did nor a
  click): the last must be 0. Then the director pauses the tournament, the tables finish
  their hands, and ten minutes of clock pass in ten-second steps: no request at all.

The last line: ``RESULT tournament45_requests_per_hand=X level_change_requests=Y``.

>>> Measurement(9, 2, 10, Counter({"table edit": 60, "dm post": 70, "pictures": 5}),
...     3, Counter(), Counter(), 0).per_hand
13.0
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
from bot.testing.clock import VirtualClock
from bot.testing.fake_discord import RequestRecord
from bot.testing.request_count import count_routes, counts_against_global_limit, route_kind

LEVELS = "50/100 20m, 100/200 20m, 200/400 20m, 400/800 20m, 800/1600 20m, 1500/3000 20m"
"""Twenty-minute levels: no change comes but the one the bench moves the clock to."""
IDLE_GAP = 7200.0
"""Seconds of clock a table waits between hands while the bench holds every table between
hands (longer than a level: nothing but the level change happens in that moment)."""
MAX_PER_TABLE = 2
"""The issue's bound on a level change's requests, per table."""
HANG = 600.0
"""Seconds of real time after which a wait is taken to hang (a guard, not a measure)."""
BANNER = re.compile(r"^(🏆 |\*\*Level \d+\*\*|Next: |⏸ |☕ )")
"""The lines of a table message that say what the tournament is at (above its hand)."""
VERBOSE = False
"""Print where the bench waits (for a run that seems to hang)."""
_PATCH = re.compile(r"^/channels/(\d+)/messages/(\d+)$")
_CHANNEL = re.compile(r"^/channels/(\d+)/")


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
    """Counted requests of the measured hands, by route (the whole tournament's)."""
    level_change: int
    """A level change's requests while no table is in a hand (the reported Y)."""
    level_change_routes: Counter[str]
    edits: Counter[str]
    quiet: int
    """Requests while the paused tournament's clock ran ten minutes (must be 0)."""
    level_change_dealing: int = 0
    """A level change's requests while the tables deal (the level rides on hands' edits)."""
    level_change_dealing_routes: Counter[str] = field(default_factory=Counter)
    by_table: dict[int, tuple[int, int]] = field(default_factory=dict)
    """Each table's (number) counted requests in its own channel and hands, measured part."""
    elsewhere: Counter[str] = field(default_factory=Counter)
    """The measured requests outside the tables' channels (DMs, the lobby), by route."""

    @property
    def per_hand(self) -> float:
        """Requests of the whole tournament per hand played at any of its tables."""
        total = sum(n for k, n in self.requests.items() if k != "pictures")
        return total / max(1, self.hands)

    @property
    def per_hand_every_table(self) -> float:
        """Requests of one hand at every table together (summed over the tables)."""
        return self.per_hand * self.tables


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
        clock = VirtualClock(float(int(fake.now())) + 0.25)
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
    clock: VirtualClock,
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
    at_start = await numbers()
    start, first = len(fake.requests), sum(at_start.values())
    channels = {
        service._tables[table_id].channel_id: number
        for number, table_id in d.live(tid).tables.items()
    }

    async def played() -> bool:
        classify(False)
        return sum((await numbers()).values()) - first >= hands * tables

    await _until(played, f"{hands} hands a table")
    at_end = await numbers()
    end, last = len(fake.requests), sum(at_end.values())
    routes = count_routes(fake, fake.requests[start:end])
    in_channel: Counter[int] = Counter()
    elsewhere: Counter[str] = Counter()
    for record in fake.requests[start:end]:
        if not counts_against_global_limit(record):
            continue
        match = _CHANNEL.match(record.path)
        number = channels.get(int(match.group(1))) if match else None
        if number is None:
            elsewhere[route_kind(fake, record)] += 1
        else:
            in_channel[number] += 1
    by_table = {
        number: (in_channel[number], at_end.get(table_id, at_start[table_id]) - at_start[table_id])
        for number, table_id in sorted(d.live(tid).tables.items())
        if table_id in at_start
    }

    async def level_change(level: int, *, idle: bool) -> tuple[int, Counter[str]]:
        """Move the clock to the stored time of level ``level``; the requests it costs:
        with ``idle``, every counted request of that moment (no table is in a hand), else
        the table edits that carry nothing but the tournament's news, and the lobby's."""
        nonlocal seen
        lobby = d.lobby(tid)
        assert lobby.next_change is not None and lobby.level == level - 1, lobby.level
        classify(False)
        before = len(fake.requests)
        clock.advance(lobby.next_change - clock.now)

        async def shown() -> bool:
            if d.lobby(tid).level != level:
                return False
            for table_id in d.live(tid).tables.values():
                thread = fake.channels[service._tables[table_id].channel_id]
                messages = [m for m in fake.channel_messages(thread) if m.embeds]
                if not messages or f"**Level {level}**" not in str(messages[0].embeds):
                    return False
            await idle_cogs()
            return True

        await _until(shown, f"level {level} on every table")
        found: Counter[str] = Counter()
        for record in fake.requests[before:]:
            kind = edits.classify(record, level_window=True)
            if not counts_against_global_limit(record):
                continue
            lobby_edit = record.method == "PATCH" and record.path.startswith(
                f"/channels/{channel.id}/messages/"
            )
            if kind == "level change":
                found["table edit"] += 1
            elif lobby_edit:
                found["lobby edit"] += 1
            elif idle:
                found[route_kind(fake, record)] += 1  # nothing else may hide in the moment
        seen = len(fake.requests)
        return sum(found.values()), found

    async def idle_cogs() -> None:
        for name in ("Tournaments", "Tables"):
            cog: Any = bot.get_cog(name)
            await cog.updates.idle()

    # --- a level change while the tables deal (the level rides on hands' edits)
    dealing, dealing_routes = await level_change(2, idle=False)

    # --- a level change while no table is in a hand: each finishes the hand it plays and
    # waits (as people between hands do), the clock comes to the level's stored time
    service.autostart_delay = IDLE_GAP

    async def between_hands() -> bool:
        classify(False)
        for table_id in d.live(tid).tables.values():
            live = service._tables[table_id]
            if live.family.hand_running:
                return False
            if live.pending == "next_hand" and (
                live.deadline is None or live.deadline - clock.now < IDLE_GAP / 2
            ):
                return False  # its next hand would come before the level: not yet idle
        await idle_cogs()
        return True

    await _until(between_hands, "every table between hands")
    await asyncio.sleep(0.2)
    classify(False)
    level_change_idle, level_routes = await level_change(3, idle=True)
    service.autostart_delay = 0
    for table_id in d.live(tid).tables.values():
        with contextlib.suppress(HomeGameError):
            await service.deal_when_ready(table_id)

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
        await idle_cogs()
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
        level_change=level_change_idle,
        level_change_routes=level_routes,
        edits=edits.kinds,
        quiet=quiet,
        level_change_dealing=dealing,
        level_change_dealing_routes=dealing_routes,
        by_table=by_table,
        elsewhere=elsewhere,
    )


def check(m: Measurement) -> None:
    """The bench's assertions: a level change costs at most 2 requests a table (while the
    tables deal and while none is in a hand, when it costs one edit of each table message
    and one of the lobby); no message is edited on a timer (neither by a hand, a click nor
    the level change), and a paused tournament's clock running costs nothing."""
    assert m.level_change <= MAX_PER_TABLE * m.tables, (m.level_change, m.level_change_routes)
    assert m.level_change_dealing <= MAX_PER_TABLE * m.tables, m.level_change_dealing_routes
    assert m.level_change_routes["table edit"] <= m.tables, m.level_change_routes
    assert m.level_change_routes["lobby edit"] <= 1, m.level_change_routes
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
    print("requests per hand (the whole tournament's over the hands of all tables), by route:")
    for route, n in sorted(m.requests.items()):
        print(f"  {route}: {n / max(1, m.hands):.1f}")
    print("per table (the requests in its own thread over its hands):")
    for number, (n, played) in sorted(m.by_table.items()):
        print(f"  table {number}: {n} requests, {played} hands: {n / max(1, played):.1f} a hand")
    print(f"  elsewhere (DMs, the lobby): {dict(m.elsewhere)}")
    print(f"one hand at every table together: {m.per_hand_every_table:.1f} requests")
    print(
        f"one level change while the tables deal: {m.level_change_dealing} requests"
        f" {dict(m.level_change_dealing_routes)}"
    )
    print(
        f"one level change while no table is in a hand: {m.level_change} requests"
        f" {dict(m.level_change_routes)} (the reported Y; at most {MAX_PER_TABLE} a table)"
    )
    print(f"edits by cause: {dict(m.edits)}")
    print(f"requests while paused for ten minutes of clock: {m.quiet}")
    print(
        f"RESULT tournament{m.players}_requests_per_hand={m.per_hand:.1f}"
        f" level_change_requests={m.level_change}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
