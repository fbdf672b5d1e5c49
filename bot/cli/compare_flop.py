"""``python -m bot compare holdem|omaha``: rank Hold'em and Omaha hands (high; Omaha also
names each hand's eight-or-better low, ``"low"``, and its place among the lows,
``"low_place"``, null when none qualifies).

A board may be given as one more HAND starting with ``board`` (``"board: Ks 7d 2c 9h
4s"``). Hold'em: with a board each hand is two hole cards (the best five of the seven);
without one each hand is 5 to 7 cards. Omaha: the board (3 to 5 cards) is needed and each
hand is four hole cards, exactly two of them with exactly three of the board.

>>> r = flop_group("omaha", ["board: Ks 7d 2c 9h 4s", "As Ad 3c 5d", "Kh Kd Qh Jh"])
>>> [(h["place"], h["name"], h["low"]) for h in r["hands"]]
[(2, 'pair of aces', '7-4-3-2-A'), (1, 'three kings', None)]
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from bot.engine.cards import Card, format_cards, parse_cards
from bot.engine.errors import InvalidCard, InvalidHand
from bot.engine.hands.high import high_name, high_score, omaha_high_score
from bot.engine.hands.low8 import low8_name, omaha_low8_score

GAMES = ("holdem", "omaha")
_BOARD = re.compile(r"^\s*board\s*:?\s*", re.IGNORECASE)


def flop_group(game: str, hands: Sequence[str]) -> dict[str, Any]:
    """The JSON-able ranking of one group; raises a HomeGameError naming the bad input."""
    board: list[Card] | None = None
    texts: list[str] = []
    for text in hands:
        m = _BOARD.match(text)
        if m is None:
            texts.append(text)
        elif board is not None:
            raise InvalidHand("give one board")
        else:
            board = parse_cards(text[m.end() :])
            if not 3 <= len(board) <= 5:
                raise InvalidHand(f"a board has 3 to 5 cards, got {len(board)}")
    if not texts:
        raise InvalidHand("no hands to compare")
    if game == "omaha" and board is None:
        raise InvalidHand('Omaha needs a board: add "board: <3 to 5 cards>"')
    seen: dict[Card, str] = {c: "the board" for c in board or ()}
    parsed: list[list[Card]] = []
    for number, text in enumerate(texts, start=1):
        cards = parse_cards(text)
        for c in cards:
            if c in seen:
                raise InvalidCard(str(c), f"appears in {seen[c]} and hand {number}")
            seen[c] = f"hand {number}"
        want = "4" if game == "omaha" else "2" if board is not None else "5 to 7"
        if str(len(cards)) != want and not (want == "5 to 7" and 5 <= len(cards) <= 7):
            raise InvalidHand(f"hand {number} has {len(cards)} cards: a hand here has {want}")
        parsed.append(cards)
    scores = []
    lows: list[int | None] = []
    for cards in parsed:
        if game == "omaha":
            assert board is not None
            low = omaha_low8_score(cards, board)
            lows.append(low)
            scores.append((omaha_high_score(cards, board), None if low is None else low8_name(low)))
        else:
            lows.append(None)
            scores.append((high_score([*cards, *(board or ())]), None))
    low_ranked = sorted({s for s in lows if s is not None}, reverse=True)
    low_place = {s: i + 1 for i, s in enumerate(low_ranked)}
    ranked = sorted({s for s, _ in scores}, reverse=True)
    place = {s: i + 1 for i, s in enumerate(ranked)}
    out: dict[str, Any] = {"game": game}
    if board is not None:
        out["board"] = format_cards(board)
    out["hands"] = []
    for cards, (score, low), low_score in zip(parsed, scores, lows, strict=True):
        entry: dict[str, Any] = {
            "cards": format_cards(cards),
            "place": place[score],
            "name": high_name(score),
            "strength": None,
        }
        if game == "omaha":
            entry["low"] = low
            entry["low_place"] = None if low_score is None else low_place[low_score]
        out["hands"].append(entry)
    return out
