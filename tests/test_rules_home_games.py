"""The rule book states what home games play (issue 18 items 11-15: "The rule book
(``/rules``, docs/rules.md) states every rule above, and every house option"): rules
6.17-6.22 in docs/rules.md and in ``/rules holdem`` and ``/rules omaha``, and each house
option in their house rules (seven-deuce at Hold'em only), each with its default."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.engine.flop.rules import HOUSE_OPTIONS
from bot.render import rulebook
from cogs.rules import default_rules, rules_embeds

DOC = Path(__file__).resolve().parents[1] / "docs" / "rules.md"
WORDS = {
    "6.17": "/table house",
    "6.18": "Mississippi straddle",
    "6.19": "each pot is split between the runs",
    "6.20": "no betting before the flop",
    "6.21": "7-2 offsuit",
    "6.22": "Rabbit",
}


@pytest.mark.parametrize("game", ["holdem", "omaha"])
def test_rules_page_states_every_home_game_rule_and_house_option(game: str) -> None:
    embeds = rules_embeds(game, default_rules(game), at_table=False)
    text = "\n".join(f.value or "" for embed in embeds for f in embed.fields)
    for number, words in WORDS.items():
        assert f"**{number}**" in text and words in text, number
    rows = {name: value for name, value, _ in rulebook.house_rules(game)}
    for name in HOUSE_OPTIONS:
        if name == "seven_deuce" and game == "omaha":
            assert name not in rows  # a Hold'em rule
            continue
        assert name in rows and f"`{name}`" in text, name
    assert rows["straddle"] == "off" and rows["run_it_twice"] == "off"
    assert rows["bomb_pot_ante"] == "twice the big blind" and rows["rabbit_hunt"] == "on"


def test_docs_rules_md_states_the_home_game_rules() -> None:
    doc = DOC.read_text(encoding="utf-8")
    for number, words in WORDS.items():
        line = next(x for x in doc.splitlines() if x.startswith(f"**{number}**"))
        assert words in line, number
    for name in HOUSE_OPTIONS:
        assert f"| `{name}` |" in doc, name
