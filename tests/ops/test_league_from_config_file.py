"""Issue 19, item 1 (and 3), as an owner meets it: ``python -m bot run --config config.toml``
in its own process, every setting from that one file (no ``HOMEGAME_*`` variable), against
the fake Discord. The server's league did not exist: its first tables, one per game, open
with the file's stakes and decision times; the first seat brings the file's starting chips,
which ``/balance`` promised; the first Zoot game antes the file's ante; ``/league show``
lists them. The start-up log line names the new database file, its schema and what it
holds (issue 19, item 3)."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import sys
import time
from pathlib import Path
from typing import Any

from bot.ops.health import heartbeat_path
from bot.store import migrations
from bot.testing import ADMINISTRATOR, FakeDiscord

REPO = Path(__file__).resolve().parents[2]

LEAGUE = {
    "starting_chips": 5000,
    "decision_seconds": 30,
    "zoot_ante": 7,
    "wheelers_ante": 9,
    "wheelers_decision_seconds": 60,
    "razz_ante": 3,
    "razz_bring_in": 4,
    "razz_small_bet": 12,
    "razz_big_bet": 24,
    "stud_ante": 1,
    "stud_bring_in": 3,
    "stud_small_bet": 14,
    "stud_big_bet": 28,
    "stud_hi_lo_ante": 4,
    "stud_hi_lo_bring_in": 2,
    "stud_hi_lo_small_bet": 16,
    "stud_hi_lo_big_bet": 32,
    "holdem_small_blind": 2,
    "holdem_big_blind": 20,
    "holdem_ante": 1,
    "omaha_small_blind": 1,
    "omaha_big_blind": 50,
    "omaha_decision_seconds": 90,
    "horse_small_bet": 40,
    "horse_ante": 3,
    "dealers_choice_small_bet": 60,
    "dealers_choice_choice_seconds": 45,
}

# command, options, the table's stored rules expected (mixed: its config), decision seconds
TABLES: list[tuple[str, dict[str, Any], dict[str, int], int]] = [
    ("zoot", {}, {"ante": 7}, 30),
    ("wheelers", {}, {"ante": 9}, 60),
    ("razz", {}, {"ante": 3, "bring_in": 4, "small_bet": 12, "big_bet": 24}, 30),
    ("stud", {}, {"ante": 1, "bring_in": 3, "small_bet": 14, "big_bet": 28}, 30),
    ("stud", {"split": "hi-lo"}, {"ante": 4, "bring_in": 2, "small_bet": 16, "big_bet": 32}, 30),
    ("holdem", {}, {"small_blind": 2, "big_blind": 20, "ante": 1}, 30),
    ("omaha", {}, {"small_blind": 1, "big_blind": 50, "ante": 0}, 90),
    ("horse", {}, {"small_bet": 40, "ante": 3}, 30),
    ("dealers-choice", {}, {"small_bet": 60, "choice_seconds": 45}, 30),
]


def config_text(fake: FakeDiscord, tmp_path: Path) -> str:
    league = "\n".join(f"{k} = {v}" for k, v in LEAGUE.items())
    return (
        f'[discord]\ntoken = "{fake.token}"\napi_base = "{fake.api_base}"\n'
        f'[database]\npath = "{tmp_path / "homegame.db"}"\n'
        f'[backup]\ndir = "{tmp_path / "backups"}"\n'
        "[ui]\nimages = false\n"
        f"[league]\n{league}\n"
    )


def stored(db: Path, sql: str, params: tuple[Any, ...] = ()) -> list[sqlite3.Row]:
    conn = sqlite3.connect(f"{db.resolve().as_uri()}?mode=ro", uri=True, timeout=10)
    conn.row_factory = sqlite3.Row
    try:
        return list(conn.execute(sql, params).fetchall())
    finally:
        conn.close()


async def test_issue19_item1_a_league_configured_only_by_config_toml_plays_its_values(
    tmp_path: Path,
) -> None:
    import json

    async with FakeDiscord() as fake:
        guild = fake.add_guild("Home")
        channels = [fake.add_channel(guild, f"table-{i}") for i in range(len(TABLES))]
        hosts = [fake.add_user(f"host{i}") for i in range(len(TABLES))]
        owner = fake.add_user("owner")
        fake.add_member(guild, owner, permissions=ADMINISTRATOR)
        for user in hosts:
            fake.add_member(guild, user)
        config = tmp_path / "config.toml"
        config.write_text(config_text(fake, tmp_path), encoding="utf-8")
        env = {k: v for k, v in os.environ.items() if not k.upper().startswith("HOMEGAME_")}
        env.pop("DISCORD_TOKEN", None)
        env["PYTHONPATH"] = str(REPO)
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            "run",
            "--config",
            str(config),
            cwd=tmp_path,
            env=env,
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE,
        )
        lines: list[str] = []

        async def drain() -> None:
            assert proc.stderr is not None
            while raw := await proc.stderr.readline():
                lines.append(raw.decode().rstrip("\n"))

        reader = asyncio.create_task(drain())
        db = tmp_path / "homegame.db"
        try:
            beat = heartbeat_path(db)
            deadline = time.monotonic() + 60
            while not beat.exists() and proc.returncode is None and time.monotonic() < deadline:
                await asyncio.sleep(0.2)
            assert beat.exists(), "\n".join(lines)

            # before any table: /balance promises the file's starting chips
            promise = await (await fake.invoke(hosts[0], channels[0], "balance")).response(20)
            assert "5,000" in promise.content, promise.content

            for (command, options, _, _), channel, host in zip(
                TABLES, channels, hosts, strict=True
            ):
                reply = await (await fake.invoke(host, channel, command, options)).response(20)
                assert not reply.ephemeral and reply.message is not None, reply.content
            rows = stored(db, "SELECT id, game, channel_id, rules FROM tables ORDER BY id")
            assert len(rows) == len(TABLES)
            for row, (command, _, expected, seconds) in zip(rows, TABLES, strict=True):
                rules = json.loads(row["rules"])
                values = rules["config"] if command in ("horse", "dealers-choice") else rules
                assert {k: values[k] for k in expected} == expected, command
                inner = rules.get("rules", [rules])
                assert {r["decision_seconds"] for r in inner} == {seconds}, command
            # the table message says them too
            zoot = fake.last_message(channels[0])
            shown = str(zoot.embeds[0]["fields"])
            assert "7 chips" in shown and "30 seconds" in shown

            # the first seat brought 5,000; the first Zoot game antes 7 from each player
            joined = await (await fake.click_label(owner, zoot, "Join")).response(20)
            assert joined.updated_message
            await (await fake.click_label(hosts[0], zoot, "Start")).response(20)
            deadline = time.monotonic() + 30
            antes: list[sqlite3.Row] = []
            while len(antes) < 2 and time.monotonic() < deadline:
                antes = stored(db, "SELECT amount FROM ledger WHERE kind = 'ante'")
                await asyncio.sleep(0.1)
            assert [r["amount"] for r in antes] == [7, 7]
            starts = stored(db, "SELECT amount FROM ledger WHERE kind = 'start'")
            assert {r["amount"] for r in starts} == {5000} and len(starts) == len(TABLES) + 1
            balance = await (await fake.invoke(hosts[0], channels[0], "balance")).response(20)
            assert "4,993" in balance.content, balance.content

            shown_league = await (
                await fake.invoke(owner, channels[0], "league", subcommand="show")
            ).response(20)
            text = shown_league.content
            assert "Starting chips: **5,000**" in text
            assert "Hold'em stakes: ante 1, big_blind 20, small_blind 2 · 30 s to act" in text
        finally:
            if proc.returncode is None:
                proc.terminate()
            await asyncio.wait_for(proc.wait(), 30)
            await asyncio.wait_for(reader, 10)
        schema = migrations()[-1].version
        startup = [line for line in lines if f"database {db}" in line]
        assert len(startup) == 1, lines
        assert startup[0].endswith(
            f"database {db}, schema {schema}, 0 members, 0 hands (a new, empty file: check"
            " database.path if you expected a league)"
        )
        assert proc.returncode == 0, "\n".join(lines)
        assert "Traceback" not in "\n".join(lines)
