"""What a tournament looks like on Discord: the lobby message (the field, the prize pool,
the structure, the start or the clock, **Register** / **Unregister** / **Start**), the
buttons a post offers (a bust's **Rebuy** / **Re-enter** / **I'm out**, the **Add-on**),
what a table message shows of its tournament, and the results (text and picture rows).

Every countdown is a Discord timestamp (``<t:…:R>``): Discord counts it down in every
client, so no message is edited on a timer (DESIGN, "What each user sees").
"""

from __future__ import annotations

import discord

from bot.render.limits import FIELD_VALUE, fit_lines
from bot.render.text import format_chips, plural
from bot.tables.views import TournamentBanner
from bot.tournament.points import show as show_points
from bot.tournament_service import Lobby, Offer
from bot.tournament_service.finish import Results
from cogs._tournament_items import TournamentButton

COLOURS = {
    "registering": discord.Colour.blurple(),
    "running": discord.Colour.green(),
    "finished": discord.Colour.gold(),
    "cancelled": discord.Colour.dark_grey(),
}


def when(unix: int | None) -> str:
    """A time as Discord shows it to each reader: the date and time, and how far away."""
    return "—" if unix is None else f"<t:{unix}:f> (<t:{unix}:R>)"


def lobby_embed(lobby: Lobby) -> discord.Embed:
    head = [f"Host: <@{lobby.host_id}> · status: **{lobby.status}**"]
    if lobby.practice:
        head.append("Practice: computer players fill seats; no league chips move, no points.")
    if lobby.status == "registering":
        head.append(
            f"Starts {when(lobby.starts_at)}"
            if lobby.starts_at is not None
            else "Starts when the host presses **Start**"
        )
    elif lobby.status == "running":
        if lobby.paused:
            head.append(f"⏸ **Paused** at level {lobby.level}: {lobby.stakes}")
        elif lobby.on_break:
            head.append(
                f"☕ **Break** after level {lobby.level}; play resumes <t:{lobby.next_change}:R>"
            )
        else:
            head.append(f"**Level {lobby.level}**: {lobby.stakes}")
        if lobby.next_change is not None and not lobby.paused and not lobby.on_break:
            head.append(f"Next: {lobby.next_what} <t:{lobby.next_change}:R>")
        head.append(
            f"{plural(lobby.left, 'player')} left of {plural(lobby.entries, 'entry', 'entries')}"
        )
        if lobby.add_on_open:
            head.append("**The add-on** is on during this break: press **Add-on**.")
    embed = discord.Embed(
        title=lobby.title, description="\n".join(head), colour=COLOURS.get(lobby.status)
    )
    money = (
        f"Buy-in **{format_chips(lobby.buy_in)}**"
        + (f" + bounty {format_chips(lobby.bounty)}" if lobby.bounty else "")
        + f" · prize pool **{format_chips(lobby.prize_pool)}**"
        + (f" · bounties held {format_chips(lobby.bounty_fund)}" if lobby.bounty_fund else "")
    )
    if lobby.payouts:
        money += "\nPaid now: " + ", ".join(
            f"{i}. {format_chips(p)}" for i, p in enumerate(lobby.payouts, 1)
        )
    embed.add_field(name="Prize pool", value=money, inline=False)
    players = [
        (f"~~{p.name}~~" if not p.alive and lobby.status != "registering" else p.name)
        + (f" ×{p.entries}" if p.entries > 1 else "")
        + (f" (+{p.rebuys} rebuy{'s' if p.rebuys > 1 else ''})" if p.rebuys else "")
        for p in lobby.players
    ]
    embed.add_field(
        name=f"Field ({len(lobby.players)} of {lobby.max_players})",
        value=fit_lines(players, FIELD_VALUE) if players else "nobody yet: press **Register**",
        inline=False,
    )
    structure = [f"`{line}`" for line in _wrap(lobby.structure)]
    embed.add_field(
        name="Structure", value=fit_lines([*structure, *lobby.options], FIELD_VALUE), inline=False
    )
    if lobby.tables:
        embed.add_field(
            name="Tables",
            value=fit_lines(
                [f"table {n}: <#{channel}>" for n, _, channel in lobby.tables if channel],
                FIELD_VALUE,
            ),
            inline=False,
        )
    embed.set_footer(
        text=f"{lobby.rounding.split(';')[0]} · /rules tournament · state {lobby.version}"
    )
    return embed


