"""Issue 19, item 13 ("Pictures"): what the card pictures show, decoded from their PNGs.

- two WINNER badges say which pot each won (a Hold'em side pot, from the real engine);
- stud pictures mark the down cards (the hand DM's and the showdown's);
- the Hold'em hand picture shows the board, apart from the hole cards;
- a name with emoji is drawn without boxes (what the font cannot draw is left out), and
  long names and hand names never stretch a picture past 1,500 pixels.
"""

from __future__ import annotations

import dataclasses

import pytest

from bot.engine.actions import Action
from bot.engine.cards import parse_card, parse_cards
from bot.engine.flop import FlopHand
from bot.render import images
from bot.render.images import MAX_WIDTH, drawable, font, render_hand, render_showdown
from bot.tables.flop import FlopFamily
from bot.tables.games import make_family
from bot.tables.views import PrivateView, Published, SeatView, TableView
from cogs._pictures import hand_picture, showdown_picture
from tests.render.pngs import count_near, open_png

ALICE, BOB, CAROL = 1, 2, 3


def _deck(cards: str) -> list:
    codes = [cards[i : i + 2] for i in range(0, len(cards), 2)]
    deck = [parse_card(c) for c in codes]
    rest = [parse_card(r + s) for r in "23456789TJQKA" for s in "cdhs"]
    return deck + [c for c in rest if c not in deck]


def _view(game: str, seats: tuple[SeatView, ...], community=()) -> TableView:
    return TableView(
        table_id=1, guild_id=2, channel_id=3, game=game, status="running", host_id=ALICE,
        version=9, practice=False, rules=(), seats=seats, dealer_seat=None, pot=0,
        phase="showdown", hand_number=1, deadline=None, to_act_user_ids=frozenset(),
        public_actions=(), community=tuple(community),
    )  # fmt: skip


def _seat(seat: int, name: str, up: str = "") -> SeatView:
    return SeatView(
        seat=seat, user_id=seat, name=name, stack=0, status="playing", is_computer=False,
        to_act=False, up_cards=tuple(parse_cards(up)) if up else (),
    )  # fmt: skip


def side_pot_hand() -> tuple[FlopFamily, list]:
    """Alice (100 chips) is all in before the flop; Carol raises to 200, Bob calls: a main
    pot of 300 for all three and a side pot of 200 for Bob and Carol. Alice's three kings
    take the main pot, Bob's pair of aces the side pot."""
    fam = make_family("holdem", {})
    assert isinstance(fam, FlopFamily)
    # hole cards to positions 0, 1, 2 (small blind, big blind, button), then the board
    deck = _deck("KsKh" + "AcAd" + "QcJd" + "Kd7c2s" + "9h" + "4c")
    fam.engine = FlopHand(fam.rules, [(ALICE, 100), (BOB, 500), (CAROL, 500)], CAROL, deck=deck)
    fam.last_button = CAROL
    events = list(fam.engine.start())
    events += fam.apply(Action(CAROL, "raise", amount=200))
    events += fam.apply(Action(ALICE, "call"))
    events += fam.apply(Action(BOB, "call"))
    while not fam.hand_over:
        (seat,) = fam.to_act()
        events += fam.apply(Action(seat, "check"))
    return fam, events


def test_issue19_item13_two_winner_badges_say_which_pot() -> None:
    fam, events = side_pot_hand()
    awards = {(e.data["seat"], e.data.get("pot")) for e in events if e.kind == "award"}
    assert awards == {(ALICE, 0), (BOB, 1)}, awards
    seats = (_seat(ALICE, "alice"), _seat(BOB, "bob"), _seat(CAROL, "carol"))
    view = _view("holdem", seats, community=fam.community())
    picture = showdown_picture(Published(view, tuple(events), {s.seat: s.user_id for s in seats}))
    assert picture is not None
    names = [row[0] for row in picture.hands]
    assert names == ["Board", "alice", "bob", "carol"]
    badges = dict(picture.badges)
    assert badges == {1: "WINNER · MAIN POT", 2: "WINNER · SIDE POT 1"}, badges
    assert picture.winners == {1, 2}
    # the tags are drawn: the picture differs from one with two bare WINNER badges
    kwargs = picture.render_kwargs()
    named = render_showdown(picture.hands, **kwargs)
    bare = render_showdown(picture.hands, winner_indexes=set(picture.winners))
    assert named != bare
    assert open_png(named).width <= MAX_WIDTH


