"""The night as the bank (issue 21): buy-ins and cash-outs booked for a game played
anywhere, the requests a host approves or refuses, corrections, expenses, how members like
to be paid, and ledgers imported from another site.

Everything here is a row of the night's book (``night_entries``, append-only like the
ledger: a correction is a new entry naming the one it corrects, with the difference and a
reason) or of its side tables; each names who made it (``actor_id``). No league chip moves:
a bank night's money is settled in money by the settle-up. Amounts are whole chips (money
at the league's chip value, converted exactly by :mod:`bot.league.bank`).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from bot.league.bank import Expense
from bot.store._base import dump_json, load_json
from bot.store.errors import NotFound, StoreError
from bot.store.ledger import LedgerOps, check_reason
from bot.store.night_models import Night

KIND_WORDS = {"buyin": "buy-in", "cashout": "cash-out", "unaccounted": "unaccounted"}
MAX_HANDLE = 200


class NightError(StoreError):
    """A night command that cannot be done now (none open, one already open, settled...)."""


def night_from_row(row: sqlite3.Row) -> Night:
    return Night(**{name: row[name] for name in Night.__slots__})


@dataclass(frozen=True, slots=True)
class BankEntry:
    id: int
    night_id: int
    user_id: int | None
    kind: str
    chips: int
    corrects: int | None
    request_id: int | None
    import_id: int | None
    actor_id: int
    reason: str | None
    created_at: int


@dataclass(frozen=True, slots=True)
class BankRequest:
    id: int
    night_id: int
    user_id: int
    kind: str
    chips: int
    status: str
    decided_by: int | None
    decided_at: int | None
    channel_id: int | None
    message_id: int | None
    created_at: int

    @property
    def word(self) -> str:
        return KIND_WORDS[self.kind]


@dataclass(frozen=True, slots=True)
class BankLine:
    user_id: int
    bought_in: int
    cashed_out: int
    buy_ins: int
    """How many buy-ins (rebuys included), corrections not counted."""

    @property
    def net(self) -> int:
        return self.cashed_out - self.bought_in


@dataclass(frozen=True, slots=True)
class NightBook:
    night: Night
    entries: tuple[BankEntry, ...]
    lines: tuple[BankLine, ...]
    """Per member who has an entry, by member id."""
    expenses: tuple[Expense, ...]
    pending: tuple[BankRequest, ...]
    unaccounted: int
    """A forced end's booked difference (0 if none)."""

    @property
    def money_in(self) -> int:
        return sum(line.bought_in for line in self.lines)

    @property
    def money_out(self) -> int:
        return sum(line.cashed_out for line in self.lines)

    @property
    def difference(self) -> int:
        """Money in minus money out minus what a forced end booked as unaccounted: 0 when
        the bank balances."""
        return self.money_in - self.money_out - self.unaccounted

    @property
    def not_cashed_out(self) -> list[int]:
        return [line.user_id for line in self.lines if line.bought_in and not line.cashed_out]


def _entry(row: sqlite3.Row) -> BankEntry:
    return BankEntry(**{name: row[name] for name in BankEntry.__slots__})


def _request(row: sqlite3.Row) -> BankRequest:
    return BankRequest(**{name: row[name] for name in BankRequest.__slots__})


def _expense(row: sqlite3.Row) -> Expense:
    shared = load_json(row["shared_by"])
    return Expense(
        id=row["id"],
        what=row["what"],
        chips=row["chips"],
        paid_by=row["paid_by"],
        shared_by=None if shared is None else tuple(int(u) for u in shared),
        actor_id=row["actor_id"],
        created_at=row["created_at"],
    )


