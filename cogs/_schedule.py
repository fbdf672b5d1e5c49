"""Bringing players to the table: ``/night schedule when: title:`` creates a Discord
scheduled event for the server and posts an invitation with **In** / **Maybe** / **Out**
and the count; the **In** players get a DM an hour before (a stored time, so it survives
restarts); ``/night start`` on that day links the event (and starts it), ``/night end``
completes it.

Discord requires the Create Events permission to create an event (since February 2026;
Manage Events alone no longer does for a bot without it), so the bot checks its own
permissions first and refuses in one line when it lacks them.

The reminders run in one task: it sleeps (on the bot's injected clock and sleep, so tests
move the clock instead of waiting) until the earliest reminder due in any server, sends
it, and marks each member's DM sent as it goes; a new invitation wakes it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import timedelta
from typing import TYPE_CHECKING

import discord

from bot.engine.errors import HomeGameError
from bot.league.when import parse_when
from bot.render.text import plural, safe_name
from bot.store.schedule import ANSWERS, Rsvps, Schedule
from cogs._answer import send
from cogs._night_items import RSVP_LABELS, RsvpButton
from cogs._night_post import RENEW_AFTER, guild_of
from cogs.admin import is_league_admin

if TYPE_CHECKING:
    from bot.app import HomeGameBot

log = logging.getLogger("homegame.schedule")

_NONE = discord.AllowedMentions.none()
RETRY_AFTER_ERROR = 60.0
"""Seconds the reminder task waits after an unexpected error before it looks again."""


class ScheduleRefusal(HomeGameError):
    """A ``/night schedule`` that cannot be done; nothing changed."""


def event_link(guild_id: int, event_id: int | None) -> str | None:
    return None if event_id is None else f"https://discord.com/events/{guild_id}/{event_id}"


def invitation(schedule: Schedule, rsvps: Rsvps) -> tuple[str, discord.Embed, discord.ui.View]:
    """The invitation post: who is In, Maybe and Out, with the buttons."""
    counts = " · ".join(f"{RSVP_LABELS[a]} {rsvps.count(a)}" for a in ANSWERS)
    content = (
        f"📅 **{safe_name(schedule.title)}**: <t:{schedule.starts_at}:F> "
        f"(<t:{schedule.starts_at}:R>) · {counts}"
    )
    lines = [f"Where: {safe_name(schedule.location)}"]
    link = event_link(schedule.guild_id, schedule.event_id)
    if link is not None:
        lines.append(f"Event: {link}")
    lines.append("Answer In, Maybe or Out below; the In players get a DM an hour before.")
    embed = discord.Embed(
        title=safe_name(schedule.title)[:256],
        description="\n".join(lines),
        colour=discord.Colour.blurple(),
    )
    for answer in ANSWERS:
        who = rsvps.answers.get(answer, ())
        embed.add_field(
            name=f"{RSVP_LABELS[answer]} ({len(who)})",
            value=(", ".join(f"<@{u}>" for u in who) or "nobody yet")[:1024],
            inline=True,
        )
    view = discord.ui.View(timeout=None)
    for answer in ANSWERS:
        view.add_item(RsvpButton.make(schedule.id, answer))
    return content, embed, view


class Invitations:
    def __init__(self, bot: HomeGameBot) -> None:
        self.bot = bot
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    # ------------------------------------------------------------------ /night schedule

    async def schedule(
        self,
        interaction: discord.Interaction,
        when: str,
        title: str,
        where: str | None,
        hours: int,
    ) -> None:
        guild_id = guild_of(interaction)
        guild = interaction.guild
        assert guild is not None
        async with self.bot.store.read() as tx:
            league = await tx.find_league(guild_id)
        if not is_league_admin(interaction, league):
            raise ScheduleRefusal(
                "Only members with Manage Server or the league's admin role may schedule a "
                "night. Nothing changed."
            )
        perms = interaction.app_permissions
        if not (perms.create_events or perms.manage_events):
            raise ScheduleRefusal(
                "I need the Create Events permission to schedule a night: give my role "
                "Create Events in the server settings, then try again. Nothing changed."
            )
        name = " ".join(title.split())
        if not 1 <= len(name) <= 100:
            raise ScheduleRefusal("A title is 1 to 100 characters. Nothing changed.")
        channel = interaction.channel
        place = " ".join((where or "").split()) or (
            f"#{getattr(channel, 'name', 'poker')} on {guild.name}"
        )
        if len(place) > 100:
            raise ScheduleRefusal("A place is at most 100 characters. Nothing changed.")
        start = parse_when(when, league.timezone if league else None, now=self.bot.clock())
        end = start + timedelta(hours=hours)
        try:
            event = await guild.create_scheduled_event(
                name=name,
                start_time=start,
                end_time=end,
                entity_type=discord.EntityType.external,
                privacy_level=discord.PrivacyLevel.guild_only,
                location=place[:100],
                description=(
                    f"A night of poker. Answer In, Maybe or Out on the invitation in "
                    f"#{getattr(channel, 'name', 'the channel')}."
                )[:1000],
                reason=f"/night schedule by {interaction.user.id}",
            )
        except discord.Forbidden:
            raise ScheduleRefusal(
                "Discord refused to create the event: give my role Create Events, then try "
                "again. Nothing changed."
            ) from None
        except discord.HTTPException as exc:
            raise ScheduleRefusal(
                f"Discord refused the event ({' '.join(str(exc.text).split())[:200]}). "
                "Nothing changed."
            ) from None
        try:
            async with self.bot.store.transaction() as tx:
                stored = await tx.create_schedule(
                    guild_id,
                    channel_id=interaction.channel_id or 0,
                    title=name,
                    location=place[:100],
                    starts_at=int(start.timestamp()),
                    ends_at=int(end.timestamp()),
                    created_by=interaction.user.id,
                    event_id=event.id,
                )
                rsvps = await tx.rsvps(stored.id)
        except BaseException:
            with contextlib.suppress(discord.HTTPException):
                await event.delete(reason="the invitation could not be stored")
            raise
        content, embed, view = invitation(stored, rsvps)
        sent = await send(interaction, content, embed=embed, view=view, allowed_mentions=_NONE)
        message = sent if sent is not None else await interaction.original_response()
        async with self.bot.store.transaction() as tx:
            await tx.schedule_posted(stored.id, message.id)
        self._wake.set()

    # ------------------------------------------------------------------ In / Maybe / Out

    async def answer(self, interaction: discord.Interaction, schedule_id: int, answer: str) -> None:
        guild_id = guild_of(interaction)
        async with self.bot.store.transaction() as tx:
            try:
                schedule = await tx.schedule(schedule_id)
            except LookupError:
                raise ScheduleRefusal("That invitation is gone. Nothing changed.") from None
            if schedule.guild_id != guild_id:
                raise ScheduleRefusal("That invitation is not one of this server's.")
            if self.bot.clock() >= schedule.ends_at:
                raise ScheduleRefusal(
                    f"**{safe_name(schedule.title)}** is over: answers are closed. Nothing changed."
                )
            rsvps = await tx.answer(schedule_id, interaction.user.id, answer)
        content, embed, view = invitation(schedule, rsvps)
        message = interaction.message
        age = (
            (interaction.created_at - message.created_at).total_seconds()
            if message is not None
            else RENEW_AFTER
        )
        if message is not None and age < RENEW_AFTER:
            await interaction.response.edit_message(
                content=content, embed=embed, view=view, allowed_mentions=_NONE
            )
            return
        # an invitation is answered for days: past an hour it is posted anew (Discord caps
        # edits to older messages), and the old one is removed
        await interaction.response.send_message(
            content, embed=embed, view=view, allowed_mentions=_NONE
        )
        fresh = await interaction.original_response()
        async with self.bot.store.transaction() as tx:
            await tx.schedule_posted(schedule_id, fresh.id)
        if message is not None:
            with contextlib.suppress(discord.HTTPException):
                await message.delete()

    # ------------------------------------------------------------------ the event's status

    async def set_status(self, guild_id: int, schedule_id: int | None, status: int) -> None:
        """Start (2) or complete (3) a linked night's Discord event; a refusal is logged
        and changes nothing else (the night goes on)."""
        if schedule_id is None:
            return
        async with self.bot.store.read() as tx:
            schedule = await tx.schedule(schedule_id)
        if schedule.event_id is None:
            return
        try:
            await self.bot.http.edit_scheduled_event(guild_id, schedule.event_id, status=status)
        except discord.HTTPException as exc:
            log.warning(
                "could not set scheduled event %s to status %s: %s",
                schedule.event_id,
                status,
                " ".join(str(exc).split()),
            )

    # ------------------------------------------------------------------ reminders

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="night-reminders")

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    def wake(self) -> None:
        self._wake.set()

    async def _wait(self, seconds: float | None) -> None:
        waits = [asyncio.ensure_future(self._wake.wait())]
        if seconds is not None:
            waits.append(asyncio.ensure_future(self.bot.sleep(seconds)))
        try:
            await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for w in waits:
                w.cancel()
            self._wake.clear()

    async def _run(self) -> None:
        await self.bot.wait_until_ready()
        while True:
            try:
                async with self.bot.store.read() as tx:
                    due = await tx.next_reminder()
                if due is None:
                    await self._wait(None)
                elif due.remind_at > self.bot.clock():
                    await self._wait(due.remind_at - self.bot.clock())
                else:
                    await self._remind(due)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("night reminders failed; looking again later")
                await self._wait(RETRY_AFTER_ERROR)

    async def _remind(self, schedule: Schedule) -> None:
        """DM each In member not yet reminded, marking each as sent; nothing is sent once
        the night has started (the bot was down past it)."""
        late = self.bot.clock() >= schedule.starts_at
        async with self.bot.store.read() as tx:
            members = [] if late else await tx.to_remind(schedule.id)
        link = event_link(schedule.guild_id, schedule.event_id)
        text = (
            f"⏰ **{safe_name(schedule.title)}** starts <t:{schedule.starts_at}:R> "
            f"(<t:{schedule.starts_at}:t>) in <#{schedule.channel_id}>, at "
            f"{safe_name(schedule.location)}. You said **In**: see you there!"
            + (f"\n{link}" if link else "")
        )
        for uid in members:
            try:
                user = self.bot.get_user(uid) or await self.bot.fetch_user(uid)
                await user.send(text, allowed_mentions=_NONE)
            except discord.HTTPException as exc:
                # closed DMs (50007) or a user gone: the reminder cannot reach them
                log.warning("no reminder DM to %s: %s", uid, " ".join(str(exc).split()))
            async with self.bot.store.transaction() as tx:
                await tx.reminded(schedule.id, uid)
        async with self.bot.store.transaction() as tx:
            await tx.reminded(schedule.id)
        if late:
            log.info("night %s started before its reminder could go out", schedule.id)
        else:
            log.info("reminded %s for %r", plural(len(members), "player"), schedule.title)
