"""The card images a table sends: a player's hand (their hand DM and **My hand**) and the
showdown, as data the renderer draws (:mod:`bot.render.images`, in the render pool).

Split from :mod:`cogs._render` (the embeds and components), which it builds on.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot.engine.cards import Card, parse_card
from bot.render.images import WINNER_TAG
from bot.render.text import (
    hand_name_text,
    plain_name,
    shown_hand_name,
)
from cogs._render import FLOP_GAMES, GAME_TITLES, STUD_GAMES

if TYPE_CHECKING:
    from bot.tables.views import PrivateView, Published

HAND_FILE = "hand.png"
SHOWDOWN_FILE = "showdown.png"


@dataclass(frozen=True, slots=True)
class HandPicture:
    """What a hand image shows: its owner's cards, in order, and the label above them;
    ``down``: which of them are stud down cards (marked); ``board``: the community cards,
    drawn apart (Hold'em, Omaha). Two equal pictures give the same PNG bytes (the renderer
    writes no metadata)."""

    cards: tuple[Card, ...]
    label: str
    down: tuple[int, ...] = ()
    board: tuple[Card, ...] = ()

    def render_kwargs(self) -> dict[str, Any]:
        """The keyword arguments of :func:`bot.render.images.render_hand` but the cards."""
        return {"label": self.label, "down": self.down, "board": self.board}


def hand_picture(pv: PrivateView) -> HandPicture | None:
    """The picture of ``pv``'s hand (None: no cards dealt). Only ever the cards of the
    PrivateView's own user: stud down cards (marked) then up cards, labelled which are
    which; at Hold'em and Omaha the hole cards and, apart, the board."""
    title = pv.title or GAME_TITLES.get(pv.game, pv.game)
    if pv.game in STUD_GAMES:
        if not pv.down_cards and not pv.up_cards:
            return None
        label = (
            f"{title} · first {len(pv.down_cards)} down (only you), "
            f"then {len(pv.up_cards)} up (everyone)"
        )
        down = tuple(range(len(pv.down_cards)))
        return HandPicture((*pv.down_cards, *pv.up_cards), label, down=down)
    if not pv.cards:
        return None
    label = f"{title} · {hand_name_text(pv.hand_name)}" if pv.hand_name else title
    board = tuple(pv.up_cards) if pv.game in FLOP_GAMES else ()
    return HandPicture(tuple(pv.cards), label, board=board)


@dataclass(frozen=True, slots=True)
class ShowdownPicture:
    """The hands shown at a showdown, in seat order, and which rows won chips; ``badges``:
    a winner row's tag when it must say which pot ("WINNER · SIDE POT 1"); ``down``: by
    row, the stud down cards to mark."""

    hands: tuple[tuple[str, tuple[Card, ...], str], ...]
    winners: frozenset[int]
    badges: tuple[tuple[int, str], ...] = ()
    down: tuple[tuple[int, tuple[int, ...]], ...] = ()

    def render_kwargs(self) -> dict[str, Any]:
        """The keyword arguments of :func:`bot.render.images.render_showdown` but the rows."""
        return {
            "winner_indexes": set(self.winners),
            "badges": dict(self.badges),
            "down": dict(self.down),
        }


def _runs(view: Any) -> bool:
    """The two boards are two runs of one (run it twice), not a double board."""
    return bool(view.house.boards) and str(view.house.boards[0][0]).startswith("Run")


def _pot_label(k: int, pots: int) -> str:
    return "" if pots < 2 else ("MAIN POT" if k == 0 else f"SIDE POT {k}")


