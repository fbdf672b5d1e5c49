"""A bank night in the store (issue 21; real SQLite in a temp dir): buy-ins and cash-outs,
requests approved or refused once and never by their own asker, corrections as new entries,
expenses, the end refused while the bank does not balance and forced, the settle-up with a
``settle_with`` couple, transfers marked paid by their payer or payee, one carried into the
next night; the audit after each step; an old database migrated without losing a row."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.league.settle import Transfer
from bot.store import NightError, Store
from bot.store.migrate import migrations
from tests.store.conftest import ALICE, BOB, CAROL, GUILD, Clock

DAVE, ERIN, FRANK = 14, 15, 16


async def audit_ok(store: Store) -> None:
    report = await store.audit(GUILD)
    assert report.ok, report.format()


async def bank_night(store: Store) -> None:
    async with store.transaction() as tx:
        await tx.update_league(GUILD, chip_value=("0.01", "EUR"))
        await tx.start_night(GUILD, host_id=ALICE, kind="bank")


async def test_a_bank_night_books_buy_ins_requests_corrections_and_expenses(
    store: Store, clock: Clock
) -> None:
    await bank_night(store)
    async with store.transaction() as tx:
        night = await tx.bank_night(GUILD, "a buy-in")
        assert night.kind == "bank" and night.bank and not night.tables
        await tx.book_entry(night, BOB, "buyin", 2000, actor_id=ALICE)
        request = await tx.ask(night, CAROL, "buyin", 2000)
    await audit_ok(store)
    async with store.transaction() as tx:
        with pytest.raises(NightError, match="your own buy-in"):
            await tx.decide(request.id, actor_id=CAROL, approve=True)
    async with store.transaction() as tx:
        decided, entry = await tx.decide(request.id, actor_id=ALICE, approve=True)
    assert decided.status == "approved" and decided.decided_by == ALICE
    assert entry is not None and entry.request_id == request.id and entry.actor_id == ALICE
    async with store.transaction() as tx:
        with pytest.raises(NightError, match="already approved by <@11>"):
            await tx.decide(request.id, actor_id=BOB, approve=True)
        with pytest.raises(NightError, match="already approved"):
            await tx.decide(request.id, actor_id=BOB, approve=False)
        refused = await tx.ask(night, DAVE, "buyin", 99900)
    async with store.transaction() as tx:
        state, none = await tx.decide(refused.id, actor_id=ALICE, approve=False)
    assert state.status == "refused" and none is None
    async with store.transaction() as tx:
        # a cash-out with no buy-in: refused
        with pytest.raises(NightError, match="has not bought in"):
            await tx.book_entry(night, DAVE, "cashout", 100, actor_id=ALICE)
        typo = await tx.book_entry(night, BOB, "buyin", 20000, actor_id=ALICE)
        original, correction = await tx.correct_entry(
            GUILD, typo.id, 2000, reason="typed a zero too many", actor_id=ALICE
        )
        assert (original.id, correction.chips, correction.corrects) == (typo.id, -18000, typo.id)
        with pytest.raises(NightError, match="already 2,000 chips"):
            await tx.correct_entry(GUILD, typo.id, 2000, reason="again", actor_id=ALICE)
        with pytest.raises(NightError, match="no entry #999"):
            await tx.correct_entry(GUILD, 999, 10, reason="?", actor_id=ALICE)
        with pytest.raises(NightError, match="shared by nobody"):
            await tx.add_expense(
                night, what="pizza", chips=3000, paid_by=BOB, shared_by=[], actor_id=ALICE
            )
        pizza = await tx.add_expense(
            night,
            what="pizza",
            chips=3000,
            paid_by=BOB,
            shared_by=None,
            actor_id=ALICE,
            everyone=[BOB, CAROL],
        )
        book = await tx.night_book(night)
    assert pizza.shared_by is None
    assert {line.user_id: line.bought_in for line in book.lines} == {BOB: 4000, CAROL: 2000}
    assert {line.user_id: line.buy_ins for line in book.lines} == {BOB: 2, CAROL: 1}
    assert book.money_in == 6000 and book.money_out == 0 and book.difference == 6000
    assert book.not_cashed_out == [BOB, CAROL]
    await audit_ok(store)
    # the book is append-only, like the ledger
    raw = sqlite3.connect(store.path)
    try:
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            raw.execute("UPDATE night_entries SET chips = 1")
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            raw.execute("DELETE FROM night_expenses")
    finally:
        raw.close()


async def test_night_end_refused_while_the_bank_does_not_balance_then_forced(
    store: Store,
) -> None:
    await bank_night(store)
    async with store.transaction() as tx:
        night = await tx.bank_night(GUILD, "a buy-in")
        for who in (BOB, CAROL, DAVE):
            await tx.book_entry(night, who, "buyin", 2000, actor_id=ALICE)
        await tx.book_entry(night, BOB, "cashout", 3000, actor_id=ALICE)
        await tx.book_entry(night, CAROL, "cashout", 1000, actor_id=ALICE)
    async with store.transaction() as tx:
        with pytest.raises(NightError) as err:
            await tx.end_night(GUILD, actor_id=ALICE)
    message = err.value.message
    assert "money in €60.00, money out €40.00, €20.00 missing" in message
    assert "Not cashed out yet: <@14>" in message and message.endswith("Nothing changed.")
    async with store.read() as tx:
        assert await tx.open_night(GUILD) is not None
    async with store.transaction() as tx:
        results = await tx.end_night(GUILD, actor_id=ALICE, force=True)
    assert results.unaccounted == 2000
    # the €20 nobody accounted for is shared evenly by the three players
    shares = {p.user_id: p.unaccounted for p in results.players}
    assert shares == {BOB: 667, CAROL: 667, DAVE: 666}
    assert sum(p.total for p in results.players) == 0
    assert all(p.owed == 0 for p in results.players)
    async with store.read() as tx:
        (entry,) = [e for e in await tx.bank_entries(night) if e.kind == "unaccounted"]
    assert entry.chips == 2000 and entry.actor_id == ALICE and "forced end" in (entry.reason or "")
    await audit_ok(store)


async def test_settle_with_a_couple_paid_transfers_and_one_carried_into_the_next_night(
    store: Store, clock: Clock
) -> None:
    await bank_night(store)
    nets = {BOB: 1500, CAROL: -500, DAVE: -1000, ERIN: 800, FRANK: -800}
    async with store.transaction() as tx:
        night = await tx.bank_night(GUILD, "a buy-in")
        for who, net in nets.items():
            await tx.book_entry(night, who, "buyin", 2000, actor_id=ALICE)
            await tx.book_entry(night, who, "cashout", 2000 + net, actor_id=ALICE)
    async with store.transaction() as tx:
        # a couple whose nets do not cancel: refused in one line
        with pytest.raises(NightError, match=r"<@12> and <@13> cannot settle only among") as err:
            await tx.end_night(GUILD, actor_id=ALICE, settle_with=[frozenset({BOB, CAROL})])
        assert "+€10.00" in err.value.message
        with pytest.raises(NightError, match="no part in"):
            await tx.end_night(GUILD, actor_id=ALICE, settle_with=[frozenset({ALICE, BOB})])
        results = await tx.end_night(GUILD, actor_id=ALICE, settle_with=[frozenset({ERIN, FRANK})])
    settlement = results.settlement
    assert settlement is not None
    plan = list(settlement.transfers)
    assert Transfer(FRANK, ERIN, 800) in plan
    assert all(
        {t.payer, t.payee} <= {ERIN, FRANK} or not {t.payer, t.payee} & {ERIN, FRANK} for t in plan
    )
    assert [r.number for r in settlement.rows] == list(range(1, len(plan) + 1))
    # no league chip moved: a bank night's money is not league chips
    async with store.read() as tx:
        assert await tx.entries(guild_id=GUILD, kind="settle") == []
    await audit_ok(store)

    first, *rest = settlement.rows
    async with store.transaction() as tx:
        with pytest.raises(NightError, match="Only <@"):
            await tx.mark_paid(GUILD, first.id, user_id=ALICE)
        paid = await tx.mark_paid(GUILD, first.id, user_id=first.payee)
        assert paid.paid_by == first.payee and paid.paid_at is not None
        with pytest.raises(NightError, match="already marked paid"):
            await tx.mark_paid(GUILD, first.id, user_id=first.payer)
        with pytest.raises(NightError, match="not one of this server's"):
            await tx.mark_paid(GUILD + 1, rest[0].id, user_id=rest[0].payer)
        for t in rest[1:]:
            await tx.mark_paid(GUILD, t.id, user_id=t.payer)
        still = await tx.open_transfers(GUILD)
    assert [t.id for t in still] == [rest[0].id]

    # the next night: the open transfer is carried into its settle-up
    clock.now += 86400
    left = rest[0]
    async with store.transaction() as tx:
        await tx.start_night(GUILD, host_id=ALICE, kind="bank")
        night2 = await tx.bank_night(GUILD, "a buy-in")
        await tx.book_entry(night2, left.payee, "buyin", 1000, actor_id=ALICE)
        await tx.book_entry(night2, left.payee, "cashout", 600, actor_id=ALICE)
        await tx.book_entry(night2, CAROL, "buyin", 1000, actor_id=ALICE)
        await tx.book_entry(night2, CAROL, "cashout", 1400, actor_id=ALICE)
        second = await tx.end_night(GUILD, actor_id=ALICE, carry_open=True)
        with pytest.raises(NightError, match="carried into settle-up"):
            await tx.mark_paid(GUILD, left.id, user_id=left.payer)
    carried = {p.user_id: p.carried for p in second.players if p.carried}
    assert carried == {left.payer: -left.chips, left.payee: left.chips}
    assert all(p.owed == 0 for p in second.players)
    async with store.read() as tx:
        assert [t.id for t in await tx.open_transfers(GUILD)] == [
            r.id
            for r in second.settlement.rows  # type: ignore[union-attr]
        ]
        gone = await tx.settle_transfer(left.id)
    assert gone.carried_into == second.settlement.id  # type: ignore[union-attr]
    await audit_ok(store)


async def test_pay_handles_and_a_second_import_of_one_file(store: Store) -> None:
    await bank_night(store)
    async with store.transaction() as tx:
        await tx.set_pay_handle(GUILD, BOB, "  IBAN DE00 1234   5678 ")
        assert await tx.pay_handles(GUILD, [BOB, CAROL]) == {BOB: "IBAN DE00 1234 5678"}
        with pytest.raises(NightError, match="1 to 200"):
            await tx.set_pay_handle(GUILD, BOB, "x" * 201)
        await tx.set_pay_handle(GUILD, BOB, None)
        assert await tx.pay_handles(GUILD, [BOB]) == {}


async def test_a_tables_night_refuses_the_bank(store: Store) -> None:
    async with store.transaction() as tx:
        await tx.start_night(GUILD, host_id=ALICE)
        with pytest.raises(NightError, match="not a bank night"):
            await tx.bank_night(GUILD, "/buyin")
    async with store.transaction() as tx:
        await tx.end_night(GUILD, actor_id=ALICE)
        with pytest.raises(NightError, match="No night is on"):
            await tx.bank_night(GUILD, "/buyin")


async def test_migration_7_numbers_the_old_settle_ups_transfers_and_keeps_every_row(
    db_path: Path, clock: Clock
) -> None:
    from tests.store.test_nights import play_hand

    store = await Store.open(db_path, clock=clock)
    async with store.transaction() as tx:
        await tx.start_night(GUILD, host_id=ALICE)
    await play_hand(store, {ALICE: 30, BOB: 30, CAROL: 30}, ALICE)
    async with store.transaction() as tx:
        await tx.end_night(GUILD, actor_id=ALICE)
    await store.close()
    raw = sqlite3.connect(db_path)
    try:
        before = {
            t: raw.execute(f"SELECT * FROM {t} ORDER BY 1").fetchall()
            for t in ("ledger", "accounts", "hands", "hand_results", "nights")
        }
        # back to version 6: as the bot before 0007 left it
        raw.executescript(
            "PRAGMA foreign_keys = OFF; BEGIN;"
            "DROP TABLE settle_transfers; DROP TABLE night_entries; DROP TABLE night_expenses;"
            "DROP TABLE night_requests; DROP TABLE night_imports; DROP TABLE import_names;"
            "DROP TABLE pay_handles; DROP TABLE night_rsvps;"
            "ALTER TABLE nights DROP COLUMN kind; ALTER TABLE nights DROP COLUMN schedule_id;"
            "DROP TABLE night_schedules;"
            "ALTER TABLE settlements DROP COLUMN channel_id;"
            "ALTER TABLE settlements DROP COLUMN message_id;"
            "ALTER TABLE leagues DROP COLUMN timezone;"
            "PRAGMA user_version = 6; COMMIT;"
        )
        (transfers,) = raw.execute("SELECT transfers FROM settlements").fetchone()
    finally:
        raw.close()
    store = await Store.open(db_path, clock=clock)
    try:
        # 0007 again, and every migration after it (0008's tables are still there: it
        # is written to apply over them)
        assert store.applied == tuple(m.version for m in migrations() if m.version >= 7)
        async with store.read() as tx:
            night = await tx.last_night(GUILD)
            assert night is not None and night.kind == "tables"
            results = await tx.night_results(night)
            rows = await tx.open_transfers(GUILD)
        assert results.settlement is not None
        assert [(r.number, r.transfer) for r in rows] == list(
            enumerate(results.settlement.transfers, start=1)
        )
        assert len(rows) == transfers.count("payer") >= 1
        await audit_ok(store)
    finally:
        await store.close()
    raw = sqlite3.connect(db_path)
    try:
        for table, rows_before in before.items():
            got = raw.execute(f"SELECT * FROM {table} ORDER BY 1").fetchall()
            if table == "nights":
                got = [r[: len(rows_before[0])] for r in got]
            assert got == rows_before, table
    finally:
        raw.close()


async def test_a_night_of_both_settles_tables_and_bank_together_and_resets_only_chips(
    store: Store, clock: Clock
) -> None:
    from tests.store.test_nights import balances, play_hand

    async with store.transaction() as tx:
        await tx.update_league(GUILD, chip_value=("0.01", "EUR"))
        await tx.start_night(GUILD, host_id=ALICE, kind="both")
    clock.now += 60
    await play_hand(store, {ALICE: 300, BOB: 300}, ALICE)  # the bot's table: A +300, B -300
    async with store.transaction() as tx:
        night = await tx.bank_night(GUILD, "a buy-in")
        # the kitchen table beside it: bob wins 500 from carol
        await tx.book_entry(night, BOB, "buyin", 1000, actor_id=ALICE)
        await tx.book_entry(night, BOB, "cashout", 1500, actor_id=ALICE)
        await tx.book_entry(night, CAROL, "buyin", 1000, actor_id=ALICE)
        await tx.book_entry(night, CAROL, "cashout", 500, actor_id=ALICE)
    clock.now += 60
    async with store.transaction() as tx:
        results = await tx.end_night(GUILD, actor_id=ALICE)
        rows = await tx.entries(guild_id=GUILD, kind="settle")
    totals = {p.user_id: p.total for p in results.players}
    assert totals == {ALICE: 300, BOB: 200, CAROL: -500}
    assert results.settlement is not None
    assert sorted(results.settlement.transfers, key=lambda t: t.payee) == [
        Transfer(CAROL, ALICE, 300),
        Transfer(CAROL, BOB, 200),
    ]
    # only the table's chips go back in the league's wallets: one settle row, bob's 300
    assert [(r.amount, r.kind) for r in rows] == [(300, "settle")]
    assert await balances(store, ALICE, BOB) == {ALICE: 1000, BOB: 1000}
    await audit_ok(store)


async def test_forget_removes_a_members_pay_handle_and_imported_names(store: Store) -> None:
    from bot.league.pokernow import ImportedPlayer
    from bot.store import forget_member

    await bank_night(store)
    annie = ImportedPlayer("wDgT3kPq1a", "AnnieK", 2000, 3550, 1, False)
    async with store.transaction() as tx:
        night = await tx.bank_night(GUILD, "an import")
        await tx.set_pay_handle(GUILD, BOB, "IBAN DE89")
        made = await tx.create_import(
            night,
            filename="l.csv",
            sha256="0" * 64,
            units="cents",
            players=[annie],
            matches=[BOB],
            actor_id=ALICE,
        )
        await tx.book_import(made.id, actor_id=ALICE)
        assert await tx.known_names(GUILD) == {"wDgT3kPq1a": BOB, "name:anniek": BOB}
        await forget_member(tx, GUILD, BOB)
        assert await tx.pay_handles(GUILD, [BOB]) == {}
        assert await tx.known_names(GUILD) == {}
        kept = await tx.night_import(made.id)
    assert kept.players[0].name == "forgotten member" and kept.matches == (BOB,)
    async with store.read() as tx:
        # the book keeps its amounts, like the ledger
        assert {e.chips for e in await tx.bank_entries(night)} == {2000, 3550}
    await audit_ok(store)
