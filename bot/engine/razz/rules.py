"""Razz stakes and house rules (RULES.md §4.2, §4.9): the shared stud rules, in which the
highest up card brings in."""

from __future__ import annotations

from pydantic import Field

from bot.engine.stud.rules import StudRules


class RazzRules(StudRules):
    """The stakes and house rules of one Razz table.

    >>> RazzRules().small_bet
    10
    >>> RazzRules.create(bring_in=10)
    Traceback (most recent call last):
    ...
    bot.engine.errors.InvalidConfig: bring_in: must be less than the small bet (10), got 10
    """

    bring_in: int = Field(5, ge=1, description="Forced bet of the highest up card on 3rd street")
