"""The TableService's part of ``/league forget`` (a part of
:class:`bot.tables.service.TableService`): an open table keeps in memory (and saves with
each change) the names of everyone who sat there, in its seats' names and its recent
lines, also of a member who has left it. Those are rewritten here, under each table's lock,
and saved, so the table message shows "forgotten member" at once and no later save writes
the name back; the store rewrites the closed tables and the hand histories
(:func:`bot.store.privacy.forget_member`)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from bot.store import FORGOTTEN, Store, Tx
from bot.store.privacy import replace_names
from bot.tables.errors import TableClosed
from bot.tables.live import LiveTable, Step


class TablePrivacy:
    """Mixin of the TableService: what it needs of the service is declared below."""

    store: Store
    _run: Callable[..., Awaitable[tuple[LiveTable, Any, Any]]]

    async def forget_names(
        self, guild_id: int, user_id: int, names: Iterable[str] = ()
    ) -> tuple[int, set[str]]:
        """Replace the member's names (the ones the server's open tables stored for them,
        and ``names``) by :data:`~bot.store.FORGOTTEN` at every open table of the server
        that names them and where they no longer sit (a seated member is the caller's to
        refuse first, :func:`bot.store.privacy.refuse_if_seated`). Returns how many tables
        changed and the names found there (the hand histories hold them too)."""
        async with self.store.read() as tx:
            ids = [t.id for t in await tx.live_tables(guild_id=guild_id)]
        given = {n for n in names if n and n.strip() and n != FORGOTTEN}
        found: set[str] = set()
        changed = 0

        def wanted(live: LiveTable) -> set[str]:
            stored = live.names.get(user_id)
            known = set(given)
            if stored is not None and stored.strip() and stored != FORGOTTEN:
                known.add(stored)
            return known

        def names_them(live: LiveTable) -> bool:
            if live.seat_of(user_id) is not None:
                return False  # they sat down again meanwhile: their seat shows their name
            known = wanted(live)
            texts = [*live.recent, live.result or ""]
            if live.names.get(user_id, FORGOTTEN) != FORGOTTEN:
                return True
            return any(replace_names(t, known) != t for t in texts)

        async def rewrite(live: LiveTable, tx: Tx, step: Step) -> None:
            nonlocal changed
            known = wanted(live)
            found.update(known - given)
            if user_id in live.names:
                live.names[user_id] = FORGOTTEN
            live.recent = [replace_names(t, known) for t in live.recent]
            if live.result is not None:
                live.result = replace_names(live.result, known)
            changed += 1

        for table_id in ids:
            try:
                await self._run(table_id, rewrite, prepare=names_them)
            except TableClosed:
                continue  # closed meanwhile: the store rewrites closed tables
        return changed, found
