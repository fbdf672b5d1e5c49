"""Cards, decks and the card notation of RULES.md.

A card is a small ``int`` (0..51): ``(rank - 2) * 4 + suit``, with suits numbered
clubs 0, diamonds 1, hearts 2, spades 3. That order is the suit order of RULES §4.3/§4.4
(♣ < ♦ < ♥ < ♠), and being an ``int`` lets the evaluators index flat lookup tables
directly, which is what makes them fast.

>>> c = parse_card("10h")
>>> str(c), c.pretty, c.rank, c.suit_char
('Th', '10♥', 10, 'h')
>>> [str(x) for x in parse_cards("As K♦ 10c")]
['As', 'Kd', 'Tc']
>>> [str(x) for x in parse_cards("8c2h4c")]
['8c', '2h', '4c']
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterable, MutableSequence, Sequence
from typing import Any, Final, Protocol

from bot.engine.errors import InvalidCard

RANK_CHARS: Final = "23456789TJQKA"
SUIT_CHARS: Final = "cdhs"
SUIT_SYMBOLS: Final = "♣♦♥♠"
RANK_NAMES: Final = {
    2: "two",
    3: "three",
    4: "four",
    5: "five",
    6: "six",
    7: "seven",
    8: "eight",
    9: "nine",
    10: "ten",
    11: "jack",
    12: "queen",
    13: "king",
    14: "ace",
}
RANK_PLURALS: Final = {r: ("sixes" if r == 6 else n + "s") for r, n in RANK_NAMES.items()}

_SUIT_BY_CHAR: Final = {
    "c": 0,
    "d": 1,
    "h": 2,
    "s": 3,
    "♣": 0,
    "♦": 1,
    "♥": 2,
    "♠": 3,
    # Emoji presentation forms that phones sometimes send.
    "♣️": 0,
    "♦️": 1,
    "♥️": 2,
    "♠️": 3,
}
_RANK_BY_TEXT: Final = {ch: i + 2 for i, ch in enumerate(RANK_CHARS)} | {"10": 10}


class Card(int):
    """One playing card; an ``int`` in 0..51 with helpers for rank, suit and text."""

    __slots__ = ()

    @property
    def rank(self) -> int:
        """2..14, ace high (14)."""
        return (int(self) >> 2) + 2

    @property
    def suit(self) -> int:
        """0 clubs, 1 diamonds, 2 hearts, 3 spades."""
        return int(self) & 3

    @property
    def rank_char(self) -> str:
        return RANK_CHARS[self.rank - 2]

    @property
    def suit_char(self) -> str:
        return SUIT_CHARS[self.suit]

    @property
    def low_rank(self) -> int:
        """1..13 with the ace low (1), as in Razz."""
        r = self.rank
        return 1 if r == 14 else r

    @property
    def pretty(self) -> str:
        """Display form for people: ``10♦``, ``A♠``."""
        rank = "10" if self.rank == 10 else self.rank_char
        return rank + SUIT_SYMBOLS[self.suit]

    def __str__(self) -> str:
        return self.rank_char + self.suit_char

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"


#: The 52 cards, interned: ``CARDS[n]`` is the card with value ``n``.
CARDS: Final[tuple[Card, ...]] = tuple(Card(n) for n in range(52))


def make_card(rank: int, suit: int) -> Card:
    """The card of a rank (2..14) and suit (0..3)."""
    if not (2 <= rank <= 14 and 0 <= suit <= 3):
        raise InvalidCard(f"{rank}/{suit}", "no such rank or suit")
    return CARDS[(rank - 2) * 4 + suit]


def parse_card(text: str) -> Card:
    """Parse one card: ``Ah``, ``10h``, ``Th``, ``A♥``; case-insensitive."""
    token = text.strip()
    if not token:
        raise InvalidCard(text, "empty card")
    for suit_len in (2, 1):  # "♥️" is two code points
        if len(token) > suit_len and token[-suit_len:].lower() in _SUIT_BY_CHAR:
            rank_text, suit_text = token[:-suit_len], token[-suit_len:].lower()
            break
    else:
        raise InvalidCard(text, "unknown suit (use s h d c or ♠ ♥ ♦ ♣)")
    rank = _RANK_BY_TEXT.get(rank_text.upper())
    if rank is None:
        raise InvalidCard(text, "unknown rank (use 2-9, T or 10, J, Q, K, A)")
    return CARDS[(rank - 2) * 4 + _SUIT_BY_CHAR[suit_text]]


_TOKEN = re.compile(r"(10|[2-9TJQKA])(♣️|♦️|♥️|♠️|[cdhs♣♦♥♠])", re.IGNORECASE)


def parse_cards(text: str, *, allow_duplicates: bool = False) -> list[Card]:
    """Parse cards separated by spaces/commas/dashes, or written together (``8c2h4c``).

    Raises :class:`InvalidCard` naming the first bad token, or a repeated card.
    """
    cards: list[Card] = []
    for chunk in re.split(r"[\s,]+", text.strip()):
        if not chunk:
            continue
        pos = 0
        while pos < len(chunk):
            if chunk[pos] == "-":
                pos += 1
                continue
            m = _TOKEN.match(chunk, pos)
            if m is None:
                bad = re.split(r"-", chunk[pos:], maxsplit=1)[0]
                parse_card(bad)  # raises with the precise reason
                raise InvalidCard(bad, "not a card")  # pragma: no cover - parse_card raised
            cards.append(parse_card(m.group(0)))
            pos = m.end()
    if not allow_duplicates:
        seen: set[int] = set()
        for c in cards:
            if c in seen:
                raise InvalidCard(str(c), "the same card appears twice")
            seen.add(c)
    return cards


def format_cards(cards: Iterable[Card], *, pretty: bool = False) -> str:
    """``As Kd Th`` (or ``A♠ K♦ 10♥`` with ``pretty``)."""
    return " ".join(c.pretty if pretty else str(c) for c in cards)


def cards_code(cards: Iterable[Card]) -> str:
    """Cards written together, as PHH does: ``8c2h4c``."""
    return "".join(str(c) for c in cards)


class Shuffler(Protocol):
    """What shuffles a deck: a ``random.Random`` or a hand's seeded shuffles
    (:class:`bot.engine.shuffle.SeededShuffle`)."""

    def shuffle(self, x: MutableSequence[Any], /) -> None: ...


class Deck:
    """A shuffled stock of cards that deals from the top.

    The RNG is injected; the default is ``secrets.SystemRandom`` (DESIGN: the shuffle uses
    the OS's CSPRNG, tests pass a seeded ``random.Random`` or a stacked ``cards`` order; a
    verifiable table passes the hand's :class:`~bot.engine.shuffle.SeededShuffle`).
    """

    __slots__ = ("_cards",)

    def __init__(
        self,
        *,
        rng: Shuffler | None = None,
        cards: Sequence[Card] | None = None,
    ) -> None:
        if cards is not None:
            self._cards = list(cards)
        else:
            self._cards = list(CARDS)
            (rng or secrets.SystemRandom()).shuffle(self._cards)

    def __len__(self) -> int:
        return len(self._cards)

    def deal(self, n: int = 1) -> list[Card]:
        if n > len(self._cards):
            raise ValueError(f"cannot deal {n} cards from a stock of {len(self._cards)}")
        out = self._cards[:n]
        del self._cards[:n]
        return out

    def add(self, cards: Iterable[Card], *, rng: Shuffler | None = None) -> None:
        """Shuffle ``cards`` and put them under the stock (RULES §1.6)."""
        extra = list(cards)
        (rng or secrets.SystemRandom()).shuffle(extra)
        self._cards.extend(extra)

    @property
    def cards(self) -> list[Card]:
        """The stock, top first (a copy)."""
        return list(self._cards)
