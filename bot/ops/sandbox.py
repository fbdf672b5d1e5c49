"""The sandbox: the real bot playing a real game against the built-in fake Discord.

:func:`run_sandbox` starts a :class:`~bot.testing.FakeDiscord` on 127.0.0.1, a server with
one ``#poker`` channel and N users, a real store in a temporary folder, the real
:class:`~bot.tables.service.TableService` and :class:`~bot.app.HomeGameBot` (exactly what
``python -m bot run`` builds, with the fake's token). The users then play through Discord
as people would: the host runs ``/zoot`` (``/wheelers``, ``/razz``), the others press
**Join**, the host presses **Start**, and each user presses the buttons of their hand DM
(Zoot, Wheelers) or of the table message (Razz), choosing what the engine's computer
policy (``bot/engine/guts/policy.py``, ``bot/engine/razz/policy.py``) would choose for
their seat. Every message the channel and each DM show is printed as it appears or
changes: ``[#poker] ...`` and ``[DM alice] ...``. After M results the host closes the table
with ``/table end``, the ledger is audited, and the sandbox stops.

No token and no network: everything runs on the loopback interface.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import re
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from bot.app import HomeGameBot, PublishRelay
from bot.config import BackupSettings, DatabaseSettings, DiscordSettings, Settings
from bot.engine.actions import Action
from bot.engine.errors import HomeGameError
from bot.store import Store
from bot.tables.service import TableService
from bot.tables.views import Published
from bot.testing import (
    ADMINISTRATOR,
    FakeChannel,
    FakeDiscord,
    FakeMessage,
    FakeUser,
    InteractionRecord,
    running_client,
)

GAMES = ("zoot", "wheelers", "razz")
MAX_PLAYERS = {"zoot": 10, "wheelers": 10, "razz": 8}
NAMES = ("alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy")
LABELS = {
    "lay_down": "Lay down",
    "play_on": "Play on",
    "bring_in": "Bring in",
    "complete": "Complete",
    "fold": "Fold",
    "check": "Check",
    "call": "Call",
    "bet": "Bet",
    "raise": "Raise",
}


class SandboxError(HomeGameError):
    """The sandbox could not finish (the game stalled or was refused)."""


class SandboxArgumentError(SandboxError):
    """A bad --game, --players or --hands."""


@dataclass
class ShowdownPicture:
    """The rows of the last showdown seen, for :func:`bot.render.images.render_showdown`."""

    hands: list[tuple[str, tuple[Any, ...], str]] = field(default_factory=list)
    winners: set[int] = field(default_factory=set)


class _CountingRelay(PublishRelay):
    """The bot's relay, also counting hand results and keeping the last showdown."""

    def __init__(self) -> None:
        super().__init__()
        self.results = 0
        self.showdown: ShowdownPicture | None = None
        self.changed = asyncio.Event()

    async def publish(self, published: Published) -> None:
        if published.results:
            self.results += len(published.results)
            shown = [s for s in published.view.seats if s.shown]
            if shown:
                paid = {m.seat for e in published.events for m in e.chips if m.kind == "award"}
                winners_uid = {published.user_ids_by_seat.get(s) for s in paid}
                self.showdown = ShowdownPicture(
                    [(s.name, tuple(s.shown or ()), s.hand_name or "") for s in shown],
                    {i for i, s in enumerate(shown) if s.user_id in winners_uid},
                )
        self.changed.set()
        await super().publish(published)


# ----------------------------------------------------------------------------- printing

_MENTION = re.compile(r"<@!?(\d+)>")
_TIMESTAMP = re.compile(r"<t:(\d+):R>")
_BOLD = re.compile(r"\*\*(.*?)\*\*")


def render_message(
    content: str,
    embeds: Sequence[Mapping[str, Any]],
    components: Sequence[Mapping[str, Any]],
    *,
    names: Mapping[int, str],
    now: float,
) -> list[str]:
    """A message version as plain text lines (mentions as names, countdowns as seconds,
    buttons as ``[Label]``, disabled ones left out)."""
    lines: list[str] = []
    if content:
        lines += content.splitlines()
    for embed in embeds:
        if embed.get("title"):
            lines.append(f"== {embed['title']} ==")
        if embed.get("description"):
            lines += str(embed["description"]).splitlines()
        for fld in embed.get("fields", ()):
            value = str(fld.get("value", "")).replace("```", "").strip("\n")
            if fld.get("name") == "House rules":
                value = ", ".join(v.strip() for v in value.splitlines())
            sub = value.splitlines()
            if len(sub) == 1:
                lines.append(f"{fld.get('name')}: {sub[0]}")
            else:
                lines.append(f"{fld.get('name')}:")
                lines += [f"  {s}" for s in sub if s.strip()]
    controls: list[str] = []
    for row in components:
        for item in row.get("components", ()):
            if item.get("disabled"):
                continue
            if item.get("type") == 2:
                controls.append(f"[{item.get('label')}]")
            elif item.get("type") == 3:
                options = ", ".join(str(o.get("label")) for o in item.get("options", ()))
                controls.append(f"[{item.get('placeholder', 'choose')}: {options}]")
    if controls:
        lines.append(" ".join(controls))

    def clean(text: str) -> str:
        text = _MENTION.sub(lambda m: "@" + names.get(int(m.group(1)), m.group(1)), text)
        text = _TIMESTAMP.sub(lambda m: f"in {max(0, int(m.group(1)) - int(now))} s", text)
        return _BOLD.sub(r"\1", text)

    return [clean(line) for line in lines]


