"""Tournaments on Discord (issue 20): ``/tournament create|cancel|pause|resume|results|
show``, the lobby message and its buttons, the posts and DMs the director sends, and the
threads its tables play in. No tournament rule lives here: every step goes to the
:class:`~bot.tournament_service.TournamentService` (the director's decisions are
:mod:`bot.tournament`'s); this cog parses, checks who may, answers within Discord's 3
seconds and renders (:mod:`cogs._tournament_render`).

Discord allows 25 options per command: ``/tournament create`` has 22.
"""

from __future__ import annotations

import contextlib
import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import games as registry
from bot.engine.errors import HomeGameError
from bot.league.when import parse_when
from bot.render.pool import render
from bot.render.text import format_chips, safe_name
from bot.render.tournament import render_results
from bot.tables.channels import check_channel, parent_channel
from bot.tournament import TournamentConfig, game_kind, parse_levels, preset
from bot.tournament.errors import Refused
from bot.tournament.payouts import PAYOUT_METHODS
from bot.tournament.presets import PRESETS
from bot.tournament_service import Notices, Post, TournamentService
from cogs._answer import arm_command, defer, send
from cogs._coalesce import Coalescer
from cogs._delivery import DM_CLOSED, is_permanent
from cogs._errors import refuse
from cogs._files import upload
from cogs._lobby import LobbyPublisher
from cogs._table_commands import _may_manage
from cogs._tournament_render import (
    lobby_components,
    lobby_embed,
    offer_components,
    results_footer,
    results_rows,
    results_text,
)

if TYPE_CHECKING:
    from bot.app import HomeGameBot

log = logging.getLogger("homegame.tournament")

TOURNAMENTS_OPEN = "Tournaments open"
_NONE = discord.AllowedMentions.none()

GAME_CHOICES = [app_commands.Choice(name=t.title, value=t.key) for t in registry.tournament_games()]
BETTING_CHOICES = [app_commands.Choice(name=b, value=b) for b in registry.BETTINGS]
STRUCTURE_CHOICES = [app_commands.Choice(name=s, value=s) for s in PRESETS]
PAYOUT_CHOICES = [app_commands.Choice(name=p, value=p) for p in PAYOUT_METHODS]
_WITH_BETTING = registry.in_words([t.title for t in registry.tournament_games() if t.bettings])
THREAD_ARCHIVE_MINUTES = 1440
CREATE_OPTIONS = dict(
    game="the game the tables deal (stud8: Stud Hi-Lo; horse: the five in turn)",
    betting=f"{_WITH_BETTING}: {', '.join(registry.BETTINGS)} (default as at a table)",
    buy_in="league chips each entry pays into the prize pool (default 100)",
    starting_stack="tournament chips each entry starts with (default 10,000)",
    structure="turbo, regular or deep: levels scaled to the stack (default regular)",
    levels="or your own levels, e.g. 10/20 15m, 15/30 15m, break 5m, 25/50/5 15m",
    max_players="the most players (default 90)",
    seats_per_table="seats at each table (default the game's most: 9, or 8)",
    rebuys="rebuys an entry may make (default 0: none)",
    rebuy_until_level="rebuys through the end of this level (default: before the 1st break)",
    add_on="one add-on per player at the break that ends the rebuys",
    re_entry="times a busted player may enter again during late registration (default 0)",
    late_registration_levels="registration stays open through this level (default 0)",
    bounty="league chips on each head, on top of the buy-in (default 0)",
    payouts="standard (by field size), winner-takes-all or top-3",
    starts_at="the start: 2026-12-05 20:00 in the league's time zone (default: host's Start)",
    rebuy_price="league chips a rebuy costs (default the buy-in)",
    rebuy_chips="tournament chips a rebuy gives (default the starting stack)",
    add_on_price="league chips the add-on costs (default the buy-in)",
    add_on_chips="tournament chips the add-on gives (default the starting stack)",
    computers="practice: fill this many seats with computer players (no league chips move)",
    number="the tournament's number in the league (default: the one on)",
)


def guild_of(interaction: discord.Interaction) -> int:
    if interaction.guild_id is None:
        raise app_commands.NoPrivateMessage("Tournaments live in a server: use this there.")
    return interaction.guild_id


