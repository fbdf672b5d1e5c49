"""Card, hand and showdown images: size, content, determinism, bad input."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.engine.cards import parse_cards
from bot.render import images
from bot.render.images import (
    CARD_H,
    CARD_W,
    GAP,
    GOLD,
    LABEL_H,
    MARGIN,
    RED,
    SD_CARD_H,
    SD_ROW_GAP,
    SD_ROW_PAD,
    render_hand,
    render_showdown,
)
from tests.render.pngs import colour_count, count_near, open_png, png_chunk_types, spread

ROYAL = parse_cards("As Ks Qs Js Ts")
HEARTS = parse_cards("Ah Kh Qh Jh Th")


@pytest.fixture
def no_dejavu(monkeypatch: pytest.MonkeyPatch):
    """Pretend the system has no DejaVu: Pillow's built-in font must do."""
    monkeypatch.setattr(images, "FONT_DIRS", ())
    images.font.cache_clear()
    images.card_image.cache_clear()
    yield
    images.font.cache_clear()
    images.card_image.cache_clear()


@pytest.mark.parametrize("n", [1, 2, 5, 7])
@pytest.mark.parametrize("label", [None, "Alice — Razz"])
def test_hand_image_size_follows_card_count(n: int, label: str | None) -> None:
    img = open_png(render_hand(parse_cards("As 2h 3d 4c 5s 6h 7d")[:n], label=label))
    # as wide as the cards, or as the label when that is wider (never cut)
    assert img.width >= 2 * MARGIN + n * CARD_W + (n - 1) * GAP
    assert img.size == images.hand_image_size(n, label=label or False)
    if n >= 2:
        assert img.width == 2 * MARGIN + n * CARD_W + (n - 1) * GAP
    assert img.height == 2 * MARGIN + CARD_H + (LABEL_H if label else 0)


def test_hand_image_is_not_blank() -> None:
    img = open_png(render_hand(parse_cards("As Kh Td 2c 7d"), label="Your hand"))
    assert colour_count(img) > 50  # felt, card faces, red and black ink, anti-aliasing
    assert spread(img) > 30


def test_red_ink_only_for_hearts_and_diamonds() -> None:
    assert count_near(open_png(render_hand(HEARTS)), RED) > 500
    assert count_near(open_png(render_hand(parse_cards("Kd 2d"))), RED) > 200
    assert count_near(open_png(render_hand(ROYAL)), RED) == 0
    assert count_near(open_png(render_hand(parse_cards("Ac 2c 9c"))), RED) == 0


def test_different_cards_give_different_images() -> None:
    assert render_hand(ROYAL) != render_hand(HEARTS)
    # Same ranks, one suit changed; same suits, one rank changed.
    assert render_hand(parse_cards("As 2c")) != render_hand(parse_cards("As 2d"))
    assert render_hand(parse_cards("As 2c")) != render_hand(parse_cards("As 3c"))
    assert render_hand(ROYAL) != render_hand(ROYAL, label="Bob")


def test_each_of_the_52_faces_is_distinct() -> None:
    faces = {images.card_image(c).tobytes() for c in parse_cards(_all_cards())}
    assert len(faces) == 52


def _all_cards() -> str:
    return " ".join(r + s for r in "23456789TJQKA" for s in "cdhs")


def test_same_input_gives_same_bytes_even_after_cache_is_cleared() -> None:
    first = render_hand(parse_cards("9h 8c 7s"), label="x")
    images.card_image.cache_clear()
    assert render_hand(parse_cards("9h 8c 7s"), label="x") == first


def test_png_has_no_metadata_chunks() -> None:
    # only the critical chunks: the header, the palette (a 128-colour image), pixels, end
    assert set(png_chunk_types(render_hand(ROYAL))) == {"IHDR", "PLTE", "IDAT", "IEND"}


def test_hand_png_is_a_small_palette_image_that_looks_like_the_rgb_drawing() -> None:
    png = render_hand(parse_cards("As 2d 3c 4h 5s 9c Kd"), label="Razz · first 3 down")
    img = Image.open(io.BytesIO(png))
    assert img.mode == "P" and len(png) < 20_000
    rgb = img.convert("RGB")
    # the felt and a card's white face keep their colours within a few levels
    felt = rgb.getpixel((2, 2))
    assert isinstance(felt, tuple)
    assert all(abs(a - b) <= 8 for a, b in zip(felt, images.FELT, strict=True))


def _rgb_drawing(monkeypatch: pytest.MonkeyPatch, cards: list, **kwargs: object) -> Image.Image:
    """The RGB canvas render_hand draws before it is mapped to its palette."""
    drawn: list[Image.Image] = []
    with monkeypatch.context() as patch:
        patch.setattr(images, "png_bytes", lambda img, **_: drawn.append(img.copy()) or b"")
        render_hand(cards, **kwargs)  # type: ignore[arg-type]
    return drawn[0]


