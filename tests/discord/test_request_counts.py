"""Discord's global rate limit (50 requests a second per bot, interaction callbacks and
interaction webhooks excepted) is shared by every table a bot serves: a hand of each game
at six players, every seat a user clicking through the fake as ``python -m bot sandbox``
plays, stays within its budget of counted requests (issue 11: Zoot <= 28, Wheelers <= 40,
Razz <= 50) with users clicking at once and at a human pace, and once the updates are done
every hand DM still shows its player's current view (nothing a player needs is skipped to
save a request)."""

from __future__ import annotations

import asyncio

import pytest

from bench.requests import HUMAN_PACE, TARGETS, measure
from bot.testing.clock import VirtualClock
from bot.testing.fake_discord import RequestRecord
from bot.testing.request_count import counts_against_global_limit
from cogs._coalesce import Coalescer


@pytest.mark.parametrize(
    ("game", "think", "hands"),
    [
        ("zoot", 0.0, 2),
        ("wheelers", 0.0, 2),
        ("razz", 0.0, 2),
        # people taking 1.2 s a click: no two changes fall in one short settling moment
        # (the RESULT line's pace); one measured hand each, to keep the suite's time
        ("zoot", HUMAN_PACE, 1),
        ("razz", HUMAN_PACE, 1),
    ],
)
async def test_a_six_player_hand_stays_within_its_share_of_the_global_rate_limit(
    game: str, think: float, hands: int
) -> None:
    m = await measure(game, 6, hands=hands, seed=3, think=think)
    assert m.per_hand <= TARGETS[game], (m.per_hand, dict(m.routes))
    assert m.routes["dm channel"] == 0, dict(m.routes)  # DM channels are known after the first
    assert m.routes["channel post"] == m.hands, dict(m.routes)  # one result post a hand
    assert m.stale_dms == [], m.stale_dms


def test_interaction_callbacks_and_webhooks_do_not_count_against_the_global_limit() -> None:
    def rec(method: str, path: str) -> RequestRecord:
        return RequestRecord(method, path, {}, 0.0)

    assert not counts_against_global_limit(rec("POST", "/interactions/12/tok-en/callback"))
    assert not counts_against_global_limit(rec("PATCH", "/webhooks/34/tok/messages/@original"))
    assert not counts_against_global_limit(rec("POST", "/webhooks/34/tok"))
    assert counts_against_global_limit(rec("PATCH", "/channels/5/messages/6"))
    assert counts_against_global_limit(rec("POST", "/channels/5/messages"))
    assert counts_against_global_limit(rec("POST", "/users/@me/channels"))


class Delays:
    """A coalescer whose delays run on a clock the test moves (issue 19, item 16: the
    delays were real seconds and the tests compared the time a job ran with thresholds a
    loaded machine could miss), and what its jobs ran, with the clock's time."""

    def __init__(self) -> None:
        self.clock = VirtualClock(0.0)
        self.updates = Coalescer(clock=self.clock, sleep=self.clock.sleep)
        self.ran: list[tuple[str, float]] = []

    def job(self, name: str):  # type: ignore[no-untyped-def]
        async def run() -> None:
            self.ran.append((name, round(self.clock.now, 6)))

        return run

    async def advance(self, seconds: float) -> None:
        """Let what was submitted start, move the clock, and let the jobs whose delay
        ended run (turns of the event loop, not time)."""
        for _ in range(20):
            await asyncio.sleep(0)
        self.clock.advance(seconds)
        for _ in range(20):
            await asyncio.sleep(0)

    @property
    def names(self) -> list[str]:
        return [name for name, _ in self.ran]


async def test_changes_within_a_delayed_edits_moment_make_one_edit() -> None:
    d = Delays()
    d.updates.submit("dm:1:2", d.job("turn over"), delay=0.2)
    await d.advance(0.05)
    d.updates.submit("dm:1:2", d.job("also over"), delay=0.2)
    await d.advance(0.1)
    assert d.ran == []  # within the first one's moment: still waiting
    await d.advance(0.05)
    assert d.ran == [("also over", 0.2)]  # one edit, at the end of the first one's delay


async def test_a_change_that_may_not_wait_ends_a_delayed_edits_wait_at_once() -> None:
    """New cards or options are never held back by a waiting "turn over" edit."""
    d = Delays()
    d.updates.submit("dm:1:2", d.job("turn over"), delay=5.0)
    await d.advance(0.01)
    d.updates.submit("dm:1:2", d.job("new card"))
    await d.advance(0)
    assert d.ran == [("new card", 0.01)]  # at once: the clock did not move
    await d.advance(10)
    assert d.names == ["new card"]


async def test_a_table_edit_does_not_wait_for_a_delayed_dm_edit() -> None:
    d = Delays()
    d.updates.submit("dm:1:2", d.job("dm"), delay=0.5)
    d.updates.submit("table:1", d.job("table"), after=["dm:1:2"])
    await d.advance(0)
    assert d.ran == [("table", 0.0)]
    await d.advance(0.5)
    assert d.ran == [("table", 0.0), ("dm", 0.5)]


async def test_changes_that_keep_coming_do_not_postpone_a_delayed_edit_past_its_delay() -> None:
    """The first delayed change is shown within its delay, however many follow it."""
    d = Delays()
    for n in range(6):
        d.updates.submit("table:1", d.job(f"count {n}"), delay=0.3)
        await d.advance(0.1)
    await d.updates.idle()
    # shown when the first one's 0.3 s were up (with the newest count then), not pushed
    # back by each new change; the rest follow within their own moment
    assert d.ran[0] == ("count 2", 0.3), d.ran
    assert d.names[-1] == "count 5"


async def test_a_hands_end_waiting_for_the_next_deal_takes_a_turn_change_along() -> None:
    """A "turn passed" edit (short delay) followed by "the hand is over" (allowed to wait
    for the next deal): one edit, at the deal, not one at the short delay and one more."""
    d = Delays()
    d.updates.submit("dm:1:2", d.job("turn passed"), delay=0.1)
    await d.advance(0.02)
    d.updates.submit("dm:1:2", d.job("hand over"), delay=2.0)
    await d.advance(0.3)
    assert d.ran == []  # past the turn change's delay: still waiting for the deal
    d.updates.submit("dm:1:2", d.job("new cards"))
    await d.advance(0)
    assert d.ran == [("new cards", 0.32)]
    await d.advance(5)
    assert d.names == ["new cards"]