class TournamentCog(LobbyPublisher, commands.Cog, name="Tournaments"):
    tournament = app_commands.Group(
        name="tournament",
        description="A tournament: buy-in, blinds on a clock, rebuys, payouts, league points",
        guild_only=True,
    )

    def __init__(self, bot: HomeGameBot, director: TournamentService) -> None:
        self.bot = bot
        self.director = director
        director.subscriber = self
        self.updates = Coalescer()
        self._outbox: dict[int, list[Post]] = {}
        self._lobby_at: dict[int, tuple[int, int]] = {}
        self._restored = False

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        return arm_command(interaction)

    async def cog_unload(self) -> None:
        if self.director.subscriber is self:
            self.director.subscriber = None
        await self.updates.close(self.bot.shutdown_grace)  # the last changes shown first

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """After a (re)start, each lobby shows the tournament as it is now."""
        if self._restored:
            return
        self._restored = True
        for tid in self.director.live_ids():
            self._refresh_lobby(tid)

    # ------------------------------------------------------------------ /tournament create

    @tournament.command(
        name="create", description="Open a tournament here: its lobby takes registrations"
    )
    @app_commands.describe(**{k: v for k, v in CREATE_OPTIONS.items() if k != "number"})
    @app_commands.choices(
        game=GAME_CHOICES,
        betting=BETTING_CHOICES,
        structure=STRUCTURE_CHOICES,
        payouts=PAYOUT_CHOICES,
    )
    async def create(
        self,
        interaction: discord.Interaction,
        game: str,
        betting: str | None = None,
        buy_in: app_commands.Range[int, 0, 1_000_000_000] = 100,
        starting_stack: app_commands.Range[int, 1, 1_000_000_000] = 10_000,
        structure: str | None = None,
        levels: app_commands.Range[str, 1, 1000] | None = None,
        max_players: app_commands.Range[int, 2, 1000] = 90,
        seats_per_table: app_commands.Range[int, 2, 9] | None = None,
        rebuys: app_commands.Range[int, 0, 1000] = 0,
        rebuy_until_level: app_commands.Range[int, 1, 100] | None = None,
        add_on: bool = False,
        re_entry: app_commands.Range[int, 0, 1000] = 0,
        late_registration_levels: app_commands.Range[int, 0, 100] = 0,
        bounty: app_commands.Range[int, 0, 1_000_000_000] = 0,
        payouts: str = "standard",
        starts_at: app_commands.Range[str, 1, 64] | None = None,
        rebuy_price: app_commands.Range[int, 0, 1_000_000_000] | None = None,
        rebuy_chips: app_commands.Range[int, 1, 1_000_000_000] | None = None,
        add_on_price: app_commands.Range[int, 0, 1_000_000_000] | None = None,
        add_on_chips: app_commands.Range[int, 1, 1_000_000_000] | None = None,
        computers: app_commands.Range[int, 1, 999] | None = None,
    ) -> None:
        guild_id = guild_of(interaction)
        assert interaction.channel_id is not None
        parent = parent_channel(interaction.channel)
        async with self.bot.store.read() as tx:
            league = await tx.find_league(guild_id)
        check_channel(league, interaction.channel_id, parent_id=parent, what=TOURNAMENTS_OPEN)
        tables: Any = self.bot.get_cog("Tables")
        missing = None if tables is None else await tables._missing_permissions(interaction)
        if missing:
            await refuse(interaction, missing.replace("run a table", "run a tournament"))
            return
        if structure is not None and levels is not None:
            raise HomeGameError("Give `structure` or `levels`, not both. Nothing changed.")
        kind = game_kind(game, betting)
        built = (
            parse_levels(levels, kind)
            if levels is not None
            else preset(structure or "regular", kind, starting_stack)  # type: ignore[arg-type]
        )
        start = None
        if starts_at is not None:
            tz = None if league is None else league.timezone
            start = int(parse_when(starts_at, tz, now=self.bot.clock()).timestamp())
        config = TournamentConfig(
            game=game,
            betting=betting,
            buy_in=buy_in,
            starting_stack=starting_stack,
            structure=built,
            max_players=max_players,
            seats_per_table=seats_per_table,
            rebuys=rebuys,
            rebuy_until_level=rebuy_until_level,
            rebuy_price=rebuy_price,
            rebuy_chips=rebuy_chips,
            add_on=add_on,
            add_on_price=add_on_price,
            add_on_chips=add_on_chips,
            re_entry=re_entry,
            late_registration_levels=late_registration_levels,
            bounty=bounty,
            payouts=payouts,  # type: ignore[arg-type]
            starts_at=start,
        )
        perms = interaction.app_permissions
        threads = (
            parent is None
            and perms.create_public_threads
            and perms.send_messages_in_threads
            and isinstance(interaction.channel, discord.TextChannel)
        )
        tid = await self.director.create(
            guild_id=guild_id,
            channel_id=interaction.channel_id,
            host_id=interaction.user.id,
            host_name=safe_name(interaction.user.display_name),
            config=config,
            computers=computers or 0,
            threads=bool(threads),
        )
        lobby = self.director.lobby(tid)
        sent = await send(
            interaction,
            embed=lobby_embed(lobby),
            view=lobby_components(lobby),
            allowed_mentions=_NONE,
        )
        message = sent if sent is not None else await interaction.original_response()
        await self.director.set_lobby(tid, message.channel.id, message.id)
        self._lobby_at[tid] = (message.channel.id, message.id)

    # ------------------------------------------------------------------ the director's

    async def _find(
        self, interaction: discord.Interaction, number: int | None, *, live: bool
    ) -> int:
        guild_id = guild_of(interaction)
        if number is not None:
            async with self.bot.store.read() as tx:
                row = await tx.tournament_by_number(guild_id, number)
            if row is None:
                raise HomeGameError(
                    f"There is no tournament #{number} in this league. Nothing changed."
                )
            return row.id
        if live:
            ids = self.director.live_ids(guild_id)
            if not ids:
                raise HomeGameError("No tournament is on in this league. Nothing changed.")
            if len(ids) > 1:
                raise HomeGameError(
                    "Several tournaments are on: say which with `number:`. Nothing changed."
                )
            return ids[0]
        async with self.bot.store.read() as tx:
            past = await tx.past_tournaments(guild_id, limit=1)
        if not past:
            raise HomeGameError("No tournament has ended in this league yet.")
        return past[0].id

    @tournament.command(name="cancel", description="Cancel a tournament: every buy-in goes back")
    @app_commands.describe(number=CREATE_OPTIONS["number"])
    async def cancel(
        self,
        interaction: discord.Interaction,
        number: app_commands.Range[int, 1, 1_000_000] | None = None,
    ) -> None:
        tid = await self._find(interaction, number, live=True)
        await self.director.cancel(tid, interaction.user.id, may_manage=_may_manage(interaction))
        await send(
            interaction,
            f"Tournament #{self.director_number(tid)} is cancelled.",
            allowed_mentions=_NONE,
        )

    @tournament.command(name="pause", description="Stop the tournament's clock (no new hand)")
    @app_commands.describe(number=CREATE_OPTIONS["number"])
    async def pause(
        self,
        interaction: discord.Interaction,
        number: app_commands.Range[int, 1, 1_000_000] | None = None,
    ) -> None:
        tid = await self._find(interaction, number, live=True)
        await self.director.pause(tid, interaction.user.id, may_manage=_may_manage(interaction))
        await send(
            interaction,
            f"Tournament #{self.director_number(tid)} is paused: hands being played finish, no"
            " new one is dealt, the clock waits for `/tournament resume`.",
            allowed_mentions=_NONE,
        )

    @tournament.command(name="resume", description="Run the tournament's clock again")
    @app_commands.describe(number=CREATE_OPTIONS["number"])
    async def resume(
        self,
        interaction: discord.Interaction,
        number: app_commands.Range[int, 1, 1_000_000] | None = None,
    ) -> None:
        tid = await self._find(interaction, number, live=True)
        await self.director.resume(tid, interaction.user.id, may_manage=_may_manage(interaction))
        await send(
            interaction,
            f"Tournament #{self.director_number(tid)} resumes: every change moves by the pause.",
            allowed_mentions=_NONE,
        )

    def director_number(self, tid: int) -> int:
        return self.director.lobby(tid).number

    @tournament.command(
        name="results", description="A tournament's results: places, prizes, points"
    )
    @app_commands.describe(number="the tournament's number (default: the last that ended)")
    async def results(
        self,
        interaction: discord.Interaction,
        number: app_commands.Range[int, 1, 1_000_000] | None = None,
    ) -> None:
        tid = await self._find(interaction, number, live=False)
        r = await self.director.tournament_results(tid)
        if r.status not in ("finished", "cancelled"):
            raise HomeGameError(f"Tournament #{r.number} is still on: its results come at its end.")
        files = [] if r.status == "cancelled" else [await self._results_file(r)]
        await send(interaction, results_text(r)[:2000], files=files or None, allowed_mentions=_NONE)

    @tournament.command(
        name="show", description="Past tournaments of the league, with their results"
    )
    @app_commands.describe(number="one tournament's results (default: the list)")
    async def show(
        self,
        interaction: discord.Interaction,
        number: app_commands.Range[int, 1, 1_000_000] | None = None,
    ) -> None:
        guild_id = guild_of(interaction)
        if number is not None:
            tid = await self._find(interaction, number, live=False)
            r = await self.director.tournament_results(tid)
            text = (
                results_text(r)
                if r.status in ("finished", "cancelled")
                else (f"Tournament #{r.number} is still on.")
            )
            await send(interaction, text[:2000], ephemeral=True, allowed_mentions=_NONE)
            return
        async with self.bot.store.read() as tx:
            past = await tx.past_tournaments(guild_id, limit=15)
        if not past:
            await send(interaction, "No tournament has ended in this league yet.", ephemeral=True)
            return
        lines = ["**Past tournaments**"]
        for row in past:
            r = await self.director.tournament_results(row.id)
            if r.status == "cancelled":
                lines.append(f"#{r.number} {r.title}: cancelled")
                continue
            top = ", ".join(
                f"{line.label} {line.name}"
                + (f" ({format_chips(line.prize)})" if line.prize else "")
                for line in r.lines
                if line.prize or line.place <= 3
            )
            when = f"<t:{r.finished_at}:d> " if r.finished_at else ""
            pool = format_chips(r.prize_pool)
            lines.append(f"{when}**{r.title}** · {r.entries} entries · pool {pool}: {top}")
        lines.append("-# `/tournament show number:` for one tournament's whole results")
        await send(interaction, "\n".join(lines)[:2000], ephemeral=True, allowed_mentions=_NONE)

    # ------------------------------------------------------------------ buttons

    async def on_button(
        self, interaction: discord.Interaction, tid: int, action: str, user_id: int | None
    ) -> None:
        uid = interaction.user.id
        async with self.bot.store.read() as tx:
            row = await tx.tournament(tid)
        if interaction.guild_id != row.guild_id:
            await refuse(interaction, "That tournament belongs to another server.")
            return
        if user_id is not None and user_id != uid:
            await refuse(interaction, f"These buttons are <@{user_id}>'s: nothing changed.")
            return
        await defer(interaction, ephemeral=True)
        d = self.director
        name = safe_name(interaction.user.display_name)
        if action == "register":
            await d.register(tid, uid, name)
            lobby = d.lobby(tid)
            text = f"You are in **{lobby.title}**" + (
                ""
                if lobby.practice
                else f": {format_chips(lobby.buy_in + lobby.bounty)} league chips paid in."
            )
        elif action == "unregister":
            await d.unregister(tid, uid)
            text = "You are unregistered: what you paid in went back to you."
        elif action == "start":
            await d.begin(tid, uid, may_manage=_may_manage(interaction))
            text = "The tournament starts: the tables are dealing."
        elif action == "rebuy":
            await d.rebuy(tid, uid)
            text = "Your rebuy is made: you are back in."
        elif action == "re_enter":
            await d.re_enter(tid, uid)
            text = "You re-enter: a new entry, seated now."
        elif action == "decline":
            await d.decline(tid, uid)
            text = "You are out. Thanks for playing!"
        elif action == "add_on":
            await d.add_on(tid, uid)
            text = "Your add-on is taken: the chips are on your stack for the next hand."
        else:  # pragma: no cover - the template allows no other
            raise HomeGameError("That is not a tournament button.")
        await interaction.followup.send(text, ephemeral=True, allowed_mentions=_NONE)

    # ------------------------------------------------------------------ the subscriber

    async def table_channel(self, tournament_id: int, number: int) -> int:
        """A public thread of the tournament's channel for table ``number`` (the bot's
        permissions were checked at create); the channel itself if Discord refuses."""
        lobby = self.director.lobby(tournament_id)
        channel_id = self.director.live(tournament_id).channel_id
        try:
            data = await self.bot.http.start_thread_without_message(
                channel_id,
                name=f"Tournament #{lobby.number} · table {number}",
                auto_archive_duration=THREAD_ARCHIVE_MINUTES,
                type=discord.ChannelType.public_thread.value,  # type: ignore[arg-type]
            )
        except discord.HTTPException as exc:
            if not is_permanent(exc):
                raise
            log.warning("tournament %s: no thread for table %s (%s)", tournament_id, number, exc)
            return channel_id
        return int(data["id"])

    async def tournament_notices(self, tournament_id: int, notices: Notices) -> None:
        if notices.posts:
            self._outbox.setdefault(tournament_id, []).extend(notices.posts)
            self.updates.submit(f"post:{tournament_id}", lambda: self._post(tournament_id))
        for uid, text in notices.dms:
            self.updates.submit(
                f"dm:{tournament_id}:{uid}:{len(text)}:{hash(text)}",
                lambda uid=uid, text=text: self._dm(uid, text),
            )
        if notices.results:
            self.updates.submit(
                f"results:{tournament_id}", lambda: self._post_results(tournament_id)
            )
        if notices.lobby or notices.results:
            self._refresh_lobby(tournament_id)

    async def _post(self, tournament_id: int) -> None:
        outbox = self._outbox.get(tournament_id, [])
        while outbox:
            post = outbox[0]
            extra: dict[str, Any] = {}
            if post.offer is not None:
                extra["view"] = offer_components(post.offer)
            try:
                await self.bot.get_partial_messageable(post.channel_id).send(
                    post.text[:2000], allowed_mentions=_NONE, **extra
                )
            except discord.HTTPException as exc:
                if not is_permanent(exc):
                    raise
                log.warning("tournament %s: a post was refused (%s)", tournament_id, exc)
            outbox.pop(0)

    async def _dm(self, user_id: int, text: str) -> None:
        try:
            channel = await self.bot.create_dm(discord.Object(id=user_id))
            await channel.send(text[:2000], allowed_mentions=_NONE)
        except discord.HTTPException as exc:
            if isinstance(exc, discord.Forbidden) and exc.code == DM_CLOSED:
                return  # DMs closed: the move is posted at both tables anyway
            if not is_permanent(exc):
                raise

    async def _results_file(self, r: Any) -> discord.File:
        png = await render(
            render_results,
            r.title,
            f"{r.players} players, {r.entries} entries",
            results_rows(r),
            results_footer(r),
        )
        return upload(
            png,
            f"tournament-{r.number}.png",
            description=f"{r.title}: results"[:1024],
        )

    async def _post_results(self, tournament_id: int) -> None:
        r = await self.director.tournament_results(tournament_id)
        async with self.bot.store.read() as tx:
            row = await tx.tournament(tournament_id)
        files = []
        with contextlib.suppress(Exception):
            files = [await self._results_file(r)]
        channel = self.bot.get_partial_messageable(row.channel_id)
        try:
            await channel.send(results_text(r)[:2000], files=files, allowed_mentions=_NONE)
        except discord.HTTPException as exc:
            if not is_permanent(exc):
                raise
            log.warning("tournament %s: the results post was refused (%s)", tournament_id, exc)


async def setup(bot: HomeGameBot) -> None:
    director = getattr(bot, "tournaments", None)
    if director is None:
        raise commands.ExtensionFailed("cogs.tournament", RuntimeError("no TournamentService"))
    await bot.add_cog(TournamentCog(bot, director))


__all__ = ["Refused", "TournamentCog", "setup"]
