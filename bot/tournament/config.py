"""The options of a tournament (``/tournament create``), checked once, with every default
and every relation between them said here.

* ``rebuys``: how many rebuys an entry may make (0: none; None: no limit). A rebuy costs
  ``rebuy_price`` (the buy-in) for ``rebuy_chips`` (the starting stack), plus a new bounty
  when the entry was busted (its bounty was won).
* ``rebuy_until_level: N``: rebuys through the end of level N. Default: the last level
  before the first break (level 1 if the structure has no break). It must end before the
  last level (a period that never ends would keep the tournament from ending).
* ``add_on``: one add-on per entry at the add-on break (the first break after level
  ``rebuy_until_level``; the structure must have one), ``add_on_price`` (the buy-in) for
  ``add_on_chips`` (the starting stack); no bounty.
* ``re_entry``: how many times a busted player may enter again as a new entry (0: never;
  None: no limit), while late registration is open (TDA: a re-entry is a late
  registration); it needs ``late_registration_levels``.
* ``late_registration_levels: N``: registration stays open through the end of level N (0:
  it closes at the start). A late registrant gets the full starting stack and a random seat.
* ``max_players``: the most players (people, not entries: a re-entry takes no one's place).
* ``seats_per_table``: 2 to 9 in Hold'em and Omaha, 2 to 8 in the stud games and HORSE
  (the tables' own limits). Default 9, 8 where that is the most.
* ``bounty``: league chips on top of the buy-in, held apart from the prize pool.
* ``rebuy_decision_seconds``: how long a busted player has to rebuy or re-enter before the
  tournament may end without them (120).

An option set for a feature that is off (``rebuy_price`` with no rebuys...) is refused:
every option given has an effect.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import bot.games as registry
from bot.tournament.clock import add_on_break
from bot.tournament.errors import ConfigError
from bot.tournament.payouts import PAYOUT_METHODS, PayoutMethod
from bot.tournament.structure import Break, Kind, Structure, game_kind

MAX_PLAYERS: Final = 1000
MAX_STACK: Final = 10**9
MAX_PRICE: Final = 10**12


@dataclass(frozen=True)
class TournamentConfig:
    """A tournament's options; built only valid (a :class:`ConfigError` names the field).

    >>> from bot.tournament.presets import preset
    >>> c = TournamentConfig(game="holdem", buy_in=100, starting_stack=10_000,
    ...                      structure=preset("regular", "blinds", 10_000), rebuys=1)
    >>> c.rebuy_level, c.rebuy_cost, c.seats
    (4, 100, 9)
    >>> TournamentConfig(game="razz", buy_in=100, starting_stack=1000,
    ...                  structure=preset("regular", "blinds", 1000))
    Traceback (most recent call last):
    ...
    bot.tournament.errors.ConfigError: structure: its levels are for blinds games, and razz plays stud levels. Nothing changed.
    """  # noqa: E501

    game: str
    buy_in: int
    starting_stack: int
    structure: Structure
    betting: str | None = None
    max_players: int = 90
    seats_per_table: int | None = None
    rebuys: int | None = 0
    rebuy_until_level: int | None = None
    rebuy_price: int | None = None
    rebuy_chips: int | None = None
    add_on: bool = False
    add_on_price: int | None = None
    add_on_chips: int | None = None
    re_entry: int | None = 0
    late_registration_levels: int = 0
    bounty: int = 0
    payouts: PayoutMethod = "standard"
    starts_at: int | None = None
    rebuy_decision_seconds: int = 120

    def __post_init__(self) -> None:
        kind = game_kind(self.game, self.betting)
        if self.structure.kind != kind:
            raise ConfigError(
                "structure",
                f"its levels are for {self.structure.kind} games, and {self.game} plays "
                f"{kind} levels.",
            )
        _range("buy_in", self.buy_in, 0, MAX_PRICE)
        _range("starting_stack", self.starting_stack, 1, MAX_STACK)
        _range("max_players", self.max_players, 2, MAX_PLAYERS)
        _range("seats_per_table", self.seats, 2, max_seats(self.game))
        _range("bounty", self.bounty, 0, MAX_PRICE)
        _range("rebuy_decision_seconds", self.rebuy_decision_seconds, 10, 3600)
        if self.payouts not in PAYOUT_METHODS:
            raise ConfigError("payouts", f"choose one of {', '.join(PAYOUT_METHODS)}.")
        levels = len(self.structure.levels)
        _range("late_registration_levels", self.late_registration_levels, 0, levels - 1)
        for name in ("rebuys", "re_entry"):
            value = getattr(self, name)
            if value is not None:
                _range(name, value, 0, 1000)
        rebuying = self.rebuys != 0
        if not rebuying:
            _unused("rebuy_price", self.rebuy_price, "rebuys")
            _unused("rebuy_chips", self.rebuy_chips, "rebuys")
        if not self.add_on:
            _unused("add_on_price", self.add_on_price, "add_on")
            _unused("add_on_chips", self.add_on_chips, "add_on")
        if not (rebuying or self.add_on):
            _unused("rebuy_until_level", self.rebuy_until_level, "rebuys or add_on")
        if self.rebuy_until_level is not None:
            _range("rebuy_until_level", self.rebuy_until_level, 1, levels - 1)
        if self.re_entry != 0 and self.late_registration_levels == 0:
            raise ConfigError(
                "re_entry",
                "a re-entry is a late registration: set late_registration_levels too.",
            )
        for name in ("rebuy_price", "add_on_price"):
            if (value := getattr(self, name)) is not None:
                _range(name, value, 0, MAX_PRICE)
        for name in ("rebuy_chips", "add_on_chips"):
            if (value := getattr(self, name)) is not None:
                _range(name, value, 1, MAX_STACK)
        if self.add_on and add_on_break(self.structure, self.rebuy_level) is None:
            raise ConfigError(
                "add_on",
                f"the structure has no break after level {self.rebuy_level} to offer the "
                "add-on at; add one, or end the rebuys earlier.",
            )

    @property
    def kind(self) -> Kind:
        return self.structure.kind

    @property
    def seats(self) -> int:
        """Seats per table (the game's most when not given)."""
        if self.seats_per_table is not None:
            return self.seats_per_table
        return max_seats(self.game)

    @property
    def rebuy_level(self) -> int:
        """The last level of the rebuy period (its default: the level before the first
        break, or 1)."""
        if self.rebuy_until_level is not None:
            return self.rebuy_until_level
        steps = self.structure.steps
        first_break = next((i for i, s in enumerate(steps) if isinstance(s, Break)), None)
        return 1 if first_break is None else self.structure.level_at_step(first_break)

    @property
    def rebuy_cost(self) -> int:
        return self.buy_in if self.rebuy_price is None else self.rebuy_price

    @property
    def rebuy_stack(self) -> int:
        return self.starting_stack if self.rebuy_chips is None else self.rebuy_chips

    @property
    def add_on_cost(self) -> int:
        return self.buy_in if self.add_on_price is None else self.add_on_price

    @property
    def add_on_stack(self) -> int:
        return self.starting_stack if self.add_on_chips is None else self.add_on_chips


def max_seats(game: str) -> int:
    """The most seats at a table of tournament game ``game`` (its family's, bot/games.py).

    >>> max_seats("holdem"), max_seats("stud8"), max_seats("horse")
    (9, 8, 8)
    """
    return registry.tournament_game(game).seats


def _range(name: str, value: int, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ConfigError(name, f"give a whole number from {low} to {high}, not {value!r}.")


def _unused(name: str, value: object, needs: str) -> None:
    if value is not None:
        raise ConfigError(
            name, f"it has an effect only with {needs}; set that too or leave it out."
        )
