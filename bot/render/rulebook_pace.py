"""The pace of a table (§5 of docs/rules.md, after the time to act; issue 22 items 1-5): the
time bank, choices made in advance, the turn pings, sitting out and the host's controls,
as ``/rules table`` shows them. :mod:`bot.render.rulebook` includes them in the book; the
rules themselves are :mod:`bot.tables.pace`'s (the rendering layer does not import the
tables': a test checks these numbers are theirs)."""

from __future__ import annotations

from bot.render.rulebook_parts import Part, Rule

TIME_BANK = 60
"""bot.tables.pace.TIME_BANK"""
TOP_UP = 5
"""bot.tables.pace.TOP_UP"""
SIT_OUT_HANDS = 10
"""bot.tables.pace.SIT_OUT_HANDS"""
PING_AFTER = 5
"""Seconds a turn waits before its ping (cogs/_pace.py's TURN_PING_AFTER)."""

PACE = Part(
    "At the table",
    (
        Rule(
            "5.5",
            f"**Time bank** (`time_bank`, {TIME_BANK} seconds by default, 0 for none; the "
            "betting games): each player has one for the session at the table. When the "
            "decision clock (5.4) runs out, the player's bank starts, its countdown on the "
            "table message; the time used is taken off it when they act. After each orbit of "
            f"the button every bank gets {TOP_UP} seconds back, never past its size. When both "
            "run out the default action is taken: check, else fold (the stud bring-in posts "
            "the bring-in). A window that ran out while the bot was down opens again in full, "
            "and a bank that was running starts again as full as it was.",
        ),
        Rule(
            "5.6",
            "**In advance**: while it is not your turn, your hand DM offers **Check/Fold** "
            "(check when nothing is owed, else fold; it stands through raises), **Check** "
            "(while nothing is owed) and **Call N** (that price only). A change of price clears "
            "Check and Call N, and every choice is for the betting round it was made in. When "
            "your turn comes it is taken at once, and the table says so (*chosen in advance*); "
            "pressed again, a choice is cancelled. Zoot and Wheelers: **Play on** or **Lay "
            "down** for the next window (laying down still needs cover, 1.8). Choices made in "
            "advance are kept through a restart.",
        ),
        Rule(
            "5.7",
            "**Your turn** (`/settings turn_ping:`, `dm` by default): when your turn begins "
            f"after another player acted and you have not acted {PING_AFTER} seconds later, "
            "the bot sends you one short new DM (Discord notifies a new message, not an "
            "edit); `mention` mentions you, and nobody else, in the table's channel instead; "
            "`off` sends nothing. One per turn; the one before is deleted when the next is "
            "sent, so at most one stays. A secret lay-down window (1.4) is everyone's at "
            "once: no ping (`laydown_order: in_turn` has turns).",
        ),
        Rule(
            "5.8",
            f"**Sitting out** (`sit_out_hands`, {SIT_OUT_HANDS} by default): **Sit out next "
            "hand** in your hand DM (pressed during a hand you play: from the next one); **I'm "
            "back** plays again from the next hand. The seat is kept for that many hands dealt "
            "without you, then freed (your chips stay in your wallet). At Hold'em and Omaha, "
            "back after the big blind passed you, you wait for the big blind or press **Post "
            "big blind** to play the next hand (6.14). Zoot and Wheelers: you sit out of the "
            "next game.",
        ),
        Rule(
            "5.9",
            "**Host controls** (the host, or Manage Server): `/table stakes` (`small_blind`, "
            "`big_blind`, `ante`, `small_bet`, `big_bet`; `bring_in` at the stud games; a "
            "mixed table's `small_bet` and `ante`) sets the stakes from the next hand, "
            "announced at once: the hand being played keeps its own. `/table seat member:` "
            "seats a late player. `/table rules` shows every option of the table in one "
            "message.",
        ),
    ),
)
