"""The gateway (websocket) side of the fake Discord: sessions with their sequence and replay
buffer for RESUME, HELLO/IDENTIFY/RESUME/heartbeats, dispatching events to the shards and
intents that should get them, and dropping connections on purpose."""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
from collections import deque
from collections.abc import Callable

from aiohttp import WSMsgType, web

from bot.testing.fake_model import JSON, FakeGuild, FakeUser

# Gateway intents the fake honours when deciding which events to send.
INTENT_GUILDS = 1 << 0
INTENT_GUILD_MEMBERS = 1 << 1
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_DIRECT_MESSAGES = 1 << 12


class Session:
    """A gateway session: its sequence, the events sent (for RESUME replay), its socket."""

    def __init__(self, session_id: str, shard: tuple[int, int], intents: int) -> None:
        self.id = session_id
        self.shard = shard
        self.intents = intents
        self.seq = 0
        self.sent: deque[tuple[int, str]] = deque(maxlen=2000)
        self.conn: Connection | None = None

    def owns_guild(self, guild_id: int) -> bool:
        shard_id, count = self.shard
        return (guild_id >> 22) % count == shard_id

    def push(self, event: str, data: JSON, on_sent: Callable[[], None] | None = None) -> None:
        """Queue ``event`` for the connection's writer; ``on_sent`` runs just before the
        frame goes out on the socket (not when queued)."""
        self.seq += 1
        frame = json.dumps({"op": 0, "t": event, "s": self.seq, "d": data})
        self.sent.append((self.seq, frame))
        if self.conn is not None:
            self.conn.queue.put_nowait(frame if on_sent is None else (frame, on_sent))


class Connection:
    def __init__(self, ws: web.WebSocketResponse, request: web.Request) -> None:
        self.ws = ws
        self.request = request
        self.queue: asyncio.Queue[str | tuple[str, Callable[[], None]] | None] = asyncio.Queue()
        self.session: Session | None = None
        self.writer: asyncio.Task[None] | None = None

    async def write_loop(self) -> None:
        while True:
            item = await self.queue.get()
            if item is None or self.ws.closed:
                return
            if isinstance(item, tuple):
                frame, on_sent = item
                on_sent()
            else:
                frame = item
            try:
                await self.ws.send_str(frame)
            except (ConnectionError, RuntimeError):
                return


