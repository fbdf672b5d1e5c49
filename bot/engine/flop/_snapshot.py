"""Snapshots of a :class:`~bot.engine.flop.hand.FlopHand`: JSON-able data and back.

Every field is checked on the way back in; a bad one raises ``SnapshotError`` naming it,
so a damaged stored table is reported, never half-restored.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from bot.engine.cards import CARDS, Card, parse_card
from bot.engine.errors import HomeGameError, SnapshotError
from bot.engine.flop.rules import FlopRules
from bot.engine.flop.state import FlopState

H = TypeVar("H", bound=FlopState)


VERSION = 1
_INT_LISTS = ("seats", "starting", "stacks", "bets", "contrib", "blinds")


def _codes(cards: list[Card]) -> str:
    return "".join(str(c) for c in cards)


def dump(hand: FlopState) -> dict[str, Any]:
    return {
        "version": VERSION,
        "rules": hand.rules.model_dump(),
        "dealer": hand.dealer,
        "seats": list(hand.seat_ids),
        "starting": list(hand.starting),
        "deck": _codes(hand._deck),
        "next": hand._next,
        "stacks": list(hand.stacks),
        "bets": list(hand.bets),
        "contrib": list(hand.contrib),
        "blinds": list(hand.blinds),
        "dead": hand.dead,
        "folded": list(hand.folded),
        "hole": [_codes(h) for h in hand.hole],
        "board": _codes(hand.board),
        "street": hand.street,
        "actors": list(hand.actors),
        "acted": sorted(hand.acted),
        "top": hand.top,
        "level": hand.level,
        "capped": hand.capped,
        "bb_pos": hand.bb_pos,
        "posts": list(hand.posts),
        "raise_size": hand.raise_size,
        "aggressions": hand.aggressions,
        "shorts": list(hand.shorts),
        "opener": hand.opener,
        "shown_early": hand.shown_early,
        "phh_actions": list(hand.phh_actions),
        "result": hand.result,
        # what home games play (house.py); a snapshot saved before has none of these
        "street_bet": hand._street_bet,
        "straddle_pos": hand.straddle_pos,
        "bomb": hand.bomb,
        "boards": [_codes(b) for b in hand.boards[1:]],
        "runs": hand.runs,
        "choice": hand.choice,
        "choices": {str(p): c for p, c in sorted(hand.choices.items())},
    }


def _get(snap: Mapping[str, Any], key: str) -> Any:
    if key not in snap:
        raise SnapshotError(f"snapshot: missing field '{key}'")
    return snap[key]


def _int(snap: Mapping[str, Any], key: str, *, optional: bool = False) -> Any:
    v = _get(snap, key)
    if optional and v is None:
        return None
    if not isinstance(v, int) or isinstance(v, bool) or v < 0:
        raise SnapshotError(f"snapshot: field '{key}' must be a non-negative integer, got {v!r}")
    return v


def _ints(snap: Mapping[str, Any], key: str, n: int | None) -> list[int]:
    v = _get(snap, key)
    if not isinstance(v, list) or not all(
        isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in v
    ):
        raise SnapshotError(f"snapshot: field '{key}' must be a list of non-negative integers")
    if n is not None and len(v) != n:
        raise SnapshotError(f"snapshot: field '{key}' has {len(v)} entries for {n} players")
    return list(v)


def _cards(v: Any, key: str) -> list[Card]:
    if not isinstance(v, str) or len(v) % 2:
        raise SnapshotError(f"snapshot: field '{key}' must be card codes, got {v!r}")
    try:
        return [parse_card(v[i : i + 2]) for i in range(0, len(v), 2)]
    except HomeGameError as exc:
        raise SnapshotError(f"snapshot: field '{key}': {exc.message}") from None


def load(cls: Callable[..., H], snap: Any) -> H:
    """Rebuild a hand of class ``cls`` (built as ``cls(rules, players, dealer, deck=…)``)."""
    if not isinstance(snap, Mapping):
        raise SnapshotError("snapshot: not a mapping")
    if snap.get("version") != VERSION:
        raise SnapshotError(f"snapshot: unknown version {snap.get('version')!r}")
    try:
        rules = FlopRules.create(**_get(snap, "rules"))
    except (HomeGameError, TypeError) as exc:
        raise SnapshotError(f"snapshot: field 'rules': {exc}") from None
    seats = _ints(snap, "seats", None)
    n = len(seats)
    starting = _ints(snap, "starting", n)
    deck = _cards(_get(snap, "deck"), "deck")
    if sorted(deck) != list(CARDS):
        raise SnapshotError("snapshot: field 'deck' must hold each of the 52 cards once")
    # the dealer may be an empty seat (a dead button)
    dealer = _int(snap, "dealer")
    # The constructor checks seats and stacks; the stacked deck is the stored order.
    players = [(s, max(c, 1)) for s, c in zip(seats, starting, strict=True)]
    last = seats[-1]
    try:
        hand = cls(rules, players, last, deck=deck)
    except HomeGameError as exc:
        raise SnapshotError(f"snapshot: {exc.message}") from None
    hand.dealer = dealer
    hand.starting = starting
    hand._next = _int(snap, "next")
    if hand._next > 52:
        raise SnapshotError("snapshot: field 'next' is past the end of the deck")
    hand.stacks = _ints(snap, "stacks", n)
    hand.bets = _ints(snap, "bets", n)
    hand.contrib = _ints(snap, "contrib", n)
    hand.blinds = _ints(snap, "blinds", n)
    hand.dead = _int(snap, "dead")
    folded = _get(snap, "folded")
    if (
        not isinstance(folded, list)
        or len(folded) != n
        or not all(isinstance(f, bool) for f in folded)
    ):
        raise SnapshotError("snapshot: field 'folded' must be one true/false per player")
    hand.folded = list(folded)
    hole = _get(snap, "hole")
    if not isinstance(hole, list) or len(hole) != n:
        raise SnapshotError("snapshot: field 'hole' must hold one entry per player")
    hand.hole = [_cards(h, "hole") for h in hole]
    hand.board = _cards(_get(snap, "board"), "board")
    extra = snap.get("boards", [])
    if not isinstance(extra, list) or len(extra) > 1:
        raise SnapshotError("snapshot: field 'boards' must list at most one more board")
    hand.boards = [hand.board, *(_cards(b, "boards") for b in extra)]
    hand.runs = _int(snap, "runs") if "runs" in snap else 1
    if hand.runs not in (1, 2):
        raise SnapshotError(f"snapshot: field 'runs' must be 1 or 2, got {hand.runs}")
    hand._multi = len(hand.boards) > 1 and hand.runs == 1
    hand.bomb = _int(snap, "bomb") if "bomb" in snap else 0
    straddle = snap.get("straddle_pos")
    if straddle is not None and (not isinstance(straddle, int) or not 0 <= straddle < n):
        raise SnapshotError(f"snapshot: field 'straddle_pos' {straddle!r} is out of range")
    hand.straddle_pos = straddle
    choice = snap.get("choice")
    if choice not in (None, "runout", "show"):
        raise SnapshotError(f"snapshot: field 'choice' is {choice!r}")
    hand.choice = choice
    choices = snap.get("choices", {})
    if not isinstance(choices, Mapping) or not all(
        str(k).isdigit() and int(k) < n and v in (None, "once", "twice", "show", "muck")
        for k, v in choices.items()
    ):
        raise SnapshotError("snapshot: field 'choices' must map positions to choices")
    hand.choices = {int(k): v for k, v in choices.items()}
    hand.street = _int(snap, "street")
    if hand.street > 5:
        raise SnapshotError(f"snapshot: field 'street' must be 0 to 5, got {hand.street}")
    hand._street_bet = (
        _int(snap, "street_bet")
        if "street_bet" in snap
        else rules.street_bet(min(max(hand.street, 1), 4))
    )
    hand.actors = _ints(snap, "actors", None)
    hand.acted = set(_ints(snap, "acted", None))
    if any(p >= n for p in (*hand.actors, *hand.acted)):
        raise SnapshotError("snapshot: fields 'actors'/'acted' name a position out of range")
    hand.raise_size = _int(snap, "raise_size")
    hand.aggressions = _int(snap, "aggressions")
    hand.shorts = _ints(snap, "shorts", None)
    # Robert's Rules' state (issue 18); a snapshot saved before it has none: the price and
    # the level are then the highest bet, the cap pokerkit's
    hand.top = _int(snap, "top") if "top" in snap else max(hand.bets, default=0)
    hand.level = _int(snap, "level") if "level" in snap else hand.top
    cap = rules.max_aggressions
    capped = snap.get("capped", cap is not None and hand.aggressions >= cap)
    if not isinstance(capped, bool):
        raise SnapshotError("snapshot: field 'capped' must be true or false")
    hand.capped = capped
    hand.bb_pos = _int(snap, "bb_pos") if "bb_pos" in snap else (0 if n == 2 else 1)
    hand.posts = tuple(_ints(snap, "posts", None)) if "posts" in snap else ()
    if hand.bb_pos >= n or any(p >= n for p in hand.posts):
        raise SnapshotError("snapshot: fields 'bb_pos'/'posts' name a position out of range")
    opener = _int(snap, "opener", optional=True)
    if opener is not None and opener >= n:
        raise SnapshotError(f"snapshot: field 'opener' {opener} is out of range")
    hand.opener = opener
    hand.shown_early = bool(_get(snap, "shown_early"))
    actions = _get(snap, "phh_actions")
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise SnapshotError("snapshot: field 'phh_actions' must be a list of strings")
    hand.phh_actions = list(actions)
    result = _get(snap, "result")
    if result is not None and not isinstance(result, dict):
        raise SnapshotError("snapshot: field 'result' must be an object or null")
    hand.result = result
    return hand
