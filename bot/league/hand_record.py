"""A finished poker hand read from its PHH text (Hold'em, Omaha, Stud, Stud Hi-Lo, Razz),
as the statistics and the PokerStars writer need it: every action with its kind (fold,
check, call, bet, raise, complete, bring-in) and chips, the streets, the cards each player
was dealt (stud: down or up), what was shown, the chips each player put in and took out.

Pure: no engine replay (the engines have their own, :mod:`bot.engine.flop.phh` and
:mod:`bot.engine.stud.replay`); the betting is followed just far enough to name each
action. A file this module cannot account for (chips that do not add up, a card dealt twice)
is refused with :class:`HandRecordError`.

>>> text = '''
... variant = 'NT'
... antes = [0, 0, 0]
... blinds_or_straddles = [5, 10, 0]
... min_bet = 10
... starting_stacks = [1000, 1000, 1000]
... actions = ['d dh p1 AcAd', 'd dh p2 7c2h', 'd dh p3 KsKh', 'p3 cbr 30', 'p1 cbr 90',
...            'p2 f', 'p3 cc', 'd db 9s7h2c', 'p1 cbr 100', 'p3 f']
... finishing_stacks = [1100, 990, 910]
... '''
>>> hand = read_hand(text)
>>> [(a.player, a.kind, a.amount) for a in hand.acts]  # doctest: +NORMALIZE_WHITESPACE
[(2, 'raise', 30), (0, 'raise', 85), (1, 'fold', 0), (2, 'call', 60),
 (0, 'bet', 100), (2, 'fold', 0)]
>>> hand.contributed, hand.returned, hand.received
((90, 10, 90), (0, 100), (190, 0, 0))
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from bot import games as registry
from bot.engine.cards import RANK_CHARS, SUIT_CHARS

FLOP_GAMES = {"T": "holdem", "O": "omaha"}
BETTING = {"N": "no-limit", "P": "pot-limit", "F": "fixed-limit"}
STUD_VARIANTS = {"FR": ("razz", False), "F7S": ("stud", False), "F7S/8": ("stud", True)}


class HandRecordError(ValueError):
    """A hand history this module cannot read or account for."""


def parse_cards(text: str) -> tuple[int, ...]:
    """Cards written together (``AcKd``); ``??`` is refused (a redacted file)."""
    if len(text) % 2:
        raise HandRecordError(f"cards {text!r}: rank+suit pairs expected")
    out = []
    for i in range(0, len(text), 2):
        rank, suit = text[i].upper(), text[i + 1].lower()
        if rank not in RANK_CHARS or suit not in SUIT_CHARS:
            raise HandRecordError(f"cards {text!r}: {text[i : i + 2]!r} is not a card")
        out.append(RANK_CHARS.index(rank) * 4 + SUIT_CHARS.index(suit))
    return tuple(out)


def card_text(card: int) -> str:
    return RANK_CHARS[card >> 2] + SUIT_CHARS[card & 3]


@dataclass(frozen=True, slots=True)
class Act:
    """One betting action. ``street`` 0 is the first betting round (preflop; stud's 3rd
    street), 1 the next, and so on."""

    player: int
    street: int
    kind: str
    """``fold``, ``check``, ``call``, ``bet``, ``raise``, ``complete`` or ``bring_in``."""
    amount: int = 0
    """Chips put in by this action."""
    to: int = 0
    """The player's total for the street after it."""
    all_in: bool = False
    raises_before: int = 0
    """Raises this street before this action (stud's completion is the street's bet, not a
    raise; the blinds and the bring-in are not raises)."""
    facing: int = 0
    """Chips the player had to put in to call when acting."""
    behind: int = 0
    """Chips the player had left before acting."""
    level: int = 0
    """The street's highest total before the action (a raise is ``to - level`` more)."""


@dataclass(frozen=True, slots=True)
class Deal:
    """Cards dealt: to ``player`` (None: the board), at the start of ``street``."""

    player: int | None
    street: int
    cards: tuple[int, ...]
    up: tuple[bool, ...] = ()
    """Stud: which of ``cards`` are dealt face up."""


@dataclass(frozen=True, slots=True)
class Show:
    player: int
    cards: tuple[int, ...] | None
    """None: mucked."""


Step = Act | Deal | Show


