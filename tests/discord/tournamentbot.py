"""What the tournament tests through the fake Discord share: the moved clock, the extra
players, the test's betting and a driver that plays the players' turns, and readers of
the posts, offers and ledger the tournament leaves."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable, Collection
from typing import Any

from bot.app import HomeGameBot
from bot.engine.errors import HomeGameError
from bot.testing import FakeMessage, FakeUser
from bot.testing.clock import VirtualClock
from tests.discord.conftest import World

EXTRA = ("frank", "gina", "hank", "ivy", "jack", "kate", "liam")
HAND_SECONDS = 40.0
"""How long a hand takes at one table on the moved clock."""


class MovedClock(VirtualClock):
    """The whole bot's clock, which the test moves (and the fake Discord's wall clock with
    it); the timers sleep on it, so a level change, a break or a decision window comes
    when the test moves the clock there, never after real seconds."""

    def __init__(self, world: World) -> None:
        super().__init__(float(int(world.fake.now())) + 0.25)
        self.world = world

    def move(self, seconds: float) -> None:
        self.world.fake.advance(seconds)
        self.advance(seconds)


def players_of(world: World, extra: int = len(EXTRA)) -> list[FakeUser]:
    """The world's five members and ``extra`` more (twelve in all by default)."""
    out = [world.alice, world.bob, world.carol, world.dave, world.outsider]
    for name in EXTRA[:extra]:
        user = world.fake.add_user(name)
        world.fake.add_member(world.guild, user)
        out.append(user)
    return out


def choose(pv: Any, rng: random.Random, aggressive: bool) -> tuple[str, int | None]:
    """The test's betting: all-ins at one table (busts come there first: the other table
    is then longer, and a player moves), careful play at the other."""
    allowed = {o.kind: o for o in pv.options if o.allowed}
    if aggressive:
        for kind in ("raise", "bet"):
            if kind in allowed and rng.random() < 0.5:
                o = allowed[kind]
                return kind, o.most or o.to
        if "call" in allowed:
            return ("call", None) if rng.random() < 0.7 else ("fold", None)
        return ("check", None) if "check" in allowed else ("fold", None)
    if "check" in allowed:
        return "check", None
    if "call" in allowed and (allowed["call"].amount or 0) <= 100:
        return "call", None
    return "fold", None


class Driver:
    """Plays the players' turns (through the real service, as a click reaches it) and
    moves the clock: each hand dealt moves it by :data:`HAND_SECONDS` divided by the
    tables playing."""

    def __init__(self, bot: HomeGameBot, clock: MovedClock, tid: int, rng: random.Random) -> None:
        self.bot = bot
        self.clock = clock
        self.tid = tid
        self.rng = rng
        self.hands: dict[int, int] = {}
        self.aggressive: int | None = None

    def running(self) -> bool:
        d = self.bot.tournaments
        assert d is not None
        return self.tid in d.live_ids()

    async def hand_numbers(self) -> dict[int, int]:
        """Each live table's hand number now."""
        d, service = self.bot.tournaments, self.bot.service
        assert d is not None and service is not None
        out: dict[int, int] = {}
        if not self.running():
            return out
        for table_id in d.live(self.tid).tables.values():
            try:
                out[table_id] = (await service.view(table_id)).hand_number
            except HomeGameError:
                continue
        return out

    async def step(self) -> int:
        service, d = self.bot.service, self.bot.tournaments
        assert service is not None and d is not None
        acted = 0
        if not self.running():
            return 0
        tables = dict(d.live(self.tid).tables)
        if self.aggressive is None and tables:
            self.aggressive = min(tables.values())
        for table_id in tables.values():
            try:
                view = await service.view(table_id)
            except HomeGameError:
                continue
            for uid in sorted(view.to_act_user_ids):
                try:
                    pv = await service.private_view(table_id, uid)
                    kind, amount = choose(pv, self.rng, table_id == self.aggressive)
                    await service.act(table_id, uid, kind, amount=amount, version=view.version)
                    acted += 1
                except HomeGameError:
                    pass
                break
        await d.settle()
        dealt = 0
        for table_id, number in (await self.hand_numbers()).items():
            dealt += max(0, number - self.hands.get(table_id, 0))
            self.hands[table_id] = number
        if dealt:
            self.clock.move(dealt * HAND_SECONDS / max(1, len(tables)))
        elif not acted:
            self.clock.move(2.0)  # a break, a pause, a decision window: time passes
        await asyncio.sleep(0.005)
        return acted

    async def until(
        self, done: Callable[[], Awaitable[bool] | bool], *, steps: int = 4000, what: str = ""
    ) -> None:
        for _ in range(steps):
            got = done()
            if asyncio.iscoroutine(got):
                got = await got
            if got:
                return
            await self.step()
        raise AssertionError(f"never happened: {what}\n{await self.state()}")

    async def state(self) -> str:
        """Where the tournament stands (for a failure's message)."""
        d, service = self.bot.tournaments, self.bot.service
        assert d is not None and service is not None
        if not self.running():
            return "over"
        live = d.live(self.tid)
        lines = [f"clock {self.clock.now}, deadline {live.deadline}, breaking {live.breaking}"]
        for e in live.t.entries:
            lines.append(f"  {e}")
        for number, table_id in live.tables.items():
            view = await service.view(table_id)
            lines.append(
                f"  table {number} #{table_id}: {view.status} {view.phase} hand"
                f" {view.hand_number} deadline {view.deadline} to act {view.to_act_user_ids}"
                f" seats {[(s.seat, s.user_id, s.stack) for s in view.seats]}"
            )
        return "\n".join(lines)


def thread_posts(world: World, text: str) -> list[FakeMessage]:
    """The posts in the tournament's threads that say ``text``."""
    return [
        m
        for t in world.fake.threads(world.channel)
        for m in world.fake.channel_messages(t)
        if text in m.content
    ]


def offers(world: World, label: str, answered: Collection[int] = ()) -> list[FakeMessage]:
    """The posts in the threads with an enabled ``label`` button, but those ``answered``
    (an offer's buttons stay, as on Discord)."""
    out = []
    for t in world.fake.threads(world.channel):
        for m in world.fake.channel_messages(t):
            if m.id in answered:
                continue
            if any(b.get("label") == label and not b.get("disabled") for b in m.buttons()):
                out.append(m)
    return out


def owner_of(message: FakeMessage, label: str) -> int:
    """The player an offer's ``label`` button is for (the last part of its custom id)."""
    custom_id = str(message.button(label)["custom_id"])
    return int(custom_id.rsplit(":", 1)[1])


async def ledger_count(bot: HomeGameBot, kind: str) -> int:
    """How many ledger rows of ``kind`` the store holds."""
    async with bot.store.read() as tx:
        rows = await tx._all("SELECT COUNT(*) AS n FROM ledger WHERE kind = ?", (kind,))
    return int(rows[0]["n"])


async def create_tournament(world: World, user: FakeUser, **options: Any) -> Any:
    """``/tournament create`` as ``user`` in the world's channel; its response."""
    return await (
        await world.fake.invoke(user, world.channel, "tournament", options, subcommand="create")
    ).response()
