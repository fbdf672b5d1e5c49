"""The audit's part for nights (called by :func:`bot.store.audit.run_audit`): a bank night
that ended balances (money in = money out + what a forced end booked as unaccounted), and
every recorded settle-up settles what it says: its numbered transfers are its transfers, and
they bring each member's total of the night to 0."""

from __future__ import annotations

from dataclasses import dataclass

from bot.store._base import TxBase, load_json


@dataclass(frozen=True, slots=True)
class NightDifference:
    """One thing of a night that does not add up (the audit makes it a ``Difference``)."""

    what: str
    expected: int
    actual: int


async def night_differences(tx: TxBase, guild_id: int) -> list[NightDifference]:
    out: list[NightDifference] = []
    nights = await tx._all(
        "SELECT n.id, n.number,"
        " COALESCE(SUM(CASE WHEN e.kind = 'buyin' THEN e.chips END), 0)"
        " - COALESCE(SUM(CASE WHEN e.kind = 'cashout' THEN e.chips END), 0)"
        " - COALESCE(SUM(CASE WHEN e.kind = 'unaccounted' THEN e.chips END), 0) AS diff"
        " FROM nights n LEFT JOIN night_entries e ON e.night_id = n.id"
        " WHERE n.guild_id = ? AND n.ended_at IS NOT NULL AND n.kind IN ('bank', 'both')"
        " GROUP BY n.id ORDER BY n.id",
        (guild_id,),
    )
    for n in nights:
        if n["diff"]:
            out.append(
                NightDifference(
                    what=f"night #{n['number']}'s bank: money in - money out - unaccounted",
                    expected=0,
                    actual=n["diff"],
                )
            )
    settlements = await tx._all(
        "SELECT id, transfers, results FROM settlements WHERE guild_id = ? ORDER BY id",
        (guild_id,),
    )
    for s in settlements:
        listed = load_json(s["transfers"])
        rows = await tx._all(
            "SELECT payer, payee, chips FROM settle_transfers WHERE settlement_id = ?"
            " ORDER BY number",
            (s["id"],),
        )
        if [(t["payer"], t["payee"], t["chips"]) for t in listed] != [
            (r["payer"], r["payee"], r["chips"]) for r in rows
        ]:
            out.append(
                NightDifference(
                    what=f"settle-up #{s['id']}'s numbered transfers vs its transfers",
                    expected=sum(t["chips"] for t in listed),
                    actual=sum(r["chips"] for r in rows),
                )
            )
        snap = load_json(s["results"])
        if not snap:
            continue
        left: dict[int, int] = {}
        for uid, net, _hands, *rest in snap["players"]:
            bought, cashed, expenses, unaccounted, carried = (list(rest) + [0] * 5)[:5]
            left[uid] = net + cashed - bought + expenses + unaccounted + carried
        for t in listed:
            left[t["payer"]] = left.get(t["payer"], 0) + t["chips"]
            left[t["payee"]] = left.get(t["payee"], 0) - t["chips"]
        for uid, chips in sorted(left.items()):
            if chips:
                out.append(
                    NightDifference(
                        what=f"settle-up #{s['id']} leaves member {uid} unsettled",
                        expected=0,
                        actual=chips,
                    )
                )
    return out
