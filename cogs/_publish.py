"""The tables cog's publishing side (a part of :class:`cogs.tables.TablesCog`): the
TableService subscriber, the table messages, the hand DMs and their card images.

Discord's constraints shape the updates:

- a click is acknowledged at once (a deferred update: Discord's 3 seconds, and the button
  stops spinning) once the cheap checks passed; a click they refuse gets its ephemeral
  reason instead. The change is then committed, the hand DMs it changed are edited, and
  then the clicked message through the interaction (so the table never prompts a player
  whose DM does not show their new card yet); a refusal found under the table's lock comes
  as an ephemeral follow-up;
- every other update (someone else's action, a timeout, a result) goes through one
  coalescing updater per message (:class:`Coalescer`): at most one edit in flight, and the
  edit renders the newest state when it runs, so a burst of changes becomes one or two edits;
- every request but a click's answer counts against Discord's global limit (50 a second
  for all tables of the bot; ``bench/requests.py`` counts a hand's): a hand DM is edited
  only when what it shows changed, and a change that only takes something away (the turn
  passed, the hand is over) or only moves the table's count of secret choices waits a
  moment (:data:`DM_SETTLE`, :data:`TABLE_SETTLE`) to share one edit with the next;
- long-lived messages are edited through the bot's own channel/DM message endpoints,
  never through an interaction token (they expire after 15 minutes);
- nothing here ever runs while a table lock is held: the service calls :meth:`publish`
  after releasing it, and publish only schedules work.

Card images: a hand DM (and the ephemeral **My hand**) carries a PNG of its owner's cards,
re-attached only when the pictured hand changes; a result with a showdown carries a PNG of
every shown hand, the winners marked. Both need the host's ``ui.images`` and the league's
``images`` flag on; the text with the cards is sent either way. PNGs are drawn by
:mod:`bot.render.pool` (a worker process), never on the event loop.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.render.images import render_hand, render_showdown
from bot.render.pool import render
from bot.tables.errors import NotSeated, TableClosed
from cogs._coalesce import Coalescer
from cogs._delivery import (
    DM_CLOSED,
    OLD_MESSAGE_EDITS,
    UNKNOWN_CHANNEL,
    OnceLog,
    due_for_renewal,
    is_permanent,
    jump_url,
    retire_message,
)
from cogs._files import upload
from cogs._house import rabbit_view
from cogs._pictures import (
    HAND_FILE,
    SHOWDOWN_FILE,
    HandPicture,
    ShowdownPicture,
    hand_picture,
    showdown_picture,
)
from cogs._render import (
    GUTS_GAMES,
    hand_over,
    only_takes_away,
    private_components,
    private_embed,
    same_hand_view,
    table_components,
    table_embed,
)

if TYPE_CHECKING:
    from bot.app import HomeGameBot
    from bot.tables.service import TableService
    from bot.tables.views import PrivateView, Published, TableView

log = logging.getLogger("homegame.tables")

LEAGUE_IMAGES_TTL = 5.0
"""Seconds a league's ``images`` flag is kept in memory (``/league setup images:`` takes
effect within this; each DM update would otherwise read the league)."""

TABLE_MOVED = "This table moved to a newer message:"
HAND_MOVED = "Your hand moved to a newer message below."
DM_SETTLE = 15.0
"""At most this many seconds a hand DM edit that only takes something away (the turn
passed, they folded, the hand is over: no new card, no option newly allowed) waits for the
next change of that DM (their next card or turn, the next deal), so both make one edit:
Discord's global limit of 50 requests a second is shared by every table of the bot. At a
human pace the next change comes an orbit of the table later (six players taking 1.2 s: 7 s;
taking 3 s: up to 18 s); a change that brings something never waits and ends the wait."""

DM_SETTLE_MIN = 1.0
"""A DM still counting down a turn that is over waits at least this long (and at most to
the end of that countdown) for the next change."""

TABLE_SETTLE = 2.0
"""Seconds a table message edit that only moves the count of secret choices waits for the
next ones (one edit for the choices made within two seconds; the window's end, a new
phase or a player named to act goes at once and ends the wait)."""

UNKNOWN = object()
"""No picture known on a message (never sent by this process): attach again."""


class TablePublisher:
    """Mixin of the TablesCog: what it needs of the cog is declared below (the cog's
    ``__init__`` sets it up)."""

    bot: HomeGameBot
    service: TableService
    updates: Coalescer
    _rendered: dict[int, int]
    _told_dm_closed: set[tuple[int, int]]
    _outbox: dict[int, list[tuple[str, ShowdownPicture | None, int | None]]]
    _closed: dict[int, TableView]
    _where: dict[int, dict[str, tuple[int, int]]]
    _pictures: dict[int, HandPicture | None]
    _last_hand: dict[int, PrivateView]
    _table_shown: dict[int, TableView]
    _shown: dict[tuple[int, int], PrivateView]
    _league_images: dict[int, tuple[float, bool]]
    _guild_of: dict[int, int]
    _worn: set[int]
    _gone: set[int]
    _refused: OnceLog
    _retired: set[int]

    if TYPE_CHECKING:

        def _schedule_pings(self, published: Published) -> None: ...

    async def _messages(self, table_id: int) -> dict[str, tuple[int, int]]:
        """Where the table's messages are (read once from the store, then kept here:
        each update would otherwise cost a database read)."""
        known = self._where.get(table_id)
        if known is None:
            known = self._where[table_id] = await self.service.messages(table_id)
        return known

    async def _set_message(
        self, table_id: int, kind: str, channel_id: int, message_id: int
    ) -> None:
        await self.service.set_message(table_id, kind, channel_id, message_id)
        known = self._where.get(table_id)
        if known is None:  # (re)load all, the new one included
            self._where[table_id] = await self.service.messages(table_id)
        else:
            known[kind] = (channel_id, message_id)

    # ------------------------------------------------------------------ card images

    async def _guild(self, table_id: int) -> int:
        known = self._guild_of.get(table_id)
        if known is None:
            known = self._guild_of[table_id] = (await self.service.view(table_id)).guild_id
        return known

    async def _images_on(self, guild_id: int) -> bool:
        """Both switches on: the host's ``ui.images`` and the league's ``images`` flag
        (kept :data:`LEAGUE_IMAGES_TTL` seconds; a guild without a league draws them)."""
        if not self.bot.settings.ui.images:
            return False
        now = self.service.clock()
        cached = self._league_images.get(guild_id)
        if cached is not None and now - cached[0] < LEAGUE_IMAGES_TTL:
            return cached[1]
        async with self.bot.store.read() as tx:
            league = await tx.find_league(guild_id)
        on = True if league is None else league.images
        self._league_images[guild_id] = (now, on)
        return on

    async def _picture_for(self, guild_id: int, pv: PrivateView) -> HandPicture | None:
        """The hand picture to attach for ``pv`` (None: images off or no cards)."""
        if not await self._images_on(guild_id):
            return None
        return hand_picture(pv)

    async def _hand_file(self, picture: HandPicture) -> discord.File:
        png = await render(render_hand, picture.cards, **picture.render_kwargs())
        alt = f"{picture.label}: {' '.join(c.pretty for c in picture.cards)}"
        if picture.board:
            alt += f"; board {' '.join(c.pretty for c in picture.board)}"
        return upload(png, HAND_FILE, description=alt[:1024])

    async def _hand_attachments(
        self, pv: PrivateView, message_id: int
    ) -> tuple[HandPicture | None, list[discord.File] | None]:
        """The picture of ``pv`` and the new attachments of the hand message
        ``message_id`` showing it: None when its picture has not changed (the edit leaves
        the attachment as it is), ``[]`` to remove it (images off, no cards), else the PNG."""
        picture = await self._picture_for(await self._guild(pv.table_id), pv)
        if self._pictures.get(message_id, UNKNOWN) == picture:
            return picture, None
        return picture, [] if picture is None else [await self._hand_file(picture)]

    # ------------------------------------------------------------------ renewals

    def _due(self, message_id: int) -> bool:
        return due_for_renewal(message_id, self.service.clock())

    # ------------------------------------------------------------------ subscriber

    async def publish(self, published: Published) -> None:
        """Called by the service after each committed change, lock released: schedule
        the edits and posts; never wait for Discord here."""
        view = published.view
        tid = view.table_id
        self._guild_of[tid] = view.guild_id
        if view.status == "closed":
            self._closed[tid] = view
        self._schedule_pings(published)  # a turn that began after another's action
        dms = []
        for uid in published.private_changed:
            if uid < 0:
                continue  # a computer player (practice tables): nobody to send a DM to
            key = f"dm:{tid}:{uid}"
            delay = await self._settle_delay(published, uid)
            self.updates.submit(key, lambda uid=uid: self._update_dm(tid, uid), delay=delay)
            if not delay:
                dms.append(key)
        if tid in self._gone:
            return  # its channel was deleted: nothing more can be posted there
        # the table message after those DMs (see cogs._coalesce.PRIVATE_FIRST)
        self._refresh_table(tid, after=dms, delay=self._table_settle(published))
        # in the order they happened: a hand's result before what follows from it (a
        # player out of chips, "Waiting for players"); the showdown picture goes with the
        # hand's result (the last one)
        ordered = published.posts()
        last = max((i for i, (_, result) in enumerate(ordered) if result), default=-1)
        picture = showdown_picture(published) if last >= 0 else None
        # the hand's result (the last one) carries the Rabbit button when the hand ended
        # before the river (cogs/_house.py)
        rabbit = published.rabbit_hand if last >= 0 else None
        posts: list[tuple[str, ShowdownPicture | None, int | None]] = [
            (text, picture if i == last else None, rabbit if i == last else None)
            for i, (text, _) in enumerate(ordered)
        ]
        if posts:
            # one outbox per table, drained in order: results are never coalesced away
            self._outbox.setdefault(tid, []).extend(posts)
            self.updates.submit(
                f"post:{tid}", lambda: self._post(tid, view.channel_id, view.guild_id)
            )

    async def _settle_delay(self, published: Published, user_id: int) -> float:
        """How long the DM edit of ``user_id`` for this change may wait (0: at once).

        A change that only takes away from what the DM shows (the player's turn ended,
        they folded, the hand is over: no new card, no option newly allowed) is not
        something they must see before anyone else moves, so it waits for their next
        change (the next deal after a result; at most :data:`DM_SETTLE`, and no longer
        than the countdown of a turn it still shows): one edit then shows both. Cards and
        options that arrive never wait."""
        view = published.view
        shown = self._shown.get((view.table_id, user_id))
        if shown is None or view.status == "closed":
            return 0.0
        try:
            pv = await self.service.private_view(view.table_id, user_id)
        except (TableClosed, NotSeated):
            return 0.0  # the DM update itself deals with it, at once
        if not only_takes_away(shown, pv):
            return 0.0
        if shown.deadline is not None and not pv.deadline:
            # the DM counts down a turn now over: never past the end of that countdown
            left = shown.deadline - self.service.clock()
            return min(DM_SETTLE, max(DM_SETTLE_MIN, left))
        return DM_SETTLE

    def _table_settle(self, published: Published) -> float:
        """How long the table message's edit for this change may wait (0: at once): a
        choice made in a secret window only moves the count of who has chosen ("3 of 6
        have chosen"), so it waits :data:`TABLE_SETTLE` for the next choices and the
        window's end, to make one edit of them. Anything else (a new phase, a deal, a
        player named to act, a result) goes at once."""
        view = published.view
        shown = self._table_shown.get(view.table_id)
        if shown is None or published.results or published.announcements:
            return 0.0
        counting = (view.status, view.hand_number, view.phase) == (
            shown.status,
            shown.hand_number,
            shown.phase,
        ) and view.to_act_user_ids < shown.to_act_user_ids
        # a secret guts window only; in the betting games every action passes the turn
        return TABLE_SETTLE if counting and view.game in GUTS_GAMES else 0.0

    def _refresh_table(
        self, table_id: int, *, after: Sequence[str] = (), delay: float = 0.0
    ) -> None:
        """Edit the table message to its newest state, once the updates ``after`` (keys)
        running now are done (at most :data:`~cogs._coalesce.PRIVATE_FIRST` seconds)."""
        self.updates.submit(
            f"table:{table_id}", lambda: self._update_table(table_id), after=after, delay=delay
        )

    async def _post(self, table_id: int, channel_id: int, guild_id: int) -> None:
        """Send the table's outbox in order. A post Discord refuses for good (permissions,
        a deleted channel) is dropped, not retried: it must not hold up the later ones;
        a picture the channel refuses (no Attach Files) goes as text without it."""
        channel = self.bot.get_partial_messageable(channel_id)
        outbox = self._outbox.get(table_id, [])
        while outbox:
            text, picture, rabbit = outbox[0]
            extra: dict[str, Any] = {}
            if rabbit is not None:
                extra["view"] = rabbit_view(table_id, rabbit)
            if picture is not None and await self._images_on(guild_id):
                png = await render(render_showdown, picture.hands, **picture.render_kwargs())
                alt = "Showdown: " + "; ".join(
                    f"{name} {' '.join(c.pretty for c in cards)} {hand}".strip()
                    for name, cards, hand in picture.hands
                )
                extra["file"] = upload(png, SHOWDOWN_FILE, description=alt[:1024])
            try:
                await channel.send(
                    text[:2000], allowed_mentions=discord.AllowedMentions.none(), **extra
                )
            except discord.HTTPException as exc:
                if not is_permanent(exc):
                    raise  # 5xx after discord.py's retries: the next post job tries again
                if exc.code == UNKNOWN_CHANNEL:
                    outbox.clear()
                    await self._channel_gone(table_id, exc)
                    return
                if "file" in extra and isinstance(exc, discord.Forbidden):
                    self._refused.warn(table_id, "showdown picture", exc)
                    outbox[0] = (text, None, rabbit)
                    continue
                self._refused.warn(table_id, "channel post", exc)
            outbox.pop(0)

    async def _channel_gone(self, table_id: int, exc: discord.HTTPException) -> None:
        """The table's channel was deleted: close the table (the running hand is voided and
        the pot goes back by the ledger, as ``/table end`` does); nothing is posted there."""
        if table_id in self._gone:
            return
        self._gone.add(table_id)
        self._outbox.pop(table_id, None)
        log.warning(
            "table %s: its channel is gone (Discord %s): closing the table, pot refunded",
            table_id,
            exc.code,
        )
        with contextlib.suppress(TableClosed):
            await self.service.close_lost(table_id, reason="channel deleted")

    async def _retire(
        self, channel_id: int, message_id: int, *, content: str, dm: bool = False
    ) -> None:
        """Strip a replaced message's buttons and point to its successor; past Discord's
        hour (edit refused) delete it instead, so none of its buttons stays."""
        kind = discord.ChannelType.private if dm else None
        old = self.bot.get_partial_messageable(channel_id, type=kind).get_partial_message(
            message_id
        )
        for forget in (self._rendered, self._pictures, self._last_hand):
            forget.pop(message_id, None)
        self._worn.discard(message_id)
        if message_id in self._retired:
            self._retired.discard(message_id)
            return
        await retire_message(old, content=content)

    async def _renew_table(
        self, table_id: int, view: TableView, channel_id: int, old_id: int | None
    ) -> None:
        """Post a fresh table message, remember it (a restart keeps using it), retire the
        old one."""
        channel = self.bot.get_partial_messageable(channel_id)
        try:
            sent = await channel.send(embed=table_embed(view), view=table_components(view))
        except discord.HTTPException as exc:
            if exc.code == UNKNOWN_CHANNEL:
                await self._channel_gone(table_id, exc)
                return
            if not is_permanent(exc):
                raise
            self._refused.warn(table_id, "table message post", exc)
            return
        self._refused.forget(table_id, "table message post")
        self._rendered[sent.id] = view.version
        await self._set_message(table_id, "table", channel_id, sent.id)
        if old_id is not None:
            link = jump_url(view.guild_id, channel_id, sent.id)
            await self._retire(channel_id, old_id, content=f"{TABLE_MOVED} {link}")

    async def _update_table(self, table_id: int) -> None:
        try:
            view = await self.service.view(table_id)
        except TableClosed:
            # closed (by /table end, or everyone left): the service serves no view of it
            # any more; show the last one we were given, marked closed, without buttons
            closed = self._closed.get(table_id)
            if closed is None:
                return  # closed before this process knew it: the message was updated then
            view = dataclasses.replace(closed, status="closed", deadline=None)
        if table_id in self._gone:
            return
        where = (await self._messages(table_id)).get("table")
        if where is None:
            if view.tournament is not None and view.status != "closed":
                # a tournament's table opened by its director: its first message
                await self._renew_table(table_id, view, view.channel_id, None)
            return
        channel_id, message_id = where
        live = view.status != "closed"  # a closed table's message is not reposted
        if live and (message_id in self._worn or self._due(message_id)):
            # Discord caps edits of hour-old messages: a fresh one replaces it in time
            await self._renew_table(table_id, view, channel_id, message_id)
            return
        if self._rendered.get(message_id, -1) >= view.version:
            return
        self._rendered[message_id] = view.version
        self._table_shown[table_id] = view
        message = self.bot.get_partial_messageable(channel_id).get_partial_message(message_id)
        try:
            await message.edit(embed=table_embed(view), view=table_components(view))
        except discord.HTTPException as exc:
            if exc.code == UNKNOWN_CHANNEL:
                await self._channel_gone(table_id, exc)
            elif isinstance(exc, discord.NotFound) and live:
                # the table message was deleted (a moderator): post a new one, remember it
                await self._renew_table(table_id, view, channel_id, None)
            elif exc.code == OLD_MESSAGE_EDITS and live:
                self._worn.add(message_id)
                await self._renew_table(table_id, view, channel_id, message_id)
            elif is_permanent(exc):
                self._refused.warn(table_id, "table message edit", exc)
            else:
                self._rendered.pop(message_id, None)  # not shown: the next update edits it
                raise

    async def _update_dm(self, table_id: int, user_id: int) -> None:
        if (table_id, user_id) in self._told_dm_closed:
            return  # DMs closed: the player uses My hand; don't knock again on every change
        try:
            pv = await self.service.private_view(table_id, user_id)
        except TableClosed:
            await self._close_dm(table_id, user_id)
            return
        except NotSeated:
            # they left (or were removed) as the hand ended: their DM keeps the hand it
            # showed, without its controls
            await self._close_dm(table_id, user_id, left=True)
            return
        where = (await self._messages(table_id)).get(f"dm:{user_id}")
        if where is not None:
            channel_id, message_id = where
            if message_id in self._worn or self._due(message_id):
                # Discord caps edits of hour-old messages: a fresh DM replaces it in time
                if await self._send_dm(table_id, user_id, pv):
                    await self._retire(channel_id, message_id, content=HAND_MOVED, dm=True)
                return
            if self._rendered.get(message_id, -1) >= pv.version:
                return
            self._rendered[message_id] = pv.version
            last = self._last_hand.get(message_id)
            if last is not None and same_hand_view(last, pv):
                return  # the DM already shows all of it (only the state number differs)
            dm = self.bot.get_partial_messageable(channel_id, type=discord.ChannelType.private)
            extra: dict[str, Any] = {}
            picture, files = await self._hand_attachments(pv, message_id)
            if files is not None:
                extra["attachments"] = files
            try:
                await dm.get_partial_message(message_id).edit(
                    embed=private_embed(pv), view=private_components(pv), **extra
                )
            except discord.HTTPException as exc:
                if isinstance(exc, discord.Forbidden) and exc.code == DM_CLOSED:
                    # DMs closed mid-game: as a refused send (the game never waits)
                    await self._dm_closed(table_id, user_id)
                    return
                if exc.code == OLD_MESSAGE_EDITS:
                    self._worn.add(message_id)
                    self._rendered.pop(message_id, None)
                    await self._update_dm(table_id, user_id)  # renews it (worn)
                    return
                if not isinstance(exc, discord.NotFound):
                    self._rendered.pop(message_id, None)
                    raise
                # the DM was deleted: a new one below
            else:
                if files is not None:
                    self._pictures[message_id] = picture
                self._last_hand[message_id] = pv
                self._shown[(table_id, user_id)] = pv
                return
        await self._send_dm(table_id, user_id, pv)

    async def _close_dm(self, table_id: int, user_id: int, *, left: bool = False) -> None:
        """The table closed (or, ``left``, the player left it): the hand DM keeps its last
        cards but loses its controls, its action list and its countdown."""
        where = (await self._messages(table_id)).get(f"dm:{user_id}")
        if where is None:
            return
        channel_id, message_id = where
        dm = self.bot.get_partial_messageable(channel_id, type=discord.ChannelType.private)
        last = self._last_hand.pop(message_id, None)
        extra: dict[str, Any] = {}
        content = f"Table #{table_id} is closed."
        if left:
            content = f"You left table #{table_id}."
            if last is not None:
                extra["embed"] = private_embed(last, closed=True)  # what it last showed
        elif last is not None and hand_over(last):
            extra["embed"] = private_embed(last, closed=True)  # the last game's result
        elif last is not None:
            # the game being played was voided by the close: its cards are no hand any
            # more (issue 12.8), so they go, with their picture
            content += " The game being played was voided: every chip it moved went back."
            extra["embed"] = None
            extra["attachments"] = []
            self._pictures.pop(message_id, None)
        try:
            await dm.get_partial_message(message_id).edit(content=content, view=None, **extra)
        except discord.HTTPException as exc:
            # DMs closed, or past the hour: its buttons answer "This table is closed."
            if not is_permanent(exc):
                raise

    async def _send_dm(self, table_id: int, user_id: int, pv: PrivateView | None) -> bool:
        """Send the hand DM and remember it; on closed DMs tell the channel once to use
        **My hand** (the game never waits for a DM)."""
        try:
            channel = await self.bot.create_dm(discord.Object(id=user_id))
            if pv is None:
                content = (
                    f"You sit at table #{table_id}. Your cards will show here, and this "
                    "message is kept up to date."
                )
                sent = await channel.send(content)
            else:
                picture = await self._picture_for(await self._guild(table_id), pv)
                extra: dict[str, Any] = {}
                if picture is not None:
                    extra["file"] = await self._hand_file(picture)
                sent = await channel.send(
                    embed=private_embed(pv), view=private_components(pv), **extra
                )
                self._rendered[sent.id] = pv.version
                self._pictures[sent.id] = picture
                self._last_hand[sent.id] = pv
                self._shown[(table_id, user_id)] = pv
        except discord.Forbidden as exc:
            if exc.code != DM_CLOSED:
                raise
            await self._dm_closed(table_id, user_id)
            return False
        await self._set_message(table_id, f"dm:{user_id}", channel.id, sent.id)
        await self.service.set_dm_ok(table_id, user_id, True)
        return True

    async def _dm_closed(self, table_id: int, user_id: int) -> None:
        """A send or an edit of the hand DM was refused (50007): tell the channel once to
        use **My hand**; the game never waits for the DM."""
        await self.service.set_dm_ok(table_id, user_id, False)
        if (table_id, user_id) in self._told_dm_closed:
            return
        self._told_dm_closed.add((table_id, user_id))
        if table_id in self._gone:
            return
        view = await self.service.view(table_id)
        try:
            await self.bot.get_partial_messageable(view.channel_id).send(
                f"<@{user_id}>, I cannot send you direct messages: press **My hand** on "
                "the table message to see your cards and make your choices.",
                allowed_mentions=discord.AllowedMentions(users=[discord.Object(user_id)]),
            )
        except discord.HTTPException as exc:
            if not is_permanent(exc):
                raise
            self._refused.warn(table_id, "DMs-closed notice", exc)

    def _check_dm_later(self, table_id: int, user_id: int) -> None:
        """Before any deal, make sure the player can be DMed (after answering the click:
        the 3-second acknowledgement comes first)."""

        async def check() -> None:
            if f"dm:{user_id}" not in await self._messages(table_id):
                await self._send_dm(table_id, user_id, None)

        self.updates.submit(f"dm:{table_id}:{user_id}", check)
