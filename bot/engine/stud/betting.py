"""The betting of a fixed-limit stud hand (RULES.md §4.4-§4.7), shared by every stud
game: the bring-in and completion, the opener of each street, the cap, short all-ins,
what each player may do and doing it.

The rules (Robert's Rules of Poker, RRP; docs/rules.md 4.6, 4.7, 8.6): a completion (the
street's bet on 3rd street; the bring-in is not one), bet and three raises while three or
more players not all-in contest the street, no cap heads-up in Stud and Stud Hi-Lo (Razz
keeps it, RULES 4.6); the half-bet rule for all-ins: an all-in of half a bet or more counts
as a full completion, bet or raise, less does not reopen the betting for a player who
already acted and faces less than half a bet, and the next raise completes the last full
one (``level`` + a bet); a player may fold when checking is free (not the bring-in).

:class:`StudHand` is the base class of the games (Razz, Seven-card Stud, Stud Hi-Lo).
"""

from __future__ import annotations

import random
from typing import Any, Self

from bot.engine.actions import Action, ActionOption
from bot.engine.errors import GameError, GameOver, IllegalAction, NotYourTurn
from bot.engine.events import ChipMove, Event
from bot.engine.hands._tables import RANK_PRIME
from bot.engine.stud.core import (
    ACTION_KINDS,
    AFTER,
    AGGRESSIONS,
    MAX_AGGRESSIONS,
    PHH_BRING_IN,
    PHH_CC,
    PHH_FOLD,
    ROTATION,
    _new,
)
from bot.engine.stud.phh_write import hand_to_phh
from bot.engine.stud.showdown import StudShowdown
from bot.engine.stud.snapshot import load_snapshot

#: Opening keys by (game class, product of the up cards' rank primes): the keys of every
#: game here depend only on the ranks; a board is keyed once per street.
_OPENING_KEYS: dict[tuple[type, int], tuple[int, ...]] = {}

ALL_IN_CALL = "you can only call (all in)"
CAPPED = "the betting is capped (one bet and three raises)"
SHORT_ALL_IN = "a short all-in cannot be raised"
NOBODY_LEFT = "every other player is all-in or has folded"
NOBODY_CAN_CALL = "no other player has chips left to call a raise"


