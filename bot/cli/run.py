"""``python -m bot run [--config PATH]``: run the Discord bot (the default sub-command).

Loads the settings (a bad or missing value: one line on stderr, exit 2), points discord.py
at ``discord.api_base``, opens the store (creating the database), builds the TableService
and the bot, starts the daily backup (bot.ops.backup), and runs until SIGINT/SIGTERM, then
closes the bot, stops the service's timers, lets a backup being written finish and closes
the store, in that order.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import signal
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bot.config import ConfigError, Settings, load_settings
from bot.engine.errors import HomeGameError
from bot.ops.priority import run as priority_run

log = logging.getLogger("homegame.run")


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "run",
        help="run the Discord bot (the default)",
        description="Run the Home Game Discord bot until SIGINT or SIGTERM.",
    )
    parser.add_argument(
        "--config",
        metavar="PATH",
        default=None,
        help="TOML settings file (default: $HOMEGAME_CONFIG, else ./config.toml if present)",
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    try:
        settings = load_settings(args.config)
        settings.token_value()  # fail now, with one line, rather than after connecting
    except ConfigError as exc:
        print(f"homegame: {exc.message}", file=sys.stderr)
        return 2
    from bot.ops.logs import setup_logging

    setup_logging(settings)  # the level from settings; the token masked in every line
    try:
        # the bot's loop answers interactions first (bot.ops.priority)
        return priority_run(serve(settings))
    except KeyboardInterrupt:  # a second Ctrl-C while shutting down
        return 130


async def serve(settings: Settings, *, clock: Callable[[], float] = time.time) -> int:
    """Run the bot with ``settings`` until a stop signal; returns the exit status.

    The composition root: ``clock`` is the one wall clock of the whole bot, given to the
    store (every row's time), the table service (deadlines), the bot (night reminders, the
    heartbeat) and the daily backup; nothing else reads the time."""
    from discord.http import Route

    from bot.app import HomeGameBot, PublishRelay, freeze_heap_when_ready
    from bot.ops.backup import DailyBackup
    from bot.store import Store
    from bot.tables.service import TableService

    # REST goes to api_base; AutoShardedBot then asks that API's GET /gateway/bot for the
    # gateway URL, so one setting moves both (a proxy, or the local fake Discord).
    Route.BASE = settings.discord.api_base
    db_path = settings.database.path
    try:
        check_paths(settings)  # a mistyped path is refused here, not made into folders
    except ConfigError as exc:
        print(f"homegame: {exc.message}", file=sys.stderr)  # one line, as for bad settings
        return 2
    try:
        # checks the file first (quick_check, schema), backs it up before a migration
        store = await Store.open(db_path, clock=clock, backup_dir=settings.backup.dir)
    except (HomeGameError, OSError) as exc:
        why = exc.message if isinstance(exc, HomeGameError) else f"{db_path}: {exc.strerror}"
        print(f"homegame: {why}", file=sys.stderr)  # one line, not a log line besides
        return 2
    # one line naming the file and what it holds: a wrong database shows at once
    log.info("%s", (await store.summary()).line())
    relay = PublishRelay()
    service = TableService(store, clock=clock, subscriber=relay)
    bot = HomeGameBot(
        settings=settings,
        store=store,
        service=service,
        relay=relay,
        clock=clock,
        heartbeat_path=Path(f"{db_path}.heartbeat"),
    )
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):  # not on Windows
            loop.add_signal_handler(sig, stop.set)
    backups = DailyBackup(store, settings.backup, clock=clock)  # enabled: else a no-op
    backups.start()
    status = 0
    runner = asyncio.create_task(bot.start(settings.token_value()), name="discord-bot")
    freezer = asyncio.create_task(freeze_heap_when_ready(bot), name="freeze-heap")
    stopper = asyncio.create_task(stop.wait(), name="stop-signal")
    try:
        done, _ = await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
        if runner in done and runner.exception() is not None:
            exc = runner.exception()
            status = _report_stop(exc, settings)
        else:
            log.info("stop signal received; shutting down")
    finally:
        stopper.cancel()
        freezer.cancel()
        await bot.close()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await asyncio.wait_for(runner, 10)
        await service.stop_service()
        await backups.stop()  # a backup being written is finished, not cut short
        await store.close()  # waits for the transaction in progress, then closes
    return status


def check_paths(settings: Settings) -> None:
    """The database's folder must exist (a mistyped ``database.path`` would otherwise start
    an empty league in a folder made for it) and the backup folder must be a folder the
    bot can write (made now if its parent exists), so a wrong path stops start-up with one
    line instead of failing at the first backup. Raises :class:`ConfigError`."""
    db_path = settings.database.path
    folder = db_path.parent if str(db_path.parent) else Path(".")
    if not folder.is_dir():
        why = "is not a folder" if folder.exists() else "does not exist"
        raise ConfigError(
            f"database.path {db_path}: the folder {folder} {why}; create it or correct the"
            " path. Nothing was created."
        )
    if not settings.backup.enabled:
        return
    backups = settings.backup.dir
    if backups.exists() and not backups.is_dir():
        raise ConfigError(
            f"backup.dir {backups} is a file, not a folder: name a folder for the daily"
            " backups (or set backup.enabled = false). Nothing was created."
        )
    if not backups.exists():
        parent = backups.parent if str(backups.parent) else Path(".")
        if not parent.is_dir():
            raise ConfigError(
                f"backup.dir {backups}: the folder {parent} does not exist; create it or"
                " correct the path. Nothing was created."
            )
        try:
            backups.mkdir()
        except OSError as exc:
            raise ConfigError(f"backup.dir {backups} cannot be made: {exc.strerror}") from None
    if not os.access(backups, os.W_OK | os.X_OK):
        raise ConfigError(
            f"backup.dir {backups} cannot be written by this user (uid {os.getuid()})"
        )


def _report_stop(exc: BaseException | None, settings: Settings) -> int:
    """One clear line for the failures an operator can fix (a refused token, an unreachable
    API, missing intents); for the unexpected, one log line with its traceback. Never both
    (the log handler writes to stderr too: the same words twice). Returns the exit status:
    2 for a configuration problem, 1 otherwise."""
    import aiohttp
    import discord

    if isinstance(exc, discord.LoginFailure):
        line, status = "Discord refused the bot token (discord.token / DISCORD_TOKEN)", 2
    elif isinstance(exc, discord.PrivilegedIntentsRequired):
        line, status = "Discord refused the gateway intents the bot asked for", 2
    elif isinstance(exc, aiohttp.ClientConnectionError | OSError | TimeoutError):
        line = f"cannot reach Discord at {settings.discord.api_base}: {exc}"
        status = 1
    else:
        log.error("the bot stopped: %s", exc, exc_info=exc)
        return 1
    print(f"homegame: {line}", file=sys.stderr)
    return status
