"""A night's (or a season's) results as a PNG, drawn with Pillow: each player's net as a
bar from a zero line (green won, red lost), the chips and hands played beside it, and a
footer line (the biggest pot). As a receipt (issue 21), below them: the night's expenses
and the settle-up's transfers (who pays whom, and which are paid), all in one image. No
Discord calls; names arrive already made plain (:func:`bot.render.text.plain_name`), and
are cleaned again here.

The arguments are plain tuples and strings so the drawing can run in the render pool's
worker process (:mod:`bot.render.pool`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from PIL import Image, ImageDraw

from bot.render.charts import AXIS, BG, GRID, LABEL, LOW, TITLE
from bot.render.images import GOLD, RGB, fit_text, font, png_bytes
from bot.render.text import format_chips, one_line, plural

WON: Final[RGB] = (88, 201, 125)
LOST: Final[RGB] = LOW
EVEN: Final[RGB] = AXIS

WIDTH: Final = 800
ROW_H: Final = 34
MAX_ROWS: Final = 20
"""Players drawn; more are summed up in one "and N more" line (the text lists them all)."""
_TOP, _BOTTOM, _PAD = 64, 44, 24
_NAME_W, _NUM_W, _HANDS_W = 190, 110, 90
_SS: Final = 2

Row = tuple[str, int, int]
"""(name, net chips, hands played)."""
Line = tuple[str, bool]
"""(text, done): a receipt line; done: a transfer marked paid (drawn green, ticked)."""
LINE_H: Final = 24
MAX_LINES: Final = 30
"""Receipt lines drawn per section; more are summed up in one "and N more" line."""


def _validate(rows: Sequence[Row]) -> None:
    if isinstance(rows, str | bytes) or not isinstance(rows, Sequence):
        raise ValueError("render_night: rows must be a sequence of (name, net, hands)")
    for i, row in enumerate(rows):
        if not (isinstance(row, tuple) and len(row) == 3):
            raise ValueError(f"render_night: row {i} is not (name, net, hands)")
        name, net, hands = row
        if not isinstance(name, str):
            raise ValueError(f"render_night: row {i}: name {name!r} is not text")
        for what, value in (("net", net), ("hands", hands)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"render_night: row {i}: {what} {value!r} is not an integer")


def _validate_lines(name: str, lines: Sequence[Line]) -> list[Line]:
    if isinstance(lines, str | bytes) or not isinstance(lines, Sequence):
        raise ValueError(f"render_night: {name} must be a sequence of (text, done)")
    for i, line in enumerate(lines):
        if not (
            isinstance(line, tuple)
            and len(line) == 2
            and isinstance(line[0], str)
            and isinstance(line[1], bool)
        ):
            raise ValueError(f"render_night: {name} line {i} is not (text, done)")
    shown = list(lines[:MAX_LINES])
    if len(lines) > MAX_LINES:
        shown.append((f"… and {len(lines) - MAX_LINES:,} more", False))
    return shown


def render_night(
    rows: Sequence[Row],
    *,
    title: str,
    footer: str = "",
    expenses: Sequence[Line] = (),
    transfers: Sequence[Line] = (),
    amounts: Sequence[str] | None = None,
    details: Sequence[str] | None = None,
) -> bytes:
    """PNG (800 wide) of the players' nets, in the order given (biggest winner first), and
    the receipt's sections: ``expenses`` and ``transfers`` (each (text, done)). ``amounts``
    and ``details``: each row's number and right-hand text instead of its chips and hands
    (a bank night says money, and no hands).

    Raises ValueError for rows that are not (name, net, hands) with integer chips, or lines
    that are not (text, done).
    """
    _validate(rows)
    for name, texts in (("amounts", amounts), ("details", details)):
        if texts is not None and (
            len(texts) != len(rows) or not all(isinstance(t, str) for t in texts)
        ):
            raise ValueError(f"render_night: {name} must be one text per row")
    sections = [
        (heading, shown)
        for heading, shown in (
            ("Expenses", _validate_lines("expenses", expenses)),
            ("Who pays whom", _validate_lines("transfers", transfers)),
        )
        if shown
    ]
    k = _SS
    shown = list(rows[:MAX_ROWS])
    more = len(rows) - len(shown)
    lines = max(len(shown), 1) + (1 if more else 0)
    receipt = sum(LINE_H * (len(body) + 1) + 12 for _, body in sections)
    w, h = WIDTH * k, (_TOP + lines * ROW_H + receipt + _BOTTOM) * k
    img = Image.new("RGB", (w, h), BG)
    draw = ImageDraw.Draw(img)
    title_font, name_font, num_font, small = (
        font(22 * k, bold=True),
        font(16 * k),
        font(16 * k, bold=True),
        font(13 * k),
    )
    left = _PAD * k
    right = w - _PAD * k
    draw.text(
        (left, 18 * k),
        fit_text(one_line(title.strip() or "Results", limit=200), title_font, right - left),
        font=title_font,
        fill=TITLE,
    )
    bar_left = left + _NAME_W * k
    bar_right = right - (_NUM_W + _HANDS_W) * k
    biggest = max((abs(net) for _, net, _ in shown), default=0) or 1
    # the zero line sits where the largest loss and the largest win both fit
    most_lost = max((-net for _, net, _ in shown if net < 0), default=0)
    most_won = max((net for _, net, _ in shown if net > 0), default=0)
    span = (most_lost + most_won) or biggest
    zero = bar_left + (bar_right - bar_left) * (most_lost / span if span else 0.5)
    top = _TOP * k
    for i, (name, net, hands) in enumerate(shown):
        y = top + i * ROW_H * k
        mid = y + ROW_H * k // 2
        if i % 2 == 0:
            draw.rectangle((left - 8 * k, y, right + 8 * k, y + ROW_H * k - 1), fill=GRID)
        draw.text(
            (left, mid),
            fit_text(one_line(name), name_font, _NAME_W * k - 12 * k),
            font=name_font,
            fill=LABEL,
            anchor="lm",
        )
        length = (bar_right - bar_left) * abs(net) / span if span else 0
        colour = WON if net > 0 else LOST if net < 0 else EVEN
        x0, x1 = (zero, zero + length) if net >= 0 else (zero - length, zero)
        draw.rectangle((x0, mid - 9 * k, max(x1, x0 + k), mid + 9 * k), fill=colour)
        number = (
            amounts[i] if amounts is not None else (format_chips(net, signed=True) if net else "0")
        )
        draw.text(
            (bar_right + _NUM_W * k - 8 * k, mid),
            fit_text(one_line(number, limit=20), num_font, _NUM_W * k - 8 * k),
            font=num_font,
            fill=colour,
            anchor="rm",
        )
        detail = details[i] if details is not None else plural(hands, "hand")
        draw.text(
            (right, mid),
            fit_text(one_line(detail, limit=30), small, _HANDS_W * k),
            font=small,
            fill=AXIS,
            anchor="rm",
        )
    if not shown:
        draw.text(
            (left, top + ROW_H * k // 2), "No hands played.", font=name_font, fill=AXIS, anchor="lm"
        )
    if more:
        y = top + len(shown) * ROW_H * k + ROW_H * k // 2
        draw.text((left, y), f"… and {more:,} more", font=name_font, fill=AXIS, anchor="lm")
    draw.line((zero, top, zero, top + max(len(shown), 1) * ROW_H * k), fill=AXIS, width=k)
    y = top + lines * ROW_H * k + 12 * k
    for heading, body in sections:
        draw.line((left, y - 6 * k, right, y - 6 * k), fill=GRID, width=k)
        draw.text((left, y + LINE_H * k // 2), heading, font=num_font, fill=TITLE, anchor="lm")
        y += LINE_H * k
        for text, done in body:
            mid = y + LINE_H * k // 2
            if done:
                # a tick, drawn (no emoji font needed)
                draw.line(
                    (left, mid, left + 5 * k, mid + 5 * k, left + 13 * k, mid - 6 * k),
                    fill=WON,
                    width=2 * k,
                )
            draw.text(
                (left + 20 * k, mid),
                fit_text(one_line(text, limit=200), small, right - left - 20 * k),
                font=small,
                fill=WON if done else LABEL,
                anchor="lm",
            )
            y += LINE_H * k
        y += 12 * k
    if footer:
        text = fit_text(one_line(footer, limit=300), small, right - left)
        draw.text((left, h - 24 * k), text, font=small, fill=GOLD, anchor="lm")
    out = img.resize((w // k, h // k), Image.Resampling.LANCZOS)
    return png_bytes(out)
