"""``python -m bot``: the command line. Builds everything from its arguments; nothing
runs on import.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from bot.cli import COMMANDS


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m bot",
        description="Home Game: a Discord bot for home poker games and a chip league.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        module = importlib.import_module(f"bot.cli.{name.replace('-', '_')}")
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    if not args_list and "run" in COMMANDS:
        args_list = ["run"]  # the bot is the default sub-command
    args = parser.parse_args(args_list)
    handler = getattr(args, "handler", None)
    if handler is None:
        parser.print_help()
        return 2
    status: int = handler(args)
    return status


if __name__ == "__main__":
    sys.exit(main())
