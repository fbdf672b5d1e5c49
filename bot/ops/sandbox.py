"""The sandbox: the real bot playing a real game against the built-in fake Discord.

:func:`run_sandbox` starts a :class:`~bot.testing.FakeDiscord` on 127.0.0.1, a server with
one ``#poker`` channel and N users, a real store in a temporary folder, the real
:class:`~bot.tables.service.TableService` and :class:`~bot.app.HomeGameBot` (exactly what
``python -m bot run`` builds, with the fake's token). The users then play through Discord
as people would: the host runs ``/zoot`` (``/wheelers``, ``/razz``, ``/stud``, ``/holdem``,
``/omaha``, ``/horse``, ``/dealers-choice``), the others press **Join**, the host presses
**Start**, and each user presses the buttons of their hand DM (Zoot, Wheelers) or of the
table message (the betting games), choosing what the engine's computer policy for the game
being dealt would choose for their seat; a no-limit or pot-limit bet goes through the
amount menu and its modal, and a dealer's-choice dealer picks the next game in the table
message's menu (:mod:`bot.ops.sandbox_users`). Every version of every message the channel
and each DM show is printed in full: ``[#poker] ...`` and ``[DM alice] ...``, ``(edit)`` for
a new version; what only the clicker sees, ``[only alice] ...``. After M results the host
closes the table with ``/table end``, the ledger is audited, and the sandbox stops.

The transcript is the same on every run with the same seed, by construction: the users act
one at a time and only once the bot has settled (:func:`settle`: every answer, edit and post
it started is done), so no edit is coalesced with the next click's and no burst mixes with
another; the service runs without timers on a :class:`VirtualClock` that stands still while
users think and jumps to a deadline only when the sandbox lets it run out (the next hand;
a timeout), so no timer races a click and every countdown reads the same; and the versions
of one burst (a DM and the table message edited together reach the fake in either order)
are printed in a fixed message order (:class:`Printer`).

No token and no network: everything runs on the loopback interface.
"""

from __future__ import annotations

import asyncio
import random
import re
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from bot import games as registry
from bot.app import HomeGameBot, PublishRelay
from bot.config import BackupSettings, DatabaseSettings, DiscordSettings, Settings
from bot.engine.actions import Action
from bot.engine.errors import HomeGameError

# what bench/requests.py and the tests import from here lives with the users' clicks
from bot.ops.sandbox_users import (  # noqa: F401
    _UPDATES,
    LABELS,
    SandboxError,
    _answer,
    _enabled_button,
    act,
    pick_game,
    settle,
)
from bot.store import Store
from bot.tables.games import make_family
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
from cogs._pictures import ShowdownPicture, showdown_picture
from cogs._render import TABLE_ACTIONS_OF

GAMES = registry.keys()
SPLIT_GAMES = registry.with_splits()
BETTING_GAMES = registry.with_bettings()
TABLE_BUTTON_GAMES = tuple(TABLE_ACTIONS_OF)
"""The games played on the table message's buttons: one decision per table version."""
NAMES = ("alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy")


class SandboxArgumentError(SandboxError):
    """A bad --game, --split, --betting, --players or --hands."""


