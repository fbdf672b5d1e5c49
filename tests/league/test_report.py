"""The settle-up's text (bot/league/report.py): who pays whom in chips and money, what
cannot be paid exactly said in the notes, and the plain copy with names."""

from __future__ import annotations

from bot.league.report import build_report
from bot.league.settle import parse_chip_value
from bot.store import BiggestPot, PeriodResults, PlayerResult


def _results(value: str | None) -> PeriodResults:
    return PeriodResults(
        period="night",
        label="night #4",
        players=(
            PlayerResult(user_id=1, net=113, hands=9),
            PlayerResult(user_id=2, net=-13, hands=9),
            PlayerResult(user_id=3, net=-100, hands=8),
        ),
        hands=9,
        biggest_pot=BiggestPot(hand_id=40, table_id=2, number=7, chips=250, winners=(1,)),
        value=None if value is None else parse_chip_value(value, "EUR"),
    )


def test_settle_up_in_money_says_what_cannot_be_paid_exactly() -> None:
    report = build_report(_results("0.005"), names={1: "ann", 2: "ben", 3: "cy"}.__getitem__)
    assert report.transfers == [
        "<@2> pays <@1> **13** chips = **€0.07** ⚠️",
        "<@3> pays <@1> **100** chips = **€0.50**",
    ]
    assert report.notes[0] == (
        "13 chips cannot be paid exactly in EUR: they are worth 0.065, rounded to €0.07"
    )
    assert report.results[1] == "2. <@2> **-13** (≈-€0.07) · 9 hands"
    assert "ben pays ann 13 chips = €0.07" in report.plain
    assert "<@" not in report.plain


def test_settle_up_without_a_chip_value_is_in_chips_and_says_so() -> None:
    report = build_report(_results(None), names=str)
    assert report.transfers[1] == "<@3> pays <@1> **100** chips"
    assert any("No chip value set" in n for n in report.notes)
    assert report.pot is not None and "won by <@1>" in report.pot
