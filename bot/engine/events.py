"""Events: what an action did, each tagged with who may see it.

``visible_to`` is ``None`` for a public event, or the one seat that may see it. Hidden
cards exist only in private events until showdown; that single rule is what makes card
privacy testable (DESIGN.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

PUBLIC: None = None


@dataclass(frozen=True, slots=True)
class ChipMove:
    """Chips moving between a seat's balance and the table's pot.

    ``amount`` > 0: the seat pays into the pot; < 0: the pot pays the seat.
    ``kind`` names the reason for the ledger: ``ante``, ``bring_in``, ``bet``, ``match``,
    ``award``, ``refund``.
    """

    seat: int
    amount: int
    kind: str


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened. ``data`` is JSON-serialisable (card codes as strings)."""

    kind: str
    data: Mapping[str, Any] = field(default_factory=dict)
    visible_to: int | None = PUBLIC
    chips: tuple[ChipMove, ...] = ()

    @property
    def public(self) -> bool:
        return self.visible_to is None

    def visible_for(self, seat: int | None) -> bool:
        """Whether ``seat`` (``None``: an onlooker) may see this event."""
        return self.visible_to is None or self.visible_to == seat

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "data": dict(self.data),
            "visible_to": self.visible_to,
            "chips": [[m.seat, m.amount, m.kind] for m in self.chips],
        }

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Event:
        return cls(
            kind=str(raw["kind"]),
            data=dict(raw.get("data", {})),
            visible_to=raw.get("visible_to"),
            chips=tuple(ChipMove(int(s), int(a), str(k)) for s, a, k in raw.get("chips", [])),
        )


def private(seat: int, kind: str, data: Mapping[str, Any]) -> Event:
    return Event(kind=kind, data=data, visible_to=seat)


def public(kind: str, data: Mapping[str, Any], chips: tuple[ChipMove, ...] = ()) -> Event:
    return Event(kind=kind, data=data, visible_to=PUBLIC, chips=chips)