class Printer:
    """Prints each new version of every non-ephemeral message: the whole message the first
    time, then only the lines that changed."""

    def __init__(self, fake: FakeDiscord, out: IO[str], names: Mapping[int, str]) -> None:
        self.fake = fake
        self.out = out
        self.names = names
        self.seen: dict[int, int] = {}
        self.last: dict[int, list[str]] = {}
        self.lines_printed = 0

    def where(self, channel: FakeChannel) -> str:
        if channel.is_dm:
            recipient = getattr(channel, "recipient", None)
            name = getattr(recipient, "name", None)
            if name is None:
                name = next(
                    (
                        u.name
                        for u in self.fake.users.values()
                        if self.fake._dm_channels.get(u.id) is channel
                    ),
                    "?",
                )
            return f"[DM {name}]"
        return f"[#{channel.name}]"

    def flush(self) -> None:
        for message in list(self.fake.messages.values()):
            if message.ephemeral_to is not None or message.deleted:
                continue
            count = len(message.versions)
            if self.seen.get(message.id, 0) >= count:
                continue
            self.seen[message.id] = count
            self.show(message)

    def show(self, message: FakeMessage) -> None:
        v = message.latest
        lines = render_message(v.content, v.embeds, v.components, names=self.names, now=time.time())
        before = self.last.get(message.id)
        self.last[message.id] = lines
        if before is None:
            shown = lines
        else:
            old = set(before)
            shown = [line for line in lines if line not in old]
        if not shown:
            return
        tag = self.where(message.channel)
        if before is not None:
            tag += " (edit)"
        for i, line in enumerate(shown):
            print(f"{tag if i == 0 else ' ' * len(tag)} {line}", file=self.out)
        self.lines_printed += len(shown)
        self.out.flush()

    async def run(self) -> None:
        while True:
            self.flush()
            await asyncio.sleep(0.05)


# ----------------------------------------------------------------------------- players


def policy_action(
    service: TableService, table_id: int, user_id: int, rng: random.Random
) -> Action | None:
    """What the engine's computer policy plays for ``user_id``'s seat now, or None when that
    seat may not act (:meth:`TableService.suggested_action`; the sandbox runs in-process);
    the action itself is then made by clicking, like any user."""
    return service.suggested_action(table_id, user_id, rng)


@dataclass
class _World:
    fake: FakeDiscord
    channel: FakeChannel
    users: list[FakeUser]
    service: TableService
    relay: _CountingRelay


async def _answer(record: InteractionRecord) -> bool:
    """True when the bot took the click (edited the message clicked)."""
    try:
        reply = await record.response(timeout=10)
    except (TimeoutError, AssertionError):
        return False
    return bool(reply.updated_message)


def _enabled_button(message: FakeMessage, label: str) -> str | None:
    for button in message.buttons():
        if button.get("label") == label and not button.get("disabled"):
            return str(button["custom_id"])
    return None


async def _act(world: _World, user: FakeUser, table_msg: FakeMessage, action: Action) -> bool:
    """Make ``action`` as ``user`` by clicking; False if the control is not shown yet (the
    message is being updated) or the bot refused it (a stale button): try again later."""
    fake = world.fake
    if action.kind in ("lay_down", "play_on", "discard"):
        dms = fake.dms(user)
        if not dms:
            return False
        dm = dms[-1]
        if action.kind == "discard":
            if action.card is None or not dm.selects():
                return False
            menu = dm.selects()[0]
            values = [str(o["value"]) for o in menu.get("options", ())]
            if str(action.card) not in values:
                return False
            return await _answer(await fake.select(user, dm, menu["custom_id"], [str(action.card)]))
        custom_id = _enabled_button(dm, LABELS[action.kind])
        if custom_id is None:
            return False
        return await _answer(await fake.click(user, dm, custom_id))
    custom_id = _enabled_button(table_msg, LABELS[action.kind])
    if custom_id is None:
        return False
    return await _answer(await fake.click(user, table_msg, custom_id))


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
            raise SandboxError(
                f"only {world.relay.results} of {hands} results after {timeout:.0f} s"
            )
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
            key += (view.version,) if view.game == "razz" else (pv.chosen,)
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


