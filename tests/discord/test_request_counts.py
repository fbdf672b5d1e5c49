"""Discord's global rate limit (50 requests a second per bot, interaction callbacks and
interaction webhooks excepted) is shared by every table a bot serves: a hand of each game
at six players, every seat a user clicking through the fake as ``python -m bot sandbox``
plays, stays within its budget of counted requests (issue 11: Zoot <= 28, Wheelers <= 40,
Razz <= 50), and once the updates are done every hand DM still shows its player's current
view (nothing a player needs is skipped to save a request)."""

from __future__ import annotations

import asyncio

import pytest

from bench.requests import TARGETS, measure
from bot.testing.fake_discord import RequestRecord
from bot.testing.request_count import counts_against_global_limit
from cogs._coalesce import Coalescer


@pytest.mark.parametrize("game", ["zoot", "wheelers", "razz"])
async def test_a_six_player_hand_stays_within_its_share_of_the_global_rate_limit(
    game: str,
) -> None:
    m = await measure(game, 6, hands=2, seed=3)
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


async def test_changes_within_a_delayed_edits_moment_make_one_edit() -> None:
    updates = Coalescer()
    ran: list[str] = []

    def job(name: str):  # type: ignore[no-untyped-def]
        async def run() -> None:
            ran.append(name)

        return run

    updates.submit("dm:1:2", job("turn over"), delay=0.2)
    await asyncio.sleep(0.05)
    updates.submit("dm:1:2", job("also over"), delay=0.2)
    await updates.idle()
    assert ran == ["also over"]


async def test_a_change_that_may_not_wait_ends_a_delayed_edits_wait_at_once() -> None:
    """New cards or options are never held back by a waiting "turn over" edit."""
    updates = Coalescer()
    ran: list[str] = []

    def job(name: str):  # type: ignore[no-untyped-def]
        async def run() -> None:
            ran.append(name)

        return run

    updates.submit("dm:1:2", job("turn over"), delay=5.0)
    await asyncio.sleep(0.01)
    updates.submit("dm:1:2", job("new card"))
    await asyncio.wait_for(updates.idle(), 0.5)
    assert ran == ["new card"]


async def test_a_table_edit_does_not_wait_for_a_delayed_dm_edit() -> None:
    updates = Coalescer()
    ran: list[str] = []

    async def table() -> None:
        ran.append("table")

    async def dm() -> None:
        ran.append("dm")

    updates.submit("dm:1:2", dm, delay=0.5)
    updates.submit("table:1", table, after=["dm:1:2"])
    await asyncio.sleep(0.2)
    assert ran == ["table"]
    await updates.idle()
    assert ran == ["table", "dm"]


async def test_changes_that_keep_coming_do_not_postpone_a_delayed_edit_past_its_delay() -> None:
    """The first delayed change is shown within its delay, however many follow it."""
    updates = Coalescer()
    ran: list[tuple[str, float]] = []
    loop = asyncio.get_running_loop()
    start = loop.time()

    def job(name: str):  # type: ignore[no-untyped-def]
        async def run() -> None:
            ran.append((name, loop.time() - start))

        return run

    for n in range(6):
        updates.submit("table:1", job(f"count {n}"), delay=0.3)
        await asyncio.sleep(0.1)
    await updates.idle()
    assert ran[0][0] in ("count 2", "count 3") and ran[0][1] < 0.45, ran


async def test_a_hands_end_waiting_for_the_next_deal_takes_a_turn_change_along() -> None:
    """A "turn passed" edit (short delay) followed by "the hand is over" (allowed to wait
    for the next deal): one edit, at the deal, not one at the short delay and one more."""
    updates = Coalescer()
    ran: list[str] = []

    def job(name: str):  # type: ignore[no-untyped-def]
        async def run() -> None:
            ran.append(name)

        return run

    updates.submit("dm:1:2", job("turn passed"), delay=0.1)
    await asyncio.sleep(0.02)
    updates.submit("dm:1:2", job("hand over"), delay=2.0)
    await asyncio.sleep(0.3)
    assert ran == []  # past the turn change's delay: still waiting for the deal
    updates.submit("dm:1:2", job("new cards"))
    await asyncio.wait_for(updates.idle(), 0.5)
    assert ran == ["new cards"]
