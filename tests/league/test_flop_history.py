"""``/history`` of a Hold'em hand (issue 13): the stored PHH file hides every hole card
the viewer was not shown as that player's (a folded hand stays hidden; the board and the
hands shown at the showdown are visible), and the replay text tells the hand as the
viewer saw it."""

from __future__ import annotations

import random
import re

from bot.engine.actions import Action
from bot.league.replay import redact_history, replay_text
from bot.tables.flop import FlopFamily
from bot.tables.games import make_family


def _hand_where_the_small_blind_folds() -> tuple[FlopFamily, list, str, int]:
    fam = make_family("holdem", {})
    assert isinstance(fam, FlopFamily)
    rng = random.Random(21)
    events = fam.start_hand({1: 500, 2: 500, 3: 500}, frozenset(), rng)
    assert fam.engine is not None
    folder = fam.engine.seat_ids[0]  # the small blind: owes the rest of the big blind
    while fam.hand_running:
        (seat,) = fam.to_act()
        opts = {o.kind for o in fam.options(seat) if o.allowed}
        kind = (
            "fold" if seat == folder and "fold" in opts else "call" if "call" in opts else "check"
        )
        events += fam.apply(Action(seat, kind))
    end = fam.finish(lambda s: f"P{s}")
    return fam, events, end.history, folder


def test_flop_history_hides_a_folded_hand_and_shows_board_and_showdown() -> None:
    fam, events, history, folder = _hand_where_the_small_blind_folds()
    hand = fam.engine
    assert hand is not None and hand.result is not None and hand.result["showdown"]
    hole = {s: "".join(str(c) for c in hand.hole[hand.position(s)]) for s in (1, 2, 3)}
    board = "".join(str(c) for c in hand.board)
    others = [s for s in (1, 2, 3) if s != folder]
    for viewer in (*others, None):
        text = redact_history(history, events, viewer)
        assert hole[folder] not in text  # folded, never shown: hidden from everyone else
        assert "????" in text
        assert all(b in text for b in re.findall("..", board))
        assert all(hole[s] in text for s in others)  # both shown at the showdown
    assert hole[folder] in redact_history(history, events, folder)
    lines = replay_text(events, lambda s: f"P{s}", folder)
    mine = " ".join(c.pretty for c in hand.hole[hand.position(folder)])
    assert f"Your cards: {mine}" in lines
    assert "— Flop: " in lines and "— River: " in lines and "Blinds: 5, 10" in lines
    spectator = replay_text(events, lambda s: f"P{s}", None)
    assert "Your cards" not in spectator
