"""A night of poker and the settle-up: ``/night start|end|show|correct|expense|import|
schedule``, ``/settle [period: night|season|open] [record]``, ``/buyin``, ``/cashout`` and
``/pay``.

A night is per server, one at a time, of a kind: the bot's ``tables`` (as before), a
``bank`` for a game played anywhere (buy-ins, cash-outs: :mod:`cogs._bank`), or ``both``.
Starting one: a league admin or the host of a live table in the server (a bank night: any
member, who keeps its bank); ending it: the night's host or an admin. Ending records the
night's settle-up (bot/store/settleup.py says exactly what the rows are) and posts the
results with a receipt picture and a **Paid** button per transfer (:mod:`cogs._night_post`).
``/night schedule`` invites the server (:mod:`cogs._schedule`). ``/settle`` shows the same
for the current (or last) night or the current season (an admin may record the season's
with ``record``), or every transfer still open. Every refusal is an ephemeral reason and
changes nothing. The work is done (and any refusal answered) before the public answer is
deferred for the picture, so a refusal is never posted to the channel.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine.errors import HomeGameError
from bot.league.bank import money_only, parse_groups
from bot.league.pokernow import UNITS
from bot.render.text import plural, safe_name
from bot.store import NightError
from bot.store.night_models import NIGHT_KINDS
from bot.store.nights import chip_value_of
from bot.tables.channels import check_channel, parent_channel
from cogs._answer import arm_command, send
from cogs._bank import BankDesk, BankRefusal, is_banker
from cogs._night_items import NIGHT_ITEMS
from cogs._night_post import SettlePost, embed_of, guild_of, plan_words
from cogs._schedule import Invitations, event_link
from cogs.admin import is_league_admin

if TYPE_CHECKING:
    from bot.app import HomeGameBot

__all__ = ["BankCog", "BankRefusal", "NightCog", "embed_of", "is_banker", "setup"]

_NONE = discord.AllowedMentions.none()
_embed = embed_of  # the name the settle-up text's tests import

PERIOD_CHOICES = [
    app_commands.Choice(name="night (the current or last night)", value="night"),
    app_commands.Choice(name="season (the current season)", value="season"),
    app_commands.Choice(name="open (every transfer not yet paid)", value="open"),
]
KIND_CHOICES = [
    app_commands.Choice(name="tables (the bot's tables count, as before)", value="tables"),
    app_commands.Choice(
        name="bank (buy-ins and cash-outs of a game played anywhere)", value="bank"
    ),
    app_commands.Choice(name="both (the bot's tables and a bank)", value="both"),
]
UNIT_CHOICES = [
    app_commands.Choice(name="chips (each amount is league chips)", value="chips"),
    app_commands.Choice(name="cents (PokerNow in cents: 2050 is 20.50)", value="cents"),
    app_commands.Choice(name="money (the league's currency: 20.50)", value="money"),
]
EVENT_ACTIVE, EVENT_COMPLETED = 2, 3
"""Discord's Guild Scheduled Event Status values a linked night moves its event to."""

assert [c.value for c in KIND_CHOICES] == list(NIGHT_KINDS)
assert [c.value for c in UNIT_CHOICES] == list(UNITS)


class NotNightHost(HomeGameError):
    """A member who may not start, end or record this."""


