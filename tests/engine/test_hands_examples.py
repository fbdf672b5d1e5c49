"""Every example of the rule texts (RULES §2.3, §3, §3.4, §4.5, §4.11), names, strengths,
the guts Ranking and its discard choice, and the errors for bad hands."""

from __future__ import annotations

import math
from itertools import combinations

import pytest

from bot.engine.cards import CARDS, parse_cards
from bot.engine.errors import InvalidConfig, InvalidHand
from bot.engine.hands import (
    best_low,
    board_key,
    guts_ranking,
    low_name,
    low_score,
    wheelers_name,
    wheelers_score,
    wheelers_strength,
    wheelers_type,
    zoot_name,
    zoot_score,
    zoot_strength,
)
from bot.engine.hands.wheelers import wheelers_class_counts, wheelers_strength_numerator
from bot.engine.hands.zoot import zoot_class_counts, zoot_strength_numerator


def z(text: str) -> int:
    return zoot_score(parse_cards(text))


def w(text: str, wraparound: bool = False) -> int:
    return wheelers_score(parse_cards(text), wraparound=wraparound)


def low(text: str) -> int:
    return low_score(parse_cards(text))


# ------------------------------------------------------------------ Zoot, RULES §2


def test_rule_2_3_nine_high_flush_beats_kings_full_of_sevens() -> None:
    assert z("9s 8s 6s 3s 2s") > z("Kh Kd Kc 7h 7d")


def test_rule_2_3_any_one_suited_hand_beats_four_of_a_kind() -> None:
    worst_one_suited = min(z(f"7{s} 5{s} 4{s} 3{s} 2{s}") for s in "cdhs")
    assert worst_one_suited > z("Ac Ad Ah As Kc")


def test_rule_2_3_a_flush_always_beats_a_full_house() -> None:
    best_full_house = max(
        zoot_score([*trips, *pair])
        for t, p in ((14, 13), (13, 14), (2, 3))
        for trips in combinations([c for c in CARDS if c.rank == t], 3)
        for pair in combinations([c for c in CARDS if c.rank == p], 2)
    )
    assert z("7h 5h 4h 3h 2h") > best_full_house


def test_rule_2_1_fewer_suits_beat_more_two_suited_high_card_beats_three_suited_full_house() -> (
    None
):
    assert z("9s 7s 5s 3d 2d") > z("Ah Ad Ac Kh Kd")


def test_rule_2_2_same_suits_standard_order_and_wheel_is_five_high() -> None:
    assert z("Ac Ad Ah As 2c") > z("Kc Kd Kh Qs Qc")  # four-suited quads > full house
    assert z("6c 5d 4h 3s 2c") > z("5c 4d 3h 2s Ac")  # 6-high straight > wheel
    assert z("5c 4d 3h 2c Ad") > z("Ac Ad Ah Kc Qd")  # three-suited: wheel > trips
    assert z("As Ks Qs Js Ts") > z("Ks Qs Js Ts 9s")
    assert z("Kc Kd 7h 7s 2c") == z("Kh Ks 7c 7d 2h")  # suits never break ties


def test_rule_2_4_names_say_suits_and_type() -> None:
    assert zoot_name(parse_cards("Qh Js Th 9h 8s")) == "two-suited straight, queen high"
    assert zoot_name(parse_cards("9s 8s 6s 3s 2s")) == "one-suited flush, nine high"
    assert zoot_name(parse_cards("Kh Kd Kc 7h 7d")) == "three-suited full house, kings over sevens"
    assert zoot_name(parse_cards("As Ks Qs Js Ts")) == "one-suited royal flush"
    assert zoot_name(parse_cards("5c 4d 3h 2s Ac")) == "four-suited straight, five high"


# ------------------------------------------------------------------ Wheelers, RULES §3

RULE_3_TABLE = [
    (1, "As 2d 3c 4h 5s", "the Wheel"),
    (2, "9c Td Jh Qs Kc", "five-card straight 9-T-J-Q-K"),
    (3, "5s 6d 7h 8c Kd", "four-card straight 5-6-7-8 and odd card K"),
    (4, "Qd Kh Ac 2s 3d", "three-card straight Q-K-A and two-card straight 2-3"),
    (5, "7d 8h 9c 2s Kd", "three-card straight 7-8-9 and odd cards K, 2"),
    (6, "4s 5d 9h Tc Kd", "two-card straight 9-T and two-card straight 4-5 and odd card K"),
    (7, "4s 5d 9h Jc Kd", "two-card straight 4-5 and odd cards K, J, 9"),
    (8, "2s 4d 6h 9c Jd", "high card J-9-6-4-2"),
]


