"""The players' side of the chip league: ``/balance``, ``/rebuy``, ``/leaderboard``,
``/stats`` and ``/history``, read from the ledger and the hand log.

Everything but ``/rebuy`` only reads (``Store.read``): nobody gets a wallet just by asking
for a balance. The leaderboard's Prev/Next buttons and the history's hand menu are
``DynamicItem``s whose custom_id carries their whole state (see :mod:`cogs._ids`), so they
keep working after a restart. A hand replay shows the viewer the public events and their
own private ones only (:mod:`bot.league.replay`); the hand history file attached with it
has every card the viewer never saw written ``??``.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot import games as registry
from bot.engine.errors import HomeGameError
from bot.league.export import entry_words
from bot.league.exports import pokerstars_of_row
from bot.league.glossary import FIGURES
from bot.league.ranking import BY_CHOICES, PAGE_SIZE, min_hands_for, paginate, rank
from bot.league.replay import redact_history, replay_text
from bot.render.limits import CONTENT, fit_lines
from bot.render.rulebook import table_commands_text
from bot.render.text import format_chips, plural
from bot.store import NotFound, Season
from bot.tournament.points import show as show_points
from cogs._answer import arm_command, defer, send
from cogs._files import upload
from cogs._ids import (
    LeaderboardId,
    build_leaderboard_id,
)
from cogs._items import HistorySelect, LeaderboardButton
from cogs._shuffle import history_file
from cogs._stats import figure_page, stats_answer

if TYPE_CHECKING:
    from bot.app import HomeGameBot

LEADERBOARD_SIZE = PAGE_SIZE
HISTORY_SIZE = 10
HAND_MENU_SIZE = 25
"""Discord allows at most 25 options in a select menu."""
REPLAY_LIMIT = 3900
"""Room for the replay in an embed description (Discord's limit is 4096)."""

GAME_NAMES = {g.key: g.title for g in registry.games(mixed=False)}
"""The games a hand is stored as, by name: the leaderboard's and /stats' (bot/games.py)."""
HI_LO_NAMES = {g.key: g.hi_lo_title for g in registry.games() if g.hi_lo_title}


def hand_game_name(game: str, *, hi_lo: bool) -> str:
    """A hand's game as /history names it: the split too (one game key plays both)."""
    return registry.hand_title(game, hi_lo=hi_lo)


def _is_hi_lo(history: str | None) -> bool:
    """Whether a PHH history is of a split game (pokerkit's codes and ours end in ``/8``)."""
    return history is not None and re.search(r"^variant = '[^']*/8'$", history, re.M) is not None


GAME_CHOICES = [app_commands.Choice(name=n, value=g) for g, n in GAME_NAMES.items()]
BY_APP_CHOICES = [app_commands.Choice(name=n, value=b) for b, n in BY_CHOICES.items()]

_NONE = discord.AllowedMentions.none()


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th … 11th, 12th, 13th, 21st.

    >>> [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 102)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '102nd']
    """
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th') }"


def _guild_id(interaction: discord.Interaction) -> int:
    if interaction.guild_id is None:
        raise app_commands.NoPrivateMessage("The chip league lives in a server: use this there.")
    return interaction.guild_id


class NoSuchSeason(HomeGameError):
    """A season number the league has not reached."""


def _history_filename(game: str, hand_id: int) -> str:
    guts = registry.family_of(game) == "guts"  # their history is our TOML, not PHH
    return f"hand-{hand_id}.toml" if guts else f"hand-{hand_id}.phh"


# ----------------------------------------------------------------------------- the cog


class LeagueCog(commands.Cog, name="League"):
    def __init__(self, bot: HomeGameBot) -> None:
        self.bot = bot

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        """Every slash command of this cog answers within Discord's 3 seconds, also when
        the store is slow (:mod:`cogs._answer`)."""
        return arm_command(interaction)

    async def _season(self, guild_id: int, number: int | None) -> Season:
        async with self.bot.store.read() as tx:
            if await tx.find_league(guild_id) is None:
                if number is None or number == 1:
                    raise NoSuchSeason(
                        f"Nobody has played yet. Open a table with {table_commands_text()}."
                    )
                raise NoSuchSeason(f"There is no season {number} yet.")
            try:
                return await tx.season_or_current(guild_id, number)
            except NotFound:
                current = await tx.current_season(guild_id)
                raise NoSuchSeason(
                    f"There is no season {number}: this is season {current.number}."
                ) from None

    # ------------------------------------------------------------------ /balance

    @app_commands.command(name="balance", description="Your chips (or another member's)")
    @app_commands.describe(user="whose balance to show (default: yours)")
    @app_commands.guild_only()
    async def balance(
        self, interaction: discord.Interaction, user: discord.User | None = None
    ) -> None:
        guild_id = _guild_id(interaction)
        who = user or interaction.user
        async with self.bot.store.read() as tx:
            league = await tx.find_league(guild_id)
            wallet = None if league is None else await tx.find_wallet(guild_id, who.id)
            current = None if league is None else await tx.current_season(guild_id)
            seasons = [] if league is None else await tx.seasons(guild_id)
        start = league.starting_chips if league else self.bot.settings.league.starting_chips
        # what they had: their final standing in the last ended season they played
        had = ""
        for season in reversed(seasons):
            mine = [s for s in season.standings or () if s.user_id == who.id]
            if mine:
                field = len(season.standings or ())
                had = (
                    f" Season {season.number} ended with them at "
                    f"**{format_chips(mine[0].balance)}** chips ({ordinal(mine[0].rank)} of "
                    f"{field})."
                )
                break
        if wallet is None and not had:
            text = (
                f"{who.mention} has not played yet: the first seat at a table brings "
                f"{format_chips(start)} chips."
            )
        elif wallet is None:
            assert current is not None
            text = (
                f"{who.mention} has no chips in season {current.number} yet: their first seat "
                f"brings {format_chips(start)} chips." + had
            )
        else:
            season_words = f" in season {current.number}" if current and current.number > 1 else ""
            text = (
                f"{who.mention} has **{format_chips(wallet.balance)}** chips{season_words}." + had
            )
        await send(interaction, text, ephemeral=True, allowed_mentions=_NONE)

    # ------------------------------------------------------------------ /rebuy

    @app_commands.command(
        name="rebuy",
        description="Top your chips up to the league's rebuy amount (when below it; counts "
        "against your net)",
    )
    @app_commands.guild_only()
    async def rebuy(self, interaction: discord.Interaction) -> None:
        guild_id = _guild_id(interaction)
        if self.bot.service is not None:
            # not while dealt into a hand in play (checked under the table's lock)
            entry, balance = await self.bot.service.rebuy(guild_id, interaction.user.id)
        else:
            async with self.bot.store.transaction() as tx:
                entry = await tx.rebuy(guild_id, interaction.user.id)
                balance = await tx.balance(entry.to_account)
        async with self.bot.store.read() as tx:
            league = await tx.find_league(guild_id)
        minutes = 0 if league is None else league.rebuy_cooldown_seconds // 60
        wait = f"; next rebuy in {minutes} min at the earliest" if minutes else ""
        await send(
            interaction,
            f"{interaction.user.mention} rebuys **{format_chips(entry.amount)}** chips "
            f"(balance {format_chips(balance)}{wait}). Rebuys count against your net result.",
            ephemeral=True,
            allowed_mentions=_NONE,
        )

    # ------------------------------------------------------------------ /leaderboard

    async def render_leaderboard(
        self, guild_id: int, lid: LeaderboardId
    ) -> tuple[str, discord.ui.View]:
        """The text and Prev/Next buttons of one leaderboard page."""
        season = await self._season(guild_id, lid.season)
        what = GAME_NAMES.get(lid.game or "", "all games")
        state = "" if season.open else " (ended)"
        if lid.by == "points":
            return await self._points_page(guild_id, season, lid, state)
        if lid.by in FIGURES:
            body, number, count, has_prev, has_next = await figure_page(
                self.bot,
                guild_id,
                season,
                game=lid.game,
                by=lid.by,
                min_hands=lid.min_hands,
                page=lid.page,
                what=what,
            )
            head = (
                f"**Leaderboard** · season {season.number}{state} · {what} · "
                f"by {BY_CHOICES[lid.by]} · page {number + 1}/{count}"
            )
            return f"{head}\n{body}", self._page_buttons(
                season.number, lid, number, count, has_prev=has_prev, has_next=has_next
            )
        async with self.bot.store.read() as tx:
            summaries = await tx.player_summaries(guild_id, season=season, game=lid.game)
        need = min_hands_for(lid.by, lid.min_hands)
        ranked = [r for r in rank(summaries, lid.by, game=lid.game) if r.summary.hands >= need]
        page = paginate(ranked, lid.page)
        head = (
            f"**Leaderboard** · season {season.number}{state} · {what} · "
            f"by {BY_CHOICES[lid.by]} · page {page.number + 1}/{page.count}"
        )
        if not page.rows and need:
            body = f"Nobody has played {plural(need, 'hand')} of {what} this season."
        elif not page.rows:
            body = (
                f"Nobody has played yet. Open a table with {table_commands_text()}."
                if lid.game is None
                else f"Nobody has played {what} this season."
            )
        else:
            lines = []
            for r in page.rows:
                s = r.summary
                net = s.hand_net if lid.game else s.net
                lines.append(
                    f"{r.rank}. <@{r.user_id}>: net {format_chips(net, signed=True)} · "
                    f"balance {format_chips(s.balance)} · {plural(s.hands, 'hand')} · "
                    f"biggest pot {format_chips(s.biggest_pot)}"
                )
            body = "\n".join(lines)
        view = self._page_buttons(
            season.number,
            lid,
            page.number,
            page.count,
            has_prev=page.has_prev,
            has_next=page.has_next,
        )
        return f"{head}\n{body}", view

    async def _points_page(
        self, guild_id: int, season: Season, lid: LeaderboardId, state: str
    ) -> tuple[str, discord.ui.View]:
        """The season's standings by league points (tournaments; ``points_best_of``)."""
        tournaments = getattr(self.bot, "tournaments", None)
        rows = (
            []
            if tournaments is None
            else list(await tournaments.points_standings(guild_id, season.id))
        )
        async with self.bot.store.read() as tx:
            settings = await tx.points_settings(guild_id)
        page = paginate(rows, lid.page)
        best = f", best {settings.best_of}" if settings.best_of else ""
        head = (
            f"**Leaderboard** · season {season.number}{state} · tournaments · by league points"
            f" ({settings.formula}{best}) · page {page.number + 1}/{page.count}"
        )
        if not page.rows:
            body = (
                "No tournament has scored points this season yet (`/tournament create`; one of "
                "four players or more scores)."
            )
        else:
            body = "\n".join(
                f"{s.rank}. <@{s.player}>: **{show_points(s.points)}** points · "
                f"{plural(s.played, 'tournament')}"
                + (f" ({s.counted} counted)" if s.counted != s.played else "")
                + f" · best {ordinal(s.best_place)}"
                for s in page.rows
            )
        view = self._page_buttons(
            season.number,
            lid,
            page.number,
            page.count,
            has_prev=page.has_prev,
            has_next=page.has_next,
        )
        return f"{head}\n{body}", view

    @staticmethod
    def _page_buttons(
        season: int, lid: LeaderboardId, number: int, count: int, *, has_prev: bool, has_next: bool
    ) -> discord.ui.View:
        view = discord.ui.View(timeout=None)
        prev = LeaderboardId(season, lid.game, lid.by, max(number - 1, 0), "p", lid.min_hands)
        nxt = LeaderboardId(
            season, lid.game, lid.by, min(number + 1, count - 1), "n", lid.min_hands
        )
        view.add_item(LeaderboardButton.make(prev, disabled=not has_prev))
        view.add_item(LeaderboardButton.make(nxt, disabled=not has_next))
        return view

    @app_commands.command(name="leaderboard", description="The league's players, ranked")
    @app_commands.describe(
        game="only this game's hands (default: all games)",
        season="season number (default: the current one; ended seasons stay viewable)",
        by="rank by net result (default), balance, hands, biggest pot, league points or a "
        "statistic (VPIP, PFR, 3-bet, showdowns, aggression, all-in luck, lay-downs, challenges)",
        min_hands="list only members with at least this many hands (default: 20 for a "
        "statistic, none for chips)",
    )
    @app_commands.choices(game=GAME_CHOICES, by=BY_APP_CHOICES)
    @app_commands.guild_only()
    async def leaderboard(
        self,
        interaction: discord.Interaction,
        game: str | None = None,
        season: app_commands.Range[int, 1, 1_000_000] | None = None,
        by: str = "net",
        min_hands: app_commands.Range[int, 0, 100_000] | None = None,
    ) -> None:
        guild_id = _guild_id(interaction)
        number = season or (await self._season(guild_id, None)).number
        # refuses what a button could not carry
        build_leaderboard_id(number, game, by, 0, min_hands=min_hands)
        lid = LeaderboardId(number, game, by, 0, min_hands=min_hands)
        text, view = await self.render_leaderboard(guild_id, lid)
        await send(interaction, text, view=view, allowed_mentions=_NONE)

    async def show_leaderboard_page(
        self, interaction: discord.Interaction, lid: LeaderboardId
    ) -> None:
        """A Prev/Next click: the clicked message shows the page its button names (a
        statistic may need its hands read first: the click is acknowledged at once)."""
        if lid.by in FIGURES:
            await interaction.response.defer()
            text, view = await self.render_leaderboard(_guild_id(interaction), lid)
            await interaction.edit_original_response(
                content=text, view=view, allowed_mentions=_NONE
            )
            return
        text, view = await self.render_leaderboard(_guild_id(interaction), lid)
        await interaction.response.edit_message(content=text, view=view, allowed_mentions=_NONE)

    # ------------------------------------------------------------------ /stats

    @app_commands.command(
        name="stats",
        description="Statistics per game (VPIP, PFR, 3-bet, showdowns...) with a picture",
    )
    @app_commands.describe(
        member="whose statistics to show (default: yours)",
        versus="another member: your hands together, chips and showdowns between you",
        game="only this game (default: every game played)",
        season="season number (default: the current one)",
    )
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.guild_only()
    async def stats(
        self,
        interaction: discord.Interaction,
        member: discord.User | None = None,
        versus: discord.User | None = None,
        game: str | None = None,
        season: app_commands.Range[int, 1, 1_000_000] | None = None,
    ) -> None:
        guild_id = _guild_id(interaction)
        who = member or interaction.user
        if versus is not None and versus.id == who.id:
            await send(
                interaction,
                "Choose someone else for `versus:`: a member cannot play against themselves. "
                "Nothing was shown.",
                ephemeral=True,
            )
            return
        async with self.bot.store.read() as tx:
            league = await tx.find_league(guild_id)
        chosen = None if league is None and season is None else await self._season(guild_id, season)
        wallet = None
        if chosen is not None:
            async with self.bot.store.read() as tx:
                wallet = await tx.find_wallet(guild_id, who.id, season=chosen)
        if wallet is None or chosen is None:
            await send(
                interaction,
                f"{who.mention} has not played "
                + (
                    "this season yet."
                    if chosen is None or season is None
                    else f"in season {chosen.number}."
                ),
                ephemeral=True,
                allowed_mentions=_NONE,
            )
            return
        # the figures and pictures may wait for the worker: acknowledge first (an ephemeral
        # "thinking"), then fill it in
        await defer(interaction, ephemeral=True)
        text, files = await stats_answer(
            self.bot,
            guild_id,
            who,
            versus=versus,
            game=game,
            season=chosen,
            game_names=GAME_NAMES,
        )
        await interaction.followup.send(
            fit_lines(text.split("\n"), CONTENT),
            files=files,
            ephemeral=True,
            allowed_mentions=_NONE,
        )

    # ------------------------------------------------------------------ /history

    @app_commands.command(
        name="history", description="Recent hands (open one for its replay) and chip movements"
    )
    @app_commands.describe(user="whose history to show (default: yours)")
    @app_commands.guild_only()
    async def history(
        self, interaction: discord.Interaction, user: discord.User | None = None
    ) -> None:
        guild_id = _guild_id(interaction)
        who = user or interaction.user
        async with self.bot.store.read() as tx:
            wallet = await tx.find_wallet(guild_id, who.id)
            entries = (
                [] if wallet is None else await tx.entries(account_id=wallet.id, limit=HISTORY_SIZE)
            )
            hands = (
                []
                if await tx.find_league(guild_id) is None
                else await tx.hands_of(guild_id, who.id, limit=HAND_MENU_SIZE)
            )
            games = await tx.hand_games(e.hand_id for e in entries if e.hand_id is not None)
        parts: list[str] = []
        view: discord.ui.View | None = None
        if hands:
            lines: list[str] = []
            options: list[discord.SelectOption] = []
            for h in hands:
                game = hand_game_name(h.game, hi_lo=h.hi_lo)
                net = format_chips(h.net, signed=True)
                mark = " 🏆" if h.won_pot else ""
                where = ""
                if h.tournament is not None:
                    # a tournament's hand plays tournament chips, not league chips
                    where = f" (tournament #{h.tournament}, level {h.level}; tournament chips)"
                if len(lines) < HISTORY_SIZE:
                    lines.append(
                        f"<t:{h.started_at}:R> {game}, table #{h.table_id} hand {h.number}"
                        f"{where}: {net}{mark}"
                    )
                options.append(
                    discord.SelectOption(
                        label=f"{game} · table #{h.table_id} · hand {h.number}",
                        value=str(h.hand_id),
                        description=f"{net} chips" + (", won the pot" if h.won_pot else ""),
                    )
                )
            parts.append(
                f"**Last {plural(len(lines), 'hand')} of {who.mention}**\n" + "\n".join(lines)
            )
            view = discord.ui.View(timeout=None)
            view.add_item(HistorySelect.make(who.id, options))
        if wallet is not None and entries:
            lines = []
            for e in reversed(entries):
                signed = e.amount if e.to_account == wallet.id else -e.amount
                where = f" (table {e.table_id})" if e.table_id is not None else ""
                # a call at Hold'em is no "matched the pot" (a Zoot word)
                word = entry_words(e.kind, None if e.hand_id is None else games.get(e.hand_id))
                lines.append(
                    f"<t:{e.created_at}:R> {format_chips(signed, signed=True)} {word}{where}"
                )
            parts.append(
                f"**Last {plural(len(lines), 'movement')}**"
                f" (balance {format_chips(wallet.balance)})\n" + "\n".join(lines)
            )
        text = "\n\n".join(parts) if parts else "No hands and no chip movements yet."
        if view is None:
            await send(interaction, text, ephemeral=True, allowed_mentions=_NONE)
        else:
            await send(
                interaction,
                fit_lines(text.split("\n"), CONTENT),
                view=view,
                ephemeral=True,
                allowed_mentions=_NONE,
            )

    async def open_hand(self, interaction: discord.Interaction, hand_id: int) -> None:
        """The replay of one finished hand as the clicking member saw it, with its hand
        history file (cards they never saw written ``??``)."""
        guild_id = _guild_id(interaction)
        viewer = interaction.user.id
        async with self.bot.store.read() as tx:
            try:
                hand_guild, practice = await tx.hand_guild(hand_id)
            except NotFound:
                hand_guild, practice = -1, True
            if hand_guild != guild_id or practice:
                raise HomeGameError("That hand is not one of this league's.")
            hand = await tx.hand(hand_id)
            if hand.status != "finished":
                raise HomeGameError(f"Hand {hand.number} is {hand.status}: nothing to replay.")
            results = await tx.hand_results(hand_id)
            events = await tx.hand_events(hand_id)
            closed = (await tx.table(hand.table_id)).status == "closed"
            rows = await tx.hand_rows([hand_id])
        users = {r.seat_no: r.user_id for r in results}
        viewer_seat = next((r.seat_no for r in results if r.user_id == viewer), None)

        def name(seat: int) -> str:
            uid = users.get(seat)
            if uid is None:
                return f"seat {seat}"
            if uid < 0:
                return f"Computer {-uid}"
            return f"<@{uid}>"

        replay = replay_text(events, name, viewer_seat) or "(no events were recorded)"
        game = hand_game_name(hand.game, hi_lo=_is_hi_lo(hand.history))
        files = []
        shuffle: list[str] = []  # a verifiable table's seed and Verify line (cogs/_shuffle.py)
        if hand.history:
            text, shuffle = history_file(
                hand.history,
                seed=hand.seed,
                closed=closed,
                redacted=lambda h: redact_history(h, events, viewer_seat),
            )
            files.append(upload(text.encode("utf-8"), _history_filename(hand.game, hand_id)))
        # beside it, the same hand in PokerStars' format (for PokerTracker, Hold'em Manager):
        # the viewer's own hole cards and what everyone saw, nobody else's down cards
        stars = pokerstars_of_row(rows[0], viewer=viewer) if rows else None
        if stars is not None:
            files.append(upload(stars.encode("utf-8"), f"hand-{hand_id}-pokerstars.txt"))
        limit = REPLAY_LIMIT - sum(len(line) + 1 for line in shuffle)
        if len(replay) > limit:
            files.append(upload(replay.encode("utf-8"), f"hand-{hand_id}.txt"))
            replay = replay[: limit - 40].rsplit("\n", 1)[0] + "\n… (full replay attached)"
        if shuffle:
            replay = "\n".join([*shuffle, replay])
        embed = discord.Embed(
            title=f"{game} · table #{hand.table_id} · hand {hand.number}", description=replay
        )
        if hand.seed is not None and closed:  # the seed shows them all: the file is whole
            embed.set_footer(text="Public events and your own cards; the file holds every card")
        else:
            embed.set_footer(text="Public events and your own cards only; others' hidden cards: ??")
        await send(interaction, embed=embed, files=files, ephemeral=True, allowed_mentions=_NONE)


async def setup(bot: HomeGameBot) -> None:
    await bot.add_cog(LeagueCog(bot))
