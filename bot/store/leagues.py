"""Leagues (one per Discord guild) and their seasons."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Mapping
from typing import Any

from bot.engine.errors import InvalidConfig
from bot.league.settle import parse_chip_value
from bot.league.when import check_timezone
from bot.store._base import UNSET, TxBase, dump_json, load_json
from bot.store.errors import NotFound
from bot.store.models import SETTINGS_GAMES, League, Season, Standing

_LEAGUE_INTS = ("starting_chips", "rebuy_amount", "rebuy_cooldown_seconds")


def league_from_row(row: sqlite3.Row) -> League:
    return League(
        guild_id=row["guild_id"],
        starting_chips=row["starting_chips"],
        rebuy_amount=row["rebuy_amount"],
        rebuy_cooldown_seconds=row["rebuy_cooldown_seconds"],
        game_settings=load_json(row["game_settings"]),
        admin_role_id=row["admin_role_id"],
        allowed_channel_ids=tuple(load_json(row["allowed_channel_ids"])),
        images=bool(row["images"]),
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        chip_value=row["chip_value"],
        currency=row["currency"],
        timezone=row["timezone"],
    )


def season_from_row(row: sqlite3.Row) -> Season:
    raw = load_json(row["standings"])
    standings = (
        None
        if raw is None
        else tuple(
            Standing(rank=s["rank"], user_id=s["user_id"], balance=s["balance"]) for s in raw
        )
    )
    return Season(
        id=row["id"],
        guild_id=row["guild_id"],
        number=row["number"],
        started_at=row["started_at"],
        ended_at=row["ended_at"],
        standings=standings,
    )


def _non_negative_int(field: str, value: Any) -> int:
    if type(value) is not int or value < 0:
        raise InvalidConfig(field, f"must be a whole number of at least 0, not {value!r}")
    return value


def _game_settings(value: object) -> dict[str, Any]:
    if not isinstance(value, Mapping):
        raise InvalidConfig("game_settings", "must map a game name to its settings")
    unknown = sorted(set(value) - SETTINGS_GAMES)
    if unknown:
        raise InvalidConfig("game_settings", f"unknown game {unknown[0]!r}")
    return {str(k): v for k, v in value.items()}


class LeagueOps(TxBase):
    async def find_league(self, guild_id: int) -> League | None:
        row = await self._one("SELECT * FROM leagues WHERE guild_id = ?", (guild_id,))
        return None if row is None else league_from_row(row)

    async def league(self, guild_id: int) -> League:
        """The guild's league, created with the defaults (and its house account and season 1)
        the first time it is asked for: a league exists from its first table (DESIGN.md).
        The defaults are the store's :attr:`league_defaults` (the config file's
        ``[league]`` section when the bot runs)."""
        found = await self.find_league(guild_id)
        if found is not None:
            return found
        now = self.now()
        new = self.league_defaults
        await self._insert(
            "INSERT INTO leagues (guild_id, starting_chips, rebuy_amount,"
            " rebuy_cooldown_seconds, game_settings, created_at, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                guild_id,
                _non_negative_int("starting_chips", new.starting_chips),
                _non_negative_int("rebuy_amount", new.rebuy_amount),
                _non_negative_int("rebuy_cooldown_seconds", new.rebuy_cooldown_seconds),
                dump_json(_game_settings(new.game_settings)),
                now,
                now,
            ),
        )
        await self._insert(
            "INSERT INTO seasons (guild_id, number, started_at) VALUES (?, 1, ?)", (guild_id, now)
        )
        await self._insert(
            "INSERT INTO accounts (guild_id, kind, created_at) VALUES (?, 'house', ?)",
            (guild_id, now),
        )
        league = await self.find_league(guild_id)
        assert league is not None
        return league

    async def update_league(
        self,
        guild_id: int,
        *,
        starting_chips: int = UNSET,
        rebuy_amount: int = UNSET,
        rebuy_cooldown_seconds: int = UNSET,
        game_settings: Mapping[str, Any] = UNSET,
        admin_role_id: int | None = UNSET,
        allowed_channel_ids: Iterable[int] = UNSET,
        images: bool = UNSET,
        chip_value: tuple[str, str] | None = UNSET,
        timezone: str | None = UNSET,
    ) -> League:
        """Change the given settings (others unchanged). Bad values raise
        :class:`InvalidConfig` naming the field, and nothing changes. ``chip_value`` is
        ``(value, currency)`` as typed (``("0.01", "EUR")``), or None to settle in chips."""
        await self.league(guild_id)
        changes: dict[str, Any] = {}
        for name, value in (
            ("starting_chips", starting_chips),
            ("rebuy_amount", rebuy_amount),
            ("rebuy_cooldown_seconds", rebuy_cooldown_seconds),
        ):
            if value is not UNSET:
                changes[name] = _non_negative_int(name, value)
        if game_settings is not UNSET:
            changes["game_settings"] = dump_json(_game_settings(game_settings))
        if admin_role_id is not UNSET:
            if admin_role_id is not None and type(admin_role_id) is not int:
                raise InvalidConfig("admin_role_id", f"not a role id: {admin_role_id!r}")
            changes["admin_role_id"] = admin_role_id
        if allowed_channel_ids is not UNSET:
            ids = list(allowed_channel_ids)
            if any(type(i) is not int for i in ids):
                raise InvalidConfig("allowed_channel_ids", "channel ids must be integers")
            changes["allowed_channel_ids"] = dump_json(sorted(set(ids)))
        if images is not UNSET:
            if not isinstance(images, bool):
                raise InvalidConfig("images", f"must be true or false, not {images!r}")
            changes["images"] = int(images)
        if chip_value is not UNSET:
            if chip_value is None:
                changes["chip_value"] = changes["currency"] = None
            else:
                parsed = parse_chip_value(*chip_value)
                changes["chip_value"] = f"{parsed.per_chip:f}"
                changes["currency"] = parsed.currency
        if timezone is not UNSET:
            changes["timezone"] = None if timezone is None else check_timezone(timezone)
        if changes:
            sets = ", ".join(f"{name} = :{name}" for name in changes)
            changes.update(guild_id=guild_id, now=self.now())
            await self._exec(
                f"UPDATE leagues SET {sets}, updated_at = :now WHERE guild_id = :guild_id",
                changes,
            )
        league = await self.find_league(guild_id)
        assert league is not None
        return league

    async def current_season(self, guild_id: int) -> Season:
        """The league's open season (creating the league, and so season 1, if needed)."""
        await self.league(guild_id)
        row = await self._one(
            "SELECT * FROM seasons WHERE guild_id = ? AND ended_at IS NULL", (guild_id,)
        )
        assert row is not None, "a league always has one open season"
        return season_from_row(row)

    async def season(self, guild_id: int, number: int) -> Season:
        row = await self._one(
            "SELECT * FROM seasons WHERE guild_id = ? AND number = ?", (guild_id, number)
        )
        if row is None:
            raise NotFound(f"league {guild_id} has no season {number}")
        return season_from_row(row)

    async def seasons(self, guild_id: int) -> list[Season]:
        rows = await self._all(
            "SELECT * FROM seasons WHERE guild_id = ? ORDER BY number", (guild_id,)
        )
        return [season_from_row(r) for r in rows]
