"""Wallets, transfers, grants and seasons (RULES §5: every chip that moves is a ledger entry)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.engine.errors import InsufficientChips, InvalidConfig
from bot.store import (
    InvalidAmount,
    Overdraft,
    RebuyCooldown,
    SeasonError,
    Store,
    StoreError,
)
from tests.store.conftest import ALICE, BOB, CAROL, GUILD, Clock


async def test_league_created_with_defaults_season_one_and_house(store: Store) -> None:
    async with store.transaction() as tx:
        league = await tx.league(GUILD)
        season = await tx.current_season(GUILD)
        house = await tx.house(GUILD)
    assert league.starting_chips == 1000
    assert league.images is True
    assert league.channel_allowed(12345)
    assert season.number == 1 and season.open
    assert house.kind == "house" and house.balance == 0


async def test_starting_chips_once_per_member_per_season(store: Store) -> None:
    async with store.transaction() as tx:
        first = await tx.wallet(GUILD, ALICE)
        again = await tx.wallet(GUILD, ALICE)
        starts = await tx.entries(account_id=first.id, kind="start")
    assert first == again
    assert first.balance == 1000
    assert [(e.amount, e.kind) for e in starts] == [(1000, "start")]
    async with store.transaction() as tx:  # a later transaction does not pay them again
        assert (await tx.wallet(GUILD, ALICE)).balance == 1000
        assert len(await tx.entries(kind="start")) == 1


async def test_league_starting_chips_setting_applies_to_new_wallets(store: Store) -> None:
    async with store.transaction() as tx:
        await tx.update_league(GUILD, starting_chips=250, allowed_channel_ids=[7, 7, 3])
        league = await tx.league(GUILD)
        assert (await tx.wallet(GUILD, BOB)).balance == 250
    assert league.allowed_channel_ids == (3, 7)
    assert not league.channel_allowed(5)


async def test_update_league_bad_value_names_field_and_changes_nothing(store: Store) -> None:
    async with store.transaction() as tx:
        with pytest.raises(InvalidConfig) as err:
            await tx.update_league(GUILD, rebuy_amount=100, starting_chips=-5)
        assert err.value.field == "starting_chips"
        league = await tx.league(GUILD)
    assert league.starting_chips == 1000 and league.rebuy_amount == 1000


async def test_transfer_moves_chips_and_records_one_entry(store: Store) -> None:
    async with store.transaction() as tx:
        a = await tx.wallet(GUILD, ALICE)
        b = await tx.wallet(GUILD, BOB)
        entry = await tx.transfer(a.id, b.id, 300, "grant", actor_id=ALICE, reason="gift")
        assert await tx.balance(a.id) == 700 == await tx.ledger_balance(a.id)
        assert await tx.balance(b.id) == 1300 == await tx.ledger_balance(b.id)
    assert (entry.from_account, entry.to_account, entry.amount) == (a.id, b.id, 300)
    assert entry.actor_id == ALICE and entry.reason == "gift" and entry.season_id == 1


async def test_guarded_transfer_refuses_overdraft_and_changes_nothing(store: Store) -> None:
    async with store.transaction() as tx:
        a = await tx.wallet(GUILD, ALICE)
        b = await tx.wallet(GUILD, BOB)
        before = await tx.entries()
        with pytest.raises(InsufficientChips, match="wallet of user 11 has 1000 chips; 1001"):
            await tx.transfer(a.id, b.id, 1001, "bet")
        assert await tx.balance(a.id) == 1000
        assert await tx.balance(b.id) == 1000
        assert await tx.entries() == before
    assert (await store.audit()).ok


async def test_overdraft_error_carries_account_and_amounts(store: Store) -> None:
    async with store.transaction() as tx:
        a = await tx.wallet(GUILD, ALICE)
        house = await tx.house(GUILD)
        with pytest.raises(Overdraft) as err:
            await tx.transfer(a.id, house.id, 5000, "take", reason="x", actor_id=1)
    assert (err.value.account_id, err.value.user_id, err.value.have, err.value.needed) == (
        a.id,
        ALICE,
        1000,
        5000,
    )


@pytest.mark.parametrize("amount", [0, -5, 2.5, "10", True, None])
async def test_transfer_amount_must_be_a_positive_integer(store: Store, amount: object) -> None:
    async with store.transaction() as tx:
        a = await tx.wallet(GUILD, ALICE)
        b = await tx.wallet(GUILD, BOB)
        with pytest.raises(InvalidAmount):
            await tx.transfer(a.id, b.id, amount, "bet")  # type: ignore[arg-type]
        assert await tx.balance(a.id) == 1000


async def test_transfer_refuses_unknown_kind_self_payment_and_other_league(store: Store) -> None:
    async with store.transaction() as tx:
        a = await tx.wallet(GUILD, ALICE)
        other = await tx.wallet(GUILD + 1, BOB)
        with pytest.raises(InvalidAmount, match="unknown ledger kind"):
            await tx.transfer(a.id, other.id, 1, "steal")
        with pytest.raises(InvalidAmount, match="itself"):
            await tx.transfer(a.id, a.id, 1, "bet")
        with pytest.raises(StoreError, match="between leagues"):
            await tx.transfer(a.id, other.id, 1, "grant")


async def test_rollback_on_exception_leaves_no_partial_rows(store: Store) -> None:
    class Boom(Exception):
        pass

    with pytest.raises(Boom):
        async with store.transaction() as tx:
            a = await tx.wallet(GUILD, ALICE)
            t = await tx.create_table(GUILD, 500, "razz")
            await tx.move_chips(t.id, ALICE, 2, "ante")
            assert await tx.balance(a.id) == 998
            raise Boom
    async with store.read() as tx:
        assert await tx.find_league(GUILD) is None
        assert await tx.entries() == []
        assert await tx.live_tables() == []


async def test_tx_used_after_its_block_is_refused(store: Store) -> None:
    async with store.transaction() as tx:
        pass
    with pytest.raises(StoreError, match="ended"):
        await tx.wallet(GUILD, ALICE)


async def test_nested_transaction_in_same_task_is_refused_not_deadlocked(store: Store) -> None:
    async with store.transaction():
        with pytest.raises(StoreError, match="already open"):
            async with store.transaction():
                pass


async def test_read_view_refuses_writes(store: Store) -> None:
    with pytest.raises(sqlite3.OperationalError, match="readonly"):
        async with store.read() as tx:
            await tx.wallet(GUILD, ALICE)
    async with store.transaction() as tx:  # the connection is writable again afterwards
        assert (await tx.wallet(GUILD, ALICE)).balance == 1000


async def test_rule_5_1_grant_and_take_need_reason_and_keep_actor(store: Store) -> None:
    async with store.transaction() as tx:
        with pytest.raises(InvalidAmount, match="reason"):
            await tx.grant(GUILD, ALICE, 50, actor_id=BOB, reason="  ")
        g = await tx.grant(GUILD, ALICE, 50, actor_id=BOB, reason="won the quiz")
        t = await tx.take(GUILD, ALICE, 20, actor_id=BOB, reason="correction")
        with pytest.raises(InsufficientChips):
            await tx.take(GUILD, ALICE, 2000, actor_id=BOB, reason="too much")
        assert (await tx.wallet(GUILD, ALICE)).balance == 1030
    assert (g.kind, g.actor_id, g.reason) == ("grant", BOB, "won the quiz")
    assert (t.kind, t.amount) == ("take", 20)
    report = await store.audit(GUILD)
    assert report.ok
    (figures,) = report.leagues
    assert (figures.issued, figures.removed, figures.players) == (1050, 20, 1030)


async def test_rebuy_respects_league_cooldown(store: Store, clock: Clock) -> None:
    async with store.transaction() as tx:
        await tx.update_league(GUILD, rebuy_amount=1500, rebuy_cooldown_seconds=3600)
        entry = await tx.rebuy(GUILD, ALICE)  # 1,000: topped up to 1,500
        assert entry.kind == "rebuy" and entry.amount == 500
        await tx.take(GUILD, ALICE, 200, actor_id=BOB, reason="lost it")
        clock.now += 3599
        with pytest.raises(RebuyCooldown) as err:
            await tx.rebuy(GUILD, ALICE)
        assert err.value.seconds_left == 1
        clock.now += 1
        assert (await tx.rebuy(GUILD, ALICE)).amount == 200
        assert (await tx.wallet(GUILD, ALICE)).balance == 1500


async def test_standings_rank_ties_share_a_rank(store: Store) -> None:
    async with store.transaction() as tx:
        for user in (ALICE, BOB, CAROL):
            await tx.wallet(GUILD, user)
        await tx.grant(GUILD, CAROL, 5, actor_id=1, reason="test")
        standings = await tx.standings(GUILD)
    assert [(s.rank, s.user_id, s.balance) for s in standings] == [
        (1, CAROL, 1005),
        (2, ALICE, 1000),
        (2, BOB, 1000),
    ]


async def test_season_end_archives_standings_and_everyone_starts_again(store: Store) -> None:
    async with store.transaction() as tx:
        await tx.wallet(GUILD, ALICE)
        await tx.grant(GUILD, BOB, 400, actor_id=CAROL, reason="prize")
        new = await tx.end_season(GUILD, actor_id=CAROL)
        old = await tx.season(GUILD, 1)
        alice_again = await tx.wallet(GUILD, ALICE)
        archived = await tx.standings(GUILD, season_number=1)
        old_wallets = [await tx.find_wallet(GUILD, u, season=old) for u in (ALICE, BOB)]
    assert new.number == 2 and new.open
    assert not old.open
    assert [(s.user_id, s.balance) for s in archived] == [(BOB, 1400), (ALICE, 1000)]
    assert alice_again.balance == 1000 and alice_again.season_id == new.id
    assert [w.balance for w in old_wallets if w is not None] == [0, 0]
    report = await store.audit()
    assert report.ok
    assert report.leagues[0].removed == 2400  # the old wallets went back to the house


async def test_season_end_refused_while_a_pot_holds_chips(store: Store) -> None:
    async with store.transaction() as tx:
        table = await tx.create_table(GUILD, 77, "zoot")
        await tx.move_chips(table.id, ALICE, 5, "ante")
        with pytest.raises(SeasonError, match=f"table {table.id} \\(5 chips\\)"):
            await tx.end_season(GUILD)
        assert (await tx.current_season(GUILD)).number == 1


async def test_old_season_wallet_cannot_pay(store: Store) -> None:
    async with store.transaction() as tx:
        old = await tx.wallet(GUILD, ALICE)
        await tx.end_season(GUILD)
        new = await tx.wallet(GUILD, ALICE)
        with pytest.raises(SeasonError, match="ended"):
            await tx.transfer(new.id, old.id, 1, "grant")


async def test_store_survives_reopen_with_balances(db_path: Path) -> None:
    store = await Store.open(db_path)
    async with store.transaction() as tx:
        await tx.grant(GUILD, ALICE, 10, actor_id=1, reason="r")
    await store.close()
    store = await Store.open(db_path)
    async with store.read() as tx:
        wallet = await tx.find_wallet(GUILD, ALICE)
    await store.close()
    assert wallet is not None and wallet.balance == 1010
