"""Poker Hand History (PHH) for Hold'em and Omaha: write our hands, replay others'.

Variant codes are pokerkit's where it has one: ``NT`` (no-limit Texas hold'em), ``FT``
(fixed-limit), ``PO`` (pot-limit Omaha), ``FO/8`` (fixed-limit Omaha hi-lo). For the
games pokerkit lacks we extend its naming scheme (betting letter, game letter, ``/8`` for
hi-lo; docs/hand-history.md): ``PT`` pot-limit Hold'em, ``PO/8`` pot-limit Omaha hi-lo,
and likewise ``NO``, ``FO``, ``NO/8``. They carry the fields of ``NT``/``PO`` (or of
``FT``/``FO/8`` for fixed limit).

Player ``pN`` is position N-1: the N-th seat clockwise from the button's left (heads-up,
p1 is the big blind and p2 the button), as in pokerkit. Hole cards a file hides (``????``)
are replaced by cards nobody holds: they matter only if shown, and a shown hand
(``pN sm CARDS``) gives them.

``blinds_or_straddles`` gives each position's blind as pokerkit reads it. Two cases of the
dead-button rule (docs/rules.md 6.14) are written in it too: a dead small blind is a big
blind at p1 and no small blind (``[10, 0, 0]``: pokerkit reads it alike), and a big blind
posted out of turn by a player new to the table is the big blind at that position, with
the player listed in our extension field ``_posted_big_blinds`` (``[4]``: p4; PHH's
user-defined fields start with an underscore). pokerkit would read such a post as a
straddle.

What home games play (issue 18 items 11-15; docs/hand-history.md, "House games"):

- a **straddle** is a blind of twice the big blind at the player after the big blind (under
  the gun) or at the button (the last player), as pokerkit reads ``blinds_or_straddles``;
  ``_straddle`` names its player (``3``: p3). The button straddle acts last before the flop
  (the Mississippi straddle), where pokerkit would open the action left of it;
- a **bomb pot** (``_bomb_pot = true``): every player's ante in ``antes``, no blinds, and
  no betting before the flop (the actions go from the hole cards to the flop; ``pN cc``
  lines there, pokerkit's way of writing a checked-round, are read as nothing);
  ``starting_board_count = 2`` (pokerkit's name) deals two boards, each street's ``d db``
  board 1 then board 2;
- **run it twice**: ``runout_count`` (1 or 2) says the players still in were asked after an
  all-in and what they chose; with 2 the ``d db`` lines deal run 1 to the river, then run
  2, and ``runouts`` lists each run's whole board (``['Jc7cThTs4c', '6d9d9cQdAs']``);
- **seven-deuce**: ``_seven_deuce`` is the table's payment; ``finishing_stacks`` count it;
  an uncontested winner who showed is ``pN sm CARDS`` after the pot.

>>> text = '''
... variant = 'NT'
... antes = [0, 0]
... blinds_or_straddles = [1, 2]
... min_bet = 2
... starting_stacks = [100, 100]
... actions = ['d dh p1 AcAd', 'd dh p2 7c2h', 'p2 cbr 6', 'p1 cbr 100', 'p2 f']
... finishing_stacks = [106, 94]
... '''
>>> replay_flop_phh_text(text).match
True
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from bot.engine.actions import Action
from bot.engine.cards import CARDS, Card
from bot.engine.errors import GameError, HomeGameError, InvalidCard, InvalidConfig
from bot.engine.flop.hand import FlopHand
from bot.engine.flop.rules import FlopRules
from bot.engine.razz.phh import PHHError

_BETTING: Final = {"N": "no-limit", "P": "pot-limit", "F": "fixed-limit"}
_GAME: Final = {"T": "holdem", "O": "omaha"}
#: The variant codes pokerkit itself reads.
POKERKIT_VARIANTS: Final = frozenset(("NT", "FT", "PO", "FO/8"))
#: Every code this module reads and writes.
VARIANTS: Final = frozenset(
    b + g + s for b in "NPF" for g in "TO" for s in ("", "/8") if not (g == "T" and s)
)


def variant_code(rules: FlopRules) -> str:
    """The PHH variant code of a table's rules."""
    letter = {v: k for k, v in _BETTING.items()}[rules.betting]
    game = "T" if rules.game == "holdem" else "O"
    return letter + game + ("/8" if rules.split == "hi-lo" else "")


