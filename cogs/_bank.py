"""The night as the bank, in Discord: ``/buyin amount: member:``, ``/cashout amount:
member:``, **Approve** / **Refuse** on a member's request, ``/night show``, ``/night correct``,
``/night expense``, ``/night import file:`` with its member menu, and ``/pay handle:``.

Who may do what. The night's host and the league's admins keep the bank (the "bankers"):
they record a buy-in or cash-out for any member directly, and approve or refuse what a
member asks for themselves (never their own request), correct entries, import a ledger, and
record any expense; a member asks for their own buy-ins and cash-outs and records the
expenses they paid. Every change is a public post naming who made it (nothing is hidden)
and a row of the night's book with its ``actor_id``; every refusal is one ephemeral line
ending "Nothing changed." and changes nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from bot.engine.errors import HomeGameError
from bot.league.bank import (
    describe,
    leftover_text,
    money_only,
    parse_amount,
    parse_members,
)
from bot.league.pokernow import MAX_BYTES, digest, parse_ledger
from bot.render.limits import CONTENT, FIELD_VALUE, fit_lines
from bot.render.text import plain_name, plural, safe_name
from bot.store.bank import KIND_WORDS, NightBook
from bot.store.imports import NightImport, match_players
from bot.store.models import League
from bot.store.night_models import Night
from bot.store.nights import chip_value_of
from cogs._answer import send
from cogs._night_items import BankDecisionButton, ImportSelect
from cogs._night_post import RENEW_AFTER, guild_of
from cogs.admin import is_league_admin

if TYPE_CHECKING:
    from bot.app import HomeGameBot

_NONE = discord.AllowedMentions.none()
SELECTS_PER_MESSAGE = 5
"""Discord: a select fills an action row, and a message has at most 5 rows."""
ENTRIES_SHOWN = 15


class BankRefusal(HomeGameError):
    """A bank command this member may not do, or bad input; nothing changed."""


def is_banker(interaction: discord.Interaction, league: League | None, night: Night) -> bool:
    return night.host_id == interaction.user.id or is_league_admin(interaction, league)


def _not_banker(night: Night, doing: str) -> BankRefusal:
    return BankRefusal(
        f"Only the night's host (<@{night.host_id}>) or a league admin may {doing}. "
        "Nothing changed."
    )


def member_id(value: discord.abc.User | None, interaction: discord.Interaction, doing: str) -> int:
    """The member an option names (default: the one running the command); a bot, or a user
    who is not a member of the server, is refused."""
    if value is None:
        return interaction.user.id
    if value.bot:
        raise BankRefusal(f"<@{value.id}> is a bot: only members {doing}. Nothing changed.")
    if not isinstance(value, discord.Member):
        raise BankRefusal(
            f"<@{value.id}> is not a member of this server: only members {doing}. Nothing changed."
        )
    return value.id


def _line(book: NightBook, user_id: int, value: Any) -> str:
    for line in book.lines:
        if line.user_id == user_id:
            return (
                f"<@{user_id}>: in {money_only(line.bought_in, value)} "
                f"({plural(line.buy_ins, 'buy-in')}), out {money_only(line.cashed_out, value)}."
            )
    return ""


async def _renew_or_edit(
    interaction: discord.Interaction, *, content: str, view: discord.ui.View | None
) -> None:
    """Edit the clicked post in place, or, past :data:`RENEW_AFTER` (Discord caps edits to
    messages older than an hour), answer with a new public post."""
    message = interaction.message
    age = (interaction.created_at - message.created_at).total_seconds() if message else RENEW_AFTER
    if message is not None and age < RENEW_AFTER:
        await interaction.response.edit_message(content=content, view=view, allowed_mentions=_NONE)
        return
    await interaction.response.send_message(
        content, view=view or discord.utils.MISSING, allowed_mentions=_NONE
    )


class BankDesk:
    def __init__(self, bot: HomeGameBot) -> None:
        self.bot = bot

    # ------------------------------------------------------------------ /buyin, /cashout

    async def entry(
        self,
        interaction: discord.Interaction,
        kind: str,
        amount: str,
        member: discord.abc.User | None,
    ) -> None:
        guild_id = guild_of(interaction)
        word = KIND_WORDS[kind]
        doing = "buy in" if kind == "buyin" else "cash out"
        me = interaction.user.id
        who = member_id(member, interaction, doing)
        async with self.bot.store.transaction() as tx:
            night = await tx.bank_night(guild_id, f"a {word}")
            league = await tx.find_league(guild_id)
            value = chip_value_of(league)
            parsed = parse_amount(amount, value)
            banker = is_banker(interaction, league, night)
            if who != me and not banker:
                raise BankRefusal(
                    f"Only the night's host (<@{night.host_id}>) or a league admin records a "
                    f"{word} for someone else; ask for yours with `/{kind} amount:`. "
                    "Nothing changed."
                )
            direct = banker and member is not None
            if direct:
                entry = await tx.book_entry(night, who, kind, parsed.chips, actor_id=me)
                book = await tx.night_book(night)
            else:
                request = await tx.ask(night, who, kind, parsed.chips)
        money = describe(parsed.chips, value)
        if direct:
            await send(
                interaction,
                f"💶 <@{me}> booked <@{who}>'s {word} of **{money}** (entry #{entry.id}, "
                f"night #{night.number}). {_line(book, who, value)}",
                allowed_mentions=_NONE,
            )
            return
        view = discord.ui.View(timeout=None)
        view.add_item(BankDecisionButton.make(request.id, approve=True))
        view.add_item(BankDecisionButton.make(request.id, approve=False))
        sent = await send(
            interaction,
            f"🙋 <@{who}> asks for a {word} of **{money}** (request #{request.id}, night "
            f"#{night.number}). The host (<@{night.host_id}>) or a league admin: Approve or "
            "Refuse.",
            view=view,
            allowed_mentions=_NONE,
        )
        message = sent if sent is not None else await interaction.original_response()
        async with self.bot.store.transaction() as tx:
            await tx.request_posted(request.id, message.channel.id, message.id)

    async def decide(
        self, interaction: discord.Interaction, request_id: int, approve: bool
    ) -> None:
        guild_id = guild_of(interaction)
        me = interaction.user.id
        async with self.bot.store.transaction() as tx:
            try:
                request = await tx.bank_request(request_id)
                night = await tx._night(request.night_id)
            except LookupError:
                raise BankRefusal("That request is gone. Nothing changed.") from None
            if night.guild_id != guild_id:
                raise BankRefusal("That request is not one of this server's. Nothing changed.")
            league = await tx.find_league(guild_id)
            value = chip_value_of(league)
            pending_elsewhere = request.status == "pending" and request.user_id != me
            if pending_elsewhere and not is_banker(interaction, league, night):
                raise _not_banker(night, f"approve or refuse <@{request.user_id}>'s {request.word}")
            decided, entry = await tx.decide(request_id, actor_id=me, approve=approve)
            book = await tx.night_book(night)
        money = describe(decided.chips, value)
        if entry is not None:
            text = (
                f"✅ <@{me}> approved <@{decided.user_id}>'s {decided.word} of **{money}** "
                f"(request #{decided.id}, entry #{entry.id}). {_line(book, decided.user_id, value)}"
            )
        else:
            text = (
                f"❌ <@{me}> refused <@{decided.user_id}>'s {decided.word} of **{money}** "
                f"(request #{decided.id}): nothing was booked."
            )
        await _renew_or_edit(interaction, content=text, view=None)

    # ------------------------------------------------------------------ /night show

    async def show(self, interaction: discord.Interaction) -> None:
        guild_id = guild_of(interaction)
        async with self.bot.store.read() as tx:
            night = await tx.open_night(guild_id)
            if night is None:
                raise BankRefusal("No night is on: start one with `/night start`.")
            results = await tx.night_results(night)
            book = await tx.night_book(night)
            value = chip_value_of(await tx.find_league(guild_id))
        kind = {"tables": "the bot's tables", "bank": "a bank night", "both": "tables and bank"}
        lines = [
            f"**Night #{night.number}** ({kind[night.kind]}), since <t:{night.started_at}:t>, "
            f"host <@{night.host_id}>"
        ]
        if not results.players:
            lines.append("Nobody has played or bought in yet.")
        for i, p in enumerate(results.players, start=1):
            bits = []
            if night.tables:
                bits.append(
                    f"tables {money_only(p.net, value, signed=True)} ({plural(p.hands, 'hand')})"
                )
            if p.bought_in or p.cashed_out:
                buys = next((line.buy_ins for line in book.lines if line.user_id == p.user_id), 0)
                bits.append(
                    f"in {money_only(p.bought_in, value)} ({plural(buys, 'buy-in')}), out "
                    f"{money_only(p.cashed_out, value)}"
                )
            if p.expenses:
                bits.append(f"expenses {money_only(p.expenses, value, signed=True)}")
            lines.append(
                f"{i}. <@{p.user_id}> "
                + " · ".join(bits)
                + f" · net **{money_only(p.total, value, signed=True)}**"
            )
        embed = discord.Embed(
            title=f"Night #{night.number} so far",
            description=fit_lines(lines, 3000),
            colour=discord.Colour.dark_green(),
        )
        if night.bank:
            diff = book.difference
            state = (
                "balanced"
                if diff == 0
                else f"{money_only(abs(diff), value)} "
                + ("missing" if diff > 0 else "more out than in")
            )
            bank = [
                f"Money in {money_only(book.money_in, value)} · money out "
                f"{money_only(book.money_out, value)} · difference {state}"
            ]
            if book.not_cashed_out:
                bank.append(
                    "Not cashed out yet: " + ", ".join(f"<@{u}>" for u in book.not_cashed_out)
                )
            embed.add_field(name="Bank", value=fit_lines(bank, FIELD_VALUE), inline=False)
        if book.pending:
            embed.add_field(
                name="Waiting for Approve or Refuse",
                value=fit_lines(
                    [
                        f"#{r.id} <@{r.user_id}>'s {r.word} of {money_only(r.chips, value)}"
                        for r in book.pending
                    ],
                    FIELD_VALUE,
                ),
                inline=False,
            )
        if book.expenses:
            embed.add_field(
                name="Expenses",
                value=fit_lines(
                    [
                        f"{safe_name(e.what)}: {money_only(e.chips, value)} paid by "
                        f"<@{e.paid_by}>, "
                        + (
                            "shared by everyone"
                            if e.shared_by is None
                            else "shared by " + ", ".join(f"<@{u}>" for u in e.shared_by)
                        )
                        for e in book.expenses
                    ],
                    FIELD_VALUE,
                ),
                inline=False,
            )
        if book.entries:
            shown = book.entries[-ENTRIES_SHOWN:]
            entries = [
                f"#{e.id} "
                + (f"correction of #{e.corrects}: " if e.corrects is not None else "")
                + f"{KIND_WORDS[e.kind]} "
                + (f"<@{e.user_id}> " if e.user_id is not None else "")
                + money_only(e.chips, value, signed=e.corrects is not None)
                + f" by <@{e.actor_id}>"
                + (f" ({safe_name(e.reason)})" if e.reason and e.corrects is not None else "")
                for e in shown
            ]
            more = len(book.entries) - len(shown)
            embed.add_field(
                name=f"Entries (the last {len(shown)} of {len(book.entries)})"
                if more
                else "Entries",
                value=fit_lines(entries, FIELD_VALUE),
                inline=False,
            )
        await send(interaction, embed=embed, allowed_mentions=_NONE)

    # ------------------------------------------------------------------ /night correct

    async def correct(
        self, interaction: discord.Interaction, entry: int, amount: str, reason: str
    ) -> None:
        guild_id = guild_of(interaction)
        me = interaction.user.id
        async with self.bot.store.transaction() as tx:
            night = await tx.bank_night(guild_id, "a correction")
            league = await tx.find_league(guild_id)
            if not is_banker(interaction, league, night):
                raise _not_banker(night, "correct the bank")
            value = chip_value_of(league)
            chips = (
                0 if amount.strip() in ("0", "0 chips", "0c") else parse_amount(amount, value).chips
            )
            original, correction = await tx.correct_entry(
                guild_id, entry, chips, reason=reason, actor_id=me
            )
            book = await tx.night_book(night)
        was = original.chips
        await send(
            interaction,
            f"✏️ <@{me}> corrected entry #{original.id} (<@{original.user_id}>'s "
            f"{KIND_WORDS[original.kind]} of {money_only(was, value)}"
            + (", as corrected before" if was + correction.chips != chips else "")
            + f") to **{money_only(chips, value)}**: {safe_name(correction.reason or '')} "
            f"(entry #{correction.id}, {money_only(correction.chips, value, signed=True)}). "
            + _line(book, original.user_id or 0, value),
            allowed_mentions=_NONE,
        )

    # ------------------------------------------------------------------ /night expense

    async def _members(self, interaction: discord.Interaction, text: str) -> list[int]:
        ids = parse_members(text)
        rest = leftover_text(text)
        if rest:
            raise BankRefusal(
                f"`{safe_name(rest[:40])}` in shared_by is not a member: pick members with @ "
                "(e.g. `@ann @bob`). Nothing changed."
            )
        guild = interaction.guild
        assert guild is not None
        for uid in ids:
            member = guild.get_member(uid)
            if member is None:
                try:
                    member = await guild.fetch_member(uid)
                except discord.NotFound:
                    raise BankRefusal(
                        f"<@{uid}> is not a member of this server. Nothing changed."
                    ) from None
            if member.bot:
                raise BankRefusal(f"<@{uid}> is a bot: only members share. Nothing changed.")
        return ids

    async def expense(
        self,
        interaction: discord.Interaction,
        amount: str,
        what: str,
        paid_by: discord.abc.User | None,
        shared_by: str | None,
    ) -> None:
        guild_id = guild_of(interaction)
        me = interaction.user.id
        payer = member_id(paid_by, interaction, "pay expenses")
        sharers = None if shared_by is None else await self._members(interaction, shared_by)
        async with self.bot.store.transaction() as tx:
            night = await tx.open_night(guild_id)
            if night is None:
                raise BankRefusal("No night is on: start one with `/night start`. Nothing changed.")
            league = await tx.find_league(guild_id)
            if payer != me and not is_banker(interaction, league, night):
                raise _not_banker(night, "record an expense somebody else paid")
            value = chip_value_of(league)
            chips = parse_amount(amount, value).chips
            everyone = {p.user_id for p in (await tx.night_results(night)).players}
            expense = await tx.add_expense(
                night,
                what=what,
                chips=chips,
                paid_by=payer,
                shared_by=sharers,
                actor_id=me,
                everyone=everyone,
            )
        by = (
            f"everyone of the night ({plural(len(everyone), 'player')} so far)"
            if expense.shared_by is None
            else ", ".join(f"<@{u}>" for u in expense.shared_by)
        )
        each = len(everyone) if expense.shared_by is None else len(expense.shared_by)
        await send(
            interaction,
            f"🧾 <@{me}> recorded an expense of night #{night.number}: "
            f"**{safe_name(expense.what)}**, "
            f"{describe(chips, value)}, paid by <@{payer}>, shared by {by}"
            + (f" (about {money_only(chips // max(each, 1), value)} each)" if each > 1 else "")
            + ". It is in the settle-up.",
            allowed_mentions=_NONE,
        )

    # ------------------------------------------------------------------ /night import

    async def import_file(
        self, interaction: discord.Interaction, file: discord.Attachment, units: str
    ) -> None:
        guild_id = guild_of(interaction)
        me = interaction.user.id
        async with self.bot.store.read() as tx:
            night = await tx.bank_night(guild_id, "an import")
            league = await tx.find_league(guild_id)
            if not is_banker(interaction, league, night):
                raise _not_banker(night, "import a ledger")
            value = chip_value_of(league)
            known = await tx.known_names(guild_id)
            seat_names = await tx.seat_names(guild_id)
        if file.size > MAX_BYTES:
            raise BankRefusal(
                f"{safe_name(file.filename)} is {file.size:,} bytes; a ledger is at most "
                f"{MAX_BYTES:,}. Nothing changed."
            )
        data = await file.read()
        players = parse_ledger(data, units=units, value=value)
        names = dict(seat_names)
        if interaction.guild is not None:
            for m in interaction.guild.members:
                if not m.bot:
                    names.setdefault(m.id, m.display_name)
                    names.setdefault(m.id, m.name)
        matches = match_players(players, known, names)
        async with self.bot.store.transaction() as tx:
            found = await tx.create_import(
                night,
                filename=file.filename,
                sha256=digest(data),
                units=units,
                players=players,
                matches=matches,
                actor_id=me,
            )
            if not found.unmatched:
                await tx.book_import(found.id, actor_id=me)
                found = await tx.night_import(found.id)
        text, view = self._import_post(found, value, me)
        await send(interaction, text, view=view, allowed_mentions=_NONE)

    def _import_post(
        self, found: NightImport, value: Any, actor: int
    ) -> tuple[str, discord.ui.View | None]:
        booked = found.status == "booked"
        head = (
            f"📥 <@{actor}> imported **{safe_name(found.filename)}** (a PokerNow ledger, amounts "
            f"in {found.units}): {plural(len(found.players), 'player')}, money in "
            f"{money_only(sum(p.buy_in for p in found.players), value)}, money out "
            f"{money_only(sum(p.cash_out for p in found.players), value)}."
        )
        lines = [head]
        for p, m in zip(found.players, found.matches, strict=True):
            who = f"<@{m}>" if m is not None else "**who?**"
            lines.append(
                f"- `{plain_name(p.name)[:40]}` → {who}: in {money_only(p.buy_in, value)}, out "
                f"{money_only(p.cash_out, value)}, net {money_only(p.net, value, signed=True)}"
                + (" (still seated: their stack)" if p.seated else "")
            )
        if booked:
            lines.append("Booked as buy-ins and cash-outs of the night.")
            return fit_lines(lines, CONTENT), None
        left = found.unmatched
        lines.append(
            f"{plural(len(left), 'name')} not matched to a member: choose who they are below; "
            "the file is booked once every player has a member."
        )
        view = discord.ui.View(timeout=None)
        for index in left[:SELECTS_PER_MESSAGE]:
            view.add_item(
                ImportSelect.make(found.id, index, name=plain_name(found.players[index].name))
            )
        return fit_lines(lines, CONTENT), view

    async def match(
        self, interaction: discord.Interaction, import_id: int, index: int, chosen: Any
    ) -> None:
        guild_id = guild_of(interaction)
        me = interaction.user.id
        who = member_id(chosen, interaction, "take part in a night")
        async with self.bot.store.transaction() as tx:
            found = await tx.night_import(import_id)
            night = await tx._night(found.night_id)
            if night.guild_id != guild_id:
                raise BankRefusal("That import is not one of this server's. Nothing changed.")
            league = await tx.find_league(guild_id)
            if not is_banker(interaction, league, night):
                raise _not_banker(night, "match an import's players")
            found = await tx.match_import(import_id, index, who)
            if not found.unmatched:
                await tx.book_import(import_id, actor_id=me)
                found = await tx.night_import(import_id)
            value = chip_value_of(league)
        text, view = self._import_post(found, value, found.actor_id)
        await _renew_or_edit(interaction, content=text, view=view)

    # ------------------------------------------------------------------ /pay

    async def pay(self, interaction: discord.Interaction, handle: str | None, clear: bool) -> None:
        guild_id = guild_of(interaction)
        me = interaction.user.id
        if handle is not None and clear:
            raise BankRefusal("Give a handle or clear it, not both. Nothing changed.")
        async with self.bot.store.transaction() as tx:
            await tx.league(guild_id)
            if handle is not None:
                await tx.set_pay_handle(guild_id, me, handle)
            elif clear:
                await tx.set_pay_handle(guild_id, me, None)
            stored = (await tx.pay_handles(guild_id, [me])).get(me)
        if stored is None:
            text = (
                "No payment handle stored: settle-ups show none for you."
                if not clear
                else "Your payment handle is removed: settle-ups show none for you."
            )
        else:
            text = (
                f"{'Saved' if handle is not None else 'Stored'}: settle-ups you take part in show "
                f"**{safe_name(stored)}** as how you like to be paid (only there)."
            )
        await send(interaction, text, ephemeral=True, allowed_mentions=_NONE)