class _CountingRelay(PublishRelay):
    """The bot's relay, also counting hand results and keeping the last showdown: the
    picture the bot itself posts with it (:func:`cogs._pictures.showdown_picture`, the
    board and the winners' pots included), not a drawing of the sandbox's own."""

    def __init__(self) -> None:
        super().__init__()
        self.results = 0
        self.showdown: ShowdownPicture | None = None

    async def publish(self, published: Published) -> None:
        if published.results:
            self.results += len(published.results)
            picture = showdown_picture(published)
            if picture is not None:
                self.showdown = picture
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
    """Prints every version of every non-ephemeral message, each in full.

    :meth:`flush` is called whenever the bot has settled (see :func:`settle`): it prints the
    versions the fake received since the last flush, message by message in a fixed order
    (the channel first, then each player's DM in seat order; within one place, the
    messages in the order they were created), each message's versions in the order they
    came. Edits made in the same burst (a DM and the table message edited together) may
    reach the fake in either order; this order is the same on every run."""

    def __init__(
        self, fake: FakeDiscord, out: IO[str], names: Mapping[int, str], clock: VirtualClock
    ) -> None:
        self.fake = fake
        self.out = out
        self.names = names
        self.clock = clock
        self.order = {uid: i for i, uid in enumerate(names)}
        self.seen: dict[int, int] = {}

    def where(self, channel: FakeChannel) -> str:
        if channel.is_dm:
            recipient = channel.recipient
            return f"[DM {recipient.name if recipient is not None else '?'}]"
        return f"[#{channel.name}]"

    def _place(self, message: FakeMessage) -> tuple[int, int]:
        """Where a message is printed among those of one flush: channels before DMs, DMs
        in seat order."""
        recipient = message.channel.recipient
        if recipient is None:
            return (0, message.channel.id)
        return (1, self.order.get(recipient.id, len(self.order)))

    def flush(self) -> None:
        fresh = [
            m
            for m in self.fake.messages.values()
            if m.ephemeral_to is None and self.seen.get(m.id, 0) < len(m.versions)
        ]
        # message ids grow in creation order; within one channel creation is sequential
        for message in sorted(fresh, key=lambda m: (self._place(m), m.id)):
            first = self.seen.get(message.id, 0)
            self.seen[message.id] = len(message.versions)
            for index in range(first, len(message.versions)):
                self.show(message, index)
        self.out.flush()

    def show(self, message: FakeMessage, index: int) -> None:
        v = message.versions[index]
        lines = render_message(
            v.content, v.embeds, v.components, names=self.names, now=self.clock()
        )
        lines += [f"(file {a.filename})" for a in v.attachments]
        tag = self.where(message.channel)
        if index > 0:
            tag += " (edit)"
        self._lines(tag, lines)

    def note(self, tag: str, message: FakeMessage) -> None:
        """The newest version of a message only one user sees (an ephemeral answer)."""
        v = message.latest
        self._lines(
            tag,
            render_message(v.content, v.embeds, v.components, names=self.names, now=self.clock()),
        )

    def say(self, tag: str, text: str) -> None:
        self._lines(tag, text.splitlines())

    def _lines(self, tag: str, lines: list[str]) -> None:
        for i, line in enumerate(lines or [""]):
            print(f"{tag if i == 0 else ' ' * len(tag)} {line}".rstrip(), file=self.out)
        self.out.flush()


class VirtualClock:
    """The table service's clock in the sandbox: it stands still while the users think and
    jumps to a deadline when the sandbox lets one run out, so countdowns ("time runs out
    in 10 s") read the same on every run and no timer races a click."""

    def __init__(self, start: float) -> None:
        self.now = float(start)

    def __call__(self) -> float:
        return self.now

    def advance_to(self, when: float) -> None:
        self.now = max(self.now, when)


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
    clock: VirtualClock
    printer: Printer


