"""A finished hand in PokerStars' hand-history text format, the format PokerTracker and
Hold'em Manager import (docs/hand-history.md, "PokerStars format").

From a :class:`~bot.league.hand_record.HandRecord` (the PHH) and what the PHH does not
carry (:class:`Context`: hand number, table name, time, seat numbers, the pots' awards).
Chip counts are whole numbers without thousands separators, as play-money hands are
written; times are US Eastern ("ET"), as PokerStars writes them.

>>> from bot.league.hand_record import read_hand
>>> hand = read_hand('''
... variant = 'NT'
... antes = [0, 0]
... blinds_or_straddles = [5, 10]
... min_bet = 10
... starting_stacks = [1000, 1000]
... actions = ['d dh p1 AcAd', 'd dh p2 7c2h', 'p2 cbr 30', 'p1 cbr 90', 'p2 f']
... players = ['ann', 'bob']
... finishing_stacks = [1030, 970]
... ''')
>>> text = to_pokerstars(hand, Context(hand_no=7, table="Home Game 1", started_at=0,
...                                    seats=(1, 2), max_seats=9))
>>> print(text)  # doctest: +NORMALIZE_WHITESPACE
PokerStars Hand #7: Hold'em No Limit (5/10) - 1969/12/31 19:00:00 ET
Table 'Home Game 1' 9-max Seat #2 is the button
Seat 1: ann (1000 in chips)
Seat 2: bob (1000 in chips)
bob: posts small blind 5
ann: posts big blind 10
*** HOLE CARDS ***
Dealt to ann [Ac Ad]
Dealt to bob [7c 2h]
bob: raises 20 to 30
ann: raises 60 to 90
bob: folds
Uncalled bet (60) returned to ann
ann collected 60 from pot
ann: doesn't show hand
*** SUMMARY ***
Total pot 60 | Rake 0
Seat 1: ann (big blind) collected (60)
Seat 2: bob (button) (small blind) folded before Flop
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from bot.engine.hands import high_name, high_score, low8_name, low8_score, omaha_high_score
from bot.engine.hands.low import low_name
from bot.engine.hands.low8 import omaha_low8_score
from bot.league.hand_record import Act, Deal, HandRecord, Show, card_text

SEPARATOR = "\n\n\n"
"""Between two hands of a file, as PokerStars writes them (two empty lines)."""
FLOP_STREETS = ("HOLE CARDS", "FLOP", "TURN", "RIVER")
STUD_STREETS = ("3rd STREET", "4th STREET", "5th STREET", "6th STREET", "RIVER")
FOLDED_ON = {
    False: ("before Flop", "on the Flop", "on the Turn", "on the River"),
    True: ("on the 3rd Street", "on the 4th Street", "on the 5th Street", "on the 6th Street",
           "on the 7th Street"),
}  # fmt: skip
BETTING_WORDS = {"no-limit": "No Limit", "pot-limit": "Pot Limit", "fixed-limit": "Limit"}


@dataclass(frozen=True, slots=True)
class Context:
    """What the PHH does not say."""

    hand_no: int
    table: str
    started_at: int
    """Unix time."""
    seats: tuple[int, ...]
    """Seat numbers (1-based) of the players in PHH order."""
    max_seats: int
    hero: int | None = None
    """The PHH position whose hole cards are written, when not :attr:`everyone`'s."""
    everyone: bool = True
    """Every player's hole cards are written (an export); False: the hero's only (plus
    what was shown)."""
    awards: tuple[tuple[int, int, int], ...] = ()
    """(pot index, PHH position, chips) of each award: the main pot is 0, side pots 1, 2 …
    Without them each winner's chips are written as from one pot."""


def eastern(unix: int) -> datetime:
    """US Eastern time of a Unix time (daylight time from the second Sunday of March, 2:00,
    to the first Sunday of November, 2:00; the rule since 2007).

    >>> eastern(1_780_000_000).strftime("%Y/%m/%d %H:%M:%S")  # 2026-05-28 20:26:40 UTC
    '2026/05/28 16:26:40'
    >>> eastern(1_767_225_600).strftime("%Y/%m/%d %H:%M:%S")  # 2026-01-01 00:00 UTC
    '2025/12/31 19:00:00'
    """
    utc = datetime.fromtimestamp(unix, UTC)

    def sunday(month: int, nth: int) -> int:
        first = date(utc.year, month, 1)
        return 1 + (6 - first.weekday()) % 7 + 7 * (nth - 1)

    start = datetime(utc.year, 3, sunday(3, 2), 7, tzinfo=UTC)
    end = datetime(utc.year, 11, sunday(11, 1), 6, tzinfo=UTC)
    offset = -4 if start <= utc < end else -5
    return (utc + timedelta(hours=offset)).replace(tzinfo=None)


