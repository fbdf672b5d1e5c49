"""Benchmark: interaction-to-response latency of the real bot through the fake Discord.

Run:  python bench/interactions.py [--clicks N]

For 1, 10 and 50 Razz tables played at once (two users each, in their own channels), the
player to act presses **Check**, **Call** or **Bring in** on the table message, over and
over, hands following each other; each click goes through the real discord.py client, the
tables cog, the TableService (lock, engine, one SQLite transaction) and back. The latency
is the fake Discord's: from sending the interaction on the gateway to receiving the bot's
first callback (what Discord's 3-second rule measures; the bot acknowledges a click it
accepts with a deferred update, then commits and edits the clicked message).

The floor is a minimal discord.py bot on the same kind of fake with the same number of
users clicking a button at once, whose only work is ``interaction.response.defer()``.

Layout, as in production: each bot runs in its OWN PROCESS (``--child``: the Home Game bot
built as ``python -m bot run`` builds it, or the bare bot), connected to its fake Discord
only through ``discord.api_base`` (REST and the gateway on 127.0.0.1). This process holds
both fakes and the clicking users, and reads every latency off the fakes' clock. Discord's
own work (parsing a bot's uploads, keeping every message version) is thus not charged to
the bot's event loop, and each bot's heap and garbage collector are its own.

Fairness: at each level both sides are set up first, warmed up with ``WARMUP`` untimed
clicks per table, then measured in INTERLEAVED slices (bot, bare, bare, bot, ...: the order
alternates) of the same number of clicks per table, so load changes hit both alike. During
a slice the other bots are stopped (SIGSTOP, then SIGCONT): a bot's late work (a hand DM
edit that waits for its next change) runs in its own slices, never in another's. Between
slices each side settles, untimed: the Home Game bot until every table shows a player to
act and the bot has sent nothing for ``QUIET`` seconds (its DM edits and posts done); then
this process collects its garbage and freezes what survives (``gc.freeze``), the same for
both sides, so a collection over the fakes' growing records never lands in a slice.

Rounds: each level is measured :data:`ROUNDS` times over (each round its own interleaved
slices of ``--clicks`` clicks per side), and the level's figure is the MEDIAN of the rounds'
ratios of the two p99s. A p99 over 600 clicks is their sixth slowest, and at one table a
single hiccup of a shared machine (a few milliseconds, a few times a minute, landing on
whichever side is clicking) decides it: two copies of the same bot measured in the same
slices differed by a quarter (2.97 vs 2.33 ms), and one round's ratio ranged 1.07-1.62 over
runs minutes apart. A round that met such a hiccup no longer decides the figure; one in
which the bot itself was slow still shows in the other rounds.

Prints a markdown table (each side's p50 and p99 over all rounds, each round's ratio, their
median); the last line is ``RESULT p99_vs_bare=R`` (R: the worst level's median ratio).
Target: within 1.5x (issue 22, with the turn pings and the choices made in advance on, as
they are by default).

``--baseline DIR`` measures a second Home Game bot side by side, in the same slices: the
code checked out in DIR (e.g. ``git archive main | tar -x -C DIR``), run as its own child
from its own tree; its ratio is printed as ``BASELINE p99_vs_bare=R`` before the RESULT
line, so a change is judged against the code before it on the same machine at the same
moment (the load of a shared machine moves both alike). ``--profile PATH`` writes the
Home Game bot child's cProfile statistics to PATH (``python -m pstats PATH``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import logging
import os
import re
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.testing import FakeChannel, FakeDiscord, FakeMessage, FakeUser

LEVELS = (1, 10, 50)
ACTIONS = ("Check", "Call", "Bring in", "Complete", "Bet", "Fold")
STAKES = {"ante": 1, "bring_in": 2, "small_bet": 4, "big_bet": 8}
WARMUP = 3
"""Untimed clicks per table before the timed ones, on both sides."""
SLICES = 10
"""Timed slices per side and round; the two sides alternate slice by slice."""
ROUNDS = 3
"""Rounds per level: the level's figure is the median of the rounds' p99 ratios."""
QUIET = 0.05
"""Seconds without a request from the Home Game bot before a slice starts."""
NEXT_HAND = 0.05
"""The Home Game bot's pause between hands here (3 s in the product): table after table
would otherwise wait for its next hand between slices."""
BARE_LABEL = "Check"

TO_ACT = re.compile(r"To act: <@(\d+)>")


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def world(
    fake: FakeDiscord, tables: int, name: str
) -> list[tuple[FakeChannel, FakeUser, FakeUser]]:
    guild = fake.add_guild(name)
    out = []
    for k in range(tables):
        channel = fake.add_channel(guild, f"table-{k}")
        pair = fake.add_user(f"{name}-a{k}"), fake.add_user(f"{name}-b{k}")
        for user in pair:
            fake.add_member(guild, user)
        out.append((channel, *pair))
    return out


# ----------------------------------------------------------------------------- child side


async def _child_bare(api_base: str, token: str) -> None:
    """The bare bot: a persistent button that only defers; posts one per text channel."""
    import discord

    class BareButton(discord.ui.View):
        def __init__(self) -> None:
            super().__init__(timeout=None)

        @discord.ui.button(label=BARE_LABEL, custom_id="bare:check")
        async def check(
            self, interaction: discord.Interaction, button: discord.ui.Button[Any]
        ) -> None:
            await interaction.response.defer()

    client = discord.AutoShardedClient(intents=discord.Intents(guilds=True))
    client._connection.guild_ready_timeout = 0.05
    client.add_view(BareButton())
    await _serve(client, token, ready=lambda: _post_buttons(client, BareButton))


async def _post_buttons(client: Any, view: Any) -> None:
    for guild in client.guilds:
        for channel in guild.text_channels:
            await channel.send("bench", view=view())


async def _child_bot(api_base: str, token: str, db: Path) -> None:
    """The Home Game bot, assembled as ``python -m bot run`` does (bot.cli.run.serve), with
    :data:`NEXT_HAND` between hands."""
    from bot.app import HomeGameBot, PublishRelay, freeze_heap_when_ready
    from bot.config import DatabaseSettings, DiscordSettings, Settings
    from bot.store import Store
    from bot.tables.service import TableService

    settings = Settings(
        discord=DiscordSettings(token=token, api_base=api_base),
        database=DatabaseSettings(path=db),
    )
    store = await Store.open(db)
    relay = PublishRelay()
    service = TableService(store, subscriber=relay, autostart_delay=NEXT_HAND)
    bot = HomeGameBot(settings=settings, store=store, service=service, relay=relay)
    bot._connection.guild_ready_timeout = 0.05
    try:
        await _serve(bot, token, ready=lambda: freeze_heap_when_ready(bot))
    finally:
        await service.stop_service()
        await store.close()


async def _serve(client: Any, token: str, ready: Any) -> None:
    """Connect, run ``ready()``, say READY on stdout, run until SIGTERM or stdin closes."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGTERM, stop.set)
    loop.add_reader(sys.stdin.fileno(), lambda: stop.set() if not os.read(0, 1) else None)
    await client.login(token)
    runner = asyncio.create_task(client.connect(reconnect=True))
    await client.wait_until_ready()
    if ready is not None:
        await ready()
    print("READY", flush=True)
    await stop.wait()
    await client.close()
    with contextlib.suppress(Exception):
        await asyncio.wait_for(runner, 10)


