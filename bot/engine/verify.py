"""Checking a hand history against its seed (``python -m bot verify``, and the **Verify**
line of ``/history``): docs/hand-history.md, "Verifiable shuffle".

A verifiable table's hand history carries three fields beside the game's own:
``_shuffle`` (the name of the seed -> deck function, :data:`~bot.engine.shuffle.SHUFFLE_NAME`),
``_commitment`` (the SHA-256 the table showed before the hand) and, once the table has
closed, ``_seed``. :func:`verify_text` recomputes the deck from the seed and checks

1. that the seed's SHA-256 is the commitment;
2. that every card the file deals (``d dh``, ``d db``) is the next card of that deck: our
   engines deal from the top in the order the file lists the deals, with no burn cards
   (a stud community card, rules §4.8, written as the same card dealt to each remaining
   player, is one card of the deck);
3. that every reshuffle of the discards (``d rf``, Zoot and Wheelers, rules §1.6) is the
   seed's reshuffle of exactly the cards discarded since the last one, and goes under the
   stock;
4. that every card a player shows (``sm``) or discards (``sd``) is one dealt to them.

A card written ``??`` (hidden) is skipped. It checks cards only: ``python -m bot replay``
checks the chips.

>>> from bot.engine.shuffle import commitment, seed_deck
>>> seed = "00" * 32
>>> deck = [str(c) for c in seed_deck(seed)]
>>> text = with_shuffle_fields(
...     "variant = 'NT'\\n"
...     f"actions = ['d dh p1 {deck[0]}{deck[1]}', 'd dh p2 {deck[2]}{deck[3]}', 'p2 f']\\n",
...     commitment=commitment(seed), seed=seed)
>>> verdict = verify_text(text)
>>> verdict.matches, verdict.cards
(True, 4)
>>> verify_text(text.replace(deck[3], "As" if deck[3] != "As" else "Ks")).matches
False
"""

from __future__ import annotations

import hashlib
import re
import tomllib
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from bot.engine.cards import CARDS, Card
from bot.engine.errors import HomeGameError
from bot.engine.shuffle import SHUFFLE_NAME, is_seed, reshuffle, seed_deck

#: pokerkit's codes of the stud games, whose community card (rules §4.8) may be written as
#: the same card dealt to every remaining player.
STUD_VARIANTS: Final = frozenset(("FR", "F7S", "F7S/8"))
_PLAYER: Final = re.compile(r"p[0-9]+")
_RANKS: Final = "23456789TJQKA"
_SUITS: Final = "cdhs"
_FIELD_LINE: Final = re.compile(r"^_(?:shuffle|commitment|seed) = .*\n?", re.MULTILINE)


class Unverifiable(HomeGameError):
    """A file that cannot be checked at all (unreadable, not TOML, no seed or commitment).
    A file that can be checked and fails is a :class:`Verdict` with ``matches`` False."""


@dataclass(frozen=True, slots=True)
class Verdict:
    """What checking one hand history found."""

    matches: bool
    problem: str | None
    """What does not match (None when everything does)."""
    cards: int
    """Cards the file deals that were checked against the deck (not hidden ``??`` ones)."""
    reshuffles: int
    seed: str
    commitment: str

    def sentence(self) -> str:
        """One plain sentence: ``matches: ...`` or ``does not match: ...``."""
        if not self.matches:
            return f"does not match: {self.problem}"
        text = (
            "matches: the SHA-256 of the seed is the commitment, and the deck the seed makes"
            f" deals all {self.cards} cards the file shows"
        )
        if self.reshuffles:
            text += f" ({self.reshuffles} reshuffle{'s' * (self.reshuffles > 1)} included)"
        return text


