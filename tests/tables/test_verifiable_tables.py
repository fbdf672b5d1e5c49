"""Verifiable tables in the TableService (issue 18 item 10), over a real SQLite store: the
commitment of the next hand is in the view before its deal and is SHA-256 of the seed the
hand is dealt from; the seed is stored with the hand (a restart mid-hand keeps it, and the
deck and reshuffles go on from it), never in a view, a private view or anything published;
a voided hand's successor gets a fresh seed; a table opened without the option stores no
seed and shows no commitment."""

from __future__ import annotations

import hashlib
from pathlib import Path

from bot.engine.shuffle import seed_deck
from bot.engine.verify import verify_text, with_shuffle_fields
from bot.store import Hand, Store
from bot.tables import TableService

from .conftest import ALICE, BOB, CAROL, GUILD, Clock, Recorder, seeded

NAMES = {ALICE: "Alice", BOB: "Bob", CAROL: "Carol"}


def sha(seed: str) -> str:
    return hashlib.sha256(bytes.fromhex(seed)).hexdigest()


async def _open(
    svc: TableService, game: str, channel: int, users: dict[int, str] = NAMES, **kw: object
) -> int:
    host, *others = users
    view = await svc.open_table(
        guild_id=GUILD,
        channel_id=channel,
        host_id=host,
        host_name=users[host],
        game=game,
        verifiable=True,
        options=kw,
    )
    for uid in others:
        await svc.join(view.table_id, uid, users[uid])
    return view.table_id


async def _hands(store: Store, tid: int) -> list[Hand]:
    async with store.read() as tx:
        return await tx.hands(tid)


async def _passive_step(svc: TableService, tid: int) -> None:
    (actor,) = (await svc.view(tid)).to_act_user_ids
    pv = await svc.private_view(tid, actor)
    await svc.act(tid, actor, "call" if pv.option("call").allowed else "check")


def published(hand: Hand) -> str:
    assert hand.history is not None and hand.seed is not None
    return with_shuffle_fields(hand.history, commitment=sha(hand.seed), seed=hand.seed)


async def test_commitment_before_the_deal_is_the_dealt_seeds_and_a_restart_keeps_it(
    db_path: Path, clock: Clock
) -> None:
    store = await Store.open(db_path, clock=clock)
    svc = TableService(store, clock=clock, rng_factory=seeded(5), timers=False)
    await svc.start_service()
    tid = await _open(svc, "holdem", 801)
    before = await svc.view(tid)
    assert before.verifiable and before.commitment_hand == 1 and before.commitment is not None
    running = await svc.start(tid, ALICE)
    assert (running.commitment_hand, running.commitment) == (1, before.commitment)
    (hand,) = await _hands(store, tid)
    assert hand.seed is not None and sha(hand.seed) == before.commitment
    # the deck is the seed's: the hole cards are its first cards, player by player
    holes = {u: (await svc.private_view(tid, u)).cards for u in NAMES}
    deck = seed_deck(hand.seed)
    assert sorted(c for cards in holes.values() for c in cards) == sorted(deck[:6])
    await _passive_step(svc, tid)
    await svc.stop_service()
    await store.close()

    store = await Store.open(db_path, clock=clock)
    svc = TableService(store, clock=clock, rng_factory=seeded(99), timers=False)
    await svc.start_service()
    again = await svc.view(tid)
    assert (again.commitment_hand, again.commitment) == (1, before.commitment)
    while await svc.hand_in_progress(tid):
        await _passive_step(svc, tid)
    (hand,) = await _hands(store, tid)
    assert hand.status == "finished" and hand.history is not None
    assert f"_commitment = '{before.commitment}'" in hand.history and "_seed" not in hand.history
    verdict = verify_text(published(hand))
    assert verdict.matches and verdict.cards >= 11, verdict
    after = await svc.view(tid)  # the next hand's, drawn afresh
    assert after.commitment_hand == 2 and after.commitment not in (None, before.commitment)
    await svc.stop_service()
    await store.close()


