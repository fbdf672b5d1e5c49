"""What a guts game is built from, and the session helpers between games (RULES §1.2, §1.9-1.11).

A table plays a sequence of games. :class:`GutsSetup` is one game's starting point: the
seats in clockwise order, balances, dealer, the pot carried over from the previous game with
who paid it in, who is excused from the first ante and who is away. :func:`next_game`
computes the next game's setup from a finished game; the service stores it and deals.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from bot.engine.errors import InvalidConfig, SnapshotError
from bot.engine.events import ChipMove

if TYPE_CHECKING:
    from bot.engine.guts.game import GutsGame

#: Consecutive windows a player may let run out before being marked away (RULES §1.11).
IDLE_WINDOWS_BEFORE_AWAY = 2


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


@dataclass(frozen=True, slots=True)
class NextGame:
    """What follows a finished game: the next setup, and whether the table should pause."""

    setup: GutsSetup
    pause: bool
    pause_reason: str | None = None
    newly_away: frozenset[int] = frozenset()


def next_game(game: GutsGame) -> NextGame:
    """The next game's setup after ``game`` is over (RULES §1.9, §1.2, §1.11).

    The deal passes one seat to the left; the carried pot and its ledger stay; the player who
    matched is excused from the first ante when the house rule says so; players who let two
    windows in a row run out are away. ``pause`` is set when a whole round passed with no
    player acting, or when fewer than two players could play the next game.
    """
    result = game.result
    setup = game.setup
    seats = setup.seats
    dealer = seats[(seats.index(setup.dealer) + 1) % len(seats)]
    idle = dict(game.idle)
    newly_away = frozenset(
        s for s, n in idle.items() if n >= IDLE_WINDOWS_BEFORE_AWAY and s not in setup.away
    )
    away = setup.away | newly_away
    excused: frozenset[int] = frozenset()
    if game.rules.excuse_matcher_ante and result.challenger is not None and result.matched > 0:
        excused = frozenset({result.challenger})
    nxt = GutsSetup(
        seats=seats,
        stacks=dict(game.stacks),
        dealer=dealer,
        pot=dict(result.carried_pot),
        excused=excused,
        away=away,
        idle=idle,
    )
    ante = game.rules.ante
    can_play = [s for s in seats if s not in away and (s in excused or nxt.stacks[s] >= ante)]
    if not game.last_round_acted:
        return NextGame(nxt, True, "a whole round passed with no player acting", newly_away)
    if len(can_play) < max(2, game.rules.min_players):
        return NextGame(nxt, True, "not enough players can play the next game", newly_away)
    return NextGame(nxt, False, None, newly_away)


def close_table_refunds(pot: Mapping[int, int]) -> tuple[ChipMove, ...]:
    """Chips to return when a table closes with a pot standing (RULES §1.10).

    Each player gets back exactly what they paid into the pot still standing.

    >>> close_table_refunds({3: 20, 5: 0, 1: 10})
    (ChipMove(seat=1, amount=-10, kind='refund'), ChipMove(seat=3, amount=-20, kind='refund'))
    """
    return tuple(ChipMove(s, -c, "refund") for s, c in sorted(pot.items()) if c > 0)
