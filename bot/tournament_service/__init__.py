"""The tournament director at work (issue 20): the pure decisions of :mod:`bot.tournament`
applied to ordinary tables (:mod:`bot.tables.tournament`), the store and the clock.

One :class:`TournamentService` per bot, beside the :class:`~bot.tables.service.TableService`
it drives. Each director step (register, start, a hand's knockouts, a rebuy, the end...)
is ONE store transaction: the director's new state with the ledger rows of its movements
(league chips into and out of the prize pool and bounties; tournament chips from the chip
bank to the stacks). The clock's changes are stored times (the tournament's start and
pauses); the service's one timer per tournament sleeps until the next (the start, a level
change, a busted player's decision time) and re-reads the clock when it wakes, so a
restart loses no time and skips no level. Nothing here talks to Discord: what a step tells
the players goes to the :class:`TournamentSubscriber` (cogs/tournament.py) once the step is
committed.
"""

from bot.tournament_service.live import LiveTournament, Lobby, Notices, Offer, Post
from bot.tournament_service.service import TournamentService, TournamentSubscriber

__all__ = [
    "LiveTournament",
    "Lobby",
    "Notices",
    "Offer",
    "Post",
    "TournamentService",
    "TournamentSubscriber",
]
