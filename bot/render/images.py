"""Cards, hands and showdowns as PNG images, drawn with Pillow (no Discord, no downloads).

Everything is drawn here: rounded white cards, the rank in a font, and the suit symbols as
polygons and ellipses, so a font without ♠ ♥ ♦ ♣ glyphs still gives proper cards. ``None``
in a card sequence is a face-down card (a Razz down card shown to the other players).

The output is deterministic: the same input gives the same bytes (Pillow writes no
timestamp into a PNG unless asked to; the card faces are cached, but drawn the same way
each time). Fonts: DejaVu when the system has it, else Pillow's built-in scalable font.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Final

from PIL import Image, ImageDraw, ImageFont

from bot.engine.cards import CARDS, Card
from bot.render.text import NAME_LIMIT, one_line

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont
RGB = tuple[int, int, int]

FONT_DIRS: tuple[Path, ...] = (
    Path("/usr/share/fonts/truetype/dejavu"),
    Path("/usr/share/fonts/dejavu"),
    Path("/usr/share/fonts/TTF"),
)
"""Where DejaVu is looked for; without it Pillow's own font is used (tests prove both)."""

# Colours.
FELT: Final[RGB] = (21, 83, 52)
FELT_LIGHT: Final[RGB] = (31, 105, 68)
CARD_FACE: Final[RGB] = (252, 252, 250)
CARD_EDGE: Final[RGB] = (150, 150, 150)
RED: Final[RGB] = (205, 32, 44)
BLACK: Final[RGB] = (28, 28, 34)
BACK_BLUE: Final[RGB] = (36, 64, 150)
BACK_LINE: Final[RGB] = (82, 118, 210)
TEXT: Final[RGB] = (245, 245, 240)
TEXT_DIM: Final[RGB] = (196, 214, 200)
GOLD: Final[RGB] = (232, 184, 44)

# Geometry of render_hand (pixels).
CARD_W: Final = 100
CARD_H: Final = 140
GAP: Final = 8
MARGIN: Final = 12
LABEL_H: Final = 34

# Geometry of render_showdown: smaller cards, one row per player.
SD_CARD_W: Final = 72
SD_CARD_H: Final = 100
SD_GAP: Final = 6
SD_ROW_PAD: Final = 10
SD_ROW_GAP: Final = 8
SD_NAME_W: Final = 210
SD_HAND_W: Final = 280

_SUPERSAMPLE: Final = 3  # card faces are drawn 3x larger then reduced: smooth edges


