"""Defect (issue 12, item 11): after a game won without a showdown (the others dropped out
because they could not pay the exchange ante), the next game was paused "a whole round
passed with no player acting" although everyone had played on: the exchange's ante reset
the round's "acted" mark before the game ended. RULES 1.11 pauses only when nobody acted.
"""

from __future__ import annotations

import random

from bot.engine.actions import Action
from bot.engine.cards import CARDS, Deck
from bot.engine.guts import GutsGame, GutsRules, GutsSetup, next_game
from bot.tables.guts import GutsFamily

IDLE = "a whole round passed with no player acting"


def short_stacked_game() -> GutsGame:
    """Seats 1-3, ante 10: seats 2 and 3 hold only the first ante."""
    rules = GutsRules(game="zoot", ante=10)
    setup = GutsSetup(seats=(1, 2, 3), stacks={1: 100, 2: 10, 3: 10}, dealer=3)
    game = GutsGame(rules, setup, rng=random.Random(1), deck=Deck(cards=list(CARDS)))
    game.start()
    return game


def test_rule_1_11_a_game_won_uncontested_after_everyone_played_on_does_not_pause() -> None:
    game = short_stacked_game()
    events = []
    for seat in (1, 2, 3):
        events += game.apply(Action(seat, "play_on"))  # everyone acts: nobody lays down
    kinds = [e.kind for e in events]
    assert kinds.count("out") == 2 and "award" in kinds and game.over
    assert game.result.winners == (1,) and game.result.awards == {1: 40}  # 3 antes and her second
    assert game.last_round_acted
    nxt = next_game(game)
    assert nxt.pause_reason != IDLE  # (seats 2 and 3 have no chips left: not enough players)


def test_rule_1_11_table_is_not_paused_after_a_game_won_uncontested() -> None:
    fam = GutsFamily(GutsRules(game="zoot", ante=10))
    fam.start_hand({1: 100, 2: 10, 3: 10}, frozenset(), random.Random(2))
    for seat in (1, 2, 3):
        fam.apply(Action(seat, "play_on"))
    assert fam.hand_over
    assert fam.finish(lambda s: f"seat {s}").pause_reason is None


def test_rule_1_11_still_pauses_when_nobody_acted_in_a_round() -> None:
    game = short_stacked_game()
    game.timeout()  # every seat's window ran out: nobody acted
    assert game.paused and not game.last_round_acted
