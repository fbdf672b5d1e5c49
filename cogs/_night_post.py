"""The settle-up post: the results embed, the receipt picture and a **Paid** button per
transfer (its payer or payee marks it), kept up to date when one is clicked; and
``/settle period:open``, every transfer of the server not yet paid.

A post older than :data:`RENEW_AFTER` is not edited (Discord caps edits to messages older
than an hour, 30046): a click there posts the settle-up's state anew, with the open
transfers' buttons, and that new message is the one kept up to date from then on.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.engine.errors import HomeGameError
from bot.league.bank import money_only
from bot.league.report import Report, build_report, marker
from bot.league.settle import EXACT_LIMIT, is_exact
from bot.render.limits import CONTENT, EMBED_TITLE, FIELD_VALUE, fit_lines
from bot.render.night import render_night
from bot.render.pool import render
from bot.render.text import plain_name, plural
from bot.store import PeriodResults
from bot.store.night_models import Settlement
from cogs._answer import defer, send
from cogs._files import upload
from cogs._night_items import PaidButton

if TYPE_CHECKING:
    from bot.app import HomeGameBot

_NONE = discord.AllowedMentions.none()

RESULTS_ROOM = 2400
"""Characters of the results list in the embed's description: with the title and the
fields of at most 1,024 the embed stays within Discord's 6,000 in all."""
TRANSFERS_FIELD = "Settle-up: who pays whom"
MAX_PAID_BUTTONS = 25
"""Discord: at most 5 rows of 5 buttons in a message."""
MAX_FETCHED = 25
"""Members whose names a post asks Discord for (one request each)."""
RENEW_AFTER = 50 * 60
"""Seconds after which a post is posted anew rather than edited (Discord: 30046 past an hour)."""


def guild_of(interaction: discord.Interaction) -> int:
    if interaction.guild_id is None:
        raise app_commands.NoPrivateMessage("Nights live in a server: use this there.")
    return interaction.guild_id


def _fits(lines: list[str], limit: int) -> tuple[str, bool]:
    """The lines within ``limit`` ("… and N more" if cut) and whether all of them fit."""
    text = fit_lines(lines, limit)
    return text, text == "\n".join(lines)


def plan_words(results: PeriodResults) -> str:
    plan = results.plan()
    if not plan:
        return "Everyone is square: nobody pays anybody."
    # what the plan settles: what is owed now, or what the recorded settle-up settled
    basis = (
        results.owed()
        if results.settlement is None
        else {p.user_id: p.total for p in results.players}
    )
    exact = is_exact(basis, results.groups) if sum(basis.values()) == 0 else True
    proof = (
        "the fewest possible"
        if exact
        else f"a short plan; the fewest is proven up to {EXACT_LIMIT} players"
    )
    return f"Settle-up: {plural(len(plan), 'transfer')} ({proof})."


def embed_of(results: PeriodResults, report: Report) -> tuple[discord.Embed, bool]:
    """The results embed and whether everything fit in it."""
    description, all_rows = _fits(report.results or ["No hands were played."], RESULTS_ROOM)
    embed = discord.Embed(
        title=f"Results of {results.label}"[:EMBED_TITLE],
        description=description,
        colour=discord.Colour.dark_green(),
    )
    complete = all_rows
    if report.pot is not None:
        embed.add_field(name="Biggest pot", value=report.pot[:FIELD_VALUE], inline=False)
    if report.bank:
        text, whole = _fits(report.bank, FIELD_VALUE)
        embed.add_field(name="Bank", value=text, inline=False)
        complete = complete and whole
    if report.expenses:
        text, whole = _fits(report.expenses, FIELD_VALUE)
        embed.add_field(name="Expenses", value=text, inline=False)
        complete = complete and whole
    transfers, all_transfers = _fits(
        report.transfers or ["Nobody pays anybody: everyone is square."], FIELD_VALUE
    )
    embed.add_field(name=TRANSFERS_FIELD, value=transfers, inline=False)
    notes, all_notes = _fits(report.notes, FIELD_VALUE)
    embed.add_field(name="Notes", value=notes, inline=False)
    if results.settlement is not None and results.settlement.rows:
        left = report.open_count
        embed.set_footer(
            text="Every transfer is paid."
            if not left
            else f"Still open: {plural(left, 'transfer')}. Payer or payee: press Paid once "
            "the money has changed hands."
        )
    return embed, complete and all_transfers and all_notes


