"""Counting the bot's REST requests against Discord's global rate limit.

Discord allows a bot 50 requests a second over all its routes ("Global Rate Limit"), except
the interaction endpoints: "Interaction endpoints are not bound to the bot's Global Rate
Limit" (discord-api-docs, topics/rate-limits). Those are the interaction callback
(``POST /interactions/{id}/{token}/callback``) and the interaction webhook, i.e. the
followups and the edits of the original response (``/webhooks/{application_id}/{token}...``).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

from bot.testing.fake_discord import FakeDiscord, RequestRecord

_CALLBACK = re.compile(r"^/interactions/\d+/[^/]+/callback$")
_WEBHOOK = re.compile(r"^/webhooks/\d+/[^/]+(/|$)")
_MESSAGES = re.compile(r"^/channels/(\d+)/messages(?:/(\d+))?$")

ROUTES = ("dm channel", "dm post", "dm edit", "table edit", "channel post", "delete", "other")
"""The kinds :func:`route_kind` names, for the requests that count."""


def counts_against_global_limit(record: RequestRecord) -> bool:
    """True unless ``record`` is an interaction callback or an interaction webhook call."""
    return not (_CALLBACK.match(record.path) or _WEBHOOK.match(record.path))


def route_kind(fake: FakeDiscord, record: RequestRecord) -> str:
    """What a counted request did: one of :data:`ROUTES` (a guild channel's PATCH is an
    edit of a message the bot keeps up to date there: the table message)."""
    if record.method == "POST" and record.path == "/users/@me/channels":
        return "dm channel"
    match = _MESSAGES.match(record.path)
    if match is None:
        return "other"
    channel = fake.channels.get(int(match.group(1)))
    in_dm = channel is not None and channel.is_dm
    if record.method == "POST" and match.group(2) is None:
        return "dm post" if in_dm else "channel post"
    if record.method == "PATCH":
        return "dm edit" if in_dm else "table edit"
    if record.method == "DELETE" and match.group(2) is not None:
        return "delete"  # e.g. the previous turn ping (cogs/_pace.py)
    return "other"


def count_routes(fake: FakeDiscord, records: Iterable[RequestRecord]) -> Counter[str]:
    """The counted requests of ``records`` by :func:`route_kind`, plus ``"pictures"``: how
    many of them carried a file (a hand or showdown PNG)."""
    counts: Counter[str] = Counter()
    for record in records:
        if not counts_against_global_limit(record):
            continue
        counts[route_kind(fake, record)] += 1
        if record.files:
            counts["pictures"] += 1
    return counts
