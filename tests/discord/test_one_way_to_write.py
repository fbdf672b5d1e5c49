"""Issue 12 item 9, "one way to write things": a ten is ``10`` wherever a player reads
cards (codes stay in option values and hand histories); one name per hand in the DM, on
the table and in the pictures; plurals; the discard prompt; the house rules in plain words;
no name cut with "…" in a picture; ``/rules wheelers`` without "did not survive"."""

from __future__ import annotations

import io
import re

from PIL import Image

from bot.engine.actions import ActionOption
from bot.engine.cards import parse_cards
from bot.engine.guts.rules import GutsRules
from bot.engine.hands.low import low_name
from bot.engine.hands.wheelers import wheelers_name
from bot.engine.hands.zoot import zoot_name
from bot.engine.razz.rules import RazzRules
from bot.render import images, rulebook
from bot.render.text import hand_name_text, plural
from bot.tables.games import _cards_text
from bot.tables.views import PrivateView, SeatView, TableView
from cogs._pictures import hand_picture
from cogs._render import house_rule_line, private_embed, seat_lines, table_embed
from tests.discord.conftest import World
from tests.discord.tablebot import table_bot
from tests.discord.test_razz_table import play_razz_hand, start_razz

CODE = re.compile(r"(?<![A-Za-z0-9:])[2-9TJQKA][cdhs](?![A-Za-z0-9])")
TEN = re.compile(r"(?<![A-Za-z0-9])T(?![A-Za-z0-9])")


def _view(seats: tuple[SeatView, ...], rules: tuple[tuple[str, str, str], ...] = ()) -> TableView:
    return TableView(
        table_id=1,
        guild_id=2,
        channel_id=3,
        game="zoot",
        status="running",
        host_id=10,
        version=4,
        practice=False,
        rules=rules,
        seats=seats,
        dealer_seat=0,
        pot=40,
        phase="showdown",
        hand_number=1,
        deadline=None,
        to_act_user_ids=frozenset(),
        public_actions=(),
    )


def _private(cards: str, name: str, options: tuple[ActionOption, ...] = ()) -> PrivateView:
    return PrivateView(
        table_id=1,
        user_id=10,
        seat=0,
        game="zoot",
        version=4,
        cards=tuple(parse_cards(cards)),
        down_cards=(),
        up_cards=(),
        hand_name=name,
        strength=None,
        options=options,
        deadline=None,
        chosen=None,
    )


def test_a_ten_is_written_10_wherever_a_player_reads_cards() -> None:
    assert _cards_text(["Td", "As", "9c"]) == "10♦ A♠ 9♣"  # the result and show lines
    assert hand_name_text(low_name(parse_cards("Tc 9d 3h 2c Ad"))) == "10-9-3-2-A"
    wheel = wheelers_name(parse_cards("9c Td 3h Qc 6d"))
    assert "9-10" in hand_name_text(wheel) and not TEN.search(hand_name_text(wheel))
    pv = _private("9c Td 3h Qc 6d", wheel)
    embed = private_embed(pv).to_dict()
    text = str(embed)
    assert "10♦" in text and "9-10" in text and not TEN.search(text)
    picture = hand_picture(pv)
    assert picture is not None and "9-10" in picture.label


async def test_no_card_code_in_any_message_players_read_in_a_razz_hand(world: World) -> None:
    async with table_bot(world) as bot:
        table, view, _ = await start_razz(world, bot, world.players[:3])
        await play_razz_hand(world, bot, table, view.table_id)
    for message in world.fake.messages.values():
        for version in message.versions:
            texts = [version.content]
            for embed in version.embeds:
                texts += [str(embed.get("title", "")), str(embed.get("description", ""))]
                texts += [str(f.get("value", "")) for f in embed.get("fields", ())]
            for text in texts:
                assert not CODE.search(text), text
                assert not TEN.search(text), text


def test_one_name_per_hand_in_the_dm_the_table_and_the_pictures() -> None:
    name = zoot_name(parse_cards("9s 9h 5c 5s 2s"))
    assert name == "three-suited two pair, nines and fives"
    seats = (
        SeatView(0, 10, "alice", 990, "playing", False, False, hand_name=name),
        SeatView(1, 11, "bob", 990, "playing", False, False, hand_name="high card"),
    )
    lines = seat_lines(_view(seats))
    assert name in lines and "3-suit" not in lines and "&" not in lines
    assert name in str(private_embed(_private("9s 9h 5c 5s 2s", name)).to_dict())
    picture = hand_picture(_private("9s 9h 5c 5s 2s", name))
    assert picture is not None and picture.label.endswith(name)


def test_plurals_say_1_hand_not_1_hands() -> None:
    assert plural(1, "hand") == "1 hand" and plural(2, "hand") == "2 hands"
    assert plural(0, "movement") == "0 movements"


def test_the_discard_prompt_does_not_say_lay_down_now_is_the_time_to_discard() -> None:
    options = (
        ActionOption("lay_down", False, "now is the time to discard one card, not to lay down"),
        ActionOption("play_on", False, "now is the time to discard one card"),
        ActionOption("discard", True, cards=("9s", "2s")),
    )
    now = next(
        f["value"]
        for f in private_embed(_private("9s 9h 5c 5s 2s", "x", options)).to_dict()["fields"]
        if f["name"] == "Now"
    )
    assert "Discard one card" in now
    assert "now is the time" not in now and "Lay down:" not in now and "Play on:" not in now


def test_the_house_rules_line_is_in_plain_words_not_config_names() -> None:
    for rules in (GutsRules(game="zoot"), GutsRules(game="wheelers"), RazzRules()):
        view = _view((), tuple(rules.describe()))
        field = next(f for f in table_embed(view).to_dict()["fields"] if f["name"] == "House rules")
        text = str(field["value"])
        for config_name, _, _ in rules.describe():
            if "_" in config_name and config_name not in ("small_bet", "big_bet"):
                # "excuse matcher ante: off", "laydown order", "decision seconds"…
                assert config_name.replace("_", " ") not in text.lower(), (config_name, text)
        assert "_" not in text
    assert house_rule_line("excuse_matcher_ante", "off") == (
        "Whoever matched the pot **antes as usual** next game"
    )


def test_hand_names_and_labels_are_never_cut_in_the_pictures() -> None:
    long_name = "two-card straight 9-10 and two-card straight 4-5 and odd card K"
    label = f"Wheelers · {long_name}"
    png = images.render_hand(parse_cards("9c Td 4h 5c Kd"), label=label)
    width = Image.open(io.BytesIO(png)).width
    need = images.text_width(label, images.font(images.LABEL_SIZE, bold=True))
    assert width >= need + 2 * images.MARGIN
    rows = [
        ("a player with a long name", parse_cards("9c Td 4h 5c Kd"), long_name),
        ("bob", parse_cards("2c 3d 4h 5s 7c"), "high card"),
    ]
    png = images.render_showdown(rows, winner_indexes={0})
    size = Image.open(io.BytesIO(png)).size
    assert size == images.showdown_image_size(
        2, 5, names=[r[0] for r in rows], hands=[r[2] for r in rows]
    )
    assert size[0] > images.showdown_image_size(2, 5)[0]  # wider than usual: nothing cut


def test_rules_wheelers_does_not_say_its_ranking_table_did_not_survive() -> None:
    text = "\n".join(rulebook.part_text(part) for part in rulebook.PARTS["wheelers"])
    assert "did not survive" not in text
    assert "reading" in text  # RULES 3.5: marked as this bot's reading of the source
