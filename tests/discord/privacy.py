"""A privacy audit over everything the fake Discord recorded (DESIGN "What each user sees").

:class:`PrivacyRecorder` sits between the TableService and the tables cog (it is the
service's subscriber). On every committed change, before anything is rendered, it records
the ground truth: each seated user's hidden cards (Zoot/Wheelers: the whole hand; Razz: the
down cards, up cards being public) and whether the hand is over (its showdown published).

:func:`privacy_leaks` then reads every version of every message each user could see
(channel, DMs, ephemerals; content, embeds, components with option values, attachment
filenames and alt text) and reports each card of ANOTHER user that appears, by its code
(``Qh``) or its pretty form (``Q♥``), while that card was hidden, i.e. at the version's time
the owner held it face down and the hand was not over. Two things are legitimate:

- a card revealed at an earlier hand's showdown may still be mentioned (the table
  message's "Recent" lines) after the deck is shuffled again and dealt to someone else;
- after a guts exchange a discarded card may reappear in another player's hand: a card the
  viewer themselves held in the same hand is theirs to have seen.

Each table has its own deck: a message is read against its own table only (issue 19, item
16: with two tables at once, a card on one table's board was matched against a card held
face down at the other). A message's table is the one its buttons (``hg:<table>:...``) or
its title (``table #N``) name, else the table of the channel it is in; a message that
names none and is in no table's channel (a DM note) is read against every table.
"""

from __future__ import annotations

import bisect
import re
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.app import PublishRelay
from bot.engine.cards import CARDS, Card, parse_card
from bot.tables.errors import NotSeated, TableClosed
from bot.tables.stud import STUD_GAMES
from bot.tables.views import Published
from bot.testing import FakeDiscord, FakeMessage, FakeUser
from bot.testing.fake_model import MessageVersion, walk_components

OVER_KINDS = frozenset({"hand_over", "game_over"})


@dataclass(frozen=True)
class HiddenState:
    at: float
    table_id: int
    hand_number: int
    over: bool
    hidden: Mapping[int, frozenset[Card]]
    """user id -> the cards only that user may see now."""


