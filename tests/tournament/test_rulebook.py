"""Rule book §10 (issue 20, "README and the rule book: a tournament section"): every
option of ``/tournament create`` that the issue names is explained there, the presets'
and payouts' tables are the code's, and the rules are numbered in order."""

from __future__ import annotations

import re

from bot.render import rulebook, rulebook_tournament
from bot.tournament.payouts import prizes
from bot.tournament.presets import preset

ISSUE_OPTIONS = (
    "structure", "levels", "max_players", "seats_per_table", "rebuys", "rebuy_until_level",
    "add_on", "re_entry", "late_registration_levels", "bounty", "payouts", "starts_at",
    "turbo|regular|deep", "winner-takes-all", "top-3", "points_best_of",
)  # fmt: skip


def section_text() -> str:
    text = rulebook.markdown()
    return text[text.index("## 10. Tournaments") :]


def test_section_10_explains_every_tournament_option_of_the_issue() -> None:
    text = section_text()
    missing = [name for name in ISSUE_OPTIONS if name not in text]
    assert not missing


def test_section_10_rules_are_numbered_in_order() -> None:
    numbers = re.findall(r"^\*\*10\.(\d+)\*\* ", section_text(), flags=re.MULTILINE)
    assert [int(n) for n in numbers] == list(range(1, len(numbers) + 1))


def test_the_books_tables_are_the_codes() -> None:
    table = rulebook_tournament.presets_table().splitlines()
    regular = preset("regular", "blinds", 10_000)
    assert table[1].split()[2] == f"{regular.level(1).small_blind}/{regular.level(1).big_blind}"
    payouts = rulebook_tournament.payouts_table()
    assert "7-10     3       50 30 20" in payouts
    assert prizes("standard", 8, 100) == (50, 30, 20)
