"""Issue 22 item 7, "Must show": exported PokerStars-format hands, parsed back, have the same
players, actions, board and winnings as the PHH of the same hands.

Over the 10,000 simulated hands (tests/league/sim_hands.py): every Hold'em, Omaha, Stud,
Stud Hi-Lo and Razz hand through the strict reader of the documented format
(tests/league/pokerstars_reader.py), and every no-limit Hold'em hand without antes (what
pokerkit's parser reads) through pokerkit 0.7.7's ``PokerStarsParser``, which replays
the actions it reads to the PHH's finishing stacks. The PHH side is read from the PHH text
itself (its action strings), not through the writer's own reader.
"""

from __future__ import annotations

import asyncio
import tomllib
import warnings
from pathlib import Path

import pytest
from pokerkit import PokerStarsParser

from bot.__main__ import main
from bot.league.exports import pokerstars_of_row
from bot.league.pokerstars import SEPARATOR, player_names
from bot.store import Store
from bot.store.stat_hands import HandRow
from bot.tables.sim import SIM_GUILD
from tests.league.pokerstars_reader import FormatError, read, read_file

# the 10,000 simulated hands (sim_db) are built once, by the worker that runs these
pytestmark = pytest.mark.xdist_group("sim_db")

BETTING = ("f", "cc", "cbr", "pb")


def _pairs(code: str) -> tuple[str, ...]:
    return tuple(code[i : i + 2] for i in range(0, len(code), 2))


def phh_view(row: HandRow) -> dict:  # type: ignore[type-arg]
    """Players, actions, deals, board, shows and nets straight from the PHH text."""
    data = tomllib.loads(row.history)
    names = player_names(data["players"])
    actions, dealt, board, shown = [], [], [], {}
    for text in data["actions"]:
        words = text.split("#")[0].split()
        if words[:2] == ["d", "dh"]:
            dealt.append((names[int(words[2][1:]) - 1], _pairs(words[3])))
        elif words[:2] == ["d", "db"]:
            board += _pairs(words[2])
        elif words[1] == "sm":
            shown[names[int(words[0][1:]) - 1]] = _pairs(words[2]) if len(words) == 3 else None
        elif words[1] in BETTING:
            actions.append((names[int(words[0][1:]) - 1], " ".join(words[1:])))
    nets = {
        n: f - s
        for n, f, s in zip(names, data["finishing_stacks"], data["starting_stacks"], strict=True)
    }
    return {
        "names": names,
        "seats": {n: s + 1 for n, s in zip(names, row.seats, strict=True)},
        "starting": dict(zip(names, data["starting_stacks"], strict=True)),
        "actions": actions,
        "dealt": dealt,
        "board": board,
        "shown": shown,
        "nets": nets,
        "variant": data["variant"],
        "antes": data.get("antes", [0]),
    }


async def _poker_rows(db: Path) -> list[HandRow]:
    async with await Store.open(db, read_only=True) as store, store.read() as tx:
        season = await tx.current_season(SIM_GUILD)
        hands = await tx.season_hands(SIM_GUILD, season_id=season.id)
        poker = [h.hand_id for h in hands if h.game not in ("zoot", "wheelers")]
        return await tx.hand_rows(poker)


@pytest.fixture(scope="module")
def sim_rows(sim_db: Path) -> list[HandRow]:
    return asyncio.run(_poker_rows(sim_db))


def test_exported_hands_read_back_with_the_phh_players_actions_board_and_winnings(
    sim_rows: list[HandRow],
) -> None:
    variants = set()
    for row in sim_rows:
        text = pokerstars_of_row(row, everyone=True)
        assert text is not None, row.hand_id
        got = read(text)
        want = phh_view(row)
        variants.add(want["variant"])
        assert got.number == row.hand_id
        assert got.seats == dict(sorted(want["seats"].items(), key=lambda kv: kv[1]))
        assert got.starting == want["starting"]
        assert got.actions == want["actions"], row.hand_id
        assert got.dealt == want["dealt"], row.hand_id
        assert got.board == want["board"], row.hand_id
        assert got.shown == want["shown"], row.hand_id
        assert {n: got.net(n) for n in want["names"]} == want["nets"], row.hand_id
    assert variants == {"NT", "FT", "PO", "FO/8", "F7S", "F7S/8", "FR"}


