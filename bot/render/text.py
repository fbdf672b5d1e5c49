"""Cards, chip amounts and seat tables as text for messages and embeds (no Discord calls).

>>> from bot.engine.cards import parse_cards
>>> cards_text(parse_cards("As Kh Td 2c"))
'A♠ K♥ 10♦ 2♣'
>>> cards_text([None, None, *parse_cards("7c")])
'🂠 🂠 7♣'
>>> format_chips(1234567), format_chips(-2500), format_chips(40, signed=True)
('1,234,567', '-2,500', '+40')
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot import games as registry
from bot.engine.cards import Card

CARD_BACK_TEXT = "🂠"
"""A face-down card in text (U+1F0A0 PLAYING CARD BACK)."""

EMBED_FIELD_LIMIT = 1024
"""Discord's limit on an embed field value, the usual home of a seat table."""


GAME_TITLES = {g.key: g.title for g in registry.games(mixed=False)}
"""The name of each game a table deals (its family's game key: bot/games.py)."""


def game_title(game: str, rules: Iterable[tuple[str, str, str]] = ()) -> str:
    """The game's name as a table and its hand DMs say it: a stud table says which split
    it plays (its ``split`` rule row), since one game key deals both.

    >>> game_title("stud", [("split", "hi-lo", "")]), game_title("holdem")
    ('Stud Hi-Lo', "Hold'em")
    """
    known = registry.find(game)
    if known is None or known.mixed:
        return GAME_TITLES.get(game, game)
    split = next((value for name, value, _ in rules if name == "split"), None)
    return registry.table_title(game, split)


def cards_text(cards: Iterable[Card | None], *, hidden: str = CARD_BACK_TEXT) -> str:
    """``A♠ K♥ 10♦ 2♣``; ``None`` is a face-down card, shown as ``hidden``."""
    return " ".join(hidden if c is None else c.pretty for c in cards)


def format_chips(amount: int, *, signed: bool = False) -> str:
    """An integer chip amount with thousands separators; ``signed`` adds ``+`` to gains."""
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise TypeError(f"chip amounts are integers, got {amount!r}")
    return f"{amount:+,}" if signed else f"{amount:,}"


@dataclass(frozen=True, slots=True)
class SeatRow:
    """One line of a seat table: who sits there, their chips, and what they are doing."""

    name: str
    stack: int
    status: str = ""


def display_width(text: str) -> int:
    """Columns the text takes in a monospace font: wide (CJK, emoji) characters take two,
    combining marks none, so the table stays aligned in Discord's code blocks."""
    width = 0
    for ch in text:
        if unicodedata.combining(ch) or ch in "\u200d\ufe0f":
            continue
        width += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return width


def clip(text: str, width: int) -> str:
    """``text`` cut to at most ``width`` display columns, ending in ``…`` when cut."""
    if display_width(text) <= width:
        return text
    out = ""
    for ch in text:
        if display_width(out + ch) > width - 1:
            break
        out += ch
    return out + "…"


def _pad(text: str, width: int, *, right: bool = False) -> str:
    gap = " " * max(0, width - display_width(text))
    return gap + text if right else text + gap


def seats_table(
    seats: Sequence[SeatRow],
    *,
    name_width: int = 16,
    code_block: bool = True,
    limit: int = EMBED_FIELD_LIMIT,
) -> str:
    """A compact aligned table of seats (name, stack, status), for an embed field.

    Names are clipped to ``name_width`` columns; the whole text (with the code fence) stays
    within ``limit`` characters by dropping the last rows and saying how many were left out.
    Backticks in names are replaced so a player cannot close the code block.
    """
    if not seats:
        raise ValueError("a seat table needs at least one seat")
    names = [clip(_no_fence(s.name.strip() or "?"), name_width) for s in seats]
    stacks = [format_chips(s.stack) for s in seats]
    statuses = [clip(_no_fence(s.status.strip()), 24) for s in seats]
    nw = max(display_width(n) for n in names)
    sw = max(len(x) for x in stacks)
    lines = [
        f"{_pad(n, nw)}  {_pad(x, sw, right=True)}  {st}".rstrip()
        for n, x, st in zip(names, stacks, statuses, strict=True)
    ]
    fence = ("```\n", "\n```") if code_block else ("", "")
    budget = limit - len(fence[0]) - len(fence[1])
    shown = list(lines)
    while shown and len("\n".join(shown)) > budget:
        shown.pop()
        more = f"… and {len(lines) - len(shown)} more"
        if len("\n".join([*shown, more])) <= budget:
            shown.append(more)
            break
    return fence[0] + "\n".join(shown) + fence[1]


def _no_fence(text: str) -> str:
    return text.replace("`", "ˋ").replace("\n", " ")


# ------------------------------------------------------------------ untrusted names

NAME_LIMIT = 32
"""Discord's own limit on a display name; a longer one is cut (it came from elsewhere)."""

