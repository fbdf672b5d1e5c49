"""What a guts game is built from (RULES §1.2, §1.10).

A table plays a sequence of games. :class:`GutsSetup` is one game's starting point: the
seats in clockwise order, balances, dealer, the pot carried over from the previous game with
who paid it in, who is excused from the first ante and who is away.
:func:`~bot.engine.guts.after.next_game` computes the next one from a finished game;
:func:`close_table_refunds` returns a standing pot when the table closes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from bot.engine.errors import InvalidConfig, SnapshotError
from bot.engine.events import ChipMove


@dataclass(frozen=True, slots=True)
class GutsSetup:
    """One game's starting point.

    ``seats`` are seat numbers in clockwise order; ``pot`` is the carried pot as a ledger
    (seat -> chips that seat paid into the pot still standing, RULES §1.10; a seat that left
    the table may still appear there); ``idle`` counts each seat's windows run out in a row.
    """

    seats: tuple[int, ...]
    stacks: Mapping[int, int]
    dealer: int
    pot: Mapping[int, int] = field(default_factory=dict)
    excused: frozenset[int] = frozenset()
    away: frozenset[int] = frozenset()
    idle: Mapping[int, int] = field(default_factory=dict)

    def check(self, *, max_players: int = 10) -> None:
        """Raise :class:`InvalidConfig` naming the first inconsistent field."""
        if len(set(self.seats)) != len(self.seats):
            raise InvalidConfig("seats", f"a seat appears twice ({list(self.seats)})")
        if len(self.seats) > max_players:
            raise InvalidConfig("seats", f"at most {max_players} players (got {len(self.seats)})")
        if self.dealer not in self.seats:
            raise InvalidConfig("dealer", f"seat {self.dealer} is not at the table")
        for seat in self.seats:
            chips = self.stacks.get(seat)
            if not isinstance(chips, int) or chips < 0:
                raise InvalidConfig("stacks", f"seat {seat} needs a balance of 0 or more")
        for seat, chips in self.pot.items():
            if not isinstance(chips, int) or chips < 0:
                raise InvalidConfig("pot", f"seat {seat} paid a negative amount ({chips})")
        for name, seats in (("excused", self.excused), ("away", self.away)):
            stray = sorted(set(seats) - set(self.seats))
            if stray:
                raise InvalidConfig(name, f"seat {stray[0]} is not at the table")

    @property
    def pot_total(self) -> int:
        return sum(self.pot.values())

    def order(self) -> tuple[int, ...]:
        """The seats clockwise starting at the dealer's left; the dealer is last."""
        i = self.seats.index(self.dealer)
        return self.seats[i + 1 :] + self.seats[: i + 1]

    def come_back(self, seat: int) -> GutsSetup:
        """The same setup with ``seat`` back from away (it plays the next game)."""
        idle = {s: n for s, n in self.idle.items() if s != seat}
        return replace(self, away=self.away - {seat}, idle=idle)

    def to_json(self) -> dict[str, Any]:
        return {
            "seats": list(self.seats),
            "stacks": {str(s): c for s, c in self.stacks.items()},
            "dealer": self.dealer,
            "pot": {str(s): c for s, c in self.pot.items()},
            "excused": sorted(self.excused),
            "away": sorted(self.away),
            "idle": {str(s): n for s, n in self.idle.items()},
        }

    @classmethod
    def from_json(cls, raw: Any) -> GutsSetup:
        """Inverse of :meth:`to_json`; raises :class:`SnapshotError` naming the bad field."""
        if not isinstance(raw, Mapping):
            raise SnapshotError("setup: not a mapping")
        try:
            return cls(
                seats=tuple(int(s) for s in raw["seats"]),
                stacks={int(s): int(c) for s, c in raw["stacks"].items()},
                dealer=int(raw["dealer"]),
                pot={int(s): int(c) for s, c in raw.get("pot", {}).items()},
                excused=frozenset(int(s) for s in raw.get("excused", ())),
                away=frozenset(int(s) for s in raw.get("away", ())),
                idle={int(s): int(n) for s, n in raw.get("idle", {}).items()},
            )
        except KeyError as exc:
            raise SnapshotError(f"setup.{exc.args[0]}: missing") from None
        except (TypeError, ValueError, AttributeError) as exc:
            raise SnapshotError(f"setup: malformed ({exc})") from None


def close_table_refunds(pot: Mapping[int, int]) -> tuple[ChipMove, ...]:
    """Chips to return when a table closes with a pot standing (RULES §1.10).

    Each player gets back exactly what they paid into the pot still standing.

    >>> close_table_refunds({3: 20, 5: 0, 1: 10})
    (ChipMove(seat=1, amount=-10, kind='refund'), ChipMove(seat=3, amount=-20, kind='refund'))
    """
    return tuple(ChipMove(s, -c, "refund") for s, c in sorted(pot.items()) if c > 0)
