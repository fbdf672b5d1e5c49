"""The verifiable shuffle's seed -> deck function (issue 18 item 10; docs/hand-history.md,
"Verifiable shuffle"): the documented test vectors, a reference written here from the
document's words alone, unbiased draws, independent reshuffles, and the guts engine's
seeded reshuffles surviving a snapshot."""

from __future__ import annotations

import hashlib
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine import shuffle
from bot.engine.cards import CARDS, Deck, format_cards, parse_cards
from bot.engine.guts import GutsGame, GutsRules, GutsSetup
from bot.engine.shuffle import (
    SHUFFLE_NAME,
    SeededShuffle,
    commitment,
    is_seed,
    new_seed,
    reshuffle,
    seed_deck,
    shuffle_cards,
)

ZERO = "00" * 32
COUNTING = "0123456789abcdef" * 4
#: The documented test vectors (docs/hand-history.md): seed -> commitment, deck (top first).
VECTORS = {
    ZERO: (
        "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925",
        "Ks 7d 7s 8c 5h 8s 6h Jh 6d Qh 4d Ah Ad 8h Th Qc 4c 2h 3c 2d Ts Tc Jc Kh As Qd"
        " 9c 2c 3s 3d 5s Kc Qs 2s Js 3h 7h 6c 7c 8d 6s 4h 9s 9h 5c Ac Td Jd 5d Kd 4s 9d",
    ),
    COUNTING: (
        "4884fdaafea47c29fea7159d0daddd9c085d6200e1359e85bb81736af6b7c837",
        "7d Kh 7h Qs 4c 8d Kc 8c 8s Tc 5s 9c 7c Ah Jh Td Qh 2s Qd As 5c Js 6s Jc 9s 3s"
        " Ac 4d 6d Ts 2d Kd 2h 5h 4s 9d 3c 6h Ad Jd Th 3h 7s 6c 5d Ks 3d Qc 8h 4h 2c 9h",
    ),
}
SEEDS = st.binary(min_size=32, max_size=32).map(bytes.hex)


