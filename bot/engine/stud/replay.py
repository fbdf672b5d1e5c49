"""Replaying Poker Hand Histories (PHH) of the stud games through our engines: variants
``FR`` (Razz), ``F7S`` (Seven-card Stud) and ``F7S/8`` (Stud Hi-Lo), pokerkit's codes.

:func:`replay_phh` stacks a deck from the file's ``d dh`` actions, plays the file's
``pb`` / ``cbr`` / ``cc`` / ``f`` actions through *our* engine and returns the finishing
stacks. (Writing: :mod:`bot.engine.stud.phh_write`.)

Player ``pN`` is position N-1, i.e. the N-th seat clockwise from the dealer's left
(RULES §4.3). A community card (§4.8) has no PHH form for stud; we write it, and read it,
as the same 7th card dealt to every remaining player (pokerkit then scores it as each
player's own down card, which gives the same showdown).

>>> text = '''
... variant = 'FR'
... antes = [1, 1]
... bring_in = 1
... small_bet = 2
... big_bet = 4
... starting_stacks = [10, 10]
... actions = ['d dh p1 AcAdKs', 'd dh p2 2c3c4c', 'p1 pb', 'p2 f']
... finishing_stacks = [11, 9]
... '''
>>> replay_phh_text(text, name="tiny.phh").match
True
"""

from __future__ import annotations

import contextlib
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.engine.actions import Action
from bot.engine.cards import CARDS, Card
from bot.engine.errors import GameError, HomeGameError, InvalidCard, InvalidConfig, SnapshotError
from bot.engine.razz.hand import RazzHand
from bot.engine.stud.betting import StudHand
from bot.engine.stud.games import StudHighHand, StudHiLoHand

#: The games by PHH variant code (pokerkit's).
GAMES: dict[str, type[StudHand]] = {"FR": RazzHand, "F7S": StudHighHand, "F7S/8": StudHiLoHand}


class PHHError(SnapshotError):
    """A hand history that cannot be read or replayed; the message names the file and the
    field or action at fault."""


@dataclass(frozen=True, slots=True)
class ReplayResult:
    """The outcome of replaying one PHH file through our engine."""

    name: str
    finishing_stacks: list[int]
    recorded: list[int] | None
    hand: StudHand

    @property
    def match(self) -> bool | None:
        if self.recorded is None:
            return None
        return self.recorded == self.finishing_stacks


def _field(data: Mapping[str, Any], key: str, name: str) -> Any:
    if key not in data:
        raise PHHError(f"{name}: missing field '{key}'")
    return data[key]


def _int_list(data: Mapping[str, Any], key: str, name: str, n: int | None = None) -> list[int]:
    value = _field(data, key, name)
    if isinstance(value, int) and not isinstance(value, bool) and n is not None:
        return [value] * n
    if not isinstance(value, list) or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in value
    ):
        raise PHHError(f"{name}: field '{key}' must be a list of integers, got {value!r}")
    if n is not None and len(value) != n:
        raise PHHError(f"{name}: field '{key}' has {len(value)} entries for {n} players")
    return list(value)


def _int(data: Mapping[str, Any], key: str, name: str) -> int:
    value = _field(data, key, name)
    if not isinstance(value, int) or isinstance(value, bool):
        raise PHHError(f"{name}: field '{key}' must be an integer, got {value!r}")
    return value


def _parse_cards(code: str) -> list[Card]:
    if "?" in code:
        raise InvalidCard(code, "hidden cards cannot be replayed")
    if len(code) % 2:
        raise InvalidCard(code, "cards are written as rank+suit pairs")
    out = []
    for i in range(0, len(code), 2):
        rank, suit = code[i], code[i + 1]
        ranks, suits = "23456789TJQKA", "cdhs"
        if rank.upper() not in ranks or suit.lower() not in suits:
            raise InvalidCard(code[i : i + 2], "not a card")
        out.append(CARDS[ranks.index(rank.upper()) * 4 + suits.index(suit.lower())])
    return out


def _player(token: str, n: int) -> int:
    if not (token.startswith("p") and token[1:].isdigit() and 1 <= int(token[1:]) <= n):
        raise InvalidConfig("player", f"no player {token!r} (p1..p{n})")
    return int(token[1:]) - 1


