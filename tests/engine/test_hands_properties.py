"""Hypothesis properties of the three evaluators: the order agrees with the references,
permuting cards changes nothing, and suits never break ties (relabelling suits by any
permutation keeps the score) — RULES "Suits never break ties in any showdown"."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine.cards import CARDS, Card, make_card
from bot.engine.hands import low_score, wheelers_score, zoot_score
from tests.engine.test_hands_reference import wheelers_reference, zoot_reference

Score = Callable[[Sequence[Card]], int]


def _wrap(cards: Sequence[Card]) -> int:
    return wheelers_score(cards, wraparound=True)


EVALUATORS: dict[str, tuple[Score, int, int]] = {
    "zoot": (zoot_score, 5, 5),
    "wheelers": (wheelers_score, 5, 5),
    "wheelers_wrap": (_wrap, 5, 5),
    "low": (low_score, 5, 7),
}

cards_st = st.lists(st.sampled_from(CARDS), min_size=7, max_size=7, unique=True)
games = st.sampled_from(sorted(EVALUATORS))


def _hand(game: str, cards: list[Card], n: int) -> list[Card]:
    _, lo, hi = EVALUATORS[game]
    return cards[: max(lo, min(hi, n))]


@settings(max_examples=300, deadline=None)
@given(game=games, cards=cards_st, n=st.integers(5, 7), data=st.data())
def test_permuting_cards_changes_nothing(game: str, cards: list[Card], n: int, data) -> None:
    score = EVALUATORS[game][0]
    hand = _hand(game, cards, n)
    shuffled = data.draw(st.permutations(hand))
    assert score(shuffled) == score(hand)


@settings(max_examples=300, deadline=None)
@given(game=games, cards=cards_st, n=st.integers(5, 7), perm=st.permutations(range(4)))
def test_suits_never_break_ties_relabelled_suits_same_score(
    game: str, cards: list[Card], n: int, perm: list[int]
) -> None:
    score = EVALUATORS[game][0]
    hand = _hand(game, cards, n)
    relabelled = [make_card(c.rank, perm[c.suit]) for c in hand]
    assert score(relabelled) == score(hand)


@settings(max_examples=300, deadline=None)
@given(hands=st.lists(cards_st, min_size=3, max_size=3), wrap=st.booleans())
def test_order_total_and_transitive_matches_reference(hands: list[list[Card]], wrap: bool) -> None:
    fives = [h[:5] for h in hands]
    for fast, ref in (
        (zoot_score, zoot_reference),
        (
            lambda h: wheelers_score(h, wraparound=wrap),
            lambda h: wheelers_reference(h, wraparound=wrap),
        ),
    ):
        scores = [fast(h) for h in fives]
        keys = [ref(h) for h in fives]
        for i in range(3):
            for j in range(3):
                assert (scores[i] < scores[j]) == (keys[i] < keys[j])
                assert (scores[i] == scores[j]) == (keys[i] == keys[j])
        a, b, c = sorted(range(3), key=lambda i: scores[i])
        assert keys[a] <= keys[b] <= keys[c]


@settings(max_examples=300, deadline=None)
@given(hands=st.lists(cards_st, min_size=3, max_size=3))
def test_low_order_transitive_and_seventh_card_never_hurts(hands: list[list[Card]]) -> None:
    s = [low_score(h) for h in hands]
    a, b, c = sorted(range(3), key=lambda i: s[i])
    assert s[a] <= s[b] <= s[c]
    for h in hands:
        # More cards to choose from can only keep or lower (= improve) the hand.
        assert low_score(h[:5]) <= low_score(h[:6]) <= low_score(h)