@dataclass(frozen=True, slots=True)
class FlopReplay:
    """The outcome of replaying one PHH hand through our engine."""

    name: str
    finishing_stacks: list[int]
    recorded: list[int] | None
    hand: FlopHand

    @property
    def match(self) -> bool | None:
        if self.recorded is None:
            return None
        return self.recorded == self.finishing_stacks


def hand_to_phh(hand: FlopHand, *, players: list[str] | None = None) -> str:
    """The finished ``hand`` as PHH text (TOML); pokerkit replays the ``NT``/``FT``/
    ``PO``/``FO/8`` ones to our finishing stacks."""
    if not hand.is_over:
        raise GameError("only a finished hand can be written as a hand history")
    r, n = hand.rules, hand.n
    names = players or [f"seat {s}" for s in hand.seat_ids]

    def q(text: str) -> str:
        return "'" + text.replace("'", "") + "'"

    def ints(values: list[int]) -> str:
        return "[" + ", ".join(map(str, values)) + "]"

    antes = [0] * n
    if hand.bomb:
        antes = [hand.bomb] * n
    elif r.bb_ante:
        # pokerkit swaps heads-up, so index 1 is the big blind heads-up too
        antes[1 if n == 2 else hand.bb_pos] = r.ante
    else:
        antes = [r.ante] * n
    blinds = list(hand.blinds)
    if n == 2:
        blinds.reverse()  # pokerkit's heads-up order: the small blind first
    dead = r.antes_dead and not hand.bomb  # a bomb pot's antes are live
    lines = [
        f"variant = {q(variant_code(r))}",
        f"ante_trimming_status = {'false' if dead else 'true'}",
        f"antes = {ints(antes)}",
        f"blinds_or_straddles = {ints(blinds)}",
    ]
    if hand.posts:
        lines.append(f"_posted_big_blinds = {ints([p + 1 for p in hand.posts])}")
    if hand.straddle_pos is not None:
        lines.append(f"_straddle = {hand.straddle_pos + 1}")
    if hand.bomb:
        lines.append("_bomb_pot = true")
    if len(hand.boards) > 1 and hand.runs == 1:
        lines.append(f"starting_board_count = {len(hand.boards)}")
    if r.run_it_twice == "ask" and hand.shown_early and len(hand.boards) == hand.runs:
        # the players still in were asked after an all-in: what they chose
        lines.append(f"runout_count = {hand.runs}")
        if hand.runs > 1:
            runs = ", ".join(q("".join(str(c) for c in b)) for b in hand.boards)
            lines.append(f"runouts = [{runs}]")
    if r.seven_deuce:
        lines.append(f"_seven_deuce = {r.seven_deuce}")
    if r.betting == "fixed-limit":
        lines += [f"small_bet = {r.small_limit}", f"big_bet = {r.big_limit}"]
    else:
        lines.append(f"min_bet = {r.min_raise_bet}")
    lines += [
        f"starting_stacks = {ints(hand.starting)}",
        f"actions = [{', '.join(q(a) for a in hand.phh_actions)}]",
        f"players = [{', '.join(q(x) for x in names)}]",
        f"finishing_stacks = {ints(hand.stacks)}",
    ]
    return "\n".join(lines) + "\n"


def _parse_cards(code: str) -> list[Card | None]:
    """Cards written together; ``??`` is a hidden card (None)."""
    if len(code) % 2:
        raise InvalidCard(code, "cards are written as rank+suit pairs")
    out: list[Card | None] = []
    ranks, suits = "23456789TJQKA", "cdhs"
    for i in range(0, len(code), 2):
        rank, suit = code[i], code[i + 1]
        if rank == "?" and suit == "?":
            out.append(None)
            continue
        if rank.upper() not in ranks or suit.lower() not in suits:
            raise InvalidCard(code[i : i + 2], "not a card")
        out.append(CARDS[ranks.index(rank.upper()) * 4 + suits.index(suit.lower())])
    return out


