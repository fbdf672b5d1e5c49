"""The /stats picture (bot/render/statcard.py): decodes as a PNG no wider than Discord shows
whole, one or two columns, long names cut to fit, empty cards say so."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.render.statcard import WIDTH, StatRow, render_stat_card, stat_card_size


def decoded(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    img.load()
    return img


def test_a_two_column_card_decodes_at_its_size() -> None:
    rows = [
        StatRow("Hold'em", (), heading=True),
        StatRow("VPIP", ("25.0%", "41.2%"), (0.25, 0.412)),
        StatRow("AF", ("∞", "1.50"), (None, None)),
        StatRow("x" * 300, ("a" * 300, "b")),
    ]
    img = decoded(render_stat_card("alice vs bob · season 1", ["alice" * 30, "bob"], rows))
    assert img.format == "PNG" and img.size == stat_card_size(len(rows))
    assert img.size[0] == WIDTH <= 1500


def test_an_empty_card_and_bad_columns() -> None:
    assert decoded(render_stat_card("nobody", ["carol"], [])).size == stat_card_size(0)
    with pytest.raises(ValueError):
        render_stat_card("three", ["a", "b", "c"], [])
    with pytest.raises(ValueError):
        render_stat_card("short row", ["a", "b"], [StatRow("VPIP", ("1%",))])
