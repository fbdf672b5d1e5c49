"""The pieces of the rule book: a numbered :class:`Rule` and a :class:`Part` of a game's
rules (bot/render/rulebook.py assembles them; each game family's rules module builds its
parts from these, so none imports the book itself)."""

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
