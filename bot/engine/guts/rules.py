"""House rules of a Zoot or Wheelers table (RULES §1, §3.3).

>>> rules = GutsRules.parse(game="zoot", ante=5)
>>> rules.ante, rules.laydown_order
(5, 'simultaneous')
>>> GutsRules.parse(game="zoot", max_players=11)
Traceback (most recent call last):
...
bot.engine.errors.InvalidConfig: max_players: at most 10 players (got 11)
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from bot.engine.errors import InvalidConfig

GutsGameName = Literal["zoot", "wheelers"]

#: Friendly reasons for pydantic's error types; ``{limit}`` and ``{got}`` are filled in.
_REASONS: dict[str, str] = {
    "greater_than_equal": "at least {limit}",
    "less_than_equal": "at most {limit}",
    "literal_error": "must be one of {expected}",
    "int_parsing": "must be a whole number",
    "int_type": "must be a whole number",
    "int_from_float": "must be a whole number",
    "bool_type": "must be true or false",
    "bool_parsing": "must be true or false",
    "extra_forbidden": "is not a house rule of this game",
    "missing": "is required",
}

#: Fields counted in players, so the message can say "at most 10 players".
_UNITS: dict[str, str] = {
    "min_players": " players",
    "max_players": " players",
    "ante": " chips",
    "decision_seconds": " seconds",
}


class GutsRules(BaseModel):
    """The rules a guts table announces when it opens (RULES §1; house rules named there)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    game: GutsGameName = Field(description="Zoot (ranked by suits) or Wheelers (by straights)")
    ante: int = Field(default=10, ge=1, description="chips each player antes, at each ante")
    laydown_order: Literal["simultaneous", "in_turn"] = Field(
        default="simultaneous",
        description="lay-down window: everyone chooses in secret, or in turn from dealer's left",
    )
    decision_seconds: int = Field(
        default=45, ge=10, le=600, description="time to choose in each window, in seconds"
    )
    excuse_matcher_ante: bool = Field(
        default=False,
        description="a player who matched the pot skips the first ante of the next game",
    )
    laydown_requires_cover: bool = Field(
        default=True,
        description="laying down needs at least the pot in your balance",
    )
    wheelers_wraparound: bool = Field(
        default=False,
        description="Wheelers straights may turn the corner (K-A-2)",
    )
    min_players: int = Field(default=2, ge=2, le=10, description="players needed to deal")
    max_players: int = Field(default=10, ge=2, le=10, description="seats at the table")

    @model_validator(mode="after")
    def _min_not_above_max(self) -> GutsRules:
        if self.min_players > self.max_players:
            raise ValueError(
                f"cannot be more than max_players, {self.max_players} (got {self.min_players})"
            )
        return self

    @classmethod
    def parse(cls, **values: Any) -> GutsRules:
        """Build the rules, turning pydantic's error into :class:`InvalidConfig`.

        The error names the first bad field, why, and the value given.
        """
        try:
            return cls(**values)
        except ValidationError as exc:
            err = exc.errors()[0]
            loc = err.get("loc") or ()
            field = str(loc[0]) if loc else "min_players"
            kind = str(err.get("type", ""))
            ctx = err.get("ctx") or {}
            got = values.get(field, err.get("input"))
            if kind in _REASONS:
                limit = ctx.get("ge", ctx.get("le", ""))
                reason = _REASONS[kind].format(
                    limit=f"{limit}{_UNITS.get(field, '')}", expected=ctx.get("expected", "")
                )
                if str(limit) == "1":
                    reason = reason.rstrip("s")  # "at least 1 chip"
            else:
                reason = str(err.get("msg", "invalid")).removeprefix("Value error, ")
            if kind != "missing" and not reason.endswith(")"):
                reason += f" (got {got!r})" if isinstance(got, str) else f" (got {got})"
            raise InvalidConfig(field, reason) from None

    @property
    def wraparound(self) -> bool:
        """Whether the ranking lets straights turn the corner (Wheelers only)."""
        return self.game == "wheelers" and self.wheelers_wraparound

    def describe(self) -> list[tuple[str, str, str]]:
        """(name, value shown, description) for every rule the table announces."""
        rows: list[tuple[str, str, str]] = []
        for name, info in type(self).model_fields.items():
            if name == "wheelers_wraparound" and self.game != "wheelers":
                continue  # meaningless for Zoot; announcing it would only confuse
            value = getattr(self, name)
            if isinstance(value, bool):
                shown = "on" if value else "off"
            elif name == "game":
                shown = str(value).capitalize()
            elif name == "laydown_order":
                shown = str(value).replace("_", " ")
            else:
                shown = f"{value}{_UNITS.get(name, '')}"
            rows.append((name, shown, info.description or ""))
        return rows
