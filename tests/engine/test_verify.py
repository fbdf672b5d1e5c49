"""``python -m bot verify``'s checker (issue 18 item 10): hands dealt by our engines from a
seed's deck verify; a changed card, seed or commitment is refused naming what does not
match; a file that cannot be checked says why (:class:`Unverifiable`). Covers the three
history formats: Hold'em/Omaha PHH, stud PHH (with the rules §4.8 community card) and the
Zoot/Wheelers history with its reshuffles."""

from __future__ import annotations

import re
import tomllib

import pytest

from bot.engine.actions import Action
from bot.engine.flop import FlopHand, FlopRules
from bot.engine.flop.phh import hand_to_phh as flop_phh
from bot.engine.flop.phh import replay_flop_phh_text
from bot.engine.guts import GutsGame, GutsRules, GutsSetup
from bot.engine.guts.history import parse_history, to_history
from bot.engine.shuffle import SeededShuffle, commitment, reshuffle, seed_deck
from bot.engine.stud.games import StudHighHand
from bot.engine.stud.phh_write import hand_to_phh as stud_phh
from bot.engine.stud.rules import StudRules
from bot.engine.verify import Unverifiable, verify_text, with_shuffle_fields

SEED = "0123456789abcdef" * 4
OTHER = "fedcba9876543210" * 4
PASSIVE = ("bring_in", "check", "call")


def published(history: str, seed: str = SEED) -> str:
    return with_shuffle_fields(history, commitment=commitment(seed), seed=seed)


def passive(hand: FlopHand | StudHighHand) -> None:
    """Everyone checks or calls (or brings in) until the hand is over."""
    while not hand.is_over:
        seat = min(hand.to_act())
        kind = next(o.kind for o in hand.legal_actions(seat) if o.allowed and o.kind in PASSIVE)
        hand.apply(Action(seat, kind))


def holdem(seed: str = SEED, players: int = 4) -> str:
    hand = FlopHand(
        FlopRules(),
        [(s, 1000) for s in range(1, players + 1)],
        dealer=players,
        deck=seed_deck(seed),
    )
    hand.start()
    passive(hand)
    return published(flop_phh(hand), seed)


def stud(seed: str = SEED, players: int = 8, *, fold: bool = False) -> str:
    """A passive stud hand; with ``fold``, the first to act on 6th street bets and the next
    player folds to the bet (so 7th street has one player fewer)."""
    rules = StudRules(ante=1, bring_in=2, small_bet=4, big_bet=8)
    hand = StudHighHand(
        rules, [(s, 1000) for s in range(1, players + 1)], players, deck=seed_deck(seed)
    )
    hand.start()
    while fold and not hand.is_over:
        seat = min(hand.to_act())
        opts = {o.kind: o for o in hand.legal_actions(seat) if o.allowed}
        if hand.street == 6 and "bet" in opts:
            hand.apply(Action(seat, "bet", amount=opts["bet"].to))
        elif hand.street == 6 and "fold" in opts:
            hand.apply(Action(seat, "fold"))
            break
        else:
            hand.apply(Action(seat, next(k for k in PASSIVE if k in opts)))
    passive(hand)
    return published(stud_phh(hand), seed)


def zoot(seed: str = SEED) -> str:
    """Ten players, two exchanges: both refill the stock with a reshuffle of the discards;
    then p1 lays down and the game ends."""
    seats = tuple(range(1, 11))
    setup = GutsSetup(seats=seats, stacks=dict.fromkeys(seats, 500), dealer=10)
    game = GutsGame(GutsRules(game="zoot", ante=5), setup, rng=SeededShuffle(seed))
    game.start()
    for _ in range(2):
        for s in sorted(game.to_act()):
            game.apply(Action(s, "play_on"))
        for s in sorted(game.to_act()):
            game.apply(Action(s, "discard", card=game.hand(s)[0]))
    first = True
    while not game.over:
        for s in sorted(game.to_act()):
            game.apply(Action(s, "lay_down" if first else "play_on"))
            first = False
    return published(to_history(game), seed)


