"""Removing a member's personal data while the ledger stays auditable (``/league forget``).

What the bot stores about a member (README, "Member data"): their Discord user id on
their wallets, ledger rows, seats and hand results; the display name they had when they
sat down, kept in each table's saved state (its seats' names, its recent lines) and in
Razz hand histories (PHH ``players``); the ids of the DM channel and hand message of
each seat. No message content, no e-mail, no presence.

:func:`forget_member` replaces every stored name of the member by :data:`FORGOTTEN` and
clears their DM ids, their payment handle and the names another site's ledger gave them
(:func:`_forget_in_nights`). It keeps every ledger row as it is (the ledger is append-only, and the
audit must still balance) and the user id on them: a wallet and its balance belong to an
id, so the chips stay the member's if they come back.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from bot.store._base import TxBase, dump_snapshot, load_json
from bot.store.errors import StoreError

FORGOTTEN = "forgotten member"

_PHH_PLAYERS = re.compile(r"^players = (\[.*\])$", re.MULTILINE)


@dataclass(frozen=True, slots=True)
class ForgetReport:
    user_id: int
    names: tuple[str, ...]
    """The names that were found and replaced (sorted)."""
    tables: int
    """Saved tables whose state named the member (closed ones and open ones)."""
    histories: int
    """Hand histories that named the member."""
    dm_links: int
    """Seats whose DM channel and message ids were cleared."""
    ledger_rows: int
    """Ledger rows of the member's wallets, all kept with their amounts."""

    def format(self) -> str:
        names = ", ".join(f"“{n}”" for n in self.names) or "none stored"
        return (
            f"Names replaced by “{FORGOTTEN}”: {names}; in {self.tables} saved table(s) and "
            f"{self.histories} hand history(ies). DM links cleared: {self.dm_links}. "
            f"Ledger: {self.ledger_rows} entries kept with their amounts (the audit still "
            "balances); the wallet keeps its balance under the member's Discord id."
        )


def replace_names(text: str, names: Iterable[str]) -> str:
    """``text`` with each of ``names`` (whole names only) replaced by :data:`FORGOTTEN`.

    >>> replace_names("bob shows A♠ K♠; bobby folds", ["bob"])
    'forgotten member shows A♠ K♠; bobby folds'
    """
    return _replace_names(text, names)


def _replace_names(text: str, names: Iterable[str]) -> str:
    for name in sorted(names, key=len, reverse=True):
        # whole names only: "al" must not turn "always" into something else
        text = re.sub(rf"(?<!\w){re.escape(name)}(?!\w)", FORGOTTEN, text)
    return text


def _forget_in_snapshot(snap: dict[str, Any], user_id: int, names: set[str]) -> bool:
    """Rewrite the name fields of a saved table (its seats' names, the recent lines, the
    last result); never the game's own fields (a member called "all" must not rewrite
    ``showdown_reveal``). Returns whether anything changed."""
    changed = False
    seat_names = snap.get("names")
    key = str(user_id)
    if isinstance(seat_names, dict) and seat_names.get(key, FORGOTTEN) != FORGOTTEN:
        seat_names[key] = FORGOTTEN
        changed = True
    recent = snap.get("recent")
    if isinstance(recent, list):
        new = [_replace_names(r, names) if isinstance(r, str) else r for r in recent]
        if new != recent:
            snap["recent"], changed = new, True
    result = snap.get("result")
    if isinstance(result, str):
        new_result = _replace_names(result, names)
        if new_result != result:
            snap["result"], changed = new_result, True
    return changed


def _forget_in_history(history: str, names: set[str]) -> str:
    """The PHH ``players = [...]`` line with the member's names replaced (exact entries)."""

    # hand_to_phh quotes each name in '...' and drops any ' inside it
    written = {n.replace("'", "") for n in names}

    def players(match: re.Match[str]) -> str:
        entries = re.findall(r"'([^']*)'", match[1])
        if not any(e in written for e in entries):
            return match[0]
        new = [FORGOTTEN if e in written else e for e in entries]
        return "players = [" + ", ".join(f"'{e}'" for e in new) + "]"

    return _PHH_PLAYERS.sub(players, history)


async def stored_names(tx: TxBase, guild_id: int) -> dict[int, str]:
    """Each member's name as the league's tables last stored it (the newest table that
    seated them wins; "forgotten member" after ``/league forget``)."""
    rows = await tx._all(
        "SELECT j.key AS user_id, j.value AS name FROM tables t,"
        " json_each(t.snapshot, '$.names') j"
        " WHERE t.guild_id = ? AND t.snapshot IS NOT NULL AND json_valid(t.snapshot)"
        " ORDER BY t.id",
        (guild_id,),
    )
    out: dict[int, str] = {}
    for row in rows:
        try:
            out[int(row["user_id"])] = str(row["name"])
        except (TypeError, ValueError):
            continue
    return out