def with_shuffle_fields(text: str, *, commitment: str, seed: str | None = None) -> str:
    """``text`` (a hand history, TOML) with the verifiable shuffle's fields: ``_shuffle``,
    ``_commitment`` and (once the table has closed) ``_seed``, written before the file's
    first table (``[_rules]``), as TOML wants top-level keys; any such fields already there
    are replaced."""
    lines = [f"_shuffle = '{SHUFFLE_NAME}'", f"_commitment = '{commitment}'"]
    if seed is not None:
        lines.append(f"_seed = '{seed}'")
    body = _FIELD_LINE.sub("", text)
    if body and not body.endswith("\n"):
        body += "\n"
    block = "\n".join(lines) + "\n"
    match = re.search(r"^\[", body, re.MULTILINE)
    if match is None:
        return body + block
    head = body[: match.start()]
    if head.endswith("\n\n"):
        return head[:-1] + block + "\n" + body[match.start() :]
    return head + block + body[match.start() :]


def _hex(raw: Mapping[str, Any], key: str) -> str | None:
    value = raw[key]
    if isinstance(value, str) and is_seed(value.lower()):
        return value.lower()
    return None


def verify_text(text: str) -> Verdict:
    """Check a hand history's cards against its seed (see the module docstring). Raises
    :class:`Unverifiable` naming what is missing when it cannot be checked."""
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise Unverifiable(f"not a hand history (not TOML: {exc})") from None
    return verify_data(raw)


def verify_data(raw: Mapping[str, Any]) -> Verdict:
    """:func:`verify_text` of a loaded file."""
    variant = raw.get("variant")
    if not isinstance(variant, str):
        raise Unverifiable("not a hand history (no 'variant' field)")
    actions = raw.get("actions")
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise Unverifiable("not a hand history (no 'actions' list)")
    shuffle = raw.get("_shuffle", SHUFFLE_NAME)
    if shuffle != SHUFFLE_NAME:
        raise Unverifiable(f"_shuffle is {shuffle!r}; this version knows {SHUFFLE_NAME!r}")
    if "_commitment" not in raw:
        raise Unverifiable("no '_commitment' field: the hand was not dealt at a verifiable table")
    if "_seed" not in raw:
        raise Unverifiable(
            "no '_seed' field: a verifiable table publishes each hand's seed when it closes"
            " (open the hand in /history then)"
        )
    seed, promised = _hex(raw, "_seed"), _hex(raw, "_commitment")
    shown_seed, shown_commit = str(raw["_seed"]), str(raw["_commitment"])

    def refused(problem: str, cards: int = 0, reshuffles: int = 0) -> Verdict:
        return Verdict(False, problem, cards, reshuffles, shown_seed, shown_commit)

    if seed is None:
        return refused("'_seed' is not 64 hex digits")
    if promised is None:
        return refused("'_commitment' is not 64 hex digits")
    actual = hashlib.sha256(bytes.fromhex(seed)).hexdigest()
    if actual != promised:
        return refused(
            f"the SHA-256 of the seed is {actual}, not the commitment {promised}:"
            " the seed or the commitment was changed"
        )
    problem, cards, reshuffles = _check_cards(seed, actions, stud=variant in STUD_VARIANTS)
    if problem is not None:
        return Verdict(False, problem, cards, reshuffles, seed, promised)
    return Verdict(True, None, cards, reshuffles, seed, promised)


class _Mismatch(Exception):
    pass


def _cards(token: str) -> list[Card | None]:
    """Cards written together (``AhKd``); ``??`` is a hidden card (None)."""
    if len(token) % 2:
        raise _Mismatch(f"{token!r} is not cards written as rank and suit pairs")
    out: list[Card | None] = []
    for i in range(0, len(token), 2):
        rank, suit = token[i], token[i + 1]
        if rank == "?" and suit == "?":
            out.append(None)
        elif rank.upper() in _RANKS and suit.lower() in _SUITS:
            out.append(CARDS[_RANKS.index(rank.upper()) * 4 + _SUITS.index(suit.lower())])
        else:
            raise _Mismatch(f"{token[i : i + 2]!r} is not a card")
    return out


def _words(line: str) -> list[str]:
    return line.split("#", 1)[0].split()


