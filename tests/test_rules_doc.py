"""docs/rules.md and ``/rules`` (issue 12, items 10 and 14, and item 9's Wheelers wording):
one rule book (bot/render/rulebook.py) that ``/rules`` renders and the document is generated
from; a stale document fails here, and every rule the code cites exists in it."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import LeagueSettings
from bot.render import rulebook
from cogs.rules import default_rules, rules_embeds

REPO = Path(__file__).resolve().parents[1]
DOC = REPO / "docs" / "rules.md"
CITATION = re.compile(r"rules §(\d+(?:\.\d+)?) in docs/rules\.md")
"""The old citation, of a document players cannot open from Discord."""
PAGE_CITATION = re.compile(r"/rules ([a-z-]+) §(\d+(?:\.\d+)?)")


def doc_rule_numbers() -> set[str]:
    text = DOC.read_text(encoding="utf-8")
    numbers = set(re.findall(r"^\*\*(\d+\.\d+)\*\* ", text, flags=re.MULTILINE))
    return numbers | set(re.findall(r"^## (\d+)\. ", text, flags=re.MULTILINE))


def embed_text(game: str) -> str:
    embeds = rules_embeds(game, default_rules(game), at_table=False)
    return "\n".join(f.value or "" for embed in embeds for f in embed.fields)


def test_issue12_item10_docs_rules_md_is_generated_from_the_rule_book() -> None:
    assert DOC.read_text(encoding="utf-8") == rulebook.markdown(), (
        "docs/rules.md is stale: run python -m bot.render.rulebook"
    )
    check = subprocess.run(
        [sys.executable, "-m", "bot.render.rulebook", "--check", str(DOC)],
        cwd=REPO, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert check.returncode == 0, check.stderr


def test_issue12_item10_the_rulebook_check_fails_on_a_stale_document(tmp_path: Path) -> None:
    stale = tmp_path / "rules.md"
    stale.write_text(DOC.read_text(encoding="utf-8").replace("fewer suits", "more suits"))
    check = subprocess.run(
        [sys.executable, "-m", "bot.render.rulebook", "--check", str(stale)],
        cwd=REPO, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert check.returncode == 1 and "stale" in check.stderr


@pytest.mark.parametrize("game", rulebook.GAMES)
def test_issue12_item10_rules_shows_the_text_of_docs_rules_md(game: str) -> None:
    """Every line ``/rules GAME`` shows is in docs/rules.md, house rules included, and the
    embed fits Discord's limits (1024 characters a field, 6000 in all)."""
    doc = DOC.read_text(encoding="utf-8")
    embeds = rules_embeds(game, default_rules(game), at_table=False)
    # one message each (Discord: 6,000 characters of embeds); Hold'em and Omaha take three
    # since what home games play joined them (rules 6.17-6.22)
    assert len(embeds) <= 3
    for embed in embeds:
        assert len(embed) <= 6000 and len(embed.fields) <= 25
    for fld in (f for embed in embeds for f in embed.fields):
        assert fld.value and len(fld.value) <= 1024
        for line in fld.value.splitlines():
            if line.startswith("`") and "**" in line and not line.startswith("```"):
                name, rest = line.split(" ", 1)
                value, desc = rest.split(": ", 1)
                assert f"| {name} | {value.strip('*')} | {desc} |" in doc, line
            else:
                assert line in doc, line
    for name, value, desc in rulebook.house_rules(game):
        assert f"| `{name}` | {value} | {desc} |" in doc


def _shown_strings() -> list[tuple[Path, ast.AST, str]]:
    """Every string constant of bot/ and cogs/ but docstrings: what the code may show."""
    found = []
    for path in [*(REPO / "bot").rglob("*.py"), *(REPO / "cogs").rglob("*.py")]:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {
            id(node.value)
            for node in ast.walk(tree)
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
        }
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and id(node) not in docstrings
            ):
                found.append((path, node, node.value))
    return found


