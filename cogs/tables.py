"""Tables in channels: ``/zoot``, ``/wheelers``, ``/razz``, ``/table``, ``/hand``, the
table message's buttons, the hand DMs, and the TableService subscriber (``/stud``:
:mod:`cogs._stud_commands`; ``/holdem``, ``/omaha`` and their Bet/Raise amounts:
:mod:`cogs._flop`).

No game rule lives here: every action goes to :class:`~bot.tables.service.TableService`,
which checks it, applies it under the table's lock and publishes the result. This cog only
parses clicks, answers them within Discord's 3 seconds and renders views.

The updates of the table message and the hand DMs, and why they go as they do, are in
:mod:`cogs._publish` (the mixin :class:`~cogs._publish.TablePublisher`); the update queue
is :mod:`cogs._coalesce`; a click's answer, the clicked message edited, is in
:mod:`cogs._click_answers`, a move's early acknowledgement in :mod:`cogs._early`.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine.cards import parse_card
from bot.engine.errors import HomeGameError, InvalidConfig
from bot.ops.priority import answered
from bot.render.text import safe_name
from bot.tables.channels import check_channel, parent_channel
from bot.tables.errors import StaleAction
from bot.tables.seating import TABLES_OPEN
from cogs._answer import arm_command, defer, send
from cogs._click_answers import ClickAnswers
from cogs._coalesce import Coalescer
from cogs._delivery import OnceLog
from cogs._early import EarlyAnswer
from cogs._errors import refuse
from cogs._flop import FlopTables
from cogs._house import answer_rabbit, house_hand
from cogs._ids import (
    DM_ACTIONS,
    PACE_ACTIONS,
    PRIVATE_ACTIONS,
    RAZZ_ACTIONS,
    TABLE_ACTIONS,
    CustomId,
)
from cogs._mixed_commands import MixedCommands
from cogs._options import (
    GUTS_OPTION_HELP,
    GUTS_ORDER,
    HAND_ACTIONS,
    PACE_OPTION_HELP,
    PRACTICE_OPTION_HELP,
    REVEAL,
    SIT_OUT_HELP,
)
from cogs._pace import PaceControls
from cogs._pictures import HandPicture, ShowdownPicture
from cogs._publish import TablePublisher
from cogs._refusal import refusal
from cogs._render import (
    private_components,
    private_embed,
    table_components,
    table_embed,
    window_token,
)
from cogs._stud_commands import StudCommands
from cogs._table_commands import TableCommands, _may_manage

if TYPE_CHECKING:
    from bot.app import HomeGameBot
    from bot.tables.service import TableService
    from bot.tables.views import PrivateView, TableView

log = logging.getLogger("homegame.tables")

PRACTICE_FILL = 4
"""A practice table without ``computers:`` gets enough computer players to seat this many."""


# ----------------------------------------------------------------------------- who may click


CHANNEL_PERMISSIONS: tuple[tuple[str, str], ...] = (
    ("view_channel", "View Channel"),
    ("send_messages", "Send Messages"),
    ("embed_links", "Embed Links"),
    ("read_message_history", "Read Message History"),
)
"""What the bot needs in a table's channel: see and post the table message (an embed) and
read it back to edit it; Attach Files too when pictures are on (checked when opening)."""

FOREIGN_TABLE = "That table belongs to another server."
STRADDLE = ("straddle", "no_straddle")
"""The next hand's straddle: on the table message and in the straddler's hand DM."""


def _options(**values: Any) -> dict[str, Any]:
    """House rules given in the command (the league's defaults fill the rest)."""
    return {k: v for k, v in values.items() if v is not None}


class TablesCog(
    EarlyAnswer,
    ClickAnswers,
    PaceControls,
    FlopTables,
    MixedCommands,
    TablePublisher,
    StudCommands,
    TableCommands,
    commands.Cog,
    name="Tables",
):
    def __init__(self, bot: HomeGameBot, service: TableService) -> None:
        self.bot = bot
        self.service = service
        self.updates = Coalescer()
        self._rendered: dict[int, int] = {}
        """message id -> the newest state version shown on it (skips redundant edits)."""
        self._told_dm_closed: set[tuple[int, int]] = set()
        self._outbox: dict[int, list[tuple[str, ShowdownPicture | None, int | None]]] = {}
        self._closed: dict[int, TableView] = {}
        self._where: dict[int, dict[str, tuple[int, int]]] = {}
        """table id -> message kind -> (channel id, message id), as stored."""
        self._pictures: dict[int, HandPicture | None] = {}
        """hand message id -> the hand pictured in its attachment (None: no attachment)."""
        self._last_hand: dict[int, PrivateView] = {}
        """hand DM message id -> the PrivateView it shows (its closed state keeps the cards)."""
        self._table_shown: dict[int, TableView] = {}
        """table id -> the TableView its table message shows now."""
        self._shown: dict[tuple[int, int], PrivateView] = {}
        """(table id, user id) -> the PrivateView their hand DM shows now."""
        self._league_images: dict[int, tuple[float, bool]] = {}
        """guild id -> (when read, the league's images flag)."""
        self._guild_of: dict[int, int] = {}
        """table id -> its guild id."""
        self._worn: set[int] = set()
        """kept messages Discord refused to edit any more (30046): replaced on next update."""
        self._gone: set[int] = set()
        """tables whose channel was deleted (closed by the bot; nothing more is posted)."""
        self._refused = OnceLog()
        self._restored = False
        self._retired: set[int] = set()
        """replaced messages already retired (by the answer to a click on them)."""
        self._ping_tasks: dict[tuple[int, int], asyncio.Task[None]] = {}
        """(table id, user id) -> the turn ping waiting to see whether it is needed."""
        self._early: dict[int, asyncio.Task[Any]] = {}
        """interaction id -> its deferred update, sent from the gateway frame (cogs._early)."""
        self.answered_early = 0
        self._pinged: dict[tuple[int, int], int] = {}
        """(table id, user id) -> the turn key last pinged (at most one ping per turn)."""
        """table id -> its last view, once closed (the service no longer serves a view)."""

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        """Every slash command of this cog answers within Discord's 3 seconds, also when
        the store is slow (:mod:`cogs._answer`)."""
        return arm_command(interaction)

    async def cog_load(self) -> None:
        # the ace-to-five low table is built on first use (~0.3-1 s of CPU): build it now,
        # before the bot connects, in a worker thread; not on the event loop in the middle
        # of the first hand dealt (restored tables deal as soon as the bot is ready)
        await asyncio.to_thread(_warm_low_table)
        if self.bot.relay is not None:
            self.bot.relay.target = self
        self.bot.early_answer = self.answer_early

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """After a (re)start, bring each restored table's message up to date once: the last
        change before the stop may not have been shown, and a message that aged past
        :data:`~cogs._delivery.RENEW_AFTER` while the bot was down is replaced now."""
        if self._restored:
            return
        self._restored = True
        for table_id in await self.service.live_table_ids():
            self._refresh_table(table_id)

    async def cog_unload(self) -> None:
        if self.bot.early_answer == self.answer_early:
            self.bot.early_answer = None
        if self.bot.relay is not None and self.bot.relay.target is self:
            self.bot.relay.target = None
        await self.updates.close(self.bot.shutdown_grace)  # the last changes shown first
        self._cancel_pings()

    # ------------------------------------------------------------------ opening tables

    async def _open(
        self,
        interaction: discord.Interaction,
        game: str,
        options: dict[str, Any],
        *,
        practice: bool | None = None,
        computers: int | None = None,
        verifiable: str | None = None,
    ) -> None:
        assert interaction.guild_id is not None and interaction.channel_id is not None
        if verifiable not in (None, "off", "on"):
            raise HomeGameError("The verifiable option is on or off. Nothing changed.")
        if computers is not None and not practice:
            raise InvalidConfig(
                "computers", "computer players sit only at a practice table: add practice:True"
            )
        if practice and computers is None:
            computers = PRACTICE_FILL - 1
        parent = parent_channel(interaction.channel)
        async with self.bot.store.read() as tx:
            league = await tx.find_league(interaction.guild_id)
        # outside the league's table channels: refused first (the service checks again)
        check_channel(league, interaction.channel_id, parent_id=parent, what=TABLES_OPEN)
        missing = await self._missing_permissions(interaction)
        if missing:
            await refuse(interaction, missing)
            return
        view = await self.service.open_table(
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            host_id=interaction.user.id,
            host_name=safe_name(interaction.user.display_name),
            game=game,
            options=options,
            practice=bool(practice),
            computers=computers if practice else None,
            verifiable=verifiable == "on",
            parent_channel_id=parent,
        )
        self._guild_of[view.table_id] = view.guild_id
        sent = await send(
            interaction,
            embed=table_embed(view),
            view=table_components(view),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        # the follow-up when the command was deferred (a slow store), else the response
        message = sent if sent is not None else await interaction.original_response()
        self._rendered[message.id] = view.version
        await self._set_message(view.table_id, "table", message.channel.id, message.id)
        self._check_dm_later(view.table_id, interaction.user.id)

    async def _missing_permissions(self, interaction: discord.Interaction) -> str | None:
        """The one line that refuses to open a table when the bot lacks a permission it
        needs in this channel (its own, ``app_permissions``), else None."""
        have = interaction.app_permissions
        need = list(CHANNEL_PERMISSIONS)
        assert interaction.guild_id is not None
        if await self._images_on(interaction.guild_id):
            need.append(("attach_files", "Attach Files"))
        lacking = [label for flag, label in need if not getattr(have, flag)]
        if not lacking:
            return None
        channel = getattr(interaction.channel, "name", None)
        where = f"#{channel}" if channel else "this channel"
        them = "it" if len(lacking) == 1 else "them"
        role = self.bot.user.name if self.bot.user else "the bot"
        return (
            f"I need {', '.join(lacking)} in {where} to run a table: grant {them} in the"
            f" channel's settings → Permissions → my role ({role}), then open the table again."
        )

    @app_commands.command(name="zoot", description="Open a Zoot table here (ranked by suits)")
    @app_commands.guild_only()
    @app_commands.describe(**GUTS_OPTION_HELP, **SIT_OUT_HELP, **PRACTICE_OPTION_HELP)
    @app_commands.choices(laydown_order=GUTS_ORDER)
    async def zoot(
        self,
        interaction: discord.Interaction,
        ante: app_commands.Range[int, 1, 1_000_000] | None = None,
        laydown_order: str | None = None,
        decision_seconds: app_commands.Range[int, 10, 600] | None = None,
        excuse_matcher_ante: bool | None = None,
        laydown_requires_cover: bool | None = None,
        sit_out_hands: app_commands.Range[int, 1, 1000] | None = None,
        practice: bool | None = None,
        computers: app_commands.Range[int, 1, 9] | None = None,
        verifiable: Literal["off", "on"] | None = None,
    ) -> None:
        await self._open(
            interaction,
            "zoot",
            _options(
                ante=ante,
                laydown_order=laydown_order,
                decision_seconds=decision_seconds,
                excuse_matcher_ante=excuse_matcher_ante,
                laydown_requires_cover=laydown_requires_cover,
                sit_out_hands=sit_out_hands,
            ),
            practice=practice,
            computers=computers,
            verifiable=verifiable,
        )

    @app_commands.command(
        name="wheelers", description="Open a Wheelers table here (ranked by straights)"
    )
    @app_commands.guild_only()
    @app_commands.describe(
        **GUTS_OPTION_HELP,
        wraparound="straights may turn the corner (K-A-2)",
        **SIT_OUT_HELP,
        **PRACTICE_OPTION_HELP,
    )
    @app_commands.choices(laydown_order=GUTS_ORDER)
    async def wheelers(
        self,
        interaction: discord.Interaction,
        ante: app_commands.Range[int, 1, 1_000_000] | None = None,
        laydown_order: str | None = None,
        decision_seconds: app_commands.Range[int, 10, 600] | None = None,
        excuse_matcher_ante: bool | None = None,
        laydown_requires_cover: bool | None = None,
        wraparound: bool | None = None,
        sit_out_hands: app_commands.Range[int, 1, 1000] | None = None,
        practice: bool | None = None,
        computers: app_commands.Range[int, 1, 9] | None = None,
        verifiable: Literal["off", "on"] | None = None,
    ) -> None:
        await self._open(
            interaction,
            "wheelers",
            _options(
                ante=ante,
                laydown_order=laydown_order,
                decision_seconds=decision_seconds,
                excuse_matcher_ante=excuse_matcher_ante,
                laydown_requires_cover=laydown_requires_cover,
                wheelers_wraparound=wraparound,
                sit_out_hands=sit_out_hands,
            ),
            practice=practice,
            computers=computers,
            verifiable=verifiable,
        )

    @app_commands.command(name="razz", description="Open a Razz table here (seven-card stud low)")
    @app_commands.guild_only()
    @app_commands.describe(
        ante="ante per player (default: the league's)",
        bring_in="forced bet of the highest up card (less than the small bet)",
        small_bet="fixed bet on 3rd and 4th street",
        big_bet="fixed bet from 5th street on",
        showdown_reveal="which hands are shown at showdown",
        decision_seconds="seconds each player has to act",
        **PACE_OPTION_HELP,
        **PRACTICE_OPTION_HELP,
    )
    @app_commands.choices(showdown_reveal=REVEAL)
    async def razz(
        self,
        interaction: discord.Interaction,
        ante: app_commands.Range[int, 0, 1_000_000] | None = None,
        bring_in: app_commands.Range[int, 1, 1_000_000] | None = None,
        small_bet: app_commands.Range[int, 1, 1_000_000] | None = None,
        big_bet: app_commands.Range[int, 1, 1_000_000] | None = None,
        showdown_reveal: str | None = None,
        decision_seconds: app_commands.Range[int, 10, 600] | None = None,
        time_bank: app_commands.Range[int, 0, 600] | None = None,
        sit_out_hands: app_commands.Range[int, 1, 1000] | None = None,
        practice: bool | None = None,
        computers: app_commands.Range[int, 1, 9] | None = None,
        verifiable: Literal["off", "on"] | None = None,
    ) -> None:
        await self._open(
            interaction,
            "razz",
            _options(
                ante=ante,
                bring_in=bring_in,
                small_bet=small_bet,
                big_bet=big_bet,
                showdown_reveal=showdown_reveal,
                decision_seconds=decision_seconds,
                time_bank=time_bank,
                sit_out_hands=sit_out_hands,
            ),
            practice=practice,
            computers=computers,
            verifiable=verifiable,
        )

    # ------------------------------------------------------------------ /table, /hand

    @app_commands.command(
        name="hand",
        description="Your cards at this channel's table (only you see them); admins: void the hand",
    )
    @app_commands.guild_only()
    @app_commands.describe(
        action="show: your cards (default); void: void the hand in progress, refunding everyone"
    )
    @app_commands.choices(action=HAND_ACTIONS)
    async def hand(self, interaction: discord.Interaction, action: str = "show") -> None:
        if action == "void":
            # the same code as /league void: its run-time check (Manage Server or the
            # league's admin role) refuses anyone else before anything changes
            from cogs.admin import void_hand_here

            await void_hand_here(self.bot, interaction)
            return
        view = await self._here(interaction)
        pv = await self.service.private_view(view.table_id, interaction.user.id)
        await self._send_private(interaction, pv)

    async def _send_private(self, interaction: discord.Interaction, pv: PrivateView) -> None:
        """The ephemeral hand view (**My hand**, ``/hand``). With images on, acknowledged
        first ("thinking", only the clicker sees it): the picture may wait behind other
        tables' drawings, and Discord's 3 seconds do not."""
        if self.bot.settings.ui.images and not interaction.response.is_done():
            await defer(interaction, ephemeral=True)
        picture = await self._picture_for(await self._guild(pv.table_id), pv)
        extra: dict[str, Any] = {}
        if picture is not None:
            extra["file"] = await self._hand_file(picture)
        if interaction.response.is_done():
            await interaction.followup.send(
                embed=private_embed(pv), view=private_components(pv), ephemeral=True, **extra
            )
        else:
            await send(
                interaction,
                embed=private_embed(pv),
                view=private_components(pv),
                ephemeral=True,
                **extra,
            )

    # ------------------------------------------------------------------ clicks

    async def on_click(
        self, interaction: discord.Interaction, cid: CustomId, values: Sequence[str]
    ) -> None:
        """A press of one of our buttons or a choice in the discard menu. Acknowledged
        first; the edits and posts the click's change publishes wait for the clicker's
        answer (the clicked message with the new state), except the hand DMs that a table
        message answer waits for (:meth:`_answer_table`)."""
        await self.take_early(interaction)  # acknowledged from its frame, if it was
        with self.updates.hold():
            await self._click(interaction, cid, values)

    async def _click(
        self, interaction: discord.Interaction, cid: CustomId, values: Sequence[str]
    ) -> None:
        uid = interaction.user.id
        service = self.service
        tid = cid.table_id
        # A click acts only on a table of the server it came from: a custom_id names a
        # table, and anyone can craft one. The hand DM's controls come from a DM (no
        # server); every other click must come from the table's own server.
        # the hand DM's controls (and its Straddle / No straddle) act from a DM
        in_dm = interaction.guild_id is None and cid.action in (*DM_ACTIONS, *STRADDLE)
        if not in_dm and interaction.guild_id != await self._guild(tid):
            await refuse(interaction, FOREIGN_TABLE)
            return
        if cid.action == "rabbit":
            # a hand's result post, not the table message: it changes nothing
            await answer_rabbit(service, interaction, cid)
            return
        if await self._superseded(interaction, tid):
            raise StaleAction()
        if cid.action == "pick_game":
            await self._pick_game(interaction, cid, values)
            return
        if cid.action in PACE_ACTIONS:
            await self._pace_click(interaction, cid)  # the hand DM's (cogs/_pace.py)
            return
        if cid.action in ("bet", "raise") and await self._flop_bet(interaction, cid):
            return  # a no-limit or pot-limit amount (cogs._flop)
        if cid.action in TABLE_ACTIONS or cid.action in RAZZ_ACTIONS:
            view = await service.view(tid)
            why = refusal(view, uid, cid.action)
            if why is not None:
                await refuse(interaction, why)
                return
            if cid.action in RAZZ_ACTIONS and cid.version != view.version:
                raise StaleAction()  # refused at once; the service checks again under its lock
        card: str | None = None
        seated = False  # at Join: this player already sits here (away: Join brings them back)
        if cid.action == "join":
            seated = (await service.view(tid)).seat_of(uid) is not None
        if cid.action in PRIVATE_ACTIONS:
            if cid.action == "discard":
                if len(values) != 1:
                    await refuse(interaction, "Choose exactly one card to discard.")
                    return
                card = values[0]
                parse_card(card)  # a malformed value is refused here, before anything
            if cid.arg != window_token(await service.private_view(tid, uid)):
                raise StaleAction()
        if cid.action != "hand":
            # Acknowledge first (Discord's 3 seconds; the button stops spinning), then commit
            # and edit the clicked message through this interaction. The checks above answer
            # a refused click at once; one refused under the table's lock (a double click, a
            # timer that acted first) gets an ephemeral follow-up.
            if not interaction.response.is_done():  # (done: answered from its frame)
                await interaction.response.defer()
            await answered()  # the commit and the edits queue as any other work
        if cid.action == "join" and seated:
            # the idle rule sat this player out: Join brings them back for the next game
            await self._answer_table(interaction, await service.back(tid, uid))
        elif cid.action == "join":
            view = await service.join(tid, uid, safe_name(interaction.user.display_name))
            await self._answer_table(interaction, view)
            self._check_dm_later(tid, uid)
        elif cid.action == "leave":
            await self._answer_table(interaction, await service.leave(tid, uid))
        elif cid.action == "start":
            await self._answer_table(interaction, await service.start(tid, uid))
        elif cid.action == "resume":
            resumed = await service.resume(tid, uid, may_manage=_may_manage(interaction))
            await self._answer_table(interaction, resumed)
        elif cid.action in ("post_blind", "wait_blind"):
            chosen = await service.post_blind(tid, uid, post=cid.action == "post_blind")
            await self._answer_table(interaction, chosen)
        elif cid.action in STRADDLE:
            took = await service.straddle(
                tid, uid, yes=cid.action == "straddle", after_hand=house_hand(cid)
            )
            message = interaction.message
            if in_dm or (message is not None and message.flags.ephemeral):
                # the hand DM's buttons (or My hand's): that message shows the choice made
                await self._answer_private(interaction, await service.private_view(tid, uid))
            else:
                await self._answer_table(interaction, took)
        elif cid.action == "hand":
            await self._send_private(interaction, await service.private_view(tid, uid))
        elif cid.action in RAZZ_ACTIONS:
            await service.act(tid, uid, cid.action, version=cid.version)
            await self._answer_table(interaction, await service.view(tid))
        else:  # the hand DM's controls: lay_down, play_on, discard; once/twice, show/muck
            # No version here: in a simultaneous window every choice bumps the table's
            # version, which must not make the other players' buttons stale; the window
            # token above refuses buttons of an earlier window, and the engine refuses a
            # second choice in the same window (a double click).
            pv = await service.act(tid, uid, cid.action, card=card)
            await self._answer_private(interaction, pv)


def _warm_low_table() -> None:
    from bot.engine.cards import parse_cards
    from bot.engine.hands.low import low_name

    low_name(parse_cards("As 2d 3c 4h 5s"))


async def setup(bot: HomeGameBot) -> None:
    if bot.service is None:
        raise commands.ExtensionFailed("cogs.tables", RuntimeError("no TableService given"))
    await bot.add_cog(TablesCog(bot, bot.service))