def winner_badges(won: Mapping[int, set[tuple[int, str | None]]]) -> dict[int, str]:
    """Each winning seat's tag from what it won (``(pot, half)`` pairs): ``WINNER`` for the
    only pot, else the pots (and halves) it took, so that two winners say which is which:
    "WINNER · MAIN POT", "WINNER · SIDE POT 1", "WINNER · LOW"; a pot (or half) shared
    says SPLIT.

    >>> winner_badges({1: {(0, None)}, 2: {(1, None)}})
    {1: 'WINNER · MAIN POT', 2: 'WINNER · SIDE POT 1'}
    >>> winner_badges({1: {(0, None)}, 2: {(0, None), (1, None)}})[2]
    'WINNER · MAIN POT (SPLIT) + SIDE POT 1'
    >>> winner_badges({1: {(0, "high")}, 2: {(0, "low")}})
    {1: 'WINNER · HIGH', 2: 'WINNER · LOW'}
    >>> winner_badges({1: {(0, None)}, 2: {(0, None)}})
    {1: 'WINNER · SPLIT', 2: 'WINNER · SPLIT'}
    """
    pots = len({k for parts in won.values() for k, _ in parts})
    takers: dict[tuple[int, str | None], int] = {}
    for parts in won.values():
        for part in parts:
            takers[part] = takers.get(part, 0) + 1
    out: dict[int, str] = {}
    for seat, parts in sorted(won.items()):
        words = []
        for k, half in sorted(parts, key=lambda p: (p[0], p[1] or "")):
            text = " ".join(w for w in (_pot_label(k, pots), (half or "").upper()) if w)
            if takers[(k, half)] > 1:
                text = f"{text} (SPLIT)" if text else "SPLIT"
            if text:
                words.append(text)
        out[seat] = " · ".join([WINNER_TAG, " + ".join(words)]) if words else WINNER_TAG
    return out


def _down_indexes(cards: tuple[Card, ...], up: tuple[Card, ...]) -> tuple[int, ...]:
    """Which of a stud hand's shown cards (in deal order) were dealt face down: those not
    among its up cards, or by the deal (two down, four up, the 7th down) when the view
    no longer lists them."""
    if up:
        return tuple(i for i, c in enumerate(cards) if c not in up)
    return tuple(i for i in range(len(cards)) if i < 2 or i == 6)


def showdown_picture(published: Published) -> ShowdownPicture | None:
    """The showdown of a published hand end, read from its public events only (Zoot and
    Wheelers: ``showdown`` and ``game_over``; the stud and flop games: ``show`` and
    ``award``). None when no hand was shown (everyone folded, or nobody laid down)."""
    view = published.view
    names = {s.seat: plain_name(s.name) for s in view.seats}
    up_cards = {s.seat: tuple(s.up_cards) for s in view.seats}
    shown: dict[int, tuple[tuple[Card, ...], str]] = {}
    won: dict[int, set[tuple[int, str | None]]] = {}
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
            for s, amount in dict(result.get("awards", {})).items():
                if amount:
                    won.setdefault(int(s), set()).add((0, None))
        elif event.kind == "award" and int(data.get("amount", 0)) > 0:
            half = data.get("half")
            part = None if half is None else str(half)
            if "board" in data:
                # two boards (runs): which one it won on ("RUN 1", "BOARD 2 LOW")
                word = "run" if view.house is not None and _runs(view) else "board"
                part = f"{word} {data['board']}" + (f" {half}" if half else "")
            won.setdefault(int(data["seat"]), set()).add((int(data.get("pot", 0)), part))
    if not shown:
        return None
    seats = sorted(shown)
    hands = tuple((names.get(s, f"Seat {s}"), shown[s][0], shown[s][1]) for s in seats)
    badges = winner_badges({s: parts for s, parts in won.items() if s in shown})
    row = {s: i for i, s in enumerate(seats)}
    down: dict[int, tuple[int, ...]] = {}
    if view.game in STUD_GAMES:
        down = {row[s]: _down_indexes(shown[s][0], up_cards.get(s, ())) for s in seats}
    board = view.community
    offset = 0
    boards = view.house.boards if view.house is not None else ()
    if view.game in FLOP_GAMES and boards:
        # two boards (a double board, two runs): each a row of its own, first
        hands = (*((label, tuple(cards), "") for label, cards in boards), *hands)
        offset = len(boards)
    elif view.game in FLOP_GAMES and board:
        # the board first, a row of its own (the hands are read with it)
        hands = (("Board", tuple(board), ""), *hands)
        offset = 1
    return ShowdownPicture(
        hands,
        frozenset(row[s] + offset for s in won if s in row),
        badges=tuple((row[s] + offset, text) for s, text in sorted(badges.items())),
        down=tuple((i + offset, marks) for i, marks in sorted(down.items())),
    )
