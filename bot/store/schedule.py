"""Scheduled nights (``/night schedule``): the invitation, its Discord scheduled event, the
RSVP (In / Maybe / Out, one answer per member) and the DM reminder an hour before, whose
time is stored so it survives restarts (each member's reminder is marked once sent, so a
restart in the middle of them sends none twice)."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from bot.store.errors import NotFound
from bot.store.ledger import LedgerOps

ANSWERS: tuple[str, ...] = ("in", "maybe", "out")
REMIND_BEFORE = 3600
"""The DM reminder goes out an hour before the start."""


@dataclass(frozen=True, slots=True)
class Schedule:
    id: int
    guild_id: int
    channel_id: int
    message_id: int | None
    event_id: int | None
    title: str
    location: str
    starts_at: int
    ends_at: int
    remind_at: int
    reminded_at: int | None
    created_by: int
    created_at: int


@dataclass(frozen=True, slots=True)
class Rsvps:
    answers: dict[str, tuple[int, ...]]
    """``in`` / ``maybe`` / ``out``: the members, in the order they answered."""

    def count(self, answer: str) -> int:
        return len(self.answers.get(answer, ()))


def _schedule(row: sqlite3.Row) -> Schedule:
    return Schedule(**{name: row[name] for name in Schedule.__slots__})


class ScheduleOps(LedgerOps):
    async def create_schedule(
        self,
        guild_id: int,
        *,
        channel_id: int,
        title: str,
        location: str,
        starts_at: int,
        ends_at: int,
        created_by: int,
        event_id: int | None,
    ) -> Schedule:
        await self.league(guild_id)
        remind_at = starts_at - REMIND_BEFORE
        schedule_id = await self._insert(
            "INSERT INTO night_schedules (guild_id, channel_id, event_id, title, location,"
            " starts_at, ends_at, remind_at, created_by, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                guild_id,
                channel_id,
                event_id,
                title,
                location,
                starts_at,
                ends_at,
                remind_at,
                created_by,
                self.now(),
            ),
        )
        return await self.schedule(schedule_id)

    async def schedule(self, schedule_id: int) -> Schedule:
        row = await self._one("SELECT * FROM night_schedules WHERE id = ?", (schedule_id,))
        if row is None:
            raise NotFound(f"no scheduled night {schedule_id}")
        return _schedule(row)

    async def schedule_posted(self, schedule_id: int, message_id: int) -> None:
        await self._exec(
            "UPDATE night_schedules SET message_id = ? WHERE id = ?", (message_id, schedule_id)
        )

    async def schedules_between(self, guild_id: int, start: int, end: int) -> list[Schedule]:
        """The server's scheduled nights starting in ``[start, end)``, earliest first."""
        rows = await self._all(
            "SELECT * FROM night_schedules WHERE guild_id = ? AND starts_at >= ?"
            " AND starts_at < ? ORDER BY starts_at, id",
            (guild_id, start, end),
        )
        return [_schedule(r) for r in rows]

    async def answer(self, schedule_id: int, user_id: int, answer: str) -> Rsvps:
        if answer not in ANSWERS:
            raise NotFound(f"no answer {answer!r}")
        await self._exec(
            "INSERT INTO night_rsvps (schedule_id, user_id, answer, answered_at)"
            " VALUES (?, ?, ?, ?) ON CONFLICT (schedule_id, user_id) DO UPDATE SET"
            " answer = excluded.answer, answered_at = excluded.answered_at",
            (schedule_id, user_id, answer, self.now()),
        )
        return await self.rsvps(schedule_id)

    async def rsvps(self, schedule_id: int) -> Rsvps:
        rows = await self._all(
            "SELECT user_id, answer FROM night_rsvps WHERE schedule_id = ?"
            " ORDER BY answered_at, user_id",
            (schedule_id,),
        )
        answers: dict[str, list[int]] = {a: [] for a in ANSWERS}
        for r in rows:
            answers[r["answer"]].append(r["user_id"])
        return Rsvps({a: tuple(u) for a, u in answers.items()})

    async def next_reminder(self) -> Schedule | None:
        """The earliest scheduled night whose reminder has not gone out (any server)."""
        row = await self._one(
            "SELECT * FROM night_schedules WHERE reminded_at IS NULL ORDER BY remind_at, id LIMIT 1"
        )
        return None if row is None else _schedule(row)

    async def to_remind(self, schedule_id: int) -> list[int]:
        """The In members not yet reminded."""
        rows = await self._all(
            "SELECT user_id FROM night_rsvps WHERE schedule_id = ? AND answer = 'in'"
            " AND reminded_at IS NULL ORDER BY answered_at, user_id",
            (schedule_id,),
        )
        return [r["user_id"] for r in rows]

    async def reminded(self, schedule_id: int, user_id: int | None = None) -> None:
        """Mark one member's reminder sent, or (``user_id`` None) the whole night's."""
        if user_id is None:
            await self._exec(
                "UPDATE night_schedules SET reminded_at = ? WHERE id = ?",
                (self.now(), schedule_id),
            )
        else:
            await self._exec(
                "UPDATE night_rsvps SET reminded_at = ? WHERE schedule_id = ? AND user_id = ?",
                (self.now(), schedule_id, user_id),
            )
