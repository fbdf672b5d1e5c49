"""A strict reader of the PokerStars hand-history text our exports write (docs/hand-history.md,
"PokerStars format"), for every game: Hold'em and Omaha (no-, pot- and fixed-limit,
hi-lo), Stud, Stud Hi-Lo and Razz. Written for the tests from the documented layout only:
every line must be one the format names, in its place, and every amount must follow from
the betting (a call is what was owed, "raises X to Y" raises by X, the all-in marks, the
uncalled bet, the pots collected), or :class:`FormatError` says which line is wrong.

It returns what the comparison with the PHH needs: the players (by seat), the betting
actions in PHH's terms (``cc``, ``f``, ``cbr TO``, ``pb``), the cards dealt, the board, the
hands shown, and each player's net chips.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

GAMES = {
    "Hold'em No Limit": ("holdem", "no-limit"),
    "Hold'em Pot Limit": ("holdem", "pot-limit"),
    "Hold'em Limit": ("holdem", "fixed-limit"),
    "Omaha No Limit": ("omaha", "no-limit"),
    "Omaha Pot Limit": ("omaha", "pot-limit"),
    "Omaha Limit": ("omaha", "fixed-limit"),
    "Omaha Hi/Lo No Limit": ("omaha8", "no-limit"),
    "Omaha Hi/Lo Pot Limit": ("omaha8", "pot-limit"),
    "Omaha Hi/Lo Limit": ("omaha8", "fixed-limit"),
    "7 Card Stud Limit": ("stud", "fixed-limit"),
    "7 Card Stud Hi/Lo Limit": ("stud8", "fixed-limit"),
    "Razz Limit": ("razz", "fixed-limit"),
}
CARD = r"[2-9TJQKA][cdhs]"
CARDS = rf"\[({CARD}(?: {CARD})*)\]"
HEADER = re.compile(
    r"PokerStars Hand #(\d+): (.+) \((\d+)/(\d+)\) - "
    r"(\d{4})/(\d{2})/(\d{2}) (\d{1,2}):(\d{2}):(\d{2}) ET"
)
TABLE = re.compile(r"Table '([^']+)' (\d+)-max(?: Seat #(\d+) is the button)?")
SEAT = re.compile(r"Seat (\d+): (.+) \((\d+) in chips\)")
FLOP_STREETS = {"FLOP": 1, "TURN": 2, "RIVER": 3}
STUD_STREETS = {"3rd STREET": 0, "4th STREET": 1, "5th STREET": 2, "6th STREET": 3, "RIVER": 4}
FOLDED = re.compile(
    r"folded (before Flop|on the (?:Flop|Turn|River|3rd Street|4th Street|5th Street|"
    r"6th Street|7th Street))( \(didn't bet\))?"
)


class FormatError(ValueError):
    pass


@dataclass
class ReadHand:
    number: int
    game: str
    betting: str
    stakes: tuple[int, int]
    table: str
    max_seats: int
    button: int | None
    seats: dict[str, int] = field(default_factory=dict)
    """name -> seat number, in seat order."""
    starting: dict[str, int] = field(default_factory=dict)
    actions: list[tuple[str, str]] = field(default_factory=list)
    """(name, ``f`` / ``cc`` / ``cbr TO`` / ``pb``) in order."""
    dealt: list[tuple[str, tuple[str, ...]]] = field(default_factory=list)
    """(name, cards newly dealt and shown to the reader) in order."""
    board: list[str] = field(default_factory=list)
    shown: dict[str, tuple[str, ...] | None] = field(default_factory=dict)
    collected: dict[str, int] = field(default_factory=dict)
    put: dict[str, int] = field(default_factory=dict)

    @property
    def stud(self) -> bool:
        return self.game in ("stud", "stud8", "razz")

    def net(self, name: str) -> int:
        return self.collected.get(name, 0) - self.put.get(name, 0)


def _cards(text: str) -> tuple[str, ...]:
    return tuple(text.split())


def read(text: str) -> ReadHand:
    """One hand's text (no separator)."""
    lines = text.split("\n")
    reader = _Reader(lines)
    return reader.run()


def read_file(text: str) -> list[ReadHand]:
    """A file of hands separated by two empty lines, as PokerStars writes them."""
    if not text.endswith("\n\n\n"):
        raise FormatError("a file ends with two empty lines after its last hand")
    parts = text[: -len("\n\n\n")].split("\n\n\n")
    return [read(p) for p in parts]