async def _play(
    world: _World, table_msg: FakeMessage, hands: int, seed: int, timeout: float
) -> int:
    """Drive the users until ``hands`` results were published; returns the table id.

    One step at a time, each once the bot has settled: the first user (in seat order) the
    engine's policy has a new decision for clicks it (at a dealer's-choice table between
    hands, the next dealer picks the game or lets the time run out); when nobody has one,
    the clock jumps to the table's deadline and the service runs what is due (the next
    hand, the default game, or the default actions of those whose time ran out), as its
    timer would."""
    rng = random.Random(seed)
    by_id = {u.id: u for u in world.users}
    order = {u.id: i for i, u in enumerate(world.users)}
    view = await world.service.table_in_channel(world.channel.id)
    if view is None:
        raise SandboxError("the table did not open")
    table_id = view.table_id
    done: dict[int, tuple[object, ...]] = {}
    key: tuple[object, ...]
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while world.relay.results < hands:
        if loop.time() > end:
            raise SandboxError(
                f"only {world.relay.results} of {hands} results after {timeout:.0f} s"
            )
        world.printer.flush()
        view = await world.service.view(table_id)
        if view.status == "closed":
            raise SandboxError("the table closed before the last hand")
        table_msg = await _table_message(world, table_id, table_msg)
        acted = False
        mixed = view.mixed
        if mixed is not None and mixed.chooser is not None and view.status == "running":
            chooser = next((s.user_id for s in view.seats if s.seat == mixed.chooser), None)
            user = by_id.get(chooser) if chooser is not None else None
            key = ("pick", view.hand_number, mixed.chooser)
            if user is not None and done.get(user.id) != key:
                done[user.id] = key
                acted = await pick_game(world, user, table_msg, rng)
        waiting = () if acted else view.to_act_user_ids
        for uid in sorted(waiting, key=lambda u: order.get(u, len(order))):
            user = by_id.get(uid)
            if user is None:
                continue
            pv = await world.service.private_view(table_id, uid)
            # one decision per window (guts) or per table state (the betting games)
            key = (view.hand_number, view.phase, pv.deadline, tuple(pv.cards))
            key += (view.version,) if view.game in TABLE_BUTTON_GAMES else (pv.chosen,)
            if done.get(uid) == key:
                continue
            action = policy_action(world.service, table_id, uid, rng)
            if action is None:
                continue
            done[uid] = key
            await act(world, user, table_msg, action)
            acted = True
            break  # the table changed: look again
        if acted:
            continue
        if view.deadline is None and view.status == "open" and world.relay.results > 0:
            # the players who still have chips are too few to deal (the table said why):
            # the game is over, as it would be for people
            have = sum(1 for s in view.seats if s.stack > 0)
            print(
                f"[sandbox] the game cannot go on: {have} player(s) with chips left",
                file=world.printer.out,
            )
            break
        if view.deadline is None:
            raise SandboxError(f"the table is stuck ({view.status}, nobody to act, no deadline)")
        world.clock.advance_to(float(view.deadline))
        await world.service.tick(table_id)
        await settle()
    world.printer.flush()
    return table_id


async def _table_message(world: _World, table_id: int, known: FakeMessage) -> FakeMessage:
    """The table message now (the bot renews one it has edited for long)."""
    found = (await world.service.messages(table_id)).get("table")
    message = None if found is None else world.fake.messages.get(found[1])
    return known if message is None else message


async def run_sandbox(
    *,
    game: str = "zoot",
    players: int = 4,
    hands: int = 1,
    seed: int | None = None,
    out: IO[str],
    showdown_png: Path | None = None,
    timeout: float = 120.0,
    split: str | None = None,
    betting: str | None = None,
) -> int:
    """Play ``hands`` results of ``game`` with ``players`` users; print everything; returns
    the exit status (0: finished and the ledger audit holds). ``split`` (stud, omaha) and
    ``betting`` (holdem, omaha) are the table's options of those names."""
    options = table_options(game, split=split, betting=betting)
    low, high = player_range(game, options)
    if not low <= players <= high:
        raise SandboxArgumentError(f"{game} needs {low} to {high} players, got {players}")
    if hands < 1:
        raise SandboxArgumentError(f"hands must be at least 1, got {hands}")
    seed = random.SystemRandom().randrange(1 << 30) if seed is None else seed
    chosen = ", ".join(v for v in (split, betting) if v is not None)
    what = f"{game} ({chosen})" if chosen else game
    print(f"[sandbox] {what}, {players} players, {hands} hand(s), seed {seed}", file=out)

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
            # the sandbox's composition root: one virtual clock, started at the wall time,
            # for the store's rows, the service's deadlines and the bot
            clock = VirtualClock(int(time.time()))
            store = await Store.open(db_path, clock=clock)
            seeds = random.Random(seed)
            relay = _CountingRelay()
            service = TableService(
                store,
                clock=clock,
                rng_factory=lambda: random.Random(seeds.random()),
                subscriber=relay,
                timers=False,  # the sandbox lets deadlines run out itself (see _play)
            )
            bot = HomeGameBot(
                settings=settings, store=store, service=service, relay=relay, clock=clock
            )
            printer = Printer(fake, out, names, clock)
            try:
                async with running_client(fake, bot):
                    _UPDATES.set(bot.get_cog("Tables").updates)  # type: ignore[union-attr]
                    await settle()
                    world = _World(fake, channel, users, service, relay, clock, printer)
                    status = await _session(world, game, options, hands, seed, timeout, out)
            finally:
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


