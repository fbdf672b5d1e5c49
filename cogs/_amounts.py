"""Chips a user types: one parser for every amount typed in Discord (the Bet/Raise modal of
Hold'em and Omaha; an amount button's argument goes through it too).

People type a number of chips as they write numbers: ``1500``, ``1,500``, ``1 500``
(a phone's or a copy's no-break space, a French narrow one), ``1'500`` (Swiss),
``1.500.000`` or ``1,50,000`` (Indian grouping). Those are read as written. Chips have no
fractions, so an amount with a decimal part (``2.5``, ``10.00``, ``1,5``) is refused, never
read as another number (issue 19, item 18: "2.5" raised to 25); so is one that reads two
ways (``1.500``: 1.5 in English, 1,500 in German; ``0,500``). The caller answers a refusal
with the legal range and changes nothing.

>>> parse_chips("1,500"), parse_chips("1 500"), parse_chips(" 40 ")
(1500, 1500, 40)
>>> parse_chips("2.5")
Traceback (most recent call last):
...
cogs._amounts.UnreadableAmount: '2.5' is not a whole number of chips
"""

from __future__ import annotations

import re

from bot.engine.errors import HomeGameError

MAX_DIGITS = 12
"""More digits than any stack can hold (a trillion chips); longer is refused, not parsed."""

_SPACES = "\u0020\u00a0\u202f\u2009"
"""A space, a no-break space, a narrow no-break space (French), a thin space."""

_PLAIN = re.compile(r"\d+")
_GROUPED = re.compile(rf"\d{{1,3}}(?:(?P<sep>[,'{_SPACES}])\d{{3}})(?:(?P=sep)\d{{3}})*")
"""Thousands in groups of three, one separator throughout: 1,500 / 1 500 / 1'500."""
_DOTS = re.compile(r"\d{1,3}(?:\.\d{3}){2,}")
"""Dots as thousands separators: only with two or more (1.500.000 cannot be a fraction)."""
_LAKH = re.compile(r"\d{1,2}(?:,\d{2})+,\d{3}")
"""Indian grouping: 1,50,000 (the last group three digits, the others two)."""
_DECIMAL = re.compile(rf"(?:\d+(?:[,.'{_SPACES}]\d+)*)?[.,]\d*")
"""A number (maybe grouped) ending in a decimal part, or a bare point or comma: a fraction."""
_TWO_WAYS = re.compile(r"(?P<whole>\d{1,3})[.,](?P<part>\d{3})")
"""1.500 or 0,500: thousands to some readers, a fraction to others."""


class UnreadableAmount(HomeGameError, ValueError):
    """Typed text that is not a whole number of chips; ``message`` says why (no full stop:
    the answer adds the legal range before it and "Nothing changed." after it)."""


def parse_chips(text: str) -> int:
    """The whole number of chips ``text`` means, or :class:`UnreadableAmount` saying why it
    means none (see the module docstring)."""
    typed = text.strip()
    shown = repr(typed[:20])
    if _PLAIN.fullmatch(typed):
        digits = typed
    elif (grouped := _GROUPED.fullmatch(typed)) is not None and _no_leading_zero(typed):
        digits = typed.replace(grouped["sep"], "")
    elif (_DOTS.fullmatch(typed) or _LAKH.fullmatch(typed)) and _no_leading_zero(typed):
        digits = re.sub(r"[.,]", "", typed)
    else:
        raise UnreadableAmount(_why_not(typed, shown))
    if len(digits) > MAX_DIGITS:
        raise UnreadableAmount(f"{shown} is more chips than any table holds")
    return int(digits)


def _no_leading_zero(typed: str) -> bool:
    """A grouped number starts with a digit other than 0 (``0,500`` is half a chip to some)."""
    return not typed.startswith("0")


def _why_not(typed: str, shown: str) -> str:
    two = _TWO_WAYS.fullmatch(typed)
    if two is not None:
        whole, part = two["whole"], two["part"]
        as_fraction = f"{int(whole)}.{part.rstrip('0') or '0'}"
        as_thousands = f"{int(whole + part):,}"
        plain = int(whole + part)
        return f"{shown} reads two ways, {as_fraction} or {as_thousands} (type digits: {plain})"
    if _DECIMAL.fullmatch(typed) and any(c.isdigit() for c in typed):
        return f"{shown} is not a whole number of chips"
    return f"{shown} is not a number of chips (type digits, e.g. 40)"
