"""Zoot and Wheelers hand histories, in the TOML style of PHH with our own variant codes.

A history is the game's starting point (house rules, seats, balances, carried pot) and its
actions; replaying the actions through the engine gives the same game, and
:func:`parse_history` checks the replay ends with the recorded stacks. The format is
documented in ``docs/hand-history.md``.

Actions (``pN`` is the N-th player clockwise from the dealer's left; the dealer is last):

- ``d dh p1 AsKd7c2h3s`` the dealer deals cards to p1 (five at the deal, one per exchange)
- ``p1 ld`` p1 lays down; ``p1 po`` p1 plays on; ``p1 sd 7h`` p1 discards 7h
- ``d rf 7h2c...`` the discards, shuffled, are put under the stock in this order (§1.6)
- ``d resume`` the table, paused after a round where nobody acted, resumes (§1.11)
- a trailing ``# timeout`` marks the table's default action for a seat whose time ran out
"""

from __future__ import annotations

import random
import tomllib
from collections import deque
from collections.abc import Mapping, MutableSequence, Sequence
from typing import Any

from bot.engine.actions import Action
from bot.engine.cards import CARDS, Card, Deck, parse_cards
from bot.engine.errors import GameError, HomeGameError, SnapshotError
from bot.engine.guts.game import GutsGame, GutsRanking
from bot.engine.guts.rules import GutsRules
from bot.engine.guts.setup import GutsSetup

VARIANTS: Mapping[str, str] = {"zoot": "ZOOT", "wheelers": "WHEELERS"}
_GAMES: Mapping[str, str] = {code: game for game, code in VARIANTS.items()}
_KINDS: Mapping[str, str] = {"ld": "lay_down", "po": "play_on", "sd": "discard"}


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        if "'" in value or "\n" in value:
            raise ValueError(f"cannot write {value!r} as a TOML literal string")
        return f"'{value}'"
    if isinstance(value, Mapping):
        if not value:
            return "{}"
        return "{ " + ", ".join(f"{k} = {_toml(v)}" for k, v in value.items()) + " }"
    if isinstance(value, Sequence):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    raise TypeError(f"cannot write {value!r} in a hand history")  # pragma: no cover


def to_history(game: GutsGame) -> str:
    """The game so far (usually finished) as a hand history."""
    setup = game.setup
    order = setup.order()
    lines = [
        "# Home Game hand history (PHH style), see docs/hand-history.md",
        f"variant = {_toml(VARIANTS[game.rules.game])}",
        f"antes = {_toml([game.rules.ante] * len(order))}",
        f"seats = {_toml(list(order))}",
        f"_dealer = {setup.dealer}",
        f"starting_stacks = {_toml([setup.stacks[s] for s in order])}",
        f"_starting_pot = {_toml({s: c for s, c in sorted(setup.pot.items()) if c})}",
        f"_excused = {_toml([s in setup.excused for s in order])}",
        f"_away = {_toml([s in setup.away for s in order])}",
        f"_idle = {_toml({s: n for s, n in sorted(setup.idle.items()) if n})}",
        "actions = [",
        *(f"  {_toml(a)}," for a in game.log),
        "]",
    ]
    if game.over:
        lines.append(f"finishing_stacks = {_toml([game.stacks[s] for s in order])}")
        lines.append(f"_finishing_pot = {_toml(dict(sorted(game.pot_ledger.items())))}")
    rules = game.rules.model_dump(exclude={"game"})
    lines += ["", "[_rules]", *(f"{k} = {_toml(v)}" for k, v in rules.items())]
    return "\n".join(lines) + "\n"


class _ScriptedShuffle(random.Random):
    """Replays recorded refill shuffles: each ``shuffle`` puts the next recorded order."""

    def __init__(self, orders: Sequence[list[Card]]) -> None:
        super().__init__(0)
        self._orders = deque(orders)

    def shuffle(self, x: MutableSequence[Any]) -> None:
        if not self._orders:
            raise SnapshotError("actions: a refill happens that the history does not record")
        order = self._orders.popleft()
        if sorted(order) != sorted(x):
            raise SnapshotError("actions: a recorded refill is not the discard pile")
        x[:] = order


def _require(raw: Mapping[str, Any], key: str, kind: type) -> Any:
    if key not in raw:
        raise SnapshotError(f"{key}: missing")
    value = raw[key]
    if not isinstance(value, kind):
        raise SnapshotError(f"{key}: expected {kind.__name__}")
    return value


def _per_player(raw: Mapping[str, Any], key: str, n: int, kind: type) -> list[Any]:
    values = _require(raw, key, list)
    if len(values) != n or not all(isinstance(v, kind) for v in values):
        raise SnapshotError(f"{key}: expected {n} values of type {kind.__name__}")
    return list(values)


def _seat_table(raw: Mapping[str, Any], key: str) -> dict[int, int]:
    table = raw.get(key, {})
    if not isinstance(table, Mapping):
        raise SnapshotError(f"{key}: expected a table of seat = chips")
    try:
        return {int(s): int(v) for s, v in table.items()}
    except (TypeError, ValueError):
        raise SnapshotError(f"{key}: expected a table of seat = chips") from None


