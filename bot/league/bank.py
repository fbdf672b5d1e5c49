"""The night as the bank (pure: no Discord, no SQLite): amounts typed in money or in chips,
even shares of an expense or of what went unaccounted, and members listed as mentions.

Amounts. A bank night books money at the league's chip value (``/league setup chip_value:
currency:``), kept as whole chips: at 1 chip = 0.01 EUR, €20.50 is 2,050 chips, so every
cent is a chip and the settle-up is exact to the cent. What :func:`parse_amount` accepts:

- money: ``20``, ``20.50``, ``20,50``, ``€20``, ``20 €``, ``20 EUR``, ``EUR 20.50``,
  ``1,500`` or ``1 500`` (thousands): a plain number is money when the league has a chip
  value, else chips;
- chips: ``2000 chips``, ``2,000 chips``, ``2000c`` (always chips).

Refused, with the reason and nothing booked: a negative or zero amount, text that is not a
number, a number that reads two ways (``1.500``: one and a half or fifteen hundred?), more
decimals than the currency has (``€1.005``), money that is not a whole number of chips
(``€0.015`` at 1 chip = 0.01 EUR), another currency than the league's, and money when the
league has no chip value.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal

from bot.engine.errors import HomeGameError
from bot.league.settle import CURRENCIES, ChipValue
from bot.render.text import format_chips

MAX_CHIPS = 10**12
"""The most chips one entry may book (a typo guard; far above any home game)."""


class BadAmount(HomeGameError, ValueError):
    """An amount that cannot be booked; the message says why and that nothing changed."""


@dataclass(frozen=True, slots=True)
class Amount:
    chips: int
    money: Decimal | None
    """The money typed (None: typed in chips)."""


_CHIPS = re.compile(r"^(?P<n>.+?)\s*(?:chips?|c)$", re.I)
_CODE = re.compile(r"^(?:(?P<pre>[A-Za-z]{3})\s*(?P<a>.+)|(?P<b>.+?)\s*(?P<post>[A-Za-z]{3}))$")
_NUMBER = re.compile(
    r"(?P<int>\d{1,3}(?P<sep>[, \u00a0\u202f])\d{3}(?:(?P=sep)\d{3})*|\d+)"
    r"(?:(?P<dec>[.,])(?P<frac>\d+))?"
)


def _refuse(text: str, why: str) -> BadAmount:
    return BadAmount(f"{why} Nothing changed.".replace("{text}", text))


def _number(raw: str, text: str) -> Decimal:
    """A number as people type it: ``1500``, ``1,500`` and ``1 500`` (thousands), ``20.50``
    and ``20,50`` (a decimal point or comma). Refused when it reads two ways (``1.500``:
    one and a half, or fifteen hundred) or mixes one separator for both."""
    raw = raw.strip()
    if raw.startswith(("-", "\u2212")):
        raise _refuse(text, "An amount is more than 0: `{text}` is not.")
    raw = raw.lstrip("+").strip()
    match = _NUMBER.fullmatch(raw)
    if match is None:
        raise _refuse(
            text,
            "That is not an amount: `{text}`. Type money like `20` or `€20.50`, or chips like "
            "`2,000 chips`.",
        )
    whole = re.sub(r"[, \u00a0\u202f]", "", match["int"])
    if match["dec"] is None:
        return Decimal(whole)
    if match["sep"] is not None and match["dec"] == match["sep"]:
        raise _refuse(
            text, "The amount `{text}` uses one separator for two things: type `1500.50`."
        )
    if (
        match["dec"] == "."
        and match["sep"] is None
        and len(match["frac"]) == 3
        and not whole.startswith("0")
    ):
        raise _refuse(
            text,
            "The amount `{text}` reads two ways (a decimal point, or thousands): type "
            "`1500` or `1.50`.",
        )
    return Decimal(f"{whole}.{match['frac']}")


def _symbols(value: ChipValue) -> tuple[str, ...]:
    symbol = CURRENCIES[value.currency][0].strip()
    return (symbol, value.currency)


def parse_amount(text: str, value: ChipValue | None) -> Amount:
    """The chips (and money) of an amount as typed; :class:`BadAmount` if it cannot be
    booked (see the module's docstring)."""
    if not isinstance(text, str) or not text.strip():
        raise _refuse("", "Give an amount, like `20` or `2,000 chips`.")
    typed = " ".join(text.split())
    if len(typed) > 40:
        raise _refuse(typed[:20] + "…", "The amount `{text}` is too long for an amount.")
    chips_match = _CHIPS.match(typed)
    if chips_match:
        number = _number(chips_match["n"], typed)
        if number != number.to_integral_value():
            raise _refuse(typed, "Chips are whole: `{text}` is not.")
        return _checked(Amount(int(number), None), typed)
    raw = typed
    code = None
    for sym in sorted({s for _, (s, _) in CURRENCIES.items()} | {"€", "$", "£"}, key=len):
        sym = sym.strip()
        if sym and not sym.isalpha():
            if raw.startswith(sym):
                code, raw = sym, raw[len(sym) :].strip()
                break
            if raw.endswith(sym):
                code, raw = sym, raw[: -len(sym)].strip()
                break
    if code is None:
        m = _CODE.match(raw)
        if m and (m["pre"] or m["post"]).upper() in CURRENCIES:
            code = (m["pre"] or m["post"]).upper()
            raw = (m["a"] or m["b"]).strip()
    if code is None and value is None:
        number = _number(raw, typed)
        if number != number.to_integral_value():
            raise _refuse(
                typed,
                "This league has no chip value (`/league setup chip_value:`), so amounts are "
                "chips, and chips are whole: `{text}` is not.",
            )
        return _checked(Amount(int(number), None), typed)
    if value is None:
        raise _refuse(
            typed,
            "This league has no chip value, so amounts are in chips: `{text}` is money "
            "(an admin sets one with `/league setup chip_value: currency:`).",
        )
    if code is not None and code not in _symbols(value):
        raise _refuse(typed, f"This league settles in {value.currency}: `{{text}}` is not.")
    money = _number(raw, typed)
    if -money.as_tuple().exponent > value.digits:  # type: ignore[operator]
        raise _refuse(
            typed,
            f"{value.currency} has {value.digits} decimals: `{{text}}` has more.",
        )
    chips = money / value.per_chip
    if chips != chips.to_integral_value():
        raise _refuse(
            typed,
            f"The amount `{{text}}` is not a whole number of chips at {value.describe()}.",
        )
    return _checked(Amount(int(chips), money), typed)


def _checked(amount: Amount, typed: str) -> Amount:
    if amount.chips <= 0:
        raise _refuse(typed, "An amount is more than 0: `{text}` is not.")
    if amount.chips > MAX_CHIPS:
        raise _refuse(typed, f"The amount `{{text}}` is more than {MAX_CHIPS:,} chips: a typo?")
    return amount


def describe(chips: int, value: ChipValue | None, *, signed: bool = False) -> str:
    """``€20.50 (2,050 chips)`` at a chip value, else ``2,050 chips``."""
    text = f"{format_chips(chips, signed=signed)} chips"
    if value is None:
        return text
    money = value.format(value.rounded(abs(chips)))
    sign = "-" if chips < 0 else ("+" if signed and chips > 0 else "")
    return f"{sign}{money} ({text})"


def money_only(chips: int, value: ChipValue | None, *, signed: bool = False) -> str:
    """``€20.50`` at a chip value, else ``2,050 chips``."""
    if value is None:
        return f"{format_chips(chips, signed=signed)} chips"
    sign = "-" if chips < 0 else ("+" if signed and chips > 0 else "")
    return f"{sign}{value.format(value.rounded(abs(chips)))}"


def split_evenly(chips: int, members: Iterable[int]) -> dict[int, int]:
    """What each member's share of ``chips`` is, whole chips adding up exactly: the chips
    that do not divide go one each to the first members by id (deterministic, said in the
    post).

    >>> split_evenly(100, [3, 1, 2])
    {1: 34, 2: 33, 3: 33}
    """
    who = sorted(set(members))
    if not who:
        raise ValueError("an amount shared by nobody")
    base, extra = divmod(chips, len(who))
    return {m: base + (1 if i < extra else 0) for i, m in enumerate(who)}


@dataclass(frozen=True, slots=True)
class Expense:
    id: int
    what: str
    chips: int
    paid_by: int
    shared_by: tuple[int, ...] | None
    """None: everyone of the night."""
    actor_id: int = 0
    created_at: int = 0


def expense_nets(expenses: Sequence[Expense], everyone: Iterable[int]) -> dict[int, int]:
    """What the expenses add to each member's net: the payer is owed what they paid, each
    sharer owes their share (a payer who shares owes their own share too)."""
    all_of_them = sorted(set(everyone))
    out: dict[int, int] = {}
    for e in expenses:
        sharers = list(e.shared_by) if e.shared_by is not None else all_of_them
        if not sharers:
            sharers = [e.paid_by]
        out[e.paid_by] = out.get(e.paid_by, 0) + e.chips
        for member, share in split_evenly(e.chips, sharers).items():
            out[member] = out.get(member, 0) - share
    return out


def add(*maps: Mapping[int, int]) -> dict[int, int]:
    out: dict[int, int] = {}
    for m in maps:
        for k, v in m.items():
            out[k] = out.get(k, 0) + v
    return out


_MENTION = re.compile(r"<@!?(\d{15,21})>")


def parse_members(text: str) -> list[int]:
    """The member ids mentioned in ``text`` (``<@123>`` or ``<@!123>``), in order, once
    each; anything else in the text (spaces, commas, "and") is ignored."""
    seen: list[int] = []
    for m in _MENTION.finditer(text or ""):
        uid = int(m[1])
        if uid not in seen:
            seen.append(uid)
    return seen


def leftover_text(text: str) -> str:
    """What ``text`` holds besides mentions and separators (so ``@ann bob`` can be refused:
    ``bob`` is not a mention)."""
    rest = _MENTION.sub(" ", text or "")
    rest = re.sub(r"[\s,;&+]|\band\b", " ", rest, flags=re.I)
    return " ".join(rest.split())


def parse_groups(text: str) -> list[frozenset[int]]:
    """``settle_with:`` groups: mentions, groups separated by ``;`` or ``|`` (``@ann @bob;
    @carol @dave``)."""
    groups = []
    for part in re.split(r"[;|]", text or ""):
        members = parse_members(part)
        if members:
            groups.append(frozenset(members))
    return groups