def _wrap(text: str, width: int = 60) -> list[str]:
    out: list[str] = []
    line = ""
    for part in text.split(", "):
        nxt = part if not line else f"{line}, {part}"
        if len(nxt) > width and line:
            out.append(line + ",")
            line = part
        else:
            line = nxt
    if line:
        out.append(line)
    return out


def lobby_components(lobby: Lobby) -> discord.ui.View:
    ui = discord.ui.View(timeout=None)
    if lobby.status in ("finished", "cancelled"):
        return ui
    tid = lobby.tournament_id
    ui.add_item(TournamentButton.make(tid, "register", disabled=not lobby.registration_open))
    if lobby.status == "registering":
        ui.add_item(TournamentButton.make(tid, "unregister"))
        ui.add_item(TournamentButton.make(tid, "start", disabled=not lobby.can_start))
    if lobby.add_on_open:
        ui.add_item(TournamentButton.make(tid, "add_on"))
    return ui


def offer_components(offer: Offer) -> discord.ui.View:
    ui = discord.ui.View(timeout=None)
    for action in offer.actions:
        ui.add_item(TournamentButton.make(offer.tournament_id, action, user_id=offer.user_id))
    return ui


def tournament_lines(banner: TournamentBanner) -> list[str]:
    """What a table message says of its tournament (above its hand)."""
    lines = [f"🏆 **{banner.title}** · table {banner.table}"]
    if banner.state == "paused":
        lines.append(f"⏸ The clock is paused at level {banner.level}: {banner.stakes}")
    elif banner.state == "break":
        lines.append(
            f"☕ Break after level {banner.level}"
            + (f"; play resumes <t:{banner.next_change}:R>" if banner.next_change else "")
        )
    else:
        lines.append(f"**Level {banner.level}**: {banner.stakes}")
        if banner.next_change is not None and banner.next_what:
            lines.append(
                f"Next: {banner.next_what} <t:{banner.next_change}:R> (from the next hand)"
            )
    return lines


def results_rows(r: Results) -> list[tuple[str, str, int, int, str]]:
    return [
        (
            line.label,
            line.name,
            line.prize,
            line.bounties,
            "" if line.points is None else show_points(line.points),
        )
        for line in r.lines
    ]


def results_text(r: Results) -> str:
    """The results post: places, prizes, bounties, points, and the rounding."""
    if r.status == "cancelled":
        return f"**{r.title}** was cancelled: every buy-in went back by the ledger."
    head = (
        f"**{r.title}** · results · {plural(r.players, 'player')},"
        f" {plural(r.entries, 'entry', 'entries')} · prize pool {format_chips(r.prize_pool)}"
    )
    lines = [head]
    for line in r.lines:
        parts = [f"{line.label} **{line.name}**"]
        if line.prize:
            parts.append(f"prize {format_chips(line.prize)}")
        if line.bounties:
            parts.append(f"bounties {format_chips(line.bounties)}")
        if line.points is not None:
            parts.append(f"{show_points(line.points)} points")
        lines.append(" · ".join(parts))
    lines.append(f"-# {r.rounding}")
    if r.practice:
        lines.append("-# A practice tournament: no league chips moved, no points.")
    elif not r.scored:
        lines.append("-# Fewer than 4 players: no league points (as PokerStars Home Games).")
    return "\n".join(lines)


def results_footer(r: Results) -> str:
    return f"prize pool {format_chips(r.prize_pool)} · {r.rounding}"
