"""Fixed-limit stud stakes and house rules (RULES.md §4.2, §4.9), shared by Razz, Seven-card
Stud and Stud Hi-Lo, validated once at table creation."""

from __future__ import annotations

from typing import Any, Literal, Self

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from bot.engine.errors import InvalidConfig


class StudRules(BaseModel):
    """The stakes and house rules of one fixed-limit stud table.

    >>> StudRules().big_bet
    20
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    ante: int = Field(2, ge=0, description="Ante every player posts before the deal")
    bring_in: int = Field(5, ge=1, description="Forced bet of the lowest up card on 3rd street")
    small_bet: int = Field(10, ge=1, description="Fixed bet and raise size on 3rd and 4th street")
    big_bet: int = Field(20, ge=1, description="Fixed bet and raise size on 5th, 6th and 7th")
    showdown_reveal: Literal["all", "winners"] = Field(
        "all", description="'all' shows every hand; 'winners' lets a losing hand be mucked"
    )
    decision_seconds: int = Field(
        45, ge=10, le=600, description="Seconds a player has to act before the default action"
    )
    min_players: int = Field(2, ge=2, le=8, description="Fewest players needed to deal a hand")
    max_players: int = Field(8, ge=2, le=8, description="Most players at the table")

    @model_validator(mode="after")
    def _check_relations(self) -> Self:
        if self.bring_in >= self.small_bet:
            raise ValueError(
                f"bring_in: must be less than the small bet ({self.small_bet}), got {self.bring_in}"
            )
        if self.big_bet < self.small_bet:
            raise ValueError(
                f"big_bet: must be at least the small bet ({self.small_bet}), got {self.big_bet}"
            )
        if self.max_players < self.min_players:
            raise ValueError(
                f"max_players: must be at least min_players ({self.min_players}), "
                f"got {self.max_players}"
            )
        return self

    @classmethod
    def create(cls, **values: Any) -> Self:
        """Build the rules, turning pydantic's ValidationError into :class:`InvalidConfig`."""
        try:
            return cls(**values)
        except ValidationError as exc:
            err = exc.errors()[0]
            loc = [str(p) for p in err.get("loc", ())]
            msg = str(err.get("msg", "invalid"))
            if not loc:
                # Cross-field check: our message already starts with "field: reason".
                text = msg.removeprefix("Value error, ")
                field, _, reason = text.partition(": ")
                raise InvalidConfig(field, reason) from None
            field = loc[0]
            got = err.get("input")
            raise InvalidConfig(field, f"{msg.lower()}, got {got!r}") from None

    def bet_size(self, street: int) -> int:
        """The fixed bet on a street (3..7): small on 3rd and 4th, big from 5th (§4.2)."""
        return self.small_bet if street <= 4 else self.big_bet

    def describe(self) -> list[tuple[str, str, str]]:
        """(name, value, one-line description) of every rule, for the table to announce."""
        out: list[tuple[str, str, str]] = []
        for name, info in type(self).model_fields.items():
            out.append((name, str(getattr(self, name)), info.description or ""))
        return out
