"""The night's picture (bot/render/night.py): a PNG of each player's net, bounded in size
however many played, refusing what is not (name, net, hands)."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.render.night import MAX_ROWS, ROW_H, render_night


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
