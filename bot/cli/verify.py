"""``python -m bot verify FILE...``: check hand histories of a verifiable table against
their seeds (docs/hand-history.md, "Verifiable shuffle").

For each file: recompute the deck (and every reshuffle of the discards) from the file's
``_seed``, check the seed's SHA-256 against ``_commitment`` (what the table showed before
the hand) and every card the file deals, shows or discards against that deck, and print
one line saying plainly whether it matches: ``FILE: matches: ...`` or
``FILE: does not match: ...`` (naming the action or field at fault).

Exit status 0 when every file matches; 1 when any does not (a changed card, seed or
commitment); 2 when a file cannot be checked at all (unreadable, not a hand history, or no
seed yet: a table publishes its seeds when it closes), and none failed to match.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from bot.engine.verify import Unverifiable, Verdict, verify_text


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "verify",
        help="check hand histories of a verifiable table against their seeds",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "files",
        nargs="+",
        metavar="FILE",
        help="hand history files (.phh, or .toml for Zoot and Wheelers) from /history",
    )
    parser.set_defaults(handler=run)


def verify_file(path: str) -> Verdict:
    """Check one file (raises :class:`Unverifiable` if it cannot be checked)."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise Unverifiable(f"cannot be read ({reason})") from None
    return verify_text(text)


def run(args: argparse.Namespace) -> int:
    mismatched = unreadable = False
    for path in args.files:
        try:
            verdict = verify_file(path)
        except Unverifiable as exc:
            print(f"{path}: cannot be verified: {exc.message}", file=sys.stderr, flush=True)
            unreadable = True
            continue
        print(f"{path}: {verdict.sentence()}", flush=True)
        mismatched = mismatched or not verdict.matches
    return 1 if mismatched else 2 if unreadable else 0
