"""The big blind at a Hold'em or Omaha table (issue 18, item 7; docs/rules.md 6.14): Robert's
Rules' dead-button rule. Nobody posts the big blind twice in a row or skips it when a player
busts, leaves or arrives; a player who sits down mid-session waits for the big blind or
posts one. On the real flop engine through the table adapter, then through the service
with a real SQLite store (the choice survives a restart)."""

from __future__ import annotations

import random
from collections.abc import Mapping

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine.actions import Action
from bot.store import Store
from bot.tables import TableService
from bot.tables.blinds import plan_blinds
from bot.tables.flop import FlopFamily
from bot.tables.games import make_family

from .conftest import ALICE, BOB, CAROL, GUILD, Clock, Recorder, seeded

DAVE = 24


def _family() -> FlopFamily:
    fam = make_family("holdem", {})
    assert isinstance(fam, FlopFamily)
    return fam


def _deal(
    fam: FlopFamily,
    stacks: Mapping[int, int],
    rng: random.Random,
    blinds: Mapping[int, str] | None = None,
) -> dict[str, object]:
    """Deal one hand, play it out (check or fold), and say who posted what."""
    fam.start_hand(stacks, frozenset(), rng, blinds=blinds)
    hand = fam.engine
    assert hand is not None
    posted = dict(zip(hand.seat_ids, hand.blinds, strict=True))
    out = {
        "dealt": tuple(hand.seat_ids),
        "big": hand.seat_ids[hand.bb_pos],
        "button": fam.last_button,
        "posts": tuple(hand.seat_ids[p] for p in hand.posts),
        "posted": posted,
    }
    while fam.hand_running:
        (seat,) = fam.to_act()
        fam.apply(fam.default_action(seat)._replace(timed_out=False))
    return out


def test_three_players_to_two_nobody_posts_the_big_blind_twice() -> None:
    """Today's moving button made the player who had the big blind post it again when the
    button left a three-handed table: the big blind moves on instead."""
    for leaver in ("button", "small", "big"):
        fam = _family()
        rng = random.Random(3)
        stacks = {1: 500, 2: 500, 3: 500}
        first = _deal(fam, stacks, rng)
        gone = {"button": first["button"], "small": fam.last_small, "big": first["big"]}[leaver]
        del stacks[gone]  # type: ignore[arg-type]
        second = _deal(fam, stacks, rng)
        assert second["big"] != first["big"], (leaver, first, second)
        # heads-up the button posts the small blind
        assert second["button"] != second["big"]
        third = _deal(fam, stacks, rng)
        assert third["big"] != second["big"]


def test_big_blind_moves_one_player_each_hand_and_nobody_skips_it() -> None:
    fam = _family()
    rng = random.Random(5)
    stacks = {1: 500, 2: 500, 3: 500, 4: 500}
    bigs = [_deal(fam, stacks, rng)["big"] for _ in range(8)]
    start = bigs[0]
    order = [1, 2, 3, 4]
    i = order.index(start)  # type: ignore[arg-type]
    assert bigs == [order[(i + k) % 4] for k in range(8)]


def test_dead_small_blind_when_last_big_blind_leaves() -> None:
    fam = _family()
    rng = random.Random(1)
    stacks = {1: 500, 2: 500, 3: 500, 4: 500}
    first = _deal(fam, stacks, rng)
    big = first["big"]
    del stacks[big]  # type: ignore[arg-type]
    second = _deal(fam, stacks, rng)
    hand = fam.engine
    assert hand is not None
    # nobody posts the small blind: the first player after the button posts the big one
    assert hand.bb_pos == 0 and sorted(hand.blinds) == [0, 0, 10]
    assert second["big"] == min((s for s in stacks if s > big), default=min(stacks))  # type: ignore[operator]
    third = _deal(fam, stacks, rng)
    # then the button sits on the empty seat of the dead small blind (a dead button)
    assert third["button"] == big and big not in third["dealt"]  # type: ignore[operator]
    assert fam.engine is not None and fam.engine.blinds[:2] == [5, 10]


def test_new_player_waits_for_the_big_blind_and_is_dealt_in_when_it_comes() -> None:
    fam = _family()
    rng = random.Random(2)
    stacks = {1: 500, 2: 500, 3: 500}
    _deal(fam, stacks, rng)
    assert fam.newcomer_blind() == "wait"
    stacks[4] = 500  # seat 4 sits down
    dealt_in = None
    for k in range(4):
        got = _deal(fam, stacks, rng, blinds={4: "wait"} if dealt_in is None else None)
        if 4 in got["dealt"]:  # type: ignore[operator]
            dealt_in = k
            assert got["big"] == 4  # dealt in as the big blind
            break
    assert dealt_in is not None


