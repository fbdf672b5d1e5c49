"""Mixed tables (issue 13, item 6) through the TableService, real engines, real SQLite:
a rotation that changes game after an orbit of the button, a dealer's choice where the
next dealer picks (or times out into the game just played), restarts mid-hand and during a
pick, and the ledger exact after each. Until Hold'em, Omaha and Stud are dealt at a table,
the rotation mechanics are shown with the games that exist (Razz, Zoot, Wheelers)."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest

from bot.engine.errors import IllegalAction, InvalidConfig, NotYourTurn
from bot.store import Store
from bot.tables import NotSeated, StaleAction, TableService
from bot.tables.variants import HORSE, VARIANTS

from .conftest import ALICE, BOB, CAROL, GUILD, Clock, Recorder, seeded

SEATS = {ALICE: 0, BOB: 1, CAROL: 2}


async def _open(service: TableService, game: str, games: str, channel: int = 700) -> int:
    view = await service.open_table(
        guild_id=GUILD,
        channel_id=channel,
        host_id=ALICE,
        host_name="Alice",
        game=game,
        options={"games": games, "small_bet": 10},
    )
    await service.join(view.table_id, BOB, "Bob")
    await service.join(view.table_id, CAROL, "Carol")
    return view.table_id


async def _play_hand(service: TableService, tid: int, rng: random.Random) -> None:
    """Every seat plays the engine's policy (a player's choice, through ``act``) until the
    hand is over."""
    for _ in range(400):
        view = await service.view(tid)
        if not await service.hand_in_progress(tid) or not view.to_act_user_ids:
            return
        for uid in sorted(view.to_act_user_ids):
            action = service.suggested_action(tid, uid, rng)
            if action is None:
                continue
            card = None if action.card is None else str(action.card)
            await service.act(tid, uid, action.kind, card=card, amount=action.amount)
    raise AssertionError("the hand did not end")


async def _ledger_exact(store: Store, service: TableService, tid: int) -> None:
    """The audit adds up, and each seat's chips shown are its wallet by the ledger."""
    report = await store.audit(GUILD)
    assert report.ok, report.format()
    view = await service.view(tid)
    async with store.read() as tx:
        for seat in view.seats:
            wallet = await tx.wallet(GUILD, seat.user_id)
            assert seat.stack == wallet.balance, (seat.name, seat.stack, wallet.balance)


async def _hand_games(store: Store, tid: int) -> list[str]:
    async with store.read() as tx:
        return [h.game for h in await tx.hands(tid)]


async def test_rotation_changes_game_after_an_orbit_and_the_deal_keeps_moving_clockwise(
    service: TableService, store: Store, recorder: Recorder
) -> None:
    tid = await _open(service, "horse", "razz wheelers")
    rng = random.Random(3)
    await service.start(tid, ALICE)
    dealers: list[int] = []
    games: list[str] = []
    for hand in range(7):
        view = await service.view(tid)
        assert view.mixed is not None and view.mixed.name == "HORSE"
        dealers.append(view.dealer_seat)
        games.append(view.game)
        await _play_hand(service, tid, rng)
        await _ledger_exact(store, service, tid)
        if hand < 6:
            after = await service.view(tid)
            assert after.deadline is not None  # the usual short pause, no pick
            assert after.mixed.next_label == ("Wheelers" if after.game == "razz" else "Razz")
            assert await service.tick(tid, force=True)
    # three players: three Razz hands (one orbit), then the Wheelers games
    assert games[:4] == ["razz", "razz", "razz", "wheelers"]
    # the button moves one seat clockwise every hand, across the change of game
    for a, b in itertools.pairwise(dealers):
        assert b == (a + 1) % 3, dealers
    # each hand is stored as the game it was (the history and the stats read it)
    stored = await _hand_games(store, tid)
    assert stored == games
    assert any(
        "The orbit is over: now Wheelers" in r for p in recorder.published for r in p.view.recent
    )
    # Wheelers goes on until its own orbit is over (or its carried pot is won), then Razz
    if "razz" in games[4:]:
        back = games.index("razz", 4)
        assert all(g == "wheelers" for g in games[3:back]) and back - 3 >= 3


