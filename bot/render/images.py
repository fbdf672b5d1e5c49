"""Cards, hands and showdowns as PNG images, drawn with Pillow (no Discord, no downloads).

Everything is drawn here: rounded white cards, the rank in a font, and the suit symbols as
polygons and ellipses, so a font without ♠ ♥ ♦ ♣ glyphs still gives proper cards. ``None``
in a card sequence is a face-down card (a Razz down card shown to the other players).

The output is deterministic: the same input gives the same bytes (Pillow writes no
timestamp into a PNG unless asked to; the card faces are cached, but drawn the same way
each time). Fonts: DejaVu when the system has it, else Pillow's built-in scalable font.
Text is drawn only with characters the font has (:func:`drawable`: an emoji in a name
would be a box), and no picture is wider than :data:`MAX_WIDTH` (long names and labels
are shortened with "...").
"""

from __future__ import annotations

import io
import unicodedata
from collections.abc import Collection, Mapping, Sequence
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

MAX_WIDTH: Final = 1500
"""No picture is wider (long names and labels are shortened to fit): a wide picture is
scaled down on a phone until its cards are too small to read."""
BOARD_GAP: Final = 28
"""Between a player's own cards and the board in a hand picture."""
DOWN_TAG: Final = "DOWN"
"""The mark on a stud down card (a card only its owner saw until the showdown)."""


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


_NOT_A_GLYPH = "\U0010fffd"
"""A private-use code point no font draws: what a missing character looks like."""
_INVISIBLE = frozenset("\u200d\ufe0e\ufe0f")  # joiner, text/emoji presentation selectors


@lru_cache(maxsize=8)
def _basic(face: Font) -> Font | None:
    """``face`` laid out one character at a time (no shaping), to test single glyphs."""
    if not isinstance(face, ImageFont.FreeTypeFont):
        return None
    try:
        return face.font_variant(layout_engine=ImageFont.Layout.BASIC)
    except (OSError, ValueError):
        return None


def _glyph(face: Font, ch: str) -> tuple[tuple[int, int], bytes]:
    mask = face.getmask(ch)
    return mask.size, bytes(mask)


@lru_cache(maxsize=8192)
def _can_draw(face: Font, ch: str) -> bool:
    """Whether ``face`` has a glyph for ``ch`` (not the box of a missing one)."""
    if ch.isascii():
        return ch.isprintable()
    basic = _basic(face)
    if basic is None:
        return False  # Pillow's bitmap font: ASCII only
    try:
        return _glyph(basic, ch) != _glyph(basic, _NOT_A_GLYPH)
    except (OSError, ValueError):
        return False


def drawable(text: str, face: Font) -> str:
    """``text`` with only what ``face`` can draw: an accented letter the font lacks
    becomes its plain letter ("é" -> "e"), anything else it lacks (emoji, a script it
    has no glyphs for) is left out, never drawn as a box; spacing is tidied after.

    >>> drawable("bob 🎲", font(20)), drawable("🎲", font(20))
    ('bob', '')
    """
    out: list[str] = []
    for ch in text:
        if ch in _INVISIBLE or unicodedata.category(ch) in ("Cs", "Co", "Cn"):
            continue
        if _can_draw(face, ch):
            out.append(ch)
            continue
        plain = unicodedata.normalize("NFKD", ch)
        out.extend(c for c in plain if not unicodedata.combining(c) and _can_draw(face, c))
    return " ".join("".join(out).split())


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


def png_bytes(img: Image.Image, *, palette: bool | Image.Image = False) -> bytes:
    """PNG without metadata (no time, no text chunks): the same image gives the same bytes.
    ``palette``: quantized to :data:`PALETTE_COLOURS` colours (deterministic), or mapped
    to the colours of the given palette image (:func:`hand_palette`)."""
    buf = io.BytesIO()
    if isinstance(palette, Image.Image):
        img = img.quantize(palette=palette, dither=Image.Dither.NONE)
    elif palette:
        img = img.quantize(colors=PALETTE_COLOURS, method=Image.Quantize.FASTOCTREE)
    # Level 3 is several times faster than the default 6 on these flat drawings and the
    # files stay small (tens of KB), far under Discord's upload limit.
    img.save(buf, format="PNG", compress_level=3)
    return buf.getvalue()