def _player(token: str, n: int) -> int:
    if not (token.startswith("p") and token[1:].isdigit() and 1 <= int(token[1:]) <= n):
        raise InvalidConfig("player", f"no player {token!r} (p1..p{n})")
    return int(token[1:]) - 1


def _words(text: str) -> list[str]:
    return text.split("#", 1)[0].split()


def _stack_deck(actions: list[str], n: int, k: int, name: str) -> list[Card]:
    """The deck our engine deals from: each position's hole cards, then the board."""
    hole: list[list[Card | None]] = [[] for _ in range(n)]
    shown: dict[int, list[Card | None]] = {}
    board: list[Card] = []
    for i, text in enumerate(actions, 1):
        words = _words(text)
        try:
            if words[:2] == ["d", "dh"] and len(words) == 4:
                p = _player(words[2], n)
                if hole[p]:
                    raise InvalidConfig("action", f"p{p + 1} is dealt hole cards twice")
                hole[p] = _parse_cards(words[3])
                if len(hole[p]) != k:
                    raise InvalidConfig("action", f"{k} hole cards per player, got {len(hole[p])}")
            elif words[:2] == ["d", "db"] and len(words) == 3:
                cards = _parse_cards(words[2])
                if None in cards:
                    raise InvalidCard(words[2], "a board card cannot be hidden")
                board.extend(c for c in cards if c is not None)
            elif len(words) == 3 and words[1] == "sm" and words[0] != "d":
                shown[_player(words[0], n)] = _parse_cards(words[2])
        except HomeGameError as exc:
            raise PHHError(f"{name}: action {i} {text!r}: {exc.message}") from None
    for p, cards in shown.items():
        if hole[p] and None in hole[p] and len(cards) == k and None not in cards:
            hole[p] = cards
    if any(len(h) != k for h in hole):
        raise PHHError(f"{name}: field 'actions': every player must be dealt {k} hole cards")
    known = [c for h in hole for c in h if c is not None] + board
    if len(set(known)) != len(known):
        raise PHHError(f"{name}: field 'actions': a card is dealt twice")
    spare = iter([c for c in CARDS if c not in set(known)])
    order = [c if c is not None else next(spare) for h in hole for c in h] + board
    used = set(order)
    return order + [c for c in CARDS if c not in used]


def replay_flop_phh_text(
    text: str, *, name: str = "<phh>", hand_class: type[FlopHand] = FlopHand
) -> FlopReplay:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PHHError(f"{name}: not TOML: {exc}") from None
    return replay_flop_phh_data(data, name=name, hand_class=hand_class)


def _ints(data: Mapping[str, Any], key: str, name: str, n: int | None = None) -> list[int]:
    if key not in data:
        raise PHHError(f"{name}: missing field '{key}'")
    value = data[key]
    if isinstance(value, int) and not isinstance(value, bool) and n is not None:
        return [value] * n
    if not isinstance(value, list) or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in value
    ):
        raise PHHError(f"{name}: field '{key}' must be a list of integers, got {value!r}")
    if n is not None and len(value) != n:
        raise PHHError(f"{name}: field '{key}' has {len(value)} entries for {n} players")
    return list(value)


@dataclass(frozen=True, slots=True)
class _Blinds:
    small: int
    big: int
    dead_small: bool
    posts: list[int]
    """Positions posting a big blind out of turn."""
    straddle: int | None
    """The position that straddles."""
    bomb: bool
    """A bomb pot: antes only, no betting before the flop."""


def _bomb_pot(data: Mapping[str, Any], name: str, blinds: list[int]) -> bool:
    flag = data.get("_bomb_pot", False)
    if not isinstance(flag, bool):
        raise PHHError(f"{name}: field '_bomb_pot' must be true or false, got {flag!r}")
    return flag or not any(blinds)  # no blinds at all: only a bomb pot plays so


