"""``python -m bot compare GAME HAND [HAND ...]``: rank hands of Zoot, Wheelers, Razz,
Seven-card Stud, Hold'em or Omaha (:mod:`bot.cli.compare_flop`: a board is one more HAND,
``board: ...``).

Prints one JSON object per group of hands:
``{"game": ..., "hands": [{"cards", "place", "name", "strength"}, ...]}`` in input order,
place 1 best, equal hands sharing a place, places dense (1, 1, 2). ``stud --split hi-lo``
(Stud Hi-Lo) ranks the high hands the same way and adds each hand's eight-or-better low:
``"low"`` (its name, null when none qualifies) and ``"low_place"`` (dense, among the lows).
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from bot import games as registry
from bot.cli.compare_flop import GAMES as FLOP_GAMES
from bot.cli.compare_flop import flop_group
from bot.engine.cards import Card, format_cards, parse_cards
from bot.engine.errors import HomeGameError, InvalidCard, InvalidHand
from bot.engine.hands import (
    high_name,
    high_score,
    low8_name,
    low8_score,
    low_name,
    low_score,
    wheelers_name,
    wheelers_score,
    wheelers_strength,
    zoot_name,
    zoot_score,
    zoot_strength,
)

GAMES = registry.keys(mixed=False)
"""The games whose hands rank (bot/games.py; a mixed table's rank as the game dealt)."""

_EPILOG = """\
A HAND is one argument: cards separated by spaces or written together ("As 2d 3c 4h 5s"
or "As2d3c4h5s"); ranks 2-9 T J Q K A (or 10), suits s h d c (or ♠ ♥ ♦ ♣). Zoot and
Wheelers hands have 5 cards, Razz and Stud hands 5 to 7 (best five; Razz ace-to-five low,
Stud high; their strength is null). --split hi-lo (stud): also each hand's eight-or-better
low. Hold'em hands are 5 to 7 cards, or 2 with a board given as one more HAND
("board: Ks 7d 2c 9h 4s"); Omaha hands are 4 cards with a board of 3 to 5 (exactly two
from the hand; "low" names the eight-or-better low). A card may not appear twice in a group.

Without HAND arguments, groups are read from stdin, one per line, hands separated by "|";
one JSON object is printed per line, and a bad line prints {"error": "..."} while the
others go on. Exit status: 0 when every group was ranked; 1 when some stdin line was bad;
2 for bad arguments (the message on stderr names the bad token).
"""


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "compare",
        help="rank poker hands of Zoot, Wheelers, Razz, Stud, Hold'em or Omaha and print JSON",
        description="Rank hands of one game; print one JSON object per group of hands.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("game", choices=GAMES, metavar="GAME", help=", ".join(GAMES))
    # REMAINDER so that --wraparound may also follow the hands (argparse would otherwise
    # stop the "*" positional at the first option); run() takes it back out.
    parser.add_argument(
        "hands", nargs=argparse.REMAINDER, metavar="HAND", help="one hand per argument"
    )
    parser.add_argument(
        "--wraparound",
        action="store_true",
        help="Wheelers: straights may turn the corner (K-A-2), house rule wheelers_wraparound",
    )
    parser.add_argument(
        "--split",
        choices=("high", "hi-lo"),
        default="high",
        help="stud: hi-lo also ranks each hand's eight-or-better low (Stud Hi-Lo)",
    )
    parser.set_defaults(handler=functools.partial(run, parser=parser))


def _evaluate(game: str, cards: list[Card], wraparound: bool) -> tuple[int, str, float | None]:
    if game == "zoot":
        return zoot_score(cards), zoot_name(cards), zoot_strength(cards)
    if game == "wheelers":
        return (
            wheelers_score(cards, wraparound=wraparound),
            wheelers_name(cards, wraparound=wraparound),
            wheelers_strength(cards, wraparound=wraparound),
        )
    if game == "stud":
        score = high_score(cards)
        return score, high_name(score), None
    return low_score(cards), low_name(cards), None


def compare_group(
    game: str, hands: Sequence[str], *, wraparound: bool = False, split: str = "high"
) -> dict[str, Any]:
    """The JSON-able result for one group; raises a HomeGameError naming the bad input."""
    if game in FLOP_GAMES:
        return flop_group(game, hands)
    if not hands:
        raise InvalidHand("no hands to compare")
    parsed: list[list[Card]] = []
    seen: dict[Card, int] = {}
    for number, text in enumerate(hands, start=1):
        cards = parse_cards(text)
        if not cards:
            raise InvalidHand(f"hand {number} is empty")
        for c in cards:
            if c in seen:
                raise InvalidCard(str(c), f"appears in hands {seen[c]} and {number}")
            seen[c] = number
        parsed.append(cards)
    results = []
    for number, cards in enumerate(parsed, start=1):
        try:
            results.append(_evaluate(game, cards, wraparound))
        except InvalidHand as exc:
            raise InvalidHand(f"hand {number} ({format_cards(cards)}): {exc.message}") from exc
    ranked = sorted({score for score, _, _ in results}, reverse=True)
    place = {score: i + 1 for i, score in enumerate(ranked)}
    out = [
        {"cards": format_cards(cards), "place": place[score], "name": name, "strength": st}
        for cards, (score, name, st) in zip(parsed, results, strict=True)
    ]
    if game == "stud" and split == "hi-lo":
        lows = [low8_score(cards) for cards in parsed]
        low_ranked = sorted({s for s in lows if s is not None}, reverse=True)
        low_place = {score: i + 1 for i, score in enumerate(low_ranked)}
        for hand, low in zip(out, lows, strict=True):
            hand["low"] = None if low is None else low8_name(low)
            hand["low_place"] = None if low is None else low_place[low]
    return {"game": game, "hands": out}


def _stdin_mode(
    game: str, wraparound: bool, stdin: TextIO, stdout: TextIO, split: str = "high"
) -> int:
    status = 0
    for line in stdin:
        if not line.strip():
            continue
        try:
            result = compare_group(
                game, line.strip().split("|"), wraparound=wraparound, split=split
            )
        except HomeGameError as exc:
            result = {"error": exc.message}
            status = 1
        stdout.write(json.dumps(result, ensure_ascii=False) + "\n")
        stdout.flush()
    return status


def run(args: argparse.Namespace, *, parser: argparse.ArgumentParser | None = None) -> int:
    if parser is not None and ("-h" in args.hands or "--help" in args.hands):
        parser.print_help()
        return 0
    if "--wraparound" in args.hands:
        args.hands = [h for h in args.hands if h != "--wraparound"]
        args.wraparound = True
    for k, h in enumerate(args.hands):
        # --split after the hands (REMAINDER took it): --split hi-lo or --split=hi-lo
        if h == "--split" or h.startswith("--split="):
            value = h.partition("=")[2] or (args.hands[k + 1] if k + 1 < len(args.hands) else "")
            if value not in ("high", "hi-lo"):
                print(f"compare: --split must be high or hi-lo, got {value!r}", file=sys.stderr)
                return 2
            args.split = value
            args.hands = args.hands[:k] + args.hands[k + (1 if "=" in h else 2) :]
            break
    bad_option = next((h for h in args.hands if h.startswith("-") and h != "-"), None)
    if bad_option is not None:
        print(f"compare: unknown option {bad_option!r}", file=sys.stderr)
        return 2
    if args.wraparound and args.game != "wheelers":
        print("compare: --wraparound applies to wheelers only", file=sys.stderr)
        return 2
    if args.split != "high" and args.game != "stud":
        print("compare: --split applies to stud only", file=sys.stderr)
        return 2
    if not args.hands:
        return _stdin_mode(args.game, args.wraparound, sys.stdin, sys.stdout, args.split)
    try:
        result = compare_group(args.game, args.hands, wraparound=args.wraparound, split=args.split)
    except HomeGameError as exc:
        print(f"compare: {exc.message}", file=sys.stderr)
        return 2
    print(json.dumps(result, ensure_ascii=False))
    return 0
