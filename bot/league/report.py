"""A period's results and settle-up as text (pure: no Discord, no database): the lines the
night cog posts, and a plain-text copy of everything for an attachment when a server has
more players than a message shows.

Members are written as mentions (``<@id>``: Discord shows the name, and the bot posts with
mentions disabled, so nobody is pinged); the plain copy uses the names given.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from bot.league.settle import ChipValue, Payment, Transfer, payments
from bot.render.text import format_chips, plural
from bot.store.nights import PeriodResults


@dataclass(frozen=True, slots=True)
class Report:
    results: list[str]
    """One line per player, biggest winner first."""
    pot: str | None
    transfers: list[str]
    """One line per transfer (who pays whom, chips and money)."""
    notes: list[str]
    """What cannot be paid exactly, said plainly; how the settle-up was recorded."""
    plain: str
    """Everything above with names instead of mentions, for a text attachment."""


def mention(user_id: int) -> str:
    return f"Computer {-user_id}" if user_id < 0 else f"<@{user_id}>"


def _money(value: ChipValue | None, chips: int) -> str:
    if value is None:
        return ""
    exact = value.exact(abs(chips))
    shown = value.format(value.rounded(abs(chips)))
    sign = "-" if chips < 0 else "+" if chips > 0 else ""
    return f" ({'' if exact == value.rounded(abs(chips)) else '≈'}{sign}{shown})"


def _transfer_line(pay: Transfer, money: Payment | None, who: Callable[[int], str]) -> str:
    text = f"{who(pay.payer)} pays {who(pay.payee)} **{format_chips(pay.chips)}** chips"
    if money is not None:
        text += f" = **{money.value.format(money.amount)}**" + ("" if money.is_exact else " ⚠️")
    return text


def build_report(
    results: PeriodResults,
    *,
    names: Callable[[int], str],
    channel_of: Callable[[int], int | None] = lambda _table: None,
) -> Report:
    """The lines of ``results``: ``names`` gives a member's plain name (for the copy);
    ``channel_of`` a table's channel id (to link the biggest pot's table)."""
    plan = results.plan()
    value = results.value
    paid: Sequence[Payment | None] = (
        payments(plan, value) if value is not None else [None] * len(plan)
    )

    def lines(who: Callable[[int], str]) -> tuple[list[str], list[str], str | None]:
        rows = []
        for i, p in enumerate(results.players, start=1):
            row = (
                f"{i}. {who(p.user_id)} **{format_chips(p.net, signed=True) if p.net else '0'}**"
                f"{_money(value, p.net)} · {plural(p.hands, 'hand')}"
            )
            if p.owed == 0 and p.net != 0:
                row += " · settled"
            elif p.owed != p.net:
                row += f" · still to settle: {format_chips(p.owed, signed=True)}"
            rows.append(row)
        transfers = [_transfer_line(t, m, who) for t, m in zip(plan, paid, strict=True)]
        pot = results.biggest_pot
        pot_line = None
        if pot is not None:
            winners = ", ".join(who(u) for u in pot.winners) or "nobody"
            channel = channel_of(pot.table_id)
            where = f" at <#{channel}>" if channel is not None and who is mention else ""
            pot_line = (
                f"**{format_chips(pot.chips)}** chips, hand {pot.number} of table "
                f"#{pot.table_id}{where}, won by {winners}"
            )
        return rows, transfers, pot_line

    rows, transfers, pot_line = lines(mention)
    notes = [m.note for m in paid if m is not None and m.note is not None]
    if value is None:
        notes.append("No chip value set: the settle-up is in chips (`/league setup chip_value`).")
    else:
        notes.append(f"Chip value: {value.describe()}.")
    settlement = results.settlement
    if settlement is not None:
        when = datetime.fromtimestamp(settlement.created_at, UTC)
        notes.append(
            f"Settled in the ledger (settle-up #{settlement.id}, <t:{settlement.created_at}:f>):"
            " a payment in money, so the chips won went back to the players who pay for them"
            " and every wallet is where it was before; the results of "
            f"{results.label} stay in the standings."
        )
        stamp = when.strftime("%Y-%m-%d %H:%M UTC")
    else:
        stamp = ""
    plain_rows, plain_transfers, plain_pot = lines(names)
    plain = "\n".join(
        [f"Results of {results.label}: {plural(results.hands, 'hand')}", *plain_rows, ""]
        + ([f"Biggest pot: {plain_pot}", ""] if plain_pot else [])
        + [f"Settle-up ({plural(len(plan), 'transfer')}):", *plain_transfers, ""]
        + [n.replace("`", "") for n in notes]
        + ([f"Recorded {stamp}."] if stamp else [])
    ).replace("**", "")
    return Report(results=rows, pot=pot_line, transfers=transfers, notes=notes, plain=plain)