def test_a_hero_export_deals_only_the_heros_hole_cards_and_reads_back_the_same(
    sim_rows: list[HandRow],
) -> None:
    for row in sim_rows[::7]:
        hero_seat = row.seats[0]
        hero = row.users[hero_seat]
        text = pokerstars_of_row(row, viewer=hero)
        assert text is not None
        got, want = read(text), phh_view(row)
        name = want["names"][0]
        stud = want["variant"] in ("F7S", "F7S/8", "FR")
        others = [who for who, _ in got.dealt if who != name]
        assert stud or not others, "Hold'em and Omaha deal only the hero's cards"
        mine = [c for who, cards in got.dealt if who == name for c in cards]
        assert mine == [c for who, cards in want["dealt"] if who == name for c in cards]
        assert got.actions == want["actions"] and got.board == want["board"]
        assert {n: got.net(n) for n in want["names"]} == want["nets"]


def test_pokerkit_reads_the_no_limit_holdem_hands_as_their_phh(sim_rows: list[HandRow]) -> None:
    parser = PokerStarsParser()
    checked = 0
    for row in sim_rows:
        want = phh_view(row)
        if want["variant"] != "NT" or any(want["antes"]):
            continue
        text = pokerstars_of_row(row, everyone=True)
        assert text is not None
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # its own user-field warnings
            (hh,) = list(parser(text + SEPARATOR, error_status=True))
        assert hh.hand == row.hand_id
        assert list(hh.players) == want["names"]
        assert list(hh.seats) == [want["seats"][n] for n in want["names"]]
        assert list(hh.starting_stacks) == [want["starting"][n] for n in want["names"]]
        betting = [a for a in hh.actions if a.split()[1] in BETTING]
        assert betting == [f"p{want['names'].index(n) + 1} {a}" for n, a in want["actions"]], (
            row.hand_id
        )
        board = "".join(a.split()[2] for a in hh.actions if a.startswith("d db"))
        assert board == "".join(want["board"])
        *_, final = hh
        assert [f - s for f, s in zip(final.stacks, hh.starting_stacks, strict=True)] == [
            want["nets"][n] for n in want["names"]
        ], row.hand_id
        checked += 1
    assert checked > 2_000


