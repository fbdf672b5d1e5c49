"""A member's own settings (migration 0011): how the bot tells them it is their turn, and
where their last turn ping is, so the next one replaces it (at most one stays, also after a
restart). A member without a row has the defaults."""

from __future__ import annotations

from dataclasses import dataclass

from bot.store._base import TxBase
from bot.store.errors import StoreError

TURN_PINGS = ("off", "dm", "mention")
"""``/settings turn_ping:``: none; a short new DM (the default); a mention in the table's
channel."""
DEFAULT_TURN_PING = "dm"


@dataclass(frozen=True, slots=True)
class MemberSettings:
    guild_id: int
    user_id: int
    turn_ping: str = DEFAULT_TURN_PING
    ping_channel_id: int | None = None
    """Where the member's last turn ping is (a DM channel or a table's channel)."""
    ping_message_id: int | None = None


class MemberOps(TxBase):
    async def member_settings(self, guild_id: int, user_id: int) -> MemberSettings:
        row = await self._one(
            "SELECT * FROM member_settings WHERE guild_id = ? AND user_id = ?",
            (guild_id, user_id),
        )
        if row is None:
            return MemberSettings(guild_id, user_id)
        return MemberSettings(
            guild_id=row["guild_id"],
            user_id=row["user_id"],
            turn_ping=row["turn_ping"],
            ping_channel_id=row["ping_channel_id"],
            ping_message_id=row["ping_message_id"],
        )

    async def set_turn_ping(self, guild_id: int, user_id: int, turn_ping: str) -> MemberSettings:
        if turn_ping not in TURN_PINGS:
            raise StoreError(f"turn_ping must be one of {', '.join(TURN_PINGS)}, got {turn_ping!r}")
        await self._exec(
            "INSERT INTO member_settings (guild_id, user_id, turn_ping, updated_at)"
            " VALUES (?, ?, ?, ?) ON CONFLICT (guild_id, user_id) DO UPDATE SET"
            " turn_ping = excluded.turn_ping, updated_at = excluded.updated_at",
            (guild_id, user_id, turn_ping, self.now()),
        )
        return await self.member_settings(guild_id, user_id)

    async def set_last_ping(
        self, guild_id: int, user_id: int, channel_id: int | None, message_id: int | None
    ) -> None:
        """Remember the member's newest turn ping (None: none stays)."""
        if (channel_id is None) != (message_id is None):
            raise StoreError("a ping's channel and message go together")
        await self._exec(
            "INSERT INTO member_settings (guild_id, user_id, ping_channel_id, ping_message_id,"
            " updated_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_id, user_id) DO UPDATE SET"
            " ping_channel_id = excluded.ping_channel_id,"
            " ping_message_id = excluded.ping_message_id, updated_at = excluded.updated_at",
            (guild_id, user_id, channel_id, message_id, self.now()),
        )
