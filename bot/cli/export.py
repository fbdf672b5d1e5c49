"""``python -m bot export --db PATH --format phh|pokerstars --out DIR [--season N]``: write
a season's finished league hands as files, for PokerTracker, Hold'em Manager or any PHH
reader (docs/hand-history.md).

- ``phh``: each hand's history as the store keeps it, one file per hand
  (``table-<T>-hand-<N>.phh``; Zoot and Wheelers ``.toml``).
- ``pokerstars``: Hold'em, Omaha, Stud and Razz hands in PokerStars' hand-history text,
  one file per table (``table-<T>.txt``); every player's hole cards, or with ``--hero ID``
  that member's only (a tracker takes the player whose cards are dealt as the hero).

Each league (server) in the database gets its own folder ``DIR/league-<id>-season-<N>``;
``--guild ID`` exports one. The database is opened read-only. One line per league on
stdout, e.g. ``league 123 season 2: 140 hands -> out/league-123-season-2``. Exit status 0;
2 on bad input (no such database, season or league).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path
from typing import Any

from bot.engine.errors import HomeGameError
from bot.league.exports import write_phh, write_pokerstars
from bot.store import DatabaseFileError, NotFound, Store, StoreError

FORMATS = ("phh", "pokerstars")


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "export",
        help="write a season's hands as PHH or PokerStars hand histories",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--db", required=True, help="the bot's database file")
    parser.add_argument("--format", required=True, choices=FORMATS, dest="fmt")
    parser.add_argument("--out", required=True, help="folder to write into (created)")
    parser.add_argument("--season", type=int, default=None, help="season number (default: current)")
    parser.add_argument("--guild", type=int, default=None, help="only this league (server id)")
    parser.add_argument(
        "--hero",
        type=int,
        default=None,
        help="pokerstars: show only this member's hole cards (a Discord user id)",
    )
    parser.set_defaults(handler=_export)


class ExportError(HomeGameError):
    """Bad input for the export (said on stderr, exit status 2)."""


async def export(
    db: Path,
    *,
    fmt: str,
    out: Path,
    season: int | None = None,
    guild: int | None = None,
    hero: int | None = None,
) -> list[tuple[int, int, int, Path]]:
    """Write the files; (league, season number, hands written, folder) per league."""
    if fmt not in FORMATS:
        raise ExportError(f"--format must be one of {', '.join(FORMATS)}, not {fmt!r}")
    done: list[tuple[int, int, int, Path]] = []
    async with await Store.open(db, read_only=True) as store:
        async with store.read() as tx:
            leagues = await tx.league_ids()
        if guild is not None:
            if guild not in leagues:
                raise ExportError(f"no league {guild} in {db}")
            leagues = [guild]
        for league in leagues:
            async with store.read() as tx:
                try:
                    chosen = await tx.season_or_current(league, season)
                except NotFound:
                    current = await tx.current_season(league)
                    raise ExportError(
                        f"league {league} has no season {season} (its season is {current.number})"
                    ) from None
                hands = await tx.season_hands(league, season_id=chosen.id)
                rows = await tx.hand_rows([h.hand_id for h in hands])
            folder = out / f"league-{league}-season-{chosen.number}"
            if fmt == "phh":
                count = write_phh(rows, folder)
            else:
                count = write_pokerstars(rows, folder, hero=hero)
            done.append((league, chosen.number, count, folder))
    return done


def _export(args: argparse.Namespace) -> int:
    db = Path(args.db)
    if not db.is_file():
        print(f"error: --db {db}: no such database file", file=sys.stderr)
        return 2
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        print(f"error: --out {out} is a file", file=sys.stderr)
        return 2
    try:
        done = asyncio.run(
            export(db, fmt=args.fmt, out=out, season=args.season, guild=args.guild, hero=args.hero)
        )
    except (HomeGameError, DatabaseFileError, StoreError) as exc:
        print(f"error: {getattr(exc, 'message', exc)}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"error: {out}: {exc.strerror}", file=sys.stderr)
        return 2
    if not done:
        print(f"no league in {db}: nothing written")
    for league, number, count, folder in done:
        print(f"league {league} season {number}: {count} hands -> {folder}")
    return 0
