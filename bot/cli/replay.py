"""``python -m bot replay FILE...``: replay PHH files through our engines.

The file's ``variant`` picks the engine: ``FR`` Razz, ``F7S`` Seven-card Stud, ``F7S/8``
Stud Hi-Lo; ``NT``, ``FT``, ``PO``, ``FO/8`` (and our extension codes ``PT``, ``PO/8``...;
docs/hand-history.md) Hold'em and Omaha.

One JSON line per file: ``{"file", "finishing_stacks", "recorded", "match"}`` (a contract:
scripts parse it). Exit 0 when every file matches (or records no stacks), 1 if any
mismatches, 2 if a file cannot be read or replayed (stderr names the file and the field or
action at fault).
"""

from __future__ import annotations

import argparse
import json
import sys
import tomllib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from bot.engine.flop.phh import VARIANTS as FLOP_VARIANTS
from bot.engine.flop.phh import replay_flop_phh_data
from bot.engine.razz.phh import PHHError
from bot.engine.stud.replay import GAMES as STUD_VARIANTS
from bot.engine.stud.replay import replay_phh_data

Replayer = Callable[..., Any]


def _replayer(variant: object) -> Replayer | None:
    """The replay function of a PHH variant code (each returns a result with
    ``finishing_stacks``, ``recorded`` and ``match``)."""
    if variant in STUD_VARIANTS:
        return replay_phh_data
    if variant in FLOP_VARIANTS:
        return replay_flop_phh_data
    return None


def replay_file(path: str) -> Any:
    """Read one PHH file and replay it through the engine of its variant."""
    p = Path(path)
    try:
        data: Mapping[str, Any] = tomllib.loads(p.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise PHHError(f"{p.name}: cannot read: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise PHHError(f"{p.name}: not TOML: {exc}") from None
    variant = data.get("variant")
    replay = _replayer(variant)
    if replay is None:
        known = ", ".join([*STUD_VARIANTS, *sorted(FLOP_VARIANTS)])
        raise PHHError(f"{p.name}: field 'variant' is {variant!r}; supported: {known}")
    return replay(data, name=p.name)


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "replay",
        help="replay hand histories (PHH: Razz, Stud, Hold'em, Omaha) through our engines",
        description=__doc__,
    )
    parser.add_argument(
        "files",
        nargs="+",
        metavar="FILE",
        help="PHH files (variants FR, F7S, F7S/8, NT, FT, PO, FO/8, ...)",
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    status = 0
    for path in args.files:
        try:
            result = replay_file(path)
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
