"""``python -m bot sandbox [--game GAME] [--split S] [--betting B] [--players N] [--hands M]
[--seed S]``: a full game on the real bot against the built-in fake Discord, no token needed.
GAME: zoot, wheelers, razz, stud, holdem, omaha, horse, dealers-choice; ``--split`` (stud,
omaha) and ``--betting`` (holdem, omaha) as ``python -m bot sim`` takes them.

Prints every version of every message the channel (``[#poker] ...``) and each player's DM
(``[DM alice] ...``) show, in full; the same seed prints the same transcript. Ends by itself
after M results and exits 0 (1 if the game stalled or the ledger audit found a difference;
2 for bad arguments). See :mod:`bot.ops.sandbox`.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
from pathlib import Path
from typing import Any

from bot import games as registry

# bot.ops.sandbox imports discord.py (about 0.3 s): loaded only when the sandbox runs, so
# every other `python -m bot` command starts fast.
GAMES = registry.keys()


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "sandbox",
        help="play a game on the real bot against a built-in fake Discord (no token)",
        description=(
            "Start the real bot against a local fake Discord with computer-driven users and "
            "print every version of every message the channel and each player's DM show; "
            "the same seed prints the same transcript."
        ),
    )
    parser.add_argument("--game", choices=GAMES, default="zoot", help="default: zoot")
    parser.add_argument(
        "--split",
        choices=registry.SPLITS,
        default=None,
        help=f"{registry.in_words(registry.with_splits())}: high (the default) or hi-lo"
        " (eight or better)",
    )
    parser.add_argument(
        "--betting",
        choices=registry.BETTINGS,
        default=None,
        help=f"{registry.in_words(registry.with_bettings())}: the betting structure"
        " (default no-limit Hold'em, pot-limit Omaha)",
    )
    parser.add_argument("--players", type=int, default=4, metavar="N", help="default: 4")
    parser.add_argument(
        "--hands", type=int, default=1, metavar="M", help="results to play (default: 1)"
    )
    parser.add_argument("--seed", type=int, default=None, metavar="S", help="shuffle seed")
    parser.add_argument(
        "--showdown-png",
        type=Path,
        default=None,
        metavar="PATH",
        help="save the last showdown as a PNG (bot/render/images.py)",
    )
    parser.add_argument(
        "--timeout", type=float, default=120.0, metavar="SECONDS", help="give up after this"
    )
    parser.set_defaults(handler=sandbox)


def writable_file(path: Path) -> str | None:
    """Why ``path`` cannot be written (one line), or None: checked before the game, so a
    bad ``--showdown-png`` is refused at once instead of after the whole game. Opening the
    file for appending is the one test that tells the truth (permissions, a read-only file
    system, a missing folder); a file that did not exist is removed again."""
    if path.is_dir():
        return f"--showdown-png {path} is a folder; name a .png file"
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        return f"--showdown-png {path}: the folder {folder} does not exist"
    existed = path.exists()
    try:
        with path.open("ab"):
            pass
    except OSError as exc:
        return f"--showdown-png {path} cannot be written: {exc.strerror}"
    if not existed:
        path.unlink(missing_ok=True)
    return None


def sandbox(args: argparse.Namespace) -> int:
    if args.showdown_png is not None:
        why = writable_file(args.showdown_png)
        if why is not None:
            print(f"sandbox: {why}", file=sys.stderr)
            return 2
    from bot.ops.sandbox import SandboxArgumentError, SandboxError, run_sandbox

    # the bot's own log lines would drown the transcript: warnings only
    logging.basicConfig(level=logging.WARNING, format="[log] %(levelname)s %(name)s: %(message)s")
    logging.getLogger("discord.client").setLevel(logging.ERROR)  # "voice will NOT be supported"
    try:
        return asyncio.run(
            run_sandbox(
                game=args.game,
                players=args.players,
                hands=args.hands,
                seed=args.seed,
                out=sys.stdout,
                showdown_png=args.showdown_png,
                timeout=args.timeout,
                split=args.split,
                betting=args.betting,
            )
        )
    except SandboxError as exc:
        print(f"sandbox: {exc.message}", file=sys.stderr)
        return 2 if isinstance(exc, SandboxArgumentError) else 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # the reader went away (`python -m bot sandbox | head`): stop quietly; stdout now
        # goes nowhere, so the interpreter's last flush does not complain either
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
