"""Nights and the settle-up in the store (real SQLite in a temp dir): a night's results
from its finished league hands, its settle-up recorded as 'settle' ledger rows that bring
every net back to 0, the audit after it, and what is refused (twice, none open, chips in
play, a practice table's hands, a bad chip value) with nothing changed."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.engine.errors import InvalidConfig
from bot.league.settle import Transfer
from bot.store import HandFinish, HandResult, NightError, SeasonError, Store
from bot.store.db import migrations
from tests.store.conftest import ALICE, BOB, CAROL, GUILD, Clock

DAVE = 14
CHANNEL = 777


async def play_hand(
    store: Store,
    paid: dict[int, int],
    winner: int,
    *,
    channel: int = CHANNEL,
    practice: bool = False,
) -> int:
    """One finished hand at the channel's table (opened if needed): each pays ``paid``,
    ``winner`` takes the pot. Returns the hand id."""
    async with store.transaction() as tx:
        table = await tx.table_in_channel(channel)
        if table is None:
            table = await tx.create_table(GUILD, channel, "zoot", practice=practice)
        hand = await tx.start_hand(table.id)
        accounts = await tx.table_accounts(table.id, list(paid))
        pot = sum(paid.values())
        # a practice table writes its hand results but moves no league chips
        moves = (
            []
            if practice
            else [(u, n, "ante") for u, n in paid.items()] + [(winner, -pot, "award")]
        )
        results = [
            HandResult(
                user_id=u,
                seat_no=i,
                paid=n,
                won=pot if u == winner else 0,
                won_pot=u == winner,
            )
            for i, (u, n) in enumerate(paid.items())
        ]
        await tx.record_action(accounts, moves=moves, hand_id=hand.id, finish=HandFinish(results))
    return hand.id


async def balances(store: Store, *users: int) -> dict[int, int]:
    async with store.read() as tx:
        out = {}
        for u in users:
            wallet = await tx.find_wallet(GUILD, u)
            assert wallet is not None
            assert wallet.balance == await tx.ledger_balance(wallet.id)
            out[u] = wallet.balance
        return out


async def test_night_end_records_the_fewest_transfers_and_every_net_returns_to_zero(
    store: Store, clock: Clock
) -> None:
    async with store.transaction() as tx:
        await tx.update_league(GUILD, chip_value=("0.01", "EUR"))
        night = await tx.start_night(GUILD, host_id=ALICE, channel_id=CHANNEL)
    clock.now += 60
    await play_hand(store, {ALICE: 30, BOB: 30, CAROL: 30, DAVE: 30}, ALICE)  # A +90
    await play_hand(store, {BOB: 50, CAROL: 50}, CAROL)  # B -50, C +50
    start = await balances(store, ALICE, BOB, CAROL, DAVE)
    assert start == {ALICE: 1090, BOB: 920, CAROL: 1020, DAVE: 970}
    clock.now += 3600
    async with store.transaction() as tx:
        results = await tx.end_night(GUILD, actor_id=ALICE)
    assert results.label == f"night #{night.number}" and night.number == 1
    nets = {p.user_id: p.net for p in results.players}
    assert nets == {ALICE: 90, BOB: -80, CAROL: 20, DAVE: -30}
    assert [p.user_id for p in results.players] == [ALICE, CAROL, DAVE, BOB]
    assert {p.user_id: p.hands for p in results.players} == {ALICE: 1, BOB: 2, CAROL: 2, DAVE: 1}
    assert results.hands == 2
    assert results.biggest_pot is not None
    assert (results.biggest_pot.chips, results.biggest_pot.winners) == (120, (ALICE,))
    assert all(p.owed == 0 for p in results.players)
    settlement = results.settlement
    assert settlement is not None and settlement.value is not None
    assert settlement.value.currency == "EUR"
    assert list(settlement.transfers) == [
        Transfer(payer=BOB, payee=ALICE, chips=80),
        Transfer(payer=DAVE, payee=ALICE, chips=10),
        Transfer(payer=DAVE, payee=CAROL, chips=20),
    ]
    # the settle-up's chips went back from each payee to its payer: everyone is where
    # they were before the night's play
    assert await balances(store, ALICE, BOB, CAROL, DAVE) == {
        ALICE: 1000,
        BOB: 1000,
        CAROL: 1000,
        DAVE: 1000,
    }
    async with store.read() as tx:
        rows = await tx.entries(guild_id=GUILD, kind="settle")
        season = await tx.season_results(GUILD)
    assert len(rows) == 3 and all(r.actor_id == ALICE for r in rows)
    assert rows[0].reason is not None and "night #1" in rows[0].reason and "€0.80" in rows[0].reason
    assert all(p.owed == 0 for p in season.players)
    assert {p.user_id: p.net for p in season.players} == nets
    assert (await store.audit(GUILD)).ok


async def test_night_settled_once_and_no_night_to_end_is_refused(store: Store) -> None:
    async with store.transaction() as tx:
        await tx.start_night(GUILD, host_id=ALICE)
        with pytest.raises(NightError, match="already on"):
            await tx.start_night(GUILD, host_id=BOB)
    await play_hand(store, {ALICE: 10, BOB: 10}, BOB)
    async with store.transaction() as tx:
        await tx.end_night(GUILD, actor_id=ALICE)
    async with store.transaction() as tx:
        with pytest.raises(NightError, match="No night is on"):
            await tx.end_night(GUILD, actor_id=ALICE)
        night = await tx.last_night(GUILD)
        assert night is not None
        results = await tx.night_results(night)
        # the store's own check, then the unique index under it
        with pytest.raises(NightError, match="already settled"):
            await tx._record(GUILD, results, night=night, actor_id=ALICE)
    raw = sqlite3.connect(store.path)
    try:
        with pytest.raises(sqlite3.IntegrityError):
            raw.execute(
                "INSERT INTO settlements (guild_id, season_id, period, night_id, transfers,"
                " created_at) VALUES (?, 1, 'night', ?, '[]', 0)",
                (GUILD, night.id),
            )
    finally:
        raw.close()
    async with store.read() as tx:
        assert len(await tx.entries(guild_id=GUILD, kind="settle")) == 1
    async with store.transaction() as tx:
        second = await tx.start_night(GUILD, host_id=BOB)
    assert second.number == 2


async def test_night_end_refused_while_a_hand_holds_chips_nothing_changes(store: Store) -> None:
    async with store.transaction() as tx:
        await tx.start_night(GUILD, host_id=ALICE)
    await play_hand(store, {ALICE: 10, BOB: 10}, BOB)
    async with store.transaction() as tx:
        table = await tx.table_in_channel(CHANNEL)
        assert table is not None
        hand = await tx.start_hand(table.id)
        accounts = await tx.table_accounts(table.id, [ALICE, BOB])
        await tx.record_action(accounts, moves=[(ALICE, 5, "ante")], hand_id=hand.id)
    async with store.transaction() as tx:
        with pytest.raises(NightError, match="still being played"):
            await tx.end_night(GUILD, actor_id=ALICE)
        with pytest.raises(SeasonError, match="night #1 is on"):
            await tx.end_season(GUILD)
    async with store.read() as tx:
        night = await tx.open_night(GUILD)
        assert night is not None
        assert await tx.entries(guild_id=GUILD, kind="settle") == []


async def test_practice_hands_and_hands_before_the_night_do_not_count(
    store: Store, clock: Clock
) -> None:
    await play_hand(store, {ALICE: 40, BOB: 40}, ALICE)
    clock.now += 10
    async with store.transaction() as tx:
        await tx.start_night(GUILD, host_id=ALICE)
    await play_hand(store, {ALICE: 40, BOB: 40}, BOB, channel=888, practice=True)
    await play_hand(store, {CAROL: 25, BOB: 25}, CAROL)
    async with store.transaction() as tx:
        results = await tx.end_night(GUILD, actor_id=BOB)
    assert {p.user_id: p.net for p in results.players} == {CAROL: 25, BOB: -25}
    assert results.hands == 1 and results.value is None
    assert results.settlement is not None
    assert list(results.settlement.transfers) == [Transfer(BOB, CAROL, 25)]
    # the season still owes the hand played before the night
    async with store.read() as tx:
        season = await tx.season_results(GUILD)
    assert season.owed() == {ALICE: 40, BOB: -40, CAROL: 0}
    assert season.plan() == [Transfer(BOB, ALICE, 40)]
    async with store.transaction() as tx:
        settled = await tx.settle_season(GUILD, actor_id=ALICE)
    assert all(p.owed == 0 for p in settled.players)
    async with store.transaction() as tx:
        with pytest.raises(NightError, match="already settled"):
            await tx.settle_season(GUILD, actor_id=ALICE)
    assert (await store.audit(GUILD)).ok


async def test_settle_refused_when_the_winner_no_longer_holds_the_chips(store: Store) -> None:
    async with store.transaction() as tx:
        await tx.start_night(GUILD, host_id=ALICE)
    await play_hand(store, {ALICE: 500, BOB: 500}, ALICE)
    async with store.transaction() as tx:
        await tx.take(GUILD, ALICE, 1200, actor_id=ALICE, reason="test: spent elsewhere")
    before = await balances(store, ALICE, BOB)
    async with store.transaction() as tx:
        with pytest.raises(NightError, match="holds 300 chips"):
            await tx.end_night(GUILD, actor_id=ALICE)
    assert await balances(store, ALICE, BOB) == before
    async with store.read() as tx:
        assert await tx.open_night(GUILD) is not None


@pytest.mark.parametrize(
    ("value", "field"),
    [(("0", "EUR"), "chip_value"), (("0.01", "EURO"), "currency"), (("x", "EUR"), "chip_value")],
)
async def test_bad_chip_value_changes_nothing(
    store: Store, value: tuple[str, str], field: str
) -> None:
    async with store.transaction() as tx:
        await tx.update_league(GUILD, chip_value=("0.005", "usd"))
    async with store.transaction() as tx:
        with pytest.raises(InvalidConfig) as err:
            await tx.update_league(GUILD, chip_value=value)
    assert err.value.field == field
    async with store.read() as tx:
        league = await tx.league(GUILD)
    assert (league.chip_value, league.currency) == ("0.005", "USD")
    async with store.transaction() as tx:
        cleared = await tx.update_league(GUILD, chip_value=None)
    assert (cleared.chip_value, cleared.currency) == (None, None)


async def test_migration_4_keeps_the_ledger_rows_and_learns_settle(db_path: Path) -> None:
    store = await Store.open(db_path)
    async with store.transaction() as tx:
        await tx.grant(GUILD, ALICE, 5, actor_id=BOB, reason="before")
        before = await tx.entries(guild_id=GUILD)
    await store.close()
    raw = sqlite3.connect(db_path)
    try:
        # back to version 3: the ledger as 0001 made it, without 'settle'
        sql = migrations()[0].sql
        start = sql.index("CREATE TABLE ledger (")
        ledger_sql = sql[start : sql.index(") STRICT;", start) + len(") STRICT;")]
        raw.executescript(
            "PRAGMA foreign_keys = OFF; BEGIN;"
            # what 0007 (the bank night, the invitation) added
            "DROP TABLE settle_transfers; DROP TABLE night_entries; DROP TABLE night_expenses;"
            "DROP TABLE night_requests; DROP TABLE night_imports; DROP TABLE import_names;"
            "DROP TABLE pay_handles; DROP TABLE night_rsvps; DROP TABLE night_schedules;"
            "ALTER TABLE leagues DROP COLUMN timezone;"
            "DROP TABLE settlements; DROP TABLE nights;"
            "ALTER TABLE leagues DROP COLUMN chip_value; ALTER TABLE leagues DROP COLUMN currency;"
            "CREATE TABLE ledger_old AS SELECT * FROM ledger; DROP TABLE ledger;"
            + ledger_sql
            + "; INSERT INTO ledger SELECT * FROM ledger_old; DROP TABLE ledger_old;"
            "PRAGMA user_version = 3; COMMIT;"
        )
        with pytest.raises(sqlite3.IntegrityError):
            raw.execute(
                "INSERT INTO ledger (guild_id, season_id, from_account, to_account, amount,"
                " kind, created_at) VALUES (?, 1, 1, 2, 1, 'settle', 0)",
                (GUILD,),
            )
    finally:
        raw.close()
    store = await Store.open(db_path)
    try:
        assert store.applied[:1] == (4,)  # then the later ones (0005, the flop games)
        async with store.read() as tx:
            assert await tx.entries(guild_id=GUILD) == before
        with pytest.raises(Exception, match="append-only"):
            async with store.transaction() as tx:
                await tx._exec("DELETE FROM ledger")
        assert (await store.audit(GUILD)).ok
    finally:
        await store.close()


async def test_a_hand_ending_in_the_same_second_after_the_end_leaves_the_night_as_settled(
    store: Store,
) -> None:
    async with store.transaction() as tx:
        await tx.start_night(GUILD, host_id=ALICE)
    await play_hand(store, {ALICE: 10, BOB: 10}, BOB)
    async with store.transaction() as tx:
        ended = await tx.end_night(GUILD, actor_id=ALICE)
    await play_hand(store, {ALICE: 30, CAROL: 30}, CAROL)  # the clock has not moved
    async with store.read() as tx:
        night = await tx.last_night(GUILD)
        assert night is not None
        again = await tx.night_results(night)
        season = await tx.season_results(GUILD)
    assert again == ended and again.hands == 1
    assert all(p.owed == 0 for p in again.players)
    # the later hand is still owed, in the season
    assert season.owed() == {ALICE: -30, BOB: 0, CAROL: 30}
