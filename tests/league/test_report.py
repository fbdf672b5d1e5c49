"""The settle-up's text (bot/league/report.py): who pays whom in chips and money, what
cannot be paid exactly said in the notes, and the plain copy with names."""

from __future__ import annotations

from bot.league.report import build_report
from bot.league.settle import parse_chip_value
from bot.render.limits import message_problems
from bot.store import BiggestPot, PeriodResults, PlayerResult
from cogs.night import _embed


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


def test_many_players_fit_discord_limits_with_and_more_and_the_full_copy() -> None:
    # 80 players with 19-digit ids and odd nets: far more than a message shows
    ids = [10**18 + i for i in range(80)]
    nets = [(-1) ** i * (7 * i + 3) for i in range(79)]
    nets.append(-sum(nets))
    results = PeriodResults(
        period="season",
        label="season 3",
        players=tuple(PlayerResult(u, n, 5) for u, n in zip(ids, nets, strict=True)),
        hands=400,
        biggest_pot=None,
        value=parse_chip_value("0.003", "EUR"),
    )
    report = build_report(results, names=lambda u: f"player-{u}")
    embed, complete = _embed(results, report)
    assert not complete
    data = embed.to_dict()
    assert message_problems("x" * 200, [data]) == []
    assert "more" in data["description"].splitlines()[-1]
    # nothing is hidden: the attachment copy has every player and every transfer
    assert all(f"player-{u}" in report.plain for u in ids)
    assert len(report.transfers) == len(results.plan()) >= 40
    assert report.plain.count(" pays ") == len(report.transfers)