@dataclass(slots=True)
class HandRecord:
    variant: str
    game: str
    """``holdem``, ``omaha``, ``stud`` or ``razz``."""
    hi_lo: bool
    betting: str
    n: int
    names: tuple[str, ...]
    starting: tuple[int, ...]
    finishing: tuple[int, ...]
    antes: tuple[int, ...]
    """Antes posted (a short stack antes what it has)."""
    antes_dead: bool
    blinds: tuple[int, ...]
    """Blinds posted (Hold'em, Omaha), per player."""
    small_blind: int
    big_blind: int
    bring_in: int
    small_bet: int
    big_bet: int
    steps: list[Step] = field(default_factory=list)
    contributed: tuple[int, ...] = ()
    """Chips each player put in the pot, the uncalled bet returned already taken off."""
    returned: tuple[int, int] | None = None
    """(player, chips) of the uncalled bet given back."""
    folded: tuple[bool, ...] = ()
    community: bool = False
    """Stud: the deck ran short and 7th street was one card for everyone (rules §4.8)."""
    runout_from: int | None = None
    """Index in :attr:`steps` from which cards were dealt with no betting left (an all-in
    before the last card), None if the betting went to the end."""

    @property
    def stud(self) -> bool:
        return registry.family_of(self.game) == "stud"

    @property
    def acts(self) -> list[Act]:
        return [s for s in self.steps if isinstance(s, Act)]

    @property
    def received(self) -> tuple[int, ...]:
        """Chips each player took from the pot."""
        return tuple(
            f - s + c
            for f, s, c in zip(self.finishing, self.starting, self.contributed, strict=True)
        )

    @property
    def live(self) -> list[int]:
        """Players who did not fold."""
        return [p for p in range(self.n) if not self.folded[p]]

    @property
    def showdown(self) -> bool:
        """The hand ended with two or more hands still in (they were compared)."""
        return len(self.live) >= 2

    @property
    def board(self) -> tuple[int, ...]:
        return tuple(
            c for s in self.steps if isinstance(s, Deal) and s.player is None for c in s.cards
        )

    def cards_of(self, player: int, *, until: int | None = None) -> tuple[int, ...]:
        """Every card dealt to ``player`` (stud: in deal order), up to step ``until``."""
        steps = self.steps if until is None else self.steps[:until]
        return tuple(
            c for s in steps if isinstance(s, Deal) and s.player == player for c in s.cards
        )

    def streets_seen(self) -> int:
        """Betting rounds whose cards were dealt (1: only the first)."""
        return 1 + max((s.street for s in self.steps if isinstance(s, Deal)), default=0)


def _ints(data: Mapping[str, Any], key: str, n: int | None = None) -> tuple[int, ...]:
    value = data.get(key)
    if value is None:
        raise HandRecordError(f"missing field {key!r}")
    if isinstance(value, int) and not isinstance(value, bool) and n is not None:
        return (value,) * n
    if not isinstance(value, list) or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in value
    ):
        raise HandRecordError(f"field {key!r} must be a list of integers")
    if n is not None and len(value) != n:
        raise HandRecordError(f"field {key!r} has {len(value)} entries for {n} players")
    return tuple(value)


def _int(data: Mapping[str, Any], key: str) -> int:
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise HandRecordError(f"field {key!r} must be a whole number of chips")
    return value


def _player(token: str, n: int) -> int:
    if not (token.startswith("p") and token[1:].isdigit() and 1 <= int(token[1:]) <= n):
        raise HandRecordError(f"no player {token!r}")
    return int(token[1:]) - 1


def _per_player(values: tuple[int, ...], n: int) -> tuple[int, ...]:
    """pokerkit's lists: heads-up, player i gets entry ``not i`` (the big blind is index 1)."""
    if n == 2:
        return (values[1], values[0])
    return values


