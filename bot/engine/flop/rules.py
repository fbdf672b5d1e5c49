"""Stakes and house rules of a Hold'em or Omaha table, validated once at table creation."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from bot.engine.errors import InvalidConfig

Game = Literal["holdem", "omaha"]
Betting = Literal["no-limit", "pot-limit", "fixed-limit"]
Split = Literal["high", "hi-lo"]
Straddle = Literal["off", "under-the-gun", "button"]
RunItTwice = Literal["off", "ask"]

#: Hole cards per player.
HOLE_CARDS: dict[str, int] = {"holdem": 2, "omaha": 4}
#: The house options of what home games play (issue 18 items 11-15): a host changes them
#: between hands (``/table house``); each applies from the next hand.
HOUSE_OPTIONS: tuple[str, ...] = (
    "straddle",
    "run_it_twice",
    "bomb_pot_every",
    "bomb_pot_ante",
    "bomb_pot_double_board",
    "seven_deuce",
    "rabbit_hunt",
)
#: pokerkit: fixed limit allows one bet and three raises per street.
MAX_FIXED_AGGRESSIONS = 4


class FlopRules(BaseModel):
    """The stakes and house rules of one flop-game table (Hold'em or Omaha).

    >>> FlopRules().betting, FlopRules().min_raise_bet
    ('no-limit', 10)
    >>> FlopRules.create(game="holdem", split="hi-lo")
    Traceback (most recent call last):
    ...
    bot.engine.errors.InvalidConfig: split: hi-lo is played in Omaha only, not in holdem
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    game: Game = Field("holdem", description="Texas Hold'em (2 hole cards) or Omaha (4)")
    betting: Betting = Field("no-limit", description="no-limit, pot-limit or fixed-limit")
    split: Split = Field("high", description="'hi-lo' splits each pot with an 8-or-better low")
    small_blind: int = Field(5, ge=0, description="Blind of the first seat left of the button")
    big_blind: int = Field(10, ge=1, description="Blind of the second seat left of the button")
    ante: int = Field(0, ge=0, description="Ante of every player (of the big blind alone: bb_ante)")
    bb_ante: bool = Field(False, description="The big blind posts one ante for the whole table")
    min_bet: int | None = Field(
        None, ge=1, description="Smallest bet and raise (no-limit, pot-limit); the big blind"
    )
    small_bet: int | None = Field(
        None, ge=1, description="Fixed-limit bet before the turn; the big blind by default"
    )
    big_bet: int | None = Field(
        None, ge=1, description="Fixed-limit bet on the turn and river; twice the small bet"
    )
    dead_antes: bool | None = Field(
        None,
        description="Antes are dead money in the main pot (PHH ante_trimming_status = false);"
        " by default only a big-blind ante is",
    )
    showdown_reveal: Literal["all", "winners"] = Field(
        "all", description="'all' shows every hand; 'winners' lets a losing hand be mucked"
    )
    decision_seconds: int = Field(
        45, ge=10, le=600, description="Seconds a player has to act before the default action"
    )
    min_players: int = Field(2, ge=2, le=9, description="Fewest players needed to deal a hand")
    max_players: int = Field(9, ge=2, le=9, description="Most players at the table")
    # ---- what home games play (issue 18 items 11-15; docs/rules.md 6.17-6.21): house
    # options a host may change between hands (/table house)
    straddle: Straddle = Field(
        "off",
        description="A Straddle button before the deal for the seat after the big blind"
        " (under-the-gun) or the button: twice the big blind, acting last before the flop",
    )
    run_it_twice: RunItTwice = Field(
        "off",
        description="'ask': all in before the river, each player still in chooses Once or"
        " Twice; all Twice deals the rest of the board twice, each run wins half",
    )
    bomb_pot_every: int = Field(
        0, ge=0, le=1000, description="Every N-th hand is a bomb pot (0: only when called)"
    )
    bomb_pot_ante: int | None = Field(
        None, ge=1, description="Each player's ante in a bomb pot; twice the big blind"
    )
    bomb_pot_double_board: bool = Field(
        False, description="The regular bomb pots (bomb_pot_every) deal two boards"
    )
    seven_deuce: int = Field(
        0,
        ge=0,
        le=1_000_000,
        description="Hold'em: a pot won with 7-2 offsuit, shown, is paid this by every"
        " other player dealt in",
    )
    rabbit_hunt: bool = Field(
        True,
        description="A Rabbit button after a hand that ended before the river shows the"
        " cards that would have come (off in tournaments)",
    )

    @model_validator(mode="after")
    def _check_relations(self) -> FlopRules:
        if self.split == "hi-lo" and self.game != "omaha":
            raise ValueError(f"split: hi-lo is played in Omaha only, not in {self.game}")
        if self.small_blind > self.big_blind:
            raise ValueError(
                f"small_blind: must be at most the big blind ({self.big_blind}), "
                f"got {self.small_blind}"
            )
        if self.big_bet is not None and self.big_bet < self.small_limit:
            raise ValueError(
                f"big_bet: must be at least the small bet ({self.small_limit}), got {self.big_bet}"
            )
        if self.seven_deuce and self.game != "holdem":
            raise ValueError(f"seven_deuce: is played in Hold'em only, not in {self.game}")
        if self.max_players < self.min_players:
            raise ValueError(
                f"max_players: must be at least min_players ({self.min_players}), "
                f"got {self.max_players}"
            )
        return self

    @classmethod
    def create(cls, **values: Any) -> FlopRules:
        """Build the rules, turning pydantic's ValidationError into :class:`InvalidConfig`."""
        try:
            return cls(**values)
        except ValidationError as exc:
            err = exc.errors()[0]
            loc = [str(p) for p in err.get("loc", ())]
            msg = str(err.get("msg", "invalid"))
            if not loc:
                text = msg.removeprefix("Value error, ")
                field, _, reason = text.partition(": ")
                raise InvalidConfig(field, reason) from None
            raise InvalidConfig(loc[0], f"{msg.lower()}, got {err.get('input')!r}") from None

    @property
    def hole_cards(self) -> int:
        return HOLE_CARDS[self.game]

    @property
    def small_limit(self) -> int:
        return self.small_bet if self.small_bet is not None else self.big_blind

    @property
    def big_limit(self) -> int:
        return self.big_bet if self.big_bet is not None else 2 * self.small_limit

    @property
    def min_raise_bet(self) -> int:
        """The smallest bet or raise increment in no-limit and pot-limit."""
        return self.min_bet if self.min_bet is not None else self.big_blind

    @property
    def antes_dead(self) -> bool:
        return self.bb_ante if self.dead_antes is None else self.dead_antes

    def street_bet(self, street: int) -> int:
        """The least bet of a street (1 preflop .. 4 river): fixed-limit small then big."""
        if self.betting == "fixed-limit":
            return self.small_limit if street <= 2 else self.big_limit
        return self.min_raise_bet

    @property
    def bomb_ante(self) -> int:
        """Each player's ante in a bomb pot the table deals by itself (bomb_pot_every)."""
        return self.bomb_pot_ante if self.bomb_pot_ante is not None else 2 * self.big_blind

    @property
    def straddle_amount(self) -> int:
        """A straddle: twice the big blind (a blind raise; in fixed limit, one raise)."""
        return 2 * self.big_blind

    @property
    def max_aggressions(self) -> int | None:
        return MAX_FIXED_AGGRESSIONS if self.betting == "fixed-limit" else None

    def describe(self) -> list[tuple[str, str, str]]:
        """(name, value, one-line description) of every rule, for the table to announce."""
        return [
            (name, str(getattr(self, name)), info.description or "")
            for name, info in type(self).model_fields.items()
        ]