PROFILE_ENV = "HOMEGAME_BENCH_PROFILE"
"""Set for a Home Game bot child: where it writes its cProfile statistics (--profile)."""


def child_main(kind: str, api_base: str, token: str, db: str | None) -> int:
    from discord.http import Route

    from bot.ops.priority import run

    logging.basicConfig(level=logging.ERROR)
    Route.BASE = api_base  # REST here; AutoShardedClient asks GET /gateway/bot for the URL
    if kind == "bare":
        asyncio.run(_child_bare(api_base, token))  # discord.py's as it comes, on asyncio's loop
        return 0
    assert db is not None
    profile = os.environ.get(PROFILE_ENV)
    if not profile:
        run(_child_bot(api_base, token, Path(db)))  # on the bot's loop, as python -m bot run
        return 0
    import cProfile

    profiler = cProfile.Profile()
    profiler.enable()
    try:
        run(_child_bot(api_base, token, Path(db)))
    finally:
        profiler.disable()
        profiler.dump_stats(profile)
    return 0


class Child:
    """One bot process, connected to ``fake``; ``root``: run the bench of that source tree
    (a baseline's), else this one."""

    def __init__(
        self,
        kind: str,
        fake: FakeDiscord,
        db: Path | None,
        log: Path,
        *,
        root: Path | None = None,
        profile: Path | None = None,
    ) -> None:
        self.kind, self.fake, self.db, self.log = kind, fake, db, log
        self.root, self.profile = root, profile

    async def __aenter__(self) -> Child:
        script = __file__ if self.root is None else str(self.root / "bench" / "interactions.py")
        args = [sys.executable, script, "--child", self.kind, self.fake.api_base, self.fake.token]
        if self.db is not None:
            args.append(str(self.db))
        self.err = self.log.open("wb")
        env = dict(os.environ)
        if self.profile is not None:
            env[PROFILE_ENV] = str(self.profile)
        self.proc = await asyncio.create_subprocess_exec(
            *args,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=self.err,
            cwd=None if self.root is None else str(self.root),
            env=env,
        )
        assert self.proc.stdout is not None
        try:
            line = await asyncio.wait_for(self.proc.stdout.readline(), 60)
        except TimeoutError:
            line = b""
        if line.strip() != b"READY":
            self.proc.kill()
            raise RuntimeError(f"{self.kind} bot did not start: {self.log.read_text()[-2000:]}")
        return self

    def _family(self) -> list[int]:
        """This bot's process and its children (the image worker), deepest last."""
        pids, i = [self.proc.pid], 0
        while i < len(pids):
            with contextlib.suppress(OSError):
                path = Path(f"/proc/{pids[i]}/task/{pids[i]}/children")
                pids.extend(int(x) for x in path.read_text().split())
            i += 1
        return pids

    def pause(self) -> None:
        """Stop this bot (SIGSTOP) while another side is measured: its own late work (a
        hand DM edit that waits for its next change, up to ``DM_SETTLE`` seconds) must not
        run on the machine, nor through this process's fakes, during another's slice."""
        for pid in self._family():
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGSTOP)

    def resume(self) -> None:
        for pid in self._family():
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGCONT)

    async def __aexit__(self, *exc: object) -> None:
        assert self.proc.stdin is not None
        self.resume()
        self.proc.stdin.close()
        try:
            await asyncio.wait_for(self.proc.wait(), 20)
        except TimeoutError:
            self.proc.kill()
            await self.proc.wait()
        self.err.close()


