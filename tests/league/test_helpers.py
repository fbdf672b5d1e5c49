"""Pure league helpers: ranking with shared ranks, pages, the CSV, the custom_ids of the
league's components, and the hand-history redaction."""

from __future__ import annotations

import csv
import io

import pytest

from bot.engine.events import Event
from bot.league.export import COLUMNS, ledger_csv
from bot.league.ranking import paginate, rank
from bot.league.replay import redact_history
from bot.store.stats import LedgerRow, PlayerSummary
from cogs._ids import (
    BadCustomId,
    LeaderboardId,
    build_history_id,
    build_leaderboard_id,
    parse_custom_id,
    parse_history_id,
    parse_leaderboard_id,
)


def _summary(uid: int, balance: int, received: int = 1000, **kw: int) -> PlayerSummary:
    return PlayerSummary(
        user_id=uid,
        balance=balance,
        received=received,
        hands=kw.get("hands", 0),
        won=kw.get("won", 0),
        hand_net=kw.get("hand_net", 0),
        biggest_pot=kw.get("pot", 0),
    )


def test_rank_by_net_counts_rebuys_against_the_player() -> None:
    # 2 took a 1,000 rebuy: richer, but a worse net result
    rows = rank([_summary(1, 1500), _summary(2, 1800, received=2000), _summary(3, 1500)])
    assert [(r.rank, r.user_id, r.value) for r in rows] == [(1, 1, 500), (1, 3, 500), (3, 2, -200)]
    assert [r.user_id for r in rank(rows and [r.summary for r in rows], "balance")] == [2, 1, 3]


def test_rank_by_game_lists_only_who_played_it() -> None:
    rows = rank([_summary(1, 900, hands=3, hand_net=-100), _summary(2, 1000)], game="razz")
    assert [(r.user_id, r.value) for r in rows] == [(1, -100)]


def test_pages_of_ten_for_25_players() -> None:
    rows = rank([_summary(i, 1000 + i) for i in range(1, 26)], "balance")
    pages = [paginate(rows, n) for n in range(3)]
    assert [len(p.rows) for p in pages] == [10, 10, 5] and pages[0].count == 3
    assert pages[0].rows[0].user_id == 25 and pages[2].rows[-1].user_id == 1
    assert not pages[0].has_prev and pages[0].has_next and not pages[2].has_next
    assert paginate(rows, 99).number == 2 and paginate([], 0).count == 1


def test_csv_has_the_columns_and_one_row_per_entry() -> None:
    rows = [
        LedgerRow(1, 0, "house", "user:5", 1000, "start", None, None, None, "starting chips"),
        LedgerRow(2, 60, "user:5", "pot:3", 10, "ante", 3, 7, None, None),
    ]
    parsed = list(csv.reader(io.StringIO(ledger_csv(rows).decode())))
    assert tuple(parsed[0]) == COLUMNS
    assert parsed[1][: len(COLUMNS) - 1] == [
        "1",
        "1970-01-01T00:00:00Z",
        "house",
        "user:5",
        "1000",
        "start",
        "",
        "",
        "",
        "starting chips",
        "house",
        "",
        "",
    ]
    assert parsed[2][:8] == ["2", "1970-01-01T00:01:00Z", "user:5", "pot:3", "10", "ante", "3", "7"]
    assert [r[COLUMNS.index("what")] for r in parsed[1:]] == ["starting chips", "ante"]


def test_league_custom_ids_round_trip_and_never_look_like_a_table() -> None:
    text = build_leaderboard_id(2, "razz", "pot", 4, "p")
    assert text == "hg:lb:2:razz:pot:4:p"
    assert parse_leaderboard_id(text) == LeaderboardId(2, "razz", "pot", 4, "p")
    assert parse_leaderboard_id(build_leaderboard_id(1, None, "net", 0)).game is None
    assert parse_history_id(build_history_id(123456789012345678)) == 123456789012345678
    for bad in ("hg:lb:0:all:net:0:n", "hg:lb:1:poker:net:0:n", "hg:lb:1:all:net:-1:n", "x"):
        with pytest.raises(BadCustomId):
            parse_leaderboard_id(bad)
    with pytest.raises(BadCustomId):
        parse_custom_id(text)
    with pytest.raises(BadCustomId):
        build_leaderboard_id(1, None, "bogus", 0)
    # a statistic and a minimum of hands ride along; buttons made before it have none
    text = build_leaderboard_id(3, "holdem", "three_bet", 1, "n", min_hands=50)
    assert text == "hg:lb:3:holdem:three_bet:1:n:50"
    assert parse_leaderboard_id(text) == LeaderboardId(3, "holdem", "three_bet", 1, "n", 50)
    assert parse_leaderboard_id("hg:lb:3:all:luck:0:p").min_hands is None
    with pytest.raises(BadCustomId):
        build_leaderboard_id(1, None, "vpip", 0, min_hands=-1)


def test_redaction_hides_every_card_the_viewer_did_not_see() -> None:
    events = [
        Event("hand_start", {"seats": [0, 1], "dealer": 1}, None),
        Event("deal_down", {"seat": 0, "street": 3, "cards": ["Ah", "2c"]}, 0),
        Event("deal_up", {"seat": 0, "street": 3, "card": "3d"}, None),
        Event("deal_down", {"seat": 1, "street": 3, "cards": ["Kh", "Qs"]}, 1),
        Event("deal_up", {"seat": 1, "street": 3, "card": "Jc"}, None),
        Event("out", {"seat": 1, "reason": "Ace of nothing"}, None),
    ]
    history = (
        "variant = 'FR'\nactions = ['d dh p1 Ah2c3d', 'd dh p2 KhQsJc', 'p2 f']\n"
        "players = ['Ac', 'Kd']\n"
    )
    mine = redact_history(history, events, 0)
    assert "'d dh p1 Ah2c3d'" in mine and "'d dh p2 ????Jc'" in mine
    assert "Kh" not in mine.split("players")[0] and "Qs" not in mine
    assert "players = ['Ac', 'Kd']" in mine  # names are not cards
    spectator = redact_history(history, events, None)
    assert "'d dh p1 ????3d'" in spectator and "'d dh p2 ????Jc'" in spectator