@lru_cache(maxsize=32)
def font(size: int, *, bold: bool = False) -> Font:
    """DejaVu Sans (bold) at ``size`` if installed, else Pillow's built-in scalable font."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    for folder in FONT_DIRS:
        candidate = folder / name
        if candidate.is_file():
            try:
                return ImageFont.truetype(str(candidate), size)
            except OSError:
                continue
    return ImageFont.load_default(size=size)


def text_width(text: str, face: Font) -> float:
    return float(face.getlength(text))


def fit_text(text: str, face: Font, width: float) -> str:
    """``text`` shortened with "..." so that it fits ``width`` pixels in ``face``."""
    if text_width(text, face) <= width:
        return text
    while text and text_width(text + "...", face) > width:
        text = text[:-1]
    return text.rstrip() + "..."


# --- suits -------------------------------------------------------------------------------


def draw_suit(draw: ImageDraw.ImageDraw, suit: int, cx: float, cy: float, size: float) -> None:
    """A suit symbol (0 clubs, 1 diamonds, 2 hearts, 3 spades) about ``size`` tall, centred
    on (cx, cy), built from polygons and ellipses."""
    s = size
    colour = RED if suit in (1, 2) else BLACK

    def disc(x: float, y: float, r: float) -> None:
        draw.ellipse((x - r, y - r, x + r, y + r), fill=colour)

    if suit == 1:  # diamond
        draw.polygon(
            [(cx, cy - 0.5 * s), (cx + 0.37 * s, cy), (cx, cy + 0.5 * s), (cx - 0.37 * s, cy)],
            fill=colour,
        )
    elif suit == 2:  # heart: two lobes over a point
        r = 0.26 * s
        disc(cx - 0.24 * s, cy - 0.2 * s, r)
        disc(cx + 0.24 * s, cy - 0.2 * s, r)
        draw.polygon(
            [(cx - 0.495 * s, cy - 0.16 * s), (cx + 0.495 * s, cy - 0.16 * s), (cx, cy + 0.48 * s)],
            fill=colour,
        )
    elif suit == 3:  # spade: an upside-down heart on a stem
        r = 0.25 * s
        disc(cx - 0.235 * s, cy + 0.1 * s, r)
        disc(cx + 0.235 * s, cy + 0.1 * s, r)
        draw.polygon(
            [(cx, cy - 0.5 * s), (cx + 0.48 * s, cy + 0.06 * s), (cx - 0.48 * s, cy + 0.06 * s)],
            fill=colour,
        )
        draw.polygon(
            [(cx, cy + 0.05 * s), (cx + 0.16 * s, cy + 0.5 * s), (cx - 0.16 * s, cy + 0.5 * s)],
            fill=colour,
        )
    elif suit == 0:  # club: three discs on a stem
        r = 0.215 * s
        disc(cx, cy - 0.27 * s, r)
        disc(cx - 0.25 * s, cy + 0.07 * s, r)
        disc(cx + 0.25 * s, cy + 0.07 * s, r)
        disc(cx, cy - 0.02 * s, 0.12 * s)
        draw.polygon(
            [(cx, cy - 0.02 * s), (cx + 0.16 * s, cy + 0.5 * s), (cx - 0.16 * s, cy + 0.5 * s)],
            fill=colour,
        )
    else:
        raise ValueError(f"no such suit: {suit}")


# --- single cards -------------------------------------------------------------------------


def _rounded_card(w: int, h: int, fill: RGB, edge: RGB) -> Image.Image:
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    radius = max(2, w // 10)
    d.rounded_rectangle(
        (0, 0, w - 1, h - 1), radius=radius, fill=fill, outline=edge, width=max(1, w // 60)
    )
    return img


def _draw_index(img: Image.Image, card: Card, scale: float) -> None:
    """Rank and small suit in the top-left corner."""
    d = ImageDraw.Draw(img)
    rank = "10" if card.rank == 10 else card.rank_char
    colour = RED if card.suit in (1, 2) else BLACK
    cx = 17 * scale
    face = font(round((24 if rank == "10" else 28) * scale), bold=True)
    d.text((cx, 21 * scale), rank, fill=colour, font=face, anchor="mm")
    draw_suit(d, card.suit, cx, 47 * scale, 17 * scale)


@lru_cache(maxsize=256)
def card_image(card: Card | None, width: int = CARD_W) -> Image.Image:
    """One card (``None``: face down) as an RGBA image ``width`` wide, 7:5 tall.

    Cached: the 53 faces are drawn once per size, which keeps showdowns fast.
    """
    height = round(width * 1.4)
    k = _SUPERSAMPLE
    w, h = width * k, height * k
    scale = w / CARD_W
    if card is None:
        big = _card_back(w, h)
    else:
        big = _rounded_card(w, h, CARD_FACE, CARD_EDGE)
        _draw_index(big, card, scale)
        big = big.rotate(180)  # the first index lands bottom-right, upside down
        _draw_index(big, card, scale)
        draw_suit(ImageDraw.Draw(big), card.suit, w / 2, h / 2 + 4 * scale, 50 * scale)
    return big.resize((width, height), Image.Resampling.LANCZOS)


def _card_back(w: int, h: int) -> Image.Image:
    img = _rounded_card(w, h, CARD_FACE, CARD_EDGE)
    inset = w // 12
    inner_w, inner_h = w - 2 * inset, h - 2 * inset
    pattern = Image.new("RGBA", (inner_w, inner_h), BACK_BLUE)
    d = ImageDraw.Draw(pattern)
    step = max(6, w // 8)
    line = max(1, w // 70)
    for x in range(-inner_h, inner_w + inner_h, step):
        d.line((x, 0, x + inner_h, inner_h), fill=BACK_LINE, width=line)
        d.line((x, inner_h, x + inner_h, 0), fill=BACK_LINE, width=line)
    cx, cy, r = inner_w / 2, inner_h / 2, inner_w / 5
    d.polygon([(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)], fill=CARD_FACE)
    d.polygon(
        [(cx, cy - r * 0.6), (cx + r * 0.6, cy), (cx, cy + r * 0.6), (cx - r * 0.6, cy)],
        fill=BACK_BLUE,
    )
    mask = Image.new("L", (inner_w, inner_h), 0)
    ImageDraw.Draw(mask).rounded_rectangle(
        (0, 0, inner_w - 1, inner_h - 1), radius=max(2, inner_w // 14), fill=255
    )
    img.paste(pattern, (inset, inset), mask)
    return img


# --- validation and output ----------------------------------------------------------------


def _checked_cards(cards: Sequence[Card | None], what: str) -> list[Card | None]:
    if isinstance(cards, str | bytes) or not isinstance(cards, Sequence):
        raise ValueError(f"{what}: expected a sequence of cards, got {type(cards).__name__}")
    if not cards:
        raise ValueError(f"{what}: no cards to draw (an empty hand)")
    out: list[Card | None] = []
    for c in cards:
        if c is None:
            out.append(None)
        elif isinstance(c, int) and not isinstance(c, bool) and 0 <= c < 52:
            out.append(CARDS[c])
        else:
            raise ValueError(f"{what}: not a card: {c!r}")
    return out


PALETTE_COLOURS = 128
"""Cards on felt need few colours: a 128-colour palette PNG looks the same as the RGB
one, is about a quarter of its size (~10 KB for seven cards: faster to upload and to
download on a phone) and is quicker to encode than the RGB pixels it replaces."""


def png_bytes(img: Image.Image, *, palette: bool = False) -> bytes:
    """PNG without metadata (no time, no text chunks): the same image gives the same bytes.
    ``palette``: quantized to :data:`PALETTE_COLOURS` colours (deterministic)."""
    buf = io.BytesIO()
    if palette:
        img = img.quantize(colors=PALETTE_COLOURS, method=Image.Quantize.FASTOCTREE)
    # Level 3 is several times faster than the default 6 on these flat drawings and the
    # files stay small (tens of KB), far under Discord's upload limit.
    img.save(buf, format="PNG", compress_level=3)
    return buf.getvalue()


def _paste_cards(
    canvas: Image.Image, cards: Sequence[Card | None], x: int, y: int, width: int, gap: int
) -> None:
    for i, card in enumerate(cards):
        face = card_image(card, width)
        canvas.paste(face, (x + i * (width + gap), y), face)


# --- public renderers ---------------------------------------------------------------------


LABEL_SIZE: Final = 20
SD_NAME_SIZE: Final = 20
SD_HAND_SIZE: Final = 18
PICTURE_TEXT_LIMIT: Final = 120
"""Characters of a label or hand name drawn (hand names are far shorter; the cap only keeps
a picture's size bounded whatever text it is given)."""


def _line(text: str, limit: int = PICTURE_TEXT_LIMIT) -> str:
    """One clean line: no control characters or line breaks (Pillow draws a newline as a
    second line, or refuses it with an anchor)."""
    return one_line(text, limit=limit) if text.strip() else ""


def hand_image_size(n_cards: int, *, label: bool | str = False) -> tuple[int, int]:
    """The (width, height) of :func:`render_hand` for ``n_cards`` cards: wide enough for
    the cards and for the whole ``label`` (when given as text), which is never cut."""
    width = 2 * MARGIN + n_cards * CARD_W + (n_cards - 1) * GAP
    if isinstance(label, str) and label.strip():
        need = text_width(_line(label), font(LABEL_SIZE, bold=True))
        width = max(width, 2 * MARGIN + int(need + 0.999))
    height = 2 * MARGIN + CARD_H + (LABEL_H if label else 0)
    return width, height


def render_hand(cards: Sequence[Card | None], *, label: str | None = None) -> bytes:
    """PNG of the cards side by side on felt, with an optional label above them.

    ``None`` entries are drawn face down. Raises ValueError for an empty hand or a non-card.
    """
    checked = _checked_cards(cards, "render_hand")
    has_label = bool(label and label.strip())
    width, height = hand_image_size(len(checked), label=label if has_label and label else False)
    canvas = Image.new("RGB", (width, height), FELT)
    top = MARGIN
    if has_label and label is not None:
        face = font(LABEL_SIZE, bold=True)
        text = _line(label)  # the picture is as wide as the label: never cut
        ImageDraw.Draw(canvas).text((MARGIN, MARGIN + 12), text, fill=TEXT, font=face, anchor="lm")
        top += LABEL_H
    _paste_cards(canvas, checked, MARGIN, top, CARD_W, GAP)
    return png_bytes(canvas, palette=True)


def _showdown_columns(names: Sequence[str], hands: Sequence[str]) -> tuple[int, int]:
    """The widths of the name and hand-name columns: the usual ones, or wider so that no
    name and no hand name is cut."""
    name_font, hand_font = font(SD_NAME_SIZE, bold=True), font(SD_HAND_SIZE)
    name_w = max([SD_NAME_W, *(int(text_width(n, name_font)) + 17 for n in names)])
    hand_w = max([SD_HAND_W, *(int(text_width(h, hand_font)) + 25 for h in hands)])
    return name_w, hand_w


def showdown_image_size(
    n_rows: int,
    max_cards: int,
    *,
    names: Sequence[str] = (),
    hands: Sequence[str] = (),
) -> tuple[int, int]:
    """The (width, height) of :func:`render_showdown` for ``n_rows`` players holding at
    most ``max_cards`` cards, wide enough for the players' ``names`` and ``hands`` names."""
    name_w, hand_w = _showdown_columns(
        [_line(n, NAME_LIMIT) for n in names], [_line(h) for h in hands]
    )
    row_h = SD_CARD_H + 2 * SD_ROW_PAD
    cards_w = max_cards * SD_CARD_W + (max_cards - 1) * SD_GAP
    width = 2 * MARGIN + name_w + cards_w + hand_w + 2 * SD_ROW_PAD
    height = 2 * MARGIN + n_rows * row_h + (n_rows - 1) * SD_ROW_GAP
    return width, height


def render_showdown(
    hands: Sequence[tuple[str, Sequence[Card | None], str]], *, winner_indexes: set[int]
) -> bytes:
    """PNG of a showdown: one row per player (name, cards, hand name); the rows in
    ``winner_indexes`` get a gold border and a WINNER tag.

    Raises ValueError for no hands, an empty hand, a non-card or a winner index out of range.
    """
    if not hands:
        raise ValueError("render_showdown: no hands to show")
    rows = [
        (
            _line(str(name), NAME_LIMIT) or "?",
            _checked_cards(cards, f"render_showdown row {i} ({name!r})"),
            _line(str(hand)),
        )
        for i, (name, cards, hand) in enumerate(hands)
    ]
    bad = sorted(i for i in winner_indexes if not (isinstance(i, int) and 0 <= i < len(rows)))
    if bad:
        raise ValueError(f"render_showdown: winner index {bad[0]} is not one of 0..{len(rows) - 1}")
    max_cards = max(len(cards) for _, cards, _ in rows)
    names, hand_names = [r[0] for r in rows], [r[2] for r in rows]
    width, height = showdown_image_size(len(rows), max_cards, names=names, hands=hand_names)
    name_w, _ = _showdown_columns(names, hand_names)
    canvas = Image.new("RGB", (width, height), FELT)
    draw = ImageDraw.Draw(canvas)
    name_font = font(SD_NAME_SIZE, bold=True)
    hand_font, tag_font = font(SD_HAND_SIZE), font(14, bold=True)
    row_h = SD_CARD_H + 2 * SD_ROW_PAD
    for i, (name, cards, hand) in enumerate(rows):
        top = MARGIN + i * (row_h + SD_ROW_GAP)
        box = (MARGIN, top, width - MARGIN - 1, top + row_h - 1)
        won = i in winner_indexes
        if won:
            draw.rounded_rectangle(box, radius=12, fill=FELT_LIGHT, outline=GOLD, width=4)
        else:
            draw.rounded_rectangle(box, radius=12, outline=FELT_LIGHT, width=2)
        x_name = MARGIN + SD_ROW_PAD + 6
        mid = top + row_h // 2
        name_text = name  # the column is as wide as the widest name: never cut
        draw.text(
            (x_name, mid - (14 if won else 0)), name_text, fill=TEXT, font=name_font, anchor="lm"
        )
        if won:
            tag = "WINNER"
            tw = text_width(tag, tag_font)
            tag_box = (x_name, mid + 8, x_name + tw + 16, mid + 32)
            draw.rounded_rectangle(tag_box, radius=6, fill=GOLD)
            draw.text((x_name + 8, mid + 20), tag, fill=BLACK, font=tag_font, anchor="lm")
        x_cards = MARGIN + SD_ROW_PAD + name_w
        _paste_cards(canvas, cards, x_cards, top + SD_ROW_PAD, SD_CARD_W, SD_GAP)
        x_hand = x_cards + max_cards * SD_CARD_W + (max_cards - 1) * SD_GAP + 16
        hand_text = hand
        draw.text(
            (x_hand, mid), hand_text, fill=GOLD if won else TEXT_DIM, font=hand_font, anchor="lm"
        )
    return png_bytes(canvas, palette=True)