# ----------------------------------------------------------------------------- the users


def _latencies(fake: FakeDiscord, start: int) -> list[float]:
    records = list(fake.interactions.values())[start:]
    return [r.latency for r in records if r.latency is not None]


class BareSide:
    """The floor: the defer-only bot, one button message per table."""

    def __init__(self, fake: FakeDiscord, seats: list[tuple[FakeChannel, FakeUser, FakeUser]]):
        self.fake = fake
        self.seats = seats
        self.messages: list[FakeMessage] = []
        self.clicks = 0

    async def setup(self) -> None:
        for channel, _, _ in self.seats:
            for _ in range(500):
                sent = [m for m in self.fake.channel_messages(channel) if m.buttons()]
                if sent:
                    break
                await asyncio.sleep(0.01)
            self.messages.append(sent[0])

    async def run(self, per_table: int) -> list[float]:
        """``per_table`` clicks on every table at once; their latencies."""
        start = len(self.fake.interactions)

        async def player(message: FakeMessage, users: tuple[FakeUser, FakeUser]) -> None:
            for _ in range(per_table):
                self.clicks += 1
                rec = await self.fake.click(users[self.clicks % 2], message, "bare:check")
                await rec.acknowledgement()  # a bare defer is all this bot ever answers

        await asyncio.gather(
            *(player(m, (a, b)) for m, (_, a, b) in zip(self.messages, self.seats, strict=True))
        )
        latencies = _latencies(self.fake, start)
        assert len(latencies) == per_table * len(self.seats)
        return latencies

    async def settle(self) -> None:
        return None


