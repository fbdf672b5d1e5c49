"""What a table tells a player whose hand took their last chip (issue 19, item 10): that
they are out of chips, and how they get back in (``/rebuy`` when the league allows one,
else who can give them chips). Posted after the hand's result, before the table says it
waits for players.

A practice table plays with play chips (nothing to rebuy), and a computer player has no
wallet: neither gets a notice; nor does a tournament's table (its director tells a busted
player their place and the buttons the structure allows).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from bot.render.text import format_chips

if TYPE_CHECKING:
    from bot.store import Tx
    from bot.tables.live import LiveTable


async def bust_notices(tx: Tx, live: LiveTable, stacks: Mapping[int, int]) -> list[str]:
    """One sentence per seat of ``stacks`` (the hand's final chips) that this hand left
    with too few chips to be dealt in (none; at Zoot and Wheelers, less than the ante):
    a league table's human players who stay seated."""
    if live.practice or live.tournament_id is not None:
        return []  # a tournament's director says who is out, and what they may do
    busted = {
        seat: why
        for seat, chips in sorted(stacks.items())
        if (why := live.family.short_of_chips(chips)) is not None
        and seat in live.seats
        and not live.seats[seat].is_computer
        and live.user(seat) not in live.leaving
        and live.paid.get(seat, 0) > 0  # this hand left them so (not one they sat out)
    }
    if not busted:
        return []
    league = await tx.league(live.guild_id)
    out = []
    for seat, why in busted.items():
        name = live.name(seat)
        if league.rebuy_amount <= 0:
            out.append(
                f"{name} {why}. Rebuys are off in this league: a league manager can give"
                " chips with `/chips grant`."
            )
            continue
        wallet = await tx.wallet(live.guild_id, live.user(seat))
        last = await tx.last_rebuy_at(wallet.id)
        amount = format_chips(league.rebuy_amount)
        ready = None if last is None else last + league.rebuy_cooldown_seconds
        if ready is not None and ready > tx.now():
            out.append(
                f"{name} {why}. The next `/rebuy` ({amount} chips) is possible"
                f" <t:{ready}:R>; then {name} is dealt in again."
            )
        else:
            out.append(
                f"{name} {why}: `/rebuy` brings {amount} chips, and {name} is dealt in"
                " from the next hand."
            )
    return out
