"""The pace of a table (issue 22, items 1-5): the time bank, choices made in advance,
sitting out, whose turn began when (for the turn pings) and stakes set for the next hand.

Pure state and rules, no I/O: :class:`Pace` is kept in the table's snapshot (so a restart
keeps every bank, choice, count and pending stake), and the service
(:mod:`bot.tables.pacing`) calls the functions here from its one mutation path.

- **Time bank** (``time_bank``, seconds, 60 by default; 0: none): each player's own, for the
  table's session. When a betting game's decision clock runs out, the bank starts (the
  deadline moves by what is left of it); what the player uses is taken off it when they act;
  when both run out the default action is taken (check, else fold; the stud bring-in posts
  the bring-in). After each orbit of the button every bank gets :data:`TOP_UP` seconds back,
  never past ``time_bank``.
- **In advance**: while it is not their turn, a player at a betting game chooses
  **Check/Fold** (check when nothing is owed, else fold; it stands through raises),
  **Check** (only while nothing is owed) or **Call N** (that price only). The choice is for
  the betting round it was made in; a price that changes clears Check and Call N. At Zoot and
  Wheelers, **Play on** or **Lay down** for the next window. When the turn comes the choice
  is taken at once.
- **Sitting out** (``sit_out_hands``, 10 by default): a player who sits out keeps the seat for
  that many hands dealt without them, then it is freed. At Hold'em and Omaha a player the big
  blind passed while they sat out waits for it on their return, or posts one (6.14).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from bot import games as registry
from bot.engine.errors import InvalidConfig

TIME_BANK = 60
"""Seconds of a player's time bank by default (``time_bank:``)."""
TIME_BANK_MAX = 600
SIT_OUT_HANDS = 10
"""Hands a player who sits out keeps the seat for, by default (``sit_out_hands:``)."""
SIT_OUT_MAX = 1000
TOP_UP = 5
"""Seconds every time bank gets back after each orbit of the button (never past its size)."""
OPTIONS = ("time_bank", "sit_out_hands")
"""The table options of this module (every table command's, taken out before the game's)."""

CHECK_FOLD = "check_fold"
CHECK = "check"
CALL = "call"
PLAY_ON = "play_on"
LAY_DOWN = "lay_down"
CHOICES = (CHECK_FOLD, CHECK, CALL, PLAY_ON, LAY_DOWN)
LABELS = {
    CHECK_FOLD: "Check/Fold",
    CHECK: "Check",
    CALL: "Call",
    PLAY_ON: "Play on",
    LAY_DOWN: "Lay down",
}
"""What the hand DM's buttons say (Call adds its price: "Call 10")."""


GUTS_GAMES = frozenset(registry.keys(family="guts"))
"""Games without a time bank: their choices are made in windows, everyone at once."""


def pace_rules(game: str, pace: Pace) -> tuple[tuple[str, str, str], ...]:
    """The table's options of this module as its house rules show them (name, value,
    meaning): the time bank where the game has one, and the seat kept while sitting out."""
    rows: list[tuple[str, str, str]] = []
    if game not in GUTS_GAMES:
        rows.append(
            (
                "time_bank",
                str(pace.time_bank),
                f"seconds of each player's time bank, {TOP_UP} more after each orbit",
            )
        )
    rows.append(
        ("sit_out_hands", str(pace.sit_out_hands), "hands a player sitting out keeps the seat")
    )
    return tuple(rows)


def _whole(value: object, field_name: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidConfig(field_name, f"a whole number, got {value!r}")
    if not low <= value <= high:
        raise InvalidConfig(field_name, f"between {low} and {high}, got {value}")
    return value


def split_options(options: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, int]]:
    """(the game's options, this module's: ``time_bank`` and ``sit_out_hands``, with their
    defaults) from a table command's options; :class:`InvalidConfig` for a value out of
    range."""
    game = {k: v for k, v in options.items() if k not in OPTIONS}
    pace = {
        "time_bank": _whole(options.get("time_bank", TIME_BANK), "time_bank", 0, TIME_BANK_MAX),
        "sit_out_hands": _whole(
            options.get("sit_out_hands", SIT_OUT_HANDS), "sit_out_hands", 1, SIT_OUT_MAX
        ),
    }
    return game, pace