class NightCog(commands.Cog, name="Night"):
    night = app_commands.Group(
        name="night",
        description="A night of poker in this server: start it, keep its bank, end it, settle up",
        guild_only=True,
    )

    def __init__(self, bot: HomeGameBot) -> None:
        self.bot = bot
        self.bank = BankDesk(bot)
        self.post = SettlePost(bot)
        self.schedule = Invitations(bot)

    async def cog_load(self) -> None:
        self.schedule.start()

    async def cog_unload(self) -> None:
        await self.schedule.stop()

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        """Every slash command of this cog answers within Discord's 3 seconds, also when
        the store is slow (:mod:`cogs._answer`)."""
        return arm_command(interaction)

    # ------------------------------------------------------------------ start / end

    @night.command(name="start", description="Start a night: the bot's tables, a bank, or both")
    @app_commands.describe(
        kind="tables: hands at league tables count (default); bank: buy-ins and cash-outs of "
        "a game played anywhere; both"
    )
    @app_commands.choices(kind=KIND_CHOICES)
    async def start(self, interaction: discord.Interaction, kind: str = "tables") -> None:
        guild_id = guild_of(interaction)
        user = interaction.user.id
        async with self.bot.store.transaction() as tx:
            league = await tx.find_league(guild_id)
            if (
                kind != "bank"
                and not is_league_admin(interaction, league)
                and not await tx.hosts_live_table(guild_id, user)
            ):
                raise NotNightHost(
                    "Only a league admin or the host of a table in this server may start a "
                    "night of the bot's tables (anyone may start a bank night: "
                    "`/night start kind:bank`). Nothing was changed."
                )
            where = parent_channel(interaction.channel)  # a thread: the channel it is in
            check_channel(league, interaction.channel_id, parent_id=where, what="Nights start")
            night = await tx.start_night(
                guild_id, host_id=user, channel_id=interaction.channel_id, kind=kind
            )
            value = chip_value_of(await tx.league(guild_id))
            linked = None if night.schedule_id is None else await tx.schedule(night.schedule_id)
        money = f", at {value.describe()}" if value is not None else " (in chips)"
        what = {
            "tables": "Every hand finished at this server's league tables counts from now",
            "bank": "The bank is open: `/buyin` and `/cashout` (the host approves), "
            "`/night show` for the book",
            "both": "Every hand at this server's league tables counts from now, and the bank "
            "is open (`/buyin`, `/cashout`, `/night show`)",
        }[kind]
        link = ""
        if linked is not None:
            url = event_link(guild_id, linked.event_id)
            link = (
                f" It is **{safe_name(linked.title)}**, as scheduled"
                + (f": {url}" if url else "")
                + "."
            )
        await send(
            interaction,
            f"🌙 **Night #{night.number} starts**, hosted by <@{user}>. {what}; `/night end` "
            f"posts each player's net and who pays whom{money}.{link}",
            allowed_mentions=_NONE,
        )
        await self.schedule.set_status(guild_id, night.schedule_id, EVENT_ACTIVE)

    @night.command(
        name="end", description="End the night: its results and the settle-up (host or admin)"
    )
    @app_commands.describe(
        force="a bank night that does not balance: end anyway, the difference booked as "
        "unaccounted (host or admin)",
        settle_with="members who settle only among themselves, e.g. @ann @bob (groups: ;)",
        carry_open="settle the server's still open transfers in this settle-up too",
    )
    async def end(
        self,
        interaction: discord.Interaction,
        force: bool = False,
        settle_with: app_commands.Range[str, 1, 1000] | None = None,
        carry_open: bool = False,
    ) -> None:
        guild_id = guild_of(interaction)
        groups = parse_groups(settle_with or "")
        if settle_with is not None and not groups:
            raise NightError(
                "settle_with lists members as mentions, e.g. `@ann @bob`. Nothing changed."
            )
        async with self.bot.store.transaction() as tx:
            night = await tx.open_night(guild_id)
            if night is None:
                raise NightError("No night is on: start one with `/night start`.")
            league = await tx.find_league(guild_id)
            if night.host_id != interaction.user.id and not is_league_admin(interaction, league):
                raise NotNightHost(
                    f"Only the night's host (<@{night.host_id}>) or a league admin may end it. "
                    "Nothing was changed."
                )
            results = await tx.end_night(
                guild_id,
                actor_id=interaction.user.id,
                force=force,
                settle_with=groups,
                carry_open=carry_open,
            )
        players = plural(len(results.players), "player")
        value = chip_value_of(league)
        played = (
            f"{players}, money in {money_only(results.money_in, value)}"
            if night.kind == "bank"
            else f"{plural(results.hands, 'hand')}, {players}"
        )
        headline = (
            f"🌅 **Night #{night.number} is over**: {played}. "
            + plan_words(results)
            + (" Recorded." if night.kind == "bank" else " Recorded in the ledger.")
        )
        await self.post.post(interaction, results, headline=headline)
        await self.schedule.set_status(guild_id, night.schedule_id, EVENT_COMPLETED)

    # ------------------------------------------------------------------ the bank

    @night.command(name="show", description="The night so far: buy-ins, cash-outs and nets")
    async def show(self, interaction: discord.Interaction) -> None:
        await self.bank.show(interaction)

    @night.command(name="correct", description="Correct a bank entry: a new entry with a reason")
    @app_commands.describe(
        entry="the entry's number (`/night show` lists them)",
        amount="what the entry should have been, in money or chips (0: not at all)",
        reason="why (kept in the night's book)",
    )
    async def correct(
        self,
        interaction: discord.Interaction,
        entry: app_commands.Range[int, 1, 10**12],
        amount: app_commands.Range[str, 1, 40],
        reason: app_commands.Range[str, 1, 200],
    ) -> None:
        await self.bank.correct(interaction, entry, amount, reason)

    @night.command(name="expense", description="An expense of the night, in the settle-up")
    @app_commands.describe(
        amount="what it cost, in money (e.g. 24.50) or chips",
        what="what it was: pizza, drinks, the venue",
        paid_by="who paid it (default: you)",
        shared_by="who shares it, e.g. @ann @bob (default: everyone of the night)",
    )
    async def expense(
        self,
        interaction: discord.Interaction,
        amount: app_commands.Range[str, 1, 40],
        what: app_commands.Range[str, 1, 100],
        paid_by: discord.User | None = None,
        shared_by: app_commands.Range[str, 1, 1000] | None = None,
    ) -> None:
        await self.bank.expense(interaction, amount, what, paid_by, shared_by)

    @night.command(name="import", description="Book a PokerNow ledger CSV into the bank night")
    @app_commands.describe(
        file="the ledger CSV PokerNow downloads (player_nickname, player_id, …, net)",
        units="how to read its amounts (default: chips)",
    )
    @app_commands.choices(units=UNIT_CHOICES)
    async def import_ledger(
        self, interaction: discord.Interaction, file: discord.Attachment, units: str = "chips"
    ) -> None:
        await self.bank.import_file(interaction, file, units)

    # ------------------------------------------------------------------ the invitation

    @night.command(name="schedule", description="Invite the server: a Discord event and an RSVP")
    @app_commands.describe(
        when="2026-12-05 20:00 (the league's time zone) or 2026-12-05T20:00+01:00",
        title="the night's title, e.g. Friday poker",
        where="where it is (default: this channel)",
        hours="how long it lasts (default 4)",
    )
    async def schedule_night(
        self,
        interaction: discord.Interaction,
        when: app_commands.Range[str, 1, 40],
        title: app_commands.Range[str, 1, 100],
        where: app_commands.Range[str, 1, 100] | None = None,
        hours: app_commands.Range[int, 1, 24] = 4,
    ) -> None:
        await self.schedule.schedule(interaction, when, title, where, hours)

    # ------------------------------------------------------------------ /settle

    @app_commands.command(name="settle", description="Who pays whom, for the night or the season")
    @app_commands.describe(
        period="night: the current or last night (default); season: the current season; "
        "open: every transfer not yet paid",
        record="season only: record its settle-up in the ledger (league admins)",
    )
    @app_commands.choices(period=PERIOD_CHOICES)
    @app_commands.guild_only()
    async def settle(
        self,
        interaction: discord.Interaction,
        period: str = "night",
        record: bool = False,
    ) -> None:
        guild_id = guild_of(interaction)
        if period == "open":
            if record:
                raise NightError(
                    "Open transfers are recorded already: mark them with Paid. Nothing changed."
                )
            await self.post.open_list(interaction)
            return
        # only recording writes: showing reads a consistent view without the writers' lock
        session = self.bot.store.transaction() if record else self.bot.store.read()
        async with session as tx:
            if await tx.find_league(guild_id) is None:
                raise NightError("Nobody has played here yet: nothing to settle.")
            if period == "season":
                if record:
                    if not is_league_admin(interaction, await tx.find_league(guild_id)):
                        raise NotNightHost(
                            "Only a league admin may record the season's settle-up. "
                            "Nothing was changed."
                        )
                    results = await tx.settle_season(guild_id, actor_id=interaction.user.id)
                    state = "Recorded in the ledger."
                else:
                    results = await tx.season_results(guild_id)
                    state = (
                        "Nothing is recorded until an admin runs `/settle period:season "
                        "record:True`; nights settle at `/night end`."
                    )
                headline = (
                    f"📒 **{results.label.capitalize()}**: {plural(results.hands, 'hand')}. "
                    + plan_words(results)
                    + f" {state}"
                )
            else:
                night = await tx.last_night(guild_id)
                if night is None:
                    raise NightError("There has been no night yet: start one with `/night start`.")
                if record:
                    raise NightError(
                        f"Night #{night.number} "
                        + (
                            "is settled by `/night end`."
                            if night.open
                            else "is already settled: a night is settled once."
                        )
                        + " Nothing was changed."
                    )
                results = await tx.night_results(night)
                headline = (
                    f"🌙 **Night #{night.number}** "
                    + (
                        "is still on: if it ended now, "
                        if night.open
                        else f"(ended <t:{night.ended_at}:f>): "
                    )
                    + f"{plural(results.hands, 'hand')}. "
                    + plan_words(results)
                )
        await self.post.post(interaction, results, headline=headline)


