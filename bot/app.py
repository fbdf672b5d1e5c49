"""The Discord bot: a :class:`commands.AutoShardedBot` built from injected parts.

Nothing happens at import. ``python -m bot run`` loads the settings, opens the store, builds
the :class:`~bot.tables.service.TableService` and hands all three to :class:`HomeGameBot`,
whose ``setup_hook`` loads the cogs, registers the persistent components, restores the
tables and syncs the slash commands.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import discord
from discord.ext import commands

from bot.config import Settings
from bot.ops import priority
from bot.ops.logs import log_published, warn_http_errors
from bot.render import pool as render_pool
from bot.store import Store
from cogs._errors import handle_error
from cogs._items import HistorySelect, LeaderboardButton, lighten_click, route_component
from cogs._mixed import GameSelect
from cogs._tournament_items import TournamentButton

if TYPE_CHECKING:
    from bot.tables.service import TableService
    from bot.tables.views import Published
    from bot.tournament_service import TournamentService

log = logging.getLogger("homegame.app")

EXTENSIONS: tuple[str, ...] = (
    "cogs.rules",
    "cogs.league",
    "cogs.admin",
    "cogs.night",
    "cogs.help",
    "cogs.settings",
    "cogs.tables",
    "cogs.tournament",
)
"""Cogs loaded by default; ``cogs.tables`` and ``cogs.tournament`` need a TableService."""

HEARTBEAT_SECONDS = 30.0

INVITE_PERMISSIONS = 117760
"""View Channels 1024 + Send Messages 2048 + Embed Links 16384 + Attach Files 32768 + Read
Message History 65536: what the bot needs in a channel (README, Creating the application)."""

RETRY_FIRST = 1.0
RETRY_MAX = 60.0
"""Login retries while Discord is unreachable: the first after RETRY_FIRST seconds, each
later one twice as late, at most RETRY_MAX apart."""

SHUTDOWN_GRACE = 10.0
"""Seconds a stopping bot gives the interactions it is handling, then the message edits
they queued, to finish before it closes its connection and the store: a command cut off
half-way would fail against the closed session and leave its user without an answer."""

HANDLER_TASKS = (
    "CommandTree-invoker",
    "discord-ui-view-dispatch-",
    "discord-ui-dynamic-item-",
    "discord-ui-modal-dispatch-",
    "discord.py: on_interaction",
)
"""The names discord.py (and :meth:`HomeGameBot._schedule_event`) give the tasks that
handle one interaction: a slash command, a view's or dynamic item's click, a modal, the
``on_interaction`` listeners."""


def invite_url(application_id: int) -> str:
    """The OAuth2 link that adds the bot with the permissions it needs and slash commands."""
    return (
        f"https://discord.com/oauth2/authorize?client_id={application_id}"
        f"&scope=bot+applications.commands&permissions={INVITE_PERMISSIONS}"
    )


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or "no details"
    return f"{type(exc).__name__}: {text}"


async def freeze_heap_when_ready(bot: discord.Client) -> None:
    """Once ``bot`` is ready (modules, caches, restored tables: what lives as long as the
    process), move everything alive into the collector's permanent generation
    (:func:`gc.freeze`). A full collection then walks only what was made since, not the
    whole start-up heap: measured on the interactions benchmark at 50 tables, the longest
    pause fell from ~50 ms to ~25 ms (every click in flight waits through one). Called by
    ``python -m bot run``, once; tests that start many bots in one process do not."""
    import gc

    await bot.wait_until_ready()
    gc.collect()
    gc.freeze()
    log.info("start-up heap frozen: %d objects left out of full collections", gc.get_freeze_count())


def bot_intents() -> discord.Intents:
    """Only what the bot needs: guild create/update (channels, roles) for slash commands and
    permissions. No message content, no privileged members or presences intent: every
    input arrives as an interaction, and DMs are sent, never read."""
    intents = discord.Intents.none()
    intents.guilds = True
    return intents


class _Subscriber(Protocol):
    async def publish(self, published: Published) -> None: ...


class PublishRelay:
    """The TableService's subscriber, built before the bot (the service needs its subscriber
    at construction, the bot needs the service): forwards to the tables cog once loaded."""

    def __init__(self) -> None:
        self.target: _Subscriber | None = None

    async def publish(self, published: Published) -> None:
        log_published(published)  # one INFO line per table event (bot.ops.logs)
        target = self.target
        if target is not None:
            await target.publish(published)


class HomeGameBot(commands.AutoShardedBot):
    def __init__(
        self,
        *,
        settings: Settings,
        store: Store,
        service: TableService | None,
        relay: PublishRelay | None = None,
        extensions: Sequence[str] = EXTENSIONS,
        clock: Callable[[], float] = time.time,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        heartbeat_path: Path | None = None,
        sync_commands: bool = True,
        tournaments: TournamentService | None = None,
        **options: Any,
    ) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,  # slash commands only; no message content
            intents=bot_intents(),
            help_command=None,
            shard_count=settings.discord.shard_count,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
            **options,
        )
        self.settings = settings
        self.store = store
        # a league created from now on (at its first table) starts with the config's
        # [league] section: starting chips, rebuys, every game's stakes and times
        store.league_defaults = settings.league.defaults()
        self.service = service
        if tournaments is None and service is not None:
            from bot.tournament_service import TournamentService

            # the director of the tables' tournaments, on the same clock (issue 20)
            tournaments = TournamentService(
                store,
                service,
                clock=clock,
                sleep=service.sleep,
                rng_factory=service.rng_factory,
                timers=service.timers,
            )
        self.tournaments = tournaments
        self.relay = relay
        self.clock = clock
        self.sleep = sleep
        """What the bot's own timers (the night reminders) sleep with: tests give one that
        follows a clock they move."""
        self.heartbeat_path = heartbeat_path
        self.sync_commands = sync_commands
        needs_service = ("cogs.tables", "cogs.tournament")
        self._extensions = tuple(
            e for e in extensions if service is not None or e not in needs_service
        )
        self._heartbeat: asyncio.Task[None] | None = None
        self._closing = asyncio.Event()
        self._announced = False
        self.retry_first = RETRY_FIRST
        self.shutdown_grace = SHUTDOWN_GRACE
        self._render_start: asyncio.Task[None] | None = None
        self.tree.on_error = handle_error  # type: ignore[assignment]
        self._gateway_sockets: list[tuple[Any, int]] = []
        self.early_answer: Callable[[Any], bool] | None = None
        """Set by the tables cog (cogs._early): sees each interaction's raw data first, and
        may acknowledge a move at the table before discord.py has parsed it."""
        # An interaction's handling goes first on the bot's loop (bot.ops.priority) for
        # Discord's window to acknowledge it: every task its gateway event starts (the
        # command tree's, the views', the on_interaction listeners) inherits that. A click
        # of a table control is parsed without the embeds and components of the message it
        # came from (cogs._items.lighten_click): no handler of it reads them.
        parsers = self._connection.parsers
        parse_interaction = parsers["INTERACTION_CREATE"]

        def urgent_interaction(data: Any) -> None:
            context = priority.urgent_context(priority.INTERACTION_WINDOW)
            lighten_click(data)
            early = self.early_answer
            answered = False
            if early is not None:
                try:
                    answered = context.run(early, data)
                except Exception:  # never in the way of discord.py's own handling
                    log.exception("answering interaction %s early failed", data.get("id"))
            if answered:
                # Its answer is on its way (the loop's next steps, urgent): discord.py's
                # parse of the click and its handling follow as any other work, as they
                # would once answered; urgent, they would go before the answer's body.
                self.loop.call_soon(parse_interaction, data, context=priority.urgent_context(0))
            else:
                context.run(parse_interaction, data)

        parsers["INTERACTION_CREATE"] = urgent_interaction

    async def connect(self, *, reconnect: bool = True) -> None:
        """discord.py's connect, its gateway tasks (the shard workers, which read and
        parse every frame) urgent on the bot's loop for as long as they run."""
        token = priority.URGENT.set(priority.FOREVER)
        try:
            await super().connect(reconnect=reconnect)
        finally:
            priority.URGENT.reset(token)

    async def _finish_handling(self, seconds: float) -> None:
        """Wait until no interaction is being handled (see :data:`HANDLER_TASKS`), at most
        ``seconds``; then say which are cut off."""
        me = asyncio.current_task()
        loop = asyncio.get_running_loop()
        end = loop.time() + seconds
        while True:
            busy = [
                t
                for t in asyncio.all_tasks()
                if t is not me and not t.done() and t.get_name().startswith(HANDLER_TASKS)
            ]
            remaining = end - loop.time()
            if not busy:
                return
            if remaining <= 0:
                names = ", ".join(sorted(t.get_name() for t in busy))
                log.warning("stopping with %d interaction(s) still handled: %s", len(busy), names)
                return
            await asyncio.wait(busy, timeout=remaining)

    def _schedule_event(
        self,
        coro: Callable[..., Any],
        event_name: str,
        *args: Any,
        **kwargs: Any,
    ) -> asyncio.Task[Any]:
        # discord.py's own (Client._schedule_event), but in a context of its own: the
        # listeners of an interaction keep its urgency (set as it was parsed, above); no
        # other event's do, though the gateway task that dispatches them is urgent.
        seconds = 0.0 if event_name != "on_interaction" else priority.INTERACTION_WINDOW
        context = contextvars.copy_context() if seconds else priority.urgent_context(0.0)
        wrapped = self._run_event(coro, event_name, *args, **kwargs)
        return self.loop.create_task(wrapped, name=f"discord.py: {event_name}", context=context)

    def _read_gateway_first(self) -> None:
        """Wrap ``http.ws_connect``: each gateway socket it opens is read first on the
        bot's loop (``PriorityEventLoop.read_first``), those of closed ones no longer."""
        http: Any = self.http
        original = http.ws_connect

        async def ws_connect(url: str, **kwargs: Any) -> Any:
            socket = await original(url, **kwargs)
            loop = asyncio.get_running_loop()
            if isinstance(loop, priority.PriorityEventLoop):
                for old, fd in [s for s in self._gateway_sockets if s[0].closed]:
                    loop.read_in_turn(fd)
                    self._gateway_sockets.remove((old, fd))
                raw = socket.get_extra_info("socket")
                if raw is not None:
                    loop.read_first(raw.fileno())
                    self._gateway_sockets.append((socket, raw.fileno()))
            return socket

        http.ws_connect = ws_connect

    async def setup_hook(self) -> None:
        warn_http_errors(self.http)  # every failed Discord REST call: one WARNING line
        self._read_gateway_first()
        if self.settings.ui.images:
            # the image workers start now, in the background, not at the first hand dealt
            render_pool.configure(self.settings.ui.render_processes)
            self._render_start = asyncio.create_task(render_pool.start(), name="render-pool")

        for name in self._extensions:
            await self.load_extension(name)
        # Registered once for the whole process: any old button or select whose custom_id
        # matches a template is routed here, even from messages sent before a restart.
        # The table buttons and the discard menu (the clicks of play) go by their custom_id
        # straight to the tables cog; the rest are DynamicItems.
        self.add_listener(route_component, "on_interaction")
        self.add_dynamic_items(GameSelect)
        self.add_dynamic_items(LeaderboardButton, HistorySelect)  # the league's, same way
        self.add_dynamic_items(TournamentButton)
        if self.tournaments is not None:
            await self.tournaments.load()  # before the tables: their gates read it
        if self.service is not None:
            await self.service.start_service()
        if self.tournaments is not None:
            await self.tournaments.start()
        if self.sync_commands:
            await self.sync_app_commands()
        if self.heartbeat_path is not None:
            self._heartbeat = asyncio.create_task(self._beat(self.heartbeat_path))

    async def login(self, token: str) -> None:
        """discord.py's login, tried again while Discord cannot be reached (no network, an
        outage, a proxy down): one WARNING line per attempt, each wait twice the last (up to
        :data:`RETRY_MAX`). A refused token (LoginFailure) still stops the bot at once."""
        import aiohttp
        from discord.utils import MISSING

        delay, attempt = self.retry_first, 0
        while not self._closing.is_set():
            try:
                await super().login(token)
                return
            except (aiohttp.ClientConnectionError, OSError, TimeoutError) as exc:
                failure = exc
            except discord.DiscordServerError as exc:  # a 5xx from Discord or a proxy
                failure = exc
            attempt += 1
            log.warning(
                "cannot reach Discord at %s (%s); retry %d in %.0f s",
                self.settings.discord.api_base,
                _one_line(failure),
                attempt,
                delay,
            )
            # the failed attempt's HTTP session: closed, and a fresh connector next time
            await self.http.close()
            self.http.connector = MISSING
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._closing.wait(), delay)
            delay = min(delay * 2, RETRY_MAX)
        # closed while waiting to retry: start() must not go on to connect
        raise discord.ClientException("the bot was stopped before it could log in")

    async def on_ready(self) -> None:
        if self._announced:  # READY again after a re-identify: said once is enough
            return
        self._announced = True
        log.info("logged in as %s in %d servers", self.user, len(self.guilds))
        if self.application_id is not None:
            log.info("invite link: %s", invite_url(self.application_id))

    async def sync_app_commands(self) -> None:
        """To the dev guild when configured (instant), else globally (up to an hour)."""
        guild_id = self.settings.discord.dev_guild_id
        if guild_id is not None:
            guild = discord.Object(id=guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
        else:
            synced = await self.tree.sync()
        log.info("synced %d slash commands (%s)", len(synced), guild_id or "global")

    async def _beat(self, path: Path) -> None:
        # A cheap liveness signal for a health check: the file's content is the last time
        # the event loop was responsive while every gateway shard was connected.
        while True:
            connected = self.gateway_connected()
            if connected:
                with contextlib.suppress(OSError):
                    path.write_text(f"{self.clock():.0f}\n")
            # while not (yet) connected, look again soon: the first beat follows READY
            await asyncio.sleep(HEARTBEAT_SECONDS if connected else 1.0)

    def gateway_connected(self) -> bool:
        """Ready, and no shard's gateway connection is closed."""
        return (
            self.is_ready()
            and not self.is_closed()
            and bool(self.shards)
            and not any(shard.is_closed() for shard in self.shards.values())
        )

    async def close(self) -> None:
        self._closing.set()
        await self._finish_handling(self.shutdown_grace)
        if self.tournaments is not None:
            await self.tournaments.stop()
        if self._render_start is not None and not self._render_start.done():
            self._render_start.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._render_start
        if self._heartbeat is not None:
            self._heartbeat.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._heartbeat
            self._heartbeat = None
        if self.heartbeat_path is not None:
            # a stopped bot is unhealthy now, not when the last beat grows old
            with contextlib.suppress(OSError):
                self.heartbeat_path.unlink(missing_ok=True)
        await super().close()
