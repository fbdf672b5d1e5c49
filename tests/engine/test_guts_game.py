"""RULES §1 (the guts procedure of Zoot and Wheelers), rule by rule, on stacked decks."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import Any

import pytest

from bot.engine.actions import Action
from bot.engine.cards import CARDS, Deck, parse_cards
from bot.engine.errors import (
    GameOver,
    IllegalAction,
    InvalidConfig,
    NotYourTurn,
    SnapshotError,
)
from bot.engine.events import Event
from bot.engine.guts import (
    GutsGame,
    GutsRanking,
    GutsRules,
    GutsSetup,
    NotEnoughPlayers,
    close_table_refunds,
    next_game,
)
from bot.engine.hands import guts_ranking

# --------------------------------------------------------------------------- helpers


def ranking(game: str = "zoot") -> GutsRanking:
    return guts_ranking(game, wraparound=False)


def stacked(*hands: str, draws: str = "") -> Deck:
    """A deck dealing ``hands`` (five cards each, dealer's left first), then ``draws``."""
    top = parse_cards(" ".join([*hands, draws]))  # refuses a card given twice
    rest = [c for c in CARDS if c not in top]
    return Deck(cards=top + rest)


def make_game(
    *hands: str,
    stacks: Sequence[int] | None = None,
    draws: str = "",
    dealer: int | None = None,
    pot: dict[int, int] | None = None,
    rng: random.Random | None = None,
    excused: frozenset[int] = frozenset(),
    away: frozenset[int] = frozenset(),
    **rules: Any,
) -> GutsGame:
    """Seats 1..n holding ``hands`` in seat order (when all are dealt in); the dealer
    defaults to the last seat, so seat 1 is on the dealer's left."""
    n = len(stacks) if stacks is not None else len(hands)
    seats = tuple(range(1, n + 1))
    setup = GutsSetup(
        seats=seats,
        stacks=dict(zip(seats, stacks or [1000] * n, strict=True)),
        dealer=dealer if dealer is not None else n,
        pot=pot or {},
        excused=excused,
        away=away,
    )
    game_rules = GutsRules.parse(**{"game": "zoot", **rules})
    by_seat = dict(zip(seats, hands, strict=False))
    dealt = [by_seat[s] for s in setup.order() if s in by_seat]  # dealer's left first
    return GutsGame(
        game_rules,
        setup,
        deck=stacked(*dealt, draws=draws),
        rng=rng or random.Random(1),
        ranking=ranking(game_rules.game),
    )


def act(game: GutsGame, seat: int, kind: str, card: str | None = None) -> list[Event]:
    c = parse_cards(card)[0] if card else None
    return game.apply(Action(seat, kind, card=c))


def everyone(game: GutsGame, kind: str) -> list[Event]:
    events: list[Event] = []
    for seat in sorted(game.to_act()):
        events += act(game, seat, kind)
    return events


def chip_total(game: GutsGame) -> int:
    return sum(game.stacks.values()) + game.pot


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


FLUSH = "9s 8s 6s 3s 2s"  # one suit: beats every hand with more suits (RULES §2.3)
FULL_HOUSE = "Kh Kd Kc 7h 7d"
JUNK_A = "Ah Qd 9c 5s 3h"  # four suits, high card
JUNK_B = "Qh Jd 8c 4s 2h"

# --------------------------------------------------------------------------- §1.1


def test_rule_1_1_more_than_ten_players_refused() -> None:
    setup = GutsSetup(seats=tuple(range(11)), stacks=dict.fromkeys(range(11), 100), dealer=0)
    with pytest.raises(InvalidConfig, match="seats: at most 10 players"):
        GutsGame(GutsRules.parse(game="zoot"), setup, ranking=ranking())


def test_rule_1_1_standard_deck_no_wild_cards_each_card_once() -> None:
    game = make_game(stacks=[100] * 10)
    game.start()
    held = [c for s in game.players for c in game.hand(s)] + list(game.stock)
    assert sorted(held) == list(range(52))


def test_rule_1_1_one_player_cannot_start_and_nothing_changes() -> None:
    game = make_game(stacks=[100, 5], ante=10)
    with pytest.raises(NotEnoughPlayers, match="only 1 player"):
        game.start()
    assert game.stacks == {1: 100, 2: 5} and game.pot == 0 and game.phase == "ready"


# --------------------------------------------------------------------------- §1.2


def test_rule_1_2_every_player_antes_into_the_pot() -> None:
    game = make_game(FLUSH, FULL_HOUSE, JUNK_A, stacks=[100, 100, 100], ante=7, pot={2: 30})
    events = game.start()
    antes = [m for e in events for m in e.chips]
    assert {(m.seat, m.amount, m.kind) for m in antes} == {(s, 7, "ante") for s in (1, 2, 3)}
    assert game.pot == 30 + 21
    assert game.pot_ledger == {1: 7, 2: 37, 3: 7}


def test_rule_1_2_player_who_cannot_pay_the_ante_sits_this_game_out() -> None:
    game = make_game(FLUSH, FULL_HOUSE, stacks=[100, 9, 100], ante=10)
    events = game.start()
    assert game.players == (1, 3)
    assert game.hand(2) == () and game.stacks[2] == 9
    assert events[0].data["sitting_out"] == {"2": "cannot pay the ante (10)"}


def test_rule_1_2_excuse_matcher_ante_on_skips_first_ante_only() -> None:
    game = make_game(FLUSH, FULL_HOUSE, stacks=[100, 100], ante=10, excused=frozenset({1}))
    events = game.start()
    assert "ante_excused" in kinds(events)
    assert game.stacks == {1: 100, 2: 90}
    everyone(game, "play_on")  # second ante is not excused (RULES §1.2: "first ante")
    assert game.stacks == {1: 90, 2: 80}


def _matched_game(excuse: bool) -> GutsGame:
    game = make_game(FULL_HOUSE, FLUSH, stacks=[100, 100], ante=10, excuse_matcher_ante=excuse)
    game.start()
    act(game, 1, "lay_down")
    act(game, 2, "play_on")
    return game


def test_rule_1_2_excuse_matcher_ante_on_excuses_the_matcher() -> None:
    game = _matched_game(excuse=True)
    assert game.result.matched == 20
    assert next_game(game).setup.excused == frozenset({1})


def test_rule_1_2_excuse_matcher_ante_off_by_default() -> None:
    game = _matched_game(excuse=False)
    assert next_game(game).setup.excused == frozenset()


# --------------------------------------------------------------------------- §1.3


def test_rule_1_3_five_cards_dealt_face_down_private_to_each() -> None:
    game = make_game(FLUSH, FULL_HOUSE, JUNK_A)
    events = game.start()
    deals = [e for e in events if e.kind == "deal"]
    assert [(e.visible_to, e.data["cards"]) for e in deals] == [
        (1, FLUSH.split()),
        (2, FULL_HOUSE.split()),
        (3, JUNK_A.split()),
    ]
    for e in events:
        if e.public:
            text = json.dumps(e.data)
            assert not any(code in text for code in (FLUSH + FULL_HOUSE + JUNK_A).split())


# --------------------------------------------------------------------------- §1.4


def test_rule_1_4_simultaneous_choices_stay_private_until_the_window_closes() -> None:
    game = make_game(FLUSH, FULL_HOUSE, JUNK_A)
    game.start()
    assert game.to_act() == {1, 2, 3}
    events = act(game, 2, "lay_down")
    assert [(e.kind, e.visible_to) for e in events] == [("choice", 2), ("chosen", None)]
    assert events[1].data == {"chosen": 1, "of": 3}
    assert game.to_act() == {1, 3}
    with pytest.raises(NotYourTurn, match="already chosen"):
        act(game, 2, "play_on")
    act(game, 1, "play_on")
    closing = act(game, 3, "play_on")  # the last choice closes the window early
    closed = next(e for e in closing if e.kind == "window_closed")
    assert closed.data["challenger"] == 2


def test_rule_1_4_simultaneous_several_lay_downs_challenger_nearest_dealers_left() -> None:
    # Dealer is seat 2: clockwise from the dealer's left the order is 3, 4, 1, 2.
    game = make_game(JUNK_A, FLUSH, FULL_HOUSE, JUNK_B, dealer=2)
    game.start()
    act(game, 1, "lay_down")
    act(game, 4, "lay_down")
    act(game, 2, "play_on")
    events = act(game, 3, "play_on")
    closed = next(e for e in events if e.kind == "window_closed")
    assert closed.data["lay_downs"] == [4, 1]
    assert game.result.challenger == 4


def test_rule_1_4_unchosen_player_plays_on_when_the_window_times_out() -> None:
    game = make_game(FLUSH, FULL_HOUSE, JUNK_A)
    game.start()
    act(game, 3, "lay_down")
    events = game.timeout()
    choices = [e for e in events if e.kind == "choice"]
    assert {(e.visible_to, e.data["choice"], e.data["timed_out"]) for e in choices} == {
        (1, "play_on", True),
        (2, "play_on", True),
    }
    assert game.result.challenger == 3


def test_rule_1_4_in_turn_first_to_accept_is_the_challenger() -> None:
    game = make_game(FLUSH, FULL_HOUSE, JUNK_A, laydown_order="in_turn")
    game.start()
    assert game.to_act() == {1}
    with pytest.raises(NotYourTurn, match="seat 1's turn"):
        act(game, 2, "lay_down")
    events = act(game, 1, "play_on")
    assert [(e.kind, e.visible_to) for e in events] == [("played_on", None)]
    assert game.to_act() == {2}
    events = act(game, 2, "lay_down")
    assert "showdown" in kinds(events)
    assert game.result.challenger == 2  # seat 3 was never asked


def test_rule_1_4_in_turn_timeout_plays_on_for_the_current_seat_only() -> None:
    game = make_game(FLUSH, FULL_HOUSE, JUNK_A, laydown_order="in_turn")
    game.start()
    events = game.timeout()
    assert [e.kind for e in events] == ["played_on"]
    assert game.to_act() == {2}


# --------------------------------------------------------------------------- §1.5, §1.6


def test_rule_1_5_nobody_lays_down_everyone_antes_discards_one_and_draws_one() -> None:
    game = make_game(FLUSH, JUNK_A, stacks=[100, 100], ante=10, draws="Ts 7c")
    game.start()
    events = everyone(game, "play_on")
    assert [m.kind for e in events for m in e.chips] == ["ante", "ante"]
    assert game.phase == "discard" and game.pot == 40
    options = {o.kind: o for o in game.legal_actions(1)}
    assert not options["lay_down"].allowed and options["discard"].allowed
    assert set(options["discard"].cards) == set(parse_cards(FLUSH))
    ev1 = act(game, 1, "discard", "2s")
    assert [(e.kind, e.visible_to) for e in ev1] == [("discard", 1), ("discarded", None)]
    ev2 = act(game, 2, "discard", "3h")
    draws = [e for e in ev2 if e.kind == "draw"]
    assert [(e.visible_to, e.data["card"]) for e in draws] == [(1, "Ts"), (2, "7c")]
    assert sorted(game.hand(1)) == sorted(parse_cards("9s 8s 6s 3s Ts"))
    assert sorted(game.hand(2)) == sorted(parse_cards("Ah Qd 9c 5s 7c"))
    assert game.phase == "window" and game.round == 2


def test_rule_1_5_discard_timeout_discards_the_card_that_keeps_the_best_hand() -> None:
    game = make_game("9s 8s 6s 3s 2h", JUNK_A, draws="Ts 7c")
    game.start()
    everyone(game, "play_on")
    suggested = {o.kind: o for o in game.legal_actions(1)}["discard"].suggested
    assert suggested == parse_cards("2h")[0]  # keeping four spades keeps the best hand
    events = game.timeout()
    mine = [e for e in events if e.kind == "discard" and e.visible_to == 1]
    assert mine[0].data == {"seat": 1, "card": "2h", "timed_out": True}


def test_rule_1_5_player_who_cannot_pay_the_exchange_ante_is_out_chips_stay() -> None:
    game = make_game(FLUSH, FULL_HOUSE, JUNK_A, stacks=[100, 15, 100], ante=10)
    game.start()
    everyone(game, "play_on")
    assert game.live == (1, 3) and "ante" in game.dead[2]
    assert game.pot_ledger == {1: 20, 2: 10, 3: 20}  # seat 2's first ante stays in
    with pytest.raises(NotYourTurn, match="out of this game"):
        act(game, 2, "discard", "Kh")


def test_rule_1_5_sole_live_hand_after_exchange_ante_takes_the_pot() -> None:
    game = make_game(FLUSH, FULL_HOUSE, stacks=[100, 12], ante=10)
    game.start()
    events = everyone(game, "play_on")
    assert game.over and game.result.winners == (1,) and game.result.matched == 0
    assert game.stacks == {1: 100 - 20 + 30, 2: 2}
    assert "game_over" in kinds(events)


def test_rule_1_6_ten_players_refill_the_stock_from_shuffled_discards() -> None:
    game = make_game(stacks=[1000] * 10, rng=random.Random(7))
    game.start()
    assert len(game.stock) == 2
    everyone(game, "play_on")
    discarded = {s: game.hand(s)[0] for s in game.live}
    for seat, card in discarded.items():
        game.apply(Action(seat, "discard", card=card))
    # 2 cards left < 10 players to draw: the 10 discards were shuffled in under the stock.
    assert len(game.stock) == 2 and game.discard_pile == ()
    held = [c for s in game.live for c in game.hand(s)] + list(game.stock)
    assert sorted(held) == list(range(52))
    assert any(line.startswith("d rf ") for line in game.log)
    for _ in range(3):  # keeps working round after round
        everyone(game, "play_on")
        for seat in sorted(game.to_act()):
            game.apply(game.default_action(seat))
        assert all(len(game.hand(s)) == 5 for s in game.live)


# --------------------------------------------------------------------------- §1.7


def test_rule_1_7_challenger_with_the_best_hand_takes_the_whole_pot() -> None:
    game = make_game(FLUSH, FULL_HOUSE, JUNK_A, stacks=[100] * 3, ante=10)
    game.start()
    act(game, 1, "lay_down")
    events = game.timeout()
    showdown = next(e for e in events if e.kind == "showdown")
    assert set(showdown.data["hands"]) == {"1", "2", "3"}
    assert game.result.winners == (1,) and game.result.matched == 0
    assert game.stacks == {1: 120, 2: 90, 3: 90} and game.pot == 0


def test_rule_1_7_tie_with_challenger_takes_whole_pot() -> None:
    # Same ranks, same number of suits: an exact tie; the challenger (seat 2) takes it all.
    game = make_game("Ac Tc 6c 5c 4c", "As Ts 6s 5s 4s", "Ad Td 6d 5d 4d", stacks=[100] * 3)
    game.start()
    act(game, 2, "lay_down")
    game.timeout()
    assert game.result.winners == (2,) and game.result.awards == {2: 30}
    assert game.stacks == {1: 90, 2: 120, 3: 90} and game.result.matched == 0


def test_rule_1_7_beaten_challenger_matches_the_pot_which_carries_over() -> None:
    game = make_game(FULL_HOUSE, FLUSH, JUNK_A, stacks=[100] * 3, ante=10, pot={3: 5})
    game.start()
    act(game, 1, "lay_down")
    events = game.timeout()
    match = next(e for e in events if e.kind == "match")
    assert match.chips[0].seat == 1 and match.chips[0].amount == 35
    assert game.result.winners == (2,) and game.result.awards == {2: 35}
    assert game.stacks == {1: 55, 2: 125, 3: 90}
    assert game.pot == 35 and game.result.carried_pot == {1: 35}
    assert next_game(game).setup.pot == {1: 35}


def test_rule_1_7_tied_non_challengers_split_odd_chip_first_clockwise_from_dealers_left() -> None:
    # Dealer seat 2, so clockwise from the dealer's left: 3, 4, 1, 2. Seats 4 and 1 tie.
    hands = (
        "Ac Tc 6c 5c 4c",  # seat 1
        JUNK_B,  # seat 2
        FULL_HOUSE,  # seat 3: the challenger, beaten
        "Ad Td 6d 5d 4d",  # seat 4
    )
    game = make_game(*hands, stacks=[100] * 4, ante=10, dealer=2, pot={2: 1})
    game.start()
    act(game, 3, "lay_down")
    game.timeout()
    assert game.result.winners == (4, 1)
    assert game.result.awards == {4: 21, 1: 20}  # 41 chips: the odd one goes to seat 4
    assert game.result.matched == 41 and game.stacks[3] == 90 - 41


def test_rule_1_7_only_the_challenger_risks_a_payment() -> None:
    game = make_game(JUNK_B, FLUSH, JUNK_A, FULL_HOUSE, stacks=[100] * 4)
    game.start()
    act(game, 3, "lay_down")
    game.timeout()
    assert {s: n for s, n in game.result.net.items() if n < -10} == {3: -50}


# --------------------------------------------------------------------------- §1.8


def test_rule_1_8_cover_rule_on_refuses_a_lay_down_without_the_pot() -> None:
    game = make_game(FLUSH, FULL_HOUSE, stacks=[100, 40], ante=10, pot={1: 50})
    game.start()
    option = {o.kind: o for o in game.legal_actions(2)}["lay_down"]
    assert not option.allowed and "70 chips" in (option.reason or "")
    reason = game.can(Action(2, "lay_down"))
    assert reason and "laydown_requires_cover" in reason
    with pytest.raises(IllegalAction):
        act(game, 2, "lay_down")
    assert game.to_act() == {1, 2} and game.stacks == {1: 90, 2: 30}


def test_rule_1_8_cover_rule_off_challenger_who_cannot_cover_pays_what_they_have() -> None:
    game = make_game(
        FLUSH, FULL_HOUSE, stacks=[100, 40], ante=10, pot={1: 50}, laydown_requires_cover=False
    )
    game.start()
    act(game, 2, "lay_down")
    act(game, 1, "play_on")
    assert game.result.winners == (1,) and game.result.matched == 30
    assert game.stacks == {1: 160, 2: 0} and game.pot == 30


# --------------------------------------------------------------------------- §1.9 - §1.11


def test_rule_1_9_next_game_deal_passes_one_seat_left() -> None:
    game = _matched_game(excuse=False)
    nxt = next_game(game)
    assert game.setup.dealer == 2 and nxt.setup.dealer == 1
    assert nxt.setup.stacks == game.stacks and not nxt.pause
    follow = GutsGame(game.rules, nxt.setup, rng=random.Random(3), ranking=ranking())
    follow.start()
    assert follow.players == (2, 1)  # seat 2 is now on the dealer's left


def test_rule_1_10_closing_table_returns_the_pot_by_the_ledger() -> None:
    game = make_game(FULL_HOUSE, FLUSH, JUNK_A, stacks=[100] * 3, ante=10)
    game.start()
    everyone(game, "play_on")
    refunds = close_table_refunds(game.pot_ledger)
    assert {(m.seat, m.amount, m.kind) for m in refunds} == {
        (1, -20, "refund"),
        (2, -20, "refund"),
        (3, -20, "refund"),
    }
    assert sum(-m.amount for m in refunds) == game.pot


def test_rule_1_11_two_timed_out_windows_in_a_row_mark_a_player_away() -> None:
    game = make_game(FLUSH, FULL_HOUSE, JUNK_A, stacks=[100] * 3)
    game.start()
    act(game, 1, "play_on")
    act(game, 3, "play_on")
    game.timeout()  # seat 2's first window run out
    act(game, 1, "discard", "2s")
    act(game, 3, "discard", "3h")
    game.timeout()  # seat 2's second in a row
    act(game, 1, "lay_down")
    act(game, 3, "play_on")
    game.timeout()
    assert game.over and game.idle[2] == 3
    nxt = next_game(game)
    assert nxt.newly_away == {2} and 2 in nxt.setup.away
    follow = GutsGame(game.rules, nxt.setup, rng=random.Random(3), ranking=ranking())
    follow.start()
    assert 2 not in follow.players and follow.sitting_out[2] == "away"
    back = nxt.setup.come_back(2)
    assert 2 not in back.away and back.idle.get(2, 0) == 0


def test_rule_1_11_acting_between_timeouts_keeps_the_player_seated() -> None:
    game = make_game(FLUSH, FULL_HOUSE, JUNK_A)
    game.start()
    act(game, 1, "play_on")
    act(game, 3, "play_on")
    game.timeout()
    act(game, 2, "discard", "7d")
    game.timeout()
    act(game, 2, "lay_down")
    game.timeout()
    assert game.idle[2] == 0 and 2 not in next_game(game).newly_away
    assert next_game(game).newly_away == {1, 3}  # they let the last two windows run out


def test_rule_1_11_a_round_with_nobody_acting_pauses_instead_of_anteing() -> None:
    game = make_game(FLUSH, FULL_HOUSE, JUNK_A, stacks=[100] * 3, ante=10)
    game.start()
    events = game.timeout()
    assert game.paused and "paused" in kinds(events) and "ante" not in kinds(events)
    assert game.pot == 30 and game.to_act() == frozenset()
    with pytest.raises(NotYourTurn, match="paused"):
        act(game, 1, "play_on")
    events = game.resume()
    assert kinds(events)[:2] == ["resumed", "ante"] and game.phase == "discard"


# --------------------------------------------------------------------------- check / can / do


def test_illegal_actions_raise_and_change_nothing() -> None:
    game = make_game(FLUSH, FULL_HOUSE)
    game.start()
    before = json.dumps(game.snapshot())
    with pytest.raises(IllegalAction, match="discard"):
        act(game, 1, "discard", "9s")
    with pytest.raises(IllegalAction, match="not a guts action"):
        act(game, 1, "fold")
    with pytest.raises(NotYourTurn, match="not in this game"):
        act(game, 7, "play_on")
    everyone(game, "play_on")
    with pytest.raises(IllegalAction, match="not in your hand"):
        act(game, 1, "discard", "Kh")
    with pytest.raises(IllegalAction, match="not to lay down"):
        act(game, 1, "lay_down")
    assert before != json.dumps(game.snapshot())
    mid = json.dumps(game.snapshot())
    with pytest.raises(IllegalAction):
        act(game, 1, "discard", "Kh")
    assert mid == json.dumps(game.snapshot())


def test_actions_after_the_showdown_raise_game_over() -> None:
    game = _matched_game(excuse=False)
    with pytest.raises(GameOver):
        act(game, 2, "play_on")
    with pytest.raises(GameOver):
        game.timeout()
    assert all(not o.allowed for o in game.legal_actions(1))


# --------------------------------------------------------------------------- snapshot


def test_snapshot_restore_continues_identically_through_a_refill() -> None:
    game = make_game(stacks=[500] * 10, rng=random.Random(11))
    game.start()
    everyone(game, "play_on")
    snap = json.loads(json.dumps(game.snapshot()))
    copy = GutsGame.restore(snap, ranking=ranking())

    def finish(g: GutsGame) -> list[dict[str, Any]]:
        out = []
        for seat in sorted(g.to_act()):
            out += [e.to_json() for e in g.apply(g.default_action(seat))]
        out += [e.to_json() for e in g.apply(Action(3, "lay_down"))]
        out += [e.to_json() for e in g.timeout()]
        return out

    assert finish(game) == finish(copy)
    assert game.stacks == copy.stacks and game.result == copy.result


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("stock", ["Zz"], "stock"),
        ("phase", "betting", "phase"),
        ("stacks", [1, 2], "stacks"),
        ("version", 99, "version"),
        ("rules", {"game": "poker"}, "rules"),
        ("hands", {"1": ["As", "As", "2c", "3c", "4c"], "2": FULL_HOUSE.split()}, "twice"),
        ("hands", {"1": ["2c", "3c", "4c"], "2": FULL_HOUSE.split()}, "5 cards"),
    ],
)
def test_malformed_snapshot_names_the_field(field: str, value: Any, message: str) -> None:
    game = make_game(FLUSH, FULL_HOUSE)
    game.start()
    snap = game.snapshot()
    snap[field] = value
    with pytest.raises(SnapshotError, match=message):
        GutsGame.restore(snap, ranking=ranking())
    del snap[field]
    with pytest.raises(SnapshotError, match=field):
        GutsGame.restore(snap, ranking=ranking())
