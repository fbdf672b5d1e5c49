"""The words of the house games at a Hold'em or Omaha table (issue 18 items 11-15): the
sentences of their events (the table message's "Recent", the channel) and the result's
lines of a hand with two boards or a seven-deuce payment.

Split from :mod:`bot.tables.flop` (which asks here first, then says its usual events).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot.engine.events import Event
from bot.render.text import format_chips as _c
from bot.tables.games import NameOf, _cards_text
from bot.tables.house import RUNOUT_SECONDS, bomb_words

BOARD_WORDS = {"flop": "Flop", "turn": "Turn", "river": "River"}
HOUSE_EVENTS = frozenset(
    {"runout_ask", "runout", "show_ask", "reveal", "seven_deuce", "straddle_chosen"}
)
"""Event kinds only the house games have (the family says nothing else of them)."""


def _names(seats: Sequence[Any], name: NameOf) -> str:
    who = [name(int(s)) for s in seats]
    return ", ".join(who[:-1]) + " and " + who[-1] if len(who) > 1 else "".join(who)


def describe_house(event: Event, name: NameOf) -> str | None:
    """A public sentence for a house game's event (None: not one, or nothing to say)."""
    d = event.data
    k = event.kind
    if k == "runout_ask":
        return (
            f"All in: {_names(d['seats'], name)} choose to run the board **Once** or **Twice**"
            f" in their DMs ({RUNOUT_SECONDS} seconds; Once unless everyone says Twice)"
        )
    if k == "runout":
        if d["count"] == 2:
            return "Everyone chose Twice: the rest of the board is run twice"
        once = [s for s, c in d.get("choices", {}).items() if c == "once"]
        return f"The board is run once ({_names(once, name)} chose Once)"
    if k == "show_ask":
        return f"{name(int(d['seat']))} takes the pot and may show (seven-deuce) or muck"
    if k == "reveal":
        return f"{name(int(d['seat']))} shows {_cards_text(d['cards'])}"
    if k == "seven_deuce":
        return (
            f"{name(int(d['seat']))} wins with 7-2 offsuit: the seven-deuce,"
            f" {_c(int(d['amount']))} from each player dealt in ({_c(int(d['total']))})"
        )
    if k == "straddle_chosen":
        who = name(int(d["seat"]))
        if d["straddle"]:
            return f"{who} straddles the next hand ({_c(int(d['amount']))})"
        return f"{who} does not straddle"
    if k == "board" and ("run" in d or "board_no" in d):
        word = BOARD_WORDS.get(d["street"], d["street"])
        which = f"Run {d['run']}" if "run" in d else f"Board {d['board_no']}"
        return f"{which} — {word}: {_cards_text(d['cards'])} ({_cards_text(d['board'])})"
    if k == "antes" and d.get("bomb"):
        paid = [a for a in d["amounts"] if a]
        return "Bomb pot: " + bomb_words(max(paid, default=0), d.get("boards", 1) == 2)
    if k == "muck" and d.get("uncontested"):
        return f"{name(int(d['seat']))} mucks"
    return None


def board_result_lines(
    boards: Sequence[Sequence[str]],
    runs: bool,
    awards: Sequence[Mapping[str, Any]],
    name: NameOf,
    award_lines: Callable[..., list[str]],
) -> list[str]:
    """A hand with two boards: each board (run) with its half of each pot and who won it
    ("Run 1: K♦ 7♠ 2♣ 3♥ 4♠" then "Half the pot (505): Ann wins it")."""
    word = "Run" if runs else "Board"
    lines: list[str] = []
    for b, cards in enumerate(boards, 1):
        lines.append(f"{word} {b}: {_cards_text(list(cards))}")
        mine = [a for a in awards if int(a.get("board", 1)) == b]
        lines += award_lines(mine, name, of_board=True)
    return lines


def seven_deuce_lines(events: Sequence[Event], name: NameOf) -> list[str]:
    """The seven-deuce payments of a hand's end, one line each."""
    out = []
    for e in events:
        if e.kind != "seven_deuce":
            continue
        d = e.data
        paid = ", ".join(f"{name(int(s))} {_c(int(a))}" for s, a in d["paid"].items())
        out.append(
            f"Seven-deuce: {name(int(d['seat']))} won with {_cards_text(d['cards'])} and is paid"
            f" {_c(int(d['total']))} ({paid or 'nobody had chips left'})"
        )
    return out
