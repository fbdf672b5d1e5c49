"""A period's results and settle-up as text (pure: no Discord, no database): the lines the
night cog posts, and a plain-text copy of everything for an attachment when a server has
more players than a message shows.

Members are written as mentions (``<@id>``: Discord shows the name, and the bot posts with
mentions disabled, so nobody is pinged); the plain copy uses the names given.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from bot.league.bank import money_only
from bot.league.settle import ChipValue, Payment, Transfer, payments
from bot.render.text import format_chips, plural, safe_name
from bot.store.night_models import PeriodResults, PlayerResult, SettleTransfer

MARKERS: tuple[str, ...] = (
    "1\ufe0f\u20e3",
    "2\ufe0f\u20e3",
    "3\ufe0f\u20e3",
    "4\ufe0f\u20e3",
    "5\ufe0f\u20e3",
    "6\ufe0f\u20e3",
    "7\ufe0f\u20e3",
    "8\ufe0f\u20e3",
    "9\ufe0f\u20e3",
    "\U0001f51f",
    *(chr(0x1F1E6 + i) for i in range(15)),
)
"""The mark of transfer 1, 2, … 25 in the settle-up post, on its line and on its Paid
button (keycaps 1 to 10, then the letters A to O: a message has at most 25 buttons)."""


def marker(number: int) -> str:
    return MARKERS[number - 1] if 1 <= number <= len(MARKERS) else f"#{number}"


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
    bank: list[str] = field(default_factory=list)
    """A bank night: money in, money out, what went unaccounted."""
    expenses: list[str] = field(default_factory=list)
    open_count: int = 0
    """Transfers of a recorded settle-up still to be paid."""


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


def _state(row: SettleTransfer | None) -> str:
    if row is None:
        return ""
    if row.paid_at is not None:
        return f" · ✅ paid <t:{row.paid_at}:R>"
    if row.carried_into is not None:
        return f" · ↪ carried into settle-up #{row.carried_into}"
    return " · open"


def _bank_bits(p: PlayerResult, value: ChipValue | None) -> str:
    bits = []
    if p.bought_in or p.cashed_out:
        bits.append(f"in {money_only(p.bought_in, value)}, out {money_only(p.cashed_out, value)}")
    if p.expenses:
        bits.append(f"expenses {money_only(p.expenses, value, signed=True)}")
    if p.unaccounted:
        bits.append(f"unaccounted share {money_only(p.unaccounted, value, signed=True)}")
    if p.carried:
        bits.append(f"carried {money_only(p.carried, value, signed=True)}")
    return "".join(f" · {b}" for b in bits)


def build_report(
    results: PeriodResults,
    *,
    names: Callable[[int], str],
    channel_of: Callable[[int], int | None] = lambda _table: None,
    handles: Mapping[int, str] | None = None,
) -> Report:
    """The lines of ``results``: ``names`` gives a member's plain name (for the copy);
    ``channel_of`` a table's channel id (to link the biggest pot's table); ``handles``
    how the payees like to be paid (``/pay``), shown on the transfers they take part in."""
    plan = results.plan()
    value = results.value
    paid: Sequence[Payment | None] = (
        payments(plan, value) if value is not None else [None] * len(plan)
    )
    settlement = results.settlement
    rows: Sequence[SettleTransfer | None] = (
        list(settlement.rows)
        if settlement is not None and len(settlement.rows) == len(plan)
        else [None] * len(plan)
    )
    handles = handles or {}

    def lines(who: Callable[[int], str]) -> tuple[list[str], list[str], str | None]:
        out = []
        for i, p in enumerate(results.players, start=1):
            shown = p.total
            row = (
                f"{i}. {who(p.user_id)} **{format_chips(shown, signed=True) if shown else '0'}**"
                f"{_money(value, shown)}"
            )
            if results.kind != "bank" or p.hands:
                row += f" · {plural(p.hands, 'hand')}"
            row += _bank_bits(p, value)
            if p.owed == 0 and shown != 0:
                row += " · settled"
            elif p.owed != shown:
                row += f" · still to settle: {format_chips(p.owed, signed=True)}"
            out.append(row)
        transfers = []
        for t, m, r in zip(plan, paid, rows, strict=True):
            line = _transfer_line(t, m, who)
            if r is not None:
                line = f"{marker(r.number)} {line}{_state(r)}"
            handle = handles.get(t.payee)
            if handle and (r is None or r.open):
                line += f" · pay to: {safe_name(handle) if who is mention else handle}"
            transfers.append(line)
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
        return out, transfers, pot_line

    results_rows, transfers, pot_line = lines(mention)
    notes = [m.note for m in paid if m is not None and m.note is not None]
    if value is None:
        notes.append("No chip value set: the settle-up is in chips (`/league setup chip_value`).")
    else:
        notes.append(f"Chip value: {value.describe()}.")
    bank: list[str] = []
    if results.kind != "tables":
        bank.append(
            f"Money in {money_only(results.money_in, value)} · money out "
            f"{money_only(results.money_out, value)}"
        )
        if results.unaccounted:
            how = "missing" if results.unaccounted > 0 else "more out than in"
            bank.append(
                f"Unaccounted: {money_only(abs(results.unaccounted), value)} {how}, shared "
                "evenly by the players (the night was ended with `force`)"
            )

    def expense_lines(who: Callable[[int], str]) -> list[str]:
        out = []
        for e in results.expenses:
            sharers = "everyone" if e.shared_by is None else ", ".join(who(u) for u in e.shared_by)
            what = safe_name(e.what) if who is mention else e.what
            out.append(
                f"{what}: {money_only(e.chips, value)} paid by {who(e.paid_by)}, "
                f"shared by {sharers}"
            )
        return out

    expenses = expense_lines(mention)
    if results.groups:
        for g in results.groups:
            notes.append(
                " and ".join(mention(u) for u in sorted(g)) + " settle only among themselves."
            )
    if settlement is not None:
        when = datetime.fromtimestamp(settlement.created_at, UTC)
        if results.kind == "bank":
            notes.append(
                f"Recorded as settle-up #{settlement.id} (<t:{settlement.created_at}:f>): the "
                "bank is settled in money, each transfer marked Paid by its payer or payee; "
                "no league chip moved."
            )
        else:
            notes.append(
                f"Settled in the ledger (settle-up #{settlement.id}, "
                f"<t:{settlement.created_at}:f>): a payment in money, so the chips won went "
                "back to the players who pay for them and every wallet is where it was "
                f"before; the results of {results.label} stay in the standings."
            )
        stamp = when.strftime("%Y-%m-%d %H:%M UTC")
    else:
        stamp = ""
    open_count = sum(1 for r in rows if r is not None and r.open)
    plain_rows, plain_transfers, plain_pot = lines(names)
    plain = "\n".join(
        [f"Results of {results.label}: {plural(results.hands, 'hand')}", *plain_rows, ""]
        + ([f"Biggest pot: {plain_pot}", ""] if plain_pot else [])
        + ([*bank, ""] if bank else [])
        + (["Expenses:", *expense_lines(names), ""] if expenses else [])
        + [f"Settle-up ({plural(len(plan), 'transfer')}):", *plain_transfers, ""]
        + [n.replace("`", "") for n in notes]
        + ([f"Recorded {stamp}."] if stamp else [])
    ).replace("**", "")
    return Report(
        results=results_rows,
        pot=pot_line,
        transfers=transfers,
        notes=notes,
        plain=plain,
        bank=bank,
        expenses=expenses,
        open_count=open_count,
    )
