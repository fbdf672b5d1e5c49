"""Where the rule texts are silent (issue 12, item 14): what the engines do, pinned.

docs/rules.md states each of these (the "where the texts are silent" notes of §1.5, §1.11
and §4.4) and ``/rules`` shows them; each test here is named after the behaviour stated."""

from __future__ import annotations

from bot.engine.actions import Action
from bot.engine.guts import next_game
from tests.engine.test_guts_game import FLUSH, FULL_HOUSE, JUNK_A, act, everyone, kinds, make_game
from tests.engine.test_razz_rules import make, opts


def test_issue12_item14_sole_live_hand_after_the_exchange_ante_takes_the_pot_unshown() -> None:
    """§1.5: only one live hand left after the others could not pay the exchange's ante: it
    takes the whole pot, no showdown, nobody shows a card, nobody matches."""
    game = make_game(FLUSH, FULL_HOUSE, JUNK_A, stacks=[100, 12, 15], ante=10)
    game.start()
    events = everyone(game, "play_on")
    assert game.over and game.live == (1,)
    result = game.result
    assert result.winners == (1,) and result.challenger is None and result.matched == 0
    assert result.hands == {} and "showdown" not in kinds(events)
    assert game.pot == 0 and game.stacks == {1: 100 - 20 + 40, 2: 2, 3: 5}


def test_issue12_item14_no_live_hand_after_the_exchange_ante_the_pot_carries() -> None:
    """§1.5: nobody can pay the exchange's ante: nobody wins, the pot stands and carries
    into the next game, each chip still owed to whoever paid it in (§1.10)."""
    game = make_game(FLUSH, FULL_HOUSE, stacks=[15, 12], ante=10)
    game.start()
    everyone(game, "play_on")
    assert game.over and game.live == () and game.result.winners == ()
    assert game.pot == 20 and game.pot_ledger == {1: 10, 2: 10}
    assert game.result.carried_pot == {1: 10, 2: 10}
    assert next_game(game).setup.pot == {1: 10, 2: 10}


def test_issue12_item14_a_timed_out_discard_counts_toward_away() -> None:
    """§1.11: the discard is a window like the lay-down choice: a player who chose in the
    lay-down window, then let the discard and the next lay-down window run out, has let
    two windows in a row run out and is away from the next game."""
    game = make_game(FLUSH, FULL_HOUSE, JUNK_A, stacks=[100] * 3)
    game.start()
    everyone(game, "play_on")  # seat 2 chose: its count starts again from 0
    assert game.idle[2] == 0
    act(game, 1, "discard", "2s")
    act(game, 3, "discard", "3h")
    game.timeout()  # seat 2's discard made for it (the card that keeps the best hand)
    assert game.idle[2] == 1
    act(game, 1, "lay_down")
    act(game, 3, "play_on")
    game.timeout()  # seat 2's lay-down window: the second in a row
    assert game.over and game.idle[2] == 2
    assert next_game(game).newly_away == {2}


def test_issue12_item14_all_in_highest_up_card_passes_the_bring_in_clockwise() -> None:
    """§4.4: the highest up card (seat 2's K♦) is all-in from the ante: the bring-in passes
    to the next player clockwise with chips (seat 3's 5♦), not to the next-highest up card
    (seat 4's Q♦); the all-in player stays in for the main pot."""
    hand = make([100, 2, 100, 100], [["2c3c 4d", "4c5c Kd", "6c7c 5d", "8c9c Qd"]])
    assert hand.to_act() == {3}
    o = opts(hand)
    assert o["bring_in"].allowed and not o["fold"].allowed
    hand.apply(Action(3, "bring_in"))
    assert hand.to_act() == {4}
    assert hand.stacks[1] == 0 and not hand.folded[1]
