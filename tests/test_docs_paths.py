"""Issue 19, item 12: the documents name only files a user's clone has.

docs/hand-history.md sent readers to ``../shared/data/phh-razz/``, a folder outside the
repository; its example now replays a hand kept in the repository. Every path the README
and docs/*.md write in backticks (or run in an example) that starts in one of the
repository's folders exists, and none points outside the clone."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
DOCUMENTS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
TOP = {p.name for p in REPO.iterdir() if not p.name.startswith(".")}
PATH = re.compile(r"(?<![\w/.-])((?:\.\./)*[\w.-]+(?:/[\w.-]+)+/?)")


def named_paths(text: str) -> list[str]:
    """Repository paths a document names: in backticks, and in its code examples."""
    found: list[str] = []
    spans = re.findall(r"`([^`\n]+)`", text) + re.findall(r"```[a-z]*\n(.*?)```", text, re.S)
    for span in spans:
        for path in PATH.findall(span):
            if path.startswith("../") or path.split("/", 1)[0] in TOP:
                found.append(path)
    return found


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: p.name)
def test_issue19_item12_documents_name_only_files_of_the_clone(document: Path) -> None:
    text = document.read_text(encoding="utf-8")
    paths = named_paths(text)
    outside = [p for p in paths if p.startswith("../")]
    assert not outside, f"{document.name} names folders outside the repository: {outside}"
    missing = sorted({p for p in paths if not (REPO / p).exists() and "<" not in p})
    assert not missing, f"{document.name} names paths the repository has not: {missing}"


def test_issue19_item12_the_hand_history_example_replays_from_the_clone() -> None:
    doc = (REPO / "docs" / "hand-history.md").read_text(encoding="utf-8")
    command = "python -m bot replay tests/engine/data/phh-razz/85.phh"
    assert f"$ {command}\n" in doc
    shown = doc.split(f"$ {command}\n", 1)[1].splitlines()[0]
    done = subprocess.run(
        [sys.executable, *command.split()[1:]], cwd=REPO, capture_output=True, text=True,
        timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == shown
