"""A click's objects are freed by reference counting, not left for the cycle collector:
at 50 tables the views, uploads and interactions of a run left ~96,000 objects in
reference cycles, and the collector's pauses landed inside bursts of clicks
(bench/interactions.py). Checked with the collector off: what is freed then was in no
cycle."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import discord
import pytest

from bot.engine.cards import parse_cards
from cogs._files import upload
from cogs._items import DiscardSelect, RoutedView, TableButton


@pytest.fixture
def no_collector() -> Iterator[None]:
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def test_a_routed_view_is_freed_once_serialized(no_collector: None) -> None:
    ui = RoutedView(timeout=None)
    ui.add_item(TableButton.make(7, 3, "check", label="Check", style=discord.ButtonStyle.primary))
    ui.add_item(DiscardSelect.make(7, 3, parse_cards("As 2d 3c"), None, arg="w1"))
    rows = ui.to_components()
    assert [c["custom_id"] for row in rows for c in row["components"]] == [
        "hg:7:3:check",
        "hg:7:3:discard:w1",
    ]
    gone = weakref.ref(ui)
    del ui
    assert gone() is None  # freed at once: no item refers back to it


def test_an_upload_frees_its_bytes_once_closed(no_collector: None) -> None:
    file = upload(b"\x89PNG picture", "hand.png", description="your hand")
    fp = file.fp
    assert fp.read() == b"\x89PNG picture" and file.description == "your hand"
    fp.seek(0)
    gone = weakref.ref(fp)
    file.close()  # what discord.py does once the request is sent
    del file, fp
    assert gone() is None
