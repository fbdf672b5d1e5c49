"""Tournament structures: levels and breaks, the compact ``levels`` text, and the stakes a
level gives each kind of table.

A structure is a sequence of steps, each a :class:`Level` or a :class:`Break`, for one
:data:`Kind` of game (the kind decides what a level's numbers mean):

``blinds``
    Hold'em and Omaha no-limit or pot-limit: small blind, big blind, an ante (every player's)
    or a **big-blind ante** (the big blind posts one ante for the whole table, TDA's
    recommended form of the ante).
``limit``
    Fixed-limit Hold'em and Omaha: a level names its **limits**, small bet / big bet; the
    blinds are half the small bet and the small bet (cardroom practice: 20/40 limit plays
    10/20 blinds), and an ante as in ``blinds``.
``stud``
    Seven-card Stud, Stud Hi-Lo and Razz: limits, the ante, and the bring-in (half the small
    bet unless the level says otherwise; always less than the small bet, rules §4.2).
``mixed``
    HORSE (a mixed table): one set of stakes for all five games as at a cash table (rules
    §9.3): limits with the big bet twice the small bet, the flop games' blinds half the small
    bet and the small bet, the stud games' bring-in half the small bet and the level's ante
    (stud games only).

A tournament game's kind follows from the registry of games (``bot/games.py``,
:data:`~bot.games.TOURNAMENT_GAMES`): a flop game's by its betting, a stud game's is
``stud``, a mixed game's ``mixed``; the games themselves are named only there.

The compact ``levels`` text, as ``/tournament create levels:`` takes it (the issue's example
``10/20 15m, 15/30 15m, break 5m, 25/50/5 15m``): entries separated by commas (or
semicolons or new lines), each ``break LENGTH`` or ``STAKES [LENGTH]``:

* ``STAKES`` is two whole numbers ``A/B`` -- the blinds in ``blinds`` games, the limits in the
  others -- then optional extras, each after a ``/``: a number is the ante, ``bbN`` a big-blind
  ante of N (``bb`` alone: equal to the big blind; ``blinds`` and ``limit`` games), ``biN``
  the bring-in (``stud`` games). ``25/50/bb50``, ``20/40/4/bi5``.
* ``LENGTH`` is ``15m``, ``1h``, ``1h30m``, ``90s`` (``min`` for ``m`` too). A level without a
  length lasts as long as the level before it; the first must say.

A structure starts with a level and ends with one, never has two breaks in a row, and its
blinds (limits) never go down; after the last level the clock stays on it (the tournament
plays on at its stakes until it ends). Bad text never raises anything but
:class:`~bot.tournament.errors.StructureError`, whose one-line message names the bad entry.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final, Literal

import bot.games as registry
from bot.tournament.errors import NOTHING_CHANGED, ConfigError, StructureError

Kind = Literal["blinds", "limit", "stud", "mixed"]
KINDS: Final[tuple[Kind, ...]] = ("blinds", "limit", "stud", "mixed")

#: The games a tournament deals (issue 20 item 1), as the registry of games lists them.
TOURNAMENT_GAMES: Final = registry.tournament_keys()
BETTINGS: Final = registry.BETTINGS

MAX_STEPS: Final = 100
MAX_CHIPS: Final = 10**12
MIN_SECONDS: Final = 60
MAX_SECONDS: Final = 24 * 3600


def game_kind(game: str, betting: str | None = None) -> Kind:
    """The kind of structure ``game`` plays (``betting`` for Hold'em and Omaha).

    >>> game_kind("holdem"), game_kind("omaha", "fixed-limit"), game_kind("razz")
    ('blinds', 'limit', 'stud')
    >>> game_kind("horse")
    'mixed'
    >>> game_kind("stud", "no-limit")
    Traceback (most recent call last):
    ...
    bot.tournament.errors.ConfigError: betting: stud is fixed-limit; give betting only for holdem and omaha. Nothing changed.
    """  # noqa: E501
    try:
        found = registry.tournament_game(game)
    except KeyError:
        raise ConfigError(
            "game", f"choose one of {', '.join(TOURNAMENT_GAMES)}, not {game!r}."
        ) from None
    if found.bettings:
        chosen = betting or found.default_betting
        if chosen not in found.bettings:
            raise ConfigError(
                "betting", f"choose one of {', '.join(found.bettings)}, not {chosen!r}."
            )
        return "limit" if chosen == "fixed-limit" else "blinds"
    if betting is not None and betting != "fixed-limit":
        flop = registry.in_words([t.key for t in registry.tournament_games() if t.bettings])
        raise ConfigError("betting", f"{game} is fixed-limit; give betting only for {flop}.")
    return "mixed" if found.family == "mixed" else "stud"


def default_bring_in(small_bet: int) -> int:
    """The bring-in of a stud level that does not name one: half the small bet, at least 1
    (the bot's cash tables do the same, rules §9.3).

    >>> default_bring_in(20), default_bring_in(3)
    (10, 1)
    """
    return max(1, small_bet // 2)


@dataclass(frozen=True)
class Level:
    """One level of a structure, its stakes for every kind (those a kind does not use are
    0) and its length on the clock in ``seconds``.

    Build one with :meth:`blinds` or :meth:`limits` (they fill the derived stakes);
    :meth:`Structure.__post_init__` checks it for its kind.
    """

    seconds: int
    small_blind: int = 0
    big_blind: int = 0
    ante: int = 0
    bb_ante: bool = False
    """The ante is the big blind's alone, one for the whole table (``blinds``, ``limit``)."""
    small_bet: int = 0
    big_bet: int = 0
    bring_in: int = 0

    @classmethod
    def blinds(
        cls, small_blind: int, big_blind: int, seconds: int, *, ante: int = 0, bb_ante: bool = False
    ) -> Level:
        """A ``blinds`` level.

        >>> Level.blinds(25, 50, 900, ante=50, bb_ante=True).big_blind
        50
        """
        return cls(seconds, small_blind, big_blind, ante, bb_ante)

    @classmethod
    def limits(
        cls,
        kind: Kind,
        small_bet: int,
        big_bet: int,
        seconds: int,
        *,
        ante: int = 0,
        bb_ante: bool = False,
        bring_in: int | None = None,
    ) -> Level:
        """A level of a limit kind, its blinds (and stud bring-in) derived from the limits.

        >>> Level.limits("mixed", 20, 40, 900, ante=4)
        Level(seconds=900, small_blind=10, big_blind=20, ante=4, bb_ante=False, small_bet=20, big_bet=40, bring_in=10)
        """  # noqa: E501
        blinds = (small_bet // 2, small_bet) if kind in ("limit", "mixed") else (0, 0)
        if bring_in is None:
            bring_in = default_bring_in(small_bet) if kind in ("stud", "mixed") else 0
        return cls(seconds, *blinds, ante, bb_ante, small_bet, big_bet, bring_in)

    def stake(self, kind: Kind) -> int:
        """The number a level is ranked by: the big blind, or the small bet in limit kinds."""
        return self.big_blind if kind == "blinds" else self.small_bet

    def table_stakes(self, kind: Kind) -> dict[str, int | bool]:
        """The options of a table of ``kind`` at this level, named as the table families take
        them (FlopRules, StudRules, the mixed table's ``small_bet``/``ante``).

        >>> Level.blinds(25, 50, 900, ante=50, bb_ante=True).table_stakes("blinds")
        {'small_blind': 25, 'big_blind': 50, 'ante': 50, 'bb_ante': True}
        >>> Level.limits("stud", 20, 40, 900, ante=4).table_stakes("stud")
        {'ante': 4, 'bring_in': 10, 'small_bet': 20, 'big_bet': 40}
        """
        if kind == "blinds":
            return {
                "small_blind": self.small_blind,
                "big_blind": self.big_blind,
                "ante": self.ante,
                "bb_ante": self.bb_ante,
            }
        if kind == "limit":
            return {
                "small_blind": self.small_blind,
                "big_blind": self.big_blind,
                "small_bet": self.small_bet,
                "big_bet": self.big_bet,
                "ante": self.ante,
                "bb_ante": self.bb_ante,
            }
        if kind == "stud":
            return {
                "ante": self.ante,
                "bring_in": self.bring_in,
                "small_bet": self.small_bet,
                "big_bet": self.big_bet,
            }
        return {"small_bet": self.small_bet, "ante": self.ante}

    def describe(self, kind: Kind) -> str:
        """The stakes in words, as the lobby and the tables show them.

        >>> Level.blinds(25, 50, 900, ante=50, bb_ante=True).describe("blinds")
        'blinds 25/50, big-blind ante 50'
        >>> Level.limits("limit", 20, 40, 900).describe("limit")
        'limits 20/40, blinds 10/20'
        >>> Level.limits("stud", 20, 40, 900, ante=4).describe("stud")
        'limits 20/40, ante 4, bring-in 10'
        """
        ante = ""
        if self.ante:
            ante = f", big-blind ante {self.ante}" if self.bb_ante else f", ante {self.ante}"
        if kind == "blinds":
            return f"blinds {self.small_blind}/{self.big_blind}{ante}"
        limits = f"limits {self.small_bet}/{self.big_bet}"
        if kind == "limit":
            return f"{limits}, blinds {self.small_blind}/{self.big_blind}{ante}"
        if kind == "stud":
            return f"{limits}{ante}, bring-in {self.bring_in}"
        stud_ante = f", stud ante {self.ante}" if self.ante else ""
        return (
            f"{limits}, blinds {self.small_blind}/{self.big_blind}{stud_ante}, "
            f"bring-in {self.bring_in}"
        )


@dataclass(frozen=True)
class Break:
    """A break of ``seconds`` on the clock: no hand starts at any table during it."""

    seconds: int


Step = Level | Break


def _level_problem(kind: Kind, lv: Level) -> str | None:
    """Why ``lv`` cannot be a level of ``kind`` (None: it can)."""
    if not MIN_SECONDS <= lv.seconds <= MAX_SECONDS:
        return "a level lasts from 1 minute to 24 hours"
    values = (lv.small_blind, lv.big_blind, lv.ante, lv.small_bet, lv.big_bet, lv.bring_in)
    if any(v < 0 or v > MAX_CHIPS for v in values):
        return f"amounts are whole numbers from 0 to {MAX_CHIPS}"
    if lv.bb_ante and lv.ante < 1:
        return "a big-blind ante is at least 1"
    if kind == "blinds":
        if lv.small_blind < 1:
            return "the small blind is at least 1"
        if lv.small_blind > lv.big_blind:
            return f"the small blind ({lv.small_blind}) is more than the big blind ({lv.big_blind})"
        return None
    if lv.small_bet < 2:
        return "the small bet is at least 2"
    if lv.big_bet < lv.small_bet:
        return f"the big bet ({lv.big_bet}) is less than the small bet ({lv.small_bet})"
    if kind == "mixed" and lv.big_bet != 2 * lv.small_bet:
        return (
            f"in HORSE the big bet is twice the small bet (rules §9.3): write "
            f"{lv.small_bet}/{2 * lv.small_bet}"
        )
    if kind in ("stud", "mixed"):
        if lv.bb_ante:
            return "stud games have no big-blind ante; write the ante as a number"
        if not 1 <= lv.bring_in < lv.small_bet:
            return f"the bring-in ({lv.bring_in}) is at least 1 and less than the small bet"
    return None


@dataclass(frozen=True)
class Structure:
    """The steps of a tournament for one :data:`Kind` of game, checked when built.

    >>> s = parse_levels("10/20 15m, 15/30, break 5m, 25/50/5 15m", "blinds")
    >>> [lv.big_blind for lv in s.levels], s.level(3).ante
    ([20, 30, 50], 5)
    """

    kind: Kind
    steps: tuple[Step, ...]

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise StructureError(f"A structure is one of {', '.join(KINDS)}, not {self.kind!r}.")
        if not self.steps or len(self.steps) > MAX_STEPS:
            raise StructureError(f"A structure has 1 to {MAX_STEPS} entries. {NOTHING_CHANGED}")
        for i in range(len(self.steps)):
            problem = _step_problem(self.kind, self.steps[: i + 1], last=i == len(self.steps) - 1)
            if problem:
                raise StructureError(
                    f"Entry {i + 1} of the structure: {problem}. {NOTHING_CHANGED}"
                )

    @property
    def levels(self) -> tuple[Level, ...]:
        """The levels, in order (level ``n`` is ``levels[n - 1]``)."""
        return tuple(s for s in self.steps if isinstance(s, Level))

    def level(self, number: int) -> Level:
        """Level ``number`` (1 is the first); past the last, the last (it stays on)."""
        levels = self.levels
        return levels[min(max(number, 1), len(levels)) - 1]

    def step_of_level(self, number: int) -> int:
        """The index in :attr:`steps` of level ``number``."""
        seen = 0
        for i, step in enumerate(self.steps):
            if isinstance(step, Level):
                seen += 1
                if seen == number:
                    return i
        raise ValueError(f"no level {number} in a structure of {seen} levels")

    def level_at_step(self, index: int) -> int:
        """The number of the level at step ``index``, or of the last level before the break
        at ``index``."""
        return sum(1 for s in self.steps[: index + 1] if isinstance(s, Level))


def _step_problem(kind: Kind, steps: tuple[Step, ...], *, last: bool) -> str | None:
    """Why the last of ``steps`` cannot follow the ones before it (None: it can); ``last``
    says whether it ends the structure."""
    step, index = steps[-1], len(steps) - 1
    if isinstance(step, Level):
        problem = _level_problem(kind, step)
        before = [s for s in steps[:-1] if isinstance(s, Level)]
        if problem is None and before and step.stake(kind) < before[-1].stake(kind):
            problem = _going_down(kind, step, before[-1])
        return problem
    if not MIN_SECONDS <= step.seconds <= MAX_SECONDS:
        return "a break lasts from 1 minute to 24 hours"
    if index == 0:
        return "a structure starts with a level, not a break"
    if isinstance(steps[index - 1], Break):
        return "two breaks in a row; make it one longer break"
    if last:
        return "a structure ends with a level, not a break"
    return None


def _going_down(kind: Kind, step: Level, previous: Level) -> str:
    what = "big blind" if kind == "blinds" else "small bet"
    return (
        f"the {what} ({step.stake(kind)}) is less than the level before's "
        f"({previous.stake(kind)}); the stakes never go down"
    )


# ------------------------------------------------------------------------ the levels text

_DURATION = re.compile(r"^(?:(\d+)h)?(?:(\d+)(?:m|min|mins))?(?:(\d+)s)?$")
_NUMBER = re.compile(r"^\d{1,13}$")
_EXAMPLE: Final[dict[Kind, str]] = {
    "blinds": "25/50 15m (or 25/50/5, 25/50/bb50)",
    "limit": "20/40 15m (the limits; or 20/40/bb20)",
    "stud": "20/40/4 15m (limits and ante; or 20/40/4/bi5)",
    "mixed": "20/40/4 15m (limits and the stud ante)",
}


def parse_duration(text: str) -> int | None:
    """Seconds in ``15m``, ``1h30m``, ``90s``, ``20min``; None for anything else.

    >>> parse_duration("1h30m"), parse_duration("15min"), parse_duration("15")
    (5400, 900, None)
    """
    m = _DURATION.match(text.strip().lower().replace(" ", ""))
    if not m or not any(m.groups()):
        return None
    hours, minutes, seconds = (int(g) if g else 0 for g in m.groups())
    return hours * 3600 + minutes * 60 + seconds


def render_duration(seconds: int) -> str:
    """The compact length: ``15m``, ``1h30m``, ``1m30s``.

    >>> render_duration(900), render_duration(5400), render_duration(90), render_duration(3600)
    ('15m', '1h30m', '1m30s', '1h')
    """
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    out = (f"{hours}h" if hours else "") + (f"{minutes}m" if minutes else "")
    return out + (f"{secs}s" if secs else "") or "0s"


def _bad(index: int, entry: str, reason: str) -> StructureError:
    return StructureError(f"In `levels`, entry {index} `{entry}`: {reason}. {NOTHING_CHANGED}")


def _parse_stakes(kind: Kind, token: str, seconds: int) -> Level | str:
    parts = token.split("/")
    if len(parts) < 2 or not all(_NUMBER.match(p) for p in parts[:2]):
        what = "the blinds" if kind == "blinds" else "the limits"
        return f"write {what} as two whole numbers, like {_EXAMPLE[kind]}"
    a, b = int(parts[0]), int(parts[1])
    ante: int | None = None
    bb_ante = False
    bring_in: int | None = None
    for extra in parts[2:]:
        if _NUMBER.match(extra) or (extra.startswith("bb") and kind in ("blinds", "limit")):
            if ante is not None:
                return "one ante per level"
            if extra.startswith("bb"):
                amount = extra[2:] or (str(b) if kind == "blinds" else str(a))
                if not _NUMBER.match(amount):
                    return "write a big-blind ante as bb and a whole number, like bb50"
                ante, bb_ante = int(amount), True
            else:
                ante = int(extra)
        elif extra.startswith("bi") and kind == "stud":
            if bring_in is not None or not _NUMBER.match(extra[2:]):
                return "write one bring-in as bi and a whole number, like bi5"
            bring_in = int(extra[2:])
        else:
            return f"`{extra}` is not an ante here; write a level like {_EXAMPLE[kind]}"
    if kind == "blinds":
        return Level.blinds(a, b, seconds, ante=ante or 0, bb_ante=bb_ante)
    return Level.limits(kind, a, b, seconds, ante=ante or 0, bb_ante=bb_ante, bring_in=bring_in)


def parse_levels(text: str, kind: Kind) -> Structure:
    """The structure a ``levels`` text describes for ``kind``; a
    :class:`~bot.tournament.errors.StructureError` naming the first bad entry otherwise.

    >>> s = parse_levels("10/20 15m, 15/30 15m, break 5m, 25/50/5 15m", "blinds")
    >>> len(s.levels), s.steps[2], s.level(3).describe("blinds")
    (3, Break(seconds=300), 'blinds 25/50, ante 5')
    >>> parse_levels("10/20 15m, 15/3O 15m", "blinds")
    Traceback (most recent call last):
    ...
    bot.tournament.errors.StructureError: In `levels`, entry 2 `15/3O 15m`: write the blinds as two whole numbers, like 25/50 15m (or 25/50/5, 25/50/bb50). Nothing changed.
    """  # noqa: E501
    entries = [e.strip() for e in re.split(r"[,;\n]", text)]
    if not any(entries):
        raise StructureError(
            f"The `levels` text is empty: write levels like {_EXAMPLE[kind]}. {NOTHING_CHANGED}"
        )
    steps: list[Step] = []
    seconds: int | None = None
    for index, entry in enumerate(entries, 1):
        if not entry:
            raise _bad(index, entry, "is empty; separate the levels with one comma")
        words = entry.lower().split()
        if words[0] == "break":
            length = parse_duration("".join(words[1:]))
            if length is None:
                raise _bad(index, entry, "give the break's length, like break 10m")
            step: Step = Break(length)
        else:
            if len(words) > 1:
                length = parse_duration("".join(words[1:]))
                if length is None:
                    raise _bad(index, entry, "give the level's length with its unit, like 15m")
                seconds = length
            if seconds is None:
                raise _bad(index, entry, "give the first level's length, like 15m")
            parsed = _parse_stakes(kind, words[0], seconds)
            if isinstance(parsed, str):
                raise _bad(index, entry, parsed)
            step = parsed
        steps.append(step)
        if len(steps) > MAX_STEPS:
            raise _bad(index, entry, f"a structure has at most {MAX_STEPS} entries")
        problem = _step_problem(kind, tuple(steps), last=index == len(entries))
        if problem:
            raise _bad(index, entry, problem)
    return Structure(kind, tuple(steps))


def render_levels(structure: Structure) -> str:
    """The compact ``levels`` text of a structure; :func:`parse_levels` reads it back to the
    same structure.

    >>> text = "10/20 15m, 15/30 15m, break 5m, 25/50/5 15m"
    >>> render_levels(parse_levels(text, "blinds")) == text
    True
    >>> render_levels(parse_levels("20/40/4/bi5 20m, 30/60/5", "stud"))
    '20/40/4/bi5 20m, 30/60/5 20m'
    """
    out: list[str] = []
    kind = structure.kind
    for step in structure.steps:
        length = render_duration(step.seconds)
        if isinstance(step, Break):
            out.append(f"break {length}")
            continue
        pair = (
            f"{step.small_blind}/{step.big_blind}"
            if kind == "blinds"
            else f"{step.small_bet}/{step.big_bet}"
        )
        if step.ante:
            pair += f"/bb{step.ante}" if step.bb_ante else f"/{step.ante}"
        if kind == "stud" and step.bring_in != default_bring_in(step.small_bet):
            pair += f"/bi{step.bring_in}"
        out.append(f"{pair} {length}")
    return ", ".join(out)
