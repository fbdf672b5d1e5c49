"""``/stats`` as a picture: one row per statistic, one column per member (two side by side
for a head to head), each value written and, for a percentage, drawn as a bar. Pillow
only; 760 px wide (Discord shows it whole; far below its 1,500 px preview width).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from PIL import Image, ImageDraw

from bot.render.charts import AXIS, BG, GRID, LABEL, LINE, TITLE
from bot.render.images import GOLD, RGB, fit_text, font, png_bytes, text_width

WIDTH: Final = 760
ROW: Final = 34
TOP: Final = 64
PAD: Final = 18
LABEL_W: Final = 250
MAX_ROWS: Final = 40
COLOURS: Final[tuple[RGB, ...]] = (LINE, GOLD)


@dataclass(frozen=True, slots=True)
class StatRow:
    label: str
    texts: tuple[str, ...]
    """One per column."""
    bars: tuple[float | None, ...] = ()
    """One per column: 0..1 draws a bar of that length; None draws none."""
    heading: bool = False
    """A section title (a game's name) across the columns."""


def stat_card_size(rows: int) -> tuple[int, int]:
    return WIDTH, TOP + ROW * max(rows, 1) + PAD


def render_stat_card(title: str, columns: Sequence[str], rows: Sequence[StatRow]) -> bytes:
    """PNG of the statistics; ``columns`` names the members (one or two)."""
    if not 1 <= len(columns) <= 2:
        raise ValueError("a stat card has one or two columns")
    rows = list(rows)[:MAX_ROWS]
    for r in rows:
        if not r.heading and len(r.texts) != len(columns):
            raise ValueError(f"row {r.label!r}: one text per column")
    w, h = stat_card_size(len(rows))
    img = Image.new("RGB", (w, h), BG)
    draw = ImageDraw.Draw(img)
    title_face, head_face, text_face = font(22, bold=True), font(17, bold=True), font(16)
    draw.text((PAD, 16), fit_text(title, title_face, w - 2 * PAD), font=title_face, fill=TITLE)
    col_w = (w - LABEL_W - 2 * PAD) // len(columns)
    for k, name in enumerate(columns):
        x = PAD + LABEL_W + k * col_w
        draw.text((x, 44), fit_text(name, head_face, col_w - 8), font=head_face, fill=COLOURS[k])
    y = TOP
    for r in rows:
        if r.heading:
            draw.line((PAD, y + ROW - 4, w - PAD, y + ROW - 4), fill=AXIS)
            draw.text((PAD, y + 6), fit_text(r.label, head_face, w - 2 * PAD), font=head_face,
                      fill=TITLE)  # fmt: skip
            y += ROW
            continue
        draw.line((PAD, y + ROW - 2, w - PAD, y + ROW - 2), fill=GRID)
        draw.text((PAD, y + 8), fit_text(r.label, text_face, LABEL_W - 8), font=text_face,
                  fill=LABEL)  # fmt: skip
        for k, text in enumerate(r.texts):
            x = PAD + LABEL_W + k * col_w
            bar = r.bars[k] if k < len(r.bars) else None
            if bar is not None:
                length = max(0.0, min(1.0, bar)) * (col_w - 90)
                draw.rectangle((x, y + 10, x + col_w - 90, y + ROW - 10), fill=GRID)
                if length >= 1:
                    draw.rectangle((x, y + 10, x + length, y + ROW - 10), fill=COLOURS[k])
                tx = x + col_w - 84
            else:
                tx = x
            draw.text((tx, y + 8), fit_text(text, text_face, col_w - (tx - x) - 4),
                      font=text_face, fill=TITLE)  # fmt: skip
        y += ROW
    if not rows:
        message = "No hands played yet."
        draw.text(((w - text_width(message, text_face)) / 2, TOP + 8), message, font=text_face,
                  fill=LABEL)  # fmt: skip
    return png_bytes(img)
