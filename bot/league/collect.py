"""A season's statistics from the store: each finished hand's :class:`~bot.league.figures.Facts`
computed once (a finished hand never changes) and kept in memory, then added up per member
and game.

The computing (reading every history; the all-in equities, up to a few tenths of a second
for an all-in before the flop) runs in the image worker pool (:mod:`bot.render.pool`), in
small batches, so the bot's event loop never waits for it and a table's pictures queue
behind at most one batch. The cache holds :data:`CACHE_HANDS` hands; past that the oldest
go and are computed again when asked for.
"""

from __future__ import annotations

import asyncio
import weakref
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from bot.league.figures import Facts, StoredHand, Tally, facts_of_hands
from bot.render.pool import render
from bot.store import Store
from bot.store.stat_hands import HandRow, SeasonHand

CACHE_HANDS = 200_000
BATCH = 150


def stored(row: HandRow) -> StoredHand:
    return StoredHand(
        hand_id=row.hand_id,
        game=row.game,
        history=row.history,
        seats=row.seats,
        users=row.users,
        result=row.result,
    )


@dataclass(slots=True)
class SeasonStats:
    """One season's (or one game's) figures: who played which hand, and each hand's facts."""

    hands: list[SeasonHand]
    facts: Mapping[int, Mapping[int, Facts]]
    """hand id -> user id -> facts."""
    tallies: dict[int, dict[str, Tally]] = field(default_factory=dict)
    """user id -> game -> totals."""

    def __post_init__(self) -> None:
        for h in self.hands:
            for user, f in self.facts.get(h.hand_id, {}).items():
                self.tallies.setdefault(user, {}).setdefault(h.game, Tally()).add(f)

    def tally(self, user_id: int, game: str | None = None) -> Tally:
        """The member's totals in ``game`` (None: all games)."""
        games = self.tallies.get(user_id, {})
        if game is not None:
            return games.get(game, Tally())
        total = Tally()
        for t in games.values():
            for name in Tally.__dataclass_fields__:
                setattr(total, name, getattr(total, name) + getattr(t, name))
        return total

    def members(self) -> list[int]:
        return sorted(self.tallies)


@dataclass(frozen=True, slots=True)
class HeadToHead:
    """Two members' hands together in a season (or a game)."""

    hands: int
    net: float
    """Chips the first won from the second, less what the second won from the first: in
    each hand the chips a player lost are shared among those who won chips, in proportion to
    what each won."""
    showdowns: int
    """Poker showdowns both reached."""
    won: int
    """Of those, the ones the first took chips from and the second did not."""
    lost: int
    split: int
    """Both took chips (a split pot, hi-lo halves, a side pot each)."""


def head_to_head(stats: SeasonStats, first: int, second: int) -> HeadToHead:
    net = 0.0
    showdowns = won = lost = split = 0
    count = 0
    for h in stats.hands:
        if first not in h.users or second not in h.users:
            continue
        count += 1
        gains = sum(v for v in h.users.values() if v > 0)
        losses = -sum(v for v in h.users.values() if v < 0)
        scale = max(gains, losses)
        a, b = h.users[first], h.users[second]
        if scale:
            if a > 0 and b < 0:
                net += a * -b / scale
            elif b > 0 and a < 0:
                net -= b * -a / scale
        facts = stats.facts.get(h.hand_id, {})
        fa, fb = facts.get(first), facts.get(second)
        if fa is not None and fb is not None and fa.showdowns and fb.showdowns:
            showdowns += 1
            if fa.showdown_wins and fb.showdown_wins:
                split += 1
            elif fa.showdown_wins:
                won += 1
            elif fb.showdown_wins:
                lost += 1
    return HeadToHead(count, net, showdowns, won, lost, split)


class FactsCache:
    """Facts of finished hands by hand id, for one store."""

    def __init__(self, limit: int = CACHE_HANDS) -> None:
        self.limit = limit
        self._facts: OrderedDict[int, dict[int, Facts]] = OrderedDict()
        self._computing = asyncio.Lock()
        """Two commands asking at once: the second waits and finds the hands computed."""

    def __len__(self) -> int:
        return len(self._facts)

    async def facts(self, store: Store, hand_ids: Iterable[int]) -> dict[int, dict[int, Facts]]:
        wanted = list(dict.fromkeys(hand_ids))
        async with self._computing:
            missing = [h for h in wanted if h not in self._facts]
            for start in range(0, len(missing), BATCH):
                part = missing[start : start + BATCH]
                async with store.read() as tx:
                    rows = await tx.hand_rows(part)
                computed = await render(facts_of_hands, [stored(r) for r in rows])
                for hand_id, facts in computed:
                    self._facts[hand_id] = facts
                for hand_id in part:
                    self._facts.setdefault(hand_id, {})  # gone or unreadable: nothing to count
        out = {}
        for h in wanted:
            self._facts.move_to_end(h)
            out[h] = self._facts[h]
        while len(self._facts) > self.limit:
            self._facts.popitem(last=False)
        return out

    async def season(
        self, store: Store, guild_id: int, *, season_id: int, game: str | None = None
    ) -> SeasonStats:
        async with store.read() as tx:
            hands = await tx.season_hands(guild_id, season_id=season_id, game=game)
        facts = await self.facts(store, [h.hand_id for h in hands])
        return SeasonStats(hands, facts)


def tallies_by_member(stats: SeasonStats, game: str | None = None) -> dict[int, Tally]:
    return {u: stats.tally(u, game) for u in stats.members()}


def games_played(stats: SeasonStats, user_id: int) -> Sequence[str]:
    return sorted(stats.tallies.get(user_id, {}))


_CACHES: weakref.WeakKeyDictionary[Store, FactsCache] = weakref.WeakKeyDictionary()


def cache_for(store: Store) -> FactsCache:
    """The facts cache of ``store`` (one per open store: hand ids are a database's own)."""
    cache = _CACHES.get(store)
    if cache is None:
        cache = _CACHES[store] = FactsCache()
    return cache
