"""The settle-up with constraints and carried debts (bot/league/settle.py ``settle_up``),
against a brute force that knows nothing of zero-sum groups, up to 10 players: members who
settle only among themselves (``settle_with``) never pay across their group's edge, debts
carried from an earlier settle-up are settled with the rest, and the number of transfers is
the fewest possible."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.league.settle import (
    EXACT_LIMIT,
    SettleConstraintError,
    Transfer,
    is_exact,
    settle_up,
)


def brute_force_minimum(nets: dict[int, int], part: dict[int, int]) -> int:
    """The fewest transfers by trying them all: the first unsettled member settles fully
    with each later member of the other sign *in the same part* in turn. Any plan that keeps
    transfers inside the parts can be reordered into this form, part by part."""
    members = [m for m in sorted(nets) if nets[m] != 0]
    debts = [nets[m] for m in members]
    parts = [part.get(m, -1) for m in members]

    def search(start: int) -> int:
        while start < len(debts) and debts[start] == 0:
            start += 1
        if start == len(debts):
            return 0
        best = len(debts)
        for j in range(start + 1, len(debts)):
            if debts[j] * debts[start] < 0 and parts[j] == parts[start]:
                debts[j] += debts[start]
                best = min(best, 1 + search(start + 1))
                debts[j] -= debts[start]
        return best

    return search(0)


@st.composite
def constrained(
    draw: st.DrawFn, *, most: int = 10
) -> tuple[dict[int, int], list[frozenset[int]], list[Transfer], dict[int, int]]:
    """Played nets, settle_with groups and carried debts whose combined nets cancel in
    each group and in all; and the combined nets (what must be settled)."""
    n = draw(st.integers(min_value=2, max_value=most))
    members = list(range(1, n + 1))
    scale = draw(st.sampled_from([3, 20, 1000]))
    combined = {m: draw(st.integers(-scale, scale)) for m in members}
    # the groups: disjoint, each of at least two members, made to cancel by their last
    shuffled = draw(st.permutations(members))
    groups: list[frozenset[int]] = []
    at = 0
    for _ in range(draw(st.integers(0, 2))):
        size = draw(st.integers(2, 3))
        if at + size > n - 1:
            break
        group = shuffled[at : at + size]
        at += size
        combined[group[-1]] -= sum(combined[m] for m in group)
        groups.append(frozenset(group))
    rest = shuffled[at:]
    combined[rest[-1]] -= sum(combined[m] for m in rest)
    assert sum(combined.values()) == 0
    # debts carried in from an earlier settle-up, taken out of the played nets
    carried = [
        Transfer(payer=a, payee=b, chips=draw(st.integers(1, scale)))
        for a, b in draw(
            st.lists(st.tuples(st.sampled_from(members), st.sampled_from(members)), max_size=4)
        )
        if a != b
    ]
    played = dict(combined)
    for t in carried:
        played[t.payer] += t.chips  # the carried debt adds -chips to the payer's total
        played[t.payee] -= t.chips
    return played, groups, carried, combined


@settings(max_examples=300, deadline=None)
@given(constrained())
def test_constrained_fewest_transfers_equal_brute_force_up_to_10_players(
    case: tuple[dict[int, int], list[frozenset[int]], list[Transfer], dict[int, int]],
) -> None:
    played, groups, carried, combined = case
    plan = settle_up(played, groups=groups, carried=carried)
    part = {m: i for i, g in enumerate(groups) for m in g}
    # every total settled, chips conserved
    after = dict(combined)
    for t in plan:
        assert t.chips > 0 and t.payer != t.payee
        assert combined[t.payer] < 0 < combined[t.payee]
        assert part.get(t.payer, -1) == part.get(t.payee, -1), "a transfer crossed a group"
        after[t.payer] += t.chips
        after[t.payee] -= t.chips
    assert all(v == 0 for v in after.values())
    assert len(plan) == brute_force_minimum(combined, part)
    assert is_exact(combined, groups)
    assert plan == sorted(plan, key=lambda t: (t.payer, t.payee))


def test_a_couple_whose_nets_do_not_cancel_is_refused() -> None:
    with pytest.raises(SettleConstraintError) as err:
        settle_up({1: -10, 2: 10, 3: -5, 4: 5}, groups=[frozenset({1, 4})])
    assert err.value.total == -5 and err.value.members == frozenset({1, 4})


def test_groups_that_overlap_are_refused() -> None:
    with pytest.raises(SettleConstraintError, match="two settle_with groups"):
        settle_up({1: -10, 2: 10}, groups=[frozenset({1, 2}), frozenset({2, 3})])


def test_a_couple_settles_among_themselves_even_when_a_cheaper_plan_crosses() -> None:
    # without the group: 1 pays 3 and 2 pays 4 (2 transfers) or any other pairing
    nets = {1: -10, 2: 10, 3: -10, 4: 10}
    assert settle_up(nets, groups=[frozenset({1, 2})]) == [Transfer(1, 2, 10), Transfer(3, 4, 10)]
    assert settle_up(nets, groups=[frozenset({1, 4})]) == [Transfer(1, 4, 10), Transfer(3, 2, 10)]


def test_a_carried_debt_is_settled_with_the_night() -> None:
    # bob still owes ann 30 from last week; tonight ann lost 30 to bob: nobody pays
    assert settle_up({1: -30, 2: 30}, carried=[Transfer(payer=2, payee=1, chips=30)]) == []


def test_exact_up_to_the_limit_in_each_part() -> None:
    many = {m: (1 if m % 2 else -1) for m in range(1, 29)}  # 28 members with a net
    assert not is_exact(many)
    # cut in two parts of 14: each within the limit, so the answer is the proven minimum
    assert EXACT_LIMIT >= 14 and is_exact(many, [frozenset(range(1, 15))])
    assert not is_exact(many, [frozenset(range(1, 3))])  # the other part has 26