def actions(text: str) -> list[str]:
    return list(tomllib.loads(text)["actions"])


def replace_action(text: str, index: int, new: str) -> str:
    old = actions(text)[index]
    assert text.count(f"'{old}'") == 1
    return text.replace(f"'{old}'", f"'{new}'")


def swap_first_card(text: str, pattern: str) -> tuple[str, int]:
    """Change the first card of the first action matching ``pattern`` to another card;
    returns the text and the action's number (1-based)."""
    acts = actions(text)
    used = set(re.findall(r"[2-9TJQKA][cdhs]", " ".join(acts)))
    i = next(k for k, a in enumerate(acts) if re.match(pattern, a))
    words = acts[i].split()
    every = [r + s for r in "AKQJT98765432" for s in "shdc"]
    # a card the hand never dealt (a Zoot game of ten deals them all: then any other one)
    other = next((c for c in every if c not in used), None) or next(
        c for c in every if c != words[-1][:2]
    )
    words[-1] = other + words[-1][2:]
    return replace_action(text, i, " ".join(words)), i + 1


# ----------------------------------------------------------------------------- matches


@pytest.mark.parametrize("make", [holdem, stud, zoot], ids=["holdem", "stud", "zoot"])
def test_a_history_dealt_from_its_seed_matches(make) -> None:  # type: ignore[no-untyped-def]
    verdict = verify_text(make())
    assert verdict.matches, verdict.problem
    assert verdict.sentence().startswith("matches: the SHA-256 of the seed is the commitment")
    assert verdict.seed == SEED and verdict.commitment == commitment(SEED)
    assert verdict.cards >= 9


def test_zoot_history_verifies_both_reshuffles_and_still_replays() -> None:
    text = zoot()
    verdict = verify_text(text)
    assert verdict.matches and verdict.reshuffles == 2, verdict
    assert "(2 reshuffles included)" in verdict.sentence()
    parse_history(text)  # the guts reader ignores the shuffle fields


def test_stud_community_card_written_as_a_board_card_verifies() -> None:
    """Eight players to 7th street: 4 cards left for 8 players, one community card (rules
    §4.8); nobody folded, so it is written as pokerkit's board card (``d db``)."""
    text = stud()
    assert re.search(r"'d db [2-9TJQKA][cdhs]'", text)
    assert verify_text(text).matches


def test_stud_community_card_dealt_to_each_player_verifies() -> None:
    """A player folds on 6th street: 4 cards left for 7 players, one community card written
    as the same card dealt to each of the seven; it is one card of the deck."""
    text = stud(fold=True)
    acts = actions(text)
    seventh = [a for a in acts if re.fullmatch(r"d dh p\d+ [2-9TJQKA][cdhs]", a)][-7:]
    assert len({a.split()[-1] for a in seventh}) == 1, seventh
    assert verify_text(text).matches
    # the same shape earlier, when the deck could still give everyone a card, is refused
    fourth = [i for i, a in enumerate(acts) if re.fullmatch(r"d dh p\d+ [2-9TJQKA][cdhs]", a)]
    card = acts[fourth[0]].split()[-1]
    forged = replace_action(text, fourth[1], f"{acts[fourth[1]][:-2]}{card}")
    verdict = verify_text(forged)
    assert not verdict.matches and "the deck still holds" in (verdict.problem or "")


def test_hidden_cards_are_skipped_a_redacted_copy_still_matches() -> None:
    text = holdem()
    first = actions(text)[0]
    hidden = replace_action(text, 0, first[: first.rfind(" ") + 1] + "????")
    verdict = verify_text(hidden)
    assert verdict.matches and verdict.cards == verify_text(text).cards - 2


# ----------------------------------------------------------------------------- refused


