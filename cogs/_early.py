"""A move at the table acknowledged from its gateway frame: part of the tables cog.

The click of a move (**Check**, **Call**, **Fold**, ...) is the interaction players make
all evening, and Discord's button spins until it is acknowledged. Handled as discord.py
hands it over, that acknowledgement waits for the frame to be turned into objects (the
interaction, its member, the copy of the message clicked), for the ``on_interaction``
task to start and for the click to be routed to :meth:`cogs.tables.TablesCog.on_click`:
about two thirds of what the bot does before its answer leaves (``bench/interactions.py``,
one table, measured step by step).

:meth:`EarlyAnswer.answer_early` runs on the raw frame instead, before discord.py parses
it (``bot.app`` calls it from its ``INTERACTION_CREATE`` parser, in the interaction's
urgent context): when everything the tables cog would check before deferring the click
is already known here and allows it (the table is of this server, the message is the
table's current one, the clicker may make that move on this version of the table: the
same checks as :meth:`~cogs.tables.TablesCog._click`, on the state kept in memory), the
deferred update (callback 6) is sent at once, and discord.py's parse and the routing go on
meanwhile. Anything not known, or any doubt, and the click goes the usual way, answered
as before: this only moves the acknowledgement earlier, it never decides a click.

:meth:`~cogs.tables.TablesCog.on_click` takes the early answer first
(:meth:`EarlyAnswer.take_early`): the interaction is then marked deferred as if discord.py
had sent it, its failure (an expired interaction, say) raised there as the defer's own
would be, and a click refused afterwards all the same (a timer acted in between; the
checks run again, and the service's under its lock) is told so in an ephemeral follow-up,
as one refused under the lock always was.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

import discord
from discord.webhook.async_ import async_context, interaction_response_params

from bot import games as registry
from cogs._ids import RAZZ_ACTIONS, BadCustomId, parse_custom_id
from cogs._items import control_values
from cogs._refusal import refusal

if TYPE_CHECKING:
    from bot.app import HomeGameBot
    from bot.tables.service import TableService

log = logging.getLogger(__name__)

EARLY_ACTIONS = frozenset(RAZZ_ACTIONS)
"""The table message's moves: the clicks acknowledged from the frame. (Bet and Raise of a
no-limit or pot-limit game open an amount menu instead: never early there.)"""

_AMOUNT_GAMES = frozenset(registry.keys(family="flop"))
_EPHEMERAL = 1 << 6
_DEFERRED_UPDATE = discord.InteractionResponseType.deferred_message_update


class EarlyAnswer:
    """Mixin of the TablesCog: the early acknowledgement of a move (module text)."""

    bot: HomeGameBot
    service: TableService
    _guild_of: dict[int, int]
    _where: dict[int, dict[str, tuple[int, int]]]
    _early: dict[int, asyncio.Task[Any]]
    answered_early: int
    """Clicks acknowledged from their frame since the cog was loaded."""

    def answer_early(self, data: Any) -> bool:
        """Called with an ``INTERACTION_CREATE``'s raw ``data`` before discord.py parses
        it: start the deferred update of a move that will be deferred anyway; whether it
        did (the answer is then the loop's next step)."""
        try:
            iid, token = self._early_target(data)
        except (KeyError, TypeError, ValueError, BadCustomId):
            return False  # not a move this can vouch for: the usual way
        if iid is None or token is None:
            return False
        http: Any = self.bot.http
        session = getattr(http, "_HTTPClient__session", None)  # the one discord.py uses
        if session is None or session.closed:
            return False
        adapter = async_context.get()
        answer = adapter.create_interaction_response(
            iid,
            token,
            session=session,
            proxy=http.proxy,
            proxy_auth=http.proxy_auth,
            params=interaction_response_params(type=_DEFERRED_UPDATE.value),
        )
        task = asyncio.get_running_loop().create_task(answer, name=f"early-answer-{iid}")
        task.add_done_callback(_retrieved)
        self._early[iid] = task
        self.answered_early += 1
        return True

    def _early_target(self, data: Any) -> tuple[int | None, str | None]:
        """The interaction's id and token when it is a move the tables cog would defer
        now, as far as what is in memory tells; (None, None) when it is not, or when
        something is not known here."""
        none = (None, None)
        if data.get("type") != discord.InteractionType.component.value:
            return none
        inner = data["data"]
        if control_values(inner) != ():  # not a table button (a menu, someone else's)
            return none
        cid = parse_custom_id(inner["custom_id"])
        if cid.action not in EARLY_ACTIONS or cid.arg is not None:
            return none
        guild_id = data.get("guild_id")
        if guild_id is None or int(guild_id) != self._guild_of.get(cid.table_id):
            return none  # a DM, another server's table, or a table not looked at yet
        message = data["message"]
        if int(message.get("flags") or 0) & _EPHEMERAL:
            return none
        stored = self._where.get(cid.table_id, {}).get("table")
        if stored is None or int(message["id"]) != stored[1]:
            return none  # not the table's current message (replaced, or not known)
        view = self.service.cached_view(cid.table_id)
        if view is None or view.version != cid.version:
            return none
        if cid.action in ("bet", "raise") and view.game in _AMOUNT_GAMES:
            return none
        user_id = int(data["member"]["user"]["id"])
        if refusal(view, user_id, cid.action) is not None:
            return none
        return int(data["id"]), str(data["token"])

    async def take_early(self, interaction: discord.Interaction) -> None:
        """If this interaction was acknowledged from its frame: wait for that answer (its
        failure raised here, as :meth:`discord.InteractionResponse.defer` would raise it)
        and mark the interaction deferred, as that defer would have."""
        task = self._early.pop(interaction.id, None)
        if task is None:
            return
        await task
        response: Any = interaction.response
        response._response_type = _DEFERRED_UPDATE


def _retrieved(task: asyncio.Task[Any]) -> None:
    """An early answer's failure is raised to the click that takes it; this only keeps
    asyncio from logging it as never retrieved when nobody does (the cog unloaded)."""
    if not task.cancelled() and task.exception() is not None:
        log.debug("early answer %s failed: %r", task.get_name(), task.exception())
