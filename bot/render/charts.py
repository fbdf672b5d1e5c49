"""A player's balance over a season as a PNG line chart, drawn with Pillow (no matplotlib).

Points are ``(x, balance)`` in time order, where ``x`` is a ``datetime`` (when the balance
changed) or an ``int`` (a game or hand number). The chart has a title, a y axis with round
chip amounts, an x axis with dates or numbers, the line with the area under it shaded, and
the season's highest and lowest balance marked and labelled.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Final

from PIL import Image, ImageDraw

from bot.render.images import BLACK, GOLD, RGB, fit_text, font, png_bytes, text_width
from bot.render.text import format_chips

BG: Final[RGB] = (43, 45, 49)  # Discord's dark theme, so the chart sits well in an embed
GRID: Final[RGB] = (66, 69, 76)
AXIS: Final[RGB] = (150, 154, 162)
LABEL: Final[RGB] = (200, 203, 210)
TITLE: Final[RGB] = (242, 243, 245)
LINE: Final[RGB] = (88, 201, 125)
FILL: Final[tuple[int, int, int, int]] = (88, 201, 125, 48)
HIGH: Final[RGB] = GOLD
LOW: Final[RGB] = (237, 95, 95)

WIDTH: Final = 800
HEIGHT: Final = 400
_PAD_LEFT, _PAD_RIGHT, _PAD_TOP, _PAD_BOTTOM = 84, 32, 56, 44
_SS: Final = 2  # drawn at twice the size then reduced, for smooth lines

Point = tuple[datetime | int, int]


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _validate(points: Sequence[Point]) -> tuple[list[float], list[int], bool]:
    """x as numbers (seconds for datetimes), y, and whether x are datetimes."""
    if isinstance(points, str | bytes) or not isinstance(points, Sequence):
        raise ValueError("render_balance_chart: points must be a sequence of (x, balance)")
    if not points:
        raise ValueError("render_balance_chart: no points to draw")
    xs: list[float] = []
    ys: list[int] = []
    first = points[0][0] if isinstance(points[0], tuple) and len(points[0]) == 2 else None
    dated = isinstance(first, datetime)
    aware = dated and isinstance(first, datetime) and first.utcoffset() is not None
    for i, point in enumerate(points):
        if not (isinstance(point, tuple) and len(point) == 2):
            raise ValueError(f"render_balance_chart: point {i} is not an (x, balance) pair")
        x, y = point
        if not _is_int(y):
            raise ValueError(f"render_balance_chart: point {i}: balance {y!r} is not an integer")
        if dated:
            if not isinstance(x, datetime):
                raise ValueError(f"render_balance_chart: point {i}: x {x!r} is not a datetime")
            if (x.utcoffset() is not None) != aware:
                raise ValueError(
                    f"render_balance_chart: point {i}: mixes naive and aware datetimes"
                )
            xs.append(x.timestamp() if aware else x.replace(tzinfo=UTC).timestamp())
        else:
            if isinstance(x, bool) or not isinstance(x, int):
                raise ValueError(
                    f"render_balance_chart: point {i}: x {x!r} is not a datetime or an integer"
                )
            xs.append(float(x))
        if i and xs[-1] < xs[-2]:
            raise ValueError(f"render_balance_chart: point {i} is earlier than point {i - 1}")
        ys.append(y)
    return xs, ys, dated


def nice_step(span: float, target_ticks: int = 5) -> float:
    """A round tick step (1, 2 or 5 times a power of ten) giving about ``target_ticks``."""
    if span <= 0:
        return 1.0
    raw = span / target_ticks
    magnitude = 10.0 ** math.floor(math.log10(raw))
    for mult in (1.0, 2.0, 5.0, 10.0):
        if mult * magnitude >= raw:
            return mult * magnitude
    return 10.0 * magnitude  # pragma: no cover - the loop always returns


def _y_axis(lo: int, hi: int) -> tuple[int, int, int]:
    """Axis bottom, top and integer step enclosing [lo, hi] with round numbers."""
    if lo == hi:
        pad = max(10, abs(lo) // 10)
        lo, hi = lo - pad, hi + pad
    step = max(1, round(nice_step(hi - lo)))
    return (lo // step) * step, -((-hi) // step) * step, step


def _x_labels(x0: float, x1: float, dated: bool) -> list[tuple[float, str]]:
    if x1 == x0:
        return [(x0, _x_text(x0, 0.0, dated))]
    if dated:
        return [
            (x0 + (x1 - x0) * k / 4, _x_text(x0 + (x1 - x0) * k / 4, x1 - x0, True))
            for k in range(5)
        ]
    step = max(1, round(nice_step(x1 - x0)))
    first = -(-int(x0) // step) * step
    return [(float(v), _x_text(v, 0.0, False)) for v in range(first, int(x1) + 1, step)]


def _x_text(x: float, span: float, dated: bool) -> str:
    if not dated:
        return f"{int(x):,}"
    when = datetime.fromtimestamp(x, UTC)
    if span < 2 * 86400:
        return when.strftime("%b %d %H:%M")
    if span < 366 * 86400:
        return when.strftime("%b %d")
    return when.strftime("%Y-%m")


def render_balance_chart(points: Sequence[Point], *, title: str) -> bytes:
    """PNG line chart (800 x 400) of a balance over time, min and max marked.

    Raises ValueError for no points, non-integer balances, mixed or unordered x values.
    """
    xs, ys, dated = _validate(points)
    k = _SS
    w, h = WIDTH * k, HEIGHT * k
    left, right = _PAD_LEFT * k, w - _PAD_RIGHT * k
    top, bottom = _PAD_TOP * k, h - _PAD_BOTTOM * k
    img = Image.new("RGBA", (w, h), BG)
    draw = ImageDraw.Draw(img)
    label_font, title_font, mark_font = (
        font(13 * k),
        font(20 * k, bold=True),
        font(13 * k, bold=True),
    )

    draw.text(
        (left, 28 * k),
        fit_text(title.strip() or "Balance", title_font, right - left),
        fill=TITLE,
        font=title_font,
        anchor="lm",
    )

    y_lo, y_hi, y_step = _y_axis(min(ys), max(ys))
    x0, x1 = xs[0], xs[-1]

    def px(x: float) -> float:
        return (left + right) / 2 if x1 == x0 else left + (x - x0) / (x1 - x0) * (right - left)

    def py(y: float) -> float:
        return bottom - (y - y_lo) / (y_hi - y_lo) * (bottom - top)

    for value in range(y_lo, y_hi + 1, y_step):
        y = py(value)
        draw.line((left, y, right, y), fill=GRID, width=k)
        draw.text((left - 8 * k, y), format_chips(value), fill=LABEL, font=label_font, anchor="rm")
    for x, text in _x_labels(x0, x1, dated):
        draw.line((px(x), bottom, px(x), bottom + 5 * k), fill=AXIS, width=k)
        draw.text((px(x), bottom + 8 * k), text, fill=LABEL, font=label_font, anchor="mt")
    draw.line((left, top, left, bottom), fill=AXIS, width=k)
    draw.line((left, bottom, right, bottom), fill=AXIS, width=k)

    line = [(px(x), py(y)) for x, y in zip(xs, ys, strict=True)]
    if len(line) > 1:
        shade = Image.new("RGBA", (w, h), (0, 0, 0, 0))
        ImageDraw.Draw(shade).polygon(
            [(line[0][0], bottom), *line, (line[-1][0], bottom)], fill=FILL
        )
        img.alpha_composite(shade)
        draw = ImageDraw.Draw(img)
        draw.line(line, fill=LINE, width=3 * k, joint="curve")

    hi_i = max(range(len(ys)), key=lambda i: (ys[i], -i))  # first time the top was reached
    lo_i = min(range(len(ys)), key=lambda i: (ys[i], i))
    if ys[hi_i] == ys[lo_i]:  # a flat season: one mark, no min/max to tell apart
        marks = [(hi_i, HIGH, "balance", -1)]
    else:
        marks = [(hi_i, HIGH, "max", -1), (lo_i, LOW, "min", 1)]
    for i, colour, word, direction in marks:
        cx, cy = line[i]
        r = 5 * k
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=colour, outline=BLACK, width=k)
        text = f"{word} {format_chips(ys[i])}"
        tw = text_width(text, mark_font)
        tx = min(max(cx, left + tw / 2 + 4 * k), right - tw / 2 - 4 * k)
        ty = cy + direction * 16 * k
        ty = min(max(ty, top - 4 * k), bottom - 10 * k)
        draw.text((tx, ty), text, fill=colour, font=mark_font, anchor="mm")

    out = img.convert("RGB").reduce(_SS)  # box filter over 2x2 pixels: exact and fast
    return png_bytes(out)