class GatewayServer:
    """The gateway half of :class:`~bot.testing.fake_discord.FakeDiscord`: its sessions,
    sockets and event dispatch. The world it reports (guilds, the bot user) is kept by the
    subclass :class:`~bot.testing.fake_world.FakeWorld`."""

    # set by FakeWorld.__init__; READY, GUILD_CREATE and member chunks describe them
    guilds: dict[int, FakeGuild]
    bot_user: FakeUser
    application_id: int

    def __init__(self, *, token: str, heartbeat_interval: float) -> None:
        self.token = token
        self.heartbeat_interval = heartbeat_interval
        self.gateway_log: list[JSON] = []
        self.identifies = 0
        self.resumes = 0
        self._sessions: dict[str, Session] = {}
        self._connections: set[Connection] = set()
        self._gateway_changed = asyncio.Condition()
        self.gateway_url = ""

    async def drop_gateway(self, *, code: int | None = None) -> None:
        """Cut every gateway socket. With ``code=None`` the TCP connection is aborted (a
        network drop: no close frame); otherwise the socket is closed with ``code``.
        Sessions survive, so discord.py can RESUME and get the missed events replayed."""
        for conn in list(self._connections):
            if conn.session is not None:
                conn.session.conn = None
                conn.session = None
            conn.queue.put_nowait(None)
            if code is None:
                transport = conn.request.transport
                if transport is not None:
                    transport.abort()
            else:
                await conn.ws.close(code=code)
        async with self._gateway_changed:
            self._gateway_changed.notify_all()

    def invalidate_sessions(self) -> None:
        """Forget every session: the next RESUME is answered with INVALID_SESSION."""
        self._sessions.clear()

    async def wait_gateway_ready(self, timeout: float = 60.0) -> None:
        """Wait until every shard has a live, identified or resumed gateway connection."""

        def ready() -> bool:
            live = [s for s in self._sessions.values() if s.conn is not None]
            if not live:
                return False
            count = live[0].shard[1]
            return {s.shard[0] for s in live} >= set(range(count))

        async with self._gateway_changed:
            await asyncio.wait_for(self._gateway_changed.wait_for(ready), timeout)

    # ------------------------------------------------------------------ gateway

    def _dispatch(
        self,
        event: str,
        data: JSON,
        *,
        guild_id: int | None,
        intent: int,
        on_sent: Callable[[], None] | None = None,
    ) -> None:
        for session in list(self._sessions.values()):
            if guild_id is not None and not session.owns_guild(guild_id):
                continue
            if guild_id is None and session.shard[0] != 0:
                continue  # DMs go to shard 0
            if intent and not session.intents & intent:
                continue
            session.push(event, data, on_sent)

    def _dispatch_guild(
        self, guild: FakeGuild, event: str, data: JSON | None, intent: int = INTENT_GUILDS
    ) -> None:
        self._dispatch(
            event, data if data is not None else guild.payload(), guild_id=guild.id, intent=intent
        )

    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        conn = Connection(ws, request)
        self._connections.add(conn)
        conn.writer = asyncio.create_task(conn.write_loop())
        conn.queue.put_nowait(
            json.dumps({"op": 10, "d": {"heartbeat_interval": int(self.heartbeat_interval * 1000)}})
        )
        try:
            async for msg in ws:
                if msg.type is not WSMsgType.TEXT:
                    break
                payload = json.loads(msg.data)
                self.gateway_log.append(payload)
                await self._on_gateway_op(conn, payload)
        finally:
            if conn.session is not None and conn.session.conn is conn:
                conn.session.conn = None
            conn.queue.put_nowait(None)
            self._connections.discard(conn)
            if conn.writer is not None:
                with contextlib.suppress(asyncio.CancelledError):
                    await conn.writer
            async with self._gateway_changed:
                self._gateway_changed.notify_all()
        return ws

    async def _on_gateway_op(self, conn: Connection, payload: JSON) -> None:
        op = payload.get("op")
        data: JSON = payload.get("d") or {}
        if op == 1:  # HEARTBEAT
            conn.queue.put_nowait(json.dumps({"op": 11}))
        elif op == 2:  # IDENTIFY
            await self._identify(conn, data)
        elif op == 6:  # RESUME
            await self._resume(conn, data)
        elif op == 8:  # REQUEST_GUILD_MEMBERS
            self._members_chunk(conn, data)
        # op 3 (presence) and 4 (voice) need no answer here.

    async def _identify(self, conn: Connection, data: JSON) -> None:
        if data.get("token") != self.token:
            await conn.ws.close(code=4004, message=b"Authentication failed.")
            return
        shard_id, shard_count = data.get("shard", [0, 1])
        for old in [s for s in self._sessions.values() if s.shard[0] == shard_id]:
            del self._sessions[old.id]
        session = Session(secrets.token_hex(16), (shard_id, shard_count), data.get("intents", 0))
        self._sessions[session.id] = session
        session.conn = conn
        conn.session = session
        self.identifies += 1
        guilds = [g for g in self.guilds.values() if session.owns_guild(g.id)]
        user = self.bot_user.payload() | {"verified": True, "mfa_enabled": False, "flags": 0}
        session.push(
            "READY",
            {
                "v": 10,
                "user": user,
                "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
                "session_id": session.id,
                "resume_gateway_url": self.gateway_url,
                "shard": [shard_id, shard_count],
                "application": {"id": str(self.application_id), "flags": 0},
                "private_channels": [],
                "relationships": [],
                "presences": [],
                "geo_ordered_rtc_regions": [],
                "guild_join_requests": [],
                "user_settings": {},
            },
        )
        for guild in guilds:
            session.push("GUILD_CREATE", guild.payload())
        async with self._gateway_changed:
            self._gateway_changed.notify_all()

    async def _resume(self, conn: Connection, data: JSON) -> None:
        session = self._sessions.get(data.get("session_id", ""))
        if session is None or data.get("token") != self.token:
            conn.queue.put_nowait(json.dumps({"op": 9, "d": False}))
            return
        self.resumes += 1
        seq = data.get("seq") or 0
        if session.conn is not None and session.conn is not conn:
            session.conn.queue.put_nowait(None)
        session.conn = conn
        conn.session = session
        for frame_seq, frame in session.sent:
            if frame_seq > seq:
                conn.queue.put_nowait(frame)
        session.push("RESUMED", {})
        async with self._gateway_changed:
            self._gateway_changed.notify_all()

    def _members_chunk(self, conn: Connection, data: JSON) -> None:
        if conn.session is None:
            return
        guild = self.guilds.get(int(data.get("guild_id", 0)))
        if guild is None:
            return
        chunk: JSON = {
            "guild_id": str(guild.id),
            "members": [m.payload() for m in guild.members.values()],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
        }
        if data.get("nonce") is not None:
            chunk["nonce"] = data["nonce"]
        conn.session.push("GUILD_MEMBERS_CHUNK", chunk)
