"""The fast, polite answer to a click on the table message before the service is asked
(the service checks again under the table's lock).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs._ids import RAZZ_ACTIONS

if TYPE_CHECKING:
    from bot.tables.views import TableView


def refusal(view: TableView, user_id: int, action: str) -> str | None:
    """Why ``user_id`` may not press ``action`` on the table message now (None: they may).

    A fast, polite answer before asking the service, which checks again under the lock.
    """
    if view.status == "closed":
        return "This table is closed."
    seat = view.seat_of(user_id)
    seated = seat is not None
    if action == "join":
        # an away player (the idle rule sat them out) presses Join to come back
        return "You are already at this table." if seated and not seat.away else None
    if not seated:
        return "You are not at this table: press **Join** first."
    if action in ("leave", "hand"):
        return None
    if action == "start":
        return None if view.status == "open" else "The game has already started."
    if action == "resume":
        return None if view.status == "paused" else "The table is not paused."
    if action in ("post_blind", "wait_blind"):
        # rules 6.14: only a player new to a Hold'em or Omaha table chooses
        if seat.blind is None:
            return (
                "You are already dealt in: only a player new to the table waits for the"
                " big blind or posts one. Nothing changed."
            )
        if action == "post_blind" and seat.blind == "post":
            return "You already post the big blind next hand. Nothing changed."
        if action == "wait_blind" and seat.blind == "wait":
            return "You already wait for the big blind. Nothing changed."
        return None
    if action in ("straddle", "no_straddle"):
        from cogs._house import straddle_refusal

        return straddle_refusal(view, user_id)
    if action in RAZZ_ACTIONS:
        if view.status != "running":
            return "No hand is being played right now."
        if user_id not in view.to_act_user_ids:
            return "It is not your turn."
        option = next((o for o in view.public_actions if o.kind == action), None)
        if option is None:
            return f"You cannot {action.replace('_', ' ')} now."
        if not option.allowed:
            return option.reason or f"You cannot {action.replace('_', ' ')} now."
        return None
    return None