def reference(seed_hex: str, number: int, names: list[str]) -> list[str]:
    """The document's algorithm, written again without the module: cards by name."""
    order = [r + s for r in "23456789TJQKA" for s in "cdhs"]  # card numbers 0..51
    cards = sorted(names, key=order.index)
    key = bytes.fromhex(seed_hex)
    stream = b""
    block = 0
    used = 0

    def word() -> int:
        nonlocal stream, block, used
        if used + 4 > len(stream):
            stream += hashlib.sha256(
                key + number.to_bytes(4, "big") + block.to_bytes(4, "big")
            ).digest()
            block += 1
        value = int.from_bytes(stream[used : used + 4], "big")
        used += 4
        return value

    for i in range(len(cards) - 1, 0, -1):
        while True:
            x = word()
            if x < 2**32 - (2**32 % (i + 1)):
                break
        j = x % (i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


@pytest.mark.parametrize("seed", sorted(VECTORS))
def test_documented_test_vectors_commitment_and_deck(seed: str) -> None:
    promised, deck = VECTORS[seed]
    assert commitment(seed) == promised == hashlib.sha256(bytes.fromhex(seed)).hexdigest()
    assert format_cards(seed_deck(seed)) == deck
    assert reference(seed, 0, [str(c) for c in CARDS]) == deck.split()


def test_documented_reshuffle_vector() -> None:
    """The doc's example: shuffles 1 and 2 of the same six discards (in any order)."""
    cards = parse_cards("2c 7d Th Ks As 9c")
    assert format_cards(reshuffle(COUNTING, 1, cards)) == "Th Ks As 2c 9c 7d"
    assert format_cards(reshuffle(COUNTING, 2, cards[::-1])) == "Th Ks As 2c 7d 9c"


@settings(max_examples=60, deadline=None)
@given(seed=SEEDS, number=st.integers(0, 5), size=st.integers(0, 52))
def test_the_document_and_the_code_agree_on_every_seed(seed: str, number: int, size: int) -> None:
    cards = list(CARDS[:size])
    got = [str(c) for c in shuffle_cards(seed, number, cards)]
    assert got == reference(seed, number, [str(c) for c in cards])
    assert sorted(got) == sorted(str(c) for c in cards)  # a permutation


def test_input_order_does_not_matter_the_cards_are_sorted_first() -> None:
    cards = parse_cards("Ah 2c Kd 7s 7h")
    assert shuffle_cards(ZERO, 3, cards) == shuffle_cards(ZERO, 3, cards[::-1])


def test_each_shuffle_number_and_each_seed_is_its_own_stream() -> None:
    decks = {format_cards(shuffle_cards(ZERO, n, CARDS)) for n in range(20)}
    assert len(decks) == 20
    seeds = [hashlib.sha256(bytes([i])).hexdigest() for i in range(20)]
    assert len({format_cards(seed_deck(s)) for s in seeds}) == 20


def test_below_draws_again_when_a_word_falls_in_the_uneven_tail(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Rejection sampling: 2**32 is not a multiple of 52, so a word at or above
    2**32 - 48 would favour the first 48 values; it is thrown away and the next one used."""
    tail = 2**32 - 1  # in the tail for m = 52
    words = iter([tail, 53, *([0] * 60)])
    monkeypatch.setattr(shuffle, "_words", lambda key, number: words)
    out = shuffle_cards(ZERO, 0, CARDS)
    # i = 51 (m = 52): the tail word is skipped, 53 % 52 = 1 swaps cards 51 and 1
    assert out[51] == CARDS[1]


def test_top_card_is_even_over_many_seeds() -> None:
    """Deterministic seeds (SHA-256 of 0..5199): each card tops the deck about 100 times."""
    tops = Counter(seed_deck(hashlib.sha256(str(i).encode()).hexdigest())[0] for i in range(5200))
    assert set(tops) == set(CARDS)
    assert min(tops.values()) >= 55 and max(tops.values()) <= 150, tops.most_common(3)


def test_new_seeds_are_64_hex_digits_and_never_repeat() -> None:
    seeds = {new_seed() for _ in range(200)}
    assert len(seeds) == 200 and all(is_seed(s) for s in seeds)
    assert not is_seed("AB" * 32) and not is_seed("00" * 31) and not is_seed(None)
    with pytest.raises(ValueError, match="64 lowercase hex digits"):
        commitment("xyz")
    assert SHUFFLE_NAME == "sha256-fisher-yates-1"


def test_seeded_shuffle_counts_its_shuffles_and_round_trips() -> None:
    shuffler = SeededShuffle(COUNTING)
    deck = Deck(rng=shuffler)
    assert deck.cards == seed_deck(COUNTING) and shuffler.number == 1
    extra = parse_cards("2c 7d Th Ks As 9c")
    deck.add(extra, rng=shuffler)
    assert deck.cards[52:] == reshuffle(COUNTING, 1, extra)
    again = SeededShuffle.from_json(shuffler.to_json())
    assert (again.seed, again.number) == (COUNTING, 2)
    with pytest.raises(ValueError):
        SeededShuffle.from_json({"seed": COUNTING, "next": -1})


def _ten_player_zoot(seed: str) -> GutsGame:
    seats = tuple(range(1, 11))
    setup = GutsSetup(seats=seats, stacks=dict.fromkeys(seats, 500), dealer=10)
    return GutsGame(GutsRules(game="zoot", ante=5), setup, rng=SeededShuffle(seed))


def _round(game: GutsGame) -> None:
    """Everyone plays on, then everyone discards their first card."""
    from bot.engine.actions import Action

    for seat in sorted(game.to_act()):
        game.apply(Action(seat, "play_on"))
    for seat in sorted(game.to_act()):
        game.apply(Action(seat, "discard", card=game.hand(seat)[0]))


def test_guts_deals_the_seeds_deck_and_reshuffles_the_discards_by_it_after_a_restore() -> None:
    """Ten Zoot players take 50 cards; the first exchange finds 2 in the stock and puts the
    ten discards under it in reshuffle 1's order; a game restored from its snapshot makes
    reshuffle 2 exactly as the one that went on."""
    game = _ten_player_zoot(COUNTING)
    game.start()
    deck = seed_deck(COUNTING)
    assert [c for s in game.players for c in game.hand(s)] == deck[:50]
    _round(game)
    refill = next(line for line in game.snapshot()["log"] if line.startswith("d rf"))
    discards = parse_cards(refill.split()[2])
    assert discards == reshuffle(COUNTING, 1, discards)
    snap = game.snapshot()
    assert snap["shuffle"] == {"seed": COUNTING, "next": 2}
    restored = GutsGame.restore(snap)
    for g in (game, restored):
        _round(g)
    assert game.snapshot() == restored.snapshot()
    second = [line for line in game.snapshot()["log"] if line.startswith("d rf")][1]
    cards = parse_cards(second.split()[2])
    assert cards == reshuffle(COUNTING, 2, cards)


def test_docs_hand_history_md_states_these_vectors() -> None:
    """The page anyone re-implementing the shuffle reads has the same test vectors."""
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "hand-history.md").read_text("utf-8")
    section = doc.split("### Test vectors", 1)[1]
    for seed, (promised, deck) in VECTORS.items():
        assert f"| `{seed}` | `{promised}` | {deck} |" in section
    assert "reshuffle 1 of the discards `2c 7d Th Ks As 9c`" in section
    assert "`Th Ks As 2c 9c 7d`" in section and "`Th Ks As 2c 7d 9c`" in section
