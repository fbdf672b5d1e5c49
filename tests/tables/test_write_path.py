"""The per-action transaction of the TableService: one round trip to SQLite for a plain
action, cached account ids that follow a season's end, and a refused write (overdraft)
that leaves the ledger, the log and the in-memory table as they were (RULES §5.1)."""

from __future__ import annotations

from bot.engine.errors import InsufficientChips
from bot.store import Store
from bot.tables import TableService

from .conftest import ALICE, BOB, CAROL, GUILD


class Hops:
    """Counts the round trips to aiosqlite's worker thread (each queued call)."""

    def __init__(self, store: Store) -> None:
        self.db = store._db
        self.real = self.db._execute
        self.count = 0

    async def __call__(self, fn, *args, **kwargs):  # type: ignore[no-untyped-def]
        self.count += 1
        return await self.real(fn, *args, **kwargs)

    def __enter__(self) -> Hops:
        self.db._execute = self  # type: ignore[method-assign]
        return self

    def __exit__(self, *exc: object) -> None:
        del self.db._execute


async def _razz(service: TableService) -> int:
    view = await service.open_table(
        guild_id=GUILD, channel_id=700, host_id=ALICE, host_name="Alice", game="razz"
    )
    await service.join(view.table_id, BOB, "Bob")
    await service.join(view.table_id, CAROL, "Carol")
    await service.start(view.table_id, ALICE)
    return view.table_id


async def _plain_move(service: TableService, tid: int) -> tuple[int, str]:
    (actor,) = (await service.view(tid)).to_act_user_ids
    opts = {o.kind for o in (await service.private_view(tid, actor)).options if o.allowed}
    return actor, next(k for k in ("bring_in", "call", "check") if k in opts)


async def _ledger_and_log(store: Store, tid: int) -> tuple[int, int, int, list[int]]:
    async with store.read() as tx:
        table = await tx.table(tid)
        entries = await tx.entries(table_id=tid)
        hand = (await tx.hands(tid))[-1]
        events = await tx.hand_events(hand.id)
        wallets = [(await tx.wallet(GUILD, u)).balance for u in (ALICE, BOB, CAROL)]
    return table.version, len(entries), len(events), wallets


async def test_rule_5_1_plain_action_is_one_round_trip_with_its_ledger_rows(
    service: TableService, store: Store
) -> None:
    tid = await _razz(service)
    actor, kind = await _plain_move(service, tid)
    version, entries, events, _ = await _ledger_and_log(store, tid)
    with Hops(store) as hops:
        await service.act(tid, actor, kind)
    # BEGIN IMMEDIATE, ledger row, guarded balances, events, snapshot, COMMIT: one trip
    assert hops.count == 1
    after = await _ledger_and_log(store, tid)
    assert after[0] == version + 1 and after[1] == entries + 1 and after[2] > events
    report = await store.audit(GUILD)
    assert report.ok, report.format()


async def test_overdraft_at_commit_writes_nothing_of_the_bet_and_voids_the_hand(
    service: TableService, store: Store
) -> None:
    """An admin takes a player's chips in the middle of a hand (behind the game's back:
    ``/chips take`` itself refuses that): the engine still counts them, but the guarded
    ledger refuses the bet (InsufficientChips) and writes nothing of it; the hand is then
    voided (issue 11, item 2), so no later tick runs into the same payment."""
    tid = await _razz(service)
    actor, kind = await _plain_move(service, tid)
    async with store.transaction() as tx:
        have = (await tx.wallet(GUILD, actor)).balance
        await tx.take(GUILD, actor, have, actor_id=1, reason="test: empty the wallet")
    before = await service.view(tid)
    try:
        await service.act(tid, actor, kind)
    except InsufficientChips:
        pass
    else:
        raise AssertionError("the bet went through without chips")
    async with store.read() as tx:
        kinds = [e.kind for e in await tx.entries(table_id=tid)]
        hand = (await tx.hands(tid))[-1]
    assert kind == "bring_in" and "bring_in" not in kinds  # nothing of the refused bet
    assert "void" in kinds and hand.status == "voided"
    after = await service.view(tid)
    assert after.version > before.version and not after.to_act_user_ids
    assert (await store.audit(GUILD)).ok


async def test_season_end_between_hands_moves_next_hand_to_new_wallets(
    service: TableService, store: Store
) -> None:
    tid = await _razz(service)
    for _ in range(60):
        if not await service.hand_in_progress(tid):
            break
        actor, kind = await _plain_move(service, tid)
        await service.act(tid, actor, kind)
    assert not await service.hand_in_progress(tid)
    async with store.transaction() as tx:
        ended = await tx.current_season(GUILD)
        season = await tx.end_season(GUILD)
    assert await service.tick(tid, force=True)  # the next hand, with cached old wallet ids
    assert await service.hand_in_progress(tid)
    async with store.read() as tx:
        antes = await tx.entries(table_id=tid, kind="ante")
        wallets = [await tx.wallet(GUILD, u) for u in (ALICE, BOB, CAROL)]
    new_antes = [e for e in antes if e.season_id == season.id]
    assert len(new_antes) == 3 and ended.id != season.id
    assert {e.from_account for e in new_antes} == {w.id for w in wallets}
    assert all(w.season_id == season.id and w.balance < 1000 for w in wallets)
    report = await store.audit(GUILD)
    assert report.ok, report.format()
