"""Hold'em and Omaha at the table (issue 13): the TableService over the real flop engine and
a real SQLite store in a tmp dir. Each test checks the ledger: every wallet matches the
engine's stacks and the audit holds."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.engine.cards import parse_card
from bot.engine.errors import InvalidConfig
from bot.engine.flop import BetOutOfRange, FlopHand
from bot.engine.flop.phh import replay_flop_phh_text
from bot.store import Store
from bot.tables import TableService
from bot.tables.flop import FlopFamily, bet_sizes
from bot.tables.games import make_family

from .conftest import ALICE, BOB, CAROL, GUILD, Clock, Recorder, seeded

NAMES = {ALICE: "Alice", BOB: "Bob", CAROL: "Carol"}


async def _table(
    service: TableService, game: str, channel: int, *, players=(ALICE, BOB, CAROL), **options
) -> int:
    view = await service.open_table(
        guild_id=GUILD,
        channel_id=channel,
        host_id=players[0],
        host_name=NAMES[players[0]],
        game=game,
        options=options,
    )
    for uid in players[1:]:
        await service.join(view.table_id, uid, NAMES[uid])
    return view.table_id


async def _wallets(store: Store, users=(ALICE, BOB, CAROL)) -> dict[int, int]:
    async with store.read() as tx:
        return {u: (await tx.wallet(GUILD, u)).balance for u in users}


async def _audit_ok(store: Store) -> None:
    report = await store.audit(GUILD)
    assert report.ok, report.format()


async def _actor(service: TableService, tid: int) -> int:
    (actor,) = (await service.view(tid)).to_act_user_ids
    return actor


async def _finished_history(store: Store, tid: int) -> str:
    async with store.read() as tx:
        hands = await tx.hands(tid)
    done = [h for h in hands if h.status == "finished"]
    assert done and done[-1].history
    return done[-1].history


async def test_holdem_typed_raise_all_in_and_side_pot_balance_by_the_ledger(
    service: TableService, store: Store
) -> None:
    """Alice (1,000) shoves before the flop, Bob and Carol (2,000 each) call; on the flop
    Bob's typed bet of 5 is refused with the legal range and changes nothing, his 500
    goes in and Carol calls: a main pot of 3,000 and a side pot of 1,000."""
    tid = await _table(service, "holdem", 701)
    async with store.transaction() as tx:
        for uid in (BOB, CAROL):
            await tx.grant(GUILD, uid, 1000, actor_id=1, reason="deeper stacks")
    view = await service.start(tid, ALICE)
    assert view.game == "holdem" and view.pot == 15  # blinds 5 and 10
    async with store.read() as tx:
        blinds = await tx.entries(table_id=tid, kind="blind")
    assert sorted(e.amount for e in blinds) == [5, 10]
    while (await service.view(tid)).phase == "before the flop":
        actor = await _actor(service, tid)
        pv = await service.private_view(tid, actor)
        raise_opt = pv.option("raise")
        if actor == ALICE and raise_opt is not None and raise_opt.allowed:
            assert raise_opt.most == 1000 and ("all-in", 1000) in raise_opt.sizes
            await service.act(tid, ALICE, "raise", amount=1000)
        else:
            await service.act(tid, actor, "call" if pv.option("call").allowed else "check")
    view = await service.view(tid)
    assert view.phase == "the flop" and len(view.community) == 3 and view.pot == 3000
    actor = await _actor(service, tid)
    other = BOB if actor == CAROL else CAROL
    with pytest.raises(BetOutOfRange, match="legal range is 10 to 1000"):
        await service.act(tid, actor, "bet", amount=5)
    with pytest.raises(BetOutOfRange, match="legal range is 10 to 1000"):
        await service.act(tid, actor, "bet", amount=1500)
    after = await service.view(tid)
    assert (after.version, after.pot, after.deadline) == (view.version, 3000, view.deadline)
    await service.act(tid, actor, "bet", amount=500)
    await service.act(tid, other, "call")
    while await service.hand_in_progress(tid):
        await service.act(tid, await _actor(service, tid), "check")
    view = await service.view(tid)
    assert view.result is not None and "Main pot: 3,000 (" in view.result
    assert "; side pot 1: 1,000 (" in view.result
    history = await _finished_history(store, tid)
    replay = replay_flop_phh_text(history)
    assert replay.match, (replay.finishing_stacks, replay.recorded)
    wallets = await _wallets(store)
    assert sum(wallets.values()) == 5000
    assert {s.user_id: s.stack for s in view.seats} == wallets
    await _audit_ok(store)


async def test_pot_limit_omaha_refuses_an_overbet_with_the_range_and_times_out_after(
    service: TableService, store: Store, clock: Clock, recorder: Recorder
) -> None:
    tid = await _table(service, "omaha", 702, decision_seconds=10, time_bank=0)
    view = await service.start(tid, ALICE)
    rules = dict((k, v) for k, v, _ in view.rules)
    assert rules["betting"] == "pot-limit" and rules["split"] == "high"
    actor = await _actor(service, tid)
    pv = await service.private_view(tid, actor)
    assert len(pv.cards) == 4
    raise_opt = pv.option("raise")
    # first to act before the flop, 15 in: the pot-sized raise is to 35 (call 10, pot 25)
    assert (raise_opt.to, raise_opt.most) == (20, 35)
    assert dict(raise_opt.sizes) == {"min": 20, "½ pot": 22, "pot": 35}  # 10 + 25 // 2
    with pytest.raises(BetOutOfRange, match="cannot raise to 500: the legal range is 20 to 35"):
        await service.act(tid, actor, "raise", amount=500)
    after = await service.view(tid)
    assert after.version == view.version and after.deadline == view.deadline
    assert after.to_act_user_ids == {actor}
    clock.now = view.deadline + 1
    assert await service.tick(tid)
    assert any(f"{NAMES[actor]} timed out" in a for a in recorder.announcements)
    assert actor not in (await service.view(tid)).to_act_user_ids
    await _audit_ok(store)


async def test_heads_up_the_button_posts_the_small_blind_and_acts_first(
    service: TableService, store: Store, recorder: Recorder
) -> None:
    tid = await _table(service, "holdem", 703, players=(ALICE, BOB))
    view = await service.start(tid, ALICE)
    button = next(s for s in view.seats if s.seat == view.dealer_seat)
    other = next(s for s in view.seats if s.seat != view.dealer_seat)
    assert (button.bet, other.bet) == (5, 10)
    assert view.to_act_user_ids == {button.user_id}
    assert f"{button.name} posts the small blind 5" in " ".join(view.recent)
    await service.act(tid, button.user_id, "fold")
    assert await _wallets(store, (ALICE, BOB)) == {
        button.user_id: 995,
        other.user_id: 1005,
    }
    await _audit_ok(store)


async def test_timeout_checks_when_free_and_folds_facing_a_bet(
    service: TableService, store: Store, clock: Clock, recorder: Recorder
) -> None:
    tid = await _table(
        service, "holdem", 704, players=(ALICE, BOB), decision_seconds=10, time_bank=0
    )
    view = await service.start(tid, ALICE)
    (sb,) = view.to_act_user_ids  # heads-up: the button (small blind) owes 5
    await service.act(tid, sb, "call")
    view = await service.view(tid)
    (bb,) = view.to_act_user_ids
    clock.now = view.deadline + 1
    await service.tick(tid)  # the big blind owes nothing: checks
    assert any(f"{NAMES[bb]} checks (timed out)" in r for r in (await service.view(tid)).recent)
    view = await service.view(tid)
    assert view.phase == "the flop"
    actor = await _actor(service, tid)
    await service.act(tid, actor, "bet", amount=40)
    view = await service.view(tid)
    clock.now = view.deadline + 1
    await service.tick(tid)  # facing a bet: folds
    assert not await service.hand_in_progress(tid)
    wallets = await _wallets(store, (ALICE, BOB))
    assert wallets[actor] == 1010 and sum(wallets.values()) == 2000
    await _audit_ok(store)


async def test_restart_mid_hand_deals_the_same_cards_and_keeps_the_deadline(
    db_path: Path, clock: Clock
) -> None:
    store = await Store.open(db_path, clock=clock)
    svc = TableService(store, clock=clock, rng_factory=seeded(5), timers=False)
    await svc.start_service()
    tid = await _table(svc, "omaha", 705, split="hi-lo", betting="fixed-limit")
    await svc.start(tid, ALICE)
    while (await svc.view(tid)).phase == "before the flop":
        actor = await _actor(svc, tid)
        pv = await svc.private_view(tid, actor)
        await svc.act(tid, actor, "call" if pv.option("call").allowed else "check")
    mid = await svc.view(tid)
    secret = {u: (await svc.private_view(tid, u)).cards for u in NAMES}
    await svc.stop_service()
    await store.close()

    store = await Store.open(db_path, clock=clock)
    svc = TableService(store, clock=clock, rng_factory=seeded(99), timers=False)
    await svc.start_service()
    again = await svc.view(tid)
    assert (again.version, again.deadline, again.pot) == (mid.version, mid.deadline, mid.pot)
    assert again.community == mid.community and again.to_act_user_ids == mid.to_act_user_ids
    assert {u: (await svc.private_view(tid, u)).cards for u in NAMES} == secret
    while await svc.hand_in_progress(tid):
        actor = await _actor(svc, tid)
        pv = await svc.private_view(tid, actor)
        await svc.act(tid, actor, "call" if pv.option("call").allowed else "check")
    done = await svc.view(tid)
    assert len(done.community) == 5 and done.result is not None
    replay = replay_flop_phh_text(await _finished_history(store, tid))
    assert replay.match and "variant = 'FO/8'" in await _finished_history(store, tid)
    assert {s.user_id: s.stack for s in done.seats} == await _wallets(store)
    await _audit_ok(store)
    await svc.stop_service()
    await store.close()


async def test_computer_players_play_practice_holdem_hands_to_the_end(store: Store, clock) -> None:
    svc = TableService(store, clock=clock, rng_factory=seeded(3), timers=False, autostart_delay=0)
    await svc.start_service()
    view = await svc.open_table(
        guild_id=GUILD,
        channel_id=706,
        host_id=-1,
        host_name="C1",
        game="holdem",
        computers=0,
        seat_host=False,
    )
    tid = view.table_id
    for k in (1, 2, 3, 4):
        await svc.join(tid, -(10 + k), f"C{k}", computer=True)
    await svc.start(tid, -11)
    hands = 0
    for _ in range(2000):
        if not await svc.hand_in_progress(tid):
            hands += 1
            if hands == 15:
                break
            await svc.tick(tid, force=True)
            continue
        (uid, action), *_ = svc.computer_moves(tid)
        await svc.act(tid, uid, action.kind, amount=action.amount)
    assert hands == 15
    async with store.read() as tx:
        finished = [h for h in await tx.hands(tid) if h.status == "finished"]
    assert len(finished) == 15
    for h in finished:
        assert h.history is not None and replay_flop_phh_text(h.history).match
    await _audit_ok(store)
    await svc.stop_service()


async def test_void_mid_hand_returns_the_blinds_and_the_same_button_deals_again(
    service: TableService, store: Store
) -> None:
    tid = await _table(service, "holdem", 707)
    view = await service.start(tid, ALICE)
    button = view.dealer_seat
    await service.void_hand(tid, ALICE, may_manage=True)
    assert await _wallets(store) == {ALICE: 1000, BOB: 1000, CAROL: 1000}
    view = await service.start(tid, ALICE)
    assert view.dealer_seat == button
    await _audit_ok(store)


def test_bad_options_are_refused_with_the_field() -> None:
    with pytest.raises(InvalidConfig) as err:
        make_family("holdem", {"split": "hi-lo"})
    assert err.value.field == "split"
    with pytest.raises(InvalidConfig) as err:
        make_family("holdem", {"small_blind": 20, "big_blind": 10})
    assert err.value.field == "small_blind"
    with pytest.raises(InvalidConfig) as err:
        make_family("omaha", {"betting": "limit"})
    assert err.value.field == "betting"
    fam = make_family("omaha", {})
    assert isinstance(fam, FlopFamily) and fam.rules.betting == "pot-limit"


def _stacked(cards: str) -> list:
    return [parse_card(cards[i : i + 2]) for i in range(0, len(cards), 2)]


def test_omaha_hi_lo_quartered_pot_text_names_each_share() -> None:
    """Three players check it down; Bob and Carol hold the same A-2 low and Alice the best
    high: Alice wins the high half, Bob and Carol split the low half (a quarter each)."""
    fam = make_family("omaha", {"split": "hi-lo", "betting": "fixed-limit"})
    assert isinstance(fam, FlopFamily)
    # hole cards go to positions 0, 1, 2 (small blind, big blind, button), then the board
    deck = _stacked("KsKhKdQc" + "Ac2cJdJh" + "Ad2dTsTh" + "3h4s8c" + "Kc" + "9s")
    rest = [c for c in map(parse_card, [r + s for r in "23456789TJQKA" for s in "cdhs"])]
    deck += [c for c in rest if c not in deck]
    fam.engine = FlopHand(fam.rules, [(1, 500), (2, 500), (3, 500)], 3, deck=deck)
    fam.last_button = 3
    events = fam.engine.start()
    while not fam.hand_over:
        (seat,) = fam.to_act()
        opts = {o.kind for o in fam.options(seat) if o.allowed}
        events += fam.apply(
            fam.default_action(seat)._replace(
                kind="call" if "call" in opts else "check", timed_out=False
            )
        )
    names = {1: "Alice", 2: "Bob", 3: "Carol"}.__getitem__
    text = fam.result_text(events, names)
    assert text is not None
    assert "Board: 3♥ 4♠ 8♣ K♣ 9♠" in text
    assert "Alice: K♠ K♥ K♦ Q♣ — three kings; low: no low" in text  # two from the hand
    assert "Alice wins the high half (15)" in text
    assert "Bob and Carol split the low half, quartered (Bob 8, Carol 7)" in text
    end = fam.finish(names)
    assert end.winners == {1, 2, 3}
    assert replay_flop_phh_text(end.history).match


def test_no_limit_button_sizes_stay_inside_the_legal_range() -> None:
    rng = random.Random(8)
    for _ in range(200):
        fam = make_family("holdem", {})
        assert isinstance(fam, FlopFamily)
        stacks = {s: rng.randint(1, 600) for s in range(rng.randint(2, 6))}
        fam.start_hand(stacks, frozenset(), rng)
        while fam.hand_running:
            (seat,) = fam.to_act()
            hand = fam.engine
            span = hand.raise_range(seat)
            sizes = bet_sizes(hand, seat)
            if span is None:
                assert sizes == ()
            else:
                assert sizes[0][1] == span[0]
                assert all(span[0] <= to <= span[1] for _, to in sizes)
                assert len({to for _, to in sizes}) == len(sizes)
            fam.apply(fam.computer_action(seat, rng))


@pytest.mark.parametrize(("game", "variant"), [("holdem", "NT"), ("omaha", "PO")])
async def test_sim_histories_of_flop_games_replay_in_pokerkit(
    tmp_path: Path, game: str, variant: str
) -> None:
    """``python -m bot sim holdem|omaha``: every stored hand replays in pokerkit 0.7.7 to
    its recorded finishing stacks; the audit holds."""
    import pokerkit

    from bot.tables.sim import run_sim

    out = tmp_path / "hist"
    report = await run_sim(
        game=game, players=4, hands=12, seed=9, db=tmp_path / "s.db", history_dir=out
    )
    assert report.audit is not None and report.audit.ok
    files = sorted(out.glob("*.phh"))
    assert files and len(files) == report.hands
    for path in files:
        assert f"variant = '{variant}'" in path.read_text()
        with path.open("rb") as fp:
            hh = pokerkit.HandHistory.load(fp)
        state = list(hh)[-1]
        assert list(state.stacks) == list(hh.finishing_stacks), path.name
