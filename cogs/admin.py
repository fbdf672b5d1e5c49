"""League administration: ``/league setup|show|void|forget``, ``/league season start|end``,
``/chips grant|take``, ``/audit`` and ``/ledger export`` (``/hand action:void`` of the
tables cog calls the same :func:`void_hand_here`).

Two locks on every command here. Discord hides them from members without Manage Server
(``default_permissions``; a server may widen that in its Integrations settings, e.g. for
the league's admin role), and each command checks again when it runs: Manage Server
(or Administrator) or the league's admin role, otherwise an ephemeral refusal and nothing
changes.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import games as registry
from bot.engine.errors import GameError, HomeGameError, InvalidConfig
from bot.league.export import ledger_csv, member_of
from bot.league.when import check_timezone
from bot.render.limits import CONTENT, fit_lines, join_within
from bot.render.text import format_chips
from bot.store import League, forget_member
from bot.store._base import UNSET
from bot.store.nights import chip_value_of
from bot.store.privacy import refuse_if_seated, stored_names
from cogs._answer import arm_command, defer, send
from cogs._files import upload
from cogs._members import member_names

if TYPE_CHECKING:
    from bot.app import HomeGameBot

log = logging.getLogger("homegame.admin")

MANAGE = discord.Permissions(manage_guild=True)
_NONE = discord.AllowedMentions.none()

STAKE_OPTIONS: dict[str, tuple[str, str]] = {
    "zoot_ante": ("zoot", "ante"),
    "wheelers_ante": ("wheelers", "ante"),
    "razz_ante": ("razz", "ante"),
    "razz_bring_in": ("razz", "bring_in"),
    "razz_small_bet": ("razz", "small_bet"),
    "razz_big_bet": ("razz", "big_bet"),
}
"""``/league setup`` option -> (game, stake field of the engine's rules)."""


class NotLeagueAdmin(HomeGameError):
    """A member without Manage Server or the league's admin role."""


def is_league_admin(interaction: discord.Interaction, league: League | None) -> bool:
    perms = interaction.permissions
    if perms.manage_guild or perms.administrator:
        return True
    role_id = league.admin_role_id if league is not None else None
    member = interaction.user
    return (
        role_id is not None
        and isinstance(member, discord.Member)
        and any(r.id == role_id for r in member.roles)
    )


async def require_league_admin(bot: HomeGameBot, interaction: discord.Interaction) -> int:
    """The guild id, if the user may administer its league (Manage Server, Administrator or
    the league's admin role), else :class:`NotLeagueAdmin` before anything changes."""
    guild_id = _guild_id(interaction)
    async with bot.store.read() as tx:
        league = await tx.find_league(guild_id)
    if not is_league_admin(interaction, league):
        raise NotLeagueAdmin(
            "Only members with Manage Server or the league's admin role may do that. "
            "Nothing was changed."
        )
    return guild_id


async def void_hand_here(bot: HomeGameBot, interaction: discord.Interaction) -> None:
    """Void the hand in progress at this channel's table (``/league void`` and
    ``/hand action:void``): everyone gets back what they put in (ledger ``void`` rows)."""
    await require_league_admin(bot, interaction)
    service = bot.service
    if service is None or interaction.channel_id is None:
        raise GameError("Tables are not running on this bot.")
    view = await service.table_in_channel(interaction.channel_id)
    if view is None:
        raise GameError("There is no table in this channel.")
    hand = view.hand_number
    await service.void_hand(view.table_id, interaction.user.id, may_manage=True)
    await send(
        interaction,
        f"{interaction.user.mention} voided hand {hand} at table #{view.table_id}: every "
        "chip it moved went back to whoever paid it.",
        allowed_mentions=_NONE,
    )


def _guild_id(interaction: discord.Interaction) -> int:
    if interaction.guild_id is None:
        raise app_commands.NoPrivateMessage("The chip league lives in a server: use this there.")
    return interaction.guild_id


def merged_stakes(
    current: Mapping[str, Any], stakes: Mapping[str, int]
) -> tuple[dict[str, Any], set[str]]:
    """The league's game settings with the given ``/league setup`` stake options applied,
    and the games whose settings changed."""
    settings: dict[str, Any] = {
        game: {part: dict(values) for part, values in dict(conf).items()}
        for game, conf in current.items()
    }
    changed: set[str] = set()
    for option, value in stakes.items():
        game, field = STAKE_OPTIONS[option]
        settings.setdefault(game, {}).setdefault("stakes", {})[field] = value
        changed.add(game)
    return settings, changed


def check_stakes(settings: Mapping[str, Any], games: set[str], given: Mapping[str, int]) -> None:
    """Let the engine's rules validate each changed game; an :class:`InvalidConfig` names
    the ``/league setup`` option (``razz_bring_in``), not the engine's field."""
    from bot.tables.games import make_family

    for game in sorted(games):
        try:
            make_family(game, {}, settings[game])
        except InvalidConfig as exc:
            option = f"{game}_{exc.field}"
            if option not in STAKE_OPTIONS:
                option = next((o for o in given if o.startswith(game)), exc.field)
            raise InvalidConfig(option, exc.reason) from None


def chip_value_change(
    league: League, chip_value: str | None, currency: str | None
) -> tuple[str, str] | None:
    """What ``/league setup chip_value currency`` asks for: ``(value, currency)`` to set,
    None to turn money off (``chip_value:off``), or UNSET when neither option was given.
    The values are checked by the store (:func:`bot.league.settle.parse_chip_value`)."""
    if chip_value is None and currency is None:
        return UNSET
    if chip_value is not None and chip_value.strip().lower() in ("off", "none"):
        if currency is not None:
            raise InvalidConfig("currency", "give a currency with a chip value, not with off")
        return None
    value = chip_value if chip_value is not None else league.chip_value
    if value is None:
        raise InvalidConfig("currency", "set a chip_value first (e.g. chip_value:0.01)")
    return value, currency if currency is not None else league.currency or "EUR"


SETTINGS_TITLES: dict[str, str] = {d.key: d.title for d in registry.league_settings()}
"""The league's game settings as ``/league show`` lists them (a new league has every one
from the config file; see bot/config.py ``LeagueSettings``)."""

CHANNELS_ROOM = 1200
"""Characters the list of table channels may take in a settings reply (about 50 channels,
then "and N more"): the reply must stay within Discord's 2,000 characters."""


def describe_league(league: League) -> str:
    minutes, seconds = divmod(league.rebuy_cooldown_seconds, 60)
    cooldown = f"{minutes} min" + (f" {seconds} s" if seconds else "")
    lines = [
        f"Starting chips: **{format_chips(league.starting_chips)}**",
        f"Rebuy: **{format_chips(league.rebuy_amount)}** chips, once every {cooldown}"
        if league.rebuy_amount
        else "Rebuy: off",
        f"Admin role: {f'<@&{league.admin_role_id}>' if league.admin_role_id else 'none'}"
        " (plus everyone with Manage Server)",
        "Table channels: "
        + (
            join_within([f"<#{c}>" for c in league.allowed_channel_ids], CHANNELS_ROOM)
            if league.allowed_channel_ids
            else "every channel"
        ),
        f"Card images: {'on' if league.images else 'off'}",
        "Chip value: "
        + (
            f"{value.describe()}"
            if (value := chip_value_of(league)) is not None
            else "none (the settle-up is in chips)"
        ),
        f"Time zone: {league.timezone or 'UTC'} (`/night schedule when:` is read in it)",
    ]
    for game, title in SETTINGS_TITLES.items():  # every game a table can open
        conf = league.game_settings.get(game, {})
        stakes = dict(conf.get("stakes", {}))
        text = ", ".join(f"{k} {v}" for k, v in sorted(stakes.items())) or "the game's defaults"
        times = dict(conf.get("house_rules", {}))
        if "decision_seconds" in times:
            text += f" · {times['decision_seconds']} s to act"
        if "choice_seconds" in times:
            text += f" · {times['choice_seconds']} s to pick"
        lines.append(f"{title} stakes: {text}")
    return "\n".join(lines)


POINTS_CHOICES = [
    app_commands.Choice(name="PokerStars Home Games' formula", value="pokerstars"),
    app_commands.Choice(name="a fixed table by place (points_table)", value="fixed"),
    app_commands.Choice(name="prize money (league chips won)", value="prize"),
]


def points_changes(formula: str | None, table: str | None, best_of: int | None) -> dict[str, Any]:
    """The points settings ``/league setup`` was given (``points_best_of: 0``: every result
    counts); a table that is not whole numbers is refused, naming the field."""
    out: dict[str, Any] = {}
    if formula is not None:
        out["formula"] = formula
    if table is not None:
        parts = [p for p in table.replace(",", " ").split() if p]
        if not parts or not all(p.isdigit() for p in parts) or len(parts) > 100:
            raise InvalidConfig(
                "points_table", "give whole numbers of points by place, e.g. `10 7 5 4 3 2 1`"
            )
        out["fixed"] = [int(p) for p in parts]
    if best_of is not None:
        out["best_of"] = None if best_of == 0 else best_of
    return out


def describe_points(settings: Any) -> str:
    """The league's points settings in one line (``/league setup``, ``/league show``)."""
    what = {
        "pokerstars": "PokerStars Home Games' formula 10·√n/√k·(1+log10(b+0.25))",
        "fixed": "the fixed table " + " ".join(map(str, settings.fixed)),
        "prize": "prize money (league chips won)",
    }[settings.formula]
    best = f"; the best {settings.best_of} results count" if settings.best_of else ""
    return f"Tournament points: {what}{best} (tournaments of 4 players or more)"


class AdminCog(commands.Cog, name="LeagueAdmin"):
    league = app_commands.Group(
        name="league",
        description="League settings, seasons and hands (Manage Server or the admin role)",
        guild_only=True,
        default_permissions=MANAGE,
    )
    season = app_commands.Group(name="season", description="Start or end a season", parent=league)
    chips = app_commands.Group(
        name="chips",
        description="Correct a member's chips (Manage Server or the admin role)",
        guild_only=True,
        default_permissions=MANAGE,
    )
    ledger = app_commands.Group(
        name="ledger",
        description="The league's ledger (Manage Server or the admin role)",
        guild_only=True,
        default_permissions=MANAGE,
    )

    def __init__(self, bot: HomeGameBot) -> None:
        self.bot = bot

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        """Every slash command of this cog answers within Discord's 3 seconds, also when
        the store is slow (:mod:`cogs._answer`)."""
        return arm_command(interaction)

    async def _require_admin(self, interaction: discord.Interaction) -> int:
        return await require_league_admin(self.bot, interaction)

    # ------------------------------------------------------------------ /league

    @league.command(name="setup", description="Change the league's settings (only those given)")
    @app_commands.describe(
        starting_chips="chips each member starts a season with",
        rebuy_amount="what a /rebuy tops a wallet up to, for a member below it (0: rebuys off)",
        rebuy_cooldown="minutes a member waits between two rebuys",
        zoot_ante="default Zoot ante",
        wheelers_ante="default Wheelers ante",
        razz_ante="default Razz ante",
        razz_bring_in="default Razz bring-in (less than the small bet)",
        razz_small_bet="default Razz small bet (3rd and 4th street)",
        razz_big_bet="default Razz big bet (5th street on)",
        admin_role="role whose members may run these admin commands",
        clear_admin_role="remove the admin role (only Manage Server then)",
        add_channel="a channel where tables may open (none listed: every channel)",
        remove_channel="a channel where tables may no longer open",
        images="draw card images in hands and showdowns",
        chip_value="what one chip is worth in money for the settle-up, e.g. 0.01 (off: chips only)",
        currency="the chip value's currency, an ISO code such as EUR, USD, GBP (default EUR)",
        timezone="the league's time zone for /night schedule, e.g. Europe/Berlin (off: UTC)",
        points="tournaments' league points: PokerStars Home Games' formula, a fixed table, prizes",
        points_table="the fixed table's points by place, e.g. 10 7 5 4 3 2 1",
        points_best_of="the standings count each player's best N results (0: all of them)",
    )
    @app_commands.choices(points=POINTS_CHOICES)
    async def setup_league(
        self,
        interaction: discord.Interaction,
        starting_chips: app_commands.Range[int, 0, 1_000_000_000] | None = None,
        rebuy_amount: app_commands.Range[int, 0, 1_000_000_000] | None = None,
        rebuy_cooldown: app_commands.Range[int, 0, 525_600] | None = None,
        zoot_ante: app_commands.Range[int, 0, 1_000_000] | None = None,
        wheelers_ante: app_commands.Range[int, 0, 1_000_000] | None = None,
        razz_ante: app_commands.Range[int, 0, 1_000_000] | None = None,
        razz_bring_in: app_commands.Range[int, 0, 1_000_000] | None = None,
        razz_small_bet: app_commands.Range[int, 0, 1_000_000] | None = None,
        razz_big_bet: app_commands.Range[int, 0, 1_000_000] | None = None,
        admin_role: discord.Role | None = None,
        clear_admin_role: bool | None = None,
        add_channel: discord.TextChannel | discord.Thread | None = None,
        remove_channel: discord.TextChannel | discord.Thread | None = None,
        images: bool | None = None,
        chip_value: app_commands.Range[str, 1, 20] | None = None,
        currency: app_commands.Range[str, 1, 10] | None = None,
        timezone: app_commands.Range[str, 1, 64] | None = None,
        points: str | None = None,
        points_table: app_commands.Range[str, 1, 200] | None = None,
        points_best_of: app_commands.Range[int, 0, 1000] | None = None,
    ) -> None:
        guild_id = await self._require_admin(interaction)
        scoring = points_changes(points, points_table, points_best_of)
        given = {
            name: value
            for name, value in (
                ("zoot_ante", zoot_ante),
                ("wheelers_ante", wheelers_ante),
                ("razz_ante", razz_ante),
                ("razz_bring_in", razz_bring_in),
                ("razz_small_bet", razz_small_bet),
                ("razz_big_bet", razz_big_bet),
            )
            if value is not None
        }
        if admin_role is not None and clear_admin_role:
            raise InvalidConfig("admin_role", "give a role or clear it, not both")
        async with self.bot.store.transaction() as tx:
            league = await tx.league(guild_id)
            changes: dict[str, Any] = {}
            if starting_chips is not None:
                changes["starting_chips"] = starting_chips
            if rebuy_amount is not None:
                changes["rebuy_amount"] = rebuy_amount
            if rebuy_cooldown is not None:
                changes["rebuy_cooldown_seconds"] = rebuy_cooldown * 60
            if given:
                settings, games = merged_stakes(league.game_settings, given)
                check_stakes(settings, games, given)
                changes["game_settings"] = settings
            if admin_role is not None:
                changes["admin_role_id"] = admin_role.id
            elif clear_admin_role:
                changes["admin_role_id"] = None
            channels = list(league.allowed_channel_ids)
            if add_channel is not None and add_channel.id not in channels:
                channels.append(add_channel.id)
            if remove_channel is not None:
                if remove_channel.id not in channels:
                    raise InvalidConfig(
                        "remove_channel", f"<#{remove_channel.id}> is not a table channel"
                    )
                channels.remove(remove_channel.id)
            if channels != list(league.allowed_channel_ids):
                changes["allowed_channel_ids"] = channels
            if images is not None:
                changes["images"] = images
            money = chip_value_change(league, chip_value, currency)
            if money is not UNSET:
                changes["chip_value"] = money
            if timezone is not None:
                off = timezone.strip().lower() in ("off", "none", "utc")
                changes["timezone"] = None if off else check_timezone(timezone)
            if not changes and not scoring:
                raise InvalidConfig("setup", "give at least one setting to change")
            if scoring:
                await tx.set_points_settings(guild_id, **scoring)
            settings_now = await tx.points_settings(guild_id)
            updated = await tx.update_league(
                guild_id,
                **{
                    k: changes.get(k, UNSET)
                    for k in (
                        "starting_chips",
                        "rebuy_amount",
                        "rebuy_cooldown_seconds",
                        "game_settings",
                        "admin_role_id",
                        "allowed_channel_ids",
                        "images",
                        "chip_value",
                        "timezone",
                    )
                },
            )
        note = ""
        if "starting_chips" in changes:
            note = "\nNew starting chips apply to wallets opened from now on (e.g. next season)."
        text = (
            "**League settings updated**\n"
            + describe_league(updated)
            + "\n"
            + describe_points(settings_now)
            + note
        )
        await send(
            interaction,
            fit_lines(text.split("\n"), CONTENT),
            ephemeral=True,
            allowed_mentions=_NONE,
        )

    @league.command(name="show", description="Show the league's settings and current season")
    async def show(self, interaction: discord.Interaction) -> None:
        guild_id = await self._require_admin(interaction)
        async with self.bot.store.read() as tx:
            league = await tx.find_league(guild_id)
            season = None if league is None else await tx.current_season(guild_id)
            scoring = await tx.points_settings(guild_id)
        if league is None or season is None:
            text = (
                "No league yet: it starts with the first table (or `/league season start`), "
                f"with {format_chips(self.bot.settings.league.starting_chips)} starting chips."
            )
        else:
            text = (
                f"**League** · season {season.number} since <t:{season.started_at}:D>\n"
                + describe_league(league)
                + "\n"
                + describe_points(scoring)
            )
        await send(
            interaction,
            fit_lines(text.split("\n"), CONTENT),
            ephemeral=True,
            allowed_mentions=_NONE,
        )

    @league.command(
        name="void", description="Void the hand in progress at this channel's table (refunds all)"
    )
    async def void(self, interaction: discord.Interaction) -> None:
        await void_hand_here(self.bot, interaction)

    @league.command(
        name="forget",
        description="Remove a member's stored names and DM links; their ledger entries stay",
    )
    @app_commands.describe(
        member="whose names to remove (their chips and ledger entries stay, for the audit)"
    )
    async def forget(self, interaction: discord.Interaction, member: discord.User) -> None:
        guild_id = await self._require_admin(interaction)
        names = {member.name, member.display_name, member.global_name or ""}
        async with self.bot.store.read() as tx:
            await refuse_if_seated(tx, guild_id, member.id)  # before anything changes
        opened = 0
        if self.bot.service is not None:
            # the open tables they left hold their name in memory: rewritten there first
            opened, found = await self.bot.service.forget_names(guild_id, member.id, names)
            names |= found
        async with self.bot.store.transaction() as tx:
            report = await forget_member(tx, guild_id, member.id, names=names, open_tables=opened)
        log.info(
            "league %s: %s removed the stored names of user %s (%d tables, %d histories)",
            guild_id,
            interaction.user.id,
            member.id,
            report.tables,
            report.histories,
        )
        await interaction.response.send_message(
            f"Removed the stored data of {member.mention}. {report.format()}",
            ephemeral=True,
            allowed_mentions=_NONE,
        )

    # ------------------------------------------------------------------ /league season

    @season.command(name="start", description="Start the league's first season here")
    async def season_start(self, interaction: discord.Interaction) -> None:
        guild_id = await self._require_admin(interaction)
        async with self.bot.store.transaction() as tx:
            existed = await tx.find_league(guild_id) is not None
            current = await tx.current_season(guild_id)  # creates the league and season 1
            league = await tx.league(guild_id)
        if existed:
            raise GameError(
                f"Season {current.number} is already running (since "
                f"<t:{current.started_at}:D>). `/league season end` ends it and starts "
                f"season {current.number + 1}."
            )
        await send(
            interaction,
            f"**Season {current.number} starts!** Everyone begins with "
            f"{format_chips(league.starting_chips)} chips at their first seat.",
            allowed_mentions=_NONE,
        )

    @season.command(
        name="end", description="End the season: archive and post standings, start the next"
    )
    async def season_end(self, interaction: discord.Interaction) -> None:
        guild_id = await self._require_admin(interaction)
        async with self.bot.store.transaction() as tx:
            ending = await tx.current_season(guild_id)
            new = await tx.end_season(guild_id, actor_id=interaction.user.id)
            archived = await tx.season(guild_id, ending.number)
            league = await tx.league(guild_id)
        standings = list(archived.standings or ())
        lines = [f"**Season {ending.number} is over.** Final standings:"]
        lines += [f"{s.rank}. <@{s.user_id}>: {format_chips(s.balance)}" for s in standings[:25]]
        if not standings:
            lines.append("(nobody played)")
        elif len(standings) > 25:
            lines.append(f"… and {len(standings) - 25} more: `/leaderboard season:{ending.number}`")
        lines.append(
            f"**Season {new.number} starts now**: everyone begins again with "
            f"{format_chips(league.starting_chips)} chips."
        )
        await send(interaction, fit_lines(lines, CONTENT), allowed_mentions=_NONE)

    # ------------------------------------------------------------------ /chips

    @chips.command(name="grant", description="Give a member chips from the house (ledger entry)")
    @app_commands.describe(
        user="who receives the chips", amount="how many chips", reason="why (kept in the ledger)"
    )
    async def grant(
        self,
        interaction: discord.Interaction,
        user: discord.User,
        amount: app_commands.Range[int, 1, 1_000_000_000],
        reason: app_commands.Range[str, 1, 500],
    ) -> None:
        guild_id = await self._require_admin(interaction)
        async with self.bot.store.transaction() as tx:
            entry = await tx.grant(
                guild_id, user.id, amount, actor_id=interaction.user.id, reason=reason
            )
            balance = await tx.balance(entry.to_account)
        await send(
            interaction,
            f"{interaction.user.mention} granted {user.mention} **{format_chips(amount)}** "
            f"chips ({entry.reason}); balance {format_chips(balance)}. Ledger entry #{entry.id}.",
            allowed_mentions=_NONE,
        )

    @chips.command(name="take", description="Remove chips from a member (ledger entry)")
    @app_commands.describe(
        user="whose chips to remove", amount="how many chips", reason="why (kept in the ledger)"
    )
    async def take(
        self,
        interaction: discord.Interaction,
        user: discord.User,
        amount: app_commands.Range[int, 1, 1_000_000_000],
        reason: app_commands.Range[str, 1, 500],
    ) -> None:
        guild_id = await self._require_admin(interaction)
        if self.bot.service is not None:
            # a seated player keeps what their hand may still ask of them (the service's
            # rule, checked under the table's lock; see TableService.take_chips)
            entry, balance = await self.bot.service.take_chips(
                guild_id, user.id, amount, actor_id=interaction.user.id, reason=reason
            )
        else:
            async with self.bot.store.transaction() as tx:
                entry = await tx.take(
                    guild_id, user.id, amount, actor_id=interaction.user.id, reason=reason
                )
                balance = await tx.balance(entry.from_account)
        await send(
            interaction,
            f"{interaction.user.mention} took **{format_chips(amount)}** chips from "
            f"{user.mention} ({entry.reason}); balance {format_chips(balance)}. "
            f"Ledger entry #{entry.id}.",
            allowed_mentions=_NONE,
        )

    # ------------------------------------------------------------------ /audit, /ledger

    @app_commands.command(
        name="audit",
        description="Check that every chip is accounted for (/rules league §5)",
    )
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    async def audit(self, interaction: discord.Interaction) -> None:
        guild_id = await self._require_admin(interaction)
        report = await self.bot.store.audit(guild_id)
        verdict = "✅ The ledger balances." if report.ok else "❌ The ledger does NOT balance."
        await send(interaction, f"{verdict}\n```\n{report.format()[:1800]}\n```", ephemeral=True)

    @ledger.command(name="export", description="The season's ledger (or one member's) as CSV")
    @app_commands.describe(
        user="only this member's entries (default: everyone's)",
        season="season number (default: the current one)",
    )
    async def export(
        self,
        interaction: discord.Interaction,
        user: discord.User | None = None,
        season: app_commands.Range[int, 1, 1_000_000] | None = None,
    ) -> None:
        guild_id = await self._require_admin(interaction)
        async with self.bot.store.read() as tx:
            if await tx.find_league(guild_id) is None:
                raise GameError("No league yet: nothing has moved.")
            chosen = await tx.season_or_current(guild_id, season)
            rows = await tx.ledger_rows(
                guild_id, season=chosen, user_id=None if user is None else user.id
            )
            stored = await stored_names(tx, guild_id)
            games = await tx.hand_games(r.hand_id for r in rows if r.hand_id is not None)
        # the members' names as they are now (a request each: acknowledge first)
        await defer(interaction, ephemeral=True)
        ids = {
            i
            for r in rows
            for i in (member_of(r.from_name), member_of(r.to_name), r.actor_id)
            if i is not None
        }
        names = await member_names(interaction.guild, ids, stored)
        whose = "" if user is None else f"-user-{user.id}"
        name = f"ledger-season-{chosen.number}{whose}.csv"
        await send(
            interaction,
            f"{len(rows)} ledger entries of season {chosen.number}"
            + ("" if user is None else f" involving {user.mention}")
            + ".",
            file=upload(ledger_csv(rows, names, games=games), name),
            ephemeral=True,
            allowed_mentions=_NONE,
        )


async def setup(bot: HomeGameBot) -> None:
    await bot.add_cog(AdminCog(bot))