class BankCog(commands.Cog, name="Bank"):
    """``/buyin``, ``/cashout`` and ``/pay``: the bank's commands outside ``/night``."""

    def __init__(self, bot: HomeGameBot, desk: BankDesk) -> None:
        self.bot = bot
        self.desk = desk

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        return arm_command(interaction)

    @app_commands.command(
        name="buyin", description="A buy-in at the bank night (the host approves)"
    )
    @app_commands.describe(
        amount="in money (e.g. 20 or €20.50) or chips (e.g. 2,000 chips)",
        member="whose buy-in (host or admin: recorded directly; default: you, as a request)",
    )
    @app_commands.guild_only()
    async def buyin(
        self,
        interaction: discord.Interaction,
        amount: app_commands.Range[str, 1, 40],
        member: discord.User | None = None,
    ) -> None:
        await self.desk.entry(interaction, "buyin", amount, member)

    @app_commands.command(
        name="cashout", description="A cash-out at the bank night (the host approves)"
    )
    @app_commands.describe(
        amount="in money (e.g. 35 or €35.50) or chips (e.g. 3,550 chips)",
        member="whose cash-out (host or admin: recorded directly; default: you, as a request)",
    )
    @app_commands.guild_only()
    async def cashout(
        self,
        interaction: discord.Interaction,
        amount: app_commands.Range[str, 1, 40],
        member: discord.User | None = None,
    ) -> None:
        await self.desk.entry(interaction, "cashout", amount, member)

    @app_commands.command(name="pay", description="How you like to be paid in settle-ups")
    @app_commands.describe(
        handle="free text, e.g. an IBAN or a payment app name (shown only in your settle-ups)",
        clear="remove your handle",
    )
    @app_commands.guild_only()
    async def pay(
        self,
        interaction: discord.Interaction,
        handle: app_commands.Range[str, 1, 200] | None = None,
        clear: bool = False,
    ) -> None:
        await self.desk.pay(interaction, handle, clear)


async def setup(bot: HomeGameBot) -> None:
    cog = NightCog(bot)
    await bot.add_cog(cog)
    await bot.add_cog(BankCog(bot, cog.bank))
    bot.add_dynamic_items(*NIGHT_ITEMS)
