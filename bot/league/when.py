"""When a scheduled night starts (pure: no Discord, no SQLite): ``/night schedule when:`` as
an ISO 8601 date-time with its offset (``2026-12-05T20:00+01:00``), or as people type it in
Discord's event dialog (``2026-12-05 20:00``), read in the league's time zone
(``/league setup timezone:``, an IANA name such as ``Europe/Berlin``; UTC when unset).

A wall time the clocks skip (the spring change) is refused; one they pass twice (the autumn
change) is the first of the two, and the answer says the offset it used.
"""

from __future__ import annotations

import re
import zoneinfo
from datetime import UTC, datetime, timedelta, tzinfo

from bot.engine.errors import HomeGameError, InvalidConfig

MAX_AHEAD = timedelta(days=5 * 365)
"""How far ahead a night may be scheduled (a typo guard: 2062 for 2026)."""

_LOCAL = re.compile(r"^(\d{4})-(\d{2})-(\d{2})[ T](\d{1,2}):(\d{2})(?::(\d{2}))?$")
_DISCORD = re.compile(r"^<t:(-?\d{1,12})(?::[tTdDfFR])?>$")


class BadWhen(HomeGameError, ValueError):
    """A ``when`` that is not a time the bot can schedule; one line, "Nothing changed."."""


def zone(name: str | None) -> tzinfo:
    """The league's time zone (UTC when unset)."""
    if not name:
        return UTC
    return zoneinfo.ZoneInfo(name)


def check_timezone(name: str) -> str:
    """An IANA time zone name as zoneinfo knows it; :class:`InvalidConfig` (one line) for
    anything else."""
    text = name.strip()
    try:
        if not text or text.startswith(("/", ".")) or ".." in text:
            raise ValueError(text)
        zoneinfo.ZoneInfo(text)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError, OSError):
        raise InvalidConfig(
            "timezone",
            f"`{text[:40]}` is not a time zone: give an IANA name such as Europe/Berlin, "
            "America/New_York or UTC",
        ) from None
    return text


def _example(tz_name: str | None) -> str:
    where = tz_name or "UTC"
    return (
        f"Give `when` as `2026-12-05 20:00` (in the league's time zone, {where}) or with its "
        "offset, `2026-12-05T20:00+01:00`."
    )


def parse_when(text: str, tz_name: str | None, *, now: float) -> datetime:
    """The aware start time ``text`` names; :class:`BadWhen` for a time that cannot be
    read, does not exist, has passed or is more than five years ahead."""
    typed = " ".join((text or "").split())
    local = _LOCAL.match(typed)
    discord_ts = _DISCORD.match(typed)
    tz = zone(tz_name)
    if discord_ts:
        when = datetime.fromtimestamp(int(discord_ts[1]), UTC)
    elif local:
        y, mo, d, h, mi, s = (int(g) if g else 0 for g in local.groups())
        try:
            naive = datetime(y, mo, d, h, mi, s)
        except ValueError:
            raise BadWhen(
                f"That is not a date and time: `{typed}`. {_example(tz_name)} Nothing changed."
            ) from None
        when = naive.replace(tzinfo=tz)
        # a wall time the clocks skip does not come back the same from UTC
        back = when.astimezone(UTC).astimezone(tz)
        if back.replace(tzinfo=None) != naive:
            raise BadWhen(
                f"The time `{typed}` does not exist in {tz_name or 'UTC'} (the clocks skip it). "
                "Nothing changed."
            )
    else:
        try:
            when = datetime.fromisoformat(typed.replace("Z", "+00:00"))
        except ValueError:
            raise BadWhen(
                f"That is not a time I can read: `{typed[:40]}`. {_example(tz_name)} "
                "Nothing changed."
            ) from None
        if when.tzinfo is None:
            when = when.replace(tzinfo=tz)
    start = when.timestamp()
    if start <= now:
        raise BadWhen(
            f"The time {when.isoformat(timespec='minutes')} has passed: a night is scheduled "
            "ahead. Nothing changed."
        )
    if start > now + MAX_AHEAD.total_seconds():
        raise BadWhen(
            f"The time {when.isoformat(timespec='minutes')} is more than five years ahead: a typo? "
            "Nothing changed."
        )
    return when


def local_date(unix: float, tz_name: str | None) -> str:
    """The ISO date (``2026-12-05``) of ``unix`` in the league's time zone."""
    return datetime.fromtimestamp(unix, zone(tz_name)).date().isoformat()
