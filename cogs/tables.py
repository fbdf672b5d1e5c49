"""Tables in channels: ``/zoot``, ``/wheelers``, ``/razz``, ``/table``, ``/hand``, the
table message's buttons, the hand DMs, and the TableService subscriber.

No game rule lives here: every action goes to :class:`~bot.tables.service.TableService`,
which checks it, applies it under the table's lock and publishes the result. This cog only
parses clicks, answers them within Discord's 3 seconds and renders views.

Discord's constraints shape the updates:

- a click is acknowledged at once (a deferred update: Discord's 3 seconds, and the button
  stops spinning) once the cheap checks passed; a click they refuse gets its ephemeral
  reason instead. The change is then committed, the hand DMs it changed are edited, and
  then the clicked message through the interaction (so the table never prompts a player
  whose DM does not show their new card yet); a refusal found under the table's lock comes
  as an ephemeral follow-up;
- every other update (someone else's action, a timeout, a result) goes through one
  coalescing updater per message (:class:`Coalescer`): at most one edit in flight, and the
  edit renders the newest state when it runs, so a burst of changes becomes one or two edits;
- every request but a click's answer counts against Discord's global limit (50 a second
  for all tables of the bot; ``bench/requests.py`` counts a hand's): a hand DM is edited
  only when what it shows changed, and a change that only takes something away (the turn
  passed, the hand is over) or only moves the table's count of secret choices waits a
  moment (:data:`DM_SETTLE`, :data:`TABLE_SETTLE`) to share one edit with the next;
- long-lived messages are edited through the bot's own channel/DM message endpoints,
  never through an interaction token (they expire after 15 minutes);
- nothing here ever runs while a table lock is held: the service calls :meth:`publish`
  after releasing it, and publish only schedules work.

Card images: a hand DM (and the ephemeral **My hand**) carries a PNG of its owner's cards,
re-attached only when the pictured hand changes; a result with a showdown carries a PNG of
every shown hand, the winners marked. Both need the host's ``ui.images`` and the league's
``images`` flag on; the text with the cards is sent either way. PNGs are drawn by
:mod:`bot.render.pool` (a worker process), never on the event loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import io
import logging
import time
from collections.abc import Awaitable, Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine.cards import parse_card
from bot.engine.errors import InvalidConfig
from bot.render.images import render_hand, render_showdown
from bot.render.pool import render
from bot.render.text import safe_name
from bot.tables.errors import NotSeated, StaleAction, TableClosed
from cogs._answer import arm_command, defer, send
from cogs._delivery import (
    DM_CLOSED,
    OLD_MESSAGE_EDITS,
    UNKNOWN_CHANNEL,
    OnceLog,
    due_for_renewal,
    is_permanent,
    jump_url,
)
from cogs._errors import reply
from cogs._ids import GUTS_ACTIONS, RAZZ_ACTIONS, CustomId
from cogs._mixed import MIXED_OPTION_HELP, chosen_key, pick_hand, pick_refusal
from cogs._render import (
    HAND_FILE,
    SHOWDOWN_FILE,
    HandPicture,
    ShowdownPicture,
    hand_over,
    hand_picture,
    only_takes_away,
    private_components,
    private_embed,
    same_hand_view,
    showdown_picture,
    table_components,
    table_embed,
    window_token,
)

if TYPE_CHECKING:
    from bot.app import HomeGameBot
    from bot.tables.service import TableService
    from bot.tables.views import PrivateView, Published, TableView

log = logging.getLogger("homegame.tables")

BACKGROUND_EDITS = 16
"""Background Discord calls (edits and posts that no click is waiting for) in flight at
once. Discord allows a bot ~50 requests a second in all; 16 at a time keeps up with that
at real network latency (~100 ms a call), while on a busy event loop it keeps new clicks'
acknowledgements from queueing behind hundreds of edits."""

PRIVATE_FIRST = 1.0
"""Seconds an edit of the table message (a click's answer, or any other change) waits for
the hand DMs the same change edits, so the table never names a player to act before their
DM shows their new card and options (a DM held up by Discord's rate limits does not hold
the table longer)."""

LEAGUE_IMAGES_TTL = 5.0
"""Seconds a league's ``images`` flag is kept in memory (``/league setup images:`` takes
effect within this; each DM update would otherwise read the league)."""

PRACTICE_FILL = 4
"""A practice table without ``computers:`` gets enough computer players to seat this many."""

TABLE_MOVED = "This table moved to a newer message:"
HAND_MOVED = "Your hand moved to a newer message below."
DM_SETTLE = 1.0
"""Seconds a hand DM edit that only takes something away (the turn passed, the hand is
over) waits for the next change of that DM, so both make one edit (Discord's global limit
of 50 requests a second is shared by every table of the bot)."""

TABLE_SETTLE = 1.0
"""Seconds a table message edit that only moves the count of secret choices waits for the
next ones (one edit for several choices made within a moment)."""

DM_SETTLE_MAX = 15.0
"""At most this long for the "hand is over" edit, which waits for the next deal."""

UNKNOWN = object()
"""No picture known on a message (never sent by this process): attach again."""


# ----------------------------------------------------------------------------- who may click


CHANNEL_PERMISSIONS: tuple[tuple[str, str], ...] = (
    ("view_channel", "View Channel"),
    ("send_messages", "Send Messages"),
    ("embed_links", "Embed Links"),
    ("read_message_history", "Read Message History"),
)
"""What the bot needs in a table's channel: see and post the table message (an embed) and
read it back to edit it; Attach Files too when pictures are on (checked when opening)."""

FOREIGN_TABLE = "That table belongs to another server: nothing changed."


def refusal(view: TableView, user_id: int, action: str) -> str | None:
    """Why ``user_id`` may not press ``action`` on the table message now (None: they may).

    A fast, polite answer before asking the service, which checks again under the lock.
    """
    if view.status == "closed":
        return "This table is closed."
    seated = any(s.user_id == user_id for s in view.seats)
    if action == "join":
        return "You are already at this table." if seated else None
    if not seated:
        return "You are not at this table: press **Join** first."
    if action in ("leave", "hand"):
        return None
    if action == "start":
        return None if view.status == "open" else "The game has already started."
    if action in RAZZ_ACTIONS:
        if view.status != "running":
            return "No hand is being played right now."
        if user_id not in view.to_act_user_ids:
            return "It is not your turn."
        option = next((o for o in view.public_actions if o.kind == action), None)
        if option is None:
            return f"You cannot {action.replace('_', ' ')} now."
        if not option.allowed:
            return option.reason or f"You cannot {action.replace('_', ' ')} now."
        return None
    return None


#: Option descriptions shared by /zoot and /wheelers (Discord shows them under each option).
GUTS_OPTION_HELP: dict[str, str] = {
    "ante": "chips each player antes (default: the league's)",
    "laydown_order": "how players choose to lay down",
    "decision_seconds": "seconds for each lay-down or discard window",
    "excuse_matcher_ante": "a player who matched the pot skips the next first ante",
    "laydown_requires_cover": "laying down needs at least the pot in your balance",
}
PRACTICE_OPTION_HELP: dict[str, str] = {
    "practice": "a practice table: computer players fill the seats, play chips only",
    "computers": "computer players at the practice table (default: enough for 4 players)",
}


# ----------------------------------------------------------------------------- updates


class Coalescer:
    """One updater per message key: at most one job in flight; a job submitted while one
    runs replaces any job still waiting (jobs read the newest state when they run).

    While a click is answered (:meth:`hold`), the jobs its own change submits wait until
    the answer went out; :meth:`run_held` lets some of them (the DM edits) go first.

    At most ``limit`` jobs run at once, over all messages: a burst of changes at many
    tables cannot flood the event loop with edits while new clicks wait to be
    acknowledged (the clicks' own answers are not jobs and are never held back). A job
    submitted ``after`` other keys waits for those first, without holding a slot.

    A job submitted with a ``delay`` (a change nobody must see before the next move) waits
    that long first; changes of its message meanwhile make one edit with it, and nothing
    (a click's answer, a job ``after`` it) waits for it."""

    def __init__(self, limit: int = BACKGROUND_EDITS) -> None:
        self._pending: dict[str, tuple[Callable[[], Awaitable[None]], Sequence[str], float]] = {}
        self._running: dict[str, asyncio.Task[None]] = {}
        self._sleeping: dict[str, asyncio.Event] = {}
        """key -> set to end the delay its drain is waiting out (a newer job came)."""
        self._slots = asyncio.Semaphore(limit)
        # per task answering a click (not a context variable: tasks started inside the
        # click, such as the service's timers, would inherit it and hold their jobs forever)
        self._held: dict[asyncio.Task[Any], list[str]] = {}

    def submit(
        self,
        key: str,
        job: Callable[[], Awaitable[None]],
        *,
        after: Sequence[str] = (),
        delay: float = 0.0,
    ) -> None:
        """Run ``job`` for ``key`` (replacing one waiting), once the jobs of ``after``
        running now are done (at most :data:`PRIVATE_FIRST` seconds). With ``delay``, the
        job waits that long first, and a job submitted for ``key`` meanwhile replaces it
        (at once if that one has no delay): changes within the delay make one edit."""
        self._pending[key] = (job, after, delay)
        if key in self._running:
            sleeping = self._sleeping.get(key)
            if sleeping is not None and delay <= 0:
                sleeping.set()  # a change that may not wait: stop waiting, run the newest
            return  # the running drain picks up the newest job when its edit is done
        task = asyncio.current_task()
        held = None if task is None else self._held.get(task)
        if held is not None:
            held.append(key)
        else:
            self._start(key)

    def _start(self, key: str) -> None:
        if key in self._pending and key not in self._running:
            self._running[key] = asyncio.create_task(self._drain(key), name=f"update-{key}")

    @contextlib.contextmanager
    def hold(self) -> Iterator[None]:
        """Within this block (one task: a click), submitted jobs are only queued; they
        start when it ends, after the answer it sends (even if the block fails)."""
        task = asyncio.current_task()
        if task is None or task in self._held:
            yield
            return
        held = self._held[task] = []
        try:
            yield
        finally:
            del self._held[task]
            for key in held:
                self._start(key)

    async def run_held(self, prefix: str, timeout: float) -> None:
        """Start now the jobs held by this task whose key starts with ``prefix``, and wait
        until they are done, or ``timeout`` seconds (they go on in the background)."""
        task = asyncio.current_task()
        held = None if task is None else self._held.get(task)
        if not held:
            return
        keys = [k for k in held if k.startswith(prefix)]
        urgent = [k for k in keys if not self.delayed(k)]
        for key in keys:
            held.remove(key)
            self._start(key)
        running = [self._running[k] for k in urgent if k in self._running]
        if running:
            await asyncio.wait(running, timeout=timeout)

    async def wait_for(self, keys: Sequence[str], timeout: float) -> None:
        """Wait until the updates of ``keys`` running now are done, or ``timeout`` (not for
        a delayed job: it is a change that need not go first)."""
        running = [self._running[k] for k in keys if k in self._running and not self.delayed(k)]
        if running:
            await asyncio.wait(running, timeout=timeout)

    async def _drain(self, key: str) -> None:
        loop = asyncio.get_running_loop()
        # a stream of changes with the same delay waits at most that delay from the first;
        # a change allowed to wait longer (a hand's end waits for the next deal) extends it
        until: float | None = None
        longest = 0.0
        try:
            while (item := self._pending.pop(key, None)) is not None:
                job, after, delay = item
                if delay > 0:
                    if until is None or delay > longest:
                        until, longest = loop.time() + delay, delay
                    woken = self._sleeping[key] = asyncio.Event()
                    try:
                        with contextlib.suppress(TimeoutError):
                            await asyncio.wait_for(woken.wait(), max(0.0, until - loop.time()))
                    finally:
                        self._sleeping.pop(key, None)
                    if key in self._pending:
                        continue  # replaced while waiting: the newest job renders it all
                until, longest = None, 0.0
                try:
                    if after:
                        await self.wait_for(after, PRIVATE_FIRST)
                    async with self._slots:
                        await job()
                except discord.HTTPException as exc:
                    if not is_permanent(exc):
                        log.exception("update of %s failed", key)
                    else:  # retrying cannot help: one line, and the next job goes on
                        log.warning("update of %s refused by Discord: %s", key, exc)
                except Exception:
                    log.exception("update of %s failed", key)
        finally:
            self._running.pop(key, None)

    def delayed(self, key: str) -> bool:
        """Whether the job of ``key`` waiting or running now is a delayed one."""
        pending = self._pending.get(key)
        if pending is not None:
            return pending[2] > 0
        return key in self._sleeping

    async def idle(self) -> None:
        """Wait until no update is running or waiting (tests, shutdown)."""
        while self._running:
            await asyncio.gather(*self._running.values(), return_exceptions=True)

    def cancel(self) -> None:
        self._pending.clear()
        for task in self._running.values():
            task.cancel()


def _may_manage(interaction: discord.Interaction) -> bool:
    perms = interaction.permissions
    return bool(perms.manage_guild or perms.administrator)


GUTS_ORDER = [
    app_commands.Choice(name="simultaneous (secret choices)", value="simultaneous"),
    app_commands.Choice(name="in turn from the dealer's left", value="in_turn"),
]
HAND_ACTIONS = [
    app_commands.Choice(name="show my cards", value="show"),
    app_commands.Choice(name="void the hand in progress (admins)", value="void"),
]
REVEAL = [
    app_commands.Choice(name="all hands are shown", value="all"),
    app_commands.Choice(name="losing hands may be mucked", value="winners"),
]


def _options(**values: Any) -> dict[str, Any]:
    """House rules given in the command (the league's defaults fill the rest)."""
    return {k: v for k, v in values.items() if v is not None}


class TablesCog(commands.Cog, name="Tables"):
    table = app_commands.Group(
        name="table", description="The table in this channel", guild_only=True
    )

    def __init__(self, bot: HomeGameBot, service: TableService) -> None:
        self.bot = bot
        self.service = service
        self.updates = Coalescer()
        self._rendered: dict[int, int] = {}
        """message id -> the newest state version shown on it (skips redundant edits)."""
        self._told_dm_closed: set[tuple[int, int]] = set()
        self._outbox: dict[int, list[tuple[str, ShowdownPicture | None]]] = {}
        self._closed: dict[int, TableView] = {}
        self._where: dict[int, dict[str, tuple[int, int]]] = {}
        """table id -> message kind -> (channel id, message id), as stored."""
        self._pictures: dict[int, HandPicture | None] = {}
        """hand message id -> the hand pictured in its attachment (None: no attachment)."""
        self._last_hand: dict[int, PrivateView] = {}
        """hand DM message id -> the PrivateView it shows (its closed state keeps the cards)."""
        self._table_shown: dict[int, TableView] = {}
        """table id -> the TableView its table message shows now."""
        self._shown: dict[tuple[int, int], PrivateView] = {}
        """(table id, user id) -> the PrivateView their hand DM shows now."""
        self._league_images: dict[int, tuple[float, bool]] = {}
        """guild id -> (when read, the league's images flag)."""
        self._guild_of: dict[int, int] = {}
        """table id -> its guild id."""
        self._worn: set[int] = set()
        """kept messages Discord refused to edit any more (30046): replaced on next update."""
        self._gone: set[int] = set()
        """tables whose channel was deleted (closed by the bot; nothing more is posted)."""
        self._refused = OnceLog()
        self._restored = False
        self._retired: set[int] = set()
        """replaced messages already retired (by the answer to a click on them)."""
        """table id -> its last view, once closed (the service no longer serves a view)."""

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        """Every slash command of this cog answers within Discord's 3 seconds, also when
        the store is slow (:mod:`cogs._answer`)."""
        return arm_command(interaction)

    async def cog_load(self) -> None:
        # the ace-to-five low table is built on first use (~0.3-1 s of CPU): build it now,
        # before the bot connects, in a worker thread; not on the event loop in the middle
        # of the first hand dealt (restored tables deal as soon as the bot is ready)
        await asyncio.to_thread(_warm_low_table)
        if self.bot.relay is not None:
            self.bot.relay.target = self

    async def _messages(self, table_id: int) -> dict[str, tuple[int, int]]:
        """Where the table's messages are (read once from the store, then kept here:
        each update would otherwise cost a database read)."""
        known = self._where.get(table_id)
        if known is None:
            known = self._where[table_id] = await self.service.messages(table_id)
        return known

    async def _set_message(
        self, table_id: int, kind: str, channel_id: int, message_id: int
    ) -> None:
        await self.service.set_message(table_id, kind, channel_id, message_id)
        known = self._where.get(table_id)
        if known is None:  # (re)load all, the new one included
            self._where[table_id] = await self.service.messages(table_id)
        else:
            known[kind] = (channel_id, message_id)

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """After a (re)start, bring each restored table's message up to date once: the last
        change before the stop may not have been shown, and a message that aged past
        :data:`~cogs._delivery.RENEW_AFTER` while the bot was down is replaced now."""
        if self._restored:
            return
        self._restored = True
        for table_id in await self.service.live_table_ids():
            self._refresh_table(table_id)

    async def cog_unload(self) -> None:
        if self.bot.relay is not None and self.bot.relay.target is self:
            self.bot.relay.target = None
        self.updates.cancel()

    # ------------------------------------------------------------------ opening tables

    async def _open(
        self,
        interaction: discord.Interaction,
        game: str,
        options: dict[str, Any],
        *,
        practice: bool | None = None,
        computers: int | None = None,
    ) -> None:
        assert interaction.guild_id is not None and interaction.channel_id is not None
        if computers is not None and not practice:
            raise InvalidConfig(
                "computers", "computer players sit only at a practice table: add practice:True"
            )
        if practice and computers is None:
            computers = PRACTICE_FILL - 1
        missing = await self._missing_permissions(interaction)
        if missing:
            await reply(interaction, missing)
            return
        view = await self.service.open_table(
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            host_id=interaction.user.id,
            host_name=safe_name(interaction.user.display_name),
            game=game,
            options=options,
            practice=bool(practice),
            computers=computers if practice else None,
        )
        self._guild_of[view.table_id] = view.guild_id
        sent = await send(
            interaction,
            embed=table_embed(view),
            view=table_components(view),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        # the follow-up when the command was deferred (a slow store), else the response
        message = sent if sent is not None else await interaction.original_response()
        self._rendered[message.id] = view.version
        await self._set_message(view.table_id, "table", message.channel.id, message.id)
        self._check_dm_later(view.table_id, interaction.user.id)

    async def _missing_permissions(self, interaction: discord.Interaction) -> str | None:
        """The one line that refuses to open a table when the bot lacks a permission it
        needs in this channel (its own, ``app_permissions``), else None."""
        have = interaction.app_permissions
        need = list(CHANNEL_PERMISSIONS)
        assert interaction.guild_id is not None
        if await self._images_on(interaction.guild_id):
            need.append(("attach_files", "Attach Files"))
        lacking = [label for flag, label in need if not getattr(have, flag)]
        if not lacking:
            return None
        channel = getattr(interaction.channel, "name", None)
        where = f"#{channel}" if channel else "this channel"
        them = "it" if len(lacking) == 1 else "them"
        role = self.bot.user.name if self.bot.user else "the bot"
        return (
            f"I need {', '.join(lacking)} in {where} to run a table: grant {them} in the"
            f" channel's settings → Permissions → my role ({role}), then open the table again."
        )

    @app_commands.command(name="zoot", description="Open a Zoot table here (ranked by suits)")
    @app_commands.guild_only()
    @app_commands.describe(**GUTS_OPTION_HELP, **PRACTICE_OPTION_HELP)
    @app_commands.choices(laydown_order=GUTS_ORDER)
    async def zoot(
        self,
        interaction: discord.Interaction,
        ante: app_commands.Range[int, 1, 1_000_000] | None = None,
        laydown_order: str | None = None,
        decision_seconds: app_commands.Range[int, 10, 600] | None = None,
        excuse_matcher_ante: bool | None = None,
        laydown_requires_cover: bool | None = None,
        practice: bool | None = None,
        computers: app_commands.Range[int, 1, 9] | None = None,
    ) -> None:
        await self._open(
            interaction,
            "zoot",
            _options(
                ante=ante,
                laydown_order=laydown_order,
                decision_seconds=decision_seconds,
                excuse_matcher_ante=excuse_matcher_ante,
                laydown_requires_cover=laydown_requires_cover,
            ),
            practice=practice,
            computers=computers,
        )

    @app_commands.command(
        name="wheelers", description="Open a Wheelers table here (ranked by straights)"
    )
    @app_commands.guild_only()
    @app_commands.describe(
        **GUTS_OPTION_HELP,
        wraparound="straights may turn the corner (K-A-2)",
        **PRACTICE_OPTION_HELP,
    )
    @app_commands.choices(laydown_order=GUTS_ORDER)
    async def wheelers(
        self,
        interaction: discord.Interaction,
        ante: app_commands.Range[int, 1, 1_000_000] | None = None,
        laydown_order: str | None = None,
        decision_seconds: app_commands.Range[int, 10, 600] | None = None,
        excuse_matcher_ante: bool | None = None,
        laydown_requires_cover: bool | None = None,
        wraparound: bool | None = None,
        practice: bool | None = None,
        computers: app_commands.Range[int, 1, 9] | None = None,
    ) -> None:
        await self._open(
            interaction,
            "wheelers",
            _options(
                ante=ante,
                laydown_order=laydown_order,
                decision_seconds=decision_seconds,
                excuse_matcher_ante=excuse_matcher_ante,
                laydown_requires_cover=laydown_requires_cover,
                wheelers_wraparound=wraparound,
            ),
            practice=practice,
            computers=computers,
        )

    @app_commands.command(name="razz", description="Open a Razz table here (seven-card stud low)")
    @app_commands.guild_only()
    @app_commands.describe(
        ante="ante per player (default: the league's)",
        bring_in="forced bet of the highest up card (less than the small bet)",
        small_bet="fixed bet on 3rd and 4th street",
        big_bet="fixed bet from 5th street on",
        showdown_reveal="which hands are shown at showdown",
        decision_seconds="seconds each player has to act",
        **PRACTICE_OPTION_HELP,
    )
    @app_commands.choices(showdown_reveal=REVEAL)
    async def razz(
        self,
        interaction: discord.Interaction,
        ante: app_commands.Range[int, 0, 1_000_000] | None = None,
        bring_in: app_commands.Range[int, 1, 1_000_000] | None = None,
        small_bet: app_commands.Range[int, 1, 1_000_000] | None = None,
        big_bet: app_commands.Range[int, 1, 1_000_000] | None = None,
        showdown_reveal: str | None = None,
        decision_seconds: app_commands.Range[int, 10, 600] | None = None,
        practice: bool | None = None,
        computers: app_commands.Range[int, 1, 9] | None = None,
    ) -> None:
        await self._open(
            interaction,
            "razz",
            _options(
                ante=ante,
                bring_in=bring_in,
                small_bet=small_bet,
                big_bet=big_bet,
                showdown_reveal=showdown_reveal,
                decision_seconds=decision_seconds,
            ),
            practice=practice,
            computers=computers,
        )

    # ------------------------------------------------------------------ mixed tables

    @app_commands.command(
        name="horse",
        description="Open a HORSE table: Hold'em, Omaha Hi-Lo, Razz, Stud, Stud Hi-Lo in turn",
    )
    @app_commands.guild_only()
    @app_commands.describe(**MIXED_OPTION_HELP, **PRACTICE_OPTION_HELP)
    async def horse(
        self,
        interaction: discord.Interaction,
        small_bet: app_commands.Range[int, 2, 1_000_000] | None = None,
        ante: app_commands.Range[int, 0, 1_000_000] | None = None,
        decision_seconds: app_commands.Range[int, 10, 600] | None = None,
        practice: bool | None = None,
        computers: app_commands.Range[int, 1, 7] | None = None,
    ) -> None:
        await self._open(
            interaction,
            "horse",
            _options(small_bet=small_bet, ante=ante, decision_seconds=decision_seconds),
            practice=practice,
            computers=computers,
        )

    @app_commands.command(
        name="dealers-choice",
        description="Open a dealer's choice table: each dealer picks the game of their deal",
    )
    @app_commands.guild_only()
    @app_commands.describe(
        games="the games allowed, e.g. zoot razz stud (default: every game)",
        **MIXED_OPTION_HELP,
        choice_seconds="seconds the next dealer has to pick (then the same game again)",
        **PRACTICE_OPTION_HELP,
    )
    async def dealers_choice(
        self,
        interaction: discord.Interaction,
        games: app_commands.Range[str, 1, 200] | None = None,
        small_bet: app_commands.Range[int, 2, 1_000_000] | None = None,
        ante: app_commands.Range[int, 0, 1_000_000] | None = None,
        decision_seconds: app_commands.Range[int, 10, 600] | None = None,
        choice_seconds: app_commands.Range[int, 10, 300] | None = None,
        practice: bool | None = None,
        computers: app_commands.Range[int, 1, 7] | None = None,
    ) -> None:
        await self._open(
            interaction,
            "dealers-choice",
            _options(
                games=games,
                small_bet=small_bet,
                ante=ante,
                decision_seconds=decision_seconds,
                choice_seconds=choice_seconds,
            ),
            practice=practice,
            computers=computers,
        )

    async def _pick_game(
        self, interaction: discord.Interaction, cid: CustomId, values: Sequence[str]
    ) -> None:
        """The next dealer's pick in the game menu of a dealer's-choice table."""
        hand = pick_hand(cid)
        key = chosen_key(values)
        why = pick_refusal(await self.service.view(cid.table_id), interaction.user.id, hand)
        if why is not None:
            await reply(interaction, why)
            return
        await interaction.response.defer()
        view = await self.service.choose_game(
            cid.table_id, interaction.user.id, key, after_hand=hand
        )
        await self._answer_table(interaction, view)

    # ------------------------------------------------------------------ /table, /hand

    async def _here(self, interaction: discord.Interaction) -> TableView:
        from bot.engine.errors import GameError

        assert interaction.channel_id is not None
        view = await self.service.table_in_channel(interaction.channel_id)
        if view is None:
            raise GameError(
                "There is no table in this channel: open one with /zoot, /wheelers or /razz."
            )
        return view

    @table.command(name="status", description="Show the table in this channel")
    async def status(self, interaction: discord.Interaction) -> None:
        view = await self._here(interaction)
        await send(interaction, embed=table_embed(view), ephemeral=True)

    @table.command(
        name="end", description="Close the table (host or Manage Server); the pot goes back"
    )
    async def end(self, interaction: discord.Interaction) -> None:
        view = await self._here(interaction)
        closed = await self.service.end(
            view.table_id, interaction.user.id, may_manage=_may_manage(interaction)
        )
        self._closed[closed.table_id] = closed
        await send(
            interaction,
            f"Table #{closed.table_id} is closed; every chip left in the pot went back to "
            "whoever paid it in.",
        )
        self._refresh_table(closed.table_id)

    @table.command(name="kick", description="Remove a player (host or Manage Server)")
    @app_commands.describe(user="the player to remove")
    async def kick(self, interaction: discord.Interaction, user: discord.User) -> None:
        view = await self._here(interaction)
        await self.service.kick(
            view.table_id, interaction.user.id, user.id, may_manage=_may_manage(interaction)
        )
        await send(
            interaction,
            f"{user.mention} leaves table #{view.table_id}.",
            allowed_mentions=discord.AllowedMentions.none(),
        )
        self._refresh_table(view.table_id)

    @app_commands.command(
        name="hand",
        description="Your cards at this channel's table (only you see them); admins: void the hand",
    )
    @app_commands.guild_only()
    @app_commands.describe(
        action="show: your cards (default); void: void the hand in progress, refunding everyone"
    )
    @app_commands.choices(action=HAND_ACTIONS)
    async def hand(self, interaction: discord.Interaction, action: str = "show") -> None:
        if action == "void":
            # the same code as /league void: its run-time check (Manage Server or the
            # league's admin role) refuses anyone else before anything changes
            from cogs.admin import void_hand_here

            await void_hand_here(self.bot, interaction)
            return
        view = await self._here(interaction)
        pv = await self.service.private_view(view.table_id, interaction.user.id)
        await self._send_private(interaction, pv)

    async def _send_private(self, interaction: discord.Interaction, pv: PrivateView) -> None:
        """The ephemeral hand view (**My hand**, ``/hand``). With images on, acknowledged
        first ("thinking", only the clicker sees it): the picture may wait behind other
        tables' drawings, and Discord's 3 seconds do not."""
        if self.bot.settings.ui.images and not interaction.response.is_done():
            await defer(interaction, ephemeral=True)
        picture = await self._picture_for(await self._guild(pv.table_id), pv)
        extra: dict[str, Any] = {}
        if picture is not None:
            extra["file"] = await self._hand_file(picture)
        if interaction.response.is_done():
            await interaction.followup.send(
                embed=private_embed(pv), view=private_components(pv), ephemeral=True, **extra
            )
        else:
            await send(
                interaction,
                embed=private_embed(pv),
                view=private_components(pv),
                ephemeral=True,
                **extra,
            )

    # ------------------------------------------------------------------ card images

    async def _guild(self, table_id: int) -> int:
        known = self._guild_of.get(table_id)
        if known is None:
            known = self._guild_of[table_id] = (await self.service.view(table_id)).guild_id
        return known

    async def _images_on(self, guild_id: int) -> bool:
        """Both switches on: the host's ``ui.images`` and the league's ``images`` flag
        (kept :data:`LEAGUE_IMAGES_TTL` seconds; a guild without a league draws them)."""
        if not self.bot.settings.ui.images:
            return False
        now = time.monotonic()
        cached = self._league_images.get(guild_id)
        if cached is not None and now - cached[0] < LEAGUE_IMAGES_TTL:
            return cached[1]
        async with self.bot.store.read() as tx:
            league = await tx.find_league(guild_id)
        on = True if league is None else league.images
        self._league_images[guild_id] = (now, on)
        return on

    async def _picture_for(self, guild_id: int, pv: PrivateView) -> HandPicture | None:
        """The hand picture to attach for ``pv`` (None: images off or no cards)."""
        if not await self._images_on(guild_id):
            return None
        return hand_picture(pv)

    async def _hand_file(self, picture: HandPicture) -> discord.File:
        png = await render(render_hand, picture.cards, label=picture.label)
        alt = f"{picture.label}: {' '.join(c.pretty for c in picture.cards)}"
        return discord.File(io.BytesIO(png), filename=HAND_FILE, description=alt[:1024])

    async def _hand_attachments(
        self, pv: PrivateView, message_id: int
    ) -> tuple[HandPicture | None, list[discord.File] | None]:
        """The picture of ``pv`` and the new attachments of the hand message
        ``message_id`` showing it: None when its picture has not changed (the edit leaves
        the attachment as it is), ``[]`` to remove it (images off, no cards), else the PNG."""
        picture = await self._picture_for(await self._guild(pv.table_id), pv)
        if self._pictures.get(message_id, UNKNOWN) == picture:
            return picture, None
        return picture, [] if picture is None else [await self._hand_file(picture)]

    # ------------------------------------------------------------------ clicks

    async def on_click(
        self, interaction: discord.Interaction, cid: CustomId, values: Sequence[str]
    ) -> None:
        """A press of one of our buttons or a choice in the discard menu. Acknowledged
        first; the edits and posts the click's change publishes wait for the clicker's
        answer (the clicked message with the new state), except the hand DMs that a table
        message answer waits for (:meth:`_answer_table`)."""
        with self.updates.hold():
            await self._click(interaction, cid, values)

    async def _click(
        self, interaction: discord.Interaction, cid: CustomId, values: Sequence[str]
    ) -> None:
        uid = interaction.user.id
        service = self.service
        tid = cid.table_id
        # A click acts only on a table of the server it came from: a custom_id names a
        # table, and anyone can craft one. The hand DM's controls come from a DM (no
        # server); every other click must come from the table's own server.
        in_dm = interaction.guild_id is None and cid.action in GUTS_ACTIONS
        if not in_dm and interaction.guild_id != await self._guild(tid):
            await reply(interaction, FOREIGN_TABLE)
            return
        if await self._superseded(interaction, tid):
            raise StaleAction()
        if cid.action == "pick_game":
            await self._pick_game(interaction, cid, values)
            return
        if cid.action in ("join", "leave", "start", "hand") or cid.action in RAZZ_ACTIONS:
            view = await service.view(tid)
            why = refusal(view, uid, cid.action)
            if why is not None:
                await reply(interaction, why)
                return
            if cid.action in RAZZ_ACTIONS and cid.version != view.version:
                raise StaleAction()  # refused at once; the service checks again under its lock
        card: str | None = None
        if cid.action in GUTS_ACTIONS:
            if cid.action == "discard":
                if len(values) != 1:
                    await reply(interaction, "Choose exactly one card to discard.")
                    return
                card = values[0]
                parse_card(card)  # a malformed value is refused here, before anything
            if cid.arg != window_token(await service.private_view(tid, uid)):
                raise StaleAction()
        if cid.action != "hand":
            # Acknowledge first (Discord's 3 seconds; the button stops spinning), then commit
            # and edit the clicked message through this interaction. The checks above answer
            # a refused click at once; one refused under the table's lock (a double click, a
            # timer that acted first) gets an ephemeral follow-up.
            await interaction.response.defer()
        if cid.action == "join":
            view = await service.join(tid, uid, safe_name(interaction.user.display_name))
            await self._answer_table(interaction, view)
            self._check_dm_later(tid, uid)
        elif cid.action == "leave":
            await self._answer_table(interaction, await service.leave(tid, uid))
        elif cid.action == "start":
            await self._answer_table(interaction, await service.start(tid, uid))
        elif cid.action == "hand":
            await self._send_private(interaction, await service.private_view(tid, uid))
        elif cid.action in RAZZ_ACTIONS:
            await service.act(tid, uid, cid.action, version=cid.version)
            await self._answer_table(interaction, await service.view(tid))
        else:  # the private guts controls: lay_down, play_on, discard
            # No version here: in a simultaneous window every choice bumps the table's
            # version, which must not make the other players' buttons stale; the window
            # token above refuses buttons of an earlier window, and the engine refuses a
            # second choice in the same window (a double click).
            pv = await service.act(tid, uid, cid.action, card=card)
            await self._answer_private(interaction, pv)

    async def _superseded(self, interaction: discord.Interaction, table_id: int) -> bool:
        """The clicked table message or hand DM was replaced by a newer one (renewed before
        its hour, or reposted): its buttons must not act on the table's new state."""
        message = interaction.message
        if message is None or message.flags.ephemeral:
            return False
        kind = "table" if interaction.guild_id is not None else f"dm:{interaction.user.id}"
        where = (await self._messages(table_id)).get(kind)
        # snowflakes grow with time: an older id than the stored one was replaced
        return where is not None and message.id < where[1]

    async def _retire_clicked(self, interaction: discord.Interaction, content: str) -> None:
        """Answer a click on a message due for renewal by retiring it (no buttons left);
        past Discord's hour the refused edit is left to the renewal (it deletes it)."""
        message = interaction.message
        assert message is not None
        try:
            await _edit_clicked(interaction, content=content, embeds=[], attachments=[], view=None)
        except discord.HTTPException as exc:
            if not is_permanent(exc):
                raise
            return
        self._retired.add(message.id)

    def _due(self, message_id: int) -> bool:
        return due_for_renewal(message_id, self.service.clock())

    async def _answer_table(self, interaction: discord.Interaction, view: TableView) -> None:
        """The clicker's answer is the edit of the table message they clicked, once the
        hand DMs this change touched are edited (at most :data:`PRIVATE_FIRST` seconds):
        the table never names a player to act before their DM shows what they need (a
        new down card, their options); the posts and other edits follow the answer."""
        await self.updates.run_held("dm:", PRIVATE_FIRST)
        message = interaction.message
        if message is not None:
            if self._due(message.id):
                # near its hour: the clicker's answer retires it; a fresh one replaces it
                self._refresh_table(view.table_id)
                await self._retire_clicked(interaction, TABLE_MOVED)
                return
            if self._rendered.get(message.id, -1) < view.version:
                self._rendered[message.id] = view.version
                self._table_shown[view.table_id] = view
            try:
                await _edit_clicked(
                    interaction, embed=table_embed(view), view=table_components(view)
                )
            except discord.HTTPException as exc:
                if exc.code != OLD_MESSAGE_EDITS:
                    raise
                self._worn.add(message.id)
                self._refresh_table(view.table_id)
        else:
            await reply_embed(interaction, table_embed(view))

    async def _answer_private(self, interaction: discord.Interaction, pv: PrivateView) -> None:
        """The clicker sees their choice at once on the DM (or ephemeral) they clicked;
        in the secret lay-down window this is the only confirmation anyone gets."""
        message = interaction.message
        if message is not None and message.guild is None and self._due(message.id):
            # near its hour: the answer retires it; a fresh hand DM shows the choice
            uid = interaction.user.id
            self.updates.submit(
                f"dm:{pv.table_id}:{uid}", lambda: self._update_dm(pv.table_id, uid)
            )
            await self._retire_clicked(interaction, HAND_MOVED)
            return
        if message is not None and message.guild is None:
            self._rendered[message.id] = max(self._rendered.get(message.id, -1), pv.version)
            self._last_hand[message.id] = pv
            self._shown[(pv.table_id, pv.user_id)] = pv
        extra: dict[str, Any] = {}
        if message is not None:
            picture, files = await self._hand_attachments(pv, message.id)
            if files is not None:
                extra["attachments"] = files
        try:
            await _edit_clicked(
                interaction, embed=private_embed(pv), view=private_components(pv), **extra
            )
        except discord.HTTPException as exc:
            if exc.code != OLD_MESSAGE_EDITS or message is None or message.guild is not None:
                raise
            self._worn.add(message.id)
            uid = interaction.user.id
            self.updates.submit(
                f"dm:{pv.table_id}:{uid}", lambda: self._update_dm(pv.table_id, uid)
            )
            return
        if "attachments" in extra and message is not None:
            self._pictures[message.id] = picture

    # ------------------------------------------------------------------ subscriber

    async def publish(self, published: Published) -> None:
        """Called by the service after each committed change, lock released: schedule
        the edits and posts; never wait for Discord here."""
        view = published.view
        tid = view.table_id
        self._guild_of[tid] = view.guild_id
        if view.status == "closed":
            self._closed[tid] = view
        dms = []
        for uid in published.private_changed:
            if uid < 0:
                continue  # a computer player (practice tables): nobody to send a DM to
            key = f"dm:{tid}:{uid}"
            delay = await self._settle_delay(published, uid)
            self.updates.submit(key, lambda uid=uid: self._update_dm(tid, uid), delay=delay)
            if not delay:
                dms.append(key)
        if tid in self._gone:
            return  # its channel was deleted: nothing more can be posted there
        # the table message after those DMs (see PRIVATE_FIRST)
        self._refresh_table(tid, after=dms, delay=self._table_settle(published))
        posts: list[tuple[str, ShowdownPicture | None]] = [
            (text, None) for text in (*published.announcements, *published.results)
        ]
        if published.results:
            # the showdown picture goes with the hand's result (its last text)
            posts[-1] = (posts[-1][0], showdown_picture(published))
        if posts:
            # one outbox per table, drained in order: results are never coalesced away
            self._outbox.setdefault(tid, []).extend(posts)
            self.updates.submit(
                f"post:{tid}", lambda: self._post(tid, view.channel_id, view.guild_id)
            )

    async def _settle_delay(self, published: Published, user_id: int) -> float:
        """How long the DM edit of ``user_id`` for this change may wait (0: at once).

        A change that only takes away from what the DM shows (the player's turn ended,
        they folded, the hand is over: no new card, no option newly allowed) is not
        something they must see before anyone else moves, so it waits a moment
        (:data:`DM_SETTLE`; after a result, until just past the next deal): if their DM
        changes again meanwhile, one edit shows both. Cards and options that arrive never
        wait."""
        view = published.view
        shown = self._shown.get((view.table_id, user_id))
        if shown is None or view.status == "closed":
            return 0.0
        try:
            pv = await self.service.private_view(view.table_id, user_id)
        except (TableClosed, NotSeated):
            return 0.0  # the DM update itself deals with it, at once
        if not only_takes_away(shown, pv):
            return 0.0
        if published.results and view.deadline is not None:
            until_deal = view.deadline - self.service.clock() + DM_SETTLE
            return min(max(DM_SETTLE, until_deal), DM_SETTLE_MAX)
        return DM_SETTLE

    def _table_settle(self, published: Published) -> float:
        """How long the table message's edit for this change may wait (0: at once): a
        choice made in a secret window only moves the count of who has chosen ("3 of 6
        have chosen"), so it waits :data:`TABLE_SETTLE` for the next choices and the
        window's end, to make one edit of them. Anything else (a new phase, a deal, a
        player named to act, a result) goes at once."""
        view = published.view
        shown = self._table_shown.get(view.table_id)
        if shown is None or published.results or published.announcements:
            return 0.0
        counting = (view.status, view.hand_number, view.phase) == (
            shown.status,
            shown.hand_number,
            shown.phase,
        ) and view.to_act_user_ids < shown.to_act_user_ids
        return TABLE_SETTLE if counting and view.game != "razz" else 0.0

    def _refresh_table(
        self, table_id: int, *, after: Sequence[str] = (), delay: float = 0.0
    ) -> None:
        """Edit the table message to its newest state, once the updates ``after`` (keys)
        running now are done (at most :data:`PRIVATE_FIRST` seconds)."""
        self.updates.submit(
            f"table:{table_id}", lambda: self._update_table(table_id), after=after, delay=delay
        )

    async def _post(self, table_id: int, channel_id: int, guild_id: int) -> None:
        """Send the table's outbox in order. A post Discord refuses for good (permissions,
        a deleted channel) is dropped, not retried: it must not hold up the later ones;
        a picture the channel refuses (no Attach Files) goes as text without it."""
        channel = self.bot.get_partial_messageable(channel_id)
        outbox = self._outbox.get(table_id, [])
        while outbox:
            text, picture = outbox[0]
            extra: dict[str, Any] = {}
            if picture is not None and await self._images_on(guild_id):
                png = await render(
                    render_showdown, picture.hands, winner_indexes=set(picture.winners)
                )
                alt = "Showdown: " + "; ".join(
                    f"{name} {' '.join(c.pretty for c in cards)} {hand}".strip()
                    for name, cards, hand in picture.hands
                )
                extra["file"] = discord.File(
                    io.BytesIO(png), filename=SHOWDOWN_FILE, description=alt[:1024]
                )
            try:
                await channel.send(
                    text[:2000], allowed_mentions=discord.AllowedMentions.none(), **extra
                )
            except discord.HTTPException as exc:
                if not is_permanent(exc):
                    raise  # 5xx after discord.py's retries: the next post job tries again
                if exc.code == UNKNOWN_CHANNEL:
                    outbox.clear()
                    await self._channel_gone(table_id, exc)
                    return
                if extra and isinstance(exc, discord.Forbidden):
                    self._refused.warn(table_id, "showdown picture", exc)
                    outbox[0] = (text, None)
                    continue
                self._refused.warn(table_id, "channel post", exc)
            outbox.pop(0)

    async def _channel_gone(self, table_id: int, exc: discord.HTTPException) -> None:
        """The table's channel was deleted: close the table (the running hand is voided and
        the pot goes back by the ledger, as ``/table end`` does); nothing is posted there."""
        if table_id in self._gone:
            return
        self._gone.add(table_id)
        self._outbox.pop(table_id, None)
        log.warning(
            "table %s: its channel is gone (Discord %s): closing the table, pot refunded",
            table_id,
            exc.code,
        )
        with contextlib.suppress(TableClosed):
            await self.service.close_lost(table_id, reason="channel deleted")

    async def _retire(
        self, channel_id: int, message_id: int, *, content: str, dm: bool = False
    ) -> None:
        """Strip a replaced message's buttons and point to its successor; past Discord's
        hour (edit refused) delete it instead, so none of its buttons stays."""
        kind = discord.ChannelType.private if dm else None
        old = self.bot.get_partial_messageable(channel_id, type=kind).get_partial_message(
            message_id
        )
        for forget in (self._rendered, self._pictures, self._last_hand):
            forget.pop(message_id, None)
        self._worn.discard(message_id)
        if message_id in self._retired:
            self._retired.discard(message_id)
            return
        try:
            await old.edit(content=content, embeds=[], attachments=[], view=None)
            return
        except discord.NotFound:
            return
        except discord.HTTPException as exc:
            if not is_permanent(exc):
                raise
        with contextlib.suppress(discord.HTTPException):
            await old.delete()

    async def _renew_table(
        self, table_id: int, view: TableView, channel_id: int, old_id: int | None
    ) -> None:
        """Post a fresh table message, remember it (a restart keeps using it), retire the
        old one."""
        channel = self.bot.get_partial_messageable(channel_id)
        try:
            sent = await channel.send(embed=table_embed(view), view=table_components(view))
        except discord.HTTPException as exc:
            if exc.code == UNKNOWN_CHANNEL:
                await self._channel_gone(table_id, exc)
                return
            if not is_permanent(exc):
                raise
            self._refused.warn(table_id, "table message post", exc)
            return
        self._refused.forget(table_id, "table message post")
        self._rendered[sent.id] = view.version
        await self._set_message(table_id, "table", channel_id, sent.id)
        if old_id is not None:
            link = jump_url(view.guild_id, channel_id, sent.id)
            await self._retire(channel_id, old_id, content=f"{TABLE_MOVED} {link}")

    async def _update_table(self, table_id: int) -> None:
        try:
            view = await self.service.view(table_id)
        except TableClosed:
            # closed (by /table end, or everyone left): the service serves no view of it
            # any more; show the last one we were given, marked closed, without buttons
            closed = self._closed.get(table_id)
            if closed is None:
                return  # closed before this process knew it: the message was updated then
            view = dataclasses.replace(closed, status="closed", deadline=None)
        if table_id in self._gone:
            return
        where = (await self._messages(table_id)).get("table")
        if where is None:
            return
        channel_id, message_id = where
        live = view.status != "closed"  # a closed table's message is not reposted
        if live and (message_id in self._worn or self._due(message_id)):
            # Discord caps edits of hour-old messages: a fresh one replaces it in time
            await self._renew_table(table_id, view, channel_id, message_id)
            return
        if self._rendered.get(message_id, -1) >= view.version:
            return
        self._rendered[message_id] = view.version
        self._table_shown[table_id] = view
        message = self.bot.get_partial_messageable(channel_id).get_partial_message(message_id)
        try:
            await message.edit(embed=table_embed(view), view=table_components(view))
        except discord.HTTPException as exc:
            if exc.code == UNKNOWN_CHANNEL:
                await self._channel_gone(table_id, exc)
            elif isinstance(exc, discord.NotFound) and live:
                # the table message was deleted (a moderator): post a new one, remember it
                await self._renew_table(table_id, view, channel_id, None)
            elif exc.code == OLD_MESSAGE_EDITS and live:
                self._worn.add(message_id)
                await self._renew_table(table_id, view, channel_id, message_id)
            elif is_permanent(exc):
                self._refused.warn(table_id, "table message edit", exc)
            else:
                self._rendered.pop(message_id, None)  # not shown: the next update edits it
                raise

    async def _update_dm(self, table_id: int, user_id: int) -> None:
        if (table_id, user_id) in self._told_dm_closed:
            return  # DMs closed: the player uses My hand; don't knock again on every change
        try:
            pv = await self.service.private_view(table_id, user_id)
        except TableClosed:
            await self._close_dm(table_id, user_id)
            return
        where = (await self._messages(table_id)).get(f"dm:{user_id}")
        if where is not None:
            channel_id, message_id = where
            if message_id in self._worn or self._due(message_id):
                # Discord caps edits of hour-old messages: a fresh DM replaces it in time
                if await self._send_dm(table_id, user_id, pv):
                    await self._retire(channel_id, message_id, content=HAND_MOVED, dm=True)
                return
            if self._rendered.get(message_id, -1) >= pv.version:
                return
            self._rendered[message_id] = pv.version
            last = self._last_hand.get(message_id)
            if last is not None and same_hand_view(last, pv):
                return  # the DM already shows all of it (only the state number differs)
            dm = self.bot.get_partial_messageable(channel_id, type=discord.ChannelType.private)
            extra: dict[str, Any] = {}
            picture, files = await self._hand_attachments(pv, message_id)
            if files is not None:
                extra["attachments"] = files
            try:
                await dm.get_partial_message(message_id).edit(
                    embed=private_embed(pv), view=private_components(pv), **extra
                )
            except discord.HTTPException as exc:
                if isinstance(exc, discord.Forbidden) and exc.code == DM_CLOSED:
                    # DMs closed mid-game: as a refused send (the game never waits)
                    await self._dm_closed(table_id, user_id)
                    return
                if exc.code == OLD_MESSAGE_EDITS:
                    self._worn.add(message_id)
                    self._rendered.pop(message_id, None)
                    await self._update_dm(table_id, user_id)  # renews it (worn)
                    return
                if not isinstance(exc, discord.NotFound):
                    self._rendered.pop(message_id, None)
                    raise
                # the DM was deleted: a new one below
            else:
                if files is not None:
                    self._pictures[message_id] = picture
                self._last_hand[message_id] = pv
                self._shown[(table_id, user_id)] = pv
                return
        await self._send_dm(table_id, user_id, pv)

    async def _close_dm(self, table_id: int, user_id: int) -> None:
        """The table closed: the hand DM keeps its last cards but loses its controls, its
        action list and its countdown."""
        where = (await self._messages(table_id)).get(f"dm:{user_id}")
        if where is None:
            return
        channel_id, message_id = where
        dm = self.bot.get_partial_messageable(channel_id, type=discord.ChannelType.private)
        last = self._last_hand.pop(message_id, None)
        extra: dict[str, Any] = {}
        content = f"Table #{table_id} is closed."
        if last is not None and hand_over(last):
            extra["embed"] = private_embed(last, closed=True)  # the last game's result
        elif last is not None:
            # the game being played was voided by the close: its cards are no hand any
            # more (issue 12.8), so they go, with their picture
            content += " The game being played was voided: every chip it moved went back."
            extra["embed"] = None
            extra["attachments"] = []
            self._pictures.pop(message_id, None)
        try:
            await dm.get_partial_message(message_id).edit(content=content, view=None, **extra)
        except discord.HTTPException as exc:
            # DMs closed, or past the hour: its buttons answer "This table is closed."
            if not is_permanent(exc):
                raise

    async def _send_dm(self, table_id: int, user_id: int, pv: PrivateView | None) -> bool:
        """Send the hand DM and remember it; on closed DMs tell the channel once to use
        **My hand** (the game never waits for a DM)."""
        try:
            channel = await self.bot.create_dm(discord.Object(id=user_id))
            if pv is None:
                content = (
                    f"You sit at table #{table_id}. Your cards will show here, and this "
                    "message is kept up to date."
                )
                sent = await channel.send(content)
            else:
                picture = await self._picture_for(await self._guild(table_id), pv)
                extra: dict[str, Any] = {}
                if picture is not None:
                    extra["file"] = await self._hand_file(picture)
                sent = await channel.send(
                    embed=private_embed(pv), view=private_components(pv), **extra
                )
                self._rendered[sent.id] = pv.version
                self._pictures[sent.id] = picture
                self._last_hand[sent.id] = pv
                self._shown[(table_id, user_id)] = pv
        except discord.Forbidden as exc:
            if exc.code != DM_CLOSED:
                raise
            await self._dm_closed(table_id, user_id)
            return False
        await self._set_message(table_id, f"dm:{user_id}", channel.id, sent.id)
        await self.service.set_dm_ok(table_id, user_id, True)
        return True

    async def _dm_closed(self, table_id: int, user_id: int) -> None:
        """A send or an edit of the hand DM was refused (50007): tell the channel once to
        use **My hand**; the game never waits for the DM."""
        await self.service.set_dm_ok(table_id, user_id, False)
        if (table_id, user_id) in self._told_dm_closed:
            return
        self._told_dm_closed.add((table_id, user_id))
        if table_id in self._gone:
            return
        view = await self.service.view(table_id)
        try:
            await self.bot.get_partial_messageable(view.channel_id).send(
                f"<@{user_id}>, I cannot send you direct messages: press **My hand** on "
                "the table message to see your cards and make your choices.",
                allowed_mentions=discord.AllowedMentions(users=[discord.Object(user_id)]),
            )
        except discord.HTTPException as exc:
            if not is_permanent(exc):
                raise
            self._refused.warn(table_id, "DMs-closed notice", exc)

    def _check_dm_later(self, table_id: int, user_id: int) -> None:
        """Before any deal, make sure the player can be DMed (after answering the click:
        the 3-second acknowledgement comes first)."""

        async def check() -> None:
            if f"dm:{user_id}" not in await self._messages(table_id):
                await self._send_dm(table_id, user_id, None)

        self.updates.submit(f"dm:{table_id}:{user_id}", check)


async def _edit_clicked(interaction: discord.Interaction, **fields: Any) -> None:
    """Show ``fields`` on the clicked message: in the interaction's answer, or, once the
    click was acknowledged, by editing that message through the interaction."""
    if interaction.response.is_done():
        await interaction.edit_original_response(**fields)
    else:
        await interaction.response.edit_message(**fields)


async def reply_embed(interaction: discord.Interaction, embed: discord.Embed) -> None:
    """An ephemeral embed, whether or not the interaction was acknowledged."""
    if interaction.response.is_done():
        await interaction.followup.send(embed=embed, ephemeral=True)
    else:
        await send(interaction, embed=embed, ephemeral=True)


def _warm_low_table() -> None:
    from bot.engine.cards import parse_cards
    from bot.engine.hands.low import low_name

    low_name(parse_cards("As 2d 3c 4h 5s"))


async def setup(bot: HomeGameBot) -> None:
    if bot.service is None:
        raise commands.ExtensionFailed("cogs.tables", RuntimeError("no TableService given"))
    await bot.add_cog(TablesCog(bot, bot.service))
