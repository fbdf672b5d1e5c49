"""The tournament director (issue 20): pure decisions, no I/O.

Structures and the level clock, registration, rebuys, add-ons and re-entries, balancing
and breaking tables, finishing places, payouts, bounties and league points -- each a pure
function of plain, immutable data, tested without Discord or SQLite. Like ``bot/engine`` it
imports no discord, aiosqlite or asyncio, reads no clock (every time is a parameter) and
draws no random number but from the ``random.Random`` it is given. The rules it follows are
the rule book's §10 (``bot/render/rulebook_tournament.py``, docs/rules.md).

========================  ===========================================================
module                    decides
========================  ===========================================================
``structure``             levels, breaks, the ``levels`` text, a level's table stakes
``presets``               ``structure: turbo|regular|deep`` for every kind of game
``clock``                 the level on at a moment, the next change, periods by level
``config``                the ``/tournament create`` options and their defaults
``state``                 the immutable :class:`Tournament`, its entries and busts
``director``              registration, start, pause, busts, the end, cancel
``entries``               rebuys, the add-on, re-entries
``movements``             the league-chip records the ledger books
``balance``               the seat draw, balancing moves, breaking tables
``places``                finishing places (busted in the same hand, ties, re-entries)
``payouts``               prizes by field size, shared places, bounties
``points``                league points (PokerStars, fixed, prize) and standings
========================  ===========================================================

How the director drives tables
==============================

The contract for the integration (``bot/tables``, ``bot/store``, the cog): a tournament is
a director over ordinary tables of the existing families. The director never calls them;
the integration calls the director and does what its answers say, **one SQLite transaction
per director step**: the new :class:`Tournament` snapshot (it is plain data: store it as
JSON, like a table snapshot) together with the ledger rows of ``outcome.movements``.

1. **Create.** Build the structure with :func:`preset` (``structure:``) or
   :func:`parse_levels` (``levels:``) for :func:`game_kind` ``(game, betting)``, then a
   :class:`TournamentConfig`; :func:`create` then :func:`open_registration`. A bad option
   raises a :class:`TournamentError` whose ``message`` is the whole reply (it ends
   "Nothing changed."); answer it ephemerally like every :class:`HomeGameError`.
2. **Lobby.** Register / Unregister call :func:`register` / :func:`unregister` with the
   injected clock's ``now``. Book each :class:`Movement` (``delta`` on the player's
   balance, ``ledger_text`` as the ledger's words: "tournament buy-in", "prize", "bounty"
   ...) by a guarded update: a balance short of the buy-in refuses in the ledger and the
   step is not stored. The lobby shows ``t.entries``, ``t.prize_pool``, the structure
   (:func:`render_levels`, :meth:`Level.describe`) and the start.
3. **Start** at ``config.starts_at`` or on the host's Start: :func:`start`, then
   :func:`initial_seating` of the entry numbers (the balancing functions' "players" are
   entry numbers) with ``seats_per_table=config.seats`` and the tournament's rng; open one
   table per :class:`Table`, each message naming the level and the next change as a
   Discord relative timestamp.
4. **Every hand** asks :func:`stakes_for_hand` with the hand's start time: a
   :class:`Deal` gives the stakes (``deal.stakes.table_stakes(config.kind)``, the options
   the table family takes); a :class:`Hold` means no deal -- a break (``until`` its end)
   or a pause (``until`` None: wait for resume). A hand in progress keeps its stakes.
   Dealing in a newcomer follows the tables' dead-button rules (TDA: a new player is dealt
   in anywhere but between the small blind and the button).
5. **The director's timer**: store :func:`next_deadline` like every deadline; when it
   fires, re-read the clock (:func:`read_clock`), edit the lobby and each table message
   once for a level change or a break (never on a timer), and call
   :func:`finish_if_over` (a busted player's decision time may have run out).
6. **A hand ends**: for each entry left with no chips, a :class:`Knockout` with the chips
   it started the hand with and ``taken_by`` = the chips each winner took of it (per pot
   it was in: its contribution times the winner's share), in seat order from the button's
   left; :func:`record_hand` with ``hand_started_at``. Book the bounty movements. Then the
   busted player's buttons: **Rebuy** when :func:`why_not_rebuy` (``stack=0,
   after_bust=True``: a second click buys nothing) is None,
   **Re-enter** when :func:`why_not_re_enter` is None (a refused click answers with the
   reason), and **I'm out** (:func:`decline`: the end need not wait for them); their seat
   is freed. Then :func:`finish_if_over`; then balancing:
   :func:`plan` over the :class:`Table` views (``last_big_blind``, ``button``, ``in_hand``;
   ``by_position=config.kind == "stud"``): make ``moves`` in order (the player's stack
   goes with them; tell them by DM and both tables), close the ``broken`` tables, and ask
   again when a table of ``waiting_for`` ends its hand. One table left: the final table.
7. **Rebuy, Add-on, Re-enter** buttons: :func:`rebuy` (``stack`` = the player's chips,
   between hands), :func:`add_on` (offered to every entry still in during the add-on break:
   :func:`in_add_on_break`), :func:`re_enter`. Add ``outcome.chips`` to the entry's stack;
   ``outcome.needs_seat``: give back its old seat if it is still free, else
   :func:`seat_newcomer` (a new table number means: open one; :func:`plan` then fills it).
   A late registration (:func:`register` while running) is seated the same way.
8. **Pause / resume** (the director's commands): :func:`pause` / :func:`resume`; every
   stored time derives from ``t.started_at`` and ``t.pauses``, so re-arm the timers from
   :func:`next_deadline` and the tables from :func:`stakes_for_hand`.
9. **The end**: :func:`finish_if_over` pays the prizes (:func:`results` gives each entry's
   :class:`Finish` and prize) and the winner's own bounty. League points:
   :func:`best_finishes` per player, :func:`finish_points` with the league's formula
   (``entries=len(t.entries)``, ``buy_in`` in the currency), summed by :func:`standings`
   (``best_of=points_best_of``).
10. **Cancel**: :func:`cancel` pays back what the funds still hold.
"""