class _Betting:
    """Chips in front of each player this street, and what the actions mean."""

    def __init__(self, hand: HandRecord, stacks: list[int]) -> None:
        self.hand = hand
        self.stacks = stacks
        self.bets = [0] * hand.n
        self.put = [0] * hand.n
        self.raises = 0
        self.completed = False
        self.street = 0
        self.folded = [False] * hand.n

    def post(self, p: int, chips: int) -> int:
        chips = min(chips, self.stacks[p])
        self.stacks[p] -= chips
        self.bets[p] += chips
        return chips

    def next_street(self) -> None:
        for p in range(self.hand.n):
            self.put[p] += self.bets[p]
        self.bets = [0] * self.hand.n
        self.raises = 0
        self.street += 1

    def act(self, p: int, word: str, arg: str | None) -> Act:
        top = max(self.bets)
        facing = min(top - self.bets[p], self.stacks[p])
        base = {
            "player": p,
            "street": self.street,
            "raises_before": self.raises,
            "facing": facing,
            "behind": self.stacks[p],
            "level": top,
        }
        if word == "f":
            self.folded[p] = True
            return Act(kind="fold", **base)
        if word == "pb":
            chips = self.post(p, self.hand.bring_in)
            if self.hand.bring_in >= self.hand.small_bet:
                self.completed = True
            return Act(
                kind="bring_in", amount=chips, to=self.bets[p], all_in=not self.stacks[p], **base
            )
        if word == "cc":
            chips = self.post(p, facing)
            kind = "call" if chips else "check"
            return Act(kind=kind, amount=chips, to=self.bets[p], all_in=not self.stacks[p], **base)
        if word == "cbr":
            if arg is None or not arg.isdigit():
                raise HandRecordError(f"p{p + 1} cbr needs an amount")
            to = int(arg)
            if to <= top or to - self.bets[p] > self.stacks[p]:
                raise HandRecordError(f"p{p + 1} cannot bet or raise to {to}")
            chips = self.post(p, to - self.bets[p])
            if self.hand.stud and self.street == 0 and not self.completed:
                kind = "complete"
                self.completed = True
            elif top == 0:
                kind = "bet"
            else:
                kind = "raise"
                self.raises += 1
            return Act(kind=kind, amount=chips, to=to, all_in=not self.stacks[p], **base)
        raise HandRecordError(f"unknown action {word!r}")


def _header(data: Mapping[str, Any]) -> dict[str, Any]:
    variant = data.get("variant")
    if not isinstance(variant, str):
        raise HandRecordError("missing field 'variant'")
    if variant in STUD_VARIANTS:
        game, hi_lo = STUD_VARIANTS[variant]
        betting = "fixed-limit"
    else:
        code = variant.removesuffix("/8")
        if len(code) != 2 or code[0] not in BETTING or code[1] not in FLOP_GAMES:
            raise HandRecordError(f"unknown variant {variant!r}")
        game, hi_lo, betting = FLOP_GAMES[code[1]], variant.endswith("/8"), BETTING[code[0]]
    return {"variant": variant, "game": game, "hi_lo": hi_lo, "betting": betting}