def test_export_command_writes_a_seasons_hands_as_phh_and_pokerstars_files(
    sim_db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    assert main(["export", "--db", str(sim_db), "--format", "pokerstars", "--out", str(out)]) == 0
    line = capsys.readouterr().out.strip()
    folder = out / "league-1-season-1"
    assert line.startswith("league 1 season 1: ") and line.endswith(f"hands -> {folder}")
    files = sorted(folder.glob("table-*.txt"))
    hands = [h for f in files for h in read_file(f.read_text(encoding="utf-8"))]
    assert len(hands) == int(line.split(": ")[1].split()[0]) > 8_000
    assert len({h.number for h in hands}) == len(hands)
    # pokerkit finds every no-limit hand of a whole file, separated as PokerStars does
    nt_file = next(f for f in files if "Hold'em No Limit" in f.read_text(encoding="utf-8")[:200])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        parsed = list(PokerStarsParser()(nt_file.read_text(encoding="utf-8"), error_status=True))
    assert len(parsed) == len(read_file(nt_file.read_text(encoding="utf-8")))
    assert main(["export", "--db", str(sim_db), "--format", "phh", "--out", str(out)]) == 0
    phh = sorted(folder.glob("*.phh")) + sorted(folder.glob("*.toml"))
    assert len(phh) >= 10_000
    assert all(tomllib.loads(p.read_text(encoding="utf-8"))["variant"] for p in phh[:50])


def test_export_command_refuses_bad_input_and_writes_nothing(
    sim_db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    base = ["export", "--format", "pokerstars", "--out", str(out)]
    assert main([*base, "--db", str(tmp_path / "missing.db")]) == 2
    assert "no such database file" in capsys.readouterr().err
    assert main([*base, "--db", str(sim_db), "--season", "7"]) == 2
    assert "has no season 7 (its season is 1)" in capsys.readouterr().err
    assert main([*base, "--db", str(sim_db), "--guild", "99"]) == 2
    assert "no league 99" in capsys.readouterr().err
    assert not out.exists()


def test_the_strict_reader_refuses_what_the_format_does_not_say() -> None:
    good = (
        "PokerStars Hand #7: Hold'em No Limit (5/10) - 2026/05/28 16:26:40 ET\n"
        "Table 'Home Game table 1' 9-max Seat #2 is the button\n"
        "Seat 1: ann (1000 in chips)\nSeat 2: bob (1000 in chips)\n"
        "bob: posts small blind 5\nann: posts big blind 10\n*** HOLE CARDS ***\n"
        "bob: raises 20 to 30\nann: folds\nUncalled bet (20) returned to bob\n"
        "bob collected 20 from pot\nbob: doesn't show hand\n*** SUMMARY ***\n"
        "Total pot 20 | Rake 0\nSeat 1: ann (big blind) folded before Flop\n"
        "Seat 2: bob (button) (small blind) collected (20)"
    )
    assert read(good).net("bob") == 10
    for bad in (
        good.replace("raises 20 to 30", "raises 25 to 30"),  # X is what the raise adds
        good.replace("Uncalled bet (20)", "Uncalled bet (15)"),
        good.replace("(1000 in chips)", "(1,000 in chips)", 1),
        good.replace("collected (20)", "collected (25)"),
        good.replace("ann: folds", "ann: calls 20"),  # the call is what is owed
        good + "\nsomething else",
    ):
        with pytest.raises(FormatError):
            read(bad)


def test_export_options_season_guild_and_hero_each_change_what_is_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from bot.tables.sim import run_sim

    db = tmp_path / "small.db"
    asyncio.run(
        run_sim(
            game="holdem", players=3, hands=12, seed=5, db=db, options={"betting": "fixed-limit"}
        )
    )

    async def end_season() -> None:
        async with await Store.open(db) as store, store.transaction() as tx:
            await tx.end_season(SIM_GUILD)

    asyncio.run(end_season())
    out = tmp_path / "out"
    base = ["export", "--db", str(db), "--format", "pokerstars", "--out", str(out)]
    # the current season (2) has no hand yet; --season 1 has the twelve
    assert main(base) == 0
    assert capsys.readouterr().out.strip().startswith("league 1 season 2: 0 hands")
    assert main([*base, "--season", "1", "--guild", str(SIM_GUILD)]) == 0
    assert "league 1 season 1: 12 hands" in capsys.readouterr().out
    everyone = (out / "league-1-season-1").glob("table-*.txt")
    (table,) = list(everyone)
    full = read_file(table.read_text(encoding="utf-8"))
    assert all(len(h.dealt) == 3 for h in full)  # every player's hole cards
    # --hero: only that member's cards are dealt (a tracker's hero)
    hero_out = tmp_path / "hero"
    hero = ["export", "--db", str(db), "--format", "pokerstars", "--out", str(hero_out)]
    assert main([*hero, "--season", "1", "--hero", "-2"]) == 0
    (table,) = list((hero_out / "league-1-season-1").glob("table-*.txt"))
    mine = read_file(table.read_text(encoding="utf-8"))
    assert [len(h.dealt) for h in mine] == [1] * 12
    assert {who for h in mine for who, _ in h.dealt} == {"Computer 2"}
    assert [h.actions for h in mine] == [h.actions for h in full]
