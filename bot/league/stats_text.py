"""The words and picture rows of ``/stats`` and of a leaderboard by a statistic (pure: the
cog sends them).

>>> from bot.league.figures import Tally
>>> figure_text(Tally(hands=30, vpip=9, pfr=6, saw_flop=10, showdowns=4, showdown_wins=3), "holdem")
'VPIP 30.0% · PFR 20.0% · 3-bet – · WTSD 40.0% · W$SD 75.0% · AF –'
>>> figure_text(Tally(games=12, windows=20, laydowns=5, challenges=4, challenge_wins=3), "zoot")
'lay-down 25.0% · challenges won 3/4 (75.0%)'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from bot.league.collect import HeadToHead
from bot.league.figures import GUTS_GAMES, Tally
from bot.league.glossary import FIGURES, Figure, format_value
from bot.league.ranking import RankedFigure
from bot.render.statcard import StatRow
from bot.render.text import format_chips, plural

POKER_FIGURES = ("vpip", "pfr", "three_bet", "wtsd", "wsd", "af")
GUTS_FIGURES = ("laydown", "challenge")
GLOSSARY = "/rules glossary §11"


def figure_text(tally: Tally, game: str) -> str:
    """The statistics of one game's totals, in one line."""
    if game in GUTS_GAMES:
        rate = format_value("rate", tally.challenge_rate)
        challenge = (
            f"challenges won {tally.challenge_wins}/{tally.challenges} ({rate})"
            if tally.challenges
            else "never the challenger"
        )
        return f"lay-down {FIGURES['laydown'].text(tally)} · {challenge}"
    return " · ".join(f"{FIGURES[k].name} {FIGURES[k].text(tally)}" for k in POKER_FIGURES)


def luck_text(tally: Tally) -> str | None:
    """``all-in: 3 hands · won +120 · expected +80.4 · luck +39.6`` (None without any)."""
    if not tally.all_in_hands:
        return None
    return (
        f"all-in: {plural(tally.all_in_hands, 'hand')} · won "
        f"{format_chips(tally.all_in_won, signed=True)} · expected {tally.expected:+,.1f} · "
        f"luck {tally.all_in_won - tally.expected:+,.1f}"
    )


def figure_value_text(figure: Figure, ranked: RankedFigure) -> str:
    """A leaderboard row's figure and what it is measured over."""
    t = ranked.tally
    if figure.key == "luck":
        return (
            f"{figure.name} {format_value('chips', ranked.value)} (won "
            f"{format_chips(t.all_in_won, signed=True)}, expected {t.expected:+,.0f}) · "
            f"{plural(t.all_in_hands, 'all-in hand')}"
        )
    count = figure.count(t)
    what = plural(count, "game") if figure.guts else plural(count, "hand")
    return f"{figure.name} {format_value(figure.style, ranked.value)} · {what}"


def _bar(figure: Figure, tally: Tally) -> float | None:
    value = figure.value(tally)
    return value if figure.style == "rate" and value is not None else None


def card_rows(
    columns: Sequence[Mapping[str, Tally]], games: Sequence[str], names: Callable[[str], str]
) -> list[StatRow]:
    """Picture rows: for each game, its hands then each statistic, one text per column."""
    rows: list[StatRow] = []
    for game in games:
        tallies = [c.get(game, Tally()) for c in columns]
        guts = game in GUTS_GAMES
        rows.append(StatRow(names(game), (), heading=True))
        counts = [plural(t.games, "game") if guts else plural(t.hands, "hand") for t in tallies]
        rows.append(StatRow("games" if guts else "hands", tuple(counts)))
        for key in GUTS_FIGURES if guts else POKER_FIGURES:
            f = FIGURES[key]
            rows.append(
                StatRow(
                    f.name,
                    tuple(f.text(t) for t in tallies),
                    tuple(_bar(f, t) for t in tallies),
                )
            )
        if not guts and any(t.all_in_hands for t in tallies):
            rows.append(
                StatRow(
                    "All-in: won / expected",
                    tuple(
                        f"{format_chips(t.all_in_won, signed=True)} / {t.expected:+,.0f}"
                        if t.all_in_hands
                        else "–"
                        for t in tallies
                    ),
                )
            )
    return rows


def head_to_head_text(h2h: HeadToHead, first: str, second: str) -> str:
    """The head-to-head lines (names may be mentions)."""
    if not h2h.hands:
        return f"{first} and {second} have played no hand together."
    chips = round(h2h.net)
    if chips > 0:
        between = f"{first} won **{chips:,}** chips net from {second}"
    elif chips < 0:
        between = f"{second} won **{-chips:,}** chips net from {first}"
    else:
        between = "no chips changed hands between them on balance"
    lines = [f"{plural(h2h.hands, 'hand')} together · {between}"]
    if h2h.showdowns:
        lines.append(
            f"showdowns against each other: {h2h.showdowns} · {first} won {h2h.won}, "
            f"{second} won {h2h.lost}, split {h2h.split}"
        )
    else:
        lines.append("no showdown against each other")
    return "\n".join(lines)