async def test_no_seed_in_any_view_or_anything_published(
    store: Store, clock: Clock, recorder: Recorder
) -> None:
    svc = TableService(store, clock=clock, rng_factory=seeded(3), subscriber=recorder, timers=False)
    await svc.start_service()
    tid = await _open(svc, "stud", 802, ante=1, bring_in=2, small_bet=4, big_bet=8)
    await svc.start(tid, ALICE)
    seen: list[str] = []
    while await svc.hand_in_progress(tid):
        seen.append(repr(await svc.view(tid)))
        seen.extend([repr(await svc.private_view(tid, u)) for u in NAMES])
        (actor,) = (await svc.view(tid)).to_act_user_ids
        pv = await svc.private_view(tid, actor)
        kind = next(
            k for k in ("bring_in", "check", "call") if pv.option(k) and pv.option(k).allowed
        )  # type: ignore[union-attr]
        await svc.act(tid, actor, kind)
    seen.extend(repr(p) for p in recorder.published)
    text = "\n".join(seen)
    (hand,) = await _hands(store, tid)
    assert hand.seed is not None and sha(hand.seed) in text  # the commitment: public
    assert hand.seed not in text
    async with store.read() as tx:
        nxt = (await tx.table(tid)).snapshot
    assert nxt is not None and nxt["next_seed"] not in text
    assert verify_text(published(hand)).matches
    await svc.stop_service()


async def test_a_voided_hand_is_followed_by_a_fresh_seed(store: Store, clock: Clock) -> None:
    svc = TableService(store, clock=clock, rng_factory=seeded(4), timers=False, autostart_delay=0)
    await svc.start_service()
    tid = await _open(svc, "razz", 803)
    await svc.start(tid, ALICE)
    first = (await svc.view(tid)).commitment
    await svc.void_hand(tid, ALICE, may_manage=True)
    waiting = await svc.view(tid)
    assert waiting.commitment_hand == 2 and waiting.commitment not in (None, first)
    assert await svc.tick(tid, force=True)
    dealt = await svc.view(tid)
    assert (dealt.hand_number, dealt.commitment) == (2, waiting.commitment)
    voided, second = await _hands(store, tid)
    assert voided.status == "voided" and voided.seed is not None and sha(voided.seed) == first
    assert second.seed is not None and second.seed != voided.seed
    await svc.stop_service()


async def test_zoot_reshuffles_follow_the_seed_across_a_restart(
    db_path: Path, clock: Clock
) -> None:
    """Ten players: each exchange finds the stock short and reshuffles the discards under
    it. The bot restarts between the two reshuffles; the history still verifies."""
    users = {100 + k: f"P{k}" for k in range(10)}
    store = await Store.open(db_path, clock=clock)
    svc = TableService(store, clock=clock, rng_factory=seeded(6), timers=False)
    await svc.start_service()
    tid = await _open(svc, "zoot", 804, users, ante=5)
    await svc.start(tid, 100)

    async def exchange(svc: TableService) -> None:
        for uid in sorted(users):
            await svc.act(tid, uid, "play_on")
        for uid in sorted(users):
            card = (await svc.private_view(tid, uid)).cards[0]
            await svc.act(tid, uid, "discard", card=str(card))

    await exchange(svc)
    await svc.stop_service()
    await store.close()
    store = await Store.open(db_path, clock=clock)
    svc = TableService(store, clock=clock, rng_factory=seeded(60), timers=False)
    await svc.start_service()
    await exchange(svc)
    await svc.act(tid, 100, "lay_down")
    while await svc.hand_in_progress(tid):
        for uid in sorted((await svc.view(tid)).to_act_user_ids):
            await svc.act(tid, uid, "play_on")
    (hand,) = await _hands(store, tid)
    assert hand.status == "finished"
    verdict = verify_text(published(hand))
    assert verdict.matches and verdict.reshuffles == 2, verdict
    await svc.stop_service()
    await store.close()


async def test_a_table_without_the_option_is_dealt_as_before(store: Store, clock: Clock) -> None:
    svc = TableService(store, clock=clock, rng_factory=seeded(8), timers=False)
    await svc.start_service()
    view = await svc.open_table(
        guild_id=GUILD, channel_id=805, host_id=ALICE, host_name="Alice", game="holdem"
    )
    tid = view.table_id
    await svc.join(tid, BOB, "Bob")
    assert not view.verifiable and view.commitment is None
    running = await svc.start(tid, ALICE)
    assert running.commitment is None
    while await svc.hand_in_progress(tid):
        await _passive_step(svc, tid)
    (hand,) = await _hands(store, tid)
    assert hand.seed is None and hand.history is not None and "_commitment" not in hand.history
    async with store.read() as tx:
        table = await tx.table(tid)
    assert not table.verifiable and table.snapshot is not None
    assert table.snapshot["next_seed"] is None
    await svc.stop_service()
