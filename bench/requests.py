"""Benchmark: the REST requests one hand costs against Discord's global rate limit.

Run:  python bench/requests.py [--hands N] [--seed S] [--paces 1.2,0] [--games zoot,razz,...]
      [--turn-ping off|dm]

Discord allows a bot 50 requests a second over all routes, interaction callbacks and
interaction webhooks excepted (:mod:`bot.testing.request_count`). For each game at 2 and 6
players, the real bot plays against the fake Discord exactly as ``python -m bot sandbox``
does (:mod:`bot.ops.sandbox`): the host opens the table, the others press **Join**, the host
presses **Start**, and every seat is a user clicking their hand DM's buttons (Zoot,
Wheelers) or the table message's (Razz, Stud, Hold'em, Omaha; a no-limit or pot-limit amount
from the Bet/Raise menu, one more request-free interaction), choosing what the computer
policy would.

One hand is counted in steady state: from the commit of one hand's result to the commit of
the next (so it holds the previous result's post and the next hand's antes, deal, actions
and showdown), averaged over ``--hands`` hands after a first one (which also pays for the
table's opening, the joins and the first DMs). The table printed breaks it down by route.

Two paces are measured: users taking 1.2 s per click (``think`` 1.2: people reading their
cards and clicking, the pace a real table plays at) and users clicking at once (``think``
0: the sandbox's pace). The last line, ``RESULT zoot6_requests_per_hand=X
wheelers6_requests_per_hand=Y razz6_requests_per_hand=Z`` (then stud6, holdem6 and omaha6
when measured), reports the HUMAN pace (the
first of ``--paces``): clicks at once let the bot's short settling moments merge several
changes into one edit, which flatters the count; people a second or more apart is the
honest case a bot token's capacity must be planned on. Targets: Zoot <= 28, Wheelers <= 40,
Razz <= 50.

``--turn-ping off|dm`` (``dm`` by default, the members' default): every user sets
``/settings turn_ping:`` first (an interaction: not counted). A turn ping is a new DM and
the deletion of the one before (the ``dm post`` and ``delete`` columns); it is sent only
when a player has not acted a few seconds after their turn began, so at a human pace the
count stays where it is with pings on (issue 22: at most 15 % more) and pings off adds none.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import io
import random
import sys
import tempfile
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot import games as registry
from bot.app import HomeGameBot
from bot.config import BackupSettings, DatabaseSettings, DiscordSettings, Settings
from bot.engine.actions import Action
from bot.ops.sandbox import (
    NAMES,
    TABLE_BUTTON_GAMES,
    SandboxError,
    _CountingRelay,
    policy_action,
    table_options,
)
from bot.ops.sandbox_users import SETTLE, act, hand_dm
from bot.store import Store
from bot.tables.service import TableService
from bot.tables.views import Published
from bot.testing import (
    ADMINISTRATOR,
    FakeChannel,
    FakeDiscord,
    FakeMessage,
    FakeUser,
    running_client,
)
from bot.testing.fake_discord import InteractionRecord
from bot.testing.request_count import ROUTES, count_routes
from cogs._render import private_embed

GAMES = registry.keys(mixed=False)
"""Every game a hand is stored as (bot/games.py): the mixed tables deal these."""
TARGETS = {"zoot": 28, "wheelers": 40, "razz": 50}
"""Requests per hand at 6 players (issue 11; the games of issue 13 are measured, no target)."""


class _Silent:
    """The sandbox users print what only they see; the benchmark prints nothing."""

    def note(self, tag: str, message: FakeMessage) -> None:
        return None

    def say(self, tag: str, text: str) -> None:
        return None


class _MarkingRelay(_CountingRelay):
    """The sandbox's relay, also noting how many requests the fake had received when
    each result was committed (the boundaries between hands)."""

    def __init__(self, fake: FakeDiscord) -> None:
        super().__init__()
        self.fake = fake
        self.marks: list[int] = []
        self.changed = asyncio.Event()

    async def publish(self, published: Published) -> None:
        if published.results:
            self.marks.append(len(self.fake.requests))
        await super().publish(published)
        self.changed.set()


# The players. Unlike the sandbox (which now acts only once the bot has settled, on a
# virtual clock, for a repeatable transcript), the benchmark plays in real time with the
# service's own timers: each user clicks as soon as the engine's policy has a move, so
# edits may coalesce as they would at a busy table; ``--think`` slows the users down.


@dataclass
class _World:
    fake: FakeDiscord
    channel: FakeChannel
    users: list[FakeUser]
    service: TableService
    relay: _MarkingRelay
    printer: _Silent = field(default_factory=_Silent)


async def _answer(record: InteractionRecord) -> bool:
    """True when the bot took the click (edited the message clicked)."""
    try:
        reply = await record.response(timeout=10)
    except (TimeoutError, AssertionError):
        return False
    return bool(reply.updated_message)


async def _act(world: _World, user: FakeUser, table_msg: FakeMessage, action: Action) -> bool:
    """Make ``action`` as ``user`` by clicking, as the sandbox's users do (the hand DM's
    buttons, the table message's, a no-limit amount from the Bet/Raise menu); False if the
    control is not shown yet."""
    if getattr(_act, "think", 0.0):
        await asyncio.sleep(_act.think)  # type: ignore[attr-defined]
    return await act(world, user, table_msg, action)


async def _play(
    world: _World, host: FakeUser, table_msg: FakeMessage, hands: int, seed: int, timeout: float
) -> int:
    """Drive the users until ``hands`` results were published; returns the table id."""
    rng = random.Random(seed)
    by_id = {u.id: u for u in world.users}
    view = await world.service.table_in_channel(world.channel.id)
    if view is None:
        raise SandboxError("the table did not open")
    table_id = view.table_id
    done: dict[int, tuple[object, ...]] = {}
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while world.relay.results < hands:
        if loop.time() > end:
            raise SandboxError(f"only {world.relay.results} of {hands} results")
        view = await world.service.view(table_id)
        if view.status == "closed":
            raise SandboxError("the table closed before the last hand")
        acted = False
        for uid in sorted(view.to_act_user_ids):
            user = by_id.get(uid)
            if user is None:
                continue
            pv = await world.service.private_view(table_id, uid)
            # one decision per window (guts) or per table state (razz)
            key: tuple[object, ...] = (view.hand_number, view.phase, pv.deadline, tuple(pv.cards))
            key += (view.version,) if view.game in TABLE_BUTTON_GAMES else (pv.chosen,)
            if done.get(uid) == key:
                continue
            action = policy_action(world.service, table_id, uid, rng)
            if action is None:
                continue
            if await _act(world, user, table_msg, action):
                done[uid] = key
                acted = True
        if not acted:
            world.relay.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(world.relay.changed.wait(), 0.1)
    return table_id


@dataclass
class Measurement:
    game: str
    players: int
    hands: int
    routes: Counter[str]
    """Counted requests of the measured hands, by route (summed, not averaged)."""
    first_hand: int
    """Counted requests from opening the table to the first result committed."""
    stale_dms: list[str]
    """Players whose hand DM did not show their current view once the updates were done."""

    @property
    def per_hand(self) -> float:
        return sum(n for k, n in self.routes.items() if k != "pictures") / self.hands


async def measure(
    game: str,
    players: int,
    *,
    hands: int = 3,
    seed: int = 1,
    think: float = 0.0,
    turn_ping: str = "dm",
) -> Measurement:
    """Play ``1 + hands`` hands of ``game`` with ``players`` clicking users; count the
    requests of the last ``hands``. ``think``: seconds each user waits before each click
    (0: at once, as the sandbox plays; over a second, no two changes fall in one of the
    bot's coalescing moments, as at a table of people). ``turn_ping``: every user's
    ``/settings turn_ping:``."""
    _thinking(think)  # also 0: a measure at once after one at a human pace
    SETTLE.set(False)  # real time: the users do not wait for the bot between clicks
    fake = FakeDiscord()
    await fake.start()
    try:
        guild = fake.add_guild("Home Game requests")
        channel = fake.add_channel(guild, "poker")
        users = [fake.add_user(name) for name in NAMES[:players]]
        fake.add_member(guild, users[0], permissions=ADMINISTRATOR)
        for user in users[1:]:
            fake.add_member(guild, user)
        with tempfile.TemporaryDirectory(prefix="homegame-requests-") as tmp:
            db_path = Path(tmp) / "homegame.db"
            settings = Settings(
                discord=DiscordSettings(token=fake.token, api_base=fake.api_base),
                database=DatabaseSettings(path=db_path),
                backup=BackupSettings(enabled=False, dir=Path(tmp) / "backups"),
            )
            store = await Store.open(db_path)
            seeds = random.Random(seed)
            relay = _MarkingRelay(fake)
            service = TableService(
                store,
                rng_factory=lambda: random.Random(seeds.random()),
                subscriber=relay,
                autostart_delay=0.3,
                computer_delay=0.05,
            )
            bot = HomeGameBot(settings=settings, store=store, service=service, relay=relay)
            try:
                async with running_client(fake, bot):
                    for user in users:  # an interaction each: not counted
                        chosen = await fake.invoke(
                            user, channel, "settings", {"turn_ping": turn_ping}
                        )
                        await chosen.response(timeout=10)
                    start = len(fake.requests)
                    world = _World(fake, channel, users, service, relay)
                    options: dict[str, Any] = table_options(game)
                    opened = await fake.invoke(users[0], channel, game, options)
                    table_msg = (await opened.response(timeout=10)).message
                    if table_msg is None:
                        raise SandboxError(f"/{game} did not post a table")
                    for user in users[1:]:
                        if not await _answer(await fake.click_label(user, table_msg, "Join")):
                            raise SandboxError(f"{user.name} could not join")
                    if not await _answer(await fake.click_label(users[0], table_msg, "Start")):
                        raise SandboxError("the host could not start the game")
                    await _play(
                        world, users[0], table_msg, 1 + hands, seed, 120.0 + 300 * think * hands
                    )
                    marks = relay.marks
                    first = count_routes(fake, fake.requests[start : marks[0]])
                    routes = count_routes(fake, fake.requests[marks[0] : marks[hands]])
                    # nothing hidden: once the updates are done, every hand DM shows
                    # exactly its player's current view (the next hand's, dealt by now)
                    cog: Any = bot.get_cog("Tables")
                    await cog.updates.idle()
                    view = await service.table_in_channel(channel.id)
                    assert view is not None
                    stale = [
                        u.name
                        for u in users
                        if _dm_fields(fake, u)
                        != private_embed(await service.private_view(view.table_id, u.id))
                        .to_dict()
                        .get("fields")
                    ]
            finally:
                await service.stop_service()
                await store.close()
    finally:
        await fake.stop()
    first_total = sum(n for k, n in first.items() if k != "pictures")
    return Measurement(game, players, hands, routes, first_total, stale)


def _dm_fields(fake: FakeDiscord, user: FakeUser) -> Any:
    dm = hand_dm(fake, user)  # not a turn ping
    embeds = dm.latest.embeds if dm is not None else []
    return embeds[0].get("fields") if embeds else None


def _thinking(seconds: float) -> None:
    """Make the users wait ``seconds`` before each click."""
    _act.think = seconds  # type: ignore[attr-defined]


def format_table(rows: Sequence[Measurement]) -> str:
    head = ["game", "players", "per hand", *ROUTES, "pictures", "first hand", "stale DMs"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for m in rows:
        cells = [m.game, str(m.players), f"{m.per_hand:.1f}"]
        cells += [f"{m.routes.get(k, 0) / m.hands:.1f}" for k in (*ROUTES, "pictures")]
        cells += [str(m.first_hand), str(len(m.stale_dms))]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


HUMAN_PACE = 1.2
"""Seconds a user takes per click at the pace the RESULT line reports."""


async def _main(
    hands: int, seed: int, think: float, games: Sequence[str] = GAMES, turn_ping: str = "dm"
) -> list[Measurement]:
    rows = []
    for game in games:
        for players in (2, 6):
            rows.append(
                await measure(
                    game, players, hands=hands, seed=seed, think=think, turn_ping=turn_ping
                )
            )
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=3, help="hands measured after the first")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--paces",
        default=f"{HUMAN_PACE},0",
        help="seconds each user waits before a click, one table per pace; RESULT: the first",
    )
    parser.add_argument(
        "--games",
        default=",".join(GAMES),
        help=f"games measured, comma-separated (default all: {','.join(GAMES)})",
    )
    parser.add_argument(
        "--turn-ping",
        choices=("off", "dm"),
        default="dm",
        help="every user's /settings turn_ping: (default dm, the members' default)",
    )
    args = parser.parse_args(argv)
    games = [g.strip() for g in args.games.split(",") if g.strip()]
    unknown = [g for g in games if g not in GAMES]
    if unknown or not games:
        parser.error(f"--games: one or more of {', '.join(GAMES)}")
    paces = [float(p) for p in args.paces.split(",") if p.strip()]
    reported: list[Measurement] = []
    for think in paces:
        with contextlib.redirect_stderr(io.StringIO()):
            rows = asyncio.run(_main(args.hands, args.seed, think, games, args.turn_ping))
        print(
            f"users taking {think:g} s a click, turn pings {args.turn_ping}"
            + (" (RESULT)" if not reported else "")
        )
        print(format_table(rows))
        print()
        reported = reported or rows
    print("(per hand and by route: averages over the measured hands; pictures: requests")
    print(" among them that carried a PNG; first hand: from /game to its first result)")
    six = {m.game: m.per_hand for m in reported if m.players == 6}
    print("RESULT " + " ".join(f"{g}6_requests_per_hand={six[g]:.1f}" for g in games))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
