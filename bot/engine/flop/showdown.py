"""The end of a flop-game hand: who shows, who wins each pot, split and quartered pots.

Each pot is contested by the live players who put in its level (main and side pots as in
Razz), and each is split on its own, with its own odd chip, even when two pots have the
same winners (RRP, Ties). High only: the best high hand takes it, ties split. Hi-lo: when
at least one of the pot's contestants has an eight-or-better low, the pot is halved, the
odd chip to the high half; each half is split among its winners (two tied lows: a
quartered pot); with no low the high hand takes the whole pot. Within a half, odd chips go
to the first winner clockwise from the button (the lowest position).

With two boards (a double-board bomb pot, or a board run twice) each pot is split between
the boards first, the odd chip to board 1 (run 1), and each board's share is split as above
by that board's hands (docs/rules.md 6.18, 6.19). A seven-deuce table then pays a shown 7-2
offsuit that won chips (:mod:`bot.engine.flop.sevendeuce`).
"""

from __future__ import annotations

from typing import Any

from bot.engine.cards import CARDS, Card
from bot.engine.events import ChipMove, Event
from bot.engine.flop.sevendeuce import pay_seven_deuce
from bot.engine.flop.state import FlopState
from bot.engine.hands.high import high_name as _high_name
from bot.engine.hands.high import high_score, omaha_high_score
from bot.engine.hands.low8 import low8_name, omaha_low8_score
from bot.engine.razz.pots import Pot, build_pots, split

CODE = tuple(str(c) for c in CARDS)


#: Hand names by score, filled on first use (7,462 scores at most).
_NAMES: dict[int, str] = {}


def high_name(score: int) -> str:
    name = _NAMES.get(score)
    if name is None:
        name = _NAMES[score] = _high_name(score)
    return name


def pots_of(hand: FlopState, live: list[bool] | None = None) -> list[Pot]:
    """Main and side pots from the contributions; dead antes join the main pot, which
    every live player contests. ``live``: who contests (default: who has not folded)."""
    if live is None:
        live = [not f for f in hand.folded]
    pots = build_pots(hand.contrib, live) if any(hand.contrib) else []
    if hand.dead:
        everyone = tuple(p for p in range(hand.n) if live[p])
        if pots and pots[0].eligible == everyone:
            pots[0] = Pot(pots[0].amount + hand.dead, everyone)
        else:
            pots.insert(0, Pot(hand.dead, everyone))
    return pots


def award_uncontested(hand: FlopState, winner: int, out: list[Event]) -> None:
    """Everyone else folded: the last player takes the pot. Their bet nobody called went
    back first; with nothing else in (heads-up with a small blind of 0, no antes) the pot
    is empty and no chip moves (issue 19 item 17: the hand ends all the same)."""
    amount = sum(hand.contrib) + hand.dead
    seat = hand.seat_ids[winner]
    hand.stacks[winner] += amount
    hand.contrib = [0] * hand.n
    hand.dead = 0
    final = final_stacks(hand)
    hand.result = {
        "showdown": False,
        "pots": [{"amount": amount, "winners": [seat], "shares": {str(seat): amount}}],
        "shown": {},
        "mucked": [],
        "board": [CODE[c] for c in hand.board],
        "stacks": final,
    }
    if len(hand.boards) > 1:
        hand.result["boards"] = [[CODE[c] for c in b] for b in hand.boards]
    out.append(
        Event(
            "award",
            {"pot": 0, "seat": seat, "amount": amount, "uncontested": True},
            chips=(ChipMove(seat, -amount, "award"),) if amount else (),
        )
    )
    if hand.rules.seven_deuce:
        # seven-deuce: the winner shows (7-2 offsuit is paid) or mucks; asked of every
        # uncontested winner, so the question says nothing of the cards (house.py)
        hand._ask_show(winner, out)
        return
    hand.street = 5
    out.append(Event("hand_over", {"stacks": final.copy()}))


def final_stacks(hand: FlopState) -> dict[str, int]:
    """Each seat's chips now, by seat number (a hand's result)."""
    return dict(zip(map(str, hand.seat_ids), hand.stacks, strict=True))


def scores(hand: FlopState, p: int, board: list[Card] | None = None) -> tuple[int, int | None]:
    """(high score, low score or None) of position ``p`` on the full board (``board``:
    another of the hand's boards)."""
    hole = hand.hole[p]
    if board is None:
        board = hand.board
    if hand.rules.game == "omaha":
        high = omaha_high_score(hole, board)
        low = omaha_low8_score(hole, board) if hand.rules.split == "hi-lo" else None
        return high, low
    return high_score([*hole, *board]), None


def _halves(
    pot: Pot, value: dict[int, tuple[int, int | None]]
) -> list[tuple[str | None, int, list[int]]]:
    """(half, chips, winners) of a pot: the whole pot (half None) unless a contestant has
    a low, then the high and the low half."""
    top = max(value[p][0] for p in pot.eligible)
    high_winners = [p for p in pot.eligible if value[p][0] == top]
    lows = {p: lo for p in pot.eligible if (lo := value[p][1]) is not None}
    if not lows:
        return [(None, pot.amount, high_winners)]
    best = max(lows.values())
    low_winners = [p for p in pot.eligible if lows.get(p) == best]
    low_half = pot.amount // 2
    return [("high", pot.amount - low_half, high_winners), ("low", low_half, low_winners)]


