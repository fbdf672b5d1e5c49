"""What the player to act may do: check / can for :class:`~bot.engine.flop.hand.FlopHand`.

A mixin, so the hand's state stays in one object: it reads the attributes declared in
:mod:`bot.engine.flop.state` and below (the hand sets them) and never changes the game,
except for caching the current actor's options (``_kinds``, ``_low``) and the seat ->
position map.

The rules (Robert's Rules of Poker, RRP; docs/rules.md 6.5-6.7, 6.15):

- a player whose chips do not go past the call can only call (all in);
- fixed limit: a bet and three raises while three or more players not all-in contest the
  round (before the flop the big blind is the bet); heads-up the raising has no cap, unless
  the cap was reached before the round became heads-up (``capped``);
- fixed limit, the half-bet rule: an all-in of half a bet or more counts as a full bet or
  raise; less does not reopen the betting for a player who already acted and faces less
  than half a bet, and the next raise completes the last full one (``level`` + a bet);
- no-limit and pot-limit, the full-raise rule: an all-in short of a full raise does not
  reopen the betting for a player who already acted (pokerkit's checks: ``raise_size``,
  ``shorts``); the minimum raise is the largest full raise of the round (at least the big
  blind), counted from the price to call (``top``: a short all-in big blind does not lower
  it).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from bot.engine.actions import Action, ActionOption
from bot.engine.errors import GameError, GameOver, IllegalAction, NotYourTurn
from bot.engine.flop.errors import BetOutOfRange
from bot.engine.flop.state import FlopState

ACTION_KINDS: Final = ("fold", "check", "call", "bet", "raise")
AGGRESSIONS: Final = frozenset(("bet", "raise"))
OVER: Final = 5

ALL_IN_CALL: Final = "you can only call (all in)"
CAPPED: Final = "the betting is capped (one bet and three raises)"
SHORT_ALL_IN: Final = "a short all-in cannot be raised"
NOBODY_LEFT: Final = "every other player is all-in or has folded"
NOBODY_CAN_CALL: Final = "no other player has chips left to call a raise"


class ActionOptions(FlopState):
    """Legal actions, bet/raise ranges and the checks behind :meth:`FlopHand.apply`."""

    _cap: int | None
    _kinds: tuple[str, ...] | None
    _low: int
    _pos: dict[int, int] | None
    _half: bool
    _check_kinds: tuple[str, ...]
    _check_choice: Callable[[Action], int]

    def position(self, seat: int) -> int:
        pos = self._pos
        if pos is None:
            pos = self._pos = {s: p for p, s in enumerate(self.seat_ids)}
        try:
            return pos[seat]
        except KeyError:
            raise NotYourTurn(f"seat {seat} is not in this hand") from None

    def _aggression_block(self, p: int) -> str | None:
        """Why ``p`` may not bet/raise now, or None (:meth:`_allowed` inlines it)."""
        bets, stacks = self.bets, self.stacks
        top = self.top
        owed = top - bets[p]
        if stacks[p] <= owed:
            return ALL_IN_CALL
        if self.capped:
            return CAPPED
        if self._half:
            # RRP's half-bet rule: who already acted may raise again only when facing at
            # least half a bet (a full raise, or all-ins adding up to half a bet or more)
            if p in self.acted and 2 * owed < self._street_bet:
                return SHORT_ALL_IN
        elif owed < self.raise_size or (
            self.shorts and sum(self.shorts) < self.raise_size and p in self.acted
        ):
            return SHORT_ALL_IN
        folded = self.folded
        others_in = False
        for i in range(self.n):
            if i != p and not folded[i]:
                if stacks[i] + bets[i] > top:
                    return None
                others_in = others_in or stacks[i] > 0
        return NOBODY_CAN_CALL if others_in else NOBODY_LEFT

    def aggressive_kind(self) -> str:
        """The kind of a bet or raise now: "bet" for the round's first full bet
        (completing a short all-in bet is one in fixed limit), else "raise"."""
        if self._half:
            return "bet" if self.level == 0 else "raise"
        return "bet" if self.top == 0 else "raise"

    def _range(self, p: int) -> tuple[int, int]:
        """(min, max) "to" totals of a bet/raise by ``p`` (the caller checked it is legal)."""
        bets, stacks, rules = self.bets, self.stacks, self.rules
        top = self.top
        everything = stacks[p] + bets[p]
        if self._half:
            # one full bet over the last full bet or raise (completing a short all-in)
            low = self.level + self._street_bet
            low = everything if everything < low else low
            return low, low
        low = min(everything, max(self.raise_size, self._street_bet) + top)
        if rules.betting == "fixed-limit":
            return low, low
        if rules.betting == "pot-limit":
            # The pot after calling, added to the call: 2 * top - mine + every chip in.
            pot = sum(self.contrib) + self.dead
            return low, min(everything, max(low, 2 * top - bets[p] + pot))
        return low, everything

    def raise_range(self, seat: int) -> tuple[int, int] | None:
        """The legal (min, max) "to" totals of a bet/raise by ``seat`` now, or None."""
        if not self.actors or self.street == OVER or self.seat_ids[self.actors[0]] != seat:
            return None
        p = self.actors[0]
        if self._aggression_block(p) is not None:
            return None
        return self._range(p)

    def legal_actions(self, seat: int) -> list[ActionOption]:
        """Every action kind for ``seat`` now: allowed, or why not. A bet/raise gives its
        minimum ``to`` (:meth:`raise_range` gives the maximum too); a call its cost."""
        reason: str | None = None
        if self.street == 0:
            reason = "the hand has not started"
        elif self.street == OVER:
            reason = "the hand is over"
        elif self.choice == "runout":
            reason = "no more betting: the players still in choose Once or Twice"
        elif self.choice == "show":
            reason = "the pot is won: its winner shows or mucks"
        elif not self.actors or self.seat_ids[self.actors[0]] != seat:
            reason = "it is not your turn"
        if reason is not None:
            return [ActionOption(kind, False, reason) for kind in ACTION_KINDS]
        p = self.actors[0]
        bets = self.bets
        owed = min(self.top - bets[p], self.stacks[p])
        aggressive = self.aggressive_kind()
        block = self._aggression_block(p)
        out: list[ActionOption] = []
        if owed > 0:
            out.append(ActionOption("fold", True))
            out.append(ActionOption("check", False, f"there is a bet: call {owed} or fold"))
            out.append(ActionOption("call", True, amount=owed, to=bets[p] + owed))
        else:
            if "fold" in self._check_kinds:
                # RRP (rules 6.5): a player may fold even when checking is free
                out.append(ActionOption("fold", True))
            else:  # pokerkit (tournament mode): no folding when checking is free
                out.append(ActionOption("fold", False, "nothing to call: check instead"))
            out.append(ActionOption("check", True, amount=0, to=bets[p]))
            out.append(ActionOption("call", False, "there is no bet to call: check instead"))
        for kind in ("bet", "raise"):
            if kind != aggressive:
                other = "raise" if kind == "bet" else "bet"
                out.append(ActionOption(kind, False, f"{other} instead"))
            elif block is not None:
                out.append(ActionOption(kind, False, block))
            else:
                low, _ = self._range(p)
                out.append(ActionOption(kind, True, amount=low - bets[p], to=low))
        return out

    def _allowed(self, p: int) -> tuple[str, ...]:
        """The kinds the current actor ``p`` may take (the fast path of legal_actions),
        worked out once per turn, with the minimum bet/raise total in ``_low``.

        The bet/raise test is :meth:`_aggression_block` inlined, and the minimum is the
        first of :meth:`_range`."""
        kinds = self._kinds
        if kinds is not None:
            return kinds
        bets, stacks = self.bets, self.stacks
        top = self.top
        mine, stack = bets[p], stacks[p]
        owed = top - mine
        kinds = ("fold", "call") if owed > 0 else self._check_kinds
        if stack > owed and not self.capped:
            if self._half:
                ok = 2 * owed >= self._street_bet or p not in self.acted
            else:
                rs = self.raise_size
                ok = owed >= rs and not (self.shorts and sum(self.shorts) < rs and p in self.acted)
            if ok:
                folded = self.folded
                for i in range(self.n):
                    if i != p and not folded[i] and stacks[i] + bets[i] > top:
                        if self._half:
                            low = self.level + self._street_bet
                            kinds += ("bet",) if self.level == 0 else ("raise",)
                        else:
                            size = self._street_bet
                            low = (rs if rs > size else size) + top
                            kinds += ("bet",) if top == 0 else ("raise",)
                        self._low = low if low < stack + mine else stack + mine
                        break
        self._kinds = kinds
        return kinds

    def allowed_kinds(self, seat: int) -> tuple[str, ...]:
        """The action kinds ``seat`` may take now (empty when it is not their turn)."""
        actors = self.actors
        if not actors or self.street == OVER or self.seat_ids[actors[0]] != seat:
            return ()
        return self._allowed(actors[0])

    def can(self, action: Action) -> str | None:
        """None if ``action`` is legal now, else the reason it is refused."""
        try:
            if self.choice is not None:
                self._check_choice(action)  # Once/Twice, Show/Muck (house.py)
            else:
                self._check(action)
        except GameError as exc:
            return exc.message
        return None

    def _check(self, action: Action) -> tuple[int, int | None]:
        """(position, bet/raise "to" total or None) of a legal action; raises otherwise."""
        if self.street == 0:
            raise IllegalAction("the hand has not started")
        if self.street == OVER:
            raise GameOver("the hand is over")
        p = self.position(action.seat)
        if not self.actors or self.actors[0] != p:
            who = self.seat_ids[self.actors[0]] if self.actors else None
            raise NotYourTurn(f"it is seat {who}'s turn, not seat {action.seat}'s")
        kind = action.kind
        if kind not in ACTION_KINDS:
            raise IllegalAction(f"unknown action {kind!r} (use {', '.join(ACTION_KINDS)})")
        if kind in AGGRESSIONS:
            # "bet" and "raise" name the same move; the event says which one it was.
            block = self._aggression_block(p)
            if block is not None:
                raise IllegalAction(f"cannot {kind}: {block}")
            low, high = self._range(p)
            amount = low if action.amount is None else action.amount
            if not low <= amount <= high:
                raise BetOutOfRange(kind, amount, minimum=low, maximum=high)
            return p, amount
        for opt in self.legal_actions(action.seat):
            if opt.kind == kind and not opt.allowed:
                raise IllegalAction(f"cannot {kind}: {opt.reason}")
        return p, None

    def default_action(self, seat: int) -> Action:
        """The timeout action: check when free, else fold; in a decision outside the
        betting, its default (run the board once; an uncontested winner mucks)."""
        p = self.position(seat)
        if self.choice is not None and p in self.choices:
            kind = "once" if self.choice == "runout" else "muck"
            return Action(seat, kind, timed_out=True)
        if self.actors and self.actors[0] == p and self.bets[p] >= self.top:
            return Action(seat, "check", timed_out=True)
        return Action(seat, "fold", timed_out=True)