from __future__ import annotations

from bot.tournament.balance import (
    Move,
    Plan,
    Table,
    initial_seating,
    next_big_blind,
    plan,
    seat_newcomer,
    worst_seat,
)
from bot.tournament.clock import (
    Deal,
    Hold,
    Pause,
    Reading,
    add_on_break,
    in_add_on_break,
    next_change_time,
    open_through_level,
    read_clock,
    stakes_for_hand,
)
from bot.tournament.config import TournamentConfig
from bot.tournament.director import (
    can_come_back,
    cancel,
    create,
    decline,
    finish_if_over,
    is_over,
    next_deadline,
    open_registration,
    pause,
    record_hand,
    register,
    results,
    resume,
    start,
    unregister,
    why_not_register,
)
from bot.tournament.entries import (
    add_on,
    re_enter,
    rebuy,
    why_not_add_on,
    why_not_re_enter,
    why_not_rebuy,
)
from bot.tournament.errors import Refused, StructureError, TournamentError
from bot.tournament.movements import LEDGER_TEXT, Movement
from bot.tournament.payouts import PAYOUT_METHODS, pay_finishes, prizes, split_bounty
from bot.tournament.places import Elimination, Finish, best_finishes, final_places
from bot.tournament.points import POINTS_FORMULAS, Result, Standing, finish_points, standings
from bot.tournament.presets import PRESETS, preset
from bot.tournament.state import Bust, Entry, Knockout, Outcome, Tournament
from bot.tournament.structure import (
    Break,
    Level,
    Structure,
    game_kind,
    parse_levels,
    render_levels,
)

__all__ = [
    "LEDGER_TEXT",
    "PAYOUT_METHODS",
    "POINTS_FORMULAS",
    "PRESETS",
    "Break",
    "Bust",
    "Deal",
    "Elimination",
    "Entry",
    "Finish",
    "Hold",
    "Knockout",
    "Level",
    "Move",
    "Movement",
    "Outcome",
    "Pause",
    "Plan",
    "Reading",
    "Refused",
    "Result",
    "Standing",
    "Structure",
    "StructureError",
    "Table",
    "Tournament",
    "TournamentConfig",
    "TournamentError",
    "add_on",
    "add_on_break",
    "best_finishes",
    "can_come_back",
    "cancel",
    "create",
    "decline",
    "final_places",
    "finish_if_over",
    "finish_points",
    "game_kind",
    "in_add_on_break",
    "initial_seating",
    "is_over",
    "next_big_blind",
    "next_change_time",
    "next_deadline",
    "open_registration",
    "open_through_level",
    "parse_levels",
    "pause",
    "pay_finishes",
    "plan",
    "preset",
    "prizes",
    "re_enter",
    "read_clock",
    "rebuy",
    "record_hand",
    "register",
    "render_levels",
    "results",
    "resume",
    "seat_newcomer",
    "split_bounty",
    "stakes_for_hand",
    "standings",
    "start",
    "unregister",
    "why_not_add_on",
    "why_not_re_enter",
    "why_not_rebuy",
    "why_not_register",
    "worst_seat",
]
