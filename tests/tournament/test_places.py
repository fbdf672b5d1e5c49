"""Issue 20 item 4 (places): finishing places follow the bust order; players busted in
the same hand are placed by the chips they started it with (TDA), then share; each
re-entry is an entry, a player's result their best."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournament.places import (
    Elimination,
    Finish,
    best_finishes,
    final_places,
    place_eliminations,
)


def test_places_follow_the_bust_order() -> None:
    elim = [Elimination(4, 1, 500), Elimination(2, 2, 800), Elimination(3, 3, 100)]
    out = final_places([1, 2, 3, 4], elim)
    assert [(f.entry, f.place) for f in out] == [(1, 1), (3, 2), (2, 3), (4, 4)]


def test_tda_players_busted_in_the_same_hand_placed_by_the_chips_they_started_it_with() -> None:
    """Three busted in one hand of a 9-player field: the one who began with 2,000 is 7th,
    1,500 8th, 400 9th -- whatever their seats."""
    elim = [Elimination(5, 1, 400), Elimination(6, 1, 2000), Elimination(7, 1, 1500)]
    out = {f.entry: f.label for f in place_eliminations(9, elim)}
    assert out == {6: "7th", 7: "8th", 5: "9th"}


def test_equal_starting_chips_in_the_same_hand_share_the_places() -> None:
    elim = [Elimination(1, 1, 700), Elimination(2, 1, 900), Elimination(3, 1, 700)]
    out = {f.entry: (f.place, f.shared) for f in place_eliminations(6, elim)}
    assert out == {2: (4, 1), 1: (5, 2), 3: (5, 2)}
    assert [f.entry for f in place_eliminations(6, elim) if f.shared == 2] == [1, 3]  # seats


def test_hand_for_hand_busts_at_two_tables_count_as_one_hand() -> None:
    """During hand-for-hand the director gives one round of hands one order (TDA)."""
    elim = [Elimination(8, 3, 1200), Elimination(9, 3, 3000)]
    assert {f.entry: f.place for f in place_eliminations(10, elim)} == {9: 9, 8: 10}


def test_each_re_entry_is_an_entry_and_a_player_is_placed_by_the_best() -> None:
    owner = {1: 100, 2: 200, 3: 300, 4: 100}  # player 100 entered twice (1, then 4)
    elim = [Elimination(1, 1, 1000), Elimination(3, 2, 1000), Elimination(2, 3, 50)]
    out = final_places([1, 2, 3, 4], elim)
    assert [f.place for f in out] == [1, 2, 3, 4]  # the field is the entries
    best = best_finishes(out, owner)
    assert best[100] == Finish(4, 1) and best[300].place == 3 and best[200].place == 2


def test_the_end_needs_exactly_one_entry_left() -> None:
    with pytest.raises(ValueError):
        final_places([1, 2, 3], [Elimination(1, 1, 10)])
    with pytest.raises(ValueError):
        place_eliminations(3, [Elimination(1, 1, 10), Elimination(1, 2, 10)])


@settings(max_examples=300, deadline=None)
@given(hands=st.lists(st.lists(st.integers(1, 5), min_size=1, max_size=4), min_size=1, max_size=25))
def test_every_place_is_given_once_and_ties_cover_their_places(hands: list[list[int]]) -> None:
    elim: list[Elimination] = []
    number = 1
    for order, stacks in enumerate(hands, 1):
        for stack in stacks:
            elim.append(Elimination(number, order, stack))
            number += 1
    field = number  # one more entry, the winner
    out = final_places(list(range(1, field + 1)), elim)
    covered = sorted(p for f in out for p in range(f.place, f.last_place + 1) if f.shared == 1)
    shared = {(f.place, f.shared) for f in out if f.shared > 1}
    for place, size in shared:
        covered += list(range(place, place + size))
        assert sum(1 for f in out if (f.place, f.shared) == (place, size)) == size
    assert sorted(covered) == list(range(1, field + 1))
    # an earlier hand never places better than a later one
    by_entry = {f.entry: f for f in out}
    for a in elim:
        for b in elim:
            if a.order < b.order:
                assert by_entry[a.entry].place > by_entry[b.entry].last_place