def game_title(hand: HandRecord) -> str:
    """PokerStars' name of the game, e.g. ``Hold'em No Limit``, ``Omaha Hi/Lo Pot Limit``,
    ``7 Card Stud Limit``, ``Razz Limit``."""
    if hand.game == "razz":
        return "Razz Limit"
    if hand.game == "stud":
        return "7 Card Stud Hi/Lo Limit" if hand.hi_lo else "7 Card Stud Limit"
    game = "Hold'em" if hand.game == "holdem" else ("Omaha Hi/Lo" if hand.hi_lo else "Omaha")
    return f"{game} {BETTING_WORDS[hand.betting]}"


_UNSAFE = re.compile(r"[\x00-\x1f\x7f:\[\]()]+")


def player_names(names: Sequence[str]) -> list[str]:
    """Names a reader can find again: no colon, bracket or parenthesis (they delimit the
    format's fields), no control character, none empty, none twice.

    >>> player_names(["ann", "ann", "b:o[b]", ""])
    ['ann', 'ann 2', 'bob', 'Player 4']
    """
    out: list[str] = []
    for i, raw in enumerate(names):
        name = " ".join(_UNSAFE.sub("", raw).split()) or f"Player {i + 1}"
        base, k = name, 2
        while name in out:
            name, k = f"{base} {k}", k + 1
        out.append(name)
    return out


def _cards(cards: Sequence[int]) -> str:
    return "[" + " ".join(card_text(c) for c in cards) + "]"


def describe(hand: HandRecord, cards: Sequence[int]) -> str:
    """A shown hand's name, e.g. ``pair of sixes`` (hi-lo: ``HI: …; LO: …``)."""
    board = hand.board
    if hand.game == "razz":
        return low_name(cards)
    if hand.game == "omaha":
        high = high_name(omaha_high_score(cards, board))
        low = omaha_low8_score(cards, board) if hand.hi_lo else None
    else:
        full = (*cards, *board)
        high = high_name(high_score(full))
        low = low8_score(full) if hand.hi_lo else None
    return f"HI: {high}; LO: {low8_name(low)}" if hand.hi_lo else high


