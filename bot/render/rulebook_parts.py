"""The pieces a rule book is made of: a numbered :class:`Rule` and a titled :class:`Part`.

Their own module so that each game's rule text (``rulebook_stud.py`` ...) and the book that
gathers them (``rulebook.py``) both import them without importing each other.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Rule:
    number: str
    text: str
    """Discord markdown, which is also Markdown: ``**bold**``, ``*italic*``, ``code``."""


@dataclass(frozen=True)
class Part:
    title: str
    rules: tuple[Rule, ...] = ()
    intro: str = ""
    table: str = ""
    """A code block shown after the rules (the ranking tables)."""