def test_issue19_item11_messages_cite_rules_by_the_rules_page_that_shows_them() -> None:
    """Players cannot open docs/rules.md from Discord: no text the code shows cites "rules
    §x in docs/rules.md" (nor the old "RULES §x"); each citation is "/rules PAGE §x" (as
    :func:`rulebook.cite` writes it) and that page of ``/rules`` shows rule x."""
    pages = rulebook.rule_pages()
    numbers = doc_rule_numbers()
    old, cited = [], []
    for path, _, text in _shown_strings():
        if re.search(r"RULES\s*§?\d", text) or CITATION.search(text):
            old.append(f"{path.relative_to(REPO)}: {text!r}")
        cited += [(path, page, n) for page, n in PAGE_CITATION.findall(text)]
    for path in [*(REPO / "bot").rglob("*.py"), *(REPO / "cogs").rglob("*.py")]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "id", getattr(node.func, "attr", None)) == "cite"
                and node.args
                and isinstance(node.args[0], ast.Constant)
            ):
                number = str(node.args[0].value)
                assert number in pages, f"{path.name}: cite({number!r}) is on no /rules page"
                cited.append((path, pages[number][0], number))
    assert not old, old
    assert {p.name for p, _, _ in cited} >= {"config.py", "seating.py", "admin.py", "stud.py"}
    for path, page, number in cited:
        assert number in numbers, (path.name, number)
        assert page in pages[number], f"{path.name}: /rules {page} does not show §{number}"
    # the pages named are /rules subcommands, and each shows what it is cited for
    commands = {*rulebook.PARTS, *rulebook.TOPICS}
    assert {page for _, page, _ in cited} <= commands
    assert rulebook.cite("5.2") == "/rules league §5.2"
    assert rulebook.cite("1.10", "wheelers") == "/rules wheelers §1.10"


def test_issue12_item10_razz_stakes_error_cites_rule_4_2() -> None:
    with pytest.raises(ValueError, match=r"/rules razz §4\.2"):
        LeagueSettings(razz_bring_in=10, razz_small_bet=10)


def test_issue12_item9_rules_wheelers_says_it_is_this_bots_reading() -> None:
    text = embed_text("wheelers")
    assert "did not survive" not in text
    assert "this bot's reading of the game's ranking" in text
    assert "did not survive" not in DOC.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("game", "number", "words"),
    [
        ("zoot", "1.12", "One or no live hand after an exchange's ante"),
        ("wheelers", "1.12", "One or no live hand after an exchange's ante"),
        ("zoot", "1.13", "A timed-out discard counts toward away"),
        ("wheelers", "1.13", "A timed-out discard counts toward away"),
        ("razz", "4.13", "The highest up card is all-in"),
    ],
)
def test_issue12_item14_rules_and_docs_state_what_the_engine_does_where_texts_are_silent(
    game: str, number: str, words: str
) -> None:
    """Pinned by tests/engine/test_rules_gaps.py; stated in docs/rules.md and /rules."""
    line = next(r for p in rulebook.PARTS[game] for r in p.rules if r.number == number)
    assert words in line.text
    assert f"**{number}** {line.text}" in embed_text(game)
    assert f"**{number}** {line.text}" in DOC.read_text(encoding="utf-8")


def test_issue12_item10_project_documents_cite_rules_that_exist() -> None:
    numbers = doc_rule_numbers()
    for path in [REPO / "README.md", *(REPO / "docs").glob("*.md")]:
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"RULES\s*§", text), path
        cited = re.findall(r"rules §(\d+(?:\.\d+)?)", text)
        assert all(n in numbers for n in cited), (path, [n for n in cited if n not in numbers])


def test_rulebook_help_prints_usage_and_writes_no_file_named_help(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # `--help` was taken for the output path: the rule book was written to a file "--help"
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as done:
        rulebook.main(["--help"])
    assert done.value.code == 0
    assert "--check" in capsys.readouterr().out
    assert list(tmp_path.iterdir()) == []


def test_issue22_the_rule_book_states_the_pace_defaults_the_table_uses() -> None:
    """rulebook_pace (the rendering layer does not import the tables') says the numbers
    bot/tables/pace.py and cogs/_pace.py play by."""
    from bot.render import rulebook_pace
    from bot.tables import pace
    from cogs import _pace

    assert rulebook_pace.TIME_BANK == pace.TIME_BANK
    assert rulebook_pace.TOP_UP == pace.TOP_UP
    assert rulebook_pace.SIT_OUT_HANDS == pace.SIT_OUT_HANDS
    assert rulebook_pace.PING_AFTER == _pace.TURN_PING_AFTER
