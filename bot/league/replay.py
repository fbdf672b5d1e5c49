"""A finished hand told as text for one viewer, and its hand history with the cards that
viewer never saw hidden.

Privacy is decided once, by :func:`visible_events`: the public events plus the viewer's
own private ones (their down cards, their secret choices). Everything else here works on
that filtered list only, so no other player's hidden card can reach the text. The hand
history file (PHH for Razz, the TOML history for Zoot and Wheelers) holds every card
dealt; :func:`redact_history` writes ``??`` for each dealt card the viewer was not shown
as that player's card (by who was shown which card, never by the card's code alone).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from bot.engine.cards import parse_card
from bot.engine.errors import InvalidCard
from bot.engine.events import Event
from bot.render.text import format_chips, shown_hand_name

HIDDEN = "??"
_CARD = r"(?:[2-9TJQKA][cdhs])"
_CARD_CODE = re.compile(r"[2-9TJQKA][cdhs]")
_CARD_RUN = re.compile(rf"^(?:{_CARD}|\?\?)+$")
_ACTION_STRING = re.compile(r"'((?:d|p[0-9]+) [^'\n]*)'")

VERBS = {
    "fold": "folds",
    "check": "checks",
    "call": "calls",
    "bet": "bets",
    "raise": "raises",
    "complete": "completes",
    "bring_in": "brings in",
}
STREETS = {3: "3rd street", 4: "4th street", 5: "5th street", 6: "6th street", 7: "7th street"}


def visible_events(events: Iterable[Event], viewer_seat: int | None) -> list[Event]:
    """The events the viewer may see: public ones and (if they sat in the hand) their own."""
    return [e for e in events if e.visible_to is None or e.visible_to == viewer_seat]


#: Events that show cards *of the hand* and whose cards they are (the draw for the deal,
#: before the hand, shows cards that are then shuffled back and dealt again: not here).
_OWN_CARDS = ("deal_down", "deal", "draw", "discard", "deal_hole")
_BOARD = -1


def _codes(value: Any) -> list[str]:
    items = [value] if isinstance(value, str) else list(value or [])
    return [c for item in items for c in _CARD_CODE.findall(str(item))]


def shown_cards(events: Iterable[Event], viewer_seat: int | None) -> dict[int, set[str]]:
    """Which dealt cards the viewer was shown, by the seat they were dealt to (``-1``: the
    board, a card for everyone). Only the viewer's visible events count, and only those that
    show a card as one seat's card in this hand (their own deals, the up cards, the
    community card, what was shown at the showdown)."""
    shown: dict[int, set[str]] = {}

    def add(seat: Any, cards: Any) -> None:
        if isinstance(seat, int | str) and str(seat).lstrip("-").isdigit():
            shown.setdefault(int(seat), set()).update(_codes(cards))

    for e in visible_events(events, viewer_seat):
        d = e.data
        if e.kind in _OWN_CARDS and e.visible_to is not None:
            add(d.get("seat"), d.get("cards", d.get("card")))
        elif e.kind == "deal_up":
            add(d.get("seat"), d.get("card"))
        elif e.kind == "community":
            add(_BOARD, d.get("card"))
        elif e.kind == "board":  # Hold'em, Omaha: the flop, turn and river
            add(_BOARD, d.get("cards"))
        elif e.kind in ("show", "reveal"):  # a showdown; a seven-deuce winner who shows
            add(d.get("seat"), d.get("cards"))
        elif e.kind == "runout_ask":  # all in before the river: the hands were shown
            for seat, cards in dict(d.get("hands", {})).items():
                add(seat, cards)
        elif e.kind == "showdown":
            for seat, hand in dict(d.get("hands", {})).items():
                add(seat, hand.get("cards") if isinstance(hand, Mapping) else hand)
    return shown


def _seat_order(text: str, events: Sequence[Event]) -> list[int]:
    """The seats as the history names them: ``p1`` is the first. A Zoot/Wheelers history
    lists them (``seats = [...]``); a Razz hand's ``hand_start`` event does."""
    match = re.search(r"^seats = \[([0-9, ]*)\]", text, re.MULTILINE)
    if match:
        return [int(s) for s in match[1].split(",") if s.strip()]
    for e in events:
        if e.kind == "hand_start" and isinstance(e.data.get("seats"), list):
            return [int(s) for s in e.data["seats"]]
    return []