def test_new_player_posts_a_big_blind_and_plays_the_next_hand() -> None:
    fam = _family()
    rng = random.Random(4)
    stacks = {1: 500, 2: 500, 3: 500}
    first = _deal(fam, stacks, rng)
    stacks[4] = 500
    got = _deal(fam, stacks, rng, blinds={4: "post"})
    if got["big"] == 4:
        assert got["posts"] == ()  # the big blind came to seat 4 anyway
    elif 4 in got["dealt"]:  # type: ignore[operator]
        assert got["posts"] == (4,) and got["posted"][4] == 10  # type: ignore[index]
    else:  # seat 4 sits between the button and the big blind: it waits one hand more
        assert first is not None
        again = _deal(fam, stacks, rng, blinds={4: "post"})
        assert 4 in again["dealt"]  # type: ignore[operator]


def test_posted_big_blind_is_live_and_acts_in_turn() -> None:
    plan = plan_blinds([1, 2, 3, 4, 5], last_button=5, last_small=1, last_big=2, posting=[5])
    # seat 5 is the button: it may post there and plays this hand
    assert plan.dealt == (1, 2, 3, 4, 5) and plan.posts == (5,)
    plan = plan_blinds([1, 2, 3, 4, 5], last_button=1, last_small=2, last_big=3, posting=[5])
    assert plan.button == 2 and plan.small == 3 and plan.big == 4 and plan.posts == (5,)
    fam = _family()
    fam.last_button, fam.last_small, fam.last_big = 1, 2, 3
    fam.start_hand(
        {s: 500 for s in (1, 2, 3, 4, 5)}, frozenset(), random.Random(1), blinds={5: "post"}
    )
    hand = fam.engine
    assert hand is not None
    assert dict(zip(hand.seat_ids, hand.blinds, strict=True)) == {3: 5, 4: 10, 5: 10, 1: 0, 2: 0}
    assert hand.to_act() == {5}  # left of the big blind: the poster acts in turn
    hand.apply(Action(5, "check"))  # its blind is live: nothing more to call
    hand.apply(Action(1, "call"))


def test_new_player_between_button_and_big_blind_waits_one_hand_more() -> None:
    # seat 5 sits between the button (seat 4, last hand's small blind) and the blinds
    plan = plan_blinds([1, 2, 3, 5, 6], last_button=3, last_small=4, last_big=5, posting=[6])
    assert plan.big == 6 and 6 in plan.dealt  # the big blind reached the poster
    plan = plan_blinds([1, 2, 3, 4, 9], last_button=3, last_small=4, last_big=1, posting=[9])
    assert (plan.button, plan.small, plan.big) == (4, 1, 2)
    assert 9 not in plan.dealt  # between the button (4) and the big blind (2)


# ------------------------------------------------------------ a property: any evening


def test_new_players_between_button_and_big_blind_play_when_only_one_other_is_left() -> None:
    """Rule 5 (a newcomer between the button and the big blind waits a hand more) cannot
    leave a single player dealt: two of three players left, the two newcomers who chose to
    post sit between the dead button and the big blind, and everyone plays (found by the
    evening property below)."""
    plan = plan_blinds([2, 4, 5], last_button=2, last_small=3, last_big=1, posting=[4, 5])
    assert plan.dealt == (2, 4, 5) and plan.big == 2
    fam = _family()
    rng = random.Random(1)
    stacks = {1: 500, 2: 500, 3: 500}
    _deal(fam, stacks, rng)
    _deal(fam, stacks, rng)
    stacks = {2: 500, 4: 500, 5: 500}
    got = _deal(fam, stacks, rng, blinds={4: "post", 5: "post"})
    assert set(got["dealt"]) == {2, 4, 5}  # type: ignore[arg-type]


@st.composite
def _evenings(draw: st.DrawFn) -> list[tuple[str, int]]:
    return draw(
        st.lists(
            st.tuples(
                st.sampled_from(["hand", "hand", "hand", "join_wait", "join_post", "leave"]),
                st.integers(0, 20),
            ),
            min_size=5,
            max_size=40,
        )
    )