def _blinds(data: Mapping[str, Any], n: int, name: str) -> _Blinds:
    """The blinds from ``blinds_or_straddles``, ``_posted_big_blinds``, ``_straddle`` and
    ``_bomb_pot`` (module docstring)."""
    blinds = _ints(data, "blinds_or_straddles", name, n)
    if _bomb_pot(data, name, blinds):
        if any(blinds):
            raise PHHError(f"{name}: field 'blinds_or_straddles': a bomb pot has no blinds")
        return _Blinds(0, 0, False, [], None, True)
    marked = data.get("_straddle")
    straddle: int | None = None
    amount = 0
    if marked is not None:
        if isinstance(marked, bool) or not isinstance(marked, int) or not 1 <= marked <= n:
            raise PHHError(f"{name}: field '_straddle' must name a player 1 to {n}")
        straddle = marked - 1
        amount = blinds[straddle]
        blinds = [0 if p == straddle else b for p, b in enumerate(blinds)]
    posted = data.get("_posted_big_blinds", [])
    if not isinstance(posted, list) or not all(
        isinstance(p, int) and not isinstance(p, bool) and 1 <= p <= n for p in posted
    ):
        raise PHHError(f"{name}: field '_posted_big_blinds' must list players 1 to {n}")
    posts = sorted({p - 1 for p in posted})
    dead_small = n > 2 and blinds[0] > 0 and blinds[1] == 0
    big_pos = 0 if dead_small else 1
    small, big = (0, blinds[0]) if dead_small else (blinds[0], blinds[1])
    for p in range(n):
        if p in posts:
            if p <= big_pos or blinds[p] != big:
                raise PHHError(
                    f"{name}: field '_posted_big_blinds': p{p + 1} does not post the big blind"
                )
        elif p > big_pos and blinds[p]:
            if straddle is None and blinds[p] == 2 * big:
                straddle, amount = p, blinds[p]  # pokerkit's reading of a straddle
                continue
            raise PHHError(
                f"{name}: field 'blinds_or_straddles': p{p + 1} posts {blinds[p]}: only one"
                f" straddle of twice the big blind ({2 * big}) is read"
            )
    if straddle is not None:
        if n < 3 or straddle in posts or (straddle != big_pos + 1 and straddle != n - 1):
            raise PHHError(
                f"{name}: field 'blinds_or_straddles': p{straddle + 1} cannot straddle (only"
                " the player after the big blind or the button)"
            )
        if amount != 2 * big:
            raise PHHError(
                f"{name}: field 'blinds_or_straddles': a straddle is twice the big blind"
                f" ({2 * big}), p{straddle + 1} posts {amount}"
            )
    return _Blinds(small, big, dead_small, posts, straddle, False)


def _house(data: Mapping[str, Any], name: str) -> dict[str, Any]:
    """The house rules a history carries (module docstring)."""
    out: dict[str, Any] = {}
    count = data.get("runout_count")
    if count is not None:
        if count not in (1, 2) or isinstance(count, bool):
            raise PHHError(f"{name}: field 'runout_count' must be 1 or 2, got {count!r}")
        out["run_it_twice"] = "ask"
    bounty = data.get("_seven_deuce", 0)
    if isinstance(bounty, bool) or not isinstance(bounty, int) or bounty < 0:
        raise PHHError(f"{name}: field '_seven_deuce' must be a whole number, got {bounty!r}")
    if bounty:
        out["seven_deuce"] = bounty
    return out