def _stack_deck(actions: list[str], n: int, name: str) -> list[Card]:
    """The deck order our engine deals: per street, each dealt player in position order.

    A card may be dealt a second time (pokerkit re-deals burnt and mucked cards when its
    stub runs out; the replay follows the history's cards), see :func:`_check_redeals`.
    """
    received = [0] * n
    streets: dict[int, dict[int, list[Card]]] = {}
    #: The dealing actions in order: (action number, text, street, position or -1, cards).
    deals: list[tuple[int, str, int, int, list[Card]]] = []
    for i, text in enumerate(actions, 1):
        words = text.split("#", 1)[0].split()
        if words[:2] == ["d", "db"]:
            try:
                if len(words) != 3:
                    raise InvalidConfig("action", "expected 'd db CARD'")
                board = _parse_cards(words[2])
            except HomeGameError as exc:
                raise PHHError(f"{name}: action {i} {text!r}: {exc.message}") from None
            if len(board) != 1 or max(received) < 6:
                raise PHHError(f"{name}: action {i} {text!r}: a stud board is one 7th card")
            streets.setdefault(7, {})[-1] = board  # a community card (§4.8)
            deals.append((i, text, 7, -1, board))
            continue
        if words[:2] != ["d", "dh"]:
            continue
        try:
            if len(words) != 4:
                raise InvalidConfig("action", "expected 'd dh pN CARDS'")
            p = _player(words[2], n)
            cards = _parse_cards(words[3])
        except HomeGameError as exc:
            raise PHHError(f"{name}: action {i} {text!r}: {exc.message}") from None
        street = 3 if received[p] == 0 else received[p] + 1
        if received[p] == 0 and len(cards) != 3:
            raise PHHError(f"{name}: action {i} {text!r}: 3rd street deals 3 cards")
        if received[p] and len(cards) != 1:
            raise PHHError(f"{name}: action {i} {text!r}: one card per street after 3rd")
        if street > 7:
            raise PHHError(f"{name}: action {i} {text!r}: more than seven cards for p{p + 1}")
        received[p] += len(cards)
        streets.setdefault(street, {})[p] = cards
        deals.append((i, text, street, p, cards))
    order: list[Card] = []
    shared: set[int] = set()  # streets dealt as one card to everyone (a community card)
    for street in sorted(streets):
        dealt = streets[street]
        if -1 in dealt:
            order.extend(dealt[-1])
            continue
        firsts = {tuple(c) for c in dealt.values()}
        if street > 3 and len(dealt) > 1 and len(firsts) == 1:
            order.extend(next(iter(dealt.values())))  # a community card (§4.8)
            shared.add(street)
            continue
        for p in sorted(dealt):
            order.extend(dealt[p])
    _check_redeals(actions, deals, shared, n, name)
    seen = set(order)
    order.extend(c for c in CARDS if c not in seen)
    return order


def _check_redeals(
    actions: list[str],
    deals: list[tuple[int, str, int, int, list[Card]]],
    shared: set[int],
    n: int,
    name: str,
) -> None:
    """Refuse a card dealt twice unless it had left play and the stub was exhausted.

    A card held by a live hand (or on the board) is never dealt again. A folded hand's
    card may come again once no undealt card can be left: the distinct cards seen so far
    plus the burns the other tool may have made (one before each of 4th to the current
    street; burns are not written in PHH) reach 52.
    """
    folds: dict[int, list[int]] = {}  # action number -> positions folding there
    for i, text in enumerate(actions, 1):
        words = text.split("#", 1)[0].split()
        if len(words) == 2 and words[1] == "f" and words[0] != "d":
            # a bad player is named by the replay at its own action
            with contextlib.suppress(InvalidConfig):
                folds.setdefault(i, []).append(_player(words[0], n))
    live: dict[Card, int] = {}  # card -> the position holding it (-1: the board)
    gone: set[Card] = set()  # cards of folded hands
    seen: set[Card] = set()
    held: list[list[Card]] = [[] for _ in range(n)]
    k = 0
    fold_at = sorted(folds)
    for i, text, street, p, cards in deals:
        while k < len(fold_at) and fold_at[k] < i:
            for q in folds[fold_at[k]]:
                for c in held[q]:
                    live.pop(c, None)
                    gone.add(c)
                held[q] = []
            k += 1
        for c in cards:
            if c in live:
                if street in shared and live[c] == -1:
                    continue  # the same community card, written to each player
                raise PHHError(f"{name}: action {i} {text!r}: card {c} is dealt twice")
            if c in gone:
                burns = max(0, street - 3)
                if len(seen) + burns < len(CARDS):
                    raise PHHError(
                        f"{name}: action {i} {text!r}: card {c} is dealt again while "
                        "undealt cards are left"
                    )
                gone.discard(c)
            seen.add(c)
            if street in shared or p == -1:
                live[c] = -1
            else:
                live[c] = p
                held[p].append(c)


def replay_phh_text(
    text: str, *, name: str = "<phh>", hand_class: type[StudHand] | None = None
) -> ReplayResult:
    """Replay PHH text through our engine (see the module docstring)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PHHError(f"{name}: not TOML: {exc}") from None
    return replay_phh_data(data, name=name, hand_class=hand_class)


def replay_phh(path: str | Path) -> ReplayResult:
    """Replay one ``.phh`` file through our engine."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise PHHError(f"{p.name}: cannot read: {exc}") from None
    return replay_phh_text(text, name=p.name)


