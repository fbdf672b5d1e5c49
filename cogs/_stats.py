"""The league cog's statistics: ``/stats`` (a member's figures per game, a picture, a head to
head with ``versus:``) and the leaderboard ranked by a statistic. The figures come from
:mod:`bot.league.collect` (computed once per hand, in the worker pool); the words from
:mod:`bot.league.stats_text`. Discord-free apart from the files it returns.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING

import discord

from bot.league.collect import SeasonStats, cache_for, head_to_head
from bot.league.figures import Tally
from bot.league.glossary import FIGURES
from bot.league.ranking import RankedFigure, min_hands_for, paginate, rank_figure
from bot.league.stats_text import (
    GLOSSARY,
    card_rows,
    figure_text,
    figure_value_text,
    head_to_head_text,
    luck_text,
)
from bot.render.charts import render_balance_chart
from bot.render.pool import render
from bot.render.statcard import render_stat_card
from bot.render.text import format_chips, plain_name, plural, safe_name
from bot.store import Season
from cogs._files import upload

if TYPE_CHECKING:
    from bot.app import HomeGameBot


def member_label(user: discord.abc.User) -> str:
    return safe_name(user.display_name)


async def season_stats(
    bot: HomeGameBot, guild_id: int, season: Season, game: str | None = None
) -> SeasonStats:
    return await cache_for(bot.store).season(bot.store, guild_id, season_id=season.id, game=game)


async def figure_page(
    bot: HomeGameBot,
    guild_id: int,
    season: Season,
    *,
    game: str | None,
    by: str,
    min_hands: int | None,
    page: int,
    what: str,
) -> tuple[str, int, int, bool, bool]:
    """(body, page shown, page count, has previous, has next) of a leaderboard by a
    statistic."""
    figure = FIGURES[by]
    stats = await season_stats(bot, guild_id, season, game)
    tallies = {u: stats.tally(u) for u in stats.members()}
    need = min_hands_for(by, min_hands)
    ranked = rank_figure(tallies, by, min_hands=need)
    shown = paginate(ranked, page)
    unit = "game" if figure.guts else "hand"
    if not shown.rows:
        body = (
            f"Nobody has {plural(max(need, 1), unit)} of {what} with a {figure.name} this "
            f"season yet (`min_hands:` lowers the bar)."
        )
    else:
        body = "\n".join(_figure_line(r, by) for r in shown.rows)
    body += f"\n-# {figure.name}: {GLOSSARY}; at least {plural(max(need, 1), unit)}."
    return body, shown.number, shown.count, shown.has_prev, shown.has_next


def _figure_line(r: RankedFigure, by: str) -> str:
    return f"{r.rank}. <@{r.user_id}>: {figure_value_text(FIGURES[by], r)}"


def _game_name(names: dict[str, str]) -> Callable[[str], str]:
    return lambda g: names.get(g, g)


async def stats_answer(
    bot: HomeGameBot,
    guild_id: int,
    who: discord.abc.User,
    *,
    versus: discord.abc.User | None,
    game: str | None,
    season: Season,
    game_names: dict[str, str],
) -> tuple[str, list[discord.File]]:
    """The text and pictures of ``/stats``."""
    async with bot.store.read() as tx:
        wallet = await tx.find_wallet(guild_id, who.id, season=season)
        summaries = {s.user_id: s for s in await tx.player_summaries(guild_id, season=season)}
        totals = await tx.game_totals(guild_id, who.id, season=season)
        # the chart draws the balance as played: a settle-up pays money, it is no result
        points = [] if wallet is None else await tx.balance_points(wallet.id, payments=False)
    stats = await season_stats(bot, guild_id, season, game)
    name = _game_name(game_names)
    state = "" if season.open else " (ended)"
    lines = [f"**Season {season.number}{state} · {member_label(who)}**"]
    summary = summaries.get(who.id)
    if summary is not None:
        paid = (
            f" · settle-ups {format_chips(summary.settled, signed=True)} (paid in money)"
            if summary.settled
            else ""
        )
        lines.append(
            f"Balance {format_chips(summary.balance)} · received "
            f"{format_chips(summary.received)} (start, grants, rebuys){paid} · net "
            f"{format_chips(summary.net, signed=True)}"
        )
    mine = stats.tallies.get(who.id, {})
    shown_totals = [t for t in totals if game is None or t.game == game]
    if not shown_totals:
        lines.append("No hands played yet." if game is None else f"No {name(game)} hands yet.")
    for t in shown_totals:
        tally = mine.get(t.game, Tally())
        lines.append(
            f"{name(t.game)}: {plural(t.hands, 'hand')} · won {t.won} · net "
            f"{format_chips(t.net, signed=True)} · biggest pot {format_chips(t.biggest_pot)}"
        )
        lines.append(f"-# {figure_text(tally, t.game)}")
        luck = luck_text(tally)
        if luck is not None:
            lines.append(f"-# {luck}")
    columns = [mine]
    labels = [plain_name(who.display_name)]
    if versus is not None:
        h2h = head_to_head(stats, who.id, versus.id)
        lines.append("")
        what = "all games" if game is None else name(game)
        lines.append(f"**Head to head with {member_label(versus)}** ({what})")
        lines.append(head_to_head_text(h2h, member_label(who), member_label(versus)))
        columns.append(stats.tallies.get(versus.id, {}))
        labels.append(plain_name(versus.display_name))
    lines.append(f"-# Definitions: {GLOSSARY}.")
    games = sorted({g for c in columns for g in c}, key=lambda g: list(game_names).index(g)
                   if g in game_names else 99)  # fmt: skip
    title = f"{' vs '.join(labels)} · season {season.number}" + (
        "" if game is None else f" · {name(game)}"
    )
    card = await render(render_stat_card, title, labels, card_rows(columns, games, name))
    files = [upload(card, "stats.png")]
    if points:
        chart = await render(
            render_balance_chart,
            [(datetime.fromtimestamp(at, UTC), balance) for at, balance in points],
            title=f"{labels[0]}: balance as played, season {season.number}",
        )
        files.append(upload(chart, "balance.png"))
    return "\n".join(lines), files
