"""The card images a table sends: a player's hand (their hand DM and **My hand**) and the
showdown, as data the renderer draws (:mod:`bot.render.images`, in the render pool).

Split from :mod:`cogs._render` (the embeds and components), which it builds on.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.engine.cards import Card, parse_card
from bot.render.text import (
    hand_name_text,
    plain_name,
    shown_hand_name,
)
from bot.tables.stud import STUD_GAMES
from cogs._render import FLOP_GAMES, GAME_TITLES

if TYPE_CHECKING:
    from bot.tables.views import PrivateView, Published

HAND_FILE = "hand.png"
SHOWDOWN_FILE = "showdown.png"


@dataclass(frozen=True, slots=True)
class HandPicture:
    """What a hand image shows: its owner's cards, in order, and the label above them.
    Two equal pictures give the same PNG bytes (the renderer writes no metadata)."""

    cards: tuple[Card, ...]
    label: str


def hand_picture(pv: PrivateView) -> HandPicture | None:
    """The picture of ``pv``'s hand (None: no cards dealt). Only ever the cards of the
    PrivateView's own user: stud down cards then up cards, labelled which are which."""
    title = GAME_TITLES.get(pv.game, pv.game)
    if pv.game in STUD_GAMES:
        if not pv.down_cards and not pv.up_cards:
            return None
        label = (
            f"{title} · first {len(pv.down_cards)} down (only you), "
            f"then {len(pv.up_cards)} up (everyone)"
        )
        return HandPicture((*pv.down_cards, *pv.up_cards), label)
    if not pv.cards:
        return None
    label = f"{title} · {hand_name_text(pv.hand_name)}" if pv.hand_name else title
    return HandPicture(tuple(pv.cards), label)


@dataclass(frozen=True, slots=True)
class ShowdownPicture:
    """The hands shown at a showdown, in seat order, and which rows won chips."""

    hands: tuple[tuple[str, tuple[Card, ...], str], ...]
    winners: frozenset[int]


def showdown_picture(published: Published) -> ShowdownPicture | None:
    """The showdown of a published hand end, read from its public events only (Zoot and
    Wheelers: ``showdown`` and ``game_over``; the stud games: ``show`` and ``award``). None when no
    hand was shown (everyone folded, or nobody laid down)."""
    names = {s.seat: plain_name(s.name) for s in published.view.seats}
    shown: dict[int, tuple[tuple[Card, ...], str]] = {}
    won: set[int] = set()
    for event in published.events:
        if event.visible_to is not None:
            continue  # a private event never reaches a public picture
        data = event.data
        if event.kind == "showdown":
            for seat, hand in dict(data.get("hands", {})).items():
                cards = tuple(parse_card(c) for c in hand["cards"])
                shown[int(seat)] = (cards, hand_name_text(str(hand["name"])))
        elif event.kind == "show":
            cards = tuple(parse_card(c) for c in data["cards"])
            shown[int(data["seat"])] = (cards, hand_name_text(shown_hand_name(data)))
        elif event.kind == "game_over":
            result = data.get("result", {})
            won.update(int(s) for s, amount in dict(result.get("awards", {})).items() if amount)
        elif event.kind == "award" and int(data.get("amount", 0)) > 0:
            won.add(int(data["seat"]))
    if not shown:
        return None
    seats = sorted(shown)
    hands = tuple((names.get(s, f"Seat {s}"), shown[s][0], shown[s][1]) for s in seats)
    winners = frozenset(i for i, s in enumerate(seats) if s in won)
    board = published.view.community
    if published.view.game in FLOP_GAMES and board:
        # the board first, a row of its own (the hands are read with it)
        hands = (("Board", tuple(board), ""), *hands)
        winners = frozenset(i + 1 for i in winners)
    return ShowdownPicture(hands, winners)