def replay_phh_data(
    data: Mapping[str, Any], *, name: str = "<phh>", hand_class: type[StudHand] | None = None
) -> ReplayResult:
    """Replay a parsed PHH hand through the engine of its variant (``hand_class``: a
    subclass of it with other readings, for the tests that compare with pokerkit)."""
    variant = _field(data, "variant", name)
    game = GAMES.get(variant) if isinstance(variant, str) else None
    if game is None:
        known = ", ".join(repr(v) for v in GAMES)
        raise PHHError(f"{name}: field 'variant' is {variant!r}; supported: {known}")
    if hand_class is not None:
        if not issubclass(hand_class, game):
            raise PHHError(f"{name}: field 'variant' is {variant!r}, not {hand_class.__name__}")
        game = hand_class
    stacks = _int_list(data, "starting_stacks", name)
    n = len(stacks)
    antes = _int_list(data, "antes", name, n)
    if data.get("ante_trimming_status", False) is not True and min(stacks) < max(antes):
        # Our engine always trims antes (RULES §4.7: nobody loses more than they have);
        # without trimming, a stack shorter than the ante cannot be replayed.
        raise PHHError(f"{name}: field 'ante_trimming_status' must be true for short stacks")
    if len(set(antes)) != 1:
        raise PHHError(f"{name}: field 'antes' must be the same for everyone, got {antes}")
    actions = _field(data, "actions", name)
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise PHHError(f"{name}: field 'actions' must be a list of strings")
    recorded = None
    if "finishing_stacks" in data:
        recorded = _int_list(data, "finishing_stacks", name, n)
    try:
        rules = game.RULES.create(
            ante=antes[0],
            bring_in=_int(data, "bring_in", name),
            small_bet=_int(data, "small_bet", name),
            big_bet=_int(data, "big_bet", name),
        )
    except InvalidConfig as exc:
        raise PHHError(f"{name}: field '{exc.field}': {exc.reason}") from None
    deck = _stack_deck(actions, n, name)
    seats = list(range(1, n + 1))
    try:
        hand = game(
            rules,
            list(zip(seats, stacks, strict=True)),
            dealer=n,
            deck=deck,
            redealt=len(deck) > len(CARDS),
        )
    except InvalidConfig as exc:
        raise PHHError(f"{name}: field 'starting_stacks': {exc.reason}") from None
    hand.start()
    for i, text in enumerate(actions, 1):
        try:
            _replay_one(hand, text, n)
        except HomeGameError as exc:
            raise PHHError(f"{name}: action {i} {text!r}: {exc.message}") from None
    if not hand.is_over:
        raise PHHError(f"{name}: field 'actions': the hand is not over after the last action")
    return ReplayResult(name, [hand.stacks[p] for p in range(n)], recorded, hand)


def _replay_one(hand: StudHand, text: str, n: int) -> None:
    words = text.split("#", 1)[0].split()
    if not words:
        return
    if words[0] == "d":
        if words[1:2] == ["dh"] and len(words) == 4:
            p = _player(words[2], n)
            dealt = _parse_cards(words[3])
            mine = set(hand.down[p]) | set(hand.up[p])
            if hand.community is not None:
                mine.add(hand.community)
            if not set(dealt) <= mine:
                raise GameError(f"our engine dealt p{p + 1} other cards at this point")
            return
        if words[1:2] == ["db"] and len(words) == 3:
            if hand.community is None or _parse_cards(words[2]) != [hand.community]:
                raise GameError("our engine has no such community card at this point")
            return
        raise GameError("unsupported dealer action (stud deals 'd dh' and 'd db' only)")
    p = _player(words[0], n)
    seat = hand.seat_ids[p]
    verb = words[1] if len(words) > 1 else ""
    if verb == "sm":
        if len(words) == 3 and words[2] != "-":
            shown = set(_parse_cards(words[2]))
            mine = set(hand.down[p]) | set(hand.up[p])
            if hand.community is not None:
                mine.add(hand.community)
            if not shown <= mine:
                raise GameError(f"p{p + 1} shows cards they were not dealt")
        return  # our showdown shows or mucks by itself
    if verb == "pb" and len(words) == 2:
        hand.apply(Action(seat, "bring_in"))
    elif verb == "f" and len(words) == 2:
        hand.apply(Action(seat, "fold"))
    elif verb == "cc" and len(words) == 2:
        opts = {o.kind: o for o in hand.legal_actions(seat)}
        kind = "check" if opts["check"].allowed else "call"
        hand.apply(Action(seat, kind))
    elif verb == "cbr" and len(words) == 3:
        if not words[2].isdigit():
            raise GameError(f"amount {words[2]!r} is not a whole number")
        opts = {o.kind: o for o in hand.legal_actions(seat)}
        kind = next((k for k in ("complete", "bet", "raise") if opts[k].allowed), "raise")
        hand.apply(Action(seat, kind, amount=int(words[2])))
    else:
        raise GameError("unknown action")