class _Reader:
    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.i = 0

    def fail(self, why: str) -> FormatError:
        line = self.lines[self.i] if self.i < len(self.lines) else "<end>"
        return FormatError(f"line {self.i + 1} {line!r}: {why}")

    def peek(self) -> str | None:
        return self.lines[self.i] if self.i < len(self.lines) else None

    def take(self, pattern: re.Pattern[str] | str) -> re.Match[str]:
        line = self.peek()
        regex = re.compile(re.escape(pattern)) if isinstance(pattern, str) else pattern
        m = regex.fullmatch(line) if line is not None else None
        if m is None:
            raise self.fail(f"expected {regex.pattern!r}")
        self.i += 1
        return m

    def name_and(self, line: str) -> tuple[str, str] | None:
        """(player, the rest) of ``"<player>: <rest>"`` or ``"<player> <rest>"``."""
        for name in sorted(self.hand.seats, key=len, reverse=True):
            if line.startswith(name + ": "):
                return name, line[len(name) + 2 :]
            if line.startswith(name + " "):
                return name, line[len(name) + 1 :]
        return None

    # ------------------------------------------------------------------ the hand

    def run(self) -> ReadHand:
        m = self.take(HEADER)
        if m[2] not in GAMES:
            raise FormatError(f"unknown game {m[2]!r}")
        game, betting = GAMES[m[2]]
        t = self.take(TABLE)
        stud = game in ("stud", "stud8", "razz")
        if (t[3] is None) != stud:
            raise FormatError("a button is named for Hold'em and Omaha only")
        self.hand = hand = ReadHand(
            number=int(m[1]),
            game=game,
            betting=betting,
            stakes=(int(m[3]), int(m[4])),
            table=t[1],
            max_seats=int(t[2]),
            button=None if t[3] is None else int(t[3]),
        )
        while (line := self.peek()) is not None and SEAT.fullmatch(line):
            s = self.take(SEAT)
            seat, name = int(s[1]), s[2]
            if name in hand.seats or (hand.seats and seat <= max(hand.seats.values())):
                raise self.fail("seats are listed once each, in order")
            if not 1 <= seat <= hand.max_seats:
                raise self.fail("no such seat at this table")
            hand.seats[name] = seat
            hand.starting[name] = int(s[3])
        if len(hand.seats) < 2:
            raise self.fail("a hand has two or more players")
        if hand.button is not None and hand.button not in hand.seats.values():
            raise FormatError("the button is not a seated player")
        self.stack = dict(hand.starting)
        self.bets = {n: 0 for n in hand.seats}
        hand.put = {n: 0 for n in hand.seats}
        self.completed = False
        self.known_cards: dict[str, list[str]] = {n: [] for n in hand.seats}
        self.posts()
        if not stud:
            self.take("*** HOLE CARDS ***")
        self.street = 0 if not stud else -1
        self.body()
        self.summary()
        if self.peek() is not None:
            raise self.fail("text after the summary")
        return hand

    def _post(self, name: str, chips: int, all_in: bool, *, ante: bool) -> None:
        if chips <= 0 or chips > self.stack[name]:
            raise self.fail("posts more than the player has")
        self.stack[name] -= chips
        self.hand.put[name] += chips
        if not ante:
            self.bets[name] += chips
        if all_in != (self.stack[name] == 0):
            raise self.fail("the all-in mark must say whether the stack is empty")

    def posts(self) -> None:
        post = re.compile(r"posts (the ante|small blind|big blind) (\d+)( and is all-in)?")
        seen_blinds: list[str] = []
        while (line := self.peek()) is not None:
            split = self.name_and(line)
            m = post.fullmatch(split[1]) if split else None
            if m is None:
                break
            assert split is not None
            kind = m[1]
            if kind != "the ante":
                if self.hand.stud:
                    raise self.fail("stud has no blinds")
                seen_blinds.append(kind)
            self._post(split[0], int(m[2]), bool(m[3]), ante=kind == "the ante")
            self.i += 1
        if seen_blinds not in ([], ["small blind", "big blind"], ["big blind"], ["small blind"]):
            raise FormatError(f"blinds out of order: {seen_blinds}")

    def new_street(self, street: int) -> None:
        if street != self.street + 1:
            raise self.fail("streets come in order")
        self.street = street
        for n in self.bets:
            self.bets[n] = 0

    def body(self) -> None:
        hand = self.hand
        deal_flop = re.compile(rf"Dealt to (.+) {CARDS}")
        deal_stud = re.compile(rf"Dealt to (.+?) {CARDS}(?: {CARDS})?")
        board = re.compile(rf"\*\*\* (FLOP|TURN|RIVER) \*\*\* {CARDS}(?: {CARDS})?")
        stud_street = re.compile(
            r"\*\*\* (3rd STREET|4th STREET|5th STREET|6th STREET|RIVER) \*\*\*"
        )
        uncalled = re.compile(r"Uncalled bet \((\d+)\) returned to (.+)")
        while (line := self.peek()) is not None and line not in (
            "*** SHOW DOWN ***",
            "*** SUMMARY ***",
        ):
            if hand.stud and (m := stud_street.fullmatch(line)):
                self.new_street(STUD_STREETS[m[1]])
                self.i += 1
            elif not hand.stud and (m := board.fullmatch(line)):
                self.new_street(FLOP_STREETS[m[1]])
                old, new = (_cards(m[2]), _cards(m[3])) if m[3] else ((), _cards(m[2]))
                if list(old) != hand.board:
                    raise self.fail("the board so far must be repeated as it was")
                if len(new) != (3 if m[1] == "FLOP" else 1):
                    raise self.fail("three cards on the flop, one on the turn and river")
                hand.board += new
                self.i += 1
            elif (m := (deal_stud if hand.stud else deal_flop).fullmatch(line)) and m[
                1
            ] in hand.seats:
                self.dealt(m)
                self.i += 1
            elif m := uncalled.fullmatch(line):
                name, chips = m[2], int(m[1])
                others = max(v for k, v in hand.put.items() if k != name)
                if name not in hand.seats or hand.put[name] - others != chips:
                    raise self.fail("the uncalled bet is the excess over the next largest")
                hand.put[name] -= chips
                self.stack[name] += chips
                self.i += 1
            elif m := re.fullmatch(
                r"(.+) collected (\d+) from (pot|main pot|side pot(?:-\d+)?)", line
            ):
                break
            else:
                self.action(line)
                self.i += 1
        if self.peek() == "*** SHOW DOWN ***":
            self.i += 1
            while (line := self.peek()) is not None:
                split = self.name_and(line)
                if split and (m := re.fullmatch(rf"shows {CARDS} \((.+)\)", split[1])):
                    hand.shown[split[0]] = _cards(m[1])
                elif split and split[1] == "mucks hand":
                    hand.shown[split[0]] = None
                else:
                    break
                self.i += 1
        collect = re.compile(r"collected (\d+) from (pot|main pot|side pot(?:-\d+)?)")
        while (line := self.peek()) is not None:
            split = self.name_and(line)
            m = collect.fullmatch(split[1]) if split else None
            if m is None:
                break
            assert split is not None
            hand.collected[split[0]] = hand.collected.get(split[0], 0) + int(m[1])
            self.i += 1
        while (line := self.peek()) is not None:
            split = self.name_and(line)
            if not (split and split[1] == "doesn't show hand"):
                break
            self.i += 1
        if sum(hand.collected.values()) != sum(hand.put.values()):
            raise FormatError(
                f"hand {hand.number}: collected {sum(hand.collected.values())} of a pot of "
                f"{sum(hand.put.values())}"
            )

    def dealt(self, m: re.Match[str]) -> None:
        name = m[1]
        if not self.hand.stud:
            if self.known_cards[name]:
                raise self.fail("hole cards are dealt once")
            cards = _cards(m[2])
            self.known_cards[name] = list(cards)
            self.hand.dealt.append((name, cards))
            return
        old, new = (_cards(m[2]), _cards(m[3])) if m[3] else ((), _cards(m[2]))
        if list(old) != self.known_cards[name]:
            raise self.fail("a stud player's cards so far are repeated as they were")
        self.known_cards[name] += new
        self.hand.dealt.append((name, new))

    def action(self, line: str) -> None:
        split = self.name_and(line)
        if split is None:
            raise self.fail("not a line of the format")
        name, rest = split
        all_in = rest.endswith(" and is all-in")
        rest = rest.removesuffix(" and is all-in")
        level = max(self.bets.values())
        owed = min(level - self.bets[name], self.stack[name])
        word = rest.split(" ")[0]
        if rest == "folds":
            if all_in:
                raise self.fail("a fold is not all-in")
            self.hand.actions.append((name, "f"))
            return
        if rest == "checks":
            if owed or all_in:
                raise self.fail("a check with chips owed")
            self.hand.actions.append((name, "cc"))
            return
        if m := re.fullmatch(r"calls (\d+)", rest):
            chips = int(m[1])
            if chips != owed or chips == 0:
                raise self.fail(f"a call is what is owed ({owed})")
            self.move(name, chips, all_in)
            self.hand.actions.append((name, "cc"))
            return
        if m := re.fullmatch(r"brings in for (\d+)", rest):
            if not self.hand.stud or self.street != 0 or level:
                raise self.fail("only stud's first bet is a bring-in")
            self.move(name, int(m[1]), all_in)
            self.hand.actions.append((name, "pb"))
            return
        if m := re.fullmatch(r"bets (\d+)", rest):
            if level:
                raise self.fail("a bet opens a street")
            to = int(m[1])
        elif m := re.fullmatch(r"raises (\d+) to (\d+)", rest):
            to = int(m[2])
            if not level or to - level != int(m[1]):
                raise self.fail("'raises X to Y' raises the highest bet by X")
            if self.hand.stud and self.street == 0 and not self.completed:
                raise self.fail("stud's first bet of 3rd street is a completion")
        elif m := re.fullmatch(r"completes it to (\d+)", rest):
            if not self.hand.stud or self.street != 0 or self.completed:
                raise self.fail("only stud's 3rd street is completed, once")
            self.completed = True
            to = int(m[1])
        else:
            raise self.fail(f"unknown action {word!r}")
        if to <= level:
            raise self.fail("a bet or raise goes above the highest bet")
        self.move(name, to - self.bets[name], all_in)
        self.hand.actions.append((name, f"cbr {to}"))

    def move(self, name: str, chips: int, all_in: bool) -> None:
        if chips > self.stack[name]:
            raise self.fail("more chips than the player has")
        self.stack[name] -= chips
        self.bets[name] += chips
        self.hand.put[name] += chips
        if all_in != (self.stack[name] == 0):
            raise self.fail("the all-in mark must say whether the stack is empty")

    # ------------------------------------------------------------------ the summary

    def summary(self) -> None:
        hand = self.hand
        self.take("*** SUMMARY ***")
        m = self.take(
            re.compile(
                r"Total pot (\d+)(?: Main pot (\d+)\.((?: Side pot(?:-\d+)? \d+\.)+))? \| Rake 0"
            )
        )
        total = int(m[1])
        if total != sum(hand.put.values()):
            raise FormatError("the total pot is every chip put in")
        if m[2] is not None:
            sides = [int(x) for x in re.findall(r"Side pot(?:-\d+)? (\d+)\.", m[3])]
            if int(m[2]) + sum(sides) != total:
                raise FormatError("the pots add up to the total")
        if hand.board:
            b = self.take(re.compile(rf"Board {CARDS}"))
            if list(_cards(b[1])) != hand.board:
                raise FormatError("the summary's board is the board")
        for name, seat in hand.seats.items():
            line = self.peek() or ""
            prefix = f"Seat {seat}: {name}"
            if not line.startswith(prefix):
                raise self.fail(f"the summary lists seat {seat} next")
            rest = line[len(prefix) :]
            for tag in (" (button)", " (small blind)", " (big blind)"):
                rest = rest.removeprefix(tag)
            won = hand.collected.get(name, 0)
            ok = (
                (FOLDED.fullmatch(rest.strip()) is not None and not won)
                or rest == f" collected ({won})"
                or (
                    re.fullmatch(rf" showed {CARDS} and (won \({won}\)|lost) with .+", rest)
                    is not None
                    and (("won (" in rest) == bool(won))
                )
                or re.fullmatch(rf" mucked(?: {CARDS})?(?: and won \({won}\))?", rest) is not None
            )
            if not ok:
                raise self.fail("not a summary line of this seat's result")
            self.i += 1