def paid_view(settlement: Settlement | None) -> discord.ui.View | None:
    """A **Paid** button per transfer (the first 25), marked as its line is."""
    if settlement is None or not settlement.rows:
        return None
    view = discord.ui.View(timeout=None)
    for row in settlement.rows[:MAX_PAID_BUTTONS]:
        if row.carried_into is not None:
            continue
        view.add_item(
            PaidButton.make(row.id, emoji=marker(row.number), paid=row.paid_at is not None)
        )
    return view if view.children else None


def _plain_pot(results: PeriodResults, name: Callable[[int], str]) -> str:
    pot = results.biggest_pot
    assert pot is not None
    winners = ", ".join(name(u) for u in pot.winners) or "nobody"
    return (
        f"Biggest pot: {pot.chips:,} chips, hand {pot.number} of table #{pot.table_id}, {winners}"
    )


class SettlePost:
    """Posts settle-ups and keeps their Paid buttons working."""

    def __init__(self, bot: HomeGameBot) -> None:
        self.bot = bot

    async def _names(
        self,
        guild_id: int,
        me: discord.abc.User,
        guild: discord.Guild | None,
        wanted: Iterable[int] = (),
    ) -> Callable[[int], str]:
        """Members' names for the picture and the text copy: as the tables saved them, else
        the server's (asked of Discord for up to :data:`MAX_FETCHED` members: the bot has
        no member list), else ``player <id>``."""
        async with self.bot.store.read() as tx:
            names = await tx.seat_names(guild_id)
        fetched: dict[int, str] = {}
        missing = sorted(u for u in wanted if u > 0 and u not in names and u != me.id)
        for uid in missing[:MAX_FETCHED]:
            member = guild.get_member(uid) if guild is not None else None
            if member is None and guild is not None:
                try:
                    member = await guild.fetch_member(uid)
                except discord.HTTPException:
                    member = None
            if member is not None:
                fetched[uid] = member.display_name

        def name(user_id: int) -> str:
            if user_id < 0:
                return f"Computer {-user_id}"
            if user_id in names:
                return plain_name(names[user_id])
            if user_id == me.id:
                return plain_name(me.display_name)
            if user_id in fetched:
                return plain_name(fetched[user_id])
            return f"player {user_id}"

        return name

    async def report(
        self, interaction: discord.Interaction, results: PeriodResults
    ) -> tuple[Report, Callable[[int], str]]:
        guild_id = guild_of(interaction)
        members = {t.payee for t in results.plan()} | {t.payer for t in results.plan()}
        wanted = members | {p.user_id for p in results.players}
        wanted |= {e.paid_by for e in results.expenses}
        name = await self._names(guild_id, interaction.user, interaction.guild, wanted)
        async with self.bot.store.read() as tx:
            handles = await tx.pay_handles(guild_id, members)
            pot = results.biggest_pot
            pot_channel = None if pot is None else await tx.table_channel(pot.table_id)
        report = build_report(
            results,
            names=name,
            channel_of=lambda table: pot_channel if pot and table == pot.table_id else None,
            handles=handles,
        )
        return report, name

    async def post(
        self, interaction: discord.Interaction, results: PeriodResults, *, headline: str
    ) -> None:
        """The results, the receipt picture and the Paid buttons, in public."""
        guild_id = guild_of(interaction)
        report, name = await self.report(interaction, results)
        async with self.bot.store.read() as tx:
            league = await tx.find_league(guild_id)
        embed, complete = embed_of(results, report)
        files: list[discord.File] = []
        if not complete:
            # more players or transfers than a message shows: all of it, as text
            files.append(
                upload(
                    report.plain.encode("utf-8"),
                    f"settle-up-{results.label.replace(' #', '-').replace(' ', '-')}.txt",
                )
            )
        images = self.bot.settings.ui.images and (league is None or league.images)
        # the picture takes a moment: answer "thinking" (in public, as the post will be)
        await defer(interaction, ephemeral=False)
        if images:
            value = results.value
            bank = results.kind == "bank"
            picture = await render(
                render_night,
                [(name(p.user_id), p.total, p.hands) for p in results.players],
                title=f"{results.label.capitalize()} · "
                + (
                    plural(len(results.players), "player")
                    if bank
                    else plural(results.hands, "hand")
                ),
                footer="" if report.pot is None else _plain_pot(results, name),
                expenses=_receipt_expenses(results, name),
                transfers=_receipt_transfers(results, name),
                amounts=None
                if value is None
                else [money_only(p.total, value, signed=True) for p in results.players],
                details=[f"in {money_only(p.bought_in, value)}" for p in results.players]
                if bank
                else None,
            )
            files.append(upload(picture, "night.png"))
            embed.set_image(url="attachment://night.png")
        kwargs: dict[str, Any] = {"embed": embed, "allowed_mentions": _NONE}
        if files:
            kwargs["files"] = files
        view = paid_view(results.settlement)
        if view is not None:
            kwargs["view"] = view
        sent = await send(interaction, fit_lines([headline], CONTENT), **kwargs)
        if results.settlement is not None and results.settlement.rows:
            message = sent if sent is not None else await interaction.original_response()
            async with self.bot.store.transaction() as tx:
                await tx.settle_posted(results.settlement.id, message.channel.id, message.id)

    # ------------------------------------------------------------------ Paid

    async def mark_paid(self, interaction: discord.Interaction, transfer_id: int) -> None:
        guild_id = guild_of(interaction)
        async with self.bot.store.transaction() as tx:
            row = await tx.mark_paid(guild_id, transfer_id, user_id=interaction.user.id)
            settlement = await tx.settlement(row.settlement_id)
        message = interaction.message
        done = (
            f"{marker(row.number)} <@{row.payer}> → <@{row.payee}> marked paid by "
            f"<@{interaction.user.id}>."
        )
        if message is not None and message.flags.ephemeral:
            text, view = await self.open_text(interaction, guild_id)
            await interaction.response.edit_message(
                content=fit_lines([done, "", *text.split("\n")], CONTENT),
                view=view,
                allowed_mentions=_NONE,
            )
            return
        embed = await self._refreshed_embed(interaction, settlement, message)
        view = paid_view(settlement) or discord.ui.View(timeout=None)
        age = (
            (interaction.created_at - message.created_at).total_seconds()
            if message is not None
            else 0.0
        )
        if message is not None and age < RENEW_AFTER:
            kwargs: dict[str, Any] = {"view": view, "allowed_mentions": _NONE}
            if embed is not None:
                kwargs["embed"] = embed
            await interaction.response.edit_message(**kwargs)
            return
        # too old to edit: the settle-up's state posted anew, kept up to date from now on
        await interaction.response.send_message(
            fit_lines([f"{done} Settle-up #{settlement.id}, as it stands:"], CONTENT),
            embed=embed or discord.utils.MISSING,
            view=view,
            allowed_mentions=_NONE,
        )
        fresh = await interaction.original_response()
        async with self.bot.store.transaction() as tx:
            await tx.settle_posted(settlement.id, fresh.channel.id, fresh.id)

    async def _refreshed_embed(
        self,
        interaction: discord.Interaction,
        settlement: Settlement,
        message: discord.Message | None,
    ) -> discord.Embed | None:
        """The clicked post's embed with its transfers field (and footer) brought up to
        date; None when the message has no embed of ours."""
        if message is None or not message.embeds:
            return None
        results = PeriodResults(
            period=settlement.period,
            label=f"settle-up #{settlement.id}",
            players=(),
            hands=0,
            biggest_pot=None,
            value=settlement.value,
            settlement=settlement,
        )
        report, _ = await self.report(interaction, results)
        old = message.embeds[0]
        embed = discord.Embed.from_dict(old.to_dict())
        transfers, _ = _fits(report.transfers, FIELD_VALUE)
        for i, fld in enumerate(embed.fields):
            if fld.name == TRANSFERS_FIELD:
                embed.set_field_at(i, name=TRANSFERS_FIELD, value=transfers, inline=False)
        left = report.open_count
        embed.set_footer(
            text="Every transfer is paid."
            if not left
            else f"Still open: {plural(left, 'transfer')}. Payer or payee: press Paid once "
            "the money has changed hands."
        )
        return embed

    # ------------------------------------------------------------------ /settle period:open

    async def open_text(
        self, interaction: discord.Interaction, guild_id: int
    ) -> tuple[str, discord.ui.View | None]:
        """Every open transfer of the server, oldest first, with Paid buttons for those the
        viewer pays or is paid."""
        me = interaction.user.id
        async with self.bot.store.read() as tx:
            rows = await tx.open_transfers(guild_id)
            settlements = {r.settlement_id: await tx.settlement(r.settlement_id) for r in rows}
            handles = await tx.pay_handles(guild_id, {r.payee for r in rows})
            labels = {}
            for sid, s in settlements.items():
                if s.night_id is not None:
                    night = await tx._night(s.night_id)
                    labels[sid] = f"night #{night.number}"
                else:
                    labels[sid] = "the season"
        if not rows:
            return "No transfer is open: every settle-up is paid.", None
        lines = [f"**Open transfers** ({plural(len(rows), 'transfer')}, oldest first)"]
        view = discord.ui.View(timeout=None)
        for r in rows:
            s = settlements[r.settlement_id]
            value = s.value
            money = "" if value is None else f" = **{value.format(value.rounded(r.chips))}**"
            handle = handles.get(r.payee)
            line = (
                f"{marker(r.number)} settle-up #{s.id} ({labels[s.id]}, <t:{s.created_at}:d>): "
                f"<@{r.payer}> pays <@{r.payee}> **{r.chips:,}** chips{money}"
            )
            if handle and me in (r.payer, r.payee):
                line += f" · pay to: {discord.utils.escape_markdown(handle)}"
            lines.append(line)
            if me in (r.payer, r.payee) and len(view.children) < MAX_PAID_BUTTONS:
                view.add_item(PaidButton.make(r.id, emoji=marker(r.number), paid=False))
        lines.append(
            "A transfer still open when the next night ends can be carried into its "
            "settle-up: `/night end carry_open:True`."
        )
        return fit_lines(lines, CONTENT), view if view.children else None

    async def open_list(self, interaction: discord.Interaction) -> None:
        guild_id = guild_of(interaction)
        async with self.bot.store.read() as tx:
            if await tx.find_league(guild_id) is None:
                raise HomeGameError("Nobody has played here yet: nothing to settle.")
        text, view = await self.open_text(interaction, guild_id)
        await send(interaction, text, view=view, ephemeral=True, allowed_mentions=_NONE)


def _receipt_expenses(results: PeriodResults, name: Callable[[int], str]) -> list[tuple[str, bool]]:
    value = results.value
    out = []
    for e in results.expenses:
        who = "everyone" if e.shared_by is None else ", ".join(name(u) for u in e.shared_by)
        money = f"{e.chips:,} chips" if value is None else value.format(value.rounded(e.chips))
        out.append((f"{e.what}: {money}, paid by {name(e.paid_by)}, shared by {who}", False))
    return out


def _receipt_transfers(
    results: PeriodResults, name: Callable[[int], str]
) -> list[tuple[str, bool]]:
    value = results.value
    settlement = results.settlement
    rows = list(settlement.rows) if settlement is not None else []
    out = []
    for i, t in enumerate(results.plan()):
        row = rows[i] if i < len(rows) else None
        money = f"{t.chips:,} chips" if value is None else value.format(value.rounded(t.chips))
        number = f"{row.number}. " if row is not None else ""
        out.append(
            (
                f"{number}{name(t.payer)} pays {name(t.payee)} {money}",
                row is not None and row.paid_at is not None,
            )
        )
    return out