@settings(max_examples=150, deadline=None)
@given(_evenings(), st.integers(0, 2**32 - 1))
def test_no_player_posts_the_big_blind_twice_or_skips_it(
    ops: list[tuple[str, int]], seed: int
) -> None:
    fam = _family()
    rng = random.Random(seed)
    stacks = {1: 500, 2: 500, 3: 500}
    blinds: dict[int, str] = {}
    next_seat = 4
    last_big: int | None = None
    for op, k in ops:
        if op.startswith("join") and len(stacks) < 9:
            stacks[next_seat] = 500
            if fam.newcomer_blind() == "wait":
                blinds[next_seat] = "post" if op == "join_post" else "wait"
            next_seat += 1
        elif op == "leave" and len(stacks) > 2:
            gone = sorted(stacks)[k % len(stacks)]
            del stacks[gone]
            blinds.pop(gone, None)
        elif op == "hand":
            could = sorted(stacks)
            got = _deal(fam, stacks, rng, blinds=dict(blinds))
            dealt, big = got["dealt"], got["big"]
            assert isinstance(dealt, tuple) and isinstance(big, int)
            for s in dealt:
                blinds.pop(s, None)
            assert set(dealt) <= set(could)
            if last_big is not None:
                # the big blind moves to the next player who could play: nobody posts it
                # twice in a row, nobody is passed over
                assert big != last_big
                assert big == next((s for s in could if s > last_big), could[0])
            # every blind is the rules': big blinds 10 (the big blind and posts), one small
            posted = got["posted"]
            assert isinstance(posted, dict)
            assert posted[big] == 10
            bigs = [10] * (1 + len(got["posts"]))  # type: ignore[arg-type]
            assert sorted(a for a in posted.values() if a) in (bigs, [5, *bigs])
            # waiting players are dealt in only as the big blind (or when too few play)
            waiting = [s for s in dealt if blinds.get(s) == "wait"]
            assert not waiting
            last_big = big


# ------------------------------------------------------------ through the service


async def test_new_player_choice_survives_a_restart_and_posts(
    store: Store, clock: Clock, recorder: Recorder
) -> None:
    def make() -> TableService:
        return TableService(
            store,
            clock=clock,
            rng_factory=seeded(11),
            subscriber=recorder,
            autostart_delay=3.0,
            timers=False,
        )

    svc = make()
    await svc.start_service()
    view = await svc.open_table(
        guild_id=GUILD, channel_id=901, host_id=ALICE, host_name="Alice", game="holdem"
    )
    tid = view.table_id
    for uid, name in ((BOB, "Bob"), (CAROL, "Carol")):
        await svc.join(tid, uid, name)
    await svc.start(tid, ALICE)
    view = await svc.join(tid, DAVE, "Dave")
    dave = view.seat_of(DAVE)
    assert dave is not None and dave.blind == "wait" and dave.status == "waits_for_big_blind"
    assert any("Dave sits down and waits for the big blind" in a for a in recorder.announcements)
    view = await svc.post_blind(tid, DAVE)
    assert view.seat_of(DAVE).blind == "post"  # type: ignore[union-attr]
    await svc.stop_service()

    svc = make()  # a restart: the choice is in the table's snapshot
    await svc.start_service()
    view = await svc.view(tid)
    assert view.seat_of(DAVE).blind == "post"  # type: ignore[union-attr]
    # play hand 1 out, deal hand 2: Dave plays it (posting, or as the big blind)
    while await svc.hand_in_progress(tid):
        (actor,) = (await svc.view(tid)).to_act_user_ids
        pv = await svc.private_view(tid, actor)
        await svc.act(tid, actor, "check" if pv.option("check").allowed else "fold")  # type: ignore[union-attr]
    clock.now += 5
    await svc.tick(tid)
    view = await svc.view(tid)
    assert view.hand_number == 2
    dave = view.seat_of(DAVE)
    assert dave is not None and dave.blind is None and dave.status != "waits_for_big_blind"
    async with store.read() as tx:
        blinds = await tx.entries(table_id=tid, kind="blind")
        wallets = {u: await tx.wallet(GUILD, u) for u in (ALICE, BOB, CAROL, DAVE)}
    # Dave's big blind is in the ledger (his post, or the big blind itself)
    assert any(e.amount == 10 and e.from_account == wallets[DAVE].id for e in blinds)
    assert sum(w.balance for w in wallets.values()) + view.pot == 4000  # the blinds are in
    assert {s.user_id: s.stack for s in view.seats} == {u: w.balance for u, w in wallets.items()}
    report = await store.audit(GUILD)
    assert report.ok, report.format()
    await svc.stop_service()