_KEEP_FORMAT = frozenset("\u200d\ufe0f")  # joiner and emoji presentation: parts of emoji
_MARKDOWN = frozenset("\\*_~`|>[]()#-<@:!")
"""Characters Discord's markdown gives a meaning to (emphasis, spoilers, quotes, links,
headings, lists, mentions and custom emoji, auto-links ``https://``). Discord drops the
backslash before any punctuation, so escaping them shows the name exactly as written."""


def one_line(text: str, *, limit: int = NAME_LIMIT) -> str:
    """``text`` without control characters or line breaks (each run of spacing becomes one
    space), trimmed, at most ``limit`` characters; ``?`` when nothing is left. Safe for a
    picture (a newline broke the drawing) and a code block line."""
    kept = []
    for ch in unicodedata.normalize("NFC", text):
        category = unicodedata.category(ch)
        if ch.isspace() or category in ("Zl", "Zp"):
            kept.append(" ")
        elif category in ("Cc", "Cs", "Co", "Cn") or (category == "Cf" and ch not in _KEEP_FORMAT):
            continue
        else:
            kept.append(ch)
    cleaned = " ".join("".join(kept).split())[:limit].strip()
    return cleaned or "?"


def safe_name(name: str) -> str:
    """A display name as it may enter a message or embed: :func:`one_line`, then every
    markdown character escaped, so ``[Free chips](https://…)`` stays text, not a link, and
    ``@everyone`` or ``<@123>`` stay text, not mentions (the bot also sends
    ``allowed_mentions`` none). The one function every name passes through on its way
    into text the bot posts; :func:`plain_name` undoes the escapes for a picture or a
    code block, where markdown does not apply."""
    return "".join("\\" + ch if ch in _MARKDOWN else ch for ch in one_line(name))


def plain_name(name: str) -> str:
    """A name for a picture or a code block: the escapes of :func:`safe_name` removed,
    and still one clean line (a name stored before escaping gets cleaned here too)."""
    out = []
    chars = iter(name)
    for ch in chars:
        if ch == "\\":
            nxt = next(chars, "")
            out.append(nxt if nxt in _MARKDOWN else ch + nxt)
        else:
            out.append(ch)
    return one_line("".join(out))


# ------------------------------------------------------------------ one way to write things

_TEN = re.compile(r"(?<![A-Za-z0-9])T(?![A-Za-z0-9])")


def hand_name_text(name: str) -> str:
    """A hand's name as players read it: a ten is ``10`` as on the cards (``10♣``), also
    in the rank runs the engines write with ``T`` ("T-9-3-2-A", "two-card straight 9-T").

    >>> hand_name_text("two-card straight 9-T and odd cards Q, T, 3")
    'two-card straight 9-10 and odd cards Q, 10, 3'
    >>> hand_name_text("three-suited two pair, tens and fives")
    'three-suited two pair, tens and fives'
    """
    return _TEN.sub("10", name)


NOTHING_CHANGED = "Nothing changed."
"""What a refusal says changed: it changes nothing (RULES §5, and every table's timers)."""


def refusal_text(reason: str, *, changed: str = NOTHING_CHANGED) -> str:
    """A refusal as every reply of the bot writes it: a sentence that starts with a capital
    letter and ends with a full stop, then what changed (``changed``), unless the reason
    says so itself. The engines' reasons are short lower-case phrases; their meaning stays.

    >>> refusal_text("it is not your turn")
    'It is not your turn. Nothing changed.'
    >>> refusal_text("You cannot raise (rules §6.8)")
    'You cannot raise (rules §6.8). Nothing changed.'
    >>> refusal_text("Raise to between 20 and 35: 50 is not allowed. Nothing changed.")
    'Raise to between 20 and 35: 50 is not allowed. Nothing changed.'
    """
    text = reason.strip() or "That is not possible right now"
    if text[0].islower():
        text = text[0].upper() + text[1:]
    if text[-1] not in ".!?":
        text += "."
    if changed and not re.search(r"\b(?:nothing|not) (?:was |has been )?changed\b", text, re.I):
        text = f"{text} {changed}"
    return text


def plural(n: int, word: str, many: str | None = None) -> str:
    """``1 hand``, ``2 hands`` (``many`` for an irregular plural).

    >>> plural(1, "hand"), plural(0, "hand"), plural(1_500, "chip")
    ('1 hand', '0 hands', '1,500 chips')
    """
    return f"{n:,} {word if n == 1 else (many or word + 's')}"


def shown_hand_name(shown: Mapping[str, Any]) -> str:
    """The name of a hand shown in a stud game (a ``show`` event's data or a result's
    ``shown`` entry), from the parts it has: Razz its low, Stud its high, Hi-Lo both halves.

    >>> shown_hand_name({"low": "8-6-4-2-A"})
    '8-6-4-2-A'
    >>> shown_hand_name({"high": "pair of sixes", "low": None})
    'pair of sixes; no low'
    """
    if "high" not in shown:
        return str(shown.get("low", ""))
    high = str(shown["high"])
    if "low" not in shown:
        return high
    low = shown["low"]
    return f"{high}; " + ("no low" if low is None else f"low {low}")