def showdown(hand: FlopState) -> list[Event]:
    out: list[Event] = []
    n = hand.n
    live = [p for p in range(n) if not hand.folded[p]]
    first = hand.opener or 0
    order = sorted(live, key=lambda p: (p - first) % n)
    boards = hand.boards
    multi = len(boards) > 1
    # each board's hands (one board: the board's, as ever)
    values = [{p: scores(hand, p, board) for p in live} for board in boards]
    value = values[0]
    pots = pots_of(hand)
    # Each pot is paid on its own (RRP). pokerkit's reading (POTS_APART off): a hand that
    # wins no part of any pot is dead before the chips are pushed, and pots left with the
    # same contestants are one pot; that only moves odd chips.
    if len(pots) > 1:
        # the main and side pots as built (the table says them)
        out.append(
            Event(
                "pots",
                {
                    "pots": [
                        {"amount": pot.amount, "seats": [hand.seat_ids[p] for p in pot.eligible]}
                        for pot in pots
                    ]
                },
            )
        )
    winning = {p for vals in values for pot in pots for half in _halves(pot, vals) for p in half[2]}
    contest = [p in winning for p in range(n)]
    hi_lo = hand.rules.split == "hi-lo"
    reveal_all = hand.rules.showdown_reveal == "all"
    best_high: dict[tuple[int, int], int] = {}
    best_low: dict[tuple[int, int], int] = {}
    shown: dict[str, Any] = {}
    shown_pos: set[int] = set()
    mucked: list[int] = []
    for p in order:
        seat = hand.seat_ids[p]
        mine = [k for k, pot in enumerate(pots) if p in pot.eligible]
        could_win = any(
            _beats(vals[p], best_high.get((b, k), 0), best_low.get((b, k), 0))
            for b, vals in enumerate(values)
            for k in mine
        )
        if reveal_all or could_win or hand.shown_early:
            high, low = value[p]
            codes = [CODE[c] for c in hand.hole[p]]
            data: dict[str, Any] = {"seat": seat, "cards": codes, "high": high_name(high)}
            if hi_lo:
                data["low"] = low8_name(low)
            if multi:
                data["boards"] = [_names(vals[p], hi_lo) for vals in values]
            shown[str(seat)] = {k: v for k, v in data.items() if k != "seat"}
            shown_pos.add(p)
            for b, vals in enumerate(values):
                h, lo = vals[p]
                for k in mine:
                    best_high[(b, k)] = max(best_high.get((b, k), 0), h)
                    if lo is not None:
                        best_low[(b, k)] = max(best_low.get((b, k), 0), lo)
            out.append(Event("show", data))
            if not hand.shown_early:
                hand.phh_actions.append(f"p{p + 1} sm {''.join(codes)}")
        else:
            mucked.append(seat)
            out.append(Event("muck", {"seat": seat}))
            hand.phh_actions.append(f"p{p + 1} sm")
    results = []
    won: set[int] = set()
    count = len(boards)
    for k, pot in enumerate(pots if hand.POTS_APART else pots_of(hand, contest)):
        shares: dict[int, int] = {}
        entry: dict[str, Any] = {"amount": pot.amount}
        parts: list[dict[str, Any]] = []
        # two boards: the pot halves, the odd chip to board 1 (run 1); one board: all of it
        each, odd = divmod(pot.amount, count)
        for b in range(count):
            amount = each + (odd if b == 0 else 0)
            part: dict[str, Any] = entry if not multi else {"board": b + 1, "amount": amount}
            halves = _halves(Pot(amount, pot.eligible), values[b])
            no_low = hi_lo and halves[0][0] is None
            if no_low:
                part["no_low"] = True
            for half, chips, winners in halves:
                if not chips:
                    continue
                for p, a in split(chips, winners).items():
                    seat = hand.seat_ids[p]
                    hand.stacks[p] += a
                    shares[p] = shares.get(p, 0) + a
                    data = {"pot": k, "seat": seat, "amount": a}
                    if multi:
                        data["board"] = b + 1
                    if half is not None:
                        data["half"] = half
                    elif no_low:
                        data["no_low"] = True  # hi-lo: no hand has a low, the high takes all
                    out.append(Event("award", data, None, (ChipMove(seat, -a, "award"),)))
                key = f"{half}_winners" if half else "winners"
                part[key] = [hand.seat_ids[p] for p in winners]
            if multi:
                parts.append(part)
        if multi:
            entry["boards"] = parts
        if "winners" not in entry:
            entry["winners"] = sorted({hand.seat_ids[p] for p in shares})
        entry["shares"] = {str(hand.seat_ids[p]): a for p, a in sorted(shares.items())}
        won.update(shares)
        results.append(entry)
    hand.contrib = [0] * n
    hand.dead = 0
    paid = pay_seven_deuce(hand, won, shown_pos, out) if hand.rules.seven_deuce else []
    hand.street = 5
    hand.result = {
        "showdown": True,
        "pots": results,
        "shown": shown,
        "mucked": mucked,
        "board": [CODE[c] for c in hand.board],
        "stacks": final_stacks(hand),
    }
    if multi:
        hand.result["boards"] = [[CODE[c] for c in b] for b in boards]
        if hand.runs > 1:
            hand.result["runs"] = hand.runs
    if paid:
        hand.result["seven_deuce"] = paid
    out.append(Event("hand_over", {"stacks": final_stacks(hand)}))
    return out


def _beats(value: tuple[int, int | None], high: int, low: int) -> bool:
    """Whether a hand could still win a pot: its high or low is at least the best shown."""
    return value[0] >= high or (value[1] is not None and value[1] >= low)


def _names(value: tuple[int, int | None], hi_lo: bool) -> dict[str, str]:
    """A hand's names on one board (what a shown hand makes on each of two boards)."""
    out = {"high": high_name(value[0])}
    if hi_lo:
        out["low"] = low8_name(value[1])
    return out
