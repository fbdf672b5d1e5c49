"""A seeded rng that deals chosen cards: for tests that need a given hand (a split pot, a
bring-in) through the real service, which builds each hand with ``rng_factory()``.

The stud engine deals from an rng one Fisher-Yates step per card (``random()`` picks which
undealt card comes next) until the hand's first snapshot, then fixes the undealt order with
one ``shuffle``; the first dealer of a table is drawn with ``shuffle`` of the whole deck.
:class:`StackedRng` answers each of these so the cards come out in the order given, and is
an ordinary seeded ``random.Random`` for everything else.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence

from bot.engine.cards import CARDS, Card, parse_cards


class StackedRng(random.Random):
    """Deals ``cards`` (in the engine's deal order: 3rd street position by position, two
    down then one up, then each street's card position by position) first; ``draw`` are
    the cards of the draw for the first deal, seat by seat in seat order."""

    def __init__(self, cards: str | Sequence[str], *, draw: str = "", seed: int = 0) -> None:
        super().__init__(seed)
        text = cards if isinstance(cards, str) else " ".join(cards)
        self.wanted: list[Card] = parse_cards(text)
        self.draw: list[Card] = parse_cards(draw) if draw else []
        self._mirror: list[Card] = list(CARDS)  # the engine's deck as it swaps it
        self._i = 0

    def random(self) -> float:
        i = self._i
        if i >= len(self.wanted):
            return super().random()
        mirror = self._mirror
        j = mirror.index(self.wanted[i], i)
        mirror[i], mirror[j] = mirror[j], mirror[i]
        self._i = i + 1
        # the engine takes index i + int(random() * (52 - i))
        return (j - i + 0.5) / (len(mirror) - i)

    def getrandbits(self, k: int) -> int:
        # defined here so that shuffle/randrange keep using bits, not random() (Random
        # switches to random() for a subclass that overrides only random)
        return super().getrandbits(k)

    def shuffle(self, x: list[Card]) -> None:  # type: ignore[override]
        if len(x) == len(CARDS):
            # the draw for the first deal: the chosen cards go to the seats in order
            super().shuffle(x)
            rest = [c for c in x if c not in self.draw]
            x[:] = [*self.draw, *rest]
            return
        # the undealt cards fixed at the first snapshot: the chosen ones still to come first
        ahead = [c for c in self.wanted if c in x]
        rest = [c for c in x if c not in ahead]
        super().shuffle(rest)
        x[:] = [*ahead, *rest]


def stacked_factory(*rngs: random.Random, seed: int = 99) -> Callable[[], random.Random]:
    """An ``rng_factory`` giving these rngs to the first hands, then seeded ones. (The
    service's first call, when it is built, is its computer players' rng: a seeded one.)"""
    master = random.Random(seed)
    queue: list[random.Random] = [random.Random(master.getrandbits(64)), *rngs]

    def factory() -> random.Random:
        if queue:
            return queue.pop(0)
        return random.Random(master.getrandbits(64))

    return factory


def stacked_hands(*hands: tuple[str, str], seed: int = 5) -> Callable[[], random.Random]:
    """An rng factory dealing ``hands`` (cards, draw for the button) one per hand, then
    seeded shuffles (the service's first call is its computer players' rng)."""
    master = random.Random(seed)
    queue: Iterator[tuple[str, str]] = iter(hands)
    calls = [0]

    def factory() -> random.Random:
        calls[0] += 1
        nxt = next(queue, None) if calls[0] > 1 else None
        if nxt is None:
            return random.Random(master.getrandbits(64))
        cards, draw = nxt
        return StackedRng(cards, draw=draw, seed=master.getrandbits(32))

    return factory
