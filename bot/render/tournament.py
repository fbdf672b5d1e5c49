"""A tournament's results as a PNG, drawn with Pillow (issue 20 item 6: "the results post
(places, prizes, bounties, points) has a picture"): one row per finisher, best first, with
the place, the name, the prize, the bounties won and the league points; a header with the
tournament and its field, a footer with the prize pool and how it was rounded.

At most :data:`WIDTH` pixels wide (well under Discord's inline preview width); the
arguments are plain tuples and strings so it can run in the render pool's worker process
(:mod:`bot.render.pool`). Names arrive already made plain and are cleaned again here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from PIL import Image, ImageDraw

from bot.render.charts import BG, GRID, LABEL, TITLE
from bot.render.images import GOLD, fit_text, font, png_bytes
from bot.render.text import format_chips, one_line

WIDTH: Final = 900
"""Pixels wide (the issue's limit is 1,500)."""
ROW_H: Final = 32
MAX_ROWS: Final = 30
"""Finishers drawn; the rest are summed up in one "and N more" line (the text lists all)."""
_TOP, _BOTTOM, _PAD = 78, 56, 24
_COLUMNS: Final = (
    ("place", 90),
    ("player", 330),
    ("prize", 150),
    ("bounties", 130),
    ("points", 110),
)

Row = tuple[str, str, int, int, str]
"""(place label, name, prize, bounties, points as text or "")."""


def _check(rows: Sequence[Row]) -> None:
    if isinstance(rows, str | bytes) or not isinstance(rows, Sequence):
        raise ValueError("render_results: rows must be a sequence")
    for i, row in enumerate(rows):
        if not (isinstance(row, tuple) and len(row) == 5):
            raise ValueError(
                f"render_results: row {i} is not (place, name, prize, bounties, points)"
            )
        label, name, prize, bounties, points = row
        if not all(isinstance(x, str) for x in (label, name, points)):
            raise ValueError(f"render_results: row {i}: place, name and points are text")
        for value in (prize, bounties):
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"render_results: row {i}: {value!r} is no chip amount")


def render_results(title: str, subtitle: str, rows: Sequence[Row], footer: str) -> bytes:
    """The PNG of a tournament's results (see the module docstring).

    >>> from io import BytesIO
    >>> png = render_results("Hold'em tournament #1", "12 players", [("1st", "ann", 600, 20,
    ...                      "65.00")], "prize pool 1,200")
    >>> Image.open(BytesIO(png)).size[0] <= 1500
    True
    """
    _check(rows)
    shown = list(rows[:MAX_ROWS])
    more = len(rows) - len(shown)
    height = _TOP + ROW_H * (len(shown) + 1 + (1 if more else 0)) + _BOTTOM
    img = Image.new("RGB", (WIDTH, height), BG)
    draw = ImageDraw.Draw(img)
    big, small, bold = font(26, bold=True), font(17), font(17, bold=True)
    draw.text((_PAD, 16), fit_text(one_line(title), big, WIDTH - 2 * _PAD), fill=TITLE, font=big)
    draw.text(
        (_PAD, 50), fit_text(one_line(subtitle), small, WIDTH - 2 * _PAD), fill=LABEL, font=small
    )
    y = _TOP
    x = _PAD
    for name, width in _COLUMNS:
        draw.text((x, y + 6), name, fill=LABEL, font=bold)
        x += width
    y += ROW_H
    draw.line((_PAD, y - 2, WIDTH - _PAD, y - 2), fill=GRID, width=1)
    for label, name, prize, bounties, points in shown:
        colour = GOLD if label.startswith("1st") else TITLE
        cells = (
            label,
            name,
            format_chips(prize) if prize else "",
            format_chips(bounties) if bounties else "",
            points,
        )
        x = _PAD
        for (_, width), text in zip(_COLUMNS, cells, strict=True):
            draw.text(
                (x, y + 6), fit_text(one_line(text), small, width - 8), fill=colour, font=small
            )
            x += width
        y += ROW_H
    if more:
        draw.text((_PAD, y + 6), f"and {more} more", fill=LABEL, font=small)
        y += ROW_H
    draw.line((_PAD, y + 4, WIDTH - _PAD, y + 4), fill=GRID, width=1)
    draw.text(
        (_PAD, y + 14), fit_text(one_line(footer), small, WIDTH - 2 * _PAD), fill=LABEL, font=small
    )
    return png_bytes(img)
