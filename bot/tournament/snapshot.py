"""A :class:`~bot.tournament.state.Tournament` as plain JSON and back, as the store keeps it
(one row per tournament, like a table's snapshot).

The structure is kept as its compact ``levels`` text (:func:`render_levels`), which
:func:`parse_levels` reads back to the same structure; every other field is a number, a
string, a bool or None. :func:`load` refuses what :func:`dump` never writes (a
``ValueError``), so a damaged row is found, not played.

>>> from bot.tournament.presets import preset
>>> from bot.tournament.director import create, open_registration, register
>>> c = TournamentConfig(game="holdem", buy_in=100, starting_stack=1000,
...                      structure=preset("turbo", "blinds", 1000), bounty=10)
>>> t = register(open_registration(create(c)), 7, now=5).tournament
>>> load(dump(t)) == t
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from bot.tournament.clock import Pause
from bot.tournament.config import TournamentConfig
from bot.tournament.state import Bust, Entry, Tournament
from bot.tournament.structure import KINDS, parse_levels, render_levels

VERSION = 1

_CONFIG_FIELDS = (
    "game",
    "buy_in",
    "starting_stack",
    "betting",
    "max_players",
    "seats_per_table",
    "rebuys",
    "rebuy_until_level",
    "rebuy_price",
    "rebuy_chips",
    "add_on",
    "add_on_price",
    "add_on_chips",
    "re_entry",
    "late_registration_levels",
    "bounty",
    "payouts",
    "starts_at",
    "rebuy_decision_seconds",
)
_STATUSES = ("created", "registering", "running", "finished", "cancelled")


def dump_config(c: TournamentConfig) -> dict[str, Any]:
    out: dict[str, Any] = {name: getattr(c, name) for name in _CONFIG_FIELDS}
    out["kind"] = c.structure.kind
    out["levels"] = render_levels(c.structure)
    return out


def load_config(raw: Mapping[str, Any]) -> TournamentConfig:
    kind = raw["kind"]
    if kind not in KINDS:
        raise ValueError(f"unknown structure kind {kind!r}")
    values = {name: raw[name] for name in _CONFIG_FIELDS if name in raw}
    return TournamentConfig(structure=parse_levels(str(raw["levels"]), kind), **values)


def _dump_bust(b: Bust | None) -> dict[str, Any] | None:
    if b is None:
        return None
    return {
        "order": b.order,
        "at": b.at,
        "hand_started_at": b.hand_started_at,
        "started_with": b.started_with,
        "position": b.position,
        "declined": b.declined,
    }


def _load_bust(raw: Mapping[str, Any] | None) -> Bust | None:
    if raw is None:
        return None
    return Bust(
        order=int(raw["order"]),
        at=int(raw["at"]),
        hand_started_at=int(raw["hand_started_at"]),
        started_with=int(raw["started_with"]),
        position=int(raw.get("position", 0)),
        declined=bool(raw.get("declined", False)),
    )


def dump(t: Tournament) -> dict[str, Any]:
    """The JSON of ``t`` (see the module docstring)."""
    return {
        "v": VERSION,
        "config": dump_config(t.config),
        "status": t.status,
        "entries": [
            {
                "number": e.number,
                "player": e.player,
                "entered_at": e.entered_at,
                "paid": e.paid,
                "bounty": e.bounty,
                "rebuys": e.rebuys,
                "add_on": e.add_on,
                "bust": _dump_bust(e.bust),
                "closed": e.closed,
                "bounties_won": e.bounties_won,
            }
            for e in t.entries
        ],
        "started_at": t.started_at,
        "pauses": [[p.start, p.end] for p in t.pauses],
        "eliminating_hands": t.eliminating_hands,
        "finished_at": t.finished_at,
    }


def load(raw: Mapping[str, Any]) -> Tournament:
    """The tournament :func:`dump` wrote."""
    if raw.get("v") != VERSION:
        raise ValueError(f"a tournament snapshot of version {raw.get('v')!r}, not {VERSION}")
    status = raw["status"]
    if status not in _STATUSES:
        raise ValueError(f"unknown tournament status {status!r}")
    entries = tuple(
        Entry(
            number=int(e["number"]),
            player=int(e["player"]),
            entered_at=int(e["entered_at"]),
            paid=int(e["paid"]),
            bounty=int(e["bounty"]),
            rebuys=int(e.get("rebuys", 0)),
            add_on=bool(e.get("add_on", False)),
            bust=_load_bust(e.get("bust")),
            closed=bool(e.get("closed", False)),
            bounties_won=int(e.get("bounties_won", 0)),
        )
        for e in raw["entries"]
    )
    pauses = tuple(Pause(int(a), None if b is None else int(b)) for a, b in raw["pauses"])
    return Tournament(
        config=load_config(raw["config"]),
        status=cast(Any, status),
        entries=entries,
        started_at=raw.get("started_at"),
        pauses=pauses,
        eliminating_hands=int(raw.get("eliminating_hands", 0)),
        finished_at=raw.get("finished_at"),
    )
