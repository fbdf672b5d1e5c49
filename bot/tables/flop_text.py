"""What a Hold'em or Omaha table says: the sentence of each public event (the table
message's "Recent", the channel) and the result of a hand (who won which pot, or half of
it on each of two boards), split from :mod:`bot.tables.flop`. The house games' own events
are said in :mod:`bot.tables.house_text`, asked first.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from bot.engine.events import Event
from bot.engine.flop import FlopHand, FlopRules
from bot.render.text import format_chips as _c
from bot.render.text import hand_name_text
from bot.tables.games import NameOf, _cards_text
from bot.tables.house_text import board_result_lines, describe_house, seven_deuce_lines


class FlopTable(Protocol):
    """What the words need of a table (:class:`bot.tables.flop.FlopFamily`)."""

    @property
    def engine(self) -> FlopHand | None: ...

    @property
    def rules(self) -> FlopRules: ...


BOARD_WORDS = {"flop": "Flop", "turn": "Turn", "river": "River"}


def describe_event(fam: FlopTable, event: Event, name: NameOf) -> str | None:
    """A public sentence for a public event of a Hold'em or Omaha hand, or None."""
    if not event.public:
        return None
    house = describe_house(event, name)  # the house games' events (house_text.py)
    if house is not None:
        return house
    d = event.data
    k = event.kind
    if k == "draw_for_button":
        return f"{name(d['button'])} draws the highest card and takes the button"
    if k == "antes":
        paid = [a for a in d["amounts"] if a]
        if not paid:
            return None
        if len(paid) == 1 and fam.rules.bb_ante:
            return f"The big blind posts the ante for the table: {_c(paid[0])}"
        return f"Everyone antes {_c(max(paid))}"
    if k == "blinds":
        hand = fam.engine
        if hand is None:
            return None
        posts = []
        for p, a in enumerate(d["amounts"]):
            who = name(hand.seat_ids[p])
            if p in hand.posts:
                posts.append(f"{who} posts a big blind {_c(a)} to play now")
            elif p == hand.straddle_pos:
                continue  # said last
            elif a:
                # heads-up the button (position 1) posts the small blind
                which = "big" if p == hand.bb_pos else "small"
                posts.append(f"{who} posts the {which} blind {_c(a)}")
        if d.get("dead_small"):
            posts.append("no small blind this hand (its player left)")
        if "straddle" in d:
            amount = d["amounts"][hand.seat_ids.index(int(d["straddle"]))]
            posts.append(f"{name(int(d['straddle']))} straddles {_c(amount)}")
        return "; ".join(posts) or None
    if k == "board":
        word = BOARD_WORDS.get(d["street"], d["street"])
        return f"{word}: {_cards_text(d['cards'])} (board {_cards_text(d['board'])})"
    if k == "action":
        who = name(d["seat"])
        act = d["action"]
        tail = (" all in" if d.get("all_in") else "") + (
            " (timed out)" if d.get("timed_out") else ""
        )
        if act in ("bet", "raise"):
            verb = "bets" if act == "bet" else "raises to"
            return f"{who} {verb} {_c(d['to'])}{tail}"
        if act == "call":
            return f"{who} calls {_c(d['amount'])}{tail}"
        return f"{who} {act}s{tail}"
    if k == "show":
        return f"{name(d['seat'])} shows {_cards_text(d['cards'])}: {_boards_name(d, fam.engine)}"
    if k == "muck":
        return f"{name(d['seat'])} mucks"
    if k == "award":
        if not d["amount"]:
            return None  # an empty pot: the uncalled big blind went back (the refund)
        if d.get("no_low"):
            return f"{name(d['seat'])} takes the whole pot (no low): {_c(d['amount'])}"
        hand = fam.engine
        board = "run" if hand is not None and hand.runs > 1 else "board"
        return f"{name(d['seat'])} wins {_c(d['amount'])}{_award_tail(d, board)}"
    if k == "refund":
        return f"{_c(d['amount'])} uncalled chips go back to {name(d['seat'])}"
    return None


def hand_result_text(fam: FlopTable, events: Sequence[Event], name: NameOf) -> str | None:
    """The result of a hand whose end these events are (None: they do not end it)."""
    if not any(e.kind == "hand_over" for e in events):
        return None
    hand = fam.engine
    lines: list[str] = []
    multi = hand is not None and len(hand.boards) > 1
    if hand is not None and hand.board and not multi and any(e.kind == "show" for e in events):
        lines.append(f"Board: {_cards_text([str(c) for c in hand.board])}")
    lines += [
        f"{name(e.data['seat'])}: {_cards_text(e.data['cards'])} — {_boards_name(e.data, hand)}"
        for e in events
        if e.kind == "show"
    ]
    lines += [
        f"{name(e.data['seat'])} shows {_cards_text(e.data['cards'])}"
        for e in events
        if e.kind == "reveal"
    ]
    pots = next((e.data["pots"] for e in events if e.kind == "pots"), [])
    if pots:
        lines.append(
            "; ".join(
                f"{'Main pot' if k == 0 else f'side pot {k}'}: {_c(pot['amount'])}"
                f" ({', '.join(name(s) for s in pot['seats'])})"
                for k, pot in enumerate(pots)
            )
        )
    if hand is not None and any(e.kind == "show_ask" for e in hand.log):
        # the pot was won before its winner chose to show or muck (seven-deuce): the
        # hand's result is the whole hand's
        events = [*(e for e in hand.log if e.kind in ("award", "refund")), *events]
    awards = [e.data for e in events if e.kind == "award"]
    if len(awards) == 1 and not awards[0]["amount"]:
        # heads-up with a small blind of 0: the big blind's own chips were all the pot
        back = next((e.data for e in events if e.kind == "refund"), None)
        them = name(awards[0]["seat"])
        took = f" their uncalled {back['amount']}" if back is not None else " their blind"
        lines.append(f"Everyone else folded: {them} takes back{took}; no chip changed hands")
        return "\n".join(lines)
    if hand is not None and multi:
        # each board (run) with its half of each pot (house_text.py)
        boards = [[str(c) for c in b] for b in hand.boards]
        lines += board_result_lines(boards, hand.runs > 1, awards, name, _award_lines)
    else:
        lines += _award_lines(awards, name, merged=len(pots) > 1)
    lines += seven_deuce_lines(events, name)
    return "\n".join(lines)


