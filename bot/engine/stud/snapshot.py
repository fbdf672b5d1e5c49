"""Restoring stud snapshots (every stud game, the Razz format of version 1): anything
malformed is a SnapshotError naming the field."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from bot.engine.cards import CARDS, Card
from bot.engine.errors import HomeGameError, SnapshotError
from bot.engine.stud.core import StudCore

H = TypeVar("H", bound=StudCore)

_RANKS = "23456789TJQKA"
_SUITS = "cdhs"


def _get(snap: Mapping[str, Any], key: str) -> Any:
    if key not in snap:
        raise SnapshotError(f"snapshot field '{key}' is missing")
    return snap[key]


def _int(snap: Mapping[str, Any], key: str, *, optional: bool = False) -> Any:
    v = _get(snap, key)
    if v is None and optional:
        return None
    if not isinstance(v, int) or isinstance(v, bool):
        raise SnapshotError(f"snapshot field '{key}' must be an integer, got {v!r}")
    return v


def _bool(snap: Mapping[str, Any], key: str) -> bool:
    v = _get(snap, key)
    if not isinstance(v, bool):
        raise SnapshotError(f"snapshot field '{key}' must be true or false, got {v!r}")
    return v


def _ints(snap: Mapping[str, Any], key: str, n: int | None) -> list[int]:
    v = _get(snap, key)
    if not isinstance(v, list) or not all(
        isinstance(x, int) and not isinstance(x, bool) for x in v
    ):
        raise SnapshotError(f"snapshot field '{key}' must be a list of integers")
    if n is not None and len(v) != n:
        raise SnapshotError(f"snapshot field '{key}' must have {n} entries, got {len(v)}")
    return list(v)


def _card(text: Any, key: str) -> Card:
    if (
        not isinstance(text, str)
        or len(text) != 2
        or text[0] not in _RANKS
        or text[1] not in _SUITS
    ):
        raise SnapshotError(f"snapshot field '{key}' holds {text!r}, which is not a card")
    return CARDS[_RANKS.index(text[0]) * 4 + _SUITS.index(text[1])]


def _cards(v: Any, key: str) -> list[Card]:
    if not isinstance(v, list):
        raise SnapshotError(f"snapshot field '{key}' must be a list of cards")
    return [_card(x, key) for x in v]


def _deck(v: Any) -> list[Card]:
    """The deck: one string of 2-character codes ("8c2h4c...", written since the compact
    format), or a list of codes (older snapshots, still read)."""
    if isinstance(v, str):
        if len(v) % 2:
            raise SnapshotError("snapshot field 'deck' must be 2-character card codes")
        return [_card(v[i : i + 2], "deck") for i in range(0, len(v), 2)]
    return _cards(v, "deck")


def load_snapshot(cls: type[H], snap: Any) -> H:
    if not isinstance(snap, Mapping):
        raise SnapshotError("a snapshot must be a mapping")
    if _get(snap, "version") != 1:
        raise SnapshotError(f"snapshot field 'version' is {snap['version']!r}, expected 1")
    rules_raw = _get(snap, "rules")
    if not isinstance(rules_raw, Mapping):
        raise SnapshotError("snapshot field 'rules' must be a mapping")
    try:
        rules = cls.RULES.create(**rules_raw)
    except HomeGameError as exc:
        raise SnapshotError(f"snapshot field 'rules': {exc.message}") from None
    seats = _ints(snap, "seats", None)
    n = len(seats)
    starting = _ints(snap, "starting", n)
    dealer = _int(snap, "dealer")
    deck = _deck(_get(snap, "deck"))
    if sorted(deck) != list(range(52)):
        raise SnapshotError("snapshot field 'deck' must hold each of the 52 cards once")
    # The constructor re-checks seats/stacks; the deck is taken as stored.
    order_seats = [*seats]
    try:
        hand = cls(
            rules,
            list(zip(order_seats, starting, strict=True)),
            order_seats[-1],
            deck=deck,
        )
    except HomeGameError as exc:
        raise SnapshotError(f"snapshot field 'seats': {exc.message}") from None
    hand.dealer = dealer
    nxt = _int(snap, "next")
    if not 0 <= nxt <= 52:
        raise SnapshotError(f"snapshot field 'next' must be 0..52, got {nxt}")
    hand._next = nxt
    hand.stacks = _ints(snap, "stacks", n)
    hand.bets = _ints(snap, "bets", n)
    hand.contrib = _ints(snap, "contrib", n)
    for key in ("stacks", "bets", "contrib"):
        if any(x < 0 for x in getattr(hand, key)):
            raise SnapshotError(f"snapshot field '{key}' has a negative amount")
    folded = _get(snap, "folded")
    if (
        not isinstance(folded, list)
        or len(folded) != n
        or not all(isinstance(x, bool) for x in folded)
    ):
        raise SnapshotError(f"snapshot field 'folded' must be {n} booleans")
    hand.folded = list(folded)
    for key in ("down", "up"):
        v = _get(snap, key)
        if not isinstance(v, list) or len(v) != n:
            raise SnapshotError(f"snapshot field '{key}' must have {n} entries")
        setattr(hand, key, [_cards(x, key) for x in v])
    dealt = set(deck[:nxt])
    held = [c for cs in hand.down + hand.up for c in cs]
    community = _get(snap, "community")
    hand.community = None if community is None else _card(community, "community")
    if hand.community is not None:
        held.append(hand.community)
    if len(set(held)) != len(held) or not set(held) <= dealt:
        raise SnapshotError("snapshot fields 'down'/'up' do not match the dealt part of 'deck'")
    street = _int(snap, "street")
    if street not in (0, 3, 4, 5, 6, 7, 8):
        raise SnapshotError(f"snapshot field 'street' must be 0 or 3..8, got {street}")
    hand.street = street
    hand.actors = _ints(snap, "actors", None)
    hand.acted = set(_ints(snap, "acted", None))
    for key in ("actors", "acted"):
        if any(not 0 <= p < n for p in getattr(hand, key)):
            raise SnapshotError(f"snapshot field '{key}' names a position outside 0..{n - 1}")
    hand.bring_in_pending = _bool(snap, "bring_in_pending")
    hand.completion_pending = _bool(snap, "completion_pending")
    hand.aggressions = _int(snap, "aggressions")
    hand.raise_size = _int(snap, "raise_size")
    hand.shorts = _ints(snap, "shorts", None)
    # Robert's Rules' state (issue 18); a snapshot saved before it has none: the level is
    # then the highest bet (0 while the completion is due), the cap pokerkit's
    if "level" in snap:
        hand.level = _int(snap, "level")
    else:
        hand.level = 0 if hand.completion_pending else max(hand.bets, default=0)
    hand.capped = _bool(snap, "capped") if "capped" in snap else hand.aggressions >= 4
    for key in ("opener", "last_aggressor", "seventh_opener"):
        v = _int(snap, key, optional=True)
        if v is not None and not 0 <= v < n:
            raise SnapshotError(f"snapshot field '{key}' names a position outside 0..{n - 1}")
        setattr(hand, key, v)
    phh = _get(snap, "phh_actions")
    if not isinstance(phh, list) or not all(isinstance(a, str) for a in phh):
        raise SnapshotError("snapshot field 'phh_actions' must be a list of strings")
    hand.phh_actions = list(phh)
    hand._phh_community_in_hole = _bool(snap, "phh_community_in_hole")
    result = _get(snap, "result")
    if result is not None and not isinstance(result, dict):
        raise SnapshotError("snapshot field 'result' must be a mapping or null")
    hand.result = result
    hand._kinds = None
    return hand