def _initial_stock(
    actions: Sequence[str], n_cards: int = 52
) -> tuple[list[Card], list[list[Card]]]:
    """The stock order the recorded deals imply, and the recorded refill orders."""
    stock: deque[tuple[str, int]] = deque(("s", i) for i in range(n_cards))
    known: dict[int, Card] = {}
    refills: list[list[Card]] = []
    for i, line in enumerate(actions):
        words = line.split("#", 1)[0].split()
        if words[:2] == ["d", "dh"] and len(words) == 4:
            cards = _cards(words[3], i)
            for card in cards:
                if not stock:
                    raise SnapshotError(f"actions[{i}]: more cards dealt than the stock holds")
                where, value = stock.popleft()
                if where == "s":
                    known[value] = card
                elif value != card:
                    raise SnapshotError(f"actions[{i}]: {card} is not the next card of the stock")
        elif words[:2] == ["d", "rf"] and len(words) == 3:
            cards = _cards(words[2], i)
            refills.append(cards)
            stock.extend(("r", int(c)) for c in cards)
    if len(set(known.values())) != len(known):
        raise SnapshotError("actions: the same card is dealt twice from the stock")
    rest = iter(c for c in CARDS if c not in set(known.values()))
    return [known[i] if i in known else next(rest) for i in range(n_cards)], refills


def _cards(text: str, i: int) -> list[Card]:
    try:
        return parse_cards(text)
    except HomeGameError as exc:
        raise SnapshotError(f"actions[{i}]: {exc.message}") from None


def parse_history(text: str, *, ranking: GutsRanking | None = None) -> GutsGame:
    """Replay a hand history through the engine; raises :class:`SnapshotError` if it is
    malformed, an action is illegal, or the replay does not end with the recorded stacks."""
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise SnapshotError(f"history: not TOML ({exc})") from None
    variant = _require(raw, "variant", str)
    if variant not in _GAMES:
        raise SnapshotError(f"variant: {variant!r} is not ZOOT or WHEELERS")
    seats = _require(raw, "seats", list)
    n = len(seats)
    if not all(isinstance(s, int) for s in seats):
        raise SnapshotError("seats: expected seat numbers")
    antes = _per_player(raw, "antes", n, int)
    stacks = _per_player(raw, "starting_stacks", n, int)
    excused = raw.get("_excused", [False] * n)
    away = raw.get("_away", [False] * n)
    for key, flags in (("_excused", excused), ("_away", away)):
        if not isinstance(flags, list) or len(flags) != n:
            raise SnapshotError(f"{key}: expected {n} true/false values")
    actions = [str(a) for a in _require(raw, "actions", list)]
    rule_values = dict(raw.get("_rules", {}))
    if len(set(antes)) > 1:
        raise SnapshotError("antes: every player antes the same amount in guts")
    try:
        rules = GutsRules.parse(game=_GAMES[variant], **{"ante": antes[0], **rule_values})
        setup = GutsSetup(
            seats=tuple(seats),
            stacks=dict(zip(seats, stacks, strict=True)),
            dealer=int(raw.get("_dealer", seats[-1])),
            pot=_seat_table(raw, "_starting_pot"),
            excused=frozenset(s for s, f in zip(seats, excused, strict=True) if f),
            away=frozenset(s for s, f in zip(seats, away, strict=True) if f),
            idle=_seat_table(raw, "_idle"),
        )
        setup.check(max_players=rules.max_players)
    except HomeGameError as exc:
        raise SnapshotError(f"history: {exc.message}") from None
    if setup.order() != tuple(seats):
        raise SnapshotError("_dealer: the dealer must be the last player (p1 is on its left)")
    stock, refills = _initial_stock(actions)
    game = GutsGame(
        rules, setup, rng=_ScriptedShuffle(refills), deck=Deck(cards=stock), ranking=ranking
    )
    try:
        game.start()
        for i, line in enumerate(actions):
            words = line.split("#", 1)[0].split()
            timed_out = "timeout" in line.partition("#")[2]
            if words == ["d", "resume"]:
                game.resume()
                continue
            if not words or words[0] == "d":
                continue  # dealer actions are checked against the replay's own log below
            if len(words) < 2 or words[1] not in _KINDS or not words[0].startswith("p"):
                raise SnapshotError(f"actions[{i}]: {line!r} is not a guts action")
            try:
                seat = seats[int(words[0][1:]) - 1]
            except (ValueError, IndexError):
                raise SnapshotError(f"actions[{i}]: no player {words[0]!r}") from None
            card = _cards(words[2], i)[0] if words[1] == "sd" and len(words) == 3 else None
            try:
                game.apply(Action(seat, _KINDS[words[1]], card=card, timed_out=timed_out))
            except GameError as exc:
                raise SnapshotError(f"actions[{i}]: {line!r}: {exc.message}") from None
    except GameError as exc:
        raise SnapshotError(f"history: {exc.message}") from None
    replayed = [" ".join(a.split()) for a in game.log]
    if replayed != [" ".join(a.split()) for a in actions]:
        first = next(
            (i for i, (a, b) in enumerate(zip(replayed, actions, strict=False)) if a != b.strip()),
            min(len(replayed), len(actions)),
        )
        raise SnapshotError(f"actions[{first}]: the replay differs from the history here")
    if "finishing_stacks" in raw:
        finishing = _per_player(raw, "finishing_stacks", n, int)
        if [game.stacks[s] for s in seats] != finishing:
            raise SnapshotError("finishing_stacks: the replay ends with different stacks")
    return game