@lru_cache(maxsize=1)
def hand_palette() -> Image.Image:
    """The :data:`PALETTE_COLOURS` colours of every hand picture, chosen once per process
    from a drawing of all they can show: each card face and the back, the DOWN mark, a
    label and the captions on felt. A hand picture is then mapped to these colours, about
    a fifth of the work of choosing a palette for each picture anew (~0.4 ms against ~2
    ms for seven cards: the picture drawn at every street of every player's hand DM)."""
    faces: list[Card | None] = [*CARDS, None]
    columns = 14
    rows = -(-len(faces) // columns)
    width = 2 * MARGIN + columns * (CARD_W + GAP)
    height = LABEL_H + CAPTION_H + rows * (CARD_H + GAP) + 2 * MARGIN
    canvas = Image.new("RGB", (width, height), FELT)
    draw = ImageDraw.Draw(canvas)
    label = font(LABEL_SIZE, bold=True)
    draw.text(
        (MARGIN, MARGIN + 12), "Razz · Hold'em 0123456789", fill=TEXT, font=label, anchor="lm"
    )
    caption = font(CAPTION_SIZE, bold=True)
    draw.text((MARGIN, LABEL_H + 9), "Your cards  Board", fill=TEXT_DIM, font=caption, anchor="lm")
    top = LABEL_H + CAPTION_H
    for row in range(rows):
        y = top + row * (CARD_H + GAP)
        _paste_cards(canvas, faces[row * columns : (row + 1) * columns], MARGIN, y, CARD_W, GAP)
        _mark_down(canvas, MARGIN, y, CARD_W, CARD_H)
    return canvas.quantize(colors=PALETTE_COLOURS, method=Image.Quantize.FASTOCTREE)


def _paste_cards(
    canvas: Image.Image, cards: Sequence[Card | None], x: int, y: int, width: int, gap: int
) -> None:
    for i, card in enumerate(cards):
        face = card_image(card, width)
        canvas.paste(face, (x + i * (width + gap), y), face)


# --- public renderers ---------------------------------------------------------------------


LABEL_SIZE: Final = 20
CAPTION_SIZE: Final = 15
CAPTION_H: Final = 22
SD_NAME_SIZE: Final = 20
SD_HAND_SIZE: Final = 18
TAG_SIZE: Final = 14
PICTURE_TEXT_LIMIT: Final = 120
"""Characters of a label or hand name drawn (hand names are far shorter; the cap only keeps
a picture's size bounded whatever text it is given)."""


def _line(text: str, limit: int = PICTURE_TEXT_LIMIT, face: Font | None = None) -> str:
    """One clean line: no control characters or line breaks (Pillow draws a newline as a
    second line, or refuses it with an anchor), and with ``face`` only what it can draw."""
    line = one_line(text, limit=limit) if text.strip() else ""
    return line if face is None else drawable(line, face)


def _mark_down(canvas: Image.Image, x: int, y: int, width: int, height: int) -> None:
    """The stud down-card mark: a dark strip across the card's foot reading DOWN."""
    strip = max(14, height // 6)
    bottom = y + height - 1 - max(2, width // 10)  # above the card's rounded corners
    draw = ImageDraw.Draw(canvas)
    draw.rectangle((x + 1, bottom - strip, x + width - 2, bottom), fill=BACK_BLUE)
    face = font(max(9, strip - 5), bold=True)
    draw.text((x + width / 2, bottom - strip / 2), DOWN_TAG, fill=TEXT, font=face, anchor="mm")


def hand_image_size(
    n_cards: int, *, label: bool | str = False, board: int = 0, captions: bool = False
) -> tuple[int, int]:
    """The (width, height) of :func:`render_hand` for ``n_cards`` cards (and ``board``
    cards apart from them): wide enough for the cards and for the whole ``label`` (when
    given as text), up to :data:`MAX_WIDTH` (a longer label is shortened)."""
    width = 2 * MARGIN + n_cards * CARD_W + (n_cards - 1) * GAP
    if board:
        width += BOARD_GAP + board * CARD_W + (board - 1) * GAP
    if isinstance(label, str) and label.strip():
        face = font(LABEL_SIZE, bold=True)
        need = text_width(_line(label, face=face), face)
        width = max(width, min(MAX_WIDTH, 2 * MARGIN + int(need + 0.999)))
    height = 2 * MARGIN + CARD_H + (LABEL_H if label else 0) + (CAPTION_H if captions else 0)
    return width, height


def render_hand(
    cards: Sequence[Card | None],
    *,
    label: str | None = None,
    down: Collection[int] = (),
    board: Sequence[Card] = (),
) -> bytes:
    """PNG of the cards side by side on felt, with an optional label above them.

    ``None`` entries are drawn face down. ``down``: the indexes of stud down cards (their
    owner sees them; each is marked DOWN). ``board``: the community cards (Hold'em, Omaha),
    drawn apart after the hand, each group captioned. Raises ValueError for an empty hand
    or a non-card.
    """
    checked = _checked_cards(cards, "render_hand")
    shared = _checked_cards(board, "render_hand board") if board else []
    has_label = bool(label and label.strip())
    width, height = hand_image_size(
        len(checked),
        label=label if has_label and label else False,
        board=len(shared),
        captions=bool(shared),
    )
    canvas = Image.new("RGB", (width, height), FELT)
    draw = ImageDraw.Draw(canvas)
    top = MARGIN
    if has_label and label is not None:
        face = font(LABEL_SIZE, bold=True)
        text = fit_text(_line(label, face=face), face, width - 2 * MARGIN)
        draw.text((MARGIN, MARGIN + 12), text, fill=TEXT, font=face, anchor="lm")
        top += LABEL_H
    board_x = MARGIN + len(checked) * (CARD_W + GAP) - GAP + BOARD_GAP
    if shared:
        face = font(CAPTION_SIZE, bold=True)
        draw.text((MARGIN, top + 9), "Your cards", fill=TEXT_DIM, font=face, anchor="lm")
        draw.text((board_x, top + 9), "Board", fill=TEXT_DIM, font=face, anchor="lm")
        top += CAPTION_H
    _paste_cards(canvas, checked, MARGIN, top, CARD_W, GAP)
    for i in sorted(set(down)):
        if 0 <= i < len(checked):
            _mark_down(canvas, MARGIN + i * (CARD_W + GAP), top, CARD_W, CARD_H)
    if shared:
        _paste_cards(canvas, shared, board_x, top, CARD_W, GAP)
    return png_bytes(canvas, palette=hand_palette())


def _showdown_columns(
    names: Sequence[str], hands: Sequence[str], tags: Sequence[str] = (), *, room: int = 0
) -> tuple[int, int]:
    """The widths of the name and hand-name columns: the usual ones, or wider so that no
    name, tag and hand name is cut; with ``room`` (the pixels both may take together)
    narrower again, the wider one first, down to the usual widths."""
    name_font, hand_font = font(SD_NAME_SIZE, bold=True), font(SD_HAND_SIZE)
    tag_font = font(TAG_SIZE, bold=True)
    name_w = max(
        [
            SD_NAME_W,
            *(int(text_width(n, name_font)) + 17 for n in names),
            *(int(text_width(t, tag_font)) + 33 for t in tags),
        ]
    )
    hand_w = max([SD_HAND_W, *(int(text_width(h, hand_font)) + 25 for h in hands)])
    if room and name_w + hand_w > room:
        # the wider column gives up its extra width first, then the other
        widths = {"name": (name_w, SD_NAME_W), "hand": (hand_w, SD_HAND_W)}
        for key in sorted(widths, key=lambda k: widths[k][0] - widths[k][1], reverse=True):
            excess = widths["name"][0] + widths["hand"][0] - room
            have, least = widths[key]
            widths[key] = (max(least, have - max(0, excess)), least)
        name_w, hand_w = widths["name"][0], widths["hand"][0]
    return name_w, hand_w


def _fixed_width(max_cards: int) -> int:
    """What a showdown's width holds besides the two text columns."""
    cards_w = max_cards * SD_CARD_W + (max_cards - 1) * SD_GAP
    return 2 * MARGIN + cards_w + 2 * SD_ROW_PAD


def showdown_image_size(
    n_rows: int,
    max_cards: int,
    *,
    names: Sequence[str] = (),
    hands: Sequence[str] = (),
    tags: Sequence[str] = (),
) -> tuple[int, int]:
    """The (width, height) of :func:`render_showdown` for ``n_rows`` players holding at
    most ``max_cards`` cards, wide enough for the players' ``names``, winner ``tags`` and
    ``hands`` names, and never wider than :data:`MAX_WIDTH`."""
    name_font, hand_font = font(SD_NAME_SIZE, bold=True), font(SD_HAND_SIZE)
    name_w, hand_w = _showdown_columns(
        [_line(n, NAME_LIMIT, name_font) for n in names],
        [_line(h, face=hand_font) for h in hands],
        tags,
        room=MAX_WIDTH - _fixed_width(max_cards),
    )
    row_h = SD_CARD_H + 2 * SD_ROW_PAD
    width = _fixed_width(max_cards) + name_w + hand_w
    height = 2 * MARGIN + n_rows * row_h + (n_rows - 1) * SD_ROW_GAP
    return width, height


WINNER_TAG: Final = "WINNER"


def render_showdown(
    hands: Sequence[tuple[str, Sequence[Card | None], str]],
    *,
    winner_indexes: set[int],
    badges: Mapping[int, str] | None = None,
    down: Mapping[int, Collection[int]] | None = None,
) -> bytes:
    """PNG of a showdown: one row per player (name, cards, hand name); the rows in
    ``winner_indexes`` get a gold border and a tag, ``WINNER`` or their ``badges`` text
    (which pot they won: "WINNER · SIDE POT 1"). ``down``: by row, the indexes of its
    stud down cards, each marked DOWN. Names and hand names too wide for
    :data:`MAX_WIDTH` are shortened with "...".

    Raises ValueError for no hands, an empty hand, a non-card or a winner index out of range.
    """
    if not hands:
        raise ValueError("render_showdown: no hands to show")
    name_font = font(SD_NAME_SIZE, bold=True)
    hand_font, tag_font = font(SD_HAND_SIZE), font(TAG_SIZE, bold=True)
    rows = [
        (
            _line(str(name), NAME_LIMIT, name_font) or "?",
            _checked_cards(cards, f"render_showdown row {i} ({name!r})"),
            _line(str(hand), face=hand_font),
        )
        for i, (name, cards, hand) in enumerate(hands)
    ]
    bad = sorted(i for i in winner_indexes if not (isinstance(i, int) and 0 <= i < len(rows)))
    if bad:
        raise ValueError(f"render_showdown: winner index {bad[0]} is not one of 0..{len(rows) - 1}")
    tags = {
        i: _line((badges or {}).get(i, WINNER_TAG), 60, tag_font) or WINNER_TAG
        for i in winner_indexes
    }
    max_cards = max(len(cards) for _, cards, _ in rows)
    names, hand_names = [r[0] for r in rows], [r[2] for r in rows]
    name_w, hand_w = _showdown_columns(
        names, hand_names, list(tags.values()), room=MAX_WIDTH - _fixed_width(max_cards)
    )
    width = _fixed_width(max_cards) + name_w + hand_w
    row_h = SD_CARD_H + 2 * SD_ROW_PAD
    height = 2 * MARGIN + len(rows) * row_h + (len(rows) - 1) * SD_ROW_GAP
    canvas = Image.new("RGB", (width, height), FELT)
    draw = ImageDraw.Draw(canvas)
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
        # cut only past MAX_WIDTH (the columns are whole pixels: a fraction more fits)
        name_text = fit_text(name, name_font, name_w - 16)
        draw.text(
            (x_name, mid - (14 if won else 0)), name_text, fill=TEXT, font=name_font, anchor="lm"
        )
        if won:
            tag = fit_text(tags[i], tag_font, name_w - 32)
            tw = text_width(tag, tag_font)
            tag_box = (x_name, mid + 8, x_name + tw + 16, mid + 32)
            draw.rounded_rectangle(tag_box, radius=6, fill=GOLD)
            draw.text((x_name + 8, mid + 20), tag, fill=BLACK, font=tag_font, anchor="lm")
        x_cards = MARGIN + SD_ROW_PAD + name_w
        y_cards = top + SD_ROW_PAD
        _paste_cards(canvas, cards, x_cards, y_cards, SD_CARD_W, SD_GAP)
        for k in sorted(set((down or {}).get(i, ()))):
            if 0 <= k < len(cards) and cards[k] is not None:
                _mark_down(
                    canvas, x_cards + k * (SD_CARD_W + SD_GAP), y_cards, SD_CARD_W, SD_CARD_H
                )
        x_hand = x_cards + max_cards * SD_CARD_W + (max_cards - 1) * SD_GAP + 16
        hand_text = fit_text(hand, hand_font, hand_w - 24)
        draw.text(
            (x_hand, mid), hand_text, fill=GOLD if won else TEXT_DIM, font=hand_font, anchor="lm"
        )
    return png_bytes(canvas, palette=True)
