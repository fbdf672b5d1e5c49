"""Issue 20 items 1, 4, 5 (the director's pure state machine): registration, rebuys,
add-ons, re-entries, late registration, busts and bounties, the end and cancel -- each step
returning the league-chip movements the ledger books, a refused step changing nothing."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournament import director as d
from bot.tournament import entries as e
from bot.tournament.config import TournamentConfig
from bot.tournament.errors import (
    AddOnRefused,
    ConfigError,
    RebuyRefused,
    ReEntryRefused,
    RegistrationClosed,
    RegistrationFull,
    WrongStatus,
)
from bot.tournament.movements import Movement, fund_balance
from bot.tournament.state import Knockout, Tournament
from bot.tournament.structure import parse_levels

T0 = 1_000_000
LEVELS = "10/20 15m, 15/30 15m, break 5m, 25/50 15m, 50/100 15m, 100/200 15m"
L1, L2_END, BREAK_END = T0, T0 + 1800, T0 + 2100


def config(**kw: Any) -> TournamentConfig:
    values: dict[str, Any] = {
        "game": "holdem",
        "buy_in": 100,
        "starting_stack": 1500,
        "structure": parse_levels(LEVELS, "blinds"),
        "max_players": 12,
    }
    return TournamentConfig(**{**values, **kw})


def lobby(players: int = 0, **kw: Any) -> tuple[Tournament, list[Movement]]:
    t = d.open_registration(d.create(config(**kw)))
    moves: list[Movement] = []
    for p in range(1, players + 1):
        out = d.register(t, p, now=T0 - 100)
        t, moves = out.tournament, moves + list(out.movements)
    return t, moves


def running(players: int = 6, **kw: Any) -> tuple[Tournament, list[Movement]]:
    t, moves = lobby(players, **kw)
    return d.start(t, now=T0).tournament, moves


def bust(t: Tournament, player: int, *, by: int, at: int, chips: int = 1500) -> Tournament:
    out = d.record_hand(
        t,
        [Knockout(_num(t, player), chips, {_num(t, by): chips})],
        hand_started_at=at - 60,
        now=at,
    )
    return out.tournament


def _num(t: Tournament, player: int) -> int:
    entry = t.latest_entry(player)
    assert entry is not None
    return entry.number


def test_registration_is_full_at_max_players() -> None:
    t, _ = lobby(12)
    with pytest.raises(RegistrationFull) as caught:
        d.register(t, 13, now=T0 - 10)
    assert caught.value.message == "Registration is full (12 of 12). Nothing changed."


def test_registering_pays_the_buy_in_and_the_bounty_unregistering_pays_them_back() -> None:
    t, moves = lobby(2, bounty=25)
    assert [(m.kind, m.player, m.delta, m.fund) for m in moves[:2]] == [
        ("buy-in", 1, -100, "prize pool"), ("bounty-in", 1, -25, "bounties"),
    ]  # fmt: skip
    assert (t.prize_pool, t.bounty_fund) == (200, 50)
    out = d.unregister(t, 1)
    assert [(m.kind, m.delta, m.fund) for m in out.movements] == [
        ("refund", 100, "prize pool"), ("refund", 25, "bounties"),
    ]  # fmt: skip
    assert (out.tournament.prize_pool, out.tournament.bounty_fund) == (100, 25)


def test_a_refused_step_changes_nothing() -> None:
    t, _ = lobby(12)
    for step in (
        lambda: d.register(t, 13, now=T0),
        lambda: d.register(t, 1, now=T0),
        lambda: e.rebuy(t, 1, stack=0, now=T0),
    ):
        with pytest.raises(Exception) as caught:
            step()
        assert caught.value.message.endswith("Nothing changed.")  # type: ignore[attr-defined]
    assert t == lobby(12)[0]


def test_start_needs_two_players_and_unregistering_ends_with_the_start() -> None:
    t, _ = lobby(1)
    with pytest.raises(WrongStatus, match=r"at least 2 players \(1 registered\)"):
        d.start(t, now=T0)
    t, _ = running(3)
    with pytest.raises(WrongStatus):
        d.unregister(t, 1)


def test_late_registration_through_the_end_of_its_level_with_a_seat_and_a_full_stack() -> None:
    t, _ = running(4, late_registration_levels=2)
    out = d.register(t, 99, now=L2_END - 1)
    assert out.needs_seat and out.chips == 1500 and out.movements[0].kind == "buy-in"
    with pytest.raises(RegistrationClosed):
        d.register(out.tournament, 98, now=L2_END)
    t, _ = running(4)  # late_registration_levels 0: closed at the start
    with pytest.raises(RegistrationClosed):
        d.register(t, 99, now=T0)


def test_rebuy_when_busted_in_the_rebuy_period_pays_the_pool_and_a_new_bounty() -> None:
    t, _ = running(4, rebuys=2, rebuy_until_level=2, bounty=20)
    t = bust(t, 1, by=2, at=T0 + 600)
    assert t.latest_entry(2).bounties_won == 20  # type: ignore[union-attr]
    out = e.rebuy(t, 1, stack=0, now=T0 + 630)
    assert [(m.kind, m.amount, m.fund) for m in out.movements] == [
        ("rebuy", 100, "prize pool"), ("bounty-in", 20, "bounties"),
    ]  # fmt: skip
    assert out.chips == 1500 and out.needs_seat and out.entry is not None and out.entry.alive
    assert out.tournament.prize_pool == 500 and out.tournament.bounty_fund == 80


def test_rebuy_is_for_a_stack_at_or_below_the_starting_stack() -> None:
    t, _ = running(4, rebuys=None)
    assert e.why_not_rebuy(t, 1, stack=1500, now=T0 + 10) is None
    out = e.rebuy(t, 1, stack=1500, now=T0 + 10)
    assert not out.needs_seat and [m.kind for m in out.movements] == ["rebuy"]  # bounty kept
    with pytest.raises(RebuyRefused, match="at most the starting stack"):
        e.rebuy(out.tournament, 2, stack=1501, now=T0 + 10)


def test_rebuys_are_limited_per_entry() -> None:
    t, _ = running(4, rebuys=1)
    t = e.rebuy(t, 1, stack=100, now=T0 + 10).tournament
    with pytest.raises(RebuyRefused, match=r"all your rebuys \(1 of 1\)"):
        e.rebuy(t, 1, stack=100, now=T0 + 20)


def test_rebuy_until_level_2_means_through_the_end_of_level_2() -> None:
    t, _ = running(4, rebuys=None, rebuy_until_level=2)
    assert e.why_not_rebuy(t, 1, stack=0, now=L2_END - 1) is None
    with pytest.raises(RebuyRefused, match="Rebuys ended with level 2"):
        e.rebuy(t, 1, stack=0, now=L2_END)


def test_a_player_busted_in_the_last_hand_of_the_rebuy_period_may_still_rebuy_briefly() -> None:
    t, _ = running(4, rebuys=None, rebuy_until_level=2)
    out = d.record_hand(
        t, [Knockout(_num(t, 1), 1500, {_num(t, 2): 1500})],
        hand_started_at=L2_END - 30, now=L2_END + 45,
    )  # fmt: skip
    t = out.tournament
    assert e.why_not_rebuy(t, 1, stack=0, now=L2_END + 45 + 119) is None
    assert e.why_not_rebuy(t, 1, stack=0, now=L2_END + 45 + 120) is not None
    late = d.record_hand(
        t, [Knockout(_num(t, 3), 1500, {_num(t, 2): 1500})],
        hand_started_at=L2_END + 10, now=L2_END + 60,
    ).tournament  # fmt: skip
    assert e.why_not_rebuy(late, 3, stack=0, now=L2_END + 61) is not None


def test_the_add_on_is_offered_once_to_every_player_at_the_break_ending_the_rebuys() -> None:
    t, _ = running(4, rebuys=1, rebuy_until_level=2, add_on=True, add_on_chips=2000)
    with pytest.raises(AddOnRefused, match="break after level 2"):
        e.add_on(t, 1, now=L2_END - 1)
    out = e.add_on(t, 1, now=L2_END)
    assert out.chips == 2000 and [(m.kind, m.amount) for m in out.movements] == [("add-on", 100)]
    with pytest.raises(AddOnRefused, match="taken the add-on"):
        e.add_on(out.tournament, 1, now=L2_END + 10)
    with pytest.raises(AddOnRefused):
        e.add_on(out.tournament, 2, now=BREAK_END)


def test_an_add_on_needs_a_break_after_the_rebuy_period() -> None:
    with pytest.raises(ConfigError, match="no break after level 3"):
        config(rebuys=1, rebuy_until_level=3, add_on=True)


def test_re_entry_is_a_new_entry_while_late_registration_is_open() -> None:
    t, _ = running(4, re_entry=1, late_registration_levels=2, bounty=10)
    with pytest.raises(ReEntryRefused, match="still in"):
        e.re_enter(t, 1, now=T0 + 5)
    t = bust(t, 1, by=2, at=T0 + 300)
    out = e.re_enter(t, 1, now=T0 + 320)
    assert out.needs_seat and out.chips == 1500 and out.entry is not None
    assert out.entry.number == 5 and [m.kind for m in out.movements] == ["buy-in", "bounty-in"]
    t = out.tournament
    assert t.entry(1).closed and not t.entry(1).alive and len(t.entries) == 5
    t = bust(t, 1, by=2, at=T0 + 400)
    with pytest.raises(ReEntryRefused, match=r"as often as allowed \(1 of 1\)"):
        e.re_enter(t, 1, now=T0 + 420)


def test_a_re_entry_needs_late_registration() -> None:
    with pytest.raises(ConfigError, match="late_registration_levels"):
        config(re_entry=1)


def test_an_option_without_effect_is_refused() -> None:
    with pytest.raises(ConfigError, match="rebuy_price: it has an effect only with rebuys"):
        config(rebuy_price=50)
    with pytest.raises(ConfigError, match="rebuy_until_level"):
        config(rebuy_until_level=2)


def test_busted_in_the_same_hand_placed_by_starting_chips_and_paid_by_the_table() -> None:
    t, _moves = running(3)
    out = d.record_hand(
        t,
        [
            Knockout(_num(t, 1), 900, {_num(t, 3): 900}),
            Knockout(_num(t, 2), 1300, {_num(t, 3): 1300}),
        ],
        hand_started_at=T0 + 500,
        now=T0 + 560,
    )
    end = d.finish_if_over(out.tournament, now=T0 + 560)
    assert end.tournament.status == "finished"
    places = {f.entry: f.place for f, _ in d.results(end.tournament)}
    assert places == {3: 1, 2: 2, 1: 3}
    assert [(m.kind, m.player, m.amount) for m in end.movements] == [("prize", 3, 300)]


def test_the_winner_takes_back_their_own_bounty() -> None:
    t, _ = running(2, bounty=50)
    t = bust(t, 1, by=2, at=T0 + 100)
    end = d.finish_if_over(t, now=T0 + 100)
    assert [(m.kind, m.player, m.amount) for m in end.movements] == [
        ("prize", 2, 200), ("bounty", 2, 50),
    ]  # fmt: skip
    assert end.tournament.entry(2).bounties_won == 100  # player 1's and their own


def test_the_end_waits_for_a_busted_player_who_may_still_rebuy() -> None:
    t, _ = running(2, rebuys=1, rebuy_until_level=2)
    t = bust(t, 1, by=2, at=T0 + 100)
    assert not d.is_over(t, now=T0 + 150)
    assert d.next_deadline(t, now=T0 + 150) == T0 + 100 + 120
    assert d.is_over(d.decline(t, 1).tournament, now=T0 + 150)
    assert d.is_over(t, now=T0 + 220)


def test_cancel_pays_back_what_the_funds_hold() -> None:
    t, _paid = running(3, bounty=10, rebuys=1)
    t = bust(t, 1, by=2, at=T0 + 100)
    t = e.rebuy(t, 1, stack=0, now=T0 + 110).tournament
    out = d.cancel(t, now=T0 + 200)
    assert out.tournament.status == "cancelled"
    refunds = {(m.player, m.fund): m.amount for m in out.movements}
    assert refunds[(1, "prize pool")] == 200 and refunds[(1, "bounties")] == 10
    assert refunds[(2, "bounties")] == 10  # the bounty player 2 won of player 1 stays won
    with pytest.raises(WrongStatus):
        d.cancel(out.tournament, now=T0 + 300)


def test_pause_and_resume_move_the_clock() -> None:
    t, _ = running(3)
    t = d.pause(t, now=T0 + 100).tournament
    assert d.next_deadline(t, now=T0 + 200) is None
    with pytest.raises(WrongStatus):
        d.pause(t, now=T0 + 150)
    t = d.resume(t, now=T0 + 400).tournament
    assert d.next_deadline(t, now=T0 + 400) == T0 + 900 + 300


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**9), players=st.integers(2, 30), bounty=st.sampled_from([0, 7]))
def test_a_whole_tournament_pays_the_pool_exactly_and_every_chip_is_accounted_for(
    seed: int, players: int, bounty: int
) -> None:
    """Random busts (several in a hand, split pots), rebuys, add-ons and re-entries to the
    end: one winner, every entry placed, prize pool = buy-ins + rebuys + add-ons paid out
    exactly, every bounty paid in paid out, every balance change a movement."""
    rng = random.Random(seed)
    t, moves = running(
        players, rebuys=2, rebuy_until_level=2, add_on=True, re_entry=1,
        late_registration_levels=2, bounty=bounty, max_players=40,
    )  # fmt: skip
    now = T0
    while t.status == "running":
        now += rng.randint(20, 200)
        alive = [x.number for x in t.alive]
        if len(alive) > 1:
            out_now = rng.sample(alive, rng.randint(1, min(3, len(alive) - 1)))
            winners = [n for n in alive if n not in out_now]
            knock = []
            for n in out_now:  # one winner, or a split pot / side pot between two
                takers = rng.sample(winners, min(len(winners), rng.randint(1, 2)))
                started = rng.choice([100, 500, 500, 1500])  # equal stacks share places
                knock.append(Knockout(n, started, {w: rng.randint(1, 900) for w in takers}))
            out = d.record_hand(t, knock, hand_started_at=now - 30, now=now)
            t, moves = out.tournament, moves + list(out.movements)
        for x in list(t.entries):
            if x.bust is not None and not x.closed and rng.random() < 0.4:
                for step in (e.rebuy, e.re_enter):
                    kwargs: dict[str, Any] = {"now": now}
                    if step is e.rebuy:
                        kwargs["stack"] = 0
                    try:
                        out = step(t, x.player, **kwargs)
                    except (RebuyRefused, ReEntryRefused):
                        continue
                    t, moves = out.tournament, moves + list(out.movements)
                    break
        for x in t.alive:
            if e.why_not_add_on(t, x.player, now=now) is None and rng.random() < 0.5:
                out = e.add_on(t, x.player, now=now)
                t, moves = out.tournament, moves + list(out.movements)
        out = d.finish_if_over(t, now=now)
        t, moves = out.tournament, moves + list(out.movements)
        if now > T0 + 10**6:
            raise AssertionError("the tournament never ended")
    assert t.status == "finished" and len(t.alive) == 1
    finishes = d.results(t)
    assert sorted(f.entry for f, _ in finishes) == sorted(x.number for x in t.entries)
    paid_in = sum(m.amount for m in moves if m.kind in ("buy-in", "rebuy", "add-on"))
    assert paid_in == t.prize_pool
    assert sum(m.amount for m in moves if m.kind == "prize") == t.prize_pool
    assert fund_balance(moves, "prize pool") == 0 and fund_balance(moves, "bounties") == 0
    assert sum(m.delta for m in moves) == 0  # league chips only moved between players


def test_a_second_click_of_a_busted_players_rebuy_buys_nothing() -> None:
    t, _ = running(3, rebuys=None)
    t = bust(t, 1, by=2, at=T0 + 100)
    t = e.rebuy(t, 1, stack=0, now=T0 + 110, after_bust=True).tournament
    with pytest.raises(RebuyRefused, match="you are back in") as caught:
        e.rebuy(t, 1, stack=1500, now=T0 + 111, after_bust=True)
    assert caught.value.message == "Your rebuy is made: you are back in. Nothing changed."
    assert e.why_not_rebuy(t, 1, stack=1500, now=T0 + 111) is None  # a top-up stays possible


def test_double_clicks_of_register_re_enter_and_add_on_are_refused() -> None:
    t, _ = lobby(2)
    with pytest.raises(Exception, match="already registered"):
        d.register(t, 1, now=T0 - 5)
    t, _ = running(3, re_entry=1, late_registration_levels=1, rebuys=1, add_on=True)
    t = bust(t, 1, by=2, at=T0 + 100)
    t = e.re_enter(t, 1, now=T0 + 110).tournament
    with pytest.raises(ReEntryRefused, match="still in"):
        e.re_enter(t, 1, now=T0 + 111)
    t = e.add_on(t, 2, now=L2_END).tournament
    with pytest.raises(AddOnRefused):
        e.add_on(t, 2, now=L2_END + 1)
    assert d.finish_if_over(t, now=L2_END + 2).tournament == t  # nothing over, nothing changed


def test_rebuy_price_and_chips_set_the_rebuy() -> None:
    t, _ = running(3, rebuys=1, rebuy_price=60, rebuy_chips=1000)
    out = e.rebuy(t, 1, stack=0, now=T0 + 10)
    assert out.chips == 1000 and out.movements[0].amount == 60
    assert out.tournament.prize_pool == 360


def test_add_on_price_sets_the_add_on() -> None:
    t, _ = running(3, rebuys=1, rebuy_until_level=2, add_on=True, add_on_price=40)
    out = e.add_on(t, 1, now=L2_END + 1)
    assert out.movements[0].amount == 40 and out.chips == 1500


def test_rebuy_decision_seconds_sets_how_long_a_busted_player_may_come_back() -> None:
    t, _ = running(2, rebuys=1, rebuy_decision_seconds=30)
    t = bust(t, 1, by=2, at=T0 + 100)
    assert not d.is_over(t, now=T0 + 129) and d.is_over(t, now=T0 + 130)


def test_payouts_option_chooses_the_table() -> None:
    def final(method: str) -> list[int]:
        t, _ = running(8, payouts=method)
        for p in range(1, 8):
            t = bust(t, p, by=8, at=T0 + 100 * p)
        out = d.finish_if_over(t, now=T0 + 1000)
        return [m.amount for m in out.movements if m.kind == "prize"]

    assert final("standard") == [400, 240, 160]  # 8 entries: 50/30/20
    assert final("winner-takes-all") == [800]
    assert final("top-3") == [400, 240, 160]


def test_starts_at_is_the_lobbys_deadline_and_seats_per_table_has_the_games_limits() -> None:
    t, _ = lobby(2, starts_at=T0 + 3600)
    assert d.next_deadline(t, now=T0) == T0 + 3600
    assert config().seats == 9 and config(seats_per_table=6).seats == 6
    with pytest.raises(ConfigError, match="seats_per_table"):
        config(
            game="razz",
            structure=parse_levels("20/40/4 15m, 30/60/5 15m", "stud"),
            seats_per_table=9,
        )