def redact_history(text: str, events: Sequence[Event], viewer_seat: int | None) -> str:
    """``text`` with every card in its action strings (``'d dh p1 7c3hKc'``, ``'p2 sd 9h'``,
    ``'d rf …'``, ``'p1 sm …'``, ``'d db …'``) written ``??`` unless the viewer was shown
    *that* card as *that* player's (:func:`shown_cards`): a card code the viewer saw
    somewhere else (the draw for the deal, another player's hand) stays hidden. A refill
    (``d rf``: the discards put under the stock) shows only the viewer's own discards."""
    shown = shown_cards(events, viewer_seat)
    order = _seat_order(text, events)
    board = shown.get(_BOARD, set())

    def owner_cards(player: str) -> set[str]:
        if player.startswith("p") and player[1:].isdigit() and 0 < int(player[1:]) <= len(order):
            return shown.get(order[int(player[1:]) - 1], set()) | board
        return set()

    viewer = f"p{order.index(viewer_seat) + 1}" if viewer_seat in order else None
    # the viewer's discards since the last refill: the only cards of a refill they know
    my_discards: set[str] = set()

    def action(match: re.Match[str]) -> str:
        parts = match[1].split(" ")
        if parts[:2] == ["d", "dh"] and len(parts) > 2:
            allowed = owner_cards(parts[2])
        elif parts[:2] == ["d", "rf"]:
            allowed = set(my_discards)
            my_discards.clear()
        elif parts[:2] == ["d", "db"]:
            allowed = board
        else:
            allowed = owner_cards(parts[0])
            if parts[0] == viewer and parts[1:2] == ["sd"] and len(parts) > 2:
                my_discards.update(_CARD_CODE.findall(parts[2]))
        for i, token in enumerate(parts):
            if token == "#":
                break
            if i >= 1 and _CARD_RUN.match(token) and len(token) % 2 == 0:
                parts[i] = _redact_run(token, allowed)
        return "'" + " ".join(parts) + "'"

    return _ACTION_STRING.sub(action, text)


def _redact_run(run: str, allowed: set[str]) -> str:
    return "".join(
        run[i : i + 2] if run[i : i + 2] in allowed else HIDDEN for i in range(0, len(run), 2)
    )


def _pretty(codes: Sequence[str] | str) -> str:
    items = [codes] if isinstance(codes, str) else list(codes)
    out = []
    for code in items:
        try:
            out.append(parse_card(code).pretty)
        except InvalidCard:
            out.append(str(code))
    return " ".join(out)


Namer = Callable[[int], str]


