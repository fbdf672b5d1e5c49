"""Issue 19, item 13: the README's picture is the bot's own, reproducible and checked.

README.md shows docs/showdown.png and says the command that makes it; this runs that
command (the sandbox plays the game against the fake Discord and saves the picture the bot
posts with the result) and compares it, pixel for pixel, with the committed file. A
change to the pictures fails here until the file is made again with that command."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from bot.render import images
from tests.test_sandbox import sandbox

REPO = Path(__file__).resolve().parents[1]
PICTURE = REPO / "docs" / "showdown.png"


def readme_command() -> list[str]:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert "![" in readme and "(docs/showdown.png)" in readme
    found = re.search(
        r"`python -m bot sandbox ([^`]*?)\s+--showdown-png\s+docs/showdown\.png`", readme
    )
    assert found, "README must say the command that makes docs/showdown.png"
    return " ".join(found[1].split()).split()


def test_issue19_item13_the_readme_picture_is_what_its_command_makes(tmp_path: Path) -> None:
    if images.font(20).getname()[0] != "DejaVu Sans":
        pytest.skip("docs/showdown.png is drawn with DejaVu Sans, which this system lacks")
    out = tmp_path / "showdown.png"
    done = sandbox(*readme_command(), "--showdown-png", str(out), cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    assert out.is_file(), done.stdout[-2000:]
    made, committed = Image.open(out).convert("RGB"), Image.open(PICTURE).convert("RGB")
    assert made.size == committed.size, (
        f"docs/showdown.png is stale ({committed.size}, the command makes {made.size}):"
        " run the README's command to make it again"
    )
    assert ImageChops.difference(made, committed).getbbox() is None, (
        "docs/showdown.png is stale: run the README's command to make it again"
    )
