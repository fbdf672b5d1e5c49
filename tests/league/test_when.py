"""When a scheduled night starts (bot/league/when.py): an ISO time with its offset, or a
"2026-12-05 20:00" in the league's time zone; refused in one line when unreadable, skipped
by the clocks, past or years ahead; an unknown time zone refused in one line."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.engine.errors import InvalidConfig
from bot.league.when import BadWhen, check_timezone, local_date, parse_when

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC).timestamp()


def test_local_time_is_read_in_the_league_time_zone() -> None:
    when = parse_when("2026-12-05 20:00", "Europe/Berlin", now=NOW)
    assert when.astimezone(UTC) == datetime(2026, 12, 5, 19, 0, tzinfo=UTC)
    assert parse_when("2026-12-05 20:00", None, now=NOW) == datetime(2026, 12, 5, 20, 0, tzinfo=UTC)


def test_an_offset_wins_over_the_time_zone() -> None:
    when = parse_when("2026-12-05T20:00+01:00", "America/New_York", now=NOW)
    assert when.astimezone(UTC) == datetime(2026, 12, 5, 19, 0, tzinfo=UTC)
    assert parse_when("2026-12-05T19:00:00Z", None, now=NOW).hour == 19
    assert parse_when("<t:1796497200:f>", None, now=NOW).timestamp() == 1796497200


@pytest.mark.parametrize(
    ("typed", "why"),
    [
        ("next friday", "not a time"),
        ("2026-13-05 20:00", "not a date"),
        ("2026-11-30 20:00", "has passed"),
        ("2062-12-05 20:00", "five years"),
        ("2027-03-28 02:30", "does not exist"),
    ],
)
def test_bad_times_are_refused_in_one_line(typed: str, why: str) -> None:
    with pytest.raises(BadWhen) as err:
        parse_when(typed, "Europe/Berlin", now=NOW)
    assert why in err.value.message and err.value.message.endswith("Nothing changed.")


def test_an_unknown_time_zone_is_refused_in_one_line() -> None:
    assert check_timezone(" Europe/Berlin ") == "Europe/Berlin"
    for bad in ("Mars/Olympus", "../etc/passwd", "", "Europe/"):
        with pytest.raises(InvalidConfig) as err:
            check_timezone(bad)
        assert err.value.field == "timezone" and "\n" not in err.value.message


def test_the_local_date_follows_the_zone() -> None:
    late = datetime(2026, 12, 5, 23, 30, tzinfo=UTC).timestamp()
    assert local_date(late, None) == "2026-12-05"
    assert local_date(late, "Europe/Berlin") == "2026-12-06"