def read_hand(text: str) -> HandRecord:
    """The hand of a PHH text (module docstring); :class:`HandRecordError` if it cannot be
    read or its chips do not add up."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise HandRecordError(f"not TOML: {exc}") from None
    return read_hand_data(data)


def read_hand_data(data: Mapping[str, Any]) -> HandRecord:
    head = _header(data)
    starting = _ints(data, "starting_stacks")
    n = len(starting)
    if n < 2:
        raise HandRecordError("a hand needs two players")
    stud = registry.family_of(head["game"]) == "stud"
    names = data.get("players", [f"p{i + 1}" for i in range(n)])
    if not isinstance(names, list) or len(names) != n:
        raise HandRecordError("field 'players' must name every player")
    raw_antes = _ints(data, "antes", n) if "antes" in data else (0,) * n
    if stud:
        bring_in, small, big = (_int(data, k) for k in ("bring_in", "small_bet", "big_bet"))
        raw_blinds: tuple[int, ...] = (0,) * n
    else:
        bring_in = 0
        raw_blinds = _ints(data, "blinds_or_straddles", n)
        small = _int(data, "small_bet" if "small_bet" in data else "min_bet")
        big = _int(data, "big_bet") if "big_bet" in data else small
    hand = HandRecord(
        **head,
        n=n,
        names=tuple(str(x) for x in names),
        starting=starting,
        finishing=_ints(data, "finishing_stacks", n),
        antes=(),
        antes_dead=data.get("ante_trimming_status") is False,
        blinds=(),
        small_blind=raw_blinds[0],
        big_blind=raw_blinds[1],
        bring_in=bring_in,
        small_bet=small,
        big_bet=big,
    )
    stacks = list(starting)
    per_player = raw_antes if stud else _per_player(raw_antes, n)
    antes = [min(a, s) for a, s in zip(per_player, stacks, strict=True)]
    for p in range(n):
        stacks[p] -= antes[p]
    hand.antes = tuple(antes)
    bet = _Betting(hand, stacks)
    blinds = [0] * n if stud else list(_per_player(raw_blinds, n))
    hand.blinds = tuple(bet.post(p, blinds[p]) for p in range(n))
    actions = data.get("actions")
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise HandRecordError("field 'actions' must be a list of strings")
    _follow(hand, bet, actions)
    return hand


def _follow(hand: HandRecord, bet: _Betting, actions: list[str]) -> None:
    n, stud = hand.n, hand.stud
    dealt = [0] * n
    seen: set[int] = set()
    sevenths: set[int] = set()
    last_bet = -1
    board_streets = 0
    for i, text in enumerate(actions, 1):
        words = text.split("#", 1)[0].split()
        try:
            if words[:2] == ["d", "dh"] and len(words) == 4:
                p = _player(words[2], n)
                cards = parse_cards(words[3])
                if stud:
                    street = max(0, dealt[p] + len(cards) - 3)
                    if street > bet.street:
                        bet.next_street()
                    up = tuple(2 <= dealt[p] + j <= 5 for j in range(len(cards)))
                else:
                    street, up = 0, ()
                dealt[p] += len(cards)
                hand.steps.append(Deal(p, street, cards, up))
            elif words[:2] == ["d", "db"] and len(words) == 3:
                cards = parse_cards(words[2])
                if stud:  # the community card (rules §4.8)
                    bet.next_street()
                    street = bet.street
                else:
                    board_streets += 1
                    street = board_streets
                    bet.next_street()
                hand.steps.append(Deal(None, street, cards, (True,) * len(cards)))
            elif len(words) in (2, 3) and words[0] != "d" and words[1] == "sm":
                p = _player(words[0], n)
                shown = parse_cards(words[2]) if len(words) == 3 else None
                hand.steps.append(Show(p, shown))
                continue
            elif len(words) in (2, 3) and words[0] != "d" and words[1] in ("f", "cc", "cbr", "pb"):
                p = _player(words[0], n)
                hand.steps.append(bet.act(p, words[1], words[2] if len(words) == 3 else None))
                last_bet = len(hand.steps) - 1
                continue
            else:
                raise HandRecordError("not an action")
        except HandRecordError as exc:
            raise HandRecordError(f"action {i} {text!r}: {exc}") from None
        step = hand.steps[-1]
        assert isinstance(step, Deal)
        again = seen & set(step.cards)
        if again and stud and step.street == 4 and again <= sevenths:
            hand.community = True  # rules §4.8: one card for everyone, written to each
        elif again:
            raise HandRecordError(f"action {i} {text!r}: a card is dealt twice")
        if stud and (step.street == 4 or step.player is None):
            sevenths.update(step.cards)
            hand.community = hand.community or step.player is None
        seen.update(step.cards)
    for p in range(n):
        bet.put[p] += bet.bets[p]
    _settle(hand, bet, last_bet)


def _settle(hand: HandRecord, bet: _Betting, last_bet: int) -> None:
    n = hand.n
    live_antes = [0 if hand.antes_dead else a for a in hand.antes]
    totals = [bet.put[p] + live_antes[p] for p in range(n)]
    order = sorted(range(n), key=lambda p: -totals[p])
    top, second = order[0], order[1]
    extra = totals[top] - totals[second]
    if extra > 0:
        bet.put[top] -= extra
        hand.returned = (top, extra)
    hand.contributed = tuple(bet.put[p] + hand.antes[p] for p in range(n))
    hand.folded = tuple(bet.folded)
    received = hand.received
    if any(r < 0 for r in received) or sum(received) != sum(hand.contributed):
        raise HandRecordError(
            f"the chips do not add up: put in {list(hand.contributed)}, taken out {list(received)}"
        )
    if hand.showdown:
        later = [j for j, s in enumerate(hand.steps) if isinstance(s, Deal) and j > last_bet]
        if later:
            hand.runout_from = later[0]