def test_hand_pictures_share_one_palette_that_keeps_every_colour_they_draw(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    razz = render_hand(parse_cards("As 2d 3c 4h 5s 9c Kd"), label="Razz", down=(0, 1, 6))
    board = render_hand(parse_cards("Ah Kh"), label="Hold'em", board=parse_cards("2c 3d 4s"))
    first, second = Image.open(io.BytesIO(razz)), Image.open(io.BytesIO(board))
    assert first.mode == second.mode == "P"
    assert first.getpalette() == second.getpalette() == images.hand_palette().getpalette()
    # each colour of the RGB drawing (felt, faces, ink, the back, the DOWN mark, the label)
    # is shown within a few levels: mapped to the shared palette, not dithered
    hands: list[tuple[list, dict[str, object]]] = [
        (parse_cards("As 2d 3c 4h 5s 9c Kd"), {"label": "Razz", "down": (0, 1, 6)}),
        ([None, *parse_cards("Qh Jc")], {"label": "Seven-card stud · first 2 down"}),
    ]
    for cards, kwargs in hands:
        rgb = _rgb_drawing(monkeypatch, cards, **kwargs)
        shown = open_png(render_hand(cards, **kwargs))  # type: ignore[arg-type]
        worst = max(abs(a - b) for a, b in zip(rgb.tobytes(), shown.tobytes(), strict=True))
        assert worst <= 40, worst  # antialiased edges move most; flat colours far less
        assert count_near(shown, RED, tol=8) > 200


def test_razz_down_cards_drawn_face_down_for_others() -> None:
    shown = parse_cards("Ah 2c 7d")
    hidden = render_hand([None, None, *shown])
    assert hidden != render_hand([*parse_cards("3s 4s"), *shown])
    img = open_png(hidden)
    back = img.crop((MARGIN, MARGIN, MARGIN + CARD_W, MARGIN + CARD_H))
    second = img.crop((MARGIN + CARD_W + GAP, MARGIN, MARGIN + 2 * CARD_W + GAP, MARGIN + CARD_H))
    assert back.tobytes() == second.tobytes()  # every card back looks the same
    assert count_near(back, RED) == 0


def test_cards_render_without_dejavu_font(no_dejavu: None) -> None:
    assert images.font(20).getname()[0] != "DejaVu Sans"
    img = open_png(render_hand(parse_cards("As Kh Td 2c")))
    assert img.size == (2 * MARGIN + 4 * CARD_W + 3 * GAP, 2 * MARGIN + CARD_H)
    assert count_near(img, RED) > 200 and spread(img) > 30
    # The four suits are shapes, so they differ even though the rank is the same.
    faces = {images.card_image(c).tobytes() for c in parse_cards("7c 7d 7h 7s")}
    assert len(faces) == 4


@pytest.mark.parametrize("bad", [[], (), [None, 52], [0, True], ["As"], "As Kd"])
def test_render_hand_rejects_bad_input(bad: object) -> None:
    with pytest.raises(ValueError, match="render_hand: "):
        render_hand(bad)  # type: ignore[arg-type]


def test_empty_hand_message() -> None:
    with pytest.raises(ValueError, match=r"no cards to draw \(an empty hand\)"):
        render_hand([])


SIX = [
    ("Alice", parse_cards("As Ks Qs Js Ts"), "One suit"),
    ("Bob", parse_cards("2h 3h 4h 5h 7d"), "Two suits"),
    ("Carol", parse_cards("2c 3d 4h 5s 7c"), "Four suits"),
    ("Dave", parse_cards("8c 8d 8h 9s 9c"), "Three suits"),
    ("Eve", parse_cards("6c 6d 6h 6s Ac"), "Four suits"),
    ("Frank with a very long name indeed", parse_cards("Qc Qd Kh Ks Ad"), "Three suits"),
]


def row_band(img, i: int):
    row_h = SD_CARD_H + 2 * SD_ROW_PAD
    top = MARGIN + i * (row_h + SD_ROW_GAP)
    return img.crop((0, top, img.width, top + row_h))


def test_showdown_size_and_winner_marked_in_gold() -> None:
    img = open_png(render_showdown(SIX, winner_indexes={0}))
    row_h = SD_CARD_H + 2 * SD_ROW_PAD
    assert img.height == 2 * MARGIN + 6 * row_h + 5 * SD_ROW_GAP
    assert img.size == images.showdown_image_size(
        6, 5, names=[r[0] for r in SIX], hands=[r[2] for r in SIX]
    )
    assert count_near(row_band(img, 0), GOLD, tol=10) > 500  # border, tag, hand name
    for i in range(1, 6):
        assert count_near(row_band(img, i), GOLD, tol=10) == 0


def test_showdown_split_pot_marks_every_winner() -> None:
    img = open_png(render_showdown(SIX, winner_indexes={1, 4}))
    golds = [count_near(row_band(img, i), GOLD, tol=10) for i in range(6)]
    assert [g > 500 for g in golds] == [False, True, False, False, True, False]


def test_showdown_rows_may_hold_different_numbers_of_cards() -> None:
    rows = [
        ("Ann", [None, None, *parse_cards("As 2d 3c 4h 5s")], "5-4-3-2-A"),
        ("Ben", parse_cards("Kd Kc"), "mucked"),
    ]
    img = open_png(render_showdown(rows, winner_indexes={0}))
    assert img.size == images.showdown_image_size(2, 7)
    assert spread(img) > 30 and colour_count(img) > 50


def test_showdown_deterministic_and_sensitive_to_input() -> None:
    a = render_showdown(SIX, winner_indexes={2})
    assert a == render_showdown(SIX, winner_indexes={2})
    assert a != render_showdown(SIX, winner_indexes={3})
    assert a != render_showdown([*SIX[:5], ("Frank", SIX[5][1], "Three suits")], winner_indexes={2})


@pytest.mark.parametrize(
    ("hands", "winners", "message"),
    [
        ([], set(), "no hands to show"),
        ([("Ann", [], "nothing")], set(), r"row 0 \('Ann'\): no cards to draw"),
        ([("Ann", parse_cards("As"), "x")], {1}, r"winner index 1 is not one of 0\.\.0"),
        ([("Ann", parse_cards("As"), "x")], {-1}, "winner index -1"),
    ],
)
def test_render_showdown_rejects_bad_input(hands, winners, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        render_showdown(hands, winner_indexes=winners)
