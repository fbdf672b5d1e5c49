"""Where a league's tables and nights may open: ``/league setup add_channel`` lists the
channels (none listed: every channel). Every command that opens a table (each game's
command, a practice table too) or starts a night checks here first and refuses elsewhere,
naming the allowed channels; a thread counts as its parent channel (a table in a thread
of an allowed channel is in that channel)."""

from __future__ import annotations

from bot.engine.errors import GameError
from bot.render.limits import join_within
from bot.store.models import League

CHANNELS_ROOM = 1500
"""Characters the channel list of a refusal may take (Discord's limit is 2,000)."""


class WrongChannel(GameError):
    """A table or a night asked for outside the league's table channels."""


def channel_refusal(allowed: tuple[int, ...], what: str) -> str:
    """The refusal naming the allowed channels as mentions.

    >>> channel_refusal((1, 2, 3), "Tables open").split(" in this server")[0]
    'Tables open only in <#1>, <#2> or <#3>'
    >>> channel_refusal((1,), "Nights start").endswith("Nothing changed.")
    True
    """
    mentions = [f"<#{c}>" for c in allowed]
    if len(mentions) > 1:
        listed = join_within(mentions[:-1], CHANNELS_ROOM) + f" or {mentions[-1]}"
    else:
        listed = mentions[0]
    return f"{what} only in {listed} in this server (`/league setup add_channel`). Nothing changed."


def parent_channel(channel: object) -> int | None:
    """The channel a thread is in, None for any other channel (in discord.py only a
    ``Thread`` has ``parent_id``; a text channel's parent is its ``category_id``)."""
    parent = getattr(channel, "parent_id", None)
    return parent if isinstance(parent, int) else None


def check_channel(
    league: League | None, channel_id: int | None, *, parent_id: int | None, what: str
) -> None:
    """Raise :class:`WrongChannel` unless ``channel_id`` (or, for a thread, its parent
    ``parent_id``) is one of the league's table channels; no league yet, or no channel
    listed: every channel."""
    if league is None or not league.allowed_channel_ids:
        return
    for channel in (channel_id, parent_id):
        if channel is not None and league.channel_allowed(channel):
            return
    raise WrongChannel(channel_refusal(league.allowed_channel_ids, what))
