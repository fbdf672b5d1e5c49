"""Discord's length and count limits on what the bot sends, and text that stays inside
them: a list that grows (table channels, standings, house rules) ends with "and N more"
instead of being refused with 400 / 50035 ("Invalid Form Body").

Limits as published in Discord's API documentation (``docs/resources/Message.md``: content;
``docs/resources/Message.md#embed-limits``: embeds; ``docs/interactions/Message_Components.md``:
select options, custom_id) and its OpenAPI description (``discord/discord-api-spec``).

>>> fit_lines(["alpha", "beta", "gamma", "delta"], 20)
'alpha\\n… and 3 more'
>>> join_within(["<#1>", "<#2>", "<#3>", "<#4>"], 20)
'<#1> and 3 more'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

CONTENT = 2000
EMBED_TITLE = 256
EMBED_DESCRIPTION = 4096
EMBED_FIELDS = 25
FIELD_NAME = 256
FIELD_VALUE = 1024
FOOTER = 2048
EMBED_TOTAL = 6000
"""All of an embed's text together (title, description, field names and values, footer,
author), and of all embeds of one message together."""
SELECT_OPTIONS = 25
OPTION_TEXT = 100
"""A select option's label, value and description."""
CUSTOM_ID = 100


def more_line(n: int) -> str:
    return f"… and {n} more"


def fit_lines(lines: Sequence[str], limit: int, *, more: Any = more_line) -> str:
    """``lines`` joined by newlines within ``limit`` characters: as many whole lines as fit,
    then one line saying how many were left out (a first line too long on its own is cut,
    ending with ``…``)."""
    text = "\n".join(lines)
    if len(text) <= limit:
        return text
    for shown in range(len(lines) - 1, 0, -1):
        candidate = "\n".join([*lines[:shown], more(len(lines) - shown)])
        if len(candidate) <= limit:
            return candidate
    tail = "\n" + more(len(lines) - 1) if len(lines) > 1 else ""
    room = limit - len(tail) - 1
    if room <= 0:
        return text[: limit - 1] + "…"
    return lines[0][:room] + "…" + tail


def join_within(items: Sequence[str], limit: int, *, sep: str = ", ") -> str:
    """``items`` joined by ``sep`` within ``limit`` characters, ending "and N more" when
    some do not fit."""
    text = sep.join(items)
    if len(text) <= limit:
        return text
    shown: list[str] = []
    for i, item in enumerate(items):
        rest = len(items) - i - 1
        candidate = sep.join([*shown, item])
        if len(candidate) + len(f" and {rest} more") > limit:
            return f"{sep.join(shown)} and {len(items) - i} more".strip()
        shown.append(item)
    return sep.join(shown)  # pragma: no cover


def _embed_text(embed: Mapping[str, Any]) -> Iterable[tuple[str, str, int | None]]:
    yield "title", str(embed.get("title", "")), EMBED_TITLE
    yield "description", str(embed.get("description", "")), EMBED_DESCRIPTION
    for i, field in enumerate(embed.get("fields", ())):
        yield f"field {i} name", str(field.get("name", "")), FIELD_NAME
        yield f"field {i} value", str(field.get("value", "")), FIELD_VALUE
    yield "footer", str((embed.get("footer") or {}).get("text", "")), FOOTER
    yield "author", str((embed.get("author") or {}).get("name", "")), EMBED_TITLE


def _components(components: Iterable[Mapping[str, Any]]) -> Iterable[Mapping[str, Any]]:
    for c in components:
        yield c
        yield from _components(c.get("components", ()))


def message_problems(
    content: str = "",
    embeds: Sequence[Mapping[str, Any]] = (),
    components: Sequence[Mapping[str, Any]] = (),
) -> list[str]:
    """Every limit a message (as JSON: ``Embed.to_dict()``, ``View.to_components()``)
    breaks; empty when Discord would accept it."""
    problems = []
    if len(content) > CONTENT:
        problems.append(f"content {len(content)} > {CONTENT}")
    total = 0
    for n, embed in enumerate(embeds):
        if len(embed.get("fields", ())) > EMBED_FIELDS:
            problems.append(f"embed {n}: {len(embed['fields'])} fields > {EMBED_FIELDS}")
        for what, text, limit in _embed_text(embed):
            total += len(text)
            if limit is not None and len(text) > limit:
                problems.append(f"embed {n} {what}: {len(text)} > {limit}")
    if total > EMBED_TOTAL:
        problems.append(f"embeds: {total} characters > {EMBED_TOTAL}")
    for c in _components(components):
        custom_id = str(c.get("custom_id", ""))
        if len(custom_id) > CUSTOM_ID:
            problems.append(f"custom_id {custom_id[:20]}…: {len(custom_id)} > {CUSTOM_ID}")
        options = c.get("options", ())
        if len(options) > SELECT_OPTIONS:
            problems.append(f"select: {len(options)} options > {SELECT_OPTIONS}")
        for o in options:
            for key in ("label", "value", "description"):
                if len(str(o.get(key, ""))) > OPTION_TEXT:
                    problems.append(f"select option {key}: > {OPTION_TEXT}")
    return problems
