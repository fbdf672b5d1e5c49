"""Guts house rules (RULES §1 house rules), hand histories and the computer policy."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.engine.actions import Action
from bot.engine.errors import InvalidConfig, SnapshotError
from bot.engine.guts import GutsGame, GutsRules, GutsSetup
from bot.engine.guts.history import parse_history, to_history
from bot.engine.guts.policy import choose, lay_down_value, win_chance
from bot.engine.hands import guts_ranking
from tests.engine.test_guts_game import FLUSH, FULL_HOUSE, JUNK_A, act, everyone, make_game

# --------------------------------------------------------------------------- house rules


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"max_players": 11}, "max_players: at most 10 players (got 11)"),
        ({"ante": 0}, "ante: at least 1 chip (got 0)"),
        ({"decision_seconds": 5}, "decision_seconds: at least 10 seconds (got 5)"),
        ({"laydown_order": "random"}, "laydown_order: must be one of"),
        ({"min_players": 6, "max_players": 4}, "min_players: cannot be more than max_players"),
        ({"wild_cards": True}, "wild_cards: is not a house rule"),
    ],
)
def test_house_rules_refused_with_field_value_and_reason(values: dict, message: str) -> None:
    with pytest.raises(InvalidConfig, match=message.replace("(", r"\(").replace(")", r"\)")):
        GutsRules.parse(game="zoot", **values)


def test_house_rules_defaults_match_rules_page() -> None:
    rules = GutsRules.parse(game="zoot")
    assert (rules.ante, rules.laydown_order, rules.decision_seconds) == (10, "simultaneous", 45)
    assert not rules.excuse_matcher_ante and rules.laydown_requires_cover
    assert not rules.wheelers_wraparound and (rules.min_players, rules.max_players) == (2, 10)


def test_house_rules_describe_every_rule_with_a_description() -> None:
    zoot = {name: (shown, desc) for name, shown, desc in GutsRules.parse(game="zoot").describe()}
    assert "wheelers_wraparound" not in zoot  # only meaningful for Wheelers (RULES §3.3)
    assert zoot["laydown_requires_cover"][0] == "on" and zoot["ante"][0] == "10 chips"
    assert all(desc for _, desc in zoot.values())
    wheelers = GutsRules.parse(game="wheelers", wheelers_wraparound=True).describe()
    assert ("wheelers_wraparound", "on") in [(n, v) for n, v, _ in wheelers]


def test_rule_3_3_wheelers_table_uses_wraparound_ranking() -> None:
    rules = GutsRules.parse(game="wheelers", wheelers_wraparound=True)
    setup = GutsSetup(seats=(1, 2), stacks={1: 100, 2: 100}, dealer=2)
    game = GutsGame(rules, setup, rng=random.Random(2))
    expected = guts_ranking("wheelers", wraparound=True)
    game.start()
    assert game.ranking.score(game.hand(1)) == expected.score(game.hand(1))


# --------------------------------------------------------------------------- history


def _long_game() -> GutsGame:
    """Ten players, exchanges through a refill, one timeout, then a beaten challenger."""
    game = make_game(stacks=[1000] * 10, rng=random.Random(5), pot={4: 7})
    game.start()
    for _ in range(3):
        everyone(game, "play_on")
        game.timeout()  # the table discards for everyone
    game.apply(Action(2, "lay_down"))
    game.timeout()
    return game


def test_history_round_trip_replays_to_the_same_stacks() -> None:
    game = _long_game()
    text = to_history(game)
    assert "variant = 'ZOOT'" in text and "'d rf " in text and "# timeout'" in text
    replay = parse_history(text)
    assert replay.stacks == game.stacks and replay.result == game.result
    assert replay.log == game.log and to_history(replay) == text


def test_history_of_a_paused_and_resumed_game_replays() -> None:
    game = make_game(FLUSH, FULL_HOUSE, JUNK_A)
    game.start()
    game.timeout()
    game.resume()
    game.timeout()
    act(game, 1, "lay_down")
    game.timeout()
    replay = parse_history(to_history(game))
    assert "d resume" in replay.log and replay.stacks == game.stacks


@pytest.mark.parametrize(
    ("old", "new", "field"),
    [
        ("variant = 'ZOOT'", "variant = 'HOLDEM'", "variant"),
        ("finishing_stacks = [", "finishing_stacks = [1, ", "finishing_stacks"),
        ("'p2 ld'", "'p2 xx'", "actions"),
        ("'p2 ld'", "'p11 ld'", "actions"),
        ("antes = [10, 10", "antes = [5, 10", "antes"),
        ("starting_stacks = [1000", "starting_stacks = [1001", "finishing_stacks"),
        ("actions = [", "actions = 3\nx = [", "actions"),
    ],
)
def test_malformed_history_names_the_field(old: str, new: str, field: str) -> None:
    text = to_history(_long_game())
    assert old in text
    with pytest.raises(SnapshotError, match=field):
        parse_history(text.replace(old, new, 1))


def test_history_with_a_card_that_was_not_dealt_is_refused() -> None:
    game = make_game(FLUSH, FULL_HOUSE)
    game.start()
    act(game, 1, "lay_down")
    act(game, 2, "play_on")
    text = to_history(game).replace("9s8s6s3s2s", "9s8s6s3s3s")
    with pytest.raises(SnapshotError, match="actions"):
        parse_history(text)


# --------------------------------------------------------------------------- policy


def test_policy_win_chance_and_value() -> None:
    assert win_chance(0.5, 0) == 1.0 and win_chance(0.9, 3) == pytest.approx(0.729)
    assert lay_down_value(chance=0.5, pot=100, risk=100) == 0
    assert lay_down_value(chance=0.3, pot=100, risk=10) > 0  # cheap to be wrong: lay down


def test_policy_lays_down_a_royal_flush_and_plays_on_junk() -> None:
    game = make_game("As Ks Qs Js Ts", JUNK_A, FULL_HOUSE)
    game.start()
    rng = random.Random(0)
    assert choose(game, 1, rng).kind == "lay_down"
    assert choose(game, 2, rng).kind == "play_on"


def test_policy_plays_on_when_the_cover_rule_forbids_laying_down() -> None:
    game = make_game("As Ks Qs Js Ts", JUNK_A, stacks=[5, 100], ante=5, pot={2: 50})
    game.start()
    assert choose(game, 1, random.Random(0)).kind == "play_on"


def test_policy_discards_the_rankings_best_discard() -> None:
    game = make_game("9s 8s 6s 3s 2h", JUNK_A)
    game.start()
    everyone(game, "play_on")
    action = choose(game, 1, random.Random(0))
    assert action.kind == "discard" and str(action.card) == "2h"


def test_policy_games_between_computers_finish_and_conserve_chips() -> None:
    rng = random.Random(9)
    for n in (2, 5, 10):
        setup = GutsSetup(seats=tuple(range(n)), stacks=dict.fromkeys(range(n), 500), dealer=0)
        game = GutsGame(GutsRules.parse(game="zoot"), setup, rng=rng)
        game.start()
        for _ in range(500):
            if game.over:
                break
            seat = min(game.to_act())
            game.apply(choose(game, seat, rng))
        assert game.over
        assert sum(game.stacks.values()) + game.pot == 500 * n


def test_rule_1_1_stacked_deck_with_a_repeated_card_is_refused() -> None:
    from bot.engine.cards import CARDS, Deck

    setup = GutsSetup(seats=(1, 2), stacks={1: 100, 2: 100}, dealer=2)
    with pytest.raises(InvalidConfig, match="deck: a card appears twice"):
        GutsGame(GutsRules.parse(game="zoot"), setup, deck=Deck(cards=[CARDS[0], *CARDS[:51]]))


def test_documented_history_example_replays() -> None:
    doc = Path(__file__).resolve().parents[2] / "docs" / "hand-history.md"
    section = doc.read_text().split("## Zoot and Wheelers", 1)[1]
    example = section.split("```toml\n", 1)[1].split("```", 1)[0]
    game = parse_history(example)
    assert game.stacks == {1: 255, 2: 105, 3: 180} and game.pot_ledger == {2: 75}
    assert to_history(game).split("\n", 1)[1] == example
