"""A PokerNow ledger CSV (bot/league/pokernow.py), in its published layout: the test file
imports to the nets the file says, in cents at a chip value or in chips; a file with a wrong
column or a bad row is refused in one line naming the row and column."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.league.pokernow import COLUMNS, BadLedger, parse_ledger
from bot.league.settle import parse_chip_value

DATA = Path(__file__).parent / "data" / "pokernow_ledger.csv"
EUR = parse_chip_value("0.01", "EUR")
HEADER = ",".join(COLUMNS)


def test_the_ledger_imports_to_the_nets_the_file_says() -> None:
    players = parse_ledger(DATA.read_bytes(), units="cents", value=EUR)
    assert [p.name for p in players] == ["AnnieK", "bobby", "carol_p", "D4ve", "eve"]
    assert {p.name: p.net for p in players} == {
        "AnnieK": 1550,
        "bobby": -2800,
        "carol_p": 675,
        "D4ve": -425,
        "eve": 1000,
    }
    bobby = next(p for p in players if p.name == "bobby")
    assert (bobby.sessions, bobby.buy_in, bobby.cash_out) == (2, 4000, 1200)
    carol = next(p for p in players if p.name == "carol_p")
    assert carol.seated and carol.cash_out == 2675
    assert sum(p.buy_in for p in players) == sum(p.cash_out for p in players) == 12500


def test_units_decide_what_an_amount_is() -> None:
    data = DATA.read_bytes()
    assert parse_ledger(data, units="chips")[0].net == 1550
    quarter = parse_chip_value("0.25", "EUR")
    # 15.50 EUR at 25 cents a chip: 62 chips
    assert parse_ledger(data, units="cents", value=quarter)[0].net == 62
    # carol_p's 26.75 is not a whole number of 10-cent chips: refused, naming the cell
    with pytest.raises(BadLedger, match="Row 5, column `stack`"):
        parse_ledger(data, units="cents", value=parse_chip_value("0.10", "EUR"))
    money = f"{HEADER}\nann,a1,2026-11-28T19:00:00Z,2026-11-28T20:00:00Z,20.00,25.50,0,5.50\n"
    assert parse_ledger(money.encode(), units="money", value=EUR)[0].net == 550
    with pytest.raises(BadLedger, match="chip value"):
        parse_ledger(data, units="cents", value=None)


@pytest.mark.parametrize(
    ("text", "where"),
    [
        (HEADER.replace("buy_in", "buyin"), "Row 1"),
        (HEADER.replace("session_start_at", "start"), "column 3 is `start`"),
        (",".join(COLUMNS[:-1]), "column 8 is nothing"),
        (HEADER + ",extra", "column 9"),
        (f"{HEADER}\nann,a1,2026-11-28T19:00:00Z,,20,,30,11", "Row 2, column `net`"),
        (f"{HEADER}\nann,a1,2026-11-28T19:00:00Z,,twenty,,30,10", "Row 2, column `buy_in`"),
        (f"{HEADER}\nann,a1,2026-11-28T19:00:00Z,,-20,,0,20", "Row 2, column `buy_in`"),
        (f"{HEADER}\nann,a1,yesterday,,20,,20,0", "Row 2, column `session_start_at`"),
        (f"{HEADER}\nann,a1,2026-11-28T19:00:00Z,,20,,20", "Row 2: 7 columns"),
        (f"{HEADER}\n,a1,2026-11-28T19:00:00Z,,20,,20,0", "Row 2, column `player_nickname`"),
        (f"{HEADER}\nann,a1,2026-11-28T19:00:00Z,,20.5,,20.5,0", "Row 2, column `buy_in`"),
        (HEADER, "no players"),
        ("", "empty"),
    ],
)
def test_a_malformed_file_gets_one_line_naming_the_row_and_column(text: str, where: str) -> None:
    with pytest.raises(BadLedger) as err:
        parse_ledger(text.encode(), units="chips")
    message = err.value.message
    assert where in message, message
    assert message.endswith("Nothing changed.") and "\n" not in message


def test_not_utf8_and_too_big_are_refused() -> None:
    with pytest.raises(BadLedger, match="not UTF-8"):
        parse_ledger(b"\xff\xfe" + HEADER.encode("utf-16"), units="chips")
    with pytest.raises(BadLedger, match="bytes"):
        parse_ledger(HEADER.encode() + b"\n" + b"x" * (1024 * 1024), units="chips")


def test_a_byte_order_mark_and_blank_lines_are_fine() -> None:
    text = "\ufeff" + HEADER + "\nann,a1,2026-11-28T19:00:00Z,,20,,30,10\n\n"
    (ann,) = parse_ledger(text.encode("utf-8"), units="chips")
    assert (ann.buy_in, ann.cash_out, ann.seated) == (20, 30, True)