async def refuse_if_seated(tx: TxBase, guild_id: int, user_id: int) -> None:
    """:class:`StoreError` while the member sits at an open table of the server: the table
    shows their name while they play (they leave it, or are kicked, first)."""
    live = await tx._one(
        "SELECT t.id FROM seats s JOIN tables t ON t.id = s.table_id"
        " WHERE t.guild_id = ? AND s.user_id = ? AND t.status <> 'closed' LIMIT 1",
        (guild_id, user_id),
    )
    if live is not None:
        raise StoreError(
            f"That member still sits at table #{live[0]}: they leave it (or /table kick) "
            "first. Nothing was changed."
        )


async def forget_member(
    tx: TxBase,
    guild_id: int,
    user_id: int,
    *,
    names: Iterable[str] = (),
    open_tables: int = 0,
) -> ForgetReport:
    """Replace every stored name of ``user_id`` in ``guild_id``'s league (the ones the
    tables saved for them, plus ``names``: their current Discord names) and clear their DM
    ids; keep the ledger. Refused, with nothing changed, while they sit at an open table
    (its live state in memory would write their name back). The open tables they left are
    the table service's to rewrite first (their state is in memory):
    :meth:`bot.tables.service.TableService.forget_names`, whose count ``open_tables`` adds
    to the report's tables."""
    await refuse_if_seated(tx, guild_id, user_id)
    tables = await tx._all(
        "SELECT id, snapshot FROM tables WHERE guild_id = ? AND status = 'closed'"
        " AND snapshot IS NOT NULL",
        (guild_id,),
    )
    snaps = {int(row["id"]): load_json(row["snapshot"]) for row in tables}
    found = {n for n in names if n and n.strip() and n != FORGOTTEN}
    for snap in snaps.values():
        stored = snap.get("names") if isinstance(snap, dict) else None
        if isinstance(stored, dict):
            name = stored.get(str(user_id))
            if isinstance(name, str) and name.strip() and name != FORGOTTEN:
                found.add(name)
    changed_tables = 0
    for table_id, snap in snaps.items():
        if isinstance(snap, dict) and _forget_in_snapshot(snap, user_id, found):
            await tx._exec(
                "UPDATE tables SET snapshot = ? WHERE id = ?", (dump_snapshot(snap), table_id)
            )
            changed_tables += 1
    histories = 0
    if found:
        hands = await tx._all(
            "SELECT h.id, h.history FROM hands h JOIN tables t ON t.id = h.table_id"
            " WHERE t.guild_id = ? AND h.history IS NOT NULL",
            (guild_id,),
        )
        for row in hands:
            new = _forget_in_history(row["history"], found)
            if new != row["history"]:
                await tx._exec("UPDATE hands SET history = ? WHERE id = ?", (new, row["id"]))
                histories += 1
    dm_links = await tx._exec(
        "UPDATE seats SET dm_channel_id = NULL, dm_message_id = NULL"
        " WHERE user_id = ? AND (dm_channel_id IS NOT NULL OR dm_message_id IS NOT NULL)"
        " AND table_id IN (SELECT id FROM tables WHERE guild_id = ?)",
        (user_id, guild_id),
    )
    await _forget_in_nights(tx, guild_id, user_id)
    # their own settings and where their last turn ping was (migration 0011)
    await tx._exec(
        "DELETE FROM member_settings WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
    )
    ledger = await tx._one(
        "SELECT COUNT(*) FROM ledger l WHERE l.guild_id = ? AND EXISTS (SELECT 1 FROM accounts a"
        " WHERE a.user_id = ? AND a.id IN (l.from_account, l.to_account))",
        (guild_id, user_id),
    )
    return ForgetReport(
        user_id=user_id,
        names=tuple(sorted(found)),
        tables=changed_tables + open_tables,
        histories=histories,
        dm_links=dm_links,
        ledger_rows=int(ledger[0]) if ledger is not None else 0,
    )


async def _forget_in_nights(tx: TxBase, guild_id: int, user_id: int) -> None:
    """What the nights keep of the member besides their id: how they like to be paid
    (``/pay``), the names another site's ledger gave them (learned by imports, and in each
    import's players); the bank's entries keep their amounts, like the ledger."""
    await tx._exec(
        "DELETE FROM pay_handles WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
    )
    await tx._exec(
        "DELETE FROM import_names WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
    )
    rows = await tx._all(
        "SELECT i.id, i.players FROM night_imports i JOIN nights n ON n.id = i.night_id"
        " WHERE n.guild_id = ?",
        (guild_id,),
    )
    for row in rows:
        players = load_json(row["players"])
        changed = False
        for p in players:
            if p.get("user_id") == user_id and p.get("name") != FORGOTTEN:
                p["name"] = FORGOTTEN
                changed = True
        if changed:
            await tx._exec(
                "UPDATE night_imports SET players = ? WHERE id = ?",
                (dump_snapshot(players), row["id"]),
            )
