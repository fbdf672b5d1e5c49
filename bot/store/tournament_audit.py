"""The tournament-chip audit (issue 20): tournament chips are not league chips, so they are
added up apart from the league's (bot/store/audit.py), per tournament:

- its chip bank holds minus every tournament chip in play: the stacks plus the pots of its
  tables (chips conserved, as the house's balance is minus the league's chips);
- the chips the bank issued are the director's: a starting stack per entry, a rebuy's
  chips per rebuy, an add-on's per add-on (bot/tournament: its state in the row);
- every hand of its tables put into the pot exactly what it paid out (a finished or voided
  hand leaves its pot empty): chips conserved at every hand;
- its prize pool holds what the entries paid in (buy-ins + rebuys + add-ons) until the
  prizes are paid, then nothing; its bounties fund the bounties still on a head.

The league-chip side of a tournament (its prize pool and bounties) is counted in the
league's own audit, with the wallets and the cash tables' pots.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.store._base import TxBase, load_json


@dataclass(frozen=True, slots=True)
class TournamentProblem:
    guild_id: int
    what: str
    expected: int
    actual: int


def expected_issue(state: Mapping[str, Any]) -> int:
    """The tournament chips the director gave out: a starting stack per entry, the rebuy
    chips per rebuy, the add-on chips per add-on."""
    config = state["config"]
    start = int(config["starting_stack"])
    rebuy = int(config.get("rebuy_chips") or start)
    add_on = int(config.get("add_on_chips") or start)
    return sum(
        start + int(e.get("rebuys", 0)) * rebuy + (add_on if e.get("add_on") else 0)
        for e in state["entries"]
    )


async def tournament_problems(tx: TxBase, guild_id: int) -> list[TournamentProblem]:
    """Everything of the league's tournaments that does not add up (see the module)."""
    out: list[TournamentProblem] = []
    tournaments = await tx._all(
        "SELECT id, number, status, state FROM tournaments WHERE guild_id = ? ORDER BY id",
        (guild_id,),
    )
    for t in tournaments:
        tid, name, status = t["id"], f"tournament #{t['number']}", t["status"]
        state = load_json(t["state"])
        funds = {
            r["kind"]: r["balance"]
            for r in await tx._all(
                "SELECT kind, balance FROM accounts WHERE tournament_id = ?"
                " AND kind IN ('prize_pool', 'bounties', 'chip_bank')",
                (tid,),
            )
        }
        row = await tx._one(
            "SELECT"
            " COALESCE((SELECT SUM(balance) FROM accounts WHERE kind = 'stack'"
            "   AND tournament_id = :t), 0) AS stacks,"
            " COALESCE((SELECT SUM(a.balance) FROM accounts a JOIN tables tb ON tb.id = a.table_id"
            "   WHERE a.kind = 'pot' AND tb.tournament_id = :t), 0) AS pots,"
            " COALESCE((SELECT SUM(l.amount) FROM ledger l JOIN accounts a ON a.id = l.from_account"
            "   WHERE a.kind = 'chip_bank' AND a.tournament_id = :t), 0) AS issued,"
            " COALESCE((SELECT SUM(l.amount) FROM ledger l JOIN accounts a ON a.id = l.to_account"
            "   WHERE a.kind = 'chip_bank' AND a.tournament_id = :t), 0) AS back",
            {"t": tid},
        )
        assert row is not None
        in_play = row["stacks"] + row["pots"]
        if funds.get("chip_bank", 0) != -in_play:
            out.append(
                TournamentProblem(
                    guild_id,
                    f"{name}: chip bank vs -(stacks + pots), tournament chips",
                    -in_play,
                    funds.get("chip_bank", 0),
                )
            )
        if row["issued"] - row["back"] != in_play:
            out.append(
                TournamentProblem(
                    guild_id,
                    f"{name}: tournament chips issued - returned vs stacks + pots",
                    row["issued"] - row["back"],
                    in_play,
                )
            )
        if status in ("running", "finished"):
            want = expected_issue(state)
            if row["issued"] != want:
                out.append(
                    TournamentProblem(
                        guild_id,
                        f"{name}: tournament chips issued vs the entries' stacks, rebuys and"
                        " add-ons",
                        want,
                        row["issued"],
                    )
                )
        if status in ("finished", "cancelled") and in_play:
            out.append(
                TournamentProblem(guild_id, f"{name}: tournament chips left in play", 0, in_play)
            )
        practice = bool(load_json(await _extra(tx, tid)).get("practice"))
        if not practice:
            paid = sum(int(e["paid"]) for e in state["entries"])
            held = sum(int(e["bounty"]) for e in state["entries"])
            pool_want = paid if status in ("registering", "running") else 0
            bounty_want = held if status in ("registering", "running") else 0
            if funds.get("prize_pool", 0) != pool_want:
                out.append(
                    TournamentProblem(
                        guild_id,
                        f"{name}: prize pool vs buy-ins + rebuys + add-ons held",
                        pool_want,
                        funds.get("prize_pool", 0),
                    )
                )
            if funds.get("bounties", 0) != bounty_want:
                out.append(
                    TournamentProblem(
                        guild_id,
                        f"{name}: bounties fund vs bounties held",
                        bounty_want,
                        funds.get("bounties", 0),
                    )
                )
            if status in ("running", "finished"):
                pool_in = await _pool_paid_in(tx, tid)
                if pool_in != paid:
                    out.append(
                        TournamentProblem(
                            guild_id,
                            f"{name}: prize pool paid in vs buy-ins + rebuys + add-ons",
                            paid,
                            pool_in,
                        )
                    )
        # chips conserved at every hand: what each hand put into its pot it paid out
        for h in await tx._all(
            "SELECT l.hand_id,"
            " SUM(CASE WHEN l.to_account = a.id THEN l.amount ELSE -l.amount END) AS left_in"
            " FROM ledger l JOIN hands h ON h.id = l.hand_id JOIN tables tb ON tb.id = h.table_id"
            " JOIN accounts a ON a.table_id = tb.id AND a.kind = 'pot'"
            " WHERE tb.tournament_id = ? AND h.status <> 'running'"
            " AND (l.to_account = a.id OR l.from_account = a.id)"
            " GROUP BY l.hand_id HAVING left_in <> 0",
            (tid,),
        ):
            out.append(
                TournamentProblem(
                    guild_id,
                    f"{name}: hand {h['hand_id']} left tournament chips in its pot",
                    0,
                    h["left_in"],
                )
            )
    return out


async def _extra(tx: TxBase, tid: int) -> str:
    row = await tx._one("SELECT extra FROM tournaments WHERE id = ?", (tid,))
    assert row is not None
    return str(row["extra"])


async def _pool_paid_in(tx: TxBase, tid: int) -> int:
    """League chips paid into the prize pool, net of refunds (an unregistered entry's)."""
    row = await tx._one(
        "SELECT"
        " COALESCE(SUM(CASE WHEN l.to_account = a.id THEN l.amount END), 0)"
        " - COALESCE(SUM(CASE WHEN l.from_account = a.id AND l.kind = 'tournament_refund'"
        "   THEN l.amount END), 0) AS paid"
        " FROM ledger l JOIN accounts a ON (a.id = l.to_account OR a.id = l.from_account)"
        " WHERE a.kind = 'prize_pool' AND a.tournament_id = ?",
        (tid,),
    )
    assert row is not None
    return int(row["paid"])
