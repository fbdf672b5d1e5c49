"""What follows a finished guts game (RULES §1.9, §1.2, §1.11): the next game's setup.

It needs both the finished :class:`~bot.engine.guts.game.GutsGame` and the
:class:`~bot.engine.guts.setup.GutsSetup` it builds, so it lives above both modules (the
game is built from a setup and does not know what follows it).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine.guts.game import GutsGame
from bot.engine.guts.setup import GutsSetup

#: Consecutive windows a player may let run out before being marked away (RULES §1.11).
IDLE_WINDOWS_BEFORE_AWAY = 2


@dataclass(frozen=True, slots=True)
class NextGame:
    """What follows a finished game: the next setup, and whether the table should pause."""

    setup: GutsSetup
    pause: bool
    pause_reason: str | None = None
    newly_away: frozenset[int] = frozenset()


def next_game(game: GutsGame) -> NextGame:
    """The next game's setup after ``game`` is over (RULES §1.9, §1.2, §1.11).

    The deal passes one seat to the left; the carried pot and its ledger stay; the player who
    matched is excused from the first ante when the house rule says so; players who let two
    windows in a row run out are away. ``pause`` is set when a whole round passed with no
    player acting, or when fewer than two players could play the next game.
    """
    result = game.result
    setup = game.setup
    seats = setup.seats
    dealer = seats[(seats.index(setup.dealer) + 1) % len(seats)]
    idle = dict(game.idle)
    newly_away = frozenset(
        s for s, n in idle.items() if n >= IDLE_WINDOWS_BEFORE_AWAY and s not in setup.away
    )
    away = setup.away | newly_away
    excused: frozenset[int] = frozenset()
    if game.rules.excuse_matcher_ante and result.challenger is not None and result.matched > 0:
        excused = frozenset({result.challenger})
    nxt = GutsSetup(
        seats=seats,
        stacks=dict(game.stacks),
        dealer=dealer,
        pot=dict(result.carried_pot),
        excused=excused,
        away=away,
        idle=idle,
    )
    ante = game.rules.ante
    can_play = [s for s in seats if s not in away and (s in excused or nxt.stacks[s] >= ante)]
    if not game.last_round_acted:
        return NextGame(nxt, True, "a whole round passed with no player acting", newly_away)
    if len(can_play) < max(2, game.rules.min_players):
        return NextGame(nxt, True, "not enough players can play the next game", newly_away)
    return NextGame(nxt, False, None, newly_away)