def _to_act(table: FakeMessage) -> int | None:
    """The user the table message names to act, if it shows an action button."""
    embeds = table.embeds
    if not embeds:
        return None
    found = TO_ACT.search(str(embeds[0].get("description", "")))
    if found is None:
        return None
    labels = {b["label"] for b in table.buttons() if not b.get("disabled")}
    if not any(x in labels for x in ACTIONS):
        return None
    return int(found.group(1))


class BotSide:
    """The Home Game bot: a Razz table per channel, the player to act clicking."""

    def __init__(self, fake: FakeDiscord, seats: list[tuple[FakeChannel, FakeUser, FakeUser]]):
        self.fake = fake
        self.seats = seats
        self.tables: list[FakeMessage] = []

    async def setup(self) -> None:
        fake = self.fake
        for channel, a, b in self.seats:
            reply = await (await fake.invoke(a, channel, "razz", STAKES)).response(timeout=30)
            assert reply.message is not None
            table = reply.message
            await (await fake.click_label(b, table, "Join")).response(timeout=30)
            await (await fake.click_label(a, table, "Start")).response(timeout=30)
            self.tables.append(table)

    async def run(self, per_table: int) -> list[float]:
        fake = self.fake
        start = len(fake.interactions)

        async def player(table: FakeMessage, users: tuple[FakeUser, FakeUser]) -> None:
            done = 0
            while done < per_table:
                shown = table.latest
                uid = _to_act(table)
                if uid is None:  # between hands, or an edit under way: wait for the next
                    with contextlib.suppress(TimeoutError):
                        await table.changed(shown, timeout=1.0)
                    continue
                user = users[0] if users[0].id == uid else users[1]
                labels = {b["label"] for b in table.buttons() if not b.get("disabled")}
                label = next(x for x in ACTIONS if x in labels)
                before = table.latest
                rec = await fake.click_label(user, table, label)
                reply = await rec.response(timeout=30)
                if reply.ephemeral:  # refused (e.g. a timer acted first): not a timed click
                    continue
                done += 1
                await table.changed(before)  # the edit that shows the new state

        await asyncio.gather(
            *(player(t, (a, b)) for t, (_, a, b) in zip(self.tables, self.seats, strict=True))
        )
        return _latencies(fake, start)

    async def settle(self) -> None:
        """Untimed: every table shows a player to act, and the bot has been quiet (no
        request) for :data:`QUIET` seconds: its DM edits and posts are done."""
        fake = self.fake
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            last = fake.requests[-1].at if fake.requests else 0.0
            if all(_to_act(t) is not None for t in self.tables) and (fake.clock() - last >= QUIET):
                return
            await asyncio.sleep(0.01)
        raise RuntimeError("the bot never settled")


def _collect() -> None:
    """This process's garbage collected and frozen between slices (both sides alike)."""
    gc.collect()
    gc.freeze()


