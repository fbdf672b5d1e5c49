"""Issue 18, item 9, "Computer players play poker", through the real TableService and
SQLite: ``python -m bot sim holdem|omaha|stud|horse|dealers-choice --players 6 --hands 150``
plays all 150 hands (a computer that busts rebuys the starting chips by the ledger, as a
player would, and the audit stays clean) and prints each computer's share of hands entered
(chips put in by choice on the first betting round) and gone all in.

The statistics of the policies themselves (15-45 % over 1,000 hands of every betting game)
are in tests/engine/test_computers_play_poker.py.
"""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.engine.events import Event
from bot.store import Store
from bot.tables.sim import SIM_GUILD, entered_seats, rebuy_busted, run_sim

SHARE_LINE = re.compile(
    r"^  computer +(\d+)  entered +([\d.]+)% \((\d+) of (\d+) hands\)"
    r"  all in +([\d.]+)% \((\d+)\)$",
    re.M,
)


def _recount(db: Path) -> dict[int, tuple[int, int, int]]:
    """(hands, entered, all in) by computer number, straight from the stored hand log."""
    out: dict[int, list[int]] = {}
    with sqlite3.connect(db) as raw:
        hands = raw.execute(
            "SELECT id FROM hands WHERE status = 'finished' AND game NOT IN ('zoot', 'wheelers')"
        ).fetchall()
        for (hand_id,) in hands:
            rows = raw.execute(
                "SELECT event FROM hand_events WHERE hand_id = ? ORDER BY seq", (hand_id,)
            )
            events = [Event.from_json(json.loads(r[0])) for r in rows]
            entered, all_in = entered_seats(events)
            for user_id, seat in raw.execute(
                "SELECT user_id, seat_no FROM hand_results WHERE hand_id = ?", (hand_id,)
            ):
                row = out.setdefault(-user_id, [0, 0, 0])
                row[0] += 1
                row[1] += seat in entered
                row[2] += seat in all_in
    return {k: (a, b, c) for k, (a, b, c) in out.items()}


@pytest.mark.parametrize("game", ["holdem", "omaha", "stud", "horse", "dealers-choice"])
def test_sim_six_computers_play_all_150_hands_and_print_each_ones_share_of_hands_entered(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], game: str
) -> None:
    db = tmp_path / "sim.db"
    args = ["sim", game, "--players", "6", "--hands", "150", "--seed", "18", "--db", str(db)]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert f"game {game}: 150 hand(s) played" in out
    assert "stopped early" not in out
    assert "audit: OK" in out
    assert re.search(r"^rebuys: \d+", out, re.M)
    with sqlite3.connect(db) as raw:
        assert raw.execute("SELECT COUNT(*) FROM hands WHERE status = 'finished'").fetchone() == (
            150,
        )
    printed = {
        int(k): (int(hands), int(entered), int(all_in))
        for k, _, entered, hands, _, all_in in SHARE_LINE.findall(out)
    }
    assert sorted(printed) == [1, 2, 3, 4, 5, 6]
    assert printed == _recount(db)  # the report is the hand log's count
    for number, (hands, entered, all_in) in printed.items():
        assert 0 < entered < hands, (number, out)
        assert all_in <= entered
        share = re.search(rf"^  computer +{number}  entered +([\d.]+)%", out, re.M)
        assert share is not None and float(share.group(1)) == round(100 * entered / hands, 1)


def test_sim_omaha_six_players_150_hands_plays_them_all_with_the_issue_arguments(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The issue's exact command (no seed, a temporary database): it stopped after one or
    two hands when five computers lost their stacks in the first pot-limit hand."""
    assert main(["sim", "omaha", "--players", "6", "--hands", "150"]) == 0
    out = capsys.readouterr().out
    assert "game omaha: 150 hand(s) played" in out and "stopped early" not in out
    assert "audit: OK" in out
    assert len(SHARE_LINE.findall(out)) == 6


async def test_a_busted_computer_rebuys_the_starting_chips_by_the_ledger(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "s.db")
    try:
        async with store.transaction() as tx:
            wallet = await tx.wallet(SIM_GUILD, -1)
            await tx.take(SIM_GUILD, -1, wallet.balance, actor_id=0, reason="busted")
            await tx.wallet(SIM_GUILD, -2)  # still has its chips
        assert await rebuy_busted(store, [-1, -2, -3]) == {-1: 1000}
        async with store.read() as tx:
            assert (await tx.wallet(SIM_GUILD, -1)).balance == 1000
            assert (await tx.wallet(SIM_GUILD, -2)).balance == 1000
            assert await tx.find_wallet(SIM_GUILD, -3) is None  # nobody who never sat
            rebuys = await tx.entries(guild_id=SIM_GUILD, kind="rebuy")
        assert [(e.amount, e.actor_id) for e in rebuys] == [(1000, -1)]
        assert await rebuy_busted(store, [-1, -2]) == {}  # nobody is busted now
        assert (await store.audit()).ok
    finally:
        await store.close()


async def test_sim_with_short_starting_chips_rebuys_every_bust_and_plays_every_hand(
    tmp_path: Path,
) -> None:
    """Three big blinds each: computers bust every few hands, rebuy, and the sim still
    plays all the hands asked for; chips won count the rebuys out, and the audit holds."""
    db = tmp_path / "s.db"
    store = await Store.open(db)
    async with store.transaction() as tx:
        await tx.update_league(SIM_GUILD, starting_chips=30)
    await store.close()
    report = await run_sim(game="holdem", players=4, hands=40, seed=3, db=db)
    assert report.hands == 40 and report.stopped is None
    assert sum(report.rebuys.values()) >= 3
    assert report.audit is not None and report.audit.ok
    assert sum(report.chips_won.values()) == 0  # the table closed: every chip is in a wallet
    assert f"rebuys: {sum(report.rebuys.values())} (" in report.format()
    with sqlite3.connect(db) as raw:
        (count,) = raw.execute("SELECT COUNT(*) FROM ledger WHERE kind = 'rebuy'").fetchone()
    assert count == sum(report.rebuys.values())


async def test_sim_on_a_database_whose_computer_busted_before_rebuys_it_first(
    tmp_path: Path,
) -> None:
    """A computer left with no chips by an earlier simulation of the same database could
    not sit down again ("ask for a rebuy first"): it rebuys before the table opens."""
    db = tmp_path / "s.db"
    first = await run_sim(game="razz", players=3, hands=2, seed=1, db=db)
    assert first.audit is not None and first.audit.ok
    store = await Store.open(db)
    async with store.transaction() as tx:
        balance = (await tx.wallet(SIM_GUILD, -2)).balance
        await tx.take(SIM_GUILD, -2, balance, actor_id=0, reason="busted")
    await store.close()
    report = await run_sim(game="razz", players=3, hands=5, seed=2, db=db)
    assert report.hands == 5 and report.stopped is None
    assert report.rebuys == {-2: 1}
    assert report.audit is not None and report.audit.ok
