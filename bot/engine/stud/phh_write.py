"""Writing a finished stud hand as a Poker Hand History (PHH) that pokerkit replays.

The variant code is the game's (``FR`` Razz, ``F7S`` Seven-card Stud, ``F7S/8`` Stud
Hi-Lo). A community card (§4.8) has no PHH form for stud: the hand writes it as the same
7th card dealt to every remaining player (pokerkit then scores it as each player's own
down card, which gives the same showdown), or as pokerkit's own board card (``d db``) when
pokerkit would deal one (see :meth:`StudCore._deal_street`).
"""

from __future__ import annotations

from bot.engine.errors import GameError
from bot.engine.stud.core import StudCore


def hand_to_phh(hand: StudCore, *, players: list[str] | None = None) -> str:
    """The finished ``hand`` as PHH text (TOML) that pokerkit loads and replays."""
    if not hand.is_over:
        raise GameError("only a finished hand can be written as a hand history")
    r = hand.rules
    names = players or [f"seat {s}" for s in hand.seat_ids]

    def q(text: str) -> str:
        return "'" + text.replace("'", "") + "'"

    finishing = [hand.stacks[p] for p in range(hand.n)]
    lines = [
        f"variant = {q(hand.VARIANT)}",
        "ante_trimming_status = true",
        f"antes = [{', '.join([str(r.ante)] * hand.n)}]",
        f"bring_in = {r.bring_in}",
        f"small_bet = {r.small_bet}",
        f"big_bet = {r.big_bet}",
        f"starting_stacks = [{', '.join(map(str, hand.starting))}]",
        f"actions = [{', '.join(q(a) for a in hand.phh_actions)}]",
        f"players = [{', '.join(q(n) for n in names)}]",
        f"finishing_stacks = [{', '.join(map(str, finishing))}]",
    ]
    return "\n".join(lines) + "\n"