async def level(
    tables: int,
    clicks: int,
    tmp: Path,
    *,
    baseline: Path | None = None,
    profile: Path | None = None,
) -> tuple[list[dict[str, list[float]]], float]:
    """Every side of one level, measured in :data:`ROUNDS` rounds of interleaved slices:
    per round, each side's latencies (``bare``, ``bot`` and, with a ``baseline`` tree,
    ``before``); and the seconds taken."""
    per_table = max(SLICES, clicks // tables)
    per_slice = [per_table // SLICES + (i < per_table % SLICES) for i in range(SLICES)]
    async with contextlib.AsyncExitStack() as stack:
        n = 2 if baseline is None else 3
        fakes = [await stack.enter_async_context(FakeDiscord()) for _ in range(n)]
        bare = BareSide(fakes[0], world(fakes[0], tables, "bare"))
        ours = BotSide(fakes[1], world(fakes[1], tables, "bot"))
        bare_bot = await stack.enter_async_context(
            Child("bare", fakes[0], None, tmp / f"bare-{tables}.log")
        )
        prof = None if profile is None else profile.with_suffix(f".{tables}{profile.suffix}")
        our_bot = await stack.enter_async_context(
            Child(
                "bot", fakes[1], tmp / f"bench-{tables}.db", tmp / f"bot-{tables}.log", profile=prof
            )
        )
        order: list[tuple[str, BareSide | BotSide]] = [("bot", ours), ("bare", bare)]
        bots = {"bot": our_bot, "bare": bare_bot}
        if baseline is not None:
            before = BotSide(fakes[2], world(fakes[2], tables, "before"))
            bots["before"] = await stack.enter_async_context(
                Child(
                    "bot",
                    fakes[2],
                    tmp / f"before-{tables}.db",
                    tmp / f"before-{tables}.log",
                    root=baseline,
                )
            )
            order.append(("before", before))
        sides = [side for _, side in order]
        for side in sides:
            await side.setup()
            await side.settle()
        for side in sides:  # first-use costs, untimed
            await side.run(WARMUP)
            await side.settle()
        rounds: list[dict[str, list[float]]] = []
        started = time.perf_counter()
        for _ in range(ROUNDS):
            timed: dict[str, list[float]] = {name: [] for name, _ in order}
            for i, count in enumerate(per_slice):
                turn = order[i % len(order) :] + order[: i % len(order)]  # each leads in turn
                for name, side in turn if i % 2 == 0 else turn[::-1]:
                    await side.settle()
                    others = [bot for other, bot in bots.items() if other != name]
                    for bot in others:  # only the side measured runs during its slice
                        bot.pause()
                    try:
                        _collect()
                        timed[name].extend(await side.run(count))
                    finally:
                        for bot in others:
                            bot.resume()
            rounds.append(timed)
        took = time.perf_counter() - started
    gc.unfreeze()
    return rounds, took


def ratio(rounds: list[dict[str, list[float]]], name: str) -> tuple[float, list[float]]:
    """The median over the rounds of ``name``'s p99 over the bare bot's, and each round's."""
    each = [pct(r[name], 0.99) / pct(r["bare"], 0.99) for r in rounds]
    return statistics.median(each), each


def _row(
    tables: int, rounds: list[dict[str, list[float]]], name: str, took: float
) -> tuple[str, float]:
    bare = [x for r in rounds for x in r["bare"]]
    ours = [x for r in rounds for x in r[name]]
    median, each = ratio(rounds, name)
    row = (
        f"| {tables} | {name} | {len(ours)} | {pct(bare, 0.5) * 1e3:.1f} | "
        f"{pct(bare, 0.99) * 1e3:.1f} | {pct(ours, 0.5) * 1e3:.1f} | "
        f"{pct(ours, 0.99) * 1e3:.1f} | {' '.join(f'{x:.2f}' for x in each)} | "
        f"{median:.2f} | {took:.1f} |"
    )
    return row, median


async def main(clicks: int, baseline: Path | None = None, profile: Path | None = None) -> None:
    logging.basicConfig(level=logging.ERROR)
    rows = []
    ratios: dict[str, list[float]] = {"bot": [], "before": []}
    with tempfile.TemporaryDirectory() as tmp:
        for tables in LEVELS:
            rounds, took = await level(
                tables, clicks, Path(tmp), baseline=baseline, profile=profile
            )
            for name in ("bot", "before"):
                if name in rounds[0]:
                    row, median = _row(tables, rounds, name, took)
                    ratios[name].append(median)
                    rows.append(row)
    print(
        "| tables | bot | clicks | bare p50 ms | bare p99 ms | bot p50 ms | bot p99 ms"
        " | p99 ratio by round | median ratio | s |"
    )
    print("|---:|---|---:|---:|---:|---:|---:|---|---:|---:|")
    for row in rows:
        print(row)
    if ratios["before"]:
        print(f"BASELINE p99_vs_bare={max(ratios['before']):.2f} ({baseline})")
    print(f"RESULT p99_vs_bare={max(ratios['bot']):.2f}")


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        sys.exit(child_main(sys.argv[2], sys.argv[3], sys.argv[4], (sys.argv[5:] or [None])[0]))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--clicks", type=int, default=600, help="clicks per level and round (>= 10/table)"
    )
    parser.add_argument(
        "--baseline", type=Path, default=None, help="a source tree measured side by side"
    )
    parser.add_argument(
        "--profile", type=Path, default=None, help="cProfile stats of the bot child (per level)"
    )
    args = parser.parse_args()
    asyncio.run(main(args.clicks, args.baseline, args.profile))
