"""``python -m bot sim GAME``: computer players play through the real TableService and
SQLite, then a summary (hands per second, chips won per player, the audit).

``python -m bot sim tournament --game holdem --players 45 --seats-per-table 9``: a whole
tournament of computer players through the real table and tournament services and SQLite
(bot/tournament_service/sim.py): it balances and breaks tables down to the final table and
prints the finishing order, the payouts and the audit; ``--resume`` finishes one a killed
simulation left in ``--db``.

Exit status: 0 all well; 1 the audit found differences (or the tournament did not end);
2 bad input.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from pathlib import Path

from bot import games as registry
from bot.engine.errors import HomeGameError

GAMES = registry.keys()
"""Every game of the registry (bot/games.py). The mixed ones (``horse``, ``dealers-choice``)
change game between hands (bot/tables/mixed.py): a computer dealer picks the next game at
once."""
SPLIT_GAMES = registry.with_splits()
BETTING_GAMES = registry.with_bettings()


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "sim",
        help="simulate hands with computer players through the table service",
        description=__doc__,
    )
    parser.add_argument(
        "game",
        choices=(*GAMES, TOURNAMENT),
        help="a game's table, or `tournament` (its game: --game)",
    )
    parser.add_argument(
        "--game",
        dest="tournament_game",
        choices=registry.tournament_keys(),
        default="holdem",
        help="tournament: the game it deals (default holdem)",
    )
    parser.add_argument(
        "--seats-per-table",
        type=int,
        default=None,
        help="tournament: seats at each table (default: the game's most, 9 or 8)",
    )
    parser.add_argument(
        "--structure",
        choices=("turbo", "regular", "deep"),
        default="turbo",
        help="tournament: the preset structure (default turbo)",
    )
    parser.add_argument(
        "--split",
        choices=registry.SPLITS,
        default=None,
        help=f"{registry.in_words(SPLIT_GAMES)}: high (the default) or hi-lo (eight or better)",
    )
    parser.add_argument(
        "--betting",
        choices=registry.BETTINGS,
        default=None,
        help=f"{registry.in_words(BETTING_GAMES)}: the betting structure"
        " (default no-limit Hold'em, pot-limit Omaha)",
    )
    parser.add_argument(
        "--players",
        type=int,
        default=None,
        help="computer players (default 4; a tournament 45)",
    )
    parser.add_argument("--hands", type=int, default=100, help="hands to play (default 100)")
    parser.add_argument("--seed", type=int, default=None, help="seed of every shuffle and choice")
    parser.add_argument(
        "--db", default=None, help="database file (default: a new temporary database)"
    )
    parser.add_argument(
        "--history-dir", default=None, help="write each finished hand's history here"
    )
    parser.add_argument(
        "--resume",
        action="store_true",
        help="first finish the hands an interrupted simulation left running in --db",
    )
    parser.set_defaults(handler=_sim)


TOURNAMENT = "tournament"


def _sim(args: argparse.Namespace) -> int:
    from bot.tables.sim import Progress, run_sim

    if args.game == TOURNAMENT:
        return _tournament(args)
    if args.players is None:
        args.players = 4
    if args.players < 2:
        print("error: --players must be at least 2", file=sys.stderr)
        return 2
    if args.split is not None and args.game not in SPLIT_GAMES:
        print(f"error: --split applies to {registry.in_words(SPLIT_GAMES)} only", file=sys.stderr)
        return 2
    if args.betting is not None and args.game not in BETTING_GAMES:
        where = registry.in_words(BETTING_GAMES)
        print(f"error: --betting applies to {where} only", file=sys.stderr)
        return 2
    options = {
        name: value
        for name, value in (("split", args.split), ("betting", args.betting))
        if value is not None
    }
    if args.hands < 0:
        print("error: --hands cannot be negative", file=sys.stderr)
        return 2
    if args.resume and (args.db is None or not Path(args.db).is_file()):
        print("error: --resume needs an existing database given with --db", file=sys.stderr)
        return 2
    if args.history_dir is not None:
        # the histories are written after the whole run: a bad folder is refused now
        try:
            Path(args.history_dir).mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            why = "is a file" if Path(args.history_dir).is_file() else exc.strerror
            print(f"error: --history-dir {args.history_dir}: {why}", file=sys.stderr)
            return 2
    with tempfile.TemporaryDirectory(prefix="homegame-sim-") as tmp:
        db = Path(args.db) if args.db else Path(tmp) / "sim.db"
        try:
            report = asyncio.run(
                run_sim(
                    game=args.game,
                    players=args.players,
                    hands=args.hands,
                    seed=args.seed,
                    db=db,
                    history_dir=None if args.history_dir is None else Path(args.history_dir),
                    resume=args.resume,
                    progress=Progress(args.hands),
                    options=options or None,
                )
            )
        except HomeGameError as exc:
            print(f"error: {exc.message}", file=sys.stderr)
            return 2
    status = 0 if report.audit is not None and report.audit.ok else 1
    try:
        print(report.format(), flush=True)
    except BrokenPipeError:
        # `sim ... | head`: the reader has what it wanted; the run's status stands
        from bot.__main__ import reader_gone

        reader_gone()
    return status


def _tournament(args: argparse.Namespace) -> int:
    from bot.tournament_service.sim import check_args, run_tournament_sim

    game = args.tournament_game
    players = 45 if args.players is None else args.players
    seats = args.seats_per_table or registry.tournament_game(game).seats
    problem = check_args(game, players, seats)
    if problem is not None:
        print(f"error: {problem}", file=sys.stderr)
        return 2
    if args.betting is not None and not registry.tournament_game(game).bettings:
        print(
            f"error: --betting applies to {registry.in_words(BETTING_GAMES)} only", file=sys.stderr
        )
        return 2
    if args.resume and (args.db is None or not Path(args.db).is_file()):
        print("error: --resume needs an existing database given with --db", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="homegame-sim-") as tmp:
        db = Path(args.db) if args.db else Path(tmp) / "sim.db"
        try:
            report = asyncio.run(
                run_tournament_sim(
                    game=game,
                    players=players,
                    seats_per_table=seats,
                    seed=args.seed,
                    db=db,
                    resume=args.resume,
                    betting=args.betting,
                    structure=args.structure,
                )
            )
        except HomeGameError as exc:
            print(f"error: {exc.message}", file=sys.stderr)
            return 2
    try:
        print(report.format(), flush=True)
    except BrokenPipeError:
        from bot.__main__ import reader_gone

        reader_gone()
    return 0 if report.ok else 1
