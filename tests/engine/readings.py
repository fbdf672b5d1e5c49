"""pokerkit 0.7.7's readings of the rules, as engine classes, for the differential tests.

Our engines play Robert's Rules of Poker (RRP, issue 18); pokerkit departs from it in a
few documented places, each a class switch of the engine (``FlopHand.BLIND_IS_THE_BET``,
``StudHand.HALF_BET_RULE``...). With every switch off an engine plays pokerkit's readings:
it must replay pokerkit's hands exactly, as the engines always did. A hand where our rules
and pokerkit's differ is then explained by :func:`departures`: the smallest set of
switches whose turning off gives pokerkit's outcome. That set names the documented
departures the hand meets; a hand no set explains fails the test.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Any

from bot.engine.flop import FlopHand
from bot.engine.razz.phh import PHHError

#: The flop engine's readings (bot.engine.flop.hand.FlopHand), RRP's name first.
FLOP_READINGS = (
    "BLIND_IS_THE_BET",
    "HEADS_UP_UNCAPPED",
    "FULL_BIG_BLIND",
    "HALF_BET_RULE",
    "POTS_APART",
    "FREE_FOLD",
)
#: The stud engine's readings (bot.engine.stud): those a game sets to RRP.
STUD_READINGS = (
    "HEADS_UP_UNCAPPED",
    "HALF_BET_RULE",
    "POTS_APART",
    "ODD_CHIP_BY_SUIT",
    "FREE_FOLD",
)

_CLASSES: dict[tuple[type, frozenset[str]], type] = {}


def with_readings_off(base: type, off: Sequence[str]) -> type:
    """A subclass of ``base`` with the switches ``off`` turned off (pokerkit's reading)."""
    key = (base, frozenset(off))
    cls = _CLASSES.get(key)
    if cls is None:
        cls = _CLASSES[key] = type(
            f"{base.__name__}Without{''.join(sorted(off))}", (base,), dict.fromkeys(off, False)
        )
    return cls


def pokerkit_class(base: type) -> type:
    """``base`` with every switch it turns on turned off: pokerkit's readings."""
    readings = FLOP_READINGS if issubclass(base, FlopHand) else STUD_READINGS
    return with_readings_off(base, [r for r in readings if getattr(base, r)])


Outcome = tuple[str, Any]


def outcome(replay: Callable[..., Any], text: str, cls: type) -> Outcome:
    """("stacks", finishing stacks) of a history replayed by ``cls``, or ("refused", the
    action it refused)."""
    try:
        result = replay(text, hand_class=cls)
    except PHHError as exc:
        return "refused", exc.message.split(":", 2)[1].strip()
    return "stacks", list(result.finishing_stacks)


def departures(
    replay: Callable[..., Any], text: str, base: type, target: Outcome
) -> frozenset[str] | None:
    """The smallest set of ``base``'s switches whose turning off gives the ``target``
    outcome for ``text`` (None: no set does)."""
    readings = [
        r
        for r in (FLOP_READINGS if issubclass(base, FlopHand) else STUD_READINGS)
        if getattr(base, r)
    ]
    for k in range(1, len(readings) + 1):
        for off in itertools.combinations(readings, k):
            if outcome(replay, text, with_readings_off(base, off)) == target:
                return frozenset(off)
    return None