@pytest.mark.parametrize(
    ("make", "pattern"),
    [
        (holdem, r"d dh"),  # a hole card
        (holdem, r"d db"),  # a board card
        (stud, r"d dh p\d+ \S{2}$"),  # a 4th-street card
        (zoot, r"d dh p\d+ \S{2}$"),  # an exchange's replacement
    ],
)
def test_a_changed_dealt_card_is_refused_naming_the_action(make, pattern) -> None:  # type: ignore[no-untyped-def]
    forged, number = swap_first_card(make(), pattern)
    verdict = verify_text(forged)
    assert not verdict.matches
    assert verdict.problem is not None and verdict.problem.startswith(f"action {number} ")
    assert "the seed's deck deals" in verdict.problem and "the file shows" in verdict.problem
    assert verdict.sentence().startswith("does not match: action")


def test_a_changed_shown_card_is_refused() -> None:
    text = holdem()
    acts = actions(text)
    i = next(k for k, a in enumerate(acts) if " sm " in a)
    player, _, cards = acts[i].split()
    board = "".join(a.split()[-1] for a in acts if a.startswith("d db"))
    other = next(a.split()[-1] for a in acts if a.startswith("d dh") and a.split()[2] != player)
    for card in (board[:2], other[:2]):  # a board card, another player's card
        verdict = verify_text(replace_action(text, i, f"{player} sm {card}{cards[2:]}"))
        assert not verdict.matches
        assert f"{player} shows {card}, which the deck did not deal to them" in str(verdict.problem)


def test_a_changed_reshuffle_is_refused() -> None:
    text = zoot()
    acts = actions(text)
    i = next(k for k, a in enumerate(acts) if a.startswith("d rf"))
    cards = acts[i].split()[2]
    swapped = cards[2:4] + cards[:2] + cards[4:]
    verdict = verify_text(replace_action(text, i, f"d rf {swapped}"))
    assert not verdict.matches and "the seed reshuffles the discards as" in str(verdict.problem)
    # the right order of the wrong cards: not the discards
    sd = next(k for k, a in enumerate(acts) if " sd " in a)
    player, _, card = acts[sd].split()
    held = next(
        a.split()[3] for a in acts if a.startswith(f"d dh {player} ") and len(a.split()[3]) == 10
    )
    other = next(held[k : k + 2] for k in range(0, 10, 2) if held[k : k + 2] != card)
    verdict = verify_text(replace_action(text, sd, f"{player} sd {other}"))
    assert not verdict.matches and "not the discards" in str(verdict.problem)


def test_a_discard_of_a_card_not_held_is_refused() -> None:
    text = zoot()
    acts = actions(text)
    sd = next(k for k, a in enumerate(acts) if " sd " in a)
    player = acts[sd].split()[0]
    elsewhere = next(
        a.split()[3][:2] for a in acts if a.startswith("d dh ") and a.split()[2] != player
    )
    verdict = verify_text(replace_action(text, sd, f"{player} sd {elsewhere}"))
    assert not verdict.matches and f"{player} discards {elsewhere}" in str(verdict.problem)


def test_a_changed_seed_or_commitment_is_refused() -> None:
    text = holdem()
    for forged in (
        text.replace(f"_seed = '{SEED}'", f"_seed = '{OTHER}'"),
        text.replace(commitment(SEED), commitment(OTHER)),
    ):
        verdict = verify_text(forged)
        assert not verdict.matches
        assert "the seed or the commitment was changed" in str(verdict.problem)
    # both changed together: the commitment holds, but the deck is another one
    verdict = verify_text(
        text.replace(f"_seed = '{SEED}'", f"_seed = '{OTHER}'").replace(
            commitment(SEED), commitment(OTHER)
        )
    )
    assert not verdict.matches and str(verdict.problem).startswith("action 1 ")


