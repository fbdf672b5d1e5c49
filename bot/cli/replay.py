"""``python -m bot replay FILE...``: replay stud PHH files (Razz ``FR``, Seven-card Stud
``F7S``, Stud Hi-Lo ``F7S/8``) through our engines.

One JSON line per file: ``{"file", "finishing_stacks", "recorded", "match"}`` (a contract:
scripts parse it). Exit 0 when every file matches (or records no stacks), 1 if any
mismatches, 2 if a file cannot be read or replayed (stderr names the file and the field or
action at fault).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from bot.engine.razz.phh import PHHError, replay_phh


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "replay",
        help="replay Razz and Stud hand histories (PHH) through our engines",
        description=__doc__,
    )
    parser.add_argument(
        "files", nargs="+", metavar="FILE", help="PHH files (variants 'FR', 'F7S', 'F7S/8')"
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    status = 0
    for path in args.files:
        try:
            result = replay_phh(path)
        except PHHError as exc:
            print(exc.message, file=sys.stderr)
            status = 2
            continue
        line = {
            "file": path,
            "finishing_stacks": result.finishing_stacks,
            "recorded": result.recorded,
            "match": result.match,
        }
        print(json.dumps(line), flush=True)
        if result.match is False and status == 0:
            status = 1
    return status