def _rules(data: Mapping[str, Any], variant: str, n: int, name: str) -> FlopRules:
    antes = _ints(data, "antes", name, n)
    b = _blinds(data, n, name)
    small, big, dead_small = b.small, b.big, b.dead_small
    values: dict[str, Any] = {
        "game": _GAME[variant[1]],
        "betting": _BETTING[variant[0]],
        "split": "hi-lo" if variant.endswith("/8") else "high",
        "small_blind": small,
        "big_blind": big,
        "dead_antes": data.get("ante_trimming_status", False) is not True,
        "min_players": 2,
        **_house(data, name),
    }
    if b.straddle is not None:
        values["straddle"] = "button" if b.straddle == n - 1 and n > 3 else "under-the-gun"
    big_ante = 0 if dead_small else 1  # pokerkit swaps heads-up: index 1 there too
    if b.bomb:
        # a bomb pot: each player's ante is in ``antes`` (the hand's, not a house rule)
        if len(set(antes)) != 1 or antes[0] <= 0:
            raise PHHError(f"{name}: field 'antes': a bomb pot's antes are equal, got {antes}")
        values.update(small_blind=0, dead_antes=False)
    elif len(set(antes)) == 1:
        values["ante"] = antes[0]
    elif sum(1 for a in antes if a) == 1 and antes[big_ante]:
        # A big-blind ante is dead money in the main pot whatever ante_trimming_status
        # says: pokerkit returns it to the big blind when trimming is on (a lone ante is
        # "uncalled"), which no cardroom does; real WSOP records keep it in the pot.
        values.update(ante=antes[big_ante], bb_ante=True, dead_antes=True)
    else:
        raise PHHError(f"{name}: field 'antes': only equal antes or a big-blind ante, got {antes}")
    fields = ("small_bet", "big_bet") if variant[0] == "F" else ("min_bet",)
    for key in fields:
        value = data.get(key)
        if not isinstance(value, int) or isinstance(value, bool):
            raise PHHError(f"{name}: field '{key}' must be an integer, got {value!r}")
        values[key] = value
    if b.bomb:
        values["big_blind"] = values[fields[0]]  # no blinds: the smallest bet stands for it
    try:
        return FlopRules.create(**values)
    except InvalidConfig as exc:
        raise PHHError(f"{name}: field '{exc.field}': {exc.reason}") from None


def replay_flop_phh_data(
    data: Mapping[str, Any], *, name: str = "<phh>", hand_class: type[FlopHand] = FlopHand
) -> FlopReplay:
    """Replay a parsed PHH hand of a flop variant through our engine (``hand_class``: a
    :class:`FlopHand` with other readings, for the tests that compare with pokerkit)."""
    variant = data.get("variant")
    if variant not in VARIANTS:
        raise PHHError(f"{name}: field 'variant' is {variant!r}, not a Hold'em/Omaha code")
    stacks = _ints(data, "starting_stacks", name)
    n = len(stacks)
    if not 2 <= n <= 9:
        raise PHHError(f"{name}: field 'starting_stacks': 2 to 9 players, got {n}")
    rules = _rules(data, variant, n, name)
    actions = data.get("actions")
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise PHHError(f"{name}: field 'actions' must be a list of strings")
    recorded = _ints(data, "finishing_stacks", name, n) if "finishing_stacks" in data else None
    deck = _stack_deck(actions, n, rules.hole_cards, name)
    b = _blinds(data, n, name)
    antes = _ints(data, "antes", name, n)
    boards = data.get("starting_board_count", 1)
    if boards not in (1, 2) or isinstance(boards, bool):
        raise PHHError(f"{name}: field 'starting_board_count' must be 1 or 2, got {boards!r}")
    if boards == 2 and not b.bomb:
        raise PHHError(f"{name}: field 'starting_board_count': two boards are a bomb pot's")
    runs = data.get("runout_count", 1)
    try:
        hand = hand_class(
            rules,
            [(p + 1, s) for p, s in enumerate(stacks)],
            dealer=n,
            deck=deck,
            dead_small=b.dead_small,
            posts=[p + 1 for p in b.posts],
            straddle=None if b.straddle is None else b.straddle + 1,
            bomb=antes[0] if b.bomb else 0,
            boards=boards,
        )
    except InvalidConfig as exc:
        raise PHHError(f"{name}: field '{exc.field}': {exc.reason}") from None
    hand.start()
    board_read = [0]  # board cards the file has dealt so far
    for i, text in enumerate(actions, 1):
        try:
            _choose(hand, runs, text)
            _replay_one(hand, text, n, board_read)
        except HomeGameError as exc:
            raise PHHError(f"{name}: action {i} {text!r}: {exc.message}") from None
    try:
        _choose(hand, runs, None)
    except HomeGameError as exc:
        raise PHHError(f"{name}: field 'actions': {exc.message}") from None
    if not hand.is_over:
        raise PHHError(f"{name}: field 'actions': the hand is not over after the last action")
    _check_runouts(data, hand, name)
    return FlopReplay(name, list(hand.stacks), recorded, hand)


