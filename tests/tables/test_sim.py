"""The sim command: histories that replay, summary, and its argument contract."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pokerkit
import pytest

from bot.__main__ import main
from bot.engine.guts.history import parse_history
from bot.engine.stud.games import StudHighHand, StudHiLoHand
from bot.engine.stud.replay import replay_phh_text
from bot.store import Store
from bot.tables.sim import run_sim
from tests.engine.readings import outcome, pokerkit_class

STUD = {"F7S": StudHighHand, "F7S/8": StudHiLoHand}


async def test_razz_sim_histories_replay_in_pokerkit_to_recorded_stacks(tmp_path: Path) -> None:
    out = tmp_path / "hist"
    report = await run_sim(
        game="razz", players=5, hands=25, seed=42, db=tmp_path / "s.db", history_dir=out
    )
    assert report.audit is not None and report.audit.ok
    files = sorted(out.glob("*.phh"))
    assert len(files) == report.hands == 25
    for path in files:
        with path.open("rb") as fp:
            hh = pokerkit.HandHistory.load(fp)
        states = list(hh)  # every state of the replay, the last one finished
        state = states[-1]
        assert list(state.stacks) == list(hh.finishing_stacks), path.name


@pytest.mark.parametrize("game", ["zoot", "wheelers"])
async def test_guts_sim_histories_replay_through_the_engine(tmp_path: Path, game: str) -> None:
    out = tmp_path / "hist"
    report = await run_sim(
        game=game, players=4, hands=15, seed=9, db=tmp_path / "s.db", history_dir=out
    )
    assert report.audit is not None and report.audit.ok
    files = sorted(out.glob("*.toml"))
    assert len(files) == report.hands == 15
    for path in files:
        parse_history(path.read_text())  # raises if the replay ends with other stacks
    assert sum(report.chips_won.values()) == 0  # the table closed: its pot went back


def test_sim_cli_adds_tables_to_an_existing_db_and_resume_needs_one(tmp_path: Path, capsys) -> None:
    db = tmp_path / "sim.db"
    assert (
        main(["sim", "zoot", "--players", "3", "--hands", "3", "--seed", "1", "--db", str(db)]) == 0
    )
    assert (
        main(["sim", "razz", "--players", "2", "--hands", "2", "--seed", "2", "--db", str(db)]) == 0
    )
    out = capsys.readouterr().out
    assert "audit: OK" in out and "hands/s" in out

    async def count() -> int:
        async with await Store.open(db) as store, store.read() as tx:
            return len(await tx.hands(1)) + len(await tx.hands(2))

    import asyncio

    assert asyncio.run(count()) == 5
    assert main(["sim", "razz", "--resume", "--hands", "0", "--db", str(tmp_path / "no.db")]) == 2
    assert main(["sim", "razz", "--players", "1", "--hands", "1"]) == 2


@pytest.mark.parametrize(("split", "variant"), [("high", "F7S"), ("hi-lo", "F7S/8")])
async def test_stud_sim_histories_replay_in_pokerkit_to_recorded_stacks(
    tmp_path: Path, split: str, variant: str
) -> None:
    out = tmp_path / "hist"
    report = await run_sim(
        game="stud",
        players=5,
        hands=25,
        seed=43,
        db=tmp_path / "s.db",
        history_dir=out,
        options={"split": split},
    )
    assert report.audit is not None and report.audit.ok
    files = sorted(out.glob("*.phh"))
    assert len(files) == report.hands == 25
    agreed = 0
    for path in files:
        text = path.read_text()
        assert f"variant = '{variant}'" in text
        assert replay_phh_text(text).match is True  # our engine: Robert's Rules
        with path.open("rb") as fp:
            hh = pokerkit.HandHistory.load(fp)
        try:
            stacks = list(list(hh)[-1].stacks)
        except Exception:  # pokerkit cannot play it
            stacks = None
        if stacks == list(hh.finishing_stacks):
            agreed += 1
            continue
        # a documented departure (tests/engine/readings.py): pokerkit's readings do not
        # play this hand as Robert's Rules did (a heads-up raise war, a half-bet all-in)
        theirs = outcome(replay_phh_text, text, pokerkit_class(STUD[variant]))
        assert theirs != ("stacks", list(hh.finishing_stacks)), path.name
    assert agreed >= 15


def test_sim_cli_stud_split_option_and_its_refusal(tmp_path: Path, capsys) -> None:
    db = tmp_path / "sim.db"
    args = ["sim", "stud", "--split", "hi-lo", "--players", "3", "--hands", "3", "--db", str(db)]
    assert main([*args, "--seed", "4"]) == 0
    assert "game stud: 3 hand(s) played" in capsys.readouterr().out
    assert main(["sim", "razz", "--split", "hi-lo", "--hands", "1"]) == 2
    assert "--split applies to stud and omaha only" in capsys.readouterr().err
    assert main(["sim", "stud", "--betting", "no-limit", "--hands", "1"]) == 2
    assert "--betting applies to holdem and omaha only" in capsys.readouterr().err


def test_sim_cli_omaha_hi_lo_fixed_limit_options_reach_the_table(tmp_path: Path, capsys) -> None:
    db = tmp_path / "sim.db"
    args = ["sim", "omaha", "--split", "hi-lo", "--betting", "fixed-limit", "--players", "3"]
    assert main([*args, "--hands", "3", "--seed", "5", "--db", str(db)]) == 0
    assert "game omaha: 3 hand(s) played" in capsys.readouterr().out
    with sqlite3.connect(db) as raw:
        (rules,) = raw.execute("SELECT rules FROM tables").fetchone()
    assert json.loads(rules)["split"] == "hi-lo"
    assert json.loads(rules)["betting"] == "fixed-limit"


def test_sim_cli_horse_deals_each_game_for_an_orbit_and_the_audit_holds(
    tmp_path: Path, capsys
) -> None:
    """Two computer players: each deals once per game, so the ten hands are two of
    fixed-limit Hold'em, Omaha Hi-Lo and Razz, then two of Stud and two of Stud Hi-Lo."""
    db = tmp_path / "sim.db"
    # seed 2: with seed 1 the two computers' heads-up raise war (no cap heads-up by Robert's
    # Rules, issue 18) puts one all in before the orbits are over
    args = ["sim", "horse", "--players", "2", "--hands", "10", "--seed", "2", "--db", str(db)]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "game horse: 10 hand(s) played" in out
    assert "hands per game: holdem 2, omaha 2, razz 2, stud 4" in out
    assert "audit: OK" in out
    with sqlite3.connect(db) as raw:
        games = [g for (g,) in raw.execute("SELECT game FROM hands ORDER BY number")]
    assert games == ["holdem"] * 2 + ["omaha"] * 2 + ["razz"] * 2 + ["stud"] * 4


def test_sim_cli_dealers_choice_computer_dealers_pick_at_once_and_the_audit_holds(
    tmp_path: Path, capsys
) -> None:
    """A computer dealer picks the next game of the list at once (bot/tables/mixed.py):
    no hand waits for a pick, and the games follow the list from Zoot on."""
    db = tmp_path / "sim.db"
    args = ["sim", "dealers-choice", "--players", "3", "--hands", "6", "--seed", "1"]
    assert main([*args, "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "game dealers-choice: 6 hand(s) played" in out
    assert "audit: OK" in out
    with sqlite3.connect(db) as raw:
        games = [g for (g,) in raw.execute("SELECT game FROM hands ORDER BY number")]
    assert games == ["zoot", "wheelers", "razz", "holdem", "omaha", "omaha"]


def test_sim_cli_mixed_tables_take_no_split_or_betting(capsys) -> None:
    assert main(["sim", "horse", "--split", "hi-lo", "--hands", "1"]) == 2
    assert "--split applies to stud and omaha only" in capsys.readouterr().err
    assert main(["sim", "dealers-choice", "--betting", "no-limit", "--hands", "1"]) == 2
    assert "--betting applies to holdem and omaha only" in capsys.readouterr().err
