"""The hand DM's pace controls and lines (issue 22: choices made in advance, sitting out,
the time bank), and the table message's time bank and next stakes (no Discord calls).

The buttons of a choice made in advance carry the hand and, for **Call N**, the price
(``hg:<table>:<version>:advance:cl40_12``): a price that changed since the DM was drawn is
refused with the new one, and the answer redraws the DM (an interaction's answer is free of
Discord's rate limit; the DMs of players waiting are not edited each time a price moves).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.render.text import format_chips, plural
from bot.tables.pace import CALL, LABELS
from cogs._ids import advance_arg
from cogs._items import TableButton

if TYPE_CHECKING:
    from bot.tables.views import PrivateView, TableView

ADVANCE_ROW = 0
SIT_ROW = 2
SIT_OUT_LABEL = "Sit out next hand"
BACK_LABEL = "I'm back"


def advance_label(kind: str, amount: int | None) -> str:
    """``Check/Fold``, ``Check``, ``Call 10``, ``Play on``, ``Lay down``."""
    if kind == CALL and amount:
        return f"{LABELS[CALL]} {format_chips(amount)}"
    return LABELS[kind]


def add_advance_buttons(ui: discord.ui.View, pv: PrivateView) -> None:
    """The choices the player may make in advance now; the one made is green (pressed
    again, it is cancelled)."""
    chosen = pv.advance_chosen
    for kind, amount in pv.advance:
        picked = chosen is not None and chosen == (kind, amount)
        ui.add_item(
            TableButton.make(
                pv.table_id,
                pv.version,
                "advance",
                arg=advance_arg(kind, amount, pv.hand_number),
                label=advance_label(kind, amount),
                style=discord.ButtonStyle.success if picked else discord.ButtonStyle.secondary,
                row=ADVANCE_ROW,
            )
        )


def add_sit_buttons(ui: discord.ui.View, pv: PrivateView) -> None:
    """**Sit out next hand**, or **I'm back** while sitting out (or about to)."""
    back = pv.sitting_out or pv.sit_next
    ui.add_item(
        TableButton.make(
            pv.table_id,
            pv.version,
            "sit_in" if back else "sit_out",
            label=BACK_LABEL if back else SIT_OUT_LABEL,
            style=discord.ButtonStyle.primary if back else discord.ButtonStyle.secondary,
            row=SIT_ROW,
        )
    )


def advance_line(pv: PrivateView) -> str | None:
    """What the hand DM says of the choice made in advance (or that one may be made)."""
    chosen = pv.advance_chosen
    if chosen is not None:
        label = advance_label(*chosen)
        when = "next window" if chosen[0] in ("play_on", "lay_down") else "turn"
        return f"In advance: **{label}**, taken at once on your {when} (press it again to cancel)"
    if pv.advance and not any(o.allowed for o in pv.options):
        # (on their turn the same buttons act at once: the "Now" field lists the choices)
        names = " · ".join(advance_label(k, a) for k, a in pv.advance)
        return f"Choose in advance: {names}"
    return None


def sit_line(pv: PrivateView) -> str | None:
    if pv.sitting_out:
        left = max(0, pv.sit_out_hands - pv.missed)
        return (
            f"You sit out ({plural(pv.missed, 'hand')} missed; the seat is kept"
            f" {plural(left, 'more hand')}). Press **{BACK_LABEL}** to play again."
        )
    if pv.sit_next:
        return f"You sit out from the next hand (**{BACK_LABEL}** to play it after all)."
    return None


def bank_note(pv: PrivateView) -> str | None:
    """The time bank, for a player who may act now."""
    if pv.bank is None:
        return None
    if pv.bank_on:
        return "On your time bank"
    return f"Then your time bank: {plural(pv.bank, 'second')}" if pv.bank else None


def to_act_tail(view: TableView, countdown: str) -> str:
    """The end of the table message's "To act" line: the decision clock or the bank's."""
    if not view.deadline:
        return ""
    if view.bank_user is not None:
        return f" · time bank: runs out {countdown}"
    return f" · time runs out {countdown}"


def next_stakes_line(view: TableView) -> str | None:
    if not view.next_stakes:
        return None
    from bot.tables.pacing import stakes_text

    return f"Stakes from the next hand: {stakes_text(dict(view.next_stakes))}"