def _choose(hand: FlopHand, runs: int, text: str | None) -> None:
    """A decision outside the betting the hand waits for, as the history tells it: after
    an all-in, every player still in chose as ``runout_count`` says; an uncontested
    winner at a seven-deuce table showed (the next action ``pN sm CARDS``) or mucked."""
    if hand.choice == "runout":
        kind = "twice" if runs == 2 else "once"
        for seat in sorted(hand.to_act()):
            hand.apply(Action(seat, kind))
    elif hand.choice == "show":
        (seat,) = hand.to_act()
        words = [] if text is None else _words(text)
        shows = len(words) == 3 and words[1] == "sm" and words[0] == f"p{hand.position(seat) + 1}"
        hand.apply(Action(seat, "show" if shows else "muck"))


def _check_runouts(data: Mapping[str, Any], hand: FlopHand, name: str) -> None:
    """``runout_count`` and ``runouts`` say what our engine dealt."""
    count = data.get("runout_count")
    if count is not None and count != hand.runs:
        raise PHHError(f"{name}: field 'runout_count' is {count}, the board ran {hand.runs}")
    given = data.get("runouts")
    if given is None:
        return
    ours = ["".join(str(c) for c in board) for board in hand.boards]
    if not isinstance(given, list) or [str(g) for g in given] != ours:
        raise PHHError(f"{name}: field 'runouts' is {given!r}, the actions deal {ours}")


def _dealt_boards(hand: FlopHand) -> list[Card]:
    """Every board card our engine dealt, in the order it dealt them (the ``d db`` lines
    of its own history: two boards or two runs interleave as the file's do)."""
    out: list[Card] = []
    for line in hand.phh_actions:
        if line.startswith("d db "):
            out.extend(c for c in _parse_cards(line[5:]) if c is not None)
    return out


def _replay_one(hand: FlopHand, text: str, n: int, board_read: list[int]) -> None:
    words = _words(text)
    if not words:
        return
    if words[0] == "d":
        if words[1:2] == ["db"] and len(words) == 3:
            # Our engine deals a street when the betting before it closes (an all-in
            # run-out deals them all at once), so the file's board trails ours.
            cards = [c for c in _parse_cards(words[2]) if c is not None]
            start = board_read[0]
            board_read[0] += len(cards)
            if _dealt_boards(hand)[start : board_read[0]] != cards:
                raise GameError("our engine has another board at this point")
        elif words[1:2] != ["dh"] or len(words) != 4:
            raise GameError("unsupported dealer action ('d dh' and 'd db' only)")
        return
    p = _player(words[0], n)
    seat = hand.seat_ids[p]
    verb = words[1] if len(words) > 1 else ""
    if verb == "sm":
        return  # our showdown shows or mucks by itself
    if hand.bomb and board_read[0] == 0:
        # a bomb pot: nothing is bet before the flop (a checked-round is read as nothing)
        if words[1:] == ["cc"]:
            return
        raise GameError("a bomb pot has no betting before the flop")
    if verb == "f" and len(words) == 2:
        hand.apply(Action(seat, "fold"))
    elif verb == "cc" and len(words) == 2:
        owed = hand.top > hand.bets[p]
        hand.apply(Action(seat, "call" if owed else "check"))
    elif verb == "cbr" and len(words) == 3:
        if not words[2].isdigit():
            raise GameError(f"amount {words[2]!r} is not a whole number")
        hand.apply(Action(seat, hand.aggressive_kind(), amount=int(words[2])))
    else:
        raise GameError("unknown action")
