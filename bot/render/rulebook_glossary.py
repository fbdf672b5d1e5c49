"""The statistics' glossary (issue 22): section 11 of the rule book, the definitions
``/stats`` and ``/leaderboard by:`` cite. Each figure's words are its
:data:`bot.league.glossary.FIGURES` entry's, so the book and the commands say the same."""

from __future__ import annotations

from bot.league.glossary import FIGURES, HANDS_DEFINITION, HEAD_TO_HEAD_DEFINITION
from bot.render.rulebook_parts import Part, Rule

SECTION = "11"
HEADING = "Statistics: the glossary"


def _rules() -> tuple[Rule, ...]:
    rules = [
        Rule(
            "11.1",
            "`/stats` shows a member's figures for a season (`season:`), per game or for one "
            "(`game:`), with a picture; `/leaderboard by:` ranks the members by any of them, "
            "listing only those with at least `min_hands:` hands of it (default 20; the chip "
            "rankings list everyone unless it is given). The definitions are PokerTracker's; "
            "Stud Hi-Lo counts with Stud, Omaha Hi-Lo with Omaha.",
        ),
        Rule("11.2", f"**Hands**: {HANDS_DEFINITION}"),
    ]
    for i, figure in enumerate(FIGURES.values(), start=3):
        if figure.title.lower().startswith(figure.name.lower()):
            title = figure.name + figure.title[len(figure.name) :]
        else:
            title = f"{figure.name} ({figure.title})"
        rules.append(Rule(f"11.{i}", f"**{title}**: {figure.definition}"))
    rules.append(Rule(f"11.{len(rules) + 1}", f"**Head to head**: {HEAD_TO_HEAD_DEFINITION}"))
    return tuple(rules)


GLOSSARY = Part("Glossary", _rules())
PARTS = (GLOSSARY,)