def _line(e: Event, name: Namer, viewer_seat: int | None) -> str | None:
    d = e.data
    k = e.kind
    who = name(int(d["seat"])) if "seat" in d and isinstance(d["seat"], int) else ""
    if k == "hand_start":
        return f"Hand starts; dealer {name(int(d['dealer']))}" if "dealer" in d else "Hand starts"
    if k == "game_started":
        return f"Game starts: ante {d.get('ante')}, pot {d.get('pot')}"
    if k == "draw_for_deal":
        return f"Draw for the deal: {name(int(d['dealer']))} deals"
    if k == "antes":
        return "Antes: " + ", ".join(str(a) for a in d.get("amounts", []))
    if k in ("ante", "bring_in", "match") and "amount" in d:
        word = {"ante": "antes", "bring_in": "brings in", "match": "matches the pot with"}[k]
        return f"{who} {word} {d['amount']}"
    if k == "street":
        return f"— {STREETS.get(int(d['street']), 'street ' + str(d['street']))} —"
    if k == "deal_down":
        return f"Your down cards: {_pretty(d.get('cards', []))}"
    if k == "deal_hole":
        return f"Your cards: {_pretty(d.get('cards', []))}"
    if k == "draw_for_button":
        return f"Draw for the button: {name(int(d['button']))} takes it"
    if k == "blinds":
        return "Blinds: " + ", ".join(str(a) for a in d.get("amounts", []) if a)
    if k == "board":
        which = (
            f"Run {d['run']} "
            if "run" in d
            else f"Board {d['board_no']} "
            if "board_no" in d
            else ""
        )
        return f"— {which}{str(d.get('street', '')).capitalize()}: {_pretty(d.get('cards', []))} —"
    if k == "runout_ask":
        return "All in: run the board once or twice?"
    if k == "runout_choice":
        return f"You chose {str(d.get('choice', '')).capitalize()}"
    if k == "runout":
        return "The board is run twice" if d.get("count") == 2 else "The board is run once"
    if k == "reveal":
        return f"{who} shows {_pretty(d.get('cards', []))}"
    if k == "seven_deuce":
        return f"{who} is paid the seven-deuce: {format_chips(int(d.get('total', 0)))}"
    if k == "pots":
        return "Pots: " + "; ".join(
            f"{p['amount']} ({', '.join(name(int(s)) for s in p.get('seats', []))})"
            for p in d.get("pots", [])
        )
    if k == "deal_up":
        return f"{who} gets {_pretty(d['card'])} face up"
    if k == "community":
        return f"Community card: {_pretty(d['card'])}"
    if k == "deal":
        return f"You are dealt {_pretty(d.get('cards', []))}"
    if k == "draw":
        return f"You draw {_pretty(d['card'])}"
    if k == "discard":
        return f"You discard {_pretty(d['card'])}"
    if k == "choice":
        return f"You chose to {str(d.get('choice', '')).replace('_', ' ')}"
    if k == "window_opened":
        return f"— Round {d.get('round')}: lay down or play on (pot {d.get('pot')}) —"
    if k == "window_closed":
        lay = [name(int(s)) for s in d.get("lay_downs", [])]
        return "Window closes: " + (", ".join(lay) + " laid down" if lay else "nobody laid down")
    if k in ("laid_down", "played_on"):
        return f"{who} {'lays down' if k == 'laid_down' else 'plays on'}"
    if k == "discard_opened":
        return f"— Exchange {d.get('round')}: everyone discards one card —"
    if k == "showdown":
        lines = [f"Showdown, challenger {name(int(d['challenger']))}:"]
        for seat, hand in sorted(d.get("hands", {}).items(), key=lambda kv: int(kv[0])):
            lines.append(f"  {name(int(seat))}: {_pretty(hand['cards'])} ({hand.get('name')})")
        return "\n".join(lines)
    if k == "action":
        kind = str(d.get("action", ""))
        text = f"{who} {VERBS.get(kind, kind.replace('_', ' '))}"
        if kind in ("complete", "raise", "bet") and "to" in d:
            # a raise says the total it goes to, as the table said it ("raises to 40"); a
            # plain bet its size (nothing was bet before it this round)
            text += f" {'' if kind == 'bet' else 'to '}{format_chips(int(d['to']))}"
        elif "amount" in d:
            text += f" {format_chips(int(d['amount']))}"
        if d.get("all_in"):
            text += " (all in)"
        if d.get("timed_out"):
            text += " (timed out)"
        return text
    if k == "show":
        return f"{who} shows {_pretty(d.get('cards', []))}: {shown_hand_name(d)}"
    if k == "muck":
        return f"{who} mucks"
    if k == "refund":
        return f"{who} gets {d['amount']} back"
    if k == "award":
        extra = " (uncontested)" if d.get("uncontested") else ""
        if "half" in d:
            extra += f" ({d['half']} half)"
        if "board" in d:
            extra += f" (board {d['board']})"
        return f"{who} wins {d['amount']}{extra}"
    if k in ("out",):
        return f"{who} is out: {d.get('reason', '')}"
    if k in ("paused", "resumed"):
        return f"Table {k}" + (f": {d['reason']}" if "reason" in d else "")
    if k in (
        "betting",
        "hand_over",
        "dealt",
        "chosen",
        "discarded",
        "exchanged",
        "refill",
        "game_over",
        "ante_excused",
        "show_ask",
    ):
        return None
    return f"{k.replace('_', ' ')}" + (f" ({who})" if who else "")


def replay_text(events: Sequence[Event], name: Namer, viewer_seat: int | None) -> str:
    """The hand, one line per thing that happened, as ``viewer_seat`` saw it (``None``:
    a spectator, public events only). Private events are always the viewer's own, so they
    read "Your down cards", "You discard"."""
    lines: list[str] = []
    for e in visible_events(events, viewer_seat):
        line = _line(e, name, viewer_seat)
        if line is not None:
            lines.append(line)
    return "\n".join(lines)
