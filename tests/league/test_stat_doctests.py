"""The examples in the statistics' and exports' docstrings run (bot/league is not among
pytest's doctest paths, bot/engine is)."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = (
    "bot.league.equity",
    "bot.league.hand_record",
    "bot.league.glossary",
    "bot.league.pokerstars",
    "bot.league.stats_text",
)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_hold(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0, result
