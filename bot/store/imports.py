"""Ledgers imported from another site (``/night import file:``): a PokerNow ledger as
parsed, the members its players are (matched by what earlier imports learned, by name, or
chosen in the select menu), booked into the night's book once every player has a member."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bot.league.pokernow import ImportedPlayer
from bot.store._base import dump_json, load_json
from bot.store.bank import BankEntry, BankOps, NightError
from bot.store.errors import NotFound
from bot.store.night_models import Night

IMPORT_SOURCE = "pokernow"


@dataclass(frozen=True, slots=True)
class NightImport:
    id: int
    night_id: int
    filename: str
    units: str
    players: tuple[ImportedPlayer, ...]
    matches: tuple[int | None, ...]
    """The member each player is booked to (None: still to choose in the select menu)."""
    status: str
    actor_id: int

    @property
    def unmatched(self) -> list[int]:
        return [i for i, m in enumerate(self.matches) if m is None]


class ImportOps(BankOps):
    # ------------------------------------------------------------------ imports

    async def known_names(self, guild_id: int) -> dict[str, int]:
        """Another site's player ids (and lower-cased names, prefixed ``name:``) learned from
        earlier imports, to the members they are."""
        rows = await self._all(
            "SELECT player_key, user_id FROM import_names WHERE guild_id = ? AND source = ?",
            (guild_id, IMPORT_SOURCE),
        )
        return {r["player_key"]: r["user_id"] for r in rows}

    async def create_import(
        self,
        night: Night,
        *,
        filename: str,
        sha256: str,
        units: str,
        players: Sequence[ImportedPlayer],
        matches: Sequence[int | None],
        actor_id: int,
    ) -> NightImport:
        found = await self._one(
            "SELECT id, status FROM night_imports WHERE night_id = ? AND sha256 = ?",
            (night.id, sha256),
        )
        if found is not None:
            state = "booked" if found["status"] == "booked" else "waiting for its names"
            raise NightError(
                f"This file was already imported into night #{night.number} ({state}). "
                "Nothing changed."
            )
        import_id = await self._insert(
            "INSERT INTO night_imports (night_id, filename, sha256, units, players, actor_id,"
            " created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                night.id,
                filename[:200],
                sha256,
                units,
                dump_json(
                    [p.to_json() | {"user_id": m} for p, m in zip(players, matches, strict=True)]
                ),
                actor_id,
                self.now(),
            ),
        )
        return await self.night_import(import_id)

    async def night_import(self, import_id: int) -> NightImport:
        row = await self._one("SELECT * FROM night_imports WHERE id = ?", (import_id,))
        if row is None:
            raise NotFound(f"no import {import_id}")
        raw = load_json(row["players"])
        return NightImport(
            id=row["id"],
            night_id=row["night_id"],
            filename=row["filename"],
            units=row["units"],
            players=tuple(ImportedPlayer.from_json(p) for p in raw),
            matches=tuple(p.get("user_id") for p in raw),
            status=row["status"],
            actor_id=row["actor_id"],
        )

    async def match_import(self, import_id: int, index: int, user_id: int) -> NightImport:
        """Name the member player ``index`` of a pending import is."""
        found = await self.night_import(import_id)
        if found.status != "pending":
            raise NightError("This import is already booked. Nothing changed.")
        if not 0 <= index < len(found.players):
            raise NightError("That player is not in this import. Nothing changed.")
        taken = [m for i, m in enumerate(found.matches) if i != index and m == user_id]
        if taken:
            other = found.players[found.matches.index(user_id)].name
            raise NightError(
                f"<@{user_id}> is already `{other}` in this file: one member per player. "
                "Nothing changed."
            )
        raw = [
            p.to_json() | {"user_id": m} for p, m in zip(found.players, found.matches, strict=True)
        ]
        raw[index]["user_id"] = user_id
        await self._exec(
            "UPDATE night_imports SET players = ? WHERE id = ?", (dump_json(raw), import_id)
        )
        return await self.night_import(import_id)

    async def book_import(self, import_id: int, *, actor_id: int) -> list[BankEntry]:
        """Book a complete import: per player one buy-in and one cash-out (their net is the
        file's), and remember who each player is for the next import."""
        found = await self.night_import(import_id)
        night = await self._night(found.night_id)
        if found.status != "pending":
            raise NightError("This import is already booked. Nothing changed.")
        if not night.open:
            raise NightError(f"Night #{night.number} has ended. Nothing changed.")
        if found.unmatched:
            raise NightError("Some players are still to be matched. Nothing changed.")
        booked: list[BankEntry] = []
        reason = f"imported from {found.filename} (import #{found.id})"
        for player, member in zip(found.players, found.matches, strict=True):
            assert member is not None
            for kind, chips in (("buyin", player.buy_in), ("cashout", player.cash_out)):
                if chips > 0:
                    entry_id = await self._insert(
                        "INSERT INTO night_entries (night_id, user_id, kind, chips, import_id,"
                        " actor_id, reason, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                        (night.id, member, kind, chips, found.id, actor_id, reason, self.now()),
                    )
                    booked.append(await self.bank_entry(entry_id))
            for key in (player.key, "name:" + player.name.casefold()):
                await self._exec(
                    "INSERT INTO import_names (guild_id, source, player_key, user_id, updated_at)"
                    " VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_id, source, player_key)"
                    " DO UPDATE SET user_id = excluded.user_id, updated_at = excluded.updated_at",
                    (night.guild_id, IMPORT_SOURCE, key, member, self.now()),
                )
        await self._exec(
            "UPDATE night_imports SET status = 'booked', booked_at = ? WHERE id = ?",
            (self.now(), import_id),
        )
        return booked


def match_players(
    players: Sequence[ImportedPlayer], known: Mapping[str, int], names: Mapping[int, str]
) -> list[int | None]:
    """Each player's member: by the site's id learned before, else by a name learned
    before, else by a member's name (case and spaces ignored) when exactly one matches; a
    member is matched once at most."""

    def fold(text: str) -> str:
        return "".join(text.casefold().split())

    by_name: dict[str, list[int]] = {}
    for uid, name in names.items():
        by_name.setdefault(fold(name), []).append(uid)
    out: list[int | None] = []
    used: set[int] = set()
    for p in players:
        found = known.get(p.key) or known.get("name:" + p.name.casefold())
        if found is None:
            hits = [u for u in by_name.get(fold(p.name), []) if u not in used]
            found = hits[0] if len(hits) == 1 else None
        if found is not None and found in used:
            found = None
        if found is not None:
            used.add(found)
        out.append(found)
    return out