def test_issue19_item13_stud_pictures_mark_the_down_cards() -> None:
    down, up = parse_cards("As 2d"), parse_cards("3c 4h 5s")
    pv = PrivateView(
        table_id=1, user_id=ALICE, seat=ALICE, game="stud", version=3, cards=(),
        down_cards=tuple(down), up_cards=tuple(up), hand_name=None, strength=None,
        options=(), deadline=None, chosen=None, title="Stud Hi-Lo",
    )  # fmt: skip
    picture = hand_picture(pv)
    assert picture is not None and picture.down == (0, 1)
    assert picture.label.startswith("Stud Hi-Lo · ")
    marked = open_png(render_hand(picture.cards, **picture.render_kwargs()))
    plain = open_png(render_hand(picture.cards, label=picture.label))
    assert marked.size == plain.size

    # the DOWN strip is drawn in the card back's blue, on the down cards only
    def blue_in(img, i: int) -> int:
        x = images.MARGIN + i * (images.CARD_W + images.GAP)
        y = images.MARGIN + images.LABEL_H
        return count_near(img.crop((x, y, x + images.CARD_W, y + images.CARD_H)), images.BACK_BLUE)

    assert blue_in(marked, 0) > 300 and blue_in(marked, 1) > 300
    assert blue_in(marked, 2) == blue_in(plain, 2) < 50
    # the showdown: the deal order is down, down, four up, down
    shown = parse_cards("As 2d 3c 4h 5s 6d 7c")
    other = parse_cards("Kh Kd 8c 9h Ts Jd Qs")
    seats = (_seat(ALICE, "alice", up="3c 4h 5s 6d"), _seat(BOB, "bob", up="8c 9h Ts Jd"))
    events = [
        _event("show", {"seat": ALICE, "cards": [str(c) for c in shown], "high": "straight"}),
        _event("show", {"seat": BOB, "cards": [str(c) for c in other], "high": "pair"}),
        _event("award", {"pot": 0, "seat": ALICE, "amount": 40}),
    ]
    picture_sd = showdown_picture(Published(_view("stud", seats), tuple(events), {}))
    assert picture_sd is not None
    assert dict(picture_sd.down) == {0: (0, 1, 6), 1: (0, 1, 6)}
    assert dict(picture_sd.badges) == {0: "WINNER"}
    with_marks = render_showdown(picture_sd.hands, **picture_sd.render_kwargs())
    assert with_marks != render_showdown(picture_sd.hands, winner_indexes={0})


def _event(kind: str, data: dict):
    from bot.engine.events import Event

    return Event(kind, data)


def test_issue19_item13_holdem_hand_picture_shows_the_board() -> None:
    board = parse_cards("Kd 7c 2s")
    pv = PrivateView(
        table_id=1, user_id=ALICE, seat=ALICE, game="holdem", version=3,
        cards=tuple(parse_cards("Ks Kh")), down_cards=(), up_cards=tuple(board),
        hand_name="three kings", strength=None, options=(), deadline=None, chosen=None,
        title="Hold'em",
    )  # fmt: skip
    picture = hand_picture(pv)
    assert picture is not None and picture.board == tuple(board)
    img = open_png(render_hand(picture.cards, **picture.render_kwargs()))
    without = open_png(render_hand(picture.cards, label=picture.label))
    # five cards' width and the gap between the hand and the board
    assert img.width >= 2 * images.MARGIN + 5 * images.CARD_W + 3 * images.GAP + images.BOARD_GAP
    assert img.width > without.width
    assert img.height > without.height  # the captions: "Your cards", "Board"
    # a card face's white is drawn where the board is
    right = img.crop((img.width - images.MARGIN - images.CARD_W, 0, img.width, img.height))
    assert count_near(right, images.CARD_FACE) > 2000


EMOJI = "🎲🦄 bob 🔥👍🏽"
"""Emoji DejaVu has no glyph for (it does have some: ☺ 😀 🃏, which are drawn)."""


def test_issue19_item13_emoji_in_a_name_are_left_out_not_drawn_as_boxes() -> None:
    face = font(images.SD_NAME_SIZE, bold=True)
    assert drawable(EMOJI, face) == "bob"
    assert drawable("José ♠", face).startswith("Jos")  # what the font has stays
    cards = parse_cards("As Kh Qd Jc 9s")
    with_emoji = render_showdown([(EMOJI, cards, "high card")], winner_indexes={0})
    plain = render_showdown([("bob", cards, "high card")], winner_indexes={0})
    assert with_emoji == plain  # nothing drawn for what the font lacks: no box
    # a name of emoji only still gets a row, named "?"
    only = render_showdown([("🎲🎲", cards, "high card")], winner_indexes=set())
    assert only == render_showdown([("?", cards, "high card")], winner_indexes=set())
    # the hand picture's label too
    label = render_hand(cards, label=f"Zoot · {EMOJI}")
    assert label == render_hand(cards, label="Zoot · bob")


@pytest.mark.parametrize("cards", [5, 7])
def test_issue19_item13_long_names_never_stretch_a_picture_past_1500_px(cards: int) -> None:
    hand = parse_cards("As Kh Qd Jc 9s 8h 7d")[:cards]
    rows = [
        ("W" * 32, hand, "three-suited two pair, nines and fives " * 3),
        ("M" * 32 + "!", parse_cards("2s 3h 4d 5c 7s 8d 9c")[:cards], "x" * 120),
    ]
    img = open_png(
        render_showdown(
            rows,
            winner_indexes={0, 1},
            badges={0: "WINNER · " + "MAIN POT + SIDE POT 1 + SIDE POT 2"},
        )
    )
    assert img.width <= MAX_WIDTH
    assert img.size == images.showdown_image_size(
        2, cards, names=[r[0] for r in rows], hands=[r[2] for r in rows],
        tags=["WINNER · MAIN POT + SIDE POT 1 + SIDE POT 2", "WINNER"],
    )  # fmt: skip
    label = render_hand(hand, label="Seven-card Stud · " + "a very long hand name " * 10)
    assert open_png(label).width <= MAX_WIDTH
    # a usual showdown keeps its usual size
    usual = open_png(render_showdown([("bob", hand, "high card")], winner_indexes=set()))
    assert usual.width == images.showdown_image_size(1, cards)[0]


def test_issue19_item13_dataclasses_are_picklable_for_the_render_pool() -> None:
    import pickle

    fam, events = side_pot_hand()
    seats = (_seat(ALICE, "alice"), _seat(BOB, "bob"), _seat(CAROL, "carol"))
    view = _view("holdem", seats, community=fam.community())
    picture = showdown_picture(Published(view, tuple(events), {}))
    assert picture is not None
    assert pickle.loads(pickle.dumps(picture.render_kwargs())) == picture.render_kwargs()
    assert dataclasses.replace(picture) == picture
