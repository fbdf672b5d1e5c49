"""The night's picture (bot/render/night.py): a PNG of each player's net, bounded in size
however many played, refusing what is not (name, net, hands)."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.render.night import LINE_H, MAX_LINES, MAX_ROWS, ROW_H, render_night


def _image(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    img.load()
    return img


def test_night_picture_draws_winners_green_and_losers_red() -> None:
    rows = [("alice", 90, 2), ("carol", 20, 2), ("dave\nnewline", -30, 1), ("bob", -80, 2)]
    img = _image(render_night(rows, title="Night #1", footer="Biggest pot: 120 chips")).convert(
        "RGB"
    )
    assert img.width == 800
    colours = {img.getpixel((x, y)) for x in range(0, 800, 2) for y in range(0, img.height, 2)}
    assert (88, 201, 125) in colours and (237, 95, 95) in colours


def test_night_picture_of_many_players_stays_bounded() -> None:
    few = _image(render_night([("a", 1, 1), ("b", -1, 1)], title="t"))
    many = _image(render_night([(f"p{i}", i - 30, i) for i in range(61)], title="t"))
    assert many.height - few.height == (MAX_ROWS + 1 - 2) * ROW_H
    assert _image(render_night([], title="nobody")).height > 0


@pytest.mark.parametrize(
    "rows",
    [[("a", 1.5, 1)], [("a", 1, True)], [(5, 1, 1)], [("a", 1)], "abc"],
)
def test_night_picture_refuses_rows_that_are_not_name_net_hands(rows: object) -> None:
    with pytest.raises(ValueError, match="render_night"):
        render_night(rows, title="x")  # type: ignore[arg-type]


def test_the_receipt_adds_the_expenses_and_transfers_below_the_nets() -> None:
    rows = [("ann", 1000, 0), ("bob", -1000, 0)]
    plain = _image(render_night(rows, title="Night #2"))
    receipt = _image(
        render_night(
            rows,
            title="Night #2",
            expenses=[("pizza: €30.00, paid by ann, shared by everyone", False)],
            transfers=[("1. bob pays ann €10.00", True), ("2. cy pays ann €5.00", False)],
            amounts=["+€10.00", "-€10.00"],
            details=["in €20.00", "in €40.00"],
        )
    )
    # two headings and three lines, each LINE_H high, plus the sections' spacing
    assert receipt.height - plain.height == 2 * 12 + (1 + 1 + 1 + 2) * LINE_H
    assert receipt.width == plain.width == 800
    # a paid transfer is ticked and written green
    rgb = receipt.convert("RGB")
    colours = {rgb.getpixel((x, y)) for x in range(0, 800, 2) for y in range(0, rgb.height, 2)}
    assert (88, 201, 125) in colours
    many = _image(render_night(rows, title="t", transfers=[(f"t{i}", False) for i in range(90)]))
    assert many.height < 2 * (MAX_LINES + 2) * LINE_H + plain.height


@pytest.mark.parametrize(
    "kwargs",
    [
        {"expenses": [("x", "no")]},
        {"transfers": "abc"},
        {"amounts": ["+1"]},
        {"details": [1, 2]},
    ],
)
def test_the_receipt_refuses_lines_that_are_not_text_and_done(kwargs: dict[str, object]) -> None:
    with pytest.raises(ValueError, match="render_night"):
        render_night([("a", 1, 1), ("b", -1, 1)], title="x", **kwargs)  # type: ignore[arg-type]
