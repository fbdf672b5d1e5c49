"""The statistics by name: how each is computed from a :class:`~bot.league.figures.Tally`,
how it is written, how many hands it is measured over (``/leaderboard min_hands:``), and
its definition, which the rule book's glossary prints (rules §11 (/rules glossary)), so the
command and the book cannot say different things.

>>> from bot.league.figures import Tally
>>> t = Tally(hands=40, walks=2, vpip=19, pfr=8)
>>> FIGURES["vpip"].text(t), FIGURES["pfr"].text(t), FIGURES["af"].text(t)
('50.0%', '21.1%', '–')
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from bot.league.figures import Tally


@dataclass(frozen=True, slots=True)
class Figure:
    key: str
    """The ``/leaderboard by:`` value."""
    name: str
    """Short name, as trackers write it."""
    title: str
    """The name in words (the leaderboard's ``by:`` choice)."""
    value: Callable[[Tally], float | None]
    count: Callable[[Tally], int]
    """Hands (or games) the figure is measured over: a member needs ``min_hands`` of them
    to be ranked by it."""
    style: str
    """``rate`` (a percentage), ``ratio`` or ``chips``."""
    definition: str
    guts: bool = False
    """Measured in Zoot and Wheelers games (the others: in poker hands)."""

    def text(self, tally: Tally) -> str:
        """The figure as shown (``–`` when there is nothing to count)."""
        return format_value(self.style, self.value(tally))


def format_value(style: str, value: float | None) -> str:
    """The text of a value in its style.

    >>> format_value("rate", 0.2346), format_value("ratio", math.inf)
    ('23.5%', '∞')
    >>> format_value("chips", -3.25), format_value("chips", 0.2)
    ('-3', '0')
    """
    if value is None:
        return "–"
    if style == "rate":
        return f"{value * 100:.1f}%"
    if style == "ratio":
        return "∞" if math.isinf(value) else f"{value:.2f}"
    return f"{round(value):+,}" if round(value) else "0"


def _poker(t: Tally) -> int:
    return t.hands


def _games(t: Tally) -> int:
    return t.games


FIGURES: dict[str, Figure] = {
    f.key: f
    for f in (
        Figure(
            "vpip",
            "VPIP",
            "VPIP (voluntarily put in pot)",
            lambda t: t.vpip_rate,
            _poker,
            "rate",
            "the share of hands in which the player put chips in the pot of their own will on "
            "the first betting round: a call, bet or raise (in stud also completing the "
            "bring-in). Blinds, antes and the bring-in are forced and checking is free, so "
            "they do not count. Counted over the hands dealt, less the *walks*: the big blind "
            "or the bring-in winning, with no decision, when everyone else folds to it.",
        ),
        Figure(
            "pfr",
            "PFR",
            "PFR (pre-flop raise)",
            lambda t: t.pfr_rate,
            _poker,
            "rate",
            "the share of hands in which the player raised on the first betting round (in "
            "stud: completed the bring-in or raised on 3rd street), over the same hands as "
            "VPIP.",
        ),
        Figure(
            "three_bet",
            "3-bet",
            "3-bet",
            lambda t: t.three_bet_rate,
            _poker,
            "rate",
            "how often the player re-raised when facing **exactly one raise** on the first "
            "betting round, over the times they faced exactly one raise with chips left to "
            "raise. Hold'em and Omaha: the big blind is the first bet, the open raise the "
            "second, the re-raise the third (a limper re-raising counts). Stud: the "
            "completion is the first full bet (the bring-in is a forced part-bet, like a "
            "blind), so the 3-bet is the re-raise after the completion and one raise.",
        ),
        Figure(
            "wtsd",
            "WTSD",
            "went to showdown",
            lambda t: t.wtsd_rate,
            _poker,
            "rate",
            "the share of the hands in which the player **saw the flop** that they took to "
            "a showdown (still in when the hands were compared). In stud *saw the flop* "
            "means saw 4th street, as PokerTracker counts it. A hand all in before the flop "
            "sees it (the board is dealt to the showdown).",
        ),
        Figure(
            "wsd",
            "W$SD",
            "won at showdown",
            lambda t: t.wsd_rate,
            _poker,
            "rate",
            "the share of the player's showdowns in which they won chips: a whole pot, a "
            "share of a split, a hi-lo half or a side pot.",
        ),
        Figure(
            "af",
            "AF",
            "aggression factor",
            lambda t: t.aggression,
            _poker,
            "ratio",
            "bets and raises divided by calls, on the betting rounds after the first (the "
            "flop, turn and river; stud's 4th to 7th streets); checks and folds do not "
            "count. ∞ when the player bet or raised but never called.",
        ),
        Figure(
            "luck",
            "All-in luck",
            "all-in luck (won minus expected)",
            lambda t: t.luck,
            lambda t: t.all_in_hands,
            "chips",
            "in the hands where the betting ended with two or more players still in and "
            "cards to come (an all-in), the chips the player won minus the chips they could "
            "*expect*: their equity share of each pot they could win, less what they put "
            "in. Equity counts every possible runout exactly (Hold'em and Omaha: every "
            "board; before the flop, 1,712,304 of them in classes that rank alike), or, "
            "in stud and Razz when there are too many, a seeded sample with a standard "
            "error of half a chip or less. Unknown cards (those folded face down) count as "
            "still in the deck; a stud player's folded up cards do not. Positive: luckier "
            "than the cards deserved.",
        ),
        Figure(
            "laydown",
            "Lay-down rate",
            "lay-down rate (Zoot, Wheelers)",
            lambda t: t.laydown_rate,
            _games,
            "rate",
            "in Zoot and Wheelers, the player's lay-downs over the lay-down windows they "
            "chose in (a timed-out choice is a play-on, rules §1.4).",
            guts=True,
        ),
        Figure(
            "challenge",
            "Challenge success",
            "challenge success (Zoot, Wheelers)",
            lambda t: t.challenge_rate,
            _games,
            "rate",
            "in Zoot and Wheelers, the games the player won as the challenger (the best "
            "hand, or tied for it, rules §1.7) over the games they were the challenger.",
            guts=True,
        ),
    )
}
"""Every statistic, in the order ``/stats`` shows them."""

HANDS_DEFINITION = (
    "hands the player was dealt in (Zoot and Wheelers: games), in league play: practice "
    "tables never count. A hand belongs to the season its chips moved in."
)
HEAD_TO_HEAD_DEFINITION = (
    "`/stats member: versus:` counts the hands both played; the chips between them (in "
    "each hand, the chips a player lost are shared among those who won chips, in "
    "proportion to what each won); and their showdowns against each other (both still "
    "in): won by one, by the other, or split (both took chips)."
)
