"""The verifiable shuffle: a hand's deck, and every reshuffle of its discards, as a
documented, deterministic function of a secret seed (docs/hand-history.md, "Verifiable
shuffle", is the specification; this module is its reference implementation).

- The **seed** is 32 bytes from :mod:`secrets`, written as 64 lowercase hex digits; each
  hand draws its own, so no seed is derivable from another hand's.
- The **commitment** is SHA-256 of the seed's 32 bytes, as 64 hex digits: shown before the
  hand, it binds the table to the deck without showing it.
- **Shuffle number** ``n`` of a hand (0: the deck; 1, 2, ...: each reshuffle of the
  discards, RULES §1.6) puts its cards in card order (``2c 2d 2h 2s 3c ... As``, the card's
  number 0..51), then runs Fisher-Yates (Durstenfeld: ``i`` from the last index down to 1
  swaps ``a[i]`` with ``a[below(i + 1)]``). ``below(m)`` reads the next 32-bit big-endian
  word ``x`` of the stream SHA-256(seed ‖ n ‖ 0) ‖ SHA-256(seed ‖ n ‖ 1) ‖ ... (``n`` and
  the block counter as 4-byte big-endian integers) and returns ``x mod m``, drawing again
  while ``x >= 2**32 - 2**32 mod m`` (rejection sampling: every value equally likely).
  The first card of the result is the top of the deck.

Nothing here depends on Python's :mod:`random`, so any language can recompute a deck.

>>> from bot.engine.cards import format_cards, parse_cards
>>> seed = "00" * 32
>>> commitment(seed)
'66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925'
>>> format_cards(seed_deck(seed)[:5])
'Ks 7d 7s 8c 5h'
>>> [str(c) for c in reshuffle(seed, 1, parse_cards("2c 3d 4h 5s"))]
['2c', '5s', '3d', '4h']
"""

from __future__ import annotations

import hashlib
import re
import secrets
from collections.abc import Iterable, Iterator, MutableSequence
from typing import Any, Final

from bot.engine.cards import CARDS, Card

__all__ = [
    "SHUFFLE_NAME",
    "SeededShuffle",
    "commitment",
    "is_seed",
    "new_seed",
    "reshuffle",
    "seed_deck",
    "shuffle_cards",
]

SEED_BYTES: Final = 32
#: The name of this seed -> deck function, written in a hand history's ``_shuffle`` field
#: (a later, different function would get a new name; the verifier refuses names it does
#: not know rather than recompute the wrong deck).
SHUFFLE_NAME: Final = "sha256-fisher-yates-1"
_HEX64: Final = re.compile(r"[0-9a-f]{64}")
_WORD: Final = 1 << 32


def new_seed() -> str:
    """A fresh seed from the OS's CSPRNG: 64 lowercase hex digits."""
    return secrets.token_hex(SEED_BYTES)


def is_seed(text: object) -> bool:
    """Whether ``text`` is written as a seed (or a commitment): 64 lowercase hex digits."""
    return isinstance(text, str) and _HEX64.fullmatch(text) is not None


def _seed_bytes(seed: str) -> bytes:
    if not is_seed(seed):
        raise ValueError("a seed is 64 lowercase hex digits")
    return bytes.fromhex(seed)


def commitment(seed: str) -> str:
    """SHA-256 of the seed's 32 bytes, 64 hex digits (what the table shows before the hand)."""
    return hashlib.sha256(_seed_bytes(seed)).hexdigest()


def _words(key: bytes, number: int) -> Iterator[int]:
    """The stream of shuffle ``number``: 32-bit big-endian words of SHA-256(seed ‖ n ‖ j)."""
    prefix = key + number.to_bytes(4, "big")
    block = 0
    while True:
        digest = hashlib.sha256(prefix + block.to_bytes(4, "big")).digest()
        for i in range(0, len(digest), 4):
            yield int.from_bytes(digest[i : i + 4], "big")
        block += 1


def shuffle_cards(seed: str, number: int, cards: Iterable[Card]) -> list[Card]:
    """Shuffle number ``number`` of the hand with this seed: ``cards`` (in any order; they
    are sorted first) in the order the seed gives them, top first."""
    if not 0 <= number < _WORD:
        raise ValueError("a shuffle number is 0 to 2**32 - 1")
    out = sorted(CARDS[int(c)] for c in cards)
    words = _words(_seed_bytes(seed), number)
    for i in range(len(out) - 1, 0, -1):
        m = i + 1
        limit = _WORD - _WORD % m
        x = next(words)
        while x >= limit:
            x = next(words)
        j = x % m
        out[i], out[j] = out[j], out[i]
    return out


def seed_deck(seed: str) -> list[Card]:
    """The hand's deck, top first: shuffle 0 of the 52 cards."""
    return shuffle_cards(seed, 0, CARDS)


def reshuffle(seed: str, number: int, discards: Iterable[Card]) -> list[Card]:
    """Reshuffle ``number`` (1, 2, ...) of the hand's discards (RULES §1.6): the order in
    which they go under the stock."""
    if number < 1:
        raise ValueError("reshuffles are numbered from 1 (shuffle 0 is the deck)")
    return shuffle_cards(seed, number, discards)


class SeededShuffle:
    """A hand's shuffles, for an engine that takes an object with ``shuffle(cards)``: the
    first call is shuffle 0 (the deck), each later one the next reshuffle. Its state (the
    seed and the next shuffle's number) is :meth:`to_json`, so a restored game reshuffles
    exactly as it would have."""

    __slots__ = ("number", "seed")

    def __init__(self, seed: str, number: int = 0) -> None:
        _seed_bytes(seed)
        self.seed = seed
        #: The next shuffle's number.
        self.number = number

    def shuffle(self, x: MutableSequence[Any], /) -> None:
        x[:] = shuffle_cards(self.seed, self.number, x)
        self.number += 1

    def to_json(self) -> dict[str, Any]:
        return {"seed": self.seed, "next": self.number}

    @classmethod
    def from_json(cls, raw: Any) -> SeededShuffle:
        """Raises ValueError (or KeyError, TypeError) if ``raw`` is not a stored shuffle."""
        seed, number = raw["seed"], raw["next"]
        if not isinstance(number, int) or isinstance(number, bool) or number < 0:
            raise ValueError("next: expected a shuffle number")
        return cls(str(seed), number)
