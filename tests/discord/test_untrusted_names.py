"""Untrusted display names (issue 11): a name goes into public text, embeds and pictures.
Markdown in it stays text (no link), control characters and line breaks are dropped (a
newline broke the picture), mentions stay inert; one function (``safe_name``) on the way
in, ``plain_name`` for pictures and code blocks."""

from __future__ import annotations

import io
import re

import pytest
from PIL import Image

from bot.engine.cards import parse_cards
from bot.render.images import render_hand, render_showdown
from bot.render.text import NAME_LIMIT, one_line, plain_name, safe_name
from tests.discord.conftest import World
from tests.discord.tablebot import eventually, field, table_bot

LINK = "[Free chips](https://chips.example/x)"
EVIL = f"{LINK}\n@everyone <@123>\x07\u202e"


def test_a_markdown_link_in_a_name_is_text_not_a_link() -> None:
    safe = safe_name(LINK)
    assert "](" not in safe and "\\[Free chips\\]\\(https\\://" in safe
    assert plain_name(safe) == LINK[:NAME_LIMIT]


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("ali\nce", "ali ce"),
        ("bob\r\n\tsmith", "bob smith"),
        ("nul\x00bell\x07", "nulbell"),
        ("rtl\u202eevil", "rtlevil"),
        ("line\u2028sep", "line sep"),
        ("  \n ", "?"),
        ("👨‍👩‍👧 family", "👨‍👩‍👧 family"),
    ],
)
def test_control_characters_and_newlines_are_stripped_from_names(raw: str, clean: str) -> None:
    assert one_line(raw) == clean
    assert plain_name(safe_name(raw)) == clean
    assert "\n" not in safe_name(raw)


@pytest.mark.parametrize("raw", ["@everyone", "@here", "<@123>", "<@&456>", "<#789>"])
def test_mentions_in_names_stay_inert(raw: str) -> None:
    safe = safe_name(raw)
    # every "@" and "<" escaped: Discord shows them as text, never as a mention
    assert not re.search(r"(?<!\\)[@<#]", safe)
    assert plain_name(safe) == raw


def test_a_name_is_capped_at_discords_length() -> None:
    assert len(plain_name(safe_name("x" * 200))) == NAME_LIMIT


def test_showdown_picture_with_a_newline_and_markdown_in_the_name_is_drawn() -> None:
    cards = parse_cards("As Ks Qs Js Ts")
    png = render_showdown(
        [(EVIL, cards, "one suit\nsecond line"), ("bob", parse_cards("2h 3h 4h 5h 7d"), "two")],
        winner_indexes={0},
    )
    assert Image.open(io.BytesIO(png)).size[1] > 0
    # the same picture as for the cleaned name: the control characters changed nothing
    assert png == render_showdown(
        [
            (one_line(EVIL), cards, "one suit second line"),
            ("bob", parse_cards("2h 3h 4h 5h 7d"), "two"),
        ],
        winner_indexes={0},
    )
    assert render_hand(cards, label=f"{EVIL} — Zoot")  # a label with a newline: drawn too


async def test_a_hostile_name_at_a_table_is_plain_text_everywhere(world: World) -> None:
    fake = world.fake
    mallory = fake.add_user(EVIL)
    fake.add_member(world.guild, mallory)
    async with table_bot(world, autostart_delay=60):
        reply = await (
            await fake.invoke(world.alice, world.channel, "zoot", {"ante": 10})
        ).response()
        table = reply.message
        assert table is not None
        joined = await (await fake.click_label(mallory, table, "Join")).response()
        assert joined.updated_message
        seats = await eventually(lambda: field(table, "Seats"), what="the seats")
        assert "[Free chips" in seats and "\\[" not in seats  # a code block: no escapes
        assert "\n@everyone" not in seats and "\x07" not in seats
        texts = [str(e.get("description", "")) for e in table.embeds]
        texts += [str(f.get("value")) for e in table.embeds for f in e.get("fields", ())]
        outside_code = [t for t in texts if "```" not in t]
        for text in outside_code:
            assert "](https://" not in text and "\x07" not in text
            assert "@everyone" not in text.replace("\\@everyone", "")
            assert "<@123>" not in text
        recent = field(table, "Recent") or ""
        assert "\\[Free chips\\]" in recent  # "… joined": the name as text, escaped