class BankOps(LedgerOps):
    # ------------------------------------------------------------------ nights

    async def open_night(self, guild_id: int) -> Night | None:
        row = await self._one(
            "SELECT * FROM nights WHERE guild_id = ? AND ended_at IS NULL", (guild_id,)
        )
        return None if row is None else night_from_row(row)

    async def _night(self, night_id: int) -> Night:
        row = await self._one("SELECT * FROM nights WHERE id = ?", (night_id,))
        if row is None:
            raise NotFound(f"no night {night_id}")
        return night_from_row(row)

    async def bank_night(self, guild_id: int, doing: str) -> Night:
        """The open night, if it is a bank night; refused (one line) otherwise."""
        night = await self.open_night(guild_id)
        if night is None:
            raise NightError(
                f"No night is on: start one with `/night start kind:bank` before {doing}. "
                "Nothing changed."
            )
        if not night.bank:
            raise NightError(
                f"Night #{night.number} is a night of the bot's tables, not a bank night: "
                f"{doing} needs `/night start kind:bank` (or `both`). Nothing changed."
            )
        return night

    # ------------------------------------------------------------------ the book

    async def book_entry(
        self,
        night: Night,
        user_id: int,
        kind: str,
        chips: int,
        *,
        actor_id: int,
        reason: str | None = None,
        request_id: int | None = None,
        import_id: int | None = None,
    ) -> BankEntry:
        """Book a buy-in or a cash-out for ``user_id`` (who recorded it: ``actor_id``)."""
        if kind not in ("buyin", "cashout"):
            raise StoreError(f"unknown bank entry kind {kind!r}")
        if type(chips) is not int or chips <= 0:
            raise NightError("An amount is more than 0. Nothing changed.")
        if kind == "cashout":
            await self._cash_out_allowed(night, user_id, chips)
        entry_id = await self._insert(
            "INSERT INTO night_entries (night_id, user_id, kind, chips, request_id, import_id,"
            " actor_id, reason, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (night.id, user_id, kind, chips, request_id, import_id, actor_id, reason, self.now()),
        )
        return await self.bank_entry(entry_id)

    async def _cash_out_allowed(self, night: Night, user_id: int, chips: int) -> None:
        """A cash-out needs a buy-in first (what would they cash out?)."""
        row = await self._one(
            "SELECT COALESCE(SUM(chips), 0) AS n FROM night_entries"
            " WHERE night_id = ? AND user_id = ? AND kind = 'buyin'",
            (night.id, user_id),
        )
        assert row is not None
        if row["n"] <= 0:
            raise NightError(
                f"<@{user_id}> has not bought in tonight: a cash-out comes after a buy-in. "
                "Nothing changed."
            )

    async def bank_entry(self, entry_id: int) -> BankEntry:
        row = await self._one("SELECT * FROM night_entries WHERE id = ?", (entry_id,))
        if row is None:
            raise NotFound(f"no bank entry {entry_id}")
        return _entry(row)

    async def bank_entries(self, night: Night) -> list[BankEntry]:
        rows = await self._all(
            "SELECT * FROM night_entries WHERE night_id = ? ORDER BY id", (night.id,)
        )
        return [_entry(r) for r in rows]

    async def correct_entry(
        self, guild_id: int, entry_id: int, chips: int, *, reason: str, actor_id: int
    ) -> tuple[BankEntry, BankEntry]:
        """Correct entry ``entry_id`` of the open night to ``chips`` (0: it should not have
        been booked): a new entry with the difference and the reason, never an edit.
        Returns the corrected entry and the correction."""
        why = check_reason(reason)
        night = await self.bank_night(guild_id, "a correction")
        try:
            original = await self.bank_entry(entry_id)
        except NotFound:
            raise NightError(
                f"Night #{night.number} has no entry #{entry_id} (`/night show` lists them). "
                "Nothing changed."
            ) from None
        if original.corrects is not None:
            original = await self.bank_entry(original.corrects)
        if original.night_id != night.id or original.kind not in ("buyin", "cashout"):
            raise NightError(
                f"Entry #{entry_id} is not a buy-in or cash-out of night #{night.number}. "
                "Nothing changed."
            )
        row = await self._one(
            "SELECT COALESCE(SUM(chips), 0) AS n FROM night_entries WHERE id = ? OR corrects = ?",
            (original.id, original.id),
        )
        assert row is not None
        now_chips = int(row["n"])
        if type(chips) is not int or chips < 0:
            raise NightError("A corrected amount is 0 or more. Nothing changed.")
        delta = chips - now_chips
        if delta == 0:
            raise NightError(
                f"Entry #{original.id} is already {chips:,} chips: nothing to correct. "
                "Nothing changed."
            )
        correction_id = await self._insert(
            "INSERT INTO night_entries (night_id, user_id, kind, chips, corrects, actor_id,"
            " reason, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                night.id,
                original.user_id,
                original.kind,
                delta,
                original.id,
                actor_id,
                why,
                self.now(),
            ),
        )
        return original, await self.bank_entry(correction_id)

    async def book_unaccounted(
        self, night: Night, chips: int, *, actor_id: int, reason: str
    ) -> None:
        await self._insert(
            "INSERT INTO night_entries (night_id, user_id, kind, chips, actor_id, reason,"
            " created_at) VALUES (?, NULL, 'unaccounted', ?, ?, ?, ?)",
            (night.id, chips, actor_id, reason, self.now()),
        )

    async def night_book(self, night: Night) -> NightBook:
        entries = await self.bank_entries(night)
        lines: dict[int, list[int]] = {}
        unaccounted = 0
        for e in entries:
            if e.kind == "unaccounted":
                unaccounted += e.chips
                continue
            assert e.user_id is not None
            line = lines.setdefault(e.user_id, [0, 0, 0])
            line[0 if e.kind == "buyin" else 1] += e.chips
            if e.kind == "buyin" and e.corrects is None:
                line[2] += 1
        pending = await self._all(
            "SELECT * FROM night_requests WHERE night_id = ? AND status = 'pending' ORDER BY id",
            (night.id,),
        )
        return NightBook(
            night=night,
            entries=tuple(entries),
            lines=tuple(
                BankLine(user_id=u, bought_in=v[0], cashed_out=v[1], buy_ins=v[2])
                for u, v in sorted(lines.items())
            ),
            expenses=tuple(await self.expenses(night)),
            pending=tuple(_request(r) for r in pending),
            unaccounted=unaccounted,
        )

    # ------------------------------------------------------------------ requests

    async def ask(self, night: Night, user_id: int, kind: str, chips: int) -> BankRequest:
        """A member asks for a buy-in or cash-out for themselves: pending until the host or
        an admin decides. A cash-out request needs a buy-in first."""
        if kind == "cashout":
            await self._cash_out_allowed(night, user_id, chips)
        request_id = await self._insert(
            "INSERT INTO night_requests (night_id, user_id, kind, chips, created_at)"
            " VALUES (?, ?, ?, ?, ?)",
            (night.id, user_id, kind, chips, self.now()),
        )
        return await self.bank_request(request_id)

    async def bank_request(self, request_id: int) -> BankRequest:
        row = await self._one("SELECT * FROM night_requests WHERE id = ?", (request_id,))
        if row is None:
            raise NotFound(f"no request {request_id}")
        return _request(row)

    async def request_posted(self, request_id: int, channel_id: int, message_id: int) -> None:
        await self._exec(
            "UPDATE night_requests SET channel_id = ?, message_id = ? WHERE id = ?",
            (channel_id, message_id, request_id),
        )

    async def decide(
        self, request_id: int, *, actor_id: int, approve: bool
    ) -> tuple[BankRequest, BankEntry | None]:
        """Approve (book the entry) or refuse a pending request, once. Refused with nothing
        changed: one's own request, a request already decided, a night that has ended."""
        try:
            request = await self.bank_request(request_id)
        except NotFound:
            raise NightError("That request is not one of this server's. Nothing changed.") from None
        night = await self._night(request.night_id)
        if request.status != "pending":
            raise NightError(
                f"This {request.word} was already {request.status}"
                + (f" by <@{request.decided_by}>" if request.decided_by else "")
                + ". Nothing changed."
            )
        if request.user_id == actor_id:
            raise NightError(
                f"You cannot {'approve' if approve else 'refuse'} your own {request.word}: "
                "the host or another admin does. Nothing changed."
            )
        if not night.open:
            raise NightError(f"Night #{night.number} has ended. Nothing changed.")
        changed = await self._exec(
            "UPDATE night_requests SET status = ?, decided_by = ?, decided_at = ?"
            " WHERE id = ? AND status = 'pending'",
            ("approved" if approve else "refused", actor_id, self.now(), request_id),
        )
        if changed != 1:  # pragma: no cover - one writer at a time; the guard is the rule
            raise NightError("This request was decided meanwhile. Nothing changed.")
        entry = None
        if approve:
            entry = await self.book_entry(
                night,
                request.user_id,
                request.kind,
                request.chips,
                actor_id=actor_id,
                request_id=request.id,
                reason=f"asked by <@{request.user_id}>",
            )
        return await self.bank_request(request_id), entry

    async def withdraw_pending(self, night: Night, *, actor_id: int) -> list[BankRequest]:
        """A forced end: every request still pending is closed as withdrawn."""
        rows = await self._all(
            "SELECT id FROM night_requests WHERE night_id = ? AND status = 'pending'", (night.id,)
        )
        await self._exec(
            "UPDATE night_requests SET status = 'withdrawn', decided_by = ?, decided_at = ?"
            " WHERE night_id = ? AND status = 'pending'",
            (actor_id, self.now(), night.id),
        )
        return [await self.bank_request(r["id"]) for r in rows]

    # ------------------------------------------------------------------ expenses

    async def add_expense(
        self,
        night: Night,
        *,
        what: str,
        chips: int,
        paid_by: int,
        shared_by: Sequence[int] | None,
        actor_id: int,
        everyone: Iterable[int] = (),
    ) -> Expense:
        """An expense of the open night. ``shared_by`` None: everyone of the night (at its
        end); refused when nobody would share it."""
        text = " ".join((what or "").split())
        if not 1 <= len(text) <= 100:
            raise NightError("Say what the expense was (1 to 100 characters). Nothing changed.")
        if type(chips) is not int or chips <= 0:
            raise NightError("An amount is more than 0. Nothing changed.")
        if shared_by is not None and not shared_by:
            raise NightError(
                "An expense shared by nobody: list who shares it in `shared_by` (mentions, "
                "e.g. `@ann @bob`), or leave it out to share it by everyone. Nothing changed."
            )
        if shared_by is None and not set(everyone):
            raise NightError(
                "An expense shared by nobody: nobody is in the night yet, so list who shares "
                "it in `shared_by`. Nothing changed."
            )
        expense_id = await self._insert(
            "INSERT INTO night_expenses (night_id, what, chips, paid_by, shared_by, actor_id,"
            " created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                night.id,
                text,
                chips,
                paid_by,
                None if shared_by is None else dump_json(list(shared_by)),
                actor_id,
                self.now(),
            ),
        )
        row = await self._one("SELECT * FROM night_expenses WHERE id = ?", (expense_id,))
        assert row is not None
        return _expense(row)

    async def expenses(self, night: Night) -> list[Expense]:
        rows = await self._all(
            "SELECT * FROM night_expenses WHERE night_id = ? ORDER BY id", (night.id,)
        )
        return [_expense(r) for r in rows]

    # ------------------------------------------------------------------ pay handles

    async def set_pay_handle(self, guild_id: int, user_id: int, handle: str | None) -> None:
        if handle is None:
            await self._exec(
                "DELETE FROM pay_handles WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
            )
            return
        text = " ".join(handle.split())
        if not 1 <= len(text) <= MAX_HANDLE:
            raise NightError(f"A payment handle is 1 to {MAX_HANDLE} characters. Nothing changed.")
        await self._exec(
            "INSERT INTO pay_handles (guild_id, user_id, handle, updated_at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (guild_id, user_id) DO UPDATE SET handle = excluded.handle,"
            " updated_at = excluded.updated_at",
            (guild_id, user_id, text, self.now()),
        )

    async def pay_handles(self, guild_id: int, users: Iterable[int]) -> dict[int, str]:
        """The handles of ``users`` (those who stored one)."""
        wanted = sorted(set(users))
        if not wanted:
            return {}
        marks = ", ".join("?" for _ in wanted)
        rows = await self._all(
            f"SELECT user_id, handle FROM pay_handles WHERE guild_id = ? AND user_id IN ({marks})",
            (guild_id, *wanted),
        )
        return {r["user_id"]: r["handle"] for r in rows}
