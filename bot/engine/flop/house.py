"""What home games play (issue 18 items 11-15; docs/rules.md 6.17-6.21), the engine's
part: a mixin of :class:`~bot.engine.flop.hand.FlopHand` working on the state declared in
:mod:`bot.engine.flop.state`.

- **Straddle** (the hand is built with ``straddle=seat``): a live blind of twice the big
  blind, posted before the deal by the seat after the big blind (under the gun) or by the
  button. It is a blind raise: the straddler acts last before the flop (the option), the
  price is the straddle and the smallest raise goes one straddle over it (no-limit,
  pot-limit); in fixed limit the straddle is the round's first raise (it counts toward
  the cap). Under the gun the player after the straddle opens; with a **button** straddle
  (the Mississippi straddle) the player under the gun still opens, the action goes round
  to the cutoff, then the small and big blinds, and the button acts last.
- **Run it twice** (rules ``run_it_twice: ask``): when no more betting is possible before
  the river, the hands are shown and each player still in chooses ``once`` or ``twice``
  (a decision outside the betting, :attr:`choice` ``"runout"``); if all choose twice the
  rest of the board is dealt twice from the same deck, run 1 first, and each pot is split
  between the runs (odd chip to run 1), each half by that run's board. Not offered on a
  double board (it is split two ways already).
- **Bomb pot** (``bomb=ante``, ``boards=1|2``): every player antes, no blinds, no betting
  before the flop: the hand starts on the flop, first to act left of the button. Two
  boards: each street deals board 1 then board 2, and each pot is split between the
  boards (odd chip to board 1).
- **Seven-deuce** (rules ``seven_deuce``, Hold'em): at showdown a winning 7-2 offsuit is
  paid (:mod:`bot.engine.flop.sevendeuce`); a pot won uncontested asks the winner to show
  or muck first (:attr:`choice` ``"show"``, every uncontested pot at such a table, so the
  question tells nobody what the winner holds).
- **Rabbit hunt** (:meth:`HouseRules.rabbit`): after a hand that ended before the river,
  the board cards that would have come, from the deck's stored order (a verifiable
  table's: the seed's deck); only undealt cards, never anyone's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from bot.engine.actions import Action
from bot.engine.cards import Card
from bot.engine.errors import IllegalAction, NotYourTurn
from bot.engine.events import Event
from bot.engine.flop.sevendeuce import pay_seven_deuce
from bot.engine.flop.state import FlopState

#: The choices of each decision outside the betting, the default (a timeout) first.
CHOICES: Final = {"runout": ("once", "twice"), "show": ("muck", "show")}
CHOICE_KINDS: Final = frozenset(k for kinds in CHOICES.values() for k in kinds)
BOARD_CARDS: Final = {2: 3, 3: 1, 4: 1}
STREETS: Final = {2: "flop", 3: "turn", 4: "river"}
#: A board's street by its length once the street is dealt.
STREET_OF: Final = {3: "flop", 4: "turn", 5: "river"}


def _codes(cards: list[Card]) -> list[str]:
    return [str(c) for c in cards]


class HouseRules(FlopState):
    """Straddle order, run it twice, bomb pots' boards, the uncontested show, the rabbit."""

    _draw: Callable[[int], list[Card]]
    log: list[Event]
    _deck: list[Card]
    _next: int
    fix_deck: Callable[[], None]
    position: Callable[[int], int]
    _deal_board: Callable[[list[Event]], None]

    # ------------------------------------------------------------- the straddle

    def _straddle_order(self, order: tuple[int, ...]) -> tuple[int, ...]:
        """The pre-flop order with a straddle: a button straddle (Mississippi) opens under
        the gun and acts last; under the gun the order after the largest blind stands."""
        n, s = self.n, self.straddle_pos
        if s is None or s != n - 1 or s == self.bb_pos + 1:
            return order
        utg = self.bb_pos + 1
        first = [p for p in (*range(utg, n - 1), *range(utg)) if p in order]
        return (*first, *(p for p in order if p not in first))

    # ------------------------------------------------- decisions outside the betting

    def choosing(self) -> frozenset[int]:
        """The seats a decision outside the betting waits for."""
        if self.choice is None:
            return frozenset()
        return frozenset(self.seat_ids[p] for p, c in self.choices.items() if c is None)

    def choice_kinds(self, seat: int) -> tuple[str, ...]:
        """The choices ``seat`` may make now (empty: none is asked of them)."""
        if self.choice is None:
            return ()
        p = self.position(seat)
        if p not in self.choices or self.choices[p] is not None:
            return ()
        return CHOICES[self.choice]

    def _ask_runout(self, out: list[Event], live: list[int]) -> None:
        """No more betting before the river: the hands are shown, each player still in
        chooses to run the rest of the board once or twice."""
        self.choice = "runout"
        self.choices = {p: None for p in live}
        self.actors = []
        hands = {str(self.seat_ids[p]): _codes(self.hole[p]) for p in live}
        out.append(Event("runout_ask", {"seats": [self.seat_ids[p] for p in live], "hands": hands}))

    def _ask_show(self, winner: int, out: list[Event]) -> None:
        """An uncontested pot at a seven-deuce table: the winner shows or mucks."""
        self.choice = "show"
        self.choices = {winner: None}
        self.actors = []
        out.append(Event("show_ask", {"seat": self.seat_ids[winner]}))

    def _check_choice(self, action: Action) -> int:
        """The position of a legal choice in the decision the hand waits for; the typed
        refusal otherwise."""
        choice = self.choice
        assert choice is not None
        kind = action.kind
        p = self.position(action.seat)
        kinds = CHOICES[choice]
        if kind not in kinds:
            if choice == "runout":
                raise IllegalAction(f"cannot {kind}: the players still in choose Once or Twice now")
            raise IllegalAction(f"cannot {kind}: the winner shows or mucks now")
        if p not in self.choices:
            who = "the players still in" if choice == "runout" else "the pot's winner"
            raise NotYourTurn(f"only {who} choose now")
        if self.choices[p] is not None:
            raise IllegalAction(f"you already chose {self.choices[p]}")
        return p

    def _choose(self, action: Action) -> list[Event]:
        """Do one choice of the decision the hand waits for (typed refusals otherwise)."""
        choice = self.choice
        assert choice is not None
        p = self._check_choice(action)
        kind = action.kind
        self.choices[p] = kind
        seat = self.seat_ids[p]
        out: list[Event] = []
        if choice == "runout":
            data: dict[str, Any] = {"seat": seat, "choice": kind}
            if action.timed_out:
                data["timed_out"] = True
            out.append(Event("runout_choice", data, seat))
            if all(c is not None for c in self.choices.values()):
                self._decide_runout(out)
        else:
            self._decide_show(p, kind == "show", out)
        self.log.extend(out)
        return out

    def _decide_runout(self, out: list[Event]) -> None:
        twice = all(c == "twice" for c in self.choices.values())
        self.runs = 2 if twice else 1
        choices = {str(self.seat_ids[p]): c for p, c in sorted(self.choices.items())}
        self.choice = None
        out.append(Event("runout", {"count": self.runs, "choices": choices}))
        self._run_out(out)

    def _decide_show(self, p: int, show: bool, out: list[Event]) -> None:
        from bot.engine.flop.showdown import final_stacks, high_name, scores

        self.choice = None
        seat = self.seat_ids[p]
        result = self.result if self.result is not None else {}
        paid: list[dict[str, Any]] = []
        if show:
            codes = _codes(self.hole[p])
            data: dict[str, Any] = {"seat": seat, "cards": codes}
            if len(self.board) >= 3:
                data["high"] = high_name(scores(self, p)[0])
            out.append(Event("reveal", data))
            self.phh_actions.append(f"p{p + 1} sm {''.join(codes)}")
            result.setdefault("shown", {})[str(seat)] = {
                k: v for k, v in data.items() if k != "seat"
            }
            paid = pay_seven_deuce(self, [p], [p], out)
        else:
            out.append(Event("muck", {"seat": seat, "uncontested": True}))
        self.street = 5
        final = final_stacks(self)
        result["stacks"] = final
        if paid:
            result["seven_deuce"] = paid
        self.result = result
        out.append(Event("hand_over", {"stacks": final.copy()}))

    # ------------------------------------------------------------------ boards

    def _deal_boards(self, out: list[Event]) -> None:
        """A street on every board (a double board: board 1, then board 2)."""
        k = BOARD_CARDS[self.street]
        for b, board in enumerate(self.boards):
            self._deal_to(out, board, k, no=b + 1)

    def _deal_to(self, out: list[Event], board: list[Card], k: int, *, no: int) -> None:
        cards = self._draw(k)
        board.extend(cards)
        codes = _codes(cards)
        data: dict[str, Any] = {
            "street": STREET_OF[len(board)],
            "cards": codes,
            "board": _codes(board),
        }
        if self.runs > 1:
            data["run"] = no
        elif len(self.boards) > 1:
            data["board_no"] = no
        out.append(Event("board", data))
        self.phh_actions.append(f"d db {''.join(codes)}")

    def _run_out(self, out: list[Event]) -> None:
        """No more betting: every board to the river (twice when the players chose so),
        then the showdown."""
        from bot.engine.flop.showdown import showdown

        if self.runs > 1:
            before = len(self.board)
            second = self.board[:before]
            self.boards.append(second)
            for board, no in ((self.board, 1), (second, 2)):
                while len(board) < 5:
                    self._deal_to(out, board, 3 if len(board) == 0 else 1, no=no)
            self.street = 4
        else:
            while self.street < 4:
                self.street += 1
                self._deal_board(out)
        out.extend(showdown(self))

    # ------------------------------------------------------------------ rabbit

    def rabbit(self) -> list[dict[str, Any]]:
        """After a hand that ended before the river: the board cards that would have come,
        street by street and board by board as they would have been dealt (the deck's
        stored order; only cards nobody was dealt). Empty when there is nothing to hunt
        (the river was dealt, or the board was run twice); IllegalAction while the hand
        is played."""
        if self.street != 5:
            raise IllegalAction("the hand is not over")
        if self.runs > 1 or len(self.board) >= 5:
            return []
        self.fix_deck()
        deck, i = self._deck, self._next
        out: list[dict[str, Any]] = []
        dealt = len(self.board)
        for street in (2, 3, 4):
            k = BOARD_CARDS[street]
            if dealt >= {2: 3, 3: 4, 4: 5}[street]:
                continue  # this street was dealt
            for b in range(len(self.boards)):
                out.append(
                    {"street": STREETS[street], "board": b + 1, "cards": _codes(deck[i : i + k])}
                )
                i += k
        return out