@dataclass
class PrivacyRecorder(PublishRelay):
    """The service's subscriber for audited tests (``table_bot(relay=...)``)."""

    clock: Callable[[], float] = time.monotonic
    service: Any = None
    states: list[HiddenState] = field(default_factory=list)
    held: dict[tuple[int, int, int], set[Card]] = field(default_factory=dict)
    """(table, hand number, user) -> every card the user held face down in that hand."""
    revealed: dict[tuple[int, int], set[Card]] = field(default_factory=dict)
    """(table, hand number) -> the cards shown at that hand's showdown."""
    channels: dict[int, set[int]] = field(default_factory=dict)
    """channel id -> the tables that were played there."""
    _over: dict[int, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        super().__init__()

    async def publish(self, published: Published) -> None:
        await self.record(published)
        await super().publish(published)

    async def record(self, published: Published) -> None:
        view = published.view
        tid, number = view.table_id, view.hand_number
        self.channels.setdefault(view.channel_id, set()).add(tid)
        for event in published.events:
            shown = _shown_cards(event.kind, event.data)
            if shown:
                self.revealed.setdefault((tid, number), set()).update(shown)
            if event.kind in OVER_KINDS:
                self._over[tid] = number
        over = self._over.get(tid) == number
        hidden: dict[int, frozenset[Card]] = {}
        if not over and self.service is not None:
            for uid in published.user_ids_by_seat.values():
                try:
                    # no I/O for a live table: this reads the state just committed
                    pv = await self.service.private_view(tid, uid)
                except (NotSeated, TableClosed):
                    continue
                # the stud games' up cards are public; only the down cards are hidden
                cards = frozenset(pv.down_cards if pv.game in STUD_GAMES else pv.cards)
                hidden[uid] = cards - self.revealed.get((tid, number), set())
                self.held.setdefault((tid, number, uid), set()).update(cards)
        self.states.append(HiddenState(self.clock(), tid, number, over, hidden))


def _shown_cards(kind: str, data: Mapping[str, Any]) -> set[Card]:
    if kind in ("show", "reveal"):  # a showdown; a winner who shows (seven-deuce)
        return {parse_card(c) for c in data.get("cards", ())}
    if kind == "runout_ask":  # all in before the river: the hands are shown (run it twice)
        return {parse_card(c) for h in data.get("hands", {}).values() for c in h}
    if kind == "showdown":  # guts
        return {parse_card(c) for h in data.get("hands", {}).values() for c in h["cards"]}
    return set()


def version_text(version: MessageVersion) -> str:
    """Everything a user can read in one version of a message."""
    parts = [version.content]
    for embed in version.embeds:
        parts += [str(embed.get(k, "")) for k in ("title", "description")]
        parts.append(str((embed.get("author") or {}).get("name", "")))
        for fld in embed.get("fields", ()):
            parts += [str(fld.get("name", "")), str(fld.get("value", ""))]
        parts.append(str((embed.get("footer") or {}).get("text", "")))
    for component in walk_components(version.components):
        for key in ("label", "placeholder", "content"):
            parts.append(str(component.get(key) or ""))
        for option in component.get("options", ()):
            parts += [str(option.get(k) or "") for k in ("label", "description", "value")]
    for attachment in version.attachments:
        parts += [attachment.filename, attachment.description or ""]
    return "\n".join(p for p in parts if p)


_PATTERNS: dict[Card, re.Pattern[str]] = {
    card: re.compile(
        rf"(?<![A-Za-z0-9]){re.escape(str(card))}(?![A-Za-z0-9])|{re.escape(card.pretty)}"
    )
    for card in CARDS
}


def cards_in(text: str, cards: Iterable[Card]) -> list[Card]:
    """Which of ``cards`` the text names, as a code (``Qh``) or pretty (``Q♥``)."""
    return [c for c in cards if _PATTERNS[c].search(text)]


_CUSTOM_ID_TABLE = re.compile(r"^hg:(\d+):")
_TITLE_TABLE = re.compile(r"\btable #(\d+)\b", re.IGNORECASE)


def tables_of(
    message: FakeMessage, version: MessageVersion, recorder: PrivacyRecorder
) -> set[int] | None:
    """The table(s) whose cards this version of ``message`` could give away (see the module
    docstring); None: it names no table and is in no table's channel (read against all)."""
    named: set[int] = set()
    for component in walk_components(version.components):
        found = _CUSTOM_ID_TABLE.match(str(component.get("custom_id") or ""))
        if found:
            named.add(int(found[1]))
    for embed in version.embeds:
        for text in (embed.get("title"), (embed.get("author") or {}).get("name")):
            named.update(int(n) for n in _TITLE_TABLE.findall(str(text or "")))
    if named:
        return named
    played = recorder.channels.get(message.channel.id)
    if played:
        return set(played)
    named.update(int(n) for n in _TITLE_TABLE.findall(version.content))
    return named or None


@dataclass(frozen=True)
class Leak:
    viewer: str
    owner: int
    card: str
    kind: str
    text: str


def privacy_leaks(
    fake: FakeDiscord, recorder: PrivacyRecorder, viewers: Iterable[FakeUser]
) -> tuple[list[Leak], int]:
    """Every leak (see the module docstring) and how many (viewer, version) pairs were read."""
    by_table: dict[int, list[HiddenState]] = {}
    for state in recorder.states:
        by_table.setdefault(state.table_id, []).append(state)
    times = {tid: [s.at for s in states] for tid, states in by_table.items()}
    leaks: list[Leak] = []
    checked = 0
    for viewer in viewers:
        for message in list(fake.messages.values()):
            if not fake.can_see(viewer, message):
                continue
            kind = (
                "ephemeral"
                if message.ephemeral_to
                else "dm"
                if message.channel.is_dm
                else "channel"
            )
            for version in message.versions:
                text = version_text(version)
                checked += 1
                own = tables_of(message, version, recorder)
                for tid, states in by_table.items():
                    if own is not None and tid not in own:
                        continue  # another table's deck: its cards are not this one's
                    i = bisect.bisect_right(times[tid], version.at) - 1
                    if i < 0 or states[i].over:
                        continue
                    state = states[i]
                    mine = recorder.held.get((tid, state.hand_number, viewer.id), set())
                    old = set().union(
                        *(
                            v
                            for (t, n), v in recorder.revealed.items()
                            if t == tid and n < state.hand_number
                        )
                    )
                    for owner, cards in state.hidden.items():
                        if owner == viewer.id:
                            continue
                        for card in cards_in(text, cards - mine - old):
                            leaks.append(Leak(viewer.name, owner, str(card), kind, text[:200]))
    return leaks, checked


def assert_private(
    fake: FakeDiscord, recorder: PrivacyRecorder, viewers: Iterable[FakeUser]
) -> int:
    """No leak; returns how many (viewer, version) pairs were read (the audit is not empty)."""
    leaks, checked = privacy_leaks(fake, recorder, viewers)
    assert not leaks, leaks[:5]
    hidden_states = [s for s in recorder.states if s.hidden and any(s.hidden.values())]
    assert checked > 0 and hidden_states, "nothing was audited"
    return checked
