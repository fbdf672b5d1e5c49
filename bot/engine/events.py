"""Events: what an action did, each tagged with who may see it.

``visible_to`` is ``None`` for a public event, or the one seat that may see it. Hidden
cards exist only in private events until showdown; that single rule is what makes card
privacy testable (DESIGN.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Final, NamedTuple

PUBLIC: None = None
#: The default ``Event.data``: shared by every event built without data, so read-only.
NO_DATA: Final[Mapping[str, Any]] = MappingProxyType({})


class ChipMove(NamedTuple):
    """Chips moving between a seat's balance and the table's pot.

    ``amount`` > 0: the seat pays into the pot; < 0: the pot pays the seat.
    ``kind`` names the reason for the ledger: ``ante``, ``bring_in``, ``bet``, ``match``,
    ``award``, ``refund``.

    Immutable named tuples (cheap to build; engines build dozens per hand). Like any tuple
    they compare equal to a plain tuple of the same values.
    """

    seat: int
    amount: int
    kind: str


class Event(NamedTuple):
    """One thing that happened. ``data`` is JSON-serialisable (card codes as strings).

    An immutable named tuple, like :class:`ChipMove`; ``data`` defaults to the read-only
    :data:`NO_DATA`.

    >>> e = Event("street", {"street": 4})
    >>> e.public, e.visible_for(2), Event.from_json(e.to_json()) == e
    (True, True, True)
    >>> Event("deal_down", visible_to=1).visible_for(2), Event("x").to_json()["data"]
    (False, {})
    """

    kind: str
    data: Mapping[str, Any] = NO_DATA
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