class StudHand(StudShowdown):
    """One hand of a fixed-limit stud game. Build it, call :meth:`start`, then ``apply``
    actions (see :class:`~bot.engine.stud.core.StudCore` for the deck)."""

    __slots__ = ()

    def _first_to_act(self) -> int:
        up, folded = self.up, self.folded
        if self.street == 3:
            # §4.4: the bring-in's card (everyone is live on 3rd street).
            order = self.BRING_IN_ORDER
            orders = [order[u[0]] for u in up]
            return orders.index(max(orders))
        # §4.5: the game's opening order; exact ties go to the lowest position (the first
        # of equal keys).
        best = -1
        best_key: tuple[int, ...] = ()
        keys, cls = _OPENING_KEYS, type(self)
        for p in range(self.n):
            if not folded[p]:
                board = up[p]
                product = 1
                for c in board:
                    product *= RANK_PRIME[c]
                key = keys.get((cls, product))
                if key is None:
                    key = keys[cls, product] = self.opening_key(board)
                if best < 0 or key < best_key:
                    best, best_key = p, key
        return best

    def open_pair_on_4th(self) -> bool:
        """Stud's cardroom rule: a pair showing on 4th street allows the big bet there."""
        if not self.OPEN_PAIR_BIG_BET or self.street != 4:
            return False
        return any(
            not f and len(u) == 2 and u[0] >> 2 == u[1] >> 2
            for f, u in zip(self.folded, self.up, strict=True)
        )

    def _begin_betting(self, out: list[Event]) -> None:
        opener = self._first_to_act()
        self.opener = opener
        street = self.street
        if street == 7:
            self.seventh_opener = opener
        self.bring_in_pending = self.completion_pending = street == 3
        folded, stacks = self.folded, self.stacks
        # pokerkit: only players with an effective stack act (get_effective_stack: what they
        # can still lose, up to the second-largest live total). No bets are out yet on a
        # new street, so that is everyone with chips, when at least two have chips.
        if True in folded or 0 in stacks:
            actors = [p for p in ROTATION[self.n][opener] if not folded[p] and stacks[p] > 0]
        else:
            actors = list(ROTATION[self.n][opener])
        if len(actors) < 2:
            actors = []
        self.actors = actors
        self._kinds = None
        self.acted = set()
        self.aggressions = 0
        self.level = 0
        self.capped = False
        self.raise_size = 0
        self.shorts = []
        out.append(
            _new(
                Event,
                (
                    "betting",
                    {
                        "street": street,
                        "opener": self.seat_ids[opener],
                        "bet": self._stakes.bet[street],
                    },
                    None,
                    (),
                ),
            )
        )
        if not actors:
            self._end_betting(out)

    def _end_betting(self, out: list[Event]) -> None:
        self.actors = []
        self.bring_in_pending = self.completion_pending = False
        n, bets, folded = self.n, self.bets, self.folded
        # Uncalled chips go back (pokerkit: collect_bets, cut at the second-highest bet; the
        # last live player gets back what no one else matched).
        # Only the one highest bet can be above the second-highest.
        top, cutoff = sorted(bets)[-1:-3:-1]
        if top > cutoff:
            out.append(self._refund(bets.index(top), top - cutoff))
        self.bets = [0] * n
        if folded.count(False) == 1:
            self._award_uncontested(folded.index(False), out)
            return
        stacks = self.stacks
        if self.street == 7:
            out.extend(self._showdown())
        elif 0 in stacks and sum(1 for p in range(n) if stacks[p] > 0 and not folded[p]) <= 1:
            live = [p for p in range(n) if not folded[p]]
            # Everyone (but at most one) is all-in: deal the rest with no betting.
            # pokerkit shows the hands at this point, then again at the end.
            self._phh_show(live)
            while self.street < 7:
                self.street += 1
                self._deal_street(out)
            out.extend(self._showdown())
        else:
            self.street += 1
            self._deal_street(out)
            self._begin_betting(out)

    # -------------------------------------------------------------- can / do

    def _aggression_kind(self, top: int | None = None) -> str:
        """complete, bet or raise (``top``: the highest bet, when the caller knows it).
        RRP: completing a short all-in bet to a full bet is the street's bet."""
        if self.completion_pending:
            return "complete"
        if self.HALF_BET_RULE:
            return "bet" if self.level == 0 else "raise"
        if top is None:
            top = max(self.bets)
        return "bet" if top == 0 else "raise"

    def _size(self) -> int:
        """The full bet of the street (the big bet once made on 4th street, RULES 8.2)."""
        size = self._stakes.bet[self.street]
        return self.raise_size if self.raise_size > size else size

    def _aggression_block(self, p: int, top: int | None = None) -> str | None:
        """Why ``p`` may not complete/bet/raise now, or None (:meth:`_allowed` inlines it).

        ``top`` is the highest bet, when the caller knows it."""
        bets, stacks = self.bets, self.stacks
        if top is None:
            top = max(bets)
        owed = top - bets[p]
        if stacks[p] <= owed:
            return ALL_IN_CALL
        if self.capped:
            return CAPPED
        if self.HALF_BET_RULE:
            # who already acted may raise again only when facing at least half a bet
            if p in self.acted and 2 * owed < self._size():
                return SHORT_ALL_IN
        elif (owed > 0 and min(stacks[p], owed) < self.raise_size) or (
            self.shorts and sum(self.shorts) < self.raise_size and p in self.acted
        ):
            return SHORT_ALL_IN  # pokerkit's checks
        folded = self.folded
        others_in = False
        for i in range(self.n):
            if i != p and not folded[i]:
                if stacks[i] + bets[i] > top:
                    return None
                others_in = others_in or stacks[i] > 0
        return NOBODY_CAN_CALL if others_in else NOBODY_LEFT

    def _raise_targets(self, p: int) -> list[int]:
        """The street totals a completion/bet/raise may go to: the fixed one first."""
        bets, stacks, folded = self.bets, self.stacks, self.folded
        top = max(bets)
        size = self._size()
        # RRP: a bet over the last full one (0 before the completion); pokerkit: over the top
        base = self.level if self.HALF_BET_RULE else 0 if self.completion_pending else top
        full = base + size
        most = stacks[p] + bets[p]
        first = min(most, full)
        targets = [first]
        big = self._stakes.bet[5]
        if size < big and self.open_pair_on_4th():
            # Once a big bet is made, raise_size keeps every later raise big.
            alt = min(most, base + big)
            if alt > first:
                targets.append(alt)
        # §4.7: a raise "to" the largest amount an opponent can still match.
        reach = 0
        for i in range(self.n):
            if i != p and not folded[i] and stacks[i] + bets[i] > reach:
                reach = stacks[i] + bets[i]
        if top < reach < targets[-1] and reach not in targets:
            targets.append(reach)
        return targets

    def _allowed(self, p: int) -> tuple[str, ...]:
        """The action kinds the current actor ``p`` may take (the fast path of
        legal_actions), computed once per turn; with an aggression among them, also its
        fixed-limit total (``_target``, the first of :meth:`_raise_targets`).

        The aggression test is :meth:`_aggression_block` inlined."""
        kinds = self._kinds
        if kinds is not None:
            return kinds
        bets, stacks = self.bets, self.stacks
        top = max(bets)
        mine = bets[p]
        stack = stacks[p]
        if self.bring_in_pending:
            base = 0
        elif mine >= top:
            base = 1
        else:
            base = 2
        owed = top - mine
        raise_size = self.raise_size
        aggression = 0  # none
        if stack > owed and not self.capped:
            size = self._stakes.bet[self.street]
            if raise_size > size:
                size = raise_size
            half = self.HALF_BET_RULE
            if half:
                ok = p not in self.acted or 2 * owed >= size
            else:  # pokerkit's checks
                ok = not (
                    (owed > 0 and min(stack, owed) < raise_size)
                    or (self.shorts and sum(self.shorts) < raise_size and p in self.acted)
                )
            if ok:
                # Someone else must still be able to match more than the top bet.
                folded = self.folded
                reach = 0
                for i in range(self.n):
                    if i != p and not folded[i] and stacks[i] + bets[i] > reach:
                        reach = stacks[i] + bets[i]
                if reach > top:
                    if self.completion_pending:
                        aggression = 1
                        full = size  # the level is 0 until the completion
                    elif half:
                        level = self.level
                        aggression = 2 if level == 0 else 3
                        full = level + size
                    else:
                        aggression = 2 if top == 0 else 3
                        full = top + size
                    self._target = full if stack + mine > full else stack + mine
        kinds = self._kinds = self._KIND_TABLE[base][aggression]
        return kinds

    def allowed_kinds(self, seat: int) -> tuple[str, ...]:
        """The action kinds ``seat`` may take now (empty when it is not their turn)."""
        actors = self.actors  # empty before the start and once the hand is over
        if not actors or self.seat_ids[actors[0]] != seat:
            return ()
        return self._kinds or self._allowed(actors[0])

    def legal_actions(self, seat: int) -> list[ActionOption]:
        """Every Razz action kind for ``seat`` now: allowed, or why not.

        An allowed completion/bet/raise gives the fixed-limit total (``to``), which is what
        the plain action does. §4.7 also allows a raise "to" the largest amount an
        opponent can still match when that is less: ``Action(seat, "raise", amount=...)``
        (the refusal of any other amount names both totals).
        """
        if self.is_over:
            return [ActionOption(k, False, "the hand is over") for k in ACTION_KINDS]
        p = self.position(seat)
        if not self.actors or self.actors[0] != p:
            reason = "it is not your turn"
            return [ActionOption(k, False, reason) for k in ACTION_KINDS]
        top = max(self.bets)
        mine = self.bets[p]
        call = min(self.stacks[p], top - mine)
        opts: list[ActionOption] = []
        if self.bring_in_pending:
            cost = min(self.stacks[p], self._stakes.bring_in)
            opts.append(ActionOption("bring_in", True, None, cost, mine + cost))
        else:
            opts.append(ActionOption("bring_in", False, "the bring-in is only on 3rd street"))
        kind = self._aggression_kind()
        block = self._aggression_block(p)
        for k in ("complete", "bet", "raise"):
            if k != kind:
                why = {
                    "complete": "completing is only on 3rd street, right after the bring-in",
                    "bet": "there is already a bet: raise instead",
                    "raise": "there is no bet to raise",
                }[k]
                if kind == "complete" and k != "complete":
                    why = "on 3rd street the first bet is the completion"
                opts.append(ActionOption(k, False, why))
            elif block:
                opts.append(ActionOption(k, False, block))
            else:
                to = self._raise_targets(p)[0]
                opts.append(ActionOption(k, True, None, to - mine, to))
        forced = (
            "the bring-in must post the bring-in or complete" if self.bring_in_pending else None
        )
        if forced:
            opts.append(ActionOption("fold", False, forced))
            opts.append(ActionOption("check", False, forced))
            opts.append(ActionOption("call", False, forced))
        else:
            if call == 0:
                if self.FREE_FOLD:  # RRP: a player may fold even when checking is free
                    opts.append(ActionOption("fold", True, None, 0, mine))
                else:  # pokerkit (tournament mode): no folding when checking is free
                    opts.append(ActionOption("fold", False, "nothing to call: check instead"))
                opts.append(ActionOption("check", True, None, 0, mine))
                opts.append(ActionOption("call", False, "there is no bet to call"))
            else:
                opts.append(ActionOption("fold", True, None, 0, mine))
                opts.append(ActionOption("check", False, f"there is a bet of {top}: call or fold"))
                opts.append(ActionOption("call", True, None, call, mine + call))
        order = {k: i for i, k in enumerate(ACTION_KINDS)}
        opts.sort(key=lambda o: order[o.kind])
        return opts

    def can(self, action: Action) -> str | None:
        """Why ``action`` is refused now, or None when it is legal."""
        try:
            self._validate(action)
        except GameError as exc:
            return exc.message
        return None

    def _validate(self, action: Action) -> tuple[int, int | None]:
        """(position, target street total for an aggression) or raise a GameError."""
        actors = self.actors
        if actors and action.amount is None:
            # Fast path: a plain legal action by the current actor.
            p = actors[0]
            kind = action.kind
            if self.seat_ids[p] == action.seat and kind in (self._kinds or self._allowed(p)):
                return p, (self._target if kind in AGGRESSIONS else None)
        return self._check(action)

    def _check(self, action: Action) -> tuple[int, int | None]:
        """:meth:`_validate` step by step, with the reason for a refusal."""
        if not self.started:
            raise IllegalAction("the hand has not started")
        if self.is_over:
            raise GameOver("the hand is over")
        p = self.position(action.seat)
        if not self.actors or self.actors[0] != p:
            who = self.seat_ids[self.actors[0]] if self.actors else None
            raise NotYourTurn(f"it is seat {who}'s turn, not seat {action.seat}'s")
        if action.kind not in ACTION_KINDS:
            raise IllegalAction(f"unknown action {action.kind!r} (use {', '.join(ACTION_KINDS)})")
        for opt in self.legal_actions(action.seat):
            if opt.kind != action.kind:
                continue
            if not opt.allowed:
                raise IllegalAction(f"cannot {action.kind}: {opt.reason}")
            if action.kind in ("complete", "bet", "raise"):
                targets = self._raise_targets(p)
                if action.amount is None:
                    return p, targets[0]
                if action.amount not in targets:
                    allowed = " or ".join(str(t) for t in targets)
                    raise IllegalAction(
                        f"cannot {action.kind} to {action.amount}: fixed limit allows {allowed}"
                    )
                return p, action.amount
            if action.amount is not None and action.amount != opt.to:
                raise IllegalAction(f"cannot {action.kind} to {action.amount}: it goes to {opt.to}")
            return p, None
        raise IllegalAction(f"unknown action {action.kind!r}")  # pragma: no cover

    def default_action(self, seat: int) -> Action:
        """The timeout action: post the bring-in when due, else check, else fold."""
        if self.bring_in_pending and self.actors and self.seat_ids[self.actors[0]] == seat:
            return Action(seat, "bring_in", timed_out=True)
        p = self.position(seat)
        if self.actors and self.actors[0] == p and self.bets[p] >= max(self.bets):
            return Action(seat, "check", timed_out=True)
        return Action(seat, "fold", timed_out=True)

    def apply(self, action: Action) -> list[Event]:
        """Do ``action``; raises NotYourTurn / IllegalAction / GameOver changing nothing."""
        actors = self.actors
        p = actors[0] if actors else -1
        kind = action.kind
        if (
            p >= 0
            and action.amount is None
            and self.seat_ids[p] == action.seat
            and kind in (self._kinds or self._allowed(p))
        ):
            # A plain legal action by the current actor (as in _validate, inlined).
            target = self._target if kind in AGGRESSIONS else None
        else:
            p, target = self._check(action)
        # Do it (inline: one call per action less).
        seat = self.seat_ids[p]
        street = self.street
        del actors[0]
        self._kinds = None
        self.acted.add(p)
        stacks, bets = self.stacks, self.bets
        # The event data is built in one dict display per kind (keys in the order seat,
        # action, street, [timed_out], amount, to, all_in).
        data: dict[str, Any]
        moves: tuple[ChipMove, ...] = ()
        last_live = False
        if kind == "check" or kind == "call":
            stack = stacks[p]
            mine = bets[p]
            cost = max(bets) - mine
            if cost > stack:
                cost = stack
            if cost:
                stack -= cost
                stacks[p] = stack
                mine += cost
                bets[p] = mine
                self.contrib[p] += cost
                moves = (_new(ChipMove, (seat, cost, "match")),)
            data = {
                "seat": seat,
                "action": kind,
                "street": street,
                "amount": cost,
                "to": mine,
                "all_in": stack == 0,
            }
            self.phh_actions.append(PHH_CC[p])
        elif kind == "fold":
            folded = self.folded
            folded[p] = True
            self.phh_actions.append(PHH_FOLD[p])
            last_live = folded.count(False) == 1
            data = {"seat": seat, "action": kind, "street": street}
        elif kind == "bring_in":
            cost = min(stacks[p], self._stakes.bring_in)
            stacks[p] -= cost
            bets[p] += cost
            self.contrib[p] += cost
            self.bring_in_pending = False
            if self.HALF_BET_RULE:
                # RRP: the bring-in is a forced bet, not a decision: its player may still
                # raise a completion (as a big blind may raise)
                self.acted.discard(p)
            moves = (_new(ChipMove, (seat, cost, "bring_in")),)
            data = {"seat": seat, "action": kind, "street": street, "amount": cost, "to": bets[p]}
            self.phh_actions.append(PHH_BRING_IN[p])
        else:
            assert target is not None
            n, folded = self.n, self.folded
            top = max(bets)
            cost = target - bets[p]
            increment = target - top
            stacks[p] -= cost
            bets[p] = target
            self.contrib[p] += cost
            self.bring_in_pending = False
            # Everyone else with chips acts again, clockwise from the aggressor.
            if True in folded or 0 in stacks:
                actors[:] = [i for i in AFTER[n][p] if not folded[i] and stacks[i] > 0]
            else:
                actors[:] = AFTER[n][p]
            self.opener = p
            if street == 7:
                self.last_aggressor = p
            all_in = not stacks[p]
            if self.HALF_BET_RULE:
                # RRP's half-bet rule: a full one, or an all-in of half a bet or more,
                # counts (and one by a player with chips left reopens the betting for all);
                # a smaller all-in is not a completion, bet or raise
                size = self._size()
                full = target - self.level
                if not all_in or 2 * full >= size:
                    if not all_in:
                        self.acted = {p}
                        if full > self.raise_size:
                            self.raise_size = full  # the big bet on 4th street (8.2)
                    self.level = target
                    self.aggressions += 1
                    self.completion_pending = False
            else:
                self.completion_pending = False
                # pokerkit: a raise at least as big as the last one reopens the betting.
                raise_size = self.raise_size
                if increment >= raise_size:
                    self.acted = {p}
                    raise_size = self.raise_size = increment
                self.level = target
                self.aggressions += 1
                shorts = self.shorts
                if all_in:
                    shorts.append(increment)
                    if sum(shorts) >= raise_size:
                        shorts.clear()
                elif shorts:
                    shorts.clear()
            if not self.capped and self.aggressions >= MAX_AGGRESSIONS:
                # capped while three or more players not all-in contest the street (RRP;
                # heads-up the raising goes on, and a later fold does not lift a cap)
                self.capped = not self.HEADS_UP_UNCAPPED or (
                    sum(1 for i in range(n) if not folded[i] and stacks[i] > 0) >= 3
                )
            moves = (_new(ChipMove, (seat, cost, "bet")),)
            data = {
                "seat": seat,
                "action": kind,
                "street": street,
                "amount": cost,
                "to": target,
                "all_in": all_in,
            }
            self.phh_actions.append(f"p{p + 1} cbr {target}")
        if action.timed_out:
            data = {"seat": seat, "action": kind, "street": street, "timed_out": True, **data}
        out = [_new(Event, ("action", data, None, moves))]
        if not actors or last_live:
            self._end_betting(out)
        self.log.extend(out)
        return out

    # ---------------------------------------------------------------- snapshots

    @classmethod
    def restore(cls, snap: Any, rng: random.Random | None = None) -> Self:
        """Rebuild a hand from :meth:`snapshot`; raises SnapshotError naming a bad field.

        ``rng`` is accepted for symmetry with the constructor; the stored deck order means
        nothing random is needed to continue.
        """
        return load_snapshot(cls, snap)

    def to_phh(self, *, players: list[str] | None = None) -> str:
        """This finished hand as PHH text (see :mod:`bot.engine.stud.phh_write`)."""
        return hand_to_phh(self, players=players)
