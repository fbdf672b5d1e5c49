"""The pure packages stay pure (DESIGN.md, issue 20 "the shape of the code"): bot/engine and
bot/tournament import no discord, aiosqlite or asyncio -- nor SQLite, a clock or a secret
source of randomness -- and nothing of the project beyond the pure packages themselves,
counting imports inside functions and under ``TYPE_CHECKING`` (read statically with
``ast``). The tournament draws only from the ``random.Random`` it is given."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: package -> the project packages it may import (itself included)
PURE_PACKAGES = {
    "bot/engine": ("bot.engine",),
    # the registry of games (bot/games.py) is pure data every layer reads: a tournament
    # names its game there once
    "bot/tournament": ("bot.engine", "bot.tournament", "bot.games"),
}
FORBIDDEN = {"discord", "aiosqlite", "asyncio", "sqlite3", "time", "cogs"}
#: the tournament reads no clock and no secret randomness: every time is a parameter
FORBIDDEN_EXTRA = {"bot/tournament": {"datetime", "secrets"}}


def imported_modules(path: Path, package: str | None = None) -> list[tuple[int, str]]:
    """(line, dotted module) of every import in the file, wherever it stands (in a
    function, under ``if TYPE_CHECKING:``); ``package`` resolves relative imports (default:
    the file's own)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    out: list[tuple[int, str]] = []
    if package is None:
        package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            out.append((node.lineno, base))
    return out


def _files(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


@pytest.mark.parametrize("package", sorted(PURE_PACKAGES))
def test_pure_packages_import_no_discord_aiosqlite_asyncio_or_impure_project_code(
    package: str,
) -> None:
    allowed = PURE_PACKAGES[package]
    forbidden = FORBIDDEN | FORBIDDEN_EXTRA.get(package, set())
    bad: list[str] = []
    for path in _files(package):
        for line, module in imported_modules(path):
            root = module.split(".")[0]
            where = f"{path.relative_to(ROOT)}:{line} imports {module}"
            if root in forbidden or (
                root in ("bot", "cogs")
                and not any(module == a or module.startswith(a + ".") for a in allowed)
            ):
                bad.append(where)
    assert _files(package), f"no modules in {package}"
    assert not bad, "impure imports:\n" + "\n".join(bad)


def test_the_tournament_draws_only_from_the_random_generator_it_is_given() -> None:
    """``random.Random`` as a type is fine; the module's own shuffle/choice (a hidden global
    generator a test cannot replay) is not."""
    bad: list[str] = []
    for path in _files("bot/tournament"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id == "random"
                and node.attr != "Random"
            ):
                bad.append(f"{path.relative_to(ROOT)}:{node.lineno} random.{node.attr}")
            if isinstance(node, ast.ImportFrom) and node.module == "random":
                bad.append(f"{path.relative_to(ROOT)}:{node.lineno} from random import ...")
    assert not bad, "\n".join(bad)


def test_the_purity_check_catches_an_impure_import(tmp_path: Path) -> None:
    """The checker itself: a function-level asyncio import, a TYPE_CHECKING import of
    bot.store and a relative import are all found."""
    probe = tmp_path / "probe.py"
    probe.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from bot.store import Tx\n"
        "def f():\n    import asyncio\n"
        "from . import structure\n"
    )
    found = {m for _, m in imported_modules(probe, "bot.tournament")}
    assert {"bot.store", "asyncio", "bot.tournament"} <= found
