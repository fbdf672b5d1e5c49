"""The audit (RULES §5.2) and ``python -m bot db``: tampering outside the API is found."""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
from pathlib import Path

import pytest

from bot.cli import db as db_cli
from bot.store import Store
from tests.store.conftest import ALICE, BOB, GUILD


def run_cli(*argv: str) -> int:
    parser = argparse.ArgumentParser()
    db_cli.register(parser.add_subparsers())
    args = parser.parse_args(["db", *argv])
    status: int = args.handler(args)
    return status


async def run_cli_async(*argv: str) -> int:
    """The CLI runs its own event loop (asyncio.run), so async tests call it from a thread."""
    return await asyncio.to_thread(run_cli, *argv)


async def play_some(store: Store) -> int:
    async with store.transaction() as tx:
        table = await tx.create_table(GUILD, 9, "razz")
        for user in (ALICE, BOB):
            await tx.move_chips(table.id, user, 30, "bet")
        await tx.move_chips(table.id, BOB, -40, "award")
        await tx.grant(GUILD + 1, ALICE, 5, actor_id=BOB, reason="other league")
        return (await tx.wallet(GUILD, ALICE)).id


async def test_rule_5_2_audit_adds_up_per_league(store: Store) -> None:
    await play_some(store)
    report = await store.audit()
    assert report.ok
    first, second = report.leagues
    assert (first.issued, first.players, first.pots, first.house) == (2000, 1980, 20, -2000)
    assert (second.issued, second.players) == (1005, 1005)
    assert "OK" in report.format()


async def test_audit_detects_a_tampered_cached_balance(store: Store, db_path: Path) -> None:
    wallet_id = await play_some(store)
    with sqlite3.connect(db_path) as raw:  # bypass the API, as a careless admin might
        raw.execute("UPDATE accounts SET balance = balance + 500 WHERE id = ?", (wallet_id,))
    report = await store.audit(GUILD)
    assert not report.ok
    kinds = {(d.what.split(" vs ")[0], d.expected, d.actual) for d in report.differences}
    assert (f"cached balance of player account {wallet_id}", 970, 1470) in kinds
    assert ("player wallets + table pots", 2000, 2500) in kinds
    assert (await store.audit(GUILD + 1)).ok  # the other league is untouched


async def test_cli_audit_exit_status_and_json(
    store: Store, db_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    wallet_id = await play_some(store)
    assert await run_cli_async("audit", "--db", str(db_path)) == 0
    assert "in circulation" in capsys.readouterr().out
    with sqlite3.connect(db_path) as raw:
        raw.execute("UPDATE accounts SET balance = 0 WHERE id = ?", (wallet_id,))
    assert await run_cli_async("audit", "--db", str(db_path), "--json") == 1
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] is False
    assert any(d["account_id"] == wallet_id for d in report["differences"])


def test_cli_audit_missing_file_exits_2_and_creates_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "nope.db"
    assert run_cli("audit", "--db", str(missing)) == 2
    assert "no database" in capsys.readouterr().err
    assert not missing.exists()


def test_cli_migrate_creates_then_reports_current(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "new.db"
    assert run_cli("migrate", "--db", str(path)) == 0
    assert "applied: 0001" in capsys.readouterr().out
    assert run_cli("migrate", "--db", str(path)) == 0
    assert "already current" in capsys.readouterr().out


async def test_backup_file_opens_and_passes_the_audit(
    store: Store, db_path: Path, tmp_path: Path
) -> None:
    await play_some(store)
    out = tmp_path / "backup.db"
    assert await run_cli_async("backup", "--db", str(db_path), "--out", str(out)) == 0
    assert (
        await run_cli_async("backup", "--db", str(db_path), "--out", str(out)) == 2
    )  # never overwrites
    assert await run_cli_async("audit", "--db", str(out)) == 0
    copy = await Store.open(out)
    async with copy.read() as tx:
        wallet = await tx.find_wallet(GUILD, BOB)
    await copy.close()
    assert wallet is not None and wallet.balance == 1010


async def test_store_backup_while_open(store: Store, tmp_path: Path) -> None:
    await play_some(store)
    out = tmp_path / "live.db"
    await store.backup(out)
    copy = await Store.open(out, migrate=False)
    report = await copy.audit()
    await copy.close()
    assert report.ok and report.leagues == (await store.audit()).leagues


@pytest.mark.parametrize("argv", [["backup", "--db", "missing.db", "--out", "x.db"]])
def test_cli_backup_missing_source_exits_2(tmp_path: Path, argv: list[str]) -> None:
    argv = [a if not a.endswith(".db") else str(tmp_path / a) for a in argv]
    assert run_cli(*argv) == 2
    assert not (tmp_path / "x.db").exists()
