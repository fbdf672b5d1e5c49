"""Amounts a bank night books (bot/league/bank.py): money at the league's chip value or
chips, as people type them; refused, with the reason and "Nothing changed.", when negative,
not a number, reading two ways, finer than a cent, not whole chips or in another currency.
Even shares that add up exactly, expenses' nets, members as mentions."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.league.bank import (
    Amount,
    BadAmount,
    Expense,
    describe,
    expense_nets,
    leftover_text,
    parse_amount,
    parse_groups,
    parse_members,
    split_evenly,
)
from bot.league.settle import parse_chip_value

EUR = parse_chip_value("0.01", "EUR")
HALF_CENT = parse_chip_value("0.005", "EUR")


@pytest.mark.parametrize(
    ("typed", "chips", "money"),
    [
        ("20", 2000, "20"),
        ("20.50", 2050, "20.50"),
        ("20,50", 2050, "20.50"),
        ("€20", 2000, "20"),
        ("20 €", 2000, "20"),
        ("20 EUR", 2000, "20"),
        ("eur 20.5", 2050, "20.5"),
        ("1,500", 150000, "1500"),
        ("1 500", 150000, "1500"),
        ("1,500.25", 150025, "1500.25"),
        ("+20", 2000, "20"),
        ("0.05", 5, "0.05"),
    ],
)
def test_money_at_the_chip_value_is_whole_chips_to_the_cent(
    typed: str, chips: int, money: str
) -> None:
    assert parse_amount(typed, EUR) == Amount(chips, Decimal(money))


@pytest.mark.parametrize(
    ("typed", "chips"),
    [("2000 chips", 2000), ("2,000 chips", 2000), ("2000c", 2000), ("1 chip", 1)],
)
def test_chips_are_chips_whatever_the_chip_value(typed: str, chips: int) -> None:
    assert parse_amount(typed, EUR) == Amount(chips, None)
    assert parse_amount(typed, None) == Amount(chips, None)


def test_without_a_chip_value_a_plain_number_is_chips() -> None:
    assert parse_amount("2,000", None) == Amount(2000, None)


@pytest.mark.parametrize(
    ("typed", "value", "why"),
    [
        ("-20", EUR, "more than 0"),
        ("0", EUR, "more than 0"),
        ("−5", EUR, "more than 0"),
        ("twenty", EUR, "not an amount"),
        ("12abc", EUR, "not an amount"),
        ("1e3", EUR, "not an amount"),
        ("", EUR, "Give an amount"),
        ("1.500", EUR, "reads two ways"),
        ("1,500,50", EUR, "one separator"),
        ("0.015", EUR, "2 decimals"),
        ("0.015", HALF_CENT, "2 decimals"),
        ("$20", EUR, "settles in EUR"),
        ("20 USD", EUR, "settles in EUR"),
        ("20.5", None, "chips are whole"),
        ("€3", None, "no chip value"),
        ("2.5 chips", EUR, "Chips are whole"),
        ("99999999999999 chips", EUR, "a typo"),
    ],
)
def test_bad_amounts_are_refused_saying_why_and_that_nothing_changed(
    typed: str, value: object, why: str
) -> None:
    with pytest.raises(BadAmount) as err:
        parse_amount(typed, value)  # type: ignore[arg-type]
    assert why.lower() in err.value.message.lower()
    assert err.value.message.endswith("Nothing changed.")
    assert err.value.message[0].isupper()


def test_money_that_is_not_whole_chips_is_refused() -> None:
    ten_cents = parse_chip_value("0.10", "EUR")
    with pytest.raises(BadAmount, match="whole number of chips"):
        parse_amount("0.25", ten_cents)
    assert parse_amount("0.30", ten_cents).chips == 3


def test_describe_says_money_and_chips() -> None:
    assert describe(2050, EUR) == "€20.50 (2,050 chips)"
    assert describe(-2050, EUR, signed=True) == "-€20.50 (-2,050 chips)"
    assert describe(2050, None) == "2,050 chips"


@given(st.integers(1, 10**9), st.sets(st.integers(1, 10**18), min_size=1, max_size=15))
def test_even_shares_add_up_exactly_and_differ_by_at_most_one_chip(
    chips: int, members: set[int]
) -> None:
    shares = split_evenly(chips, members)
    assert sum(shares.values()) == chips
    assert set(shares) == members
    assert max(shares.values()) - min(shares.values()) <= 1


def test_an_amount_shared_by_nobody_is_refused() -> None:
    with pytest.raises(ValueError, match="nobody"):
        split_evenly(100, [])


def test_expenses_are_owed_to_the_payer_by_the_sharers() -> None:
    pizza = Expense(1, "pizza", 3000, paid_by=1, shared_by=None)
    drinks = Expense(2, "drinks", 1000, paid_by=2, shared_by=(2, 3))
    nets = expense_nets([pizza, drinks], everyone=[1, 2, 3])
    assert nets == {1: 3000 - 1000, 2: -1000 + 1000 - 500, 3: -1000 - 500}
    assert sum(nets.values()) == 0


def test_members_are_mentions_and_groups_are_separated_by_semicolons() -> None:
    ann, bob, carol = 100000000000000001, 100000000000000002, 100000000000000003
    assert parse_members(f"<@{ann}> <@!{bob}>, <@{ann}>") == [ann, bob]
    assert leftover_text(f"<@{ann}> and bob") == "bob"
    assert leftover_text(f"<@{ann}>, <@{bob}>") == ""
    assert parse_groups(f"<@{ann}> <@{bob}>; <@{carol}>") == [
        frozenset({ann, bob}),
        frozenset({carol}),
    ]
