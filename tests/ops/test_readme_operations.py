"""The README's operations sections say what the code does (issue 12, item 1): the
``/league setup`` options, who may use ``/audit``, the admin commands a role must be
allowed under Integrations, the files "Running it for real" names."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

from discord import app_commands

from cogs.admin import AdminCog

REPO = Path(__file__).resolve().parents[2]
README = (REPO / "README.md").read_text(encoding="utf-8")


def section(title: str) -> str:
    """From the heading ``title`` to the next heading of its level or above."""
    start = README.index(f"\n{title}\n")
    level = len(title) - len(title.lstrip("#"))
    after = re.compile(rf"^#{{1,{level}}} ", re.MULTILINE)
    found = after.search(README, start + len(title) + 2)
    return README[start : found.start() if found else len(README)]


def test_item1_readme_lists_every_league_setup_option() -> None:
    callback = AdminCog.setup_league.callback
    options = [
        p for p in inspect.signature(callback).parameters if p not in ("self", "interaction")
    ]
    table = section("### `/league setup` options")
    documented = set(re.findall(r"`([a-z_]+)`", table))
    assert set(options) <= documented, set(options) - documented


def test_item1_audit_row_says_who_the_code_lets_use_it() -> None:
    audit = AdminCog.audit
    assert isinstance(audit, app_commands.Command)
    assert audit.default_permissions is not None and audit.default_permissions.manage_guild
    (row,) = [line for line in README.splitlines() if line.startswith("| `/audit` |")]
    assert "| Manage Server or admin role |" in row and "anyone" not in row


def test_item1_admin_role_section_names_every_command_hidden_from_members() -> None:
    hidden = set()
    for command in AdminCog.__cog_app_commands__:
        if command.default_permissions is not None and command.default_permissions.manage_guild:
            hidden.add(command.name)
    text = section("### Making an admin role work")
    assert hidden == {"league", "chips", "ledger", "audit"}
    for name in hidden:
        assert f"`/{name}`" in text


def test_item1_running_it_for_real_names_files_that_exist() -> None:
    text = section("## Running it for real")
    for path in ("compose.yaml", "deploy/homegame.service", "config.example.toml"):
        assert path in text and (REPO / path).is_file()
    assert "uid 10001" in text and "homegame-before-schema-" in text
    assert "/league forget member:" in text