def test_a_deck_dealt_from_another_seed_does_not_match() -> None:
    text = holdem(OTHER)
    forged = text.replace(f"_seed = '{OTHER}'", f"_seed = '{SEED}'").replace(
        commitment(OTHER), commitment(SEED)
    )
    assert not verify_text(forged).matches


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (lambda t: t.replace(f"_seed = '{SEED}'", "_seed = 'not a seed'"), "'_seed' is not 64"),
        (
            lambda t: t.replace(f"_commitment = '{commitment(SEED)}'", "_commitment = 7"),
            "'_commitment' is not 64",
        ),
        (lambda t: re.sub(r"'d dh p1 \S+'", "'d dh p1 XxYy'", t), "'Xx' is not a card"),
        (lambda t: re.sub(r"'d dh p1 \S+'", "'d dh p1 A'", t), "rank and suit pairs"),
    ],
)
def test_malformed_values_are_refused_with_a_clear_reason(change, problem) -> None:  # type: ignore[no-untyped-def]
    verdict = verify_text(change(holdem()))
    assert not verdict.matches and problem in str(verdict.problem), verdict.problem


def test_more_cards_than_a_deck_are_refused() -> None:
    text = holdem()
    deck = "".join(str(c) for c in seed_deck(SEED))
    forged = text.replace("actions = [", f"actions = ['d db {deck}', 'd db 2c', ", 1)
    verdict = verify_text(forged)
    assert not verdict.matches and "more cards are dealt than the deck holds" in str(
        verdict.problem
    )


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (lambda t: "variant = 'NT'\nactions = [", "not TOML"),
        (lambda t: t.replace("variant = 'NT'\n", ""), "no 'variant' field"),
        (lambda t: re.sub(r"(?m)^actions = .*$", "", t), "no 'actions' list"),
        (lambda t: re.sub(r"(?m)^_seed = .*$", "", t), "publishes each hand's seed when it closes"),
        (lambda t: re.sub(r"(?m)^_commitment = .*$", "", t), "not dealt at a verifiable table"),
        (lambda t: t.replace("sha256-fisher-yates-1", "other-2"), "this version knows"),
    ],
)
def test_a_file_that_cannot_be_checked_says_why(change, reason) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(Unverifiable, match=re.escape(reason)):
        verify_text(change(holdem()))


# ----------------------------------------------------------------------------- the fields


def test_shuffle_fields_go_before_the_first_table_and_replace_old_ones() -> None:
    text = zoot()
    raw = tomllib.loads(text)
    assert raw["_seed"] == SEED and raw["_commitment"] == commitment(SEED)
    assert raw["_shuffle"] == "sha256-fisher-yates-1" and "ante" in raw["_rules"]
    again = with_shuffle_fields(text, commitment=commitment(SEED))  # the seed withheld
    assert "_seed" not in again and again.count("_commitment") == 1
    assert tomllib.loads(again)["_rules"] == raw["_rules"]


def test_pokerkit_still_loads_and_replays_a_published_history() -> None:
    """The fields start with ``_``: PHH's user-defined fields, kept by pokerkit."""
    from pokerkit import HandHistory

    text = holdem()
    hh = HandHistory.loads(text)
    assert hh.user_defined_fields["_seed"] == SEED
    *_, state = list(hh)
    assert list(state.stacks) == tomllib.loads(text)["finishing_stacks"]
    assert replay_flop_phh_text(text).match
    stud_text = stud(players=3)
    hh = HandHistory.loads(stud_text)
    *_, state = list(hh)
    assert list(state.stacks) == tomllib.loads(stud_text)["finishing_stacks"]


def test_reshuffle_numbers_follow_the_history() -> None:
    acts = actions(zoot())
    refills = [a.split()[2] for a in acts if a.startswith("d rf")]
    for number, cards in enumerate(refills, start=1):
        from bot.engine.cards import parse_cards

        parsed = parse_cards(cards)
        assert parsed == reshuffle(SEED, number, parsed)