def table_options(
    game: str, *, split: str | None = None, betting: str | None = None
) -> dict[str, Any]:
    """The options the host gives the table's command; SandboxArgumentError for a bad
    game, or a ``split``/``betting`` the game does not take (the names ``sim`` uses)."""
    if game not in GAMES:
        raise SandboxArgumentError(f"game must be one of {', '.join(GAMES)}, got {game!r}")
    if split is not None and game not in SPLIT_GAMES:
        raise SandboxArgumentError(f"--split applies to {registry.in_words(SPLIT_GAMES)} only")
    if betting is not None and game not in BETTING_GAMES:
        where = registry.in_words(BETTING_GAMES)
        raise SandboxArgumentError(f"--betting applies to {where} only")
    options: dict[str, Any] = {"decision_seconds": 10}
    if registry.family_of(game) == "guts":
        options["ante"] = 10
    if registry.game(game).mode == "choice":
        options["choice_seconds"] = 10  # the least Discord's option allows
    if split is not None:
        options["split"] = split
    if betting is not None:
        options["betting"] = betting
    return options


def player_range(game: str, options: Mapping[str, Any]) -> tuple[int, int]:
    """Players a table of ``game`` seats, from its family's rules (a mixed table: what
    every one of its games allows)."""
    try:
        family = make_family(game, options)
    except HomeGameError as exc:
        raise SandboxArgumentError(exc.message) from None
    return family.min_players, min(family.max_players, len(NAMES))


async def _session(
    world: _World,
    game: str,
    options: Mapping[str, Any],
    hands: int,
    seed: int,
    timeout: float,
    out: IO[str],
) -> int:
    fake, host = world.fake, world.users[0]
    opened = await fake.invoke(host, world.channel, game, options)
    reply = await opened.response(timeout=timeout)
    await settle()
    table_msg = reply.message
    if table_msg is None:
        raise SandboxError(f"/{game} did not post a table: {reply.content}")
    for user in world.users[1:]:
        world.printer.flush()
        if not await _answer(await fake.click_label(user, table_msg, "Join")):
            raise SandboxError(f"{user.name} could not join")
    world.printer.flush()
    if not await _answer(await fake.click_label(host, table_msg, "Start")):
        raise SandboxError("the host could not start the game")
    await _play(world, table_msg, hands, seed, timeout)
    closing = await fake.invoke(host, world.channel, "table", subcommand="end")
    closed = await closing.response(timeout=timeout)
    await settle()
    if closed.ephemeral:
        raise SandboxError(f"/table end refused: {closed.content}")
    world.printer.flush()
    print(f"[sandbox] {world.relay.results} result(s) played; table closed", file=out)
    return 0


def _save_picture(picture: ShowdownPicture | None, path: Path, out: IO[str]) -> None:
    from bot.render.images import render_showdown

    if picture is None or not picture.hands:
        print("[sandbox] no showdown with shown hands to draw", file=out)
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(render_showdown(picture.hands, **picture.render_kwargs()))
    print(f"[sandbox] showdown picture saved to {path}", file=out)
