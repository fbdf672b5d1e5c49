"""``python -m bot``: the command line. Builds everything from its arguments; nothing
runs on import.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from bot.cli import COMMANDS


def version() -> str:
    """The installed distribution's version; in a source tree that was never installed,
    the one ``pyproject.toml`` declares (so the two cannot differ)."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as dist_version

    try:
        return dist_version("homegame")
    except PackageNotFoundError:
        import tomllib

        pyproject = Path(__file__).resolve().parents[1] / "pyproject.toml"
        try:
            found: str = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]["version"]
        except (OSError, KeyError, tomllib.TOMLDecodeError):
            return "unknown"
        return found


def build_parser(prog: str = "python -m bot") -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=prog,
        description="Home Game: a Discord bot for home poker games and a chip league.",
    )
    parser.add_argument("--version", action="version", version=f"homegame {version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        module = importlib.import_module(f"bot.cli.{name.replace('-', '_')}")
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    # the installed console script says its own name in usage and errors
    script = Path(sys.argv[0]).name if argv is None else ""
    parser = build_parser("homegame" if script == "homegame" else "python -m bot")
    if not args_list and "run" in COMMANDS:
        args_list = ["run"]  # the bot is the default sub-command
    try:
        args = parser.parse_args(args_list)
        handler = getattr(args, "handler", None)
        if handler is None:
            parser.print_help()
            return 2
        status: int = handler(args)
        sys.stdout.flush()  # here, not at the interpreter's exit, where it cannot be caught
    except BrokenPipeError:
        # `python -m bot sim ... | head`: the reader went away; not an error to show
        reader_gone()
        return 1
    return status


def reader_gone() -> None:
    """Stdout's reader has closed the pipe: send what is still buffered (and anything written
    later) to the null device, so the interpreter's last flush does not fail with an
    "Exception ignored ... BrokenPipeError" of its own."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, sys.stdout.fileno())
    finally:
        os.close(devnull)


if __name__ == "__main__":
    sys.exit(main())
