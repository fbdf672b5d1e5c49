"""``python -m bot health [--config PATH] [--max-age SECONDS]``: the container health check.

Exit 0 (one line on stdout) when the database opens read-only, passes ``PRAGMA
quick_check``, has the current schema, and the running bot wrote its heartbeat less than
``--max-age`` seconds ago; else exit 1 with one line on stderr saying what is wrong (Docker
reads any status but 0 and 1 as an error of the check itself, so bad settings are 1 too).
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from bot.config import ConfigError, load_settings
from bot.ops.health import DEFAULT_MAX_AGE, Unhealthy, check


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "health",
        help="check the database and the running bot's heartbeat (exit 0 healthy, 1 not)",
        description="Health check for a container: database sound and heartbeat recent.",
    )
    parser.add_argument(
        "--config",
        metavar="PATH",
        default=None,
        help="TOML settings file (default: $HOMEGAME_CONFIG, else ./config.toml if present)",
    )
    parser.add_argument(
        "--max-age",
        metavar="SECONDS",
        type=float,
        default=DEFAULT_MAX_AGE,
        help=f"oldest acceptable heartbeat (default {DEFAULT_MAX_AGE:.0f})",
    )
    parser.set_defaults(handler=health)


def health(args: argparse.Namespace) -> int:
    try:
        settings = load_settings(args.config)
        # this command's composition root: the wall clock the bot's heartbeat is written on
        result = check(settings.database.path, now=time.time(), max_age=args.max_age)
    except (ConfigError, Unhealthy) as exc:
        message = exc.message if isinstance(exc, ConfigError) else str(exc)
        print(f"unhealthy: {message}", file=sys.stderr)
        return 1
    print(result.line())
    return 0