@dataclass(slots=True)
class Advance:
    """One player's choice made in advance: ``kind`` (one of :data:`CHOICES`), the price
    of a Call, and the hand and betting round it was made for."""

    kind: str
    amount: int | None
    hand: int
    round: int

    def to_json(self) -> list[Any]:
        return [self.kind, self.amount, self.hand, self.round]

    @classmethod
    def from_json(cls, raw: Any) -> Advance | None:
        try:
            kind, amount, hand, rnd = raw
        except (TypeError, ValueError):
            return None
        if kind not in CHOICES:
            return None
        return cls(str(kind), None if amount is None else int(amount), int(hand), int(rnd))

    @property
    def label(self) -> str:
        text = LABELS[self.kind]
        return f"{text} {self.amount:,}" if self.kind == CALL and self.amount else text


@dataclass(slots=True)
class BankRun:
    """A time bank counting down: whose, since when (the service's clock), and how many
    seconds it held when it started."""

    user_id: int
    since: float
    seconds: float

    def left(self, now: float) -> float:
        return max(0.0, self.seconds - max(0.0, now - self.since))


@dataclass(slots=True)
class Pace:
    """A table's pace state (saved with its snapshot under ``pace``)."""

    time_bank: int = TIME_BANK
    sit_out_hands: int = SIT_OUT_HANDS
    banks: dict[int, float] = field(default_factory=dict)
    """User id -> seconds left in their bank (absent: a full bank)."""
    bank_run: BankRun | None = None
    orbit: list[int] = field(default_factory=list)
    """The seats the button has been at since the last orbit ended."""
    advance: dict[int, Advance] = field(default_factory=dict)
    sit_next: set[int] = field(default_factory=set)
    """Users who sit out from the next hand (pressed during a hand they play)."""
    missed: dict[int, int] = field(default_factory=dict)
    """User id -> hands dealt without them while they sat out."""
    owes: set[int] = field(default_factory=set)
    """Users the big blind passed while they sat out (Hold'em, Omaha)."""
    turns: dict[int, int] = field(default_factory=dict)
    """User id -> the table version their current turn began at (the turn pings' key)."""
    stakes: dict[str, int] = field(default_factory=dict)
    """Stakes the host set for the next hand (``/table stakes``)."""

    # ---- persistence
    def to_json(self) -> dict[str, Any]:
        run = self.bank_run
        return {
            "time_bank": self.time_bank,
            "sit_out_hands": self.sit_out_hands,
            "banks": {str(u): round(s, 3) for u, s in sorted(self.banks.items())},
            "bank_run": None if run is None else [run.user_id, run.since, run.seconds],
            "orbit": list(self.orbit),
            "advance": {str(u): a.to_json() for u, a in sorted(self.advance.items())},
            "sit_next": sorted(self.sit_next),
            "missed": {str(u): n for u, n in sorted(self.missed.items())},
            "owes": sorted(self.owes),
            "turns": {str(u): v for u, v in sorted(self.turns.items())},
            "stakes": dict(sorted(self.stakes.items())),
        }

    @classmethod
    def from_json(cls, raw: Mapping[str, Any] | None) -> Pace:
        """A table saved before this module has none: the defaults, nothing pending."""
        if not raw:
            return cls()
        run = raw.get("bank_run")
        advance: dict[int, Advance] = {}
        for u, a in (raw.get("advance") or {}).items():
            parsed = Advance.from_json(a)
            if parsed is not None:
                advance[int(u)] = parsed
        return cls(
            time_bank=int(raw.get("time_bank", TIME_BANK)),
            sit_out_hands=int(raw.get("sit_out_hands", SIT_OUT_HANDS)),
            banks={int(u): float(s) for u, s in (raw.get("banks") or {}).items()},
            bank_run=None if not run else BankRun(int(run[0]), float(run[1]), float(run[2])),
            orbit=[int(s) for s in raw.get("orbit") or []],
            advance=advance,
            sit_next={int(u) for u in raw.get("sit_next") or []},
            missed={int(u): int(n) for u, n in (raw.get("missed") or {}).items()},
            owes={int(u) for u in raw.get("owes") or []},
            turns={int(u): int(v) for u, v in (raw.get("turns") or {}).items()},
            stakes={str(k): int(v) for k, v in (raw.get("stakes") or {}).items()},
        )

    # ---- the time bank
    def bank(self, user_id: int, now: float | None = None) -> float:
        """Seconds left in ``user_id``'s bank (while it counts down, at ``now``)."""
        run = self.bank_run
        if run is not None and run.user_id == user_id and now is not None:
            return run.left(now)
        return self.banks.get(user_id, float(self.time_bank))

    def start_bank(self, user_id: int, now: float) -> float | None:
        """The decision clock of ``user_id`` ran out: start their bank; the seconds it
        holds (the deadline moves by them), or None when it is empty (or already ran)."""
        if self.bank_run is not None:
            return None
        left = self.banks.get(user_id, float(self.time_bank))
        if left < 1:
            return None
        self.bank_run = BankRun(user_id, now, left)
        return left

    def stop_bank(self, now: float) -> None:
        """The turn the bank ran for is over: what it used is taken off."""
        run = self.bank_run
        if run is None:
            return
        self.banks[run.user_id] = round(run.left(now), 3)
        self.bank_run = None

    def interrupt_bank(self) -> None:
        """The bot was down when the bank ran out: the window opens again, and the bank
        keeps what it held when it started (nobody could act while the bot was down)."""
        run = self.bank_run
        if run is not None:
            self.banks[run.user_id] = run.seconds
        self.bank_run = None

    def button_at(self, seat: int | None, users: list[int]) -> bool:
        """A hand was dealt with the button at ``seat``: an orbit is over when it comes
        back to a seat it was at since the last one ended (the same seat again, a voided
        hand dealt again, is no move). Then every bank of ``users`` gets :data:`TOP_UP`
        seconds back, never past ``time_bank``. Returns whether an orbit ended."""
        if seat is None or (self.orbit and self.orbit[-1] == seat):
            return False
        if seat not in self.orbit:
            self.orbit.append(seat)
            return False
        self.orbit = [seat]
        for uid in users:
            left = self.banks.get(uid)
            if left is not None:
                topped = min(float(self.time_bank), left + TOP_UP)
                if topped >= self.time_bank:
                    del self.banks[uid]
                else:
                    self.banks[uid] = topped
        return True

    # ---- in advance
    def drop_stale(self, hand: int, rnd: int, price: Mapping[int, int | None]) -> list[int]:
        """Drop the choices the game has moved past: made for another hand or betting round,
        or (Check, Call N) whose price changed; ``price``: each chooser's price now (None:
        no decision left). Returns who lost theirs."""
        gone = []
        for uid, adv in list(self.advance.items()):
            owed = price.get(uid)
            stale = adv.hand != hand or (adv.round != rnd and adv.round != -1)
            if adv.kind in (CHECK, CALL, CHECK_FOLD):
                stale = stale or owed is None
            if adv.kind == CHECK:
                stale = stale or owed != 0
            elif adv.kind == CALL:
                stale = stale or owed != adv.amount
            if stale:
                del self.advance[uid]
                gone.append(uid)
        return gone

    # ---- sitting out
    def forget(self, user_id: int) -> None:
        """``user_id`` left the table: nothing of theirs is pending (their bank stays: it is
        theirs for the session)."""
        self.advance.pop(user_id, None)
        self.sit_next.discard(user_id)
        self.missed.pop(user_id, None)
        self.owes.discard(user_id)
        self.turns.pop(user_id, None)
        if self.bank_run is not None and self.bank_run.user_id == user_id:
            self.bank_run = None