class _Writer:
    def __init__(self, hand: HandRecord, ctx: Context) -> None:
        if len(ctx.seats) != hand.n:
            raise ValueError("one seat number per player")
        self.hand, self.ctx = hand, ctx
        self.names = player_names(hand.names)
        self.lines: list[str] = []
        self.up_shown: dict[int, list[int]] = {}
        self.down_known: dict[int, list[int]] = {}
        self.folded_at: dict[int, int] = {}

    def known(self, p: int) -> bool:
        return self.ctx.everyone or self.ctx.hero == p

    # ------------------------------------------------------------------ the parts

    def header(self) -> None:
        h, ctx = self.hand, self.ctx
        # limit games are named by their bets, the others by their blinds
        if h.betting == "fixed-limit":
            stakes = f"{h.small_bet}/{h.big_bet}"
        else:
            stakes = f"{h.small_blind}/{h.big_blind}"
        when = eastern(ctx.started_at).strftime("%Y/%m/%d %H:%M:%S")
        self.lines.append(f"PokerStars Hand #{ctx.hand_no}: {game_title(h)} ({stakes}) - {when} ET")
        table = f"Table '{ctx.table}' {ctx.max_seats}-max"
        if not h.stud:
            table += f" Seat #{ctx.seats[-1]} is the button"
        self.lines.append(table)
        for p in sorted(range(h.n), key=lambda q: ctx.seats[q]):
            self.lines.append(f"Seat {ctx.seats[p]}: {self.names[p]} ({h.starting[p]} in chips)")
        for p in range(h.n):
            if h.antes[p]:
                self.lines.append(
                    f"{self.names[p]}: posts the ante {h.antes[p]}" + self._all_in_post(p)
                )
        if not h.stud:
            order = (1, 0) if h.n == 2 else (0, 1)
            for p, word in zip(order, ("small", "big"), strict=True):
                if h.blinds[p]:
                    self.lines.append(
                        f"{self.names[p]}: posts {word} blind {h.blinds[p]}" + self._all_in_post(p)
                    )

    def _all_in_post(self, p: int) -> str:
        h = self.hand
        return " and is all-in" if h.antes[p] + h.blinds[p] == h.starting[p] else ""

    def deal(self, step: Deal) -> None:
        h = self.hand
        if step.player is None:
            if h.stud:  # the community card (rules §4.8): everyone's 7th card
                self.lines.append("*** RIVER ***")
                for p in h.live:
                    old = [*self.down_known.get(p, []), *self.up_shown.get(p, [])]
                    self.lines.append(
                        f"Dealt to {self.names[p]} {_cards(old)} {_cards(step.cards)}"
                    )
                return
            old = self._board_so_far
            self._board_so_far = [*old, *step.cards]
            name = FLOP_STREETS[min(step.street, 3)]
            if old:
                self.lines.append(f"*** {name} *** {_cards(old)} {_cards(step.cards)}")
            else:
                self.lines.append(f"*** {name} *** {_cards(step.cards)}")
            return
        p = step.player
        if not h.stud:
            if self.known(p):
                self.lines.append(f"Dealt to {self.names[p]} {_cards(step.cards)}")
            return
        if step.street != self._stud_street:
            self._stud_street = step.street
            self.lines.append(f"*** {STUD_STREETS[min(step.street, 4)]} ***")
        old_down = self.down_known.get(p, [])
        old_up = self.up_shown.get(p, [])
        if self.known(p):
            old = [*old_down, *old_up] if step.street else []
            seen = list(step.cards)
            self.down_known[p] = [
                *old_down,
                *(c for c, u in zip(step.cards, step.up, strict=True) if not u),
            ]
        else:
            old = old_up
            seen = [c for c, u in zip(step.cards, step.up, strict=True) if u]
        self.up_shown[p] = [*old_up, *(c for c, u in zip(step.cards, step.up, strict=True) if u)]
        if not seen:
            return
        if old:
            self.lines.append(f"Dealt to {self.names[p]} {_cards(old)} {_cards(seen)}")
        else:
            self.lines.append(f"Dealt to {self.names[p]} {_cards(seen)}")

    def act(self, a: Act) -> None:
        name = self.names[a.player]
        tail = " and is all-in" if a.all_in else ""
        if a.kind == "fold":
            self.folded_at[a.player] = a.street
            self.lines.append(f"{name}: folds")
        elif a.kind == "check":
            self.lines.append(f"{name}: checks")
        elif a.kind == "call":
            self.lines.append(f"{name}: calls {a.amount}{tail}")
        elif a.kind == "bet":
            self.lines.append(f"{name}: bets {a.amount}{tail}")
        elif a.kind == "raise":
            self.lines.append(f"{name}: raises {a.to - a.level} to {a.to}{tail}")
        elif a.kind == "complete":
            self.lines.append(f"{name}: completes it to {a.to}{tail}")
        elif a.kind == "bring_in":
            self.lines.append(f"{name}: brings in for {a.amount}{tail}")

    def write(self) -> str:
        h = self.hand
        self._board_so_far: list[int] = []
        self._stud_street = -1
        self.header()
        if not h.stud:
            self.lines.append("*** HOLE CARDS ***")
        last_act = max((i for i, s in enumerate(h.steps) if isinstance(s, Act)), default=-1)
        shows: list[Show] = []
        for i, step in enumerate(h.steps):
            if isinstance(step, Deal):
                self.deal(step)
            elif isinstance(step, Act):
                self.act(step)
            else:
                shows.append(step)
            if i == last_act and h.returned is not None:
                p, chips = h.returned
                self.lines.append(f"Uncalled bet ({chips}) returned to {self.names[p]}")
        if last_act < 0 and h.returned is not None:
            p, chips = h.returned
            self.lines.append(f"Uncalled bet ({chips}) returned to {self.names[p]}")
        self.showdown(shows)
        self.summary(shows)
        return "\n".join(self.lines)

    # ------------------------------------------------------------------ the end

    def pots(self) -> tuple[list[int], dict[int, list[tuple[int, int]]]]:
        """Each pot's chips (main first) and each player's (pot, chips) taken; one pot per
        player's takings when the awards are not known or do not add up."""
        h = self.hand
        received = h.received
        taken: dict[int, list[tuple[int, int]]] = {}
        amounts: dict[int, int] = {}
        for pot, p, chips in self.ctx.awards:
            taken.setdefault(p, []).append((pot, chips))
            amounts[pot] = amounts.get(pot, 0) + chips
        if all(sum(c for _, c in taken.get(p, [])) == received[p] for p in range(h.n)) and (
            sorted(amounts) == list(range(len(amounts)))
        ):
            return [amounts[k] for k in range(len(amounts))], taken
        return [sum(received)], {p: [(0, r)] for p, r in enumerate(received) if r}

    @staticmethod
    def _pot_name(pot: int, count: int) -> str:
        if count == 1:
            return "pot"
        if pot == 0:
            return "main pot"
        return "side pot" if count == 2 else f"side pot-{pot}"

    def showdown(self, shows: list[Show]) -> None:
        h = self.hand
        amounts, taken = self.pots()
        if h.showdown:
            self.lines.append("*** SHOW DOWN ***")
            for s in shows:
                if s.cards is None:
                    self.lines.append(f"{self.names[s.player]}: mucks hand")
                else:
                    self.lines.append(
                        f"{self.names[s.player]}: shows {_cards(s.cards)} ({describe(h, s.cards)})"
                    )
        for p in range(h.n):
            for pot, chips in taken.get(p, []):
                where = self._pot_name(pot, len(amounts))
                self.lines.append(f"{self.names[p]} collected {chips} from {where}")
        if not h.showdown:
            for p in h.live:
                self.lines.append(f"{self.names[p]}: doesn't show hand")

    def summary(self, shows: list[Show]) -> None:
        h, ctx = self.hand, self.ctx
        amounts, taken = self.pots()
        self.lines.append("*** SUMMARY ***")
        total = sum(amounts)
        if len(amounts) == 1:
            self.lines.append(f"Total pot {total} | Rake 0")
        else:
            sides = amounts[1:]
            side = (
                f"Side pot {sides[0]}."
                if len(sides) == 1
                else " ".join(f"Side pot-{k} {a}." for k, a in enumerate(sides, 1))
            )
            self.lines.append(f"Total pot {total} Main pot {amounts[0]}. {side} | Rake 0")
        if h.board:
            self.lines.append(f"Board {_cards(h.board)}")
        shown = {s.player: s.cards for s in shows}
        for p in sorted(range(h.n), key=lambda q: ctx.seats[q]):
            where = ""
            if not h.stud:
                if p == h.n - 1:
                    where += " (button)"
                small, big = (1, 0) if h.n == 2 else (0, 1)
                if p == small and h.blinds[p]:
                    where += " (small blind)"
                if p == big and h.blinds[p]:
                    where += " (big blind)"
            won = sum(c for _, c in taken.get(p, []))
            head = f"Seat {ctx.seats[p]}: {self.names[p]}{where}"
            if h.folded[p]:
                street = FOLDED_ON[h.stud][min(self.folded_at.get(p, 0), 4 if h.stud else 3)]
                bet = h.contributed[p] - h.antes[p]
                self.lines.append(f"{head} folded {street}" + ("" if bet else " (didn't bet)"))
            elif not h.showdown:
                self.lines.append(f"{head} collected ({won})")
            elif shown.get(p) is not None:
                cards = shown[p]
                assert cards is not None
                desc = describe(h, cards)
                result = f"and won ({won}) with" if won else "and lost with"
                self.lines.append(f"{head} showed {_cards(cards)} {result} {desc}")
            else:
                cards = tuple(h.cards_of(p)) if self.known(p) else None
                mucked = f" {_cards(cards)}" if cards else ""
                self.lines.append(f"{head} mucked{mucked}" + (f" and won ({won})" if won else ""))


def to_pokerstars(hand: HandRecord, ctx: Context) -> str:
    """The hand as PokerStars hand-history text (no trailing newline; join hands with
    :data:`SEPARATOR`)."""
    return _Writer(hand, ctx).write()