async def run_sandbox(
    *,
    game: str = "zoot",
    players: int = 4,
    hands: int = 1,
    seed: int | None = None,
    out: IO[str],
    showdown_png: Path | None = None,
    timeout: float = 120.0,
) -> int:
    """Play ``hands`` results of ``game`` with ``players`` users; print everything; returns
    the exit status (0: finished and the ledger audit holds)."""
    if game not in GAMES:
        raise SandboxArgumentError(f"game must be one of {', '.join(GAMES)}, got {game!r}")
    if not 2 <= players <= MAX_PLAYERS[game]:
        raise SandboxArgumentError(f"{game} needs 2 to {MAX_PLAYERS[game]} players, got {players}")
    if hands < 1:
        raise SandboxArgumentError(f"hands must be at least 1, got {hands}")
    seed = random.SystemRandom().randrange(1 << 30) if seed is None else seed
    print(f"[sandbox] {game}, {players} players, {hands} hand(s), seed {seed}", file=out)

    fake = FakeDiscord()
    await fake.start()
    try:
        guild = fake.add_guild("Home Game sandbox")
        channel = fake.add_channel(guild, "poker")
        users = [fake.add_user(name) for name in NAMES[:players]]
        fake.add_member(guild, users[0], permissions=ADMINISTRATOR)
        for user in users[1:]:
            fake.add_member(guild, user)
        names = {u.id: u.name for u in users}
        with tempfile.TemporaryDirectory(prefix="homegame-sandbox-") as tmp:
            db_path = Path(tmp) / "homegame.db"
            settings = Settings(
                discord=DiscordSettings(token=fake.token, api_base=fake.api_base),
                database=DatabaseSettings(path=db_path),
                backup=BackupSettings(enabled=False, dir=Path(tmp) / "backups"),
            )
            store = await Store.open(db_path)
            seeds = random.Random(seed)
            relay = _CountingRelay()
            service = TableService(
                store,
                rng_factory=lambda: random.Random(seeds.random()),
                subscriber=relay,
                autostart_delay=0.3,
                computer_delay=0.05,
            )
            bot = HomeGameBot(settings=settings, store=store, service=service, relay=relay)
            printer = Printer(fake, out, names)
            printing = asyncio.create_task(printer.run(), name="sandbox-printer")
            try:
                async with running_client(fake, bot):
                    world = _World(fake, channel, users, service, relay)
                    status = await _session(world, game, hands, seed, timeout, out, printer)
                    cog: Any = bot.get_cog("Tables")
                    if cog is not None:
                        await cog.updates.idle()
                    printer.flush()
            finally:
                printing.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await printing
                await service.stop_service()
                report = await store.audit()
                await store.close()
            print(f"[sandbox] ledger audit: {'ok' if report.ok else 'DIFFERENCES'}", file=out)
            if not report.ok:
                print(report.format(), file=out)
                status = 1
            if showdown_png is not None:
                _save_picture(relay.showdown, showdown_png, out)
    finally:
        await fake.stop()
    return status


async def _session(
    world: _World,
    game: str,
    hands: int,
    seed: int,
    timeout: float,
    out: IO[str],
    printer: Printer,
) -> int:
    fake, host = world.fake, world.users[0]
    options: dict[str, Any] = {"decision_seconds": 10}
    if game != "razz":
        options["ante"] = 10
    opened = await fake.invoke(host, world.channel, game, options)
    reply = await opened.response(timeout=10)
    table_msg = reply.message
    if table_msg is None:
        raise SandboxError(f"/{game} did not post a table: {reply.content}")
    for user in world.users[1:]:
        if not await _answer(await fake.click_label(user, table_msg, "Join")):
            raise SandboxError(f"{user.name} could not join")
    if not await _answer(await fake.click_label(host, table_msg, "Start")):
        raise SandboxError("the host could not start the game")
    await _play(world, host, table_msg, hands, seed, timeout)
    # let the last result reach the channel before closing the table
    await asyncio.sleep(0.3)
    printer.flush()
    closing = await fake.invoke(host, world.channel, "table", subcommand="end")
    closed = await closing.response(timeout=10)
    if closed.ephemeral:
        raise SandboxError(f"/table end refused: {closed.content}")
    print(f"[sandbox] {world.relay.results} result(s) played; table closed", file=out)
    return 0


def _save_picture(picture: ShowdownPicture | None, path: Path, out: IO[str]) -> None:
    from bot.render.images import render_showdown

    if picture is None or not picture.hands:
        print("[sandbox] no showdown with shown hands to draw", file=out)
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(render_showdown(picture.hands, winner_indexes=picture.winners))
    print(f"[sandbox] showdown picture saved to {path}", file=out)
