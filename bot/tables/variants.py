"""The games a mixed table (HORSE, dealer's choice: :mod:`bot.tables.mixed`) may deal: each
:class:`~bot.games.Variant` names its family's game key, its name and the options that make
it (the registry's data, bot/games.py: a ninth game adds its line there), HORSE's five and
dealer's choice's eight, and how one table's stakes become each game's options.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot import games as registry
from bot.engine.errors import InvalidConfig
from bot.games import Variant
from bot.tables.games import make_family

__all__ = ["DEALERS_CHOICE", "HORSE", "VARIANTS", "Variant", "family_deals", "variant_keys"]


VARIANTS: dict[str, Variant] = registry.variants()
"""Every game a mixed table knows, by its key there (the registry's: bot/games.py)."""

HORSE = registry.game("horse").plays
"""H-O-R-S-E: fixed-limit Hold'em, Omaha Hi-Lo, Razz, Stud, Stud Hi-Lo (eight or better)."""

DEALERS_CHOICE = registry.game("dealers-choice").plays
"""The eight games a dealer's-choice table allows unless its ``games`` option says fewer."""


def variant_keys(raw: object) -> tuple[str, ...]:
    """The ``games`` option: keys separated by commas or spaces ("zoot, razz stud"), or a
    list; each a key of :data:`VARIANTS`, none twice."""
    if isinstance(raw, str):
        items = [p for p in raw.replace(",", " ").split() if p]
    elif isinstance(raw, Sequence):
        items = [str(p) for p in raw]
    else:
        raise InvalidConfig("games", "a list of game names")
    keys = tuple(p.strip().lower() for p in items)
    for k in keys:
        if k not in VARIANTS:
            raise InvalidConfig("games", f"unknown game {k!r}; choose from {', '.join(VARIANTS)}")
    if len(set(keys)) != len(keys):
        raise InvalidConfig("games", "a game is listed twice")
    if not keys:
        raise InvalidConfig("games", "name at least one game")
    return keys


def house_options_of(v: Variant, house: Mapping[str, Any]) -> dict[str, Any]:
    """The house options (bot/engine/flop/rules.py HOUSE_OPTIONS) that game ``v`` plays:
    a Hold'em or Omaha game all of them but seven-deuce at Omaha; the others none."""
    if v.family != "flop":
        return {}
    return {k: val for k, val in house.items() if k != "seven_deuce" or v.game == "holdem"}


def variant_options(
    v: Variant,
    *,
    small_bet: int,
    ante: int | None,
    decision_seconds: int | None,
    house: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The options of one game of the table, from the table's stakes (and its house
    options, for the Hold'em and Omaha games)."""
    out: dict[str, Any] = dict(v.options)
    if v.family == "guts":
        out["ante"] = small_bet
    elif v.family == "stud":
        out.update(
            small_bet=small_bet,
            big_bet=2 * small_bet,
            bring_in=max(1, small_bet // 2),
            ante=small_bet // 5 if ante is None else ante,
        )
    else:
        out.update(small_blind=small_bet // 2, big_blind=small_bet)
        if v.options.get("betting") == "fixed-limit":
            out.update(small_bet=small_bet, big_bet=2 * small_bet)
    if decision_seconds is not None:
        out["decision_seconds"] = decision_seconds
    out.update(house_options_of(v, house or {}))
    return out


def family_deals(v: Variant) -> bool:
    """Whether this bot has the family of ``v`` (a game listed before its family lands is
    refused with the reason)."""
    try:
        make_family(v.game, dict(v.options))
    except InvalidConfig as exc:
        return exc.field != "game"
    return True