def _boards_name(d: Mapping[str, Any], hand: Any) -> str:
    """A shown hand's name; on two boards (runs) what it makes on each."""
    boards = d.get("boards")
    if not boards or hand is None:
        return _shown_name(d)
    word = "run" if hand.runs > 1 else "board"
    return "; ".join(f"{word} {b}: {_shown_name(x)}" for b, x in enumerate(boards, 1))


def _shown_name(d: Mapping[str, Any]) -> str:
    text = hand_name_text(str(d["high"]))
    if "low" in d:
        text += f"; low: {hand_name_text(str(d['low']))}"
    return text


def _pot_name(k: int) -> str:
    return "the main pot" if k == 0 else f"side pot {k}"


def _award_tail(d: Mapping[str, Any], board: str = "board") -> str:
    """What an award was for ("(side pot 1, high half)"; two boards: "(run 2)")."""
    parts = []
    if "board" in d:
        parts.append(f"{board} {d['board']}")
    if d.get("pot", 0):
        parts.append(_pot_name(int(d["pot"])))
    if "half" in d:
        parts.append(f"{d['half']} half")
    return f" ({', '.join(parts)})" if parts else ""


def _award_lines(
    awards: Sequence[Mapping[str, Any]],
    name: NameOf,
    *,
    merged: bool = False,
    of_board: bool = False,
) -> list[str]:
    """One line per pot: who takes it, or each of its halves, or who splits them.
    ``merged``: there were side pots, and pots with the same winners are awarded as one
    (the engine's order), so a single award is "the pots". ``of_board``: the awards of
    one of two boards (runs): each pot is its half ("Half the pot (505): Ann wins it").

    >>> names = {1: "Ann", 2: "Bob", 3: "Cy"}.__getitem__
    >>> _award_lines([{"pot": 0, "seat": 1, "amount": 90}], names)
    ['The pot (90): Ann wins it']
    >>> print(_award_lines([{"pot": 0, "seat": 1, "amount": 50, "half": "high"},
    ...                     {"pot": 0, "seat": 2, "amount": 25, "half": "low"},
    ...                     {"pot": 0, "seat": 3, "amount": 25, "half": "low"}], names)[0])
    ... # doctest: +NORMALIZE_WHITESPACE
    The pot (100): Ann wins the high half (50);
    Bob and Cy split the low half, quartered (Bob 25, Cy 25)
    >>> _award_lines([{"pot": 0, "seat": 1, "amount": 90, "no_low": True}], names)
    ['The pot (90): Ann takes the whole pot (no low)']
    """
    by_pot: dict[int, dict[str | None, list[tuple[int, int]]]] = {}
    for d in awards:
        halves = by_pot.setdefault(int(d.get("pot", 0)), {})
        halves.setdefault(d.get("half"), []).append((int(d["seat"]), int(d["amount"])))
    several = len(by_pot) > 1
    lines = []
    for k, halves in sorted(by_pot.items()):
        total = sum(a for got in halves.values() for _, a in got)
        parts = []
        no_low = any(d.get("no_low") for d in awards if int(d.get("pot", 0)) == k)
        for half, got in halves.items():
            whole = "them" if merged and len(by_pot) == 1 else "it"
            what = whole if half is None else f"the {half} half"
            if no_low:
                what = "the whole pot (no low)"  # hi-lo: no hand has a low, the high scoops
            if len(got) == 1:
                seat, amount = got[0]
                verb = "takes" if no_low else "wins"
                parts.append(f"{name(seat)} {verb} {what}" + (f" ({_c(amount)})" if half else ""))
                continue
            who = " and ".join(name(s) for s, _ in got)
            # hi-lo: two players sharing one half of a pot get a quarter each
            quartered = ", quartered" if len(halves) == 2 and len(got) == 2 else ""
            each = ", ".join(f"{name(s)} {_c(a)}" for s, a in got)
            parts.append(f"{who} split {what}{quartered} ({each})")
        pot = _pot_name(k).capitalize() if several or k else "The pot"
        if merged and not several:
            pot = "The pots"
        if of_board:
            pot = "Half " + ("of " if pot.startswith("Side") else "") + pot[0].lower() + pot[1:]
        lines.append(f"{pot} ({_c(total)}): " + "; ".join(parts))
    return lines