@pytest.mark.parametrize(
    ("rank", "text", "name"), RULE_3_TABLE, ids=[str(r[0]) for r in RULE_3_TABLE]
)
def test_rule_3_table_example_has_its_rank(rank: int, text: str, name: str) -> None:
    assert wheelers_type(parse_cards(text)) == rank
    assert wheelers_name(parse_cards(text)) == name


def test_rule_3_table_examples_are_in_order() -> None:
    scores = [w(text) for _, text, _ in RULE_3_TABLE]
    assert scores == sorted(scores, reverse=True)


def test_rule_3_1_seven_seven_eight_eight_nine_is_rank_4() -> None:
    hand = parse_cards("7s 7d 8h 8c 9d")
    assert wheelers_type(hand) == 4
    assert wheelers_name(hand) == "three-card straight 7-8-9 and two-card straight 7-8"


def test_rule_3_2_ace_high_or_low_one_role_odd_ace_high() -> None:
    assert wheelers_type(parse_cards("Qs Kd Ah 5c 8d")) == 5  # A-K-Q
    assert wheelers_type(parse_cards("As 2d 3h 8c Td")) == 5  # A-2-3
    assert w("Qs Kd Ah 5c 8d") > w("As 2d 3h 8c Td")  # tops A over 3
    # One ace plays one role: K-A and A-2 cannot both use it.
    assert wheelers_type(parse_cards("Ks Ad 2h 7c 9d")) == 7
    assert (
        wheelers_name(parse_cards("Ks Ad 2h 7c 9d"))
        == "two-card straight K-A and odd cards 9, 7, 2"
    )
    # An odd ace counts high: 4-5 with A beats 4-5 with K.
    assert w("4s 5d Ah 9c Jd") > w("4s 5d Kh 9c Jd")


def test_rule_3_3_turning_the_corner_off_by_default() -> None:
    hand = parse_cards("Ks Ad 2h 7c 9d")
    assert wheelers_type(hand) == 7
    assert wheelers_type(hand, wraparound=True) == 5
    assert wheelers_name(hand, wraparound=True) == "three-card straight K-A-2 and odd cards 9, 7"


def test_rule_3_3_corner_straight_tops_at_two_and_wheel_stays() -> None:
    # K-A-2 is "two high": below A-2-3 (three high).
    assert w("Ks Ad 2h 7c 9d", True) < w("As 2d 3h 7c 9d", True)
    assert wheelers_type(parse_cards("As 2d 3c 4h 5s"), wraparound=True) == 1
    assert wheelers_name(parse_cards("Jd Qs Kc Ah 2s"), wraparound=True) == (
        "five-card straight J-Q-K-A-2"
    )
    assert w("Jd Qs Kc Ah 2s", True) < w("2d 3s 4c 5h 6s", True)


def test_rule_3_4_highest_straight_card_then_highest_outside() -> None:
    assert w("7d 8h 9c 2s Kd") > w("6d 7h 8c As Jd")  # 9-high beats 8-high three-straight
    assert w("7d 8h 9c 3s Kd") > w("7s 8d 9h 2c Kh")  # same straight: K-3 over K-2
    assert w("7d 8h 9c 2s Kd") == w("7s 8d 9h 2c Kh")  # suits never break ties


def test_rule_3_4_rank_4_three_card_straights_first_then_two_card() -> None:
    assert w("Qd Kh Ac 2s 3d") > w("Jd Qh Kc 5s 6d")  # Q-K-A beats J-Q-K, despite 5-6 > 2-3
    assert w("9d Th Jc 5s 6d") > w("9s Td Jh 2c 3s")


def test_rule_3_4_rank_6_higher_straights_then_lower_then_odd_card() -> None:
    assert wheelers_type(parse_cards("Js Qd 2h 3c 8d")) == 6
    assert w("Js Qd 2h 3c 8d") > w("Ts Jd 5h 6c 8d")  # Q-high vs J-high straights
    assert w("Ts Jd 5h 6c 8d") > w("Ts Jd 4h 5c 8d")  # then the lower straights
    assert w("Ts Jd 4h 5c Kd") > w("Ts Jd 4h 5c 8d")  # then the odd card