async def test_dealers_choice_the_next_dealer_picks_and_a_timeout_deals_the_same_game(
    service: TableService, store: Store, clock: Clock
) -> None:
    tid = await _open(service, "dealers-choice", "razz zoot")
    rng = random.Random(5)
    await service.start(tid, ALICE)
    first = await service.view(tid)
    assert first.game == "razz"  # the first hand is the first game listed
    await _play_hand(service, tid, rng)
    await _ledger_exact(store, service, tid)

    waiting = await service.view(tid)
    chooser = waiting.mixed.chooser
    assert chooser == (first.dealer_seat + 1) % 3  # the player who deals next picks
    assert waiting.deadline == pytest.approx(clock.now + 30, abs=1)
    picker = next(s.user_id for s in waiting.seats if s.seat == chooser)
    other = next(s.user_id for s in waiting.seats if s.seat != chooser)

    # refusals change nothing, the deadline included
    with pytest.raises(NotYourTurn, match="deals next and picks"):
        await service.choose_game(tid, other, "zoot")
    with pytest.raises(IllegalAction, match="not one of this table's games"):
        await service.choose_game(tid, picker, "holdem")
    with pytest.raises(StaleAction):
        await service.choose_game(tid, picker, "zoot", after_hand=waiting.hand_number - 1)
    with pytest.raises(NotSeated):
        await service.choose_game(tid, 999, "zoot")
    same = await service.view(tid)
    assert (same.version, same.deadline, same.mixed) == (
        waiting.version,
        waiting.deadline,
        waiting.mixed,
    )

    picked = await service.choose_game(tid, picker, "zoot", after_hand=waiting.hand_number)
    assert picked.mixed.chooser is None and picked.mixed.next_label == "Zoot"
    assert picked.deadline == pytest.approx(clock.now + 3, abs=1)  # deals after the pause
    with pytest.raises(IllegalAction, match="already chose Zoot"):
        await service.choose_game(tid, picker, "razz")
    clock.now = picked.deadline + 1
    assert await service.tick(tid)
    second = await service.view(tid)
    assert second.game == "zoot" and second.dealer_seat == chooser
    assert any("deals Zoot" in r for r in second.recent)
    await _play_hand(service, tid, rng)
    await _ledger_exact(store, service, tid)

    # a Zoot pot that carries over belongs to Zoot: no pick until it is won
    after = await service.view(tid)
    carried = 0
    while after.mixed.carried:
        carried += 1
        assert after.mixed.chooser is None and after.pot > 0
        assert after.deadline == pytest.approx(clock.now + 3, abs=1)
        assert await service.tick(tid, force=True)
        assert (await service.view(tid)).game == "zoot"
        await _play_hand(service, tid, rng)
        await _ledger_exact(store, service, tid)
        after = await service.view(tid)
        assert carried < 10
    # the next dealer lets the time run out: the game just played again
    dealer = (await service.view(tid)).dealer_seat
    assert after.mixed.chooser == (dealer + 1) % 3
    clock.now = after.deadline + 1
    assert await service.tick(tid)
    third = await service.view(tid)
    assert third.game == "zoot" and third.dealer_seat == (dealer + 1) % 3
    assert any("did not pick in time: Zoot again" in r for r in third.recent)
    await _play_hand(service, tid, rng)
    await _ledger_exact(store, service, tid)
    assert await _hand_games(store, tid) == ["razz"] + ["zoot"] * (2 + carried)


async def test_dealers_choice_computer_dealer_picks_at_once(
    service: TableService, store: Store
) -> None:
    view = await service.open_table(
        guild_id=GUILD,
        channel_id=701,
        host_id=ALICE,
        host_name="Alice",
        game="dealers-choice",
        options={"games": "razz, wheelers"},
        practice=True,
        computers=2,
    )
    tid = view.table_id
    rng = random.Random(8)
    await service.start(tid, ALICE)
    for _ in range(4):
        await _play_hand(service, tid, rng)
        view = await service.view(tid)
        dealer_next = (view.dealer_seat + 1) % 3
        if dealer_next == 0 or view.mixed.carried:
            assert view.mixed.chooser in (None, 0)
        else:
            # a computer deals next: it picked already (the next game in the list)
            assert view.mixed.chooser is None
            expect = "Wheelers" if view.game == "razz" else "Razz"
            assert view.mixed.next_label == expect
            assert view.deadline is not None and view.deadline <= service.now() + 4
        if view.mixed.chooser == 0:
            await service.choose_game(tid, ALICE, "razz")
        assert await service.tick(tid, force=True)