def _community_run(actions: Sequence[str], i: int, card: Card | None) -> int:
    """How many consecutive one-card deals from ``actions[i]`` give the same ``card``."""
    n = 1
    while card is not None and i + n < len(actions):
        w = _words(actions[i + n])
        if len(w) == 4 and w[:2] == ["d", "dh"] and w[3] == str(card):
            n += 1
        else:
            break
    return n


def _check_cards(seed: str, actions: Sequence[str], *, stud: bool) -> tuple[str | None, int, int]:
    """(what does not match or None, cards checked, reshuffles seen)."""
    stock: deque[Card | None] = deque(seed_deck(seed))
    held: dict[str, list[Card]] = {}
    discards: list[Card | None] = []
    checked = reshuffles = 0
    i = 0

    def draw(card: Card | None) -> Card | None:
        """The next card of the deck, checked against the file's (a hidden one is the
        deck's: the seed says what it was)."""
        nonlocal checked
        if not stock:
            raise _Mismatch("more cards are dealt than the deck holds")
        expected = stock.popleft()
        if card is None or expected is None:
            return expected if card is None else card
        if card != expected:
            raise _Mismatch(f"the seed's deck deals {expected} here, the file shows {card}")
        checked += 1
        return card

    while i < len(actions):
        line = actions[i]
        w = _words(line)
        step = 1
        try:
            if len(w) == 4 and w[:2] == ["d", "dh"] and _PLAYER.fullmatch(w[2]):
                cards = _cards(w[3])
                run = _community_run(actions, i, cards[0]) if stud and len(cards) == 1 else 1
                if run > 1:
                    # rules §4.8: one community card, written as dealt to each player left
                    left = len(stock)
                    if left >= run:
                        raise _Mismatch(
                            f"{cards[0]} is dealt to {run} players, but the deck still holds"
                            f" {left} cards (a community card is dealt only when the deck"
                            " cannot give every player one)"
                        )
                    card = draw(cards[0])
                    assert card is not None
                    for k in range(run):
                        held.setdefault(_words(actions[i + k])[2], []).append(card)
                    step = run
                else:
                    mine = held.setdefault(w[2], [])
                    for c in cards:
                        got = draw(c)
                        if got is not None:
                            mine.append(got)
            elif len(w) == 3 and w[:2] == ["d", "db"]:
                for c in _cards(w[2]):
                    draw(c)
            elif len(w) == 3 and w[:2] == ["d", "rf"]:
                cards = _cards(w[2])
                reshuffles += 1
                known = [c for c in cards if c is not None]
                pile = [c for c in discards if c is not None]
                if len(known) < len(cards) or len(pile) < len(discards):
                    stock.extend([None] * len(cards))  # hidden cards: not checked
                else:
                    if sorted(known) != sorted(pile):
                        raise _Mismatch(
                            "the reshuffled cards are not the discards since the last reshuffle"
                        )
                    expected = reshuffle(seed, reshuffles, known)
                    if expected != known:
                        raise _Mismatch(
                            f"the seed reshuffles the discards as {''.join(map(str, expected))},"
                            f" the file shows {''.join(map(str, known))}"
                        )
                    stock.extend(known)
                discards.clear()
            elif len(w) == 3 and _PLAYER.fullmatch(w[0]) and w[1] in ("sd", "sm"):
                mine = held.get(w[0], [])
                for c in _cards(w[2]):
                    if c is None:
                        if w[1] == "sd":
                            discards.append(None)
                        continue
                    if c not in mine:
                        verb = "discards" if w[1] == "sd" else "shows"
                        raise _Mismatch(f"{w[0]} {verb} {c}, which the deck did not deal to them")
                    if w[1] == "sd":
                        mine.remove(c)
                        discards.append(c)
        except _Mismatch as exc:
            return f"action {i + 1} {line!r}: {exc}", checked, reshuffles
        i += step
    return None, checked, reshuffles
