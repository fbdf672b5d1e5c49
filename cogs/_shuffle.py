"""What the table message says of a verifiable table (``verifiable:on``, issue 18 item 10):
from the start, that each hand's seed is published when the table closes; before and during
each hand, the commitment (the SHA-256 of that hand's seed, all 64 hex digits); once the
table is closed, where the seeds are. The seed itself is never in a view (bot/tables/views.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from bot.engine.shuffle import commitment
from bot.engine.verify import Unverifiable, verify_text, with_shuffle_fields

if TYPE_CHECKING:
    import discord

    from bot.tables.views import TableView

FIELD_NAME = "Verifiable shuffle"
PUBLISHED_WHEN = (
    "Each hand's seed is published in /history when the table closes; check a hand's file"
    " with `python -m bot verify`."
)


def shuffle_text(view: TableView) -> str | None:
    """The field's text, or None for a table that is not verifiable."""
    if not view.verifiable:
        return None
    if view.status == "closed":
        return (
            "The table is closed: each hand's seed is now published. Open a hand in /history:"
            " its file holds the seed, and its **Verify** line says whether the deck matches."
        )
    lines = []
    if view.commitment is not None:
        lines.append(
            f"Hand {view.commitment_hand} commitment (SHA-256 of its secret seed):"
            f"\n`{view.commitment}`"
        )
    lines.append(PUBLISHED_WHEN)
    return "\n".join(lines)


def add_shuffle_field(embed: discord.Embed, view: TableView) -> None:
    text = shuffle_text(view)
    if text is not None:
        embed.add_field(name=FIELD_NAME, value=text, inline=False)


# ----------------------------------------------------------------------------- /history


def history_file(
    history: str,
    *,
    seed: str | None,
    closed: bool,
    redacted: Callable[[str], str],
) -> tuple[str, list[str]]:
    """The hand history file /history attaches, and the lines it says about the shuffle.

    A hand of a verifiable table (``seed``) whose table has closed: the whole history with
    its seed (the seed shows every card anyway, so nothing is left to hide), checked here
    as ``python -m bot verify`` checks it. Any other hand: ``redacted(history)`` (the cards
    the viewer never saw written ``??``), as before; a verifiable table's says when its
    seed comes."""
    if seed is None:
        return redacted(history), []
    if not closed:
        return redacted(history), [
            "**Verify**: not yet: this hand's seed is published when its table closes"
            " (the file holds its commitment)."
        ]
    text = with_shuffle_fields(history, commitment=commitment(seed), seed=seed)
    try:
        verdict = verify_text(text)
        said = verdict.sentence()
    except Unverifiable as exc:  # pragma: no cover - the bot writes what it can verify
        said = f"cannot be checked: {exc.message}"
    return text, [f"**Seed**: `{seed}`", f"**Verify**: {said}."]