def test_rule_3_4_rank_8_high_to_low_and_two_wheels_tie() -> None:
    assert w("2s 4d 6h 9c Kd") > w("2s 4d 6h 9c Qd")
    assert w("3s 5d 7h 9c Jd") > w("2s 5d 7h 9c Jd")
    assert w("As 2d 3c 4h 5s") == w("Ah 2c 3d 4s 5c")


# ------------------------------------------------------------------ strength


def test_strength_extremes_royal_flush_and_wheel_near_one() -> None:
    royal = zoot_strength(parse_cards("As Ks Qs Js Ts"))
    assert royal == (2 * 2598960 - 4) / (2 * 2598960)  # beats all but the other 3, ties itself
    assert wheelers_strength(parse_cards("As 2d 3c 4h 5s")) == (2 * 2598960 - 1024) / (2 * 2598960)
    # The worst Zoot hand: four-suited 7-5-4-3-2 ties only hands of its own class.
    worst = zoot_strength(parse_cards("7c 5d 4h 3s 2c"))
    assert worst == zoot_class_counts()[0] / (2 * 2598960)


@pytest.mark.parametrize("game", ["zoot", "wheelers", "wheelers_wrap"])
def test_strength_classes_average_one_half_and_rise_with_score(game: str) -> None:
    if game == "zoot":
        counts, numer = zoot_class_counts(), zoot_strength_numerator
    else:
        wrap = game == "wheelers_wrap"
        counts = wheelers_class_counts(wraparound=wrap)
        numer = lambda s: wheelers_strength_numerator(s, wraparound=wrap)  # noqa: E731
    total = sum(counts)
    assert total == 2598960
    # sum over hands of (below + ties/2) = total**2 / 2 exactly, i.e. mean strength 1/2.
    assert sum(n * numer(s) for s, n in enumerate(counts)) == total * total
    values = [numer(s) for s in range(len(counts))]
    assert values == sorted(values) and len(set(values)) == len(values)


# ------------------------------------------------------------------ Ranking and discards


def test_guts_ranking_unknown_game_is_invalid_config() -> None:
    with pytest.raises(InvalidConfig, match="razz"):
        guts_ranking("razz")


def test_rule_1_5_best_discard_keeps_the_best_hand() -> None:
    zoot = guts_ranking("zoot")
    assert str(zoot.best_discard(parse_cards("As Ks Qs Js 2d"))) == "2d"  # keep one suit
    wheelers = guts_ranking("wheelers")
    assert str(wheelers.best_discard(parse_cards("As 2d 3c 4h 9s"))) == "9s"
    assert str(wheelers.best_discard(parse_cards("9c Td Jh Qs 2c"))) == "2c"
    wrap = guts_ranking("wheelers", wraparound=True)
    assert wrap.score(parse_cards("Ks Ad 2h 7c 9d")) == w("Ks Ad 2h 7c 9d", True)


def _expected_discard(game: str, hand: list, pool: list) -> str:
    """Direct reading of the documented rule: the highest mean strength over the pool,
    ties to the lowest card (rank, then suit)."""
    ranking = guts_ranking(game)
    means = {}
    for card in hand:
        rest = [c for c in hand if c != card]
        means[card] = math.fsum(ranking.strength([*rest, new]) for new in pool) / len(pool)
    top = max(means.values())
    return str(min(c for c, m in means.items() if m == top))


@pytest.mark.parametrize("game", ["zoot", "wheelers"])
@pytest.mark.parametrize("text", ["2c 2d 9c 9d Kh", "As Kd 8h 5c 2s", "7h 7s 7c 8d 9d"])
def test_rule_1_5_best_discard_matches_mean_strength_ties_to_lowest_card(
    game: str, text: str
) -> None:
    hand = parse_cards(text)
    pool = [c for c in CARDS if c not in hand]
    assert str(guts_ranking(game).best_discard(hand)) == _expected_discard(game, hand, pool)


def test_rule_1_5_best_discard_symmetric_cards_tie_to_lowest() -> None:
    # Throwing 9c or 9d (or 2c or 2d) leaves the same ranks: a tie broken to the lower card.
    choice = guts_ranking("wheelers").best_discard(parse_cards("2c 2d 9c 9d Kh"))
    assert str(choice) in {"2c", "9c"}


def test_rule_1_5_best_discard_unseen_limits_the_replacements() -> None:
    zoot = guts_ranking("zoot")
    hand = parse_cards("As Ks Qs 5d 2c")
    unseen = parse_cards("Js 4d 3d 2d")
    assert str(zoot.best_discard(hand, unseen=unseen)) == _expected_discard("zoot", hand, unseen)
    with pytest.raises(InvalidHand):
        zoot.best_discard(hand, unseen=hand)