async def test_restart_during_a_pick_and_mid_hand_keeps_game_pick_and_deadline(
    db_path: Path, clock: Clock
) -> None:
    store = await Store.open(db_path, clock=clock)
    svc = TableService(store, clock=clock, rng_factory=seeded(21), timers=False)
    await svc.start_service()
    tid = await _open(svc, "dealers-choice", "razz wheelers zoot")
    rng = random.Random(2)
    await svc.start(tid, ALICE)
    await _play_hand(svc, tid, rng)
    waiting = await svc.view(tid)
    await svc.stop_service()
    await store.close()

    # the bot restarts while the next dealer chooses: the pick and its deadline stay
    store = await Store.open(db_path, clock=clock)
    svc = TableService(store, clock=clock, rng_factory=seeded(22), timers=False)
    await svc.start_service()
    again = await svc.view(tid)
    assert again.mixed == waiting.mixed and again.deadline == waiting.deadline
    picker = next(s.user_id for s in again.seats if s.seat == again.mixed.chooser)
    await svc.choose_game(tid, picker, "wheelers")
    assert await svc.tick(tid, force=True)
    mid = await svc.view(tid)
    assert mid.game == "wheelers"
    secret = {u: (await svc.private_view(tid, u)).cards for u in SEATS}
    await svc.stop_service()
    await store.close()

    # and mid-hand of the new game: the same hand, the same cards, the same timer
    store = await Store.open(db_path, clock=clock)
    rec = Recorder()
    svc = TableService(store, clock=clock, subscriber=rec, rng_factory=seeded(23), timers=False)
    await svc.start_service()
    back = await svc.view(tid)
    assert (back.game, back.version, back.deadline, back.dealer_seat) == (
        "wheelers",
        mid.version,
        mid.deadline,
        mid.dealer_seat,
    )
    assert back.mixed == mid.mixed
    assert {u: (await svc.private_view(tid, u)).cards for u in SEATS} == secret
    await _play_hand(svc, tid, rng)
    await _ledger_exact(store, svc, tid)
    await svc.stop_service()
    await store.close()


async def test_void_after_a_change_of_game_deals_the_same_game_by_the_same_dealer(
    service: TableService, store: Store
) -> None:
    tid = await _open(service, "horse", "razz zoot")
    rng = random.Random(4)
    await service.start(tid, ALICE)
    for _ in range(3):
        await _play_hand(service, tid, rng)
        assert await service.tick(tid, force=True)
    changed = await service.view(tid)
    assert changed.game == "zoot"
    await service.void_hand(tid, ALICE, may_manage=True)
    await _ledger_exact(store, service, tid)
    assert await service.tick(tid, force=True)
    redealt = await service.view(tid)
    assert (redealt.game, redealt.dealer_seat) == ("zoot", changed.dealer_seat)


async def test_mixed_table_options_are_checked_with_a_clear_reason(service: TableService) -> None:
    async def bad(game: str, **options: object) -> str:
        with pytest.raises(InvalidConfig) as err:
            await service.open_table(
                guild_id=GUILD,
                channel_id=702,
                host_id=ALICE,
                host_name="Alice",
                game=game,
                options=options,
            )
        return str(err.value)

    assert "unknown game 'poker'" in await bad("dealers-choice", games="razz poker")
    assert "listed twice" in await bad("dealers-choice", games="razz razz")
    assert "small_bet" in await bad("horse", games="razz zoot", small_bet=1)
    assert "two games or more" in await bad("horse", games="razz")
    # HORSE is five games of three families, every one dealt here
    assert {VARIANTS[k].game for k in HORSE} == {"holdem", "omaha", "razz", "stud"}