def test_wrong_card_count_is_invalid_hand_with_message() -> None:
    with pytest.raises(InvalidHand, match="Zoot hands have exactly 5 cards, got 4"):
        zoot_score(parse_cards("As Kd 2c 3c"))
    with pytest.raises(InvalidHand, match="Wheelers hands have exactly 5 cards, got 6"):
        wheelers_score(parse_cards("As Kd 2c 3c 4c 5c"))
    with pytest.raises(InvalidHand, match="Razz hands have 5 to 7 cards, got 8"):
        low_score(parse_cards("As Kd 2c 3c 4c 5c 6c 7c"))
    with pytest.raises(InvalidHand, match="appears twice"):
        low_score([CARDS[0]] * 5)
    with pytest.raises(InvalidHand, match="1 to 4 up cards"):
        board_key([])


# ------------------------------------------------------------------ Razz, RULES §4


@pytest.mark.parametrize(
    ("better", "worse"),
    [
        ("4s 5h 7c 9d Td Js Qh", "3s 3d 5s 6h 6s 8h Kd"),
        ("Ah 2h 3h 4h 5h", "Ac 2s 3d 5s 7d"),
        ("2d 3c 6h 8s Jh", "As 2s 3d 4s Qd"),
        ("4h 5c 6s 7s 8s", "3h 5h 6d 7c 9c"),
    ],
    ids=["seven_cards", "flush_ignored", "high_card_first", "straight_ignored"],
)
def test_rule_4_11_source_examples(better: str, worse: str) -> None:
    assert low(better) > low(worse)


def test_rule_4_11_fifth_street_2_4_6_8_T_beats_A_3_3_5_T() -> None:
    assert low("2c 4d 6h 8s Tc") > low("Ac 3d 3h 5s Td")


def test_rule_4_1_best_five_of_seven_and_names() -> None:
    hand = parse_cards("Kc 8d 6h 4s 2c Ad Qh")
    assert [str(c) for c in best_low(hand)] == ["8d", "6h", "4s", "2c", "Ad"]
    assert low_name(hand) == "8-6-4-2-A"
    paired = parse_cards("Ac Ad 2c 2d 3c 3d 4c")
    assert low_name(paired) == "4-3-2-A-A (pair of aces)"
    assert low("As 2d 3c 4h 5s 9c 9d") == low("Ac 2s 3d 4c 5h")  # extra cards unused


def test_rule_4_5_unpaired_board_acts_before_paired_board() -> None:
    assert board_key(parse_cards("6s 7d 8h 9c")) < board_key(parse_cards("3s 4d 5h 5c"))
    assert board_key(parse_cards("2s 4d 6h 8c")) < board_key(parse_cards("As 3d 5h 9c"))
    assert board_key(parse_cards("Ks")) > board_key(parse_cards("Ah"))  # ace low
    assert board_key(parse_cards("7s 2d")) == board_key(parse_cards("2h 7c"))  # suits never


def test_rule_4_5_paired_boards_lowest_pair_first_2_2_k_q_before_3_3_4_5() -> None:
    assert board_key(parse_cards("2s 2d Kh Qc")) < board_key(parse_cards("3s 3d 4h 5c"))
    # then the other cards from the highest down
    assert board_key(parse_cards("2s 2d Qh Jc")) < board_key(parse_cards("2h 2c Kh 3c"))
    # one pair before two pair
    assert board_key(parse_cards("Ks Kd Qh Jc")) < board_key(parse_cards("As Ad 2h 2c"))


def test_rule_4_5_paired_boards_compare_pairs_first_lowest_pair_best_as_pokerkit() -> None:
    from pokerkit.state import _LowHandOpeningLookup  # the FixedLimitRazz opener order

    lookup = _LowHandOpeningLookup()
    import random

    rng = random.Random(45)
    for _ in range(3000):
        n = rng.randint(1, 4)
        a, b = rng.sample(CARDS, n), rng.sample(CARDS, n)
        pa = lookup.get_entry("".join(str(c) for c in a))
        pb = lookup.get_entry("".join(str(c) for c in b))
        ka, kb = board_key(a), board_key(b)
        assert (ka < kb) == (pa < pb) and (ka == kb) == (pa == pb), (a, b)
