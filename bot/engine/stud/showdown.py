"""The end of a stud hand (RULES.md §4.9, §4.10): an uncontested pot, the showdown order,
the shown and mucked hands, and each pot's award, high-only, low-only or split high-low.

A game says how it scores a hand with :meth:`StudShowdown.scores`: one number per part of
the pot (``PARTS``: Razz ``("low",)``, Stud ``("high",)``, Stud Hi-Lo ``("high", "low")``),
the larger the better, -1 when the hand does not qualify for that part (an eight-or-better
low that is not there). A pot is shared between the parts some hand contesting it
qualifies for (cardroom rule, per pot: with no qualifying low among a pot's contestants,
the high hand takes all of it); an odd chip of a split goes to the high half. Each pot is
split on its own, with its own odd chip (RRP). Within a part the odd chips go to the winner
with the highest card by suit (of a low part: the lowest card by suit; every card a player
holds counts: RRP, Ties, games without a button), or, in Razz (RULES 4.10), to the first
winner clockwise from the dealer's left.
"""

from __future__ import annotations

from typing import Any, ClassVar

from bot.engine.cards import Card
from bot.engine.events import ChipMove, Event
from bot.engine.stud.core import CODE, StudCore, _new
from bot.engine.stud.pots import Pot, build_pots, split


class StudShowdown(StudCore):
    """The showdown of a stud hand; the game gives ``PARTS``, ``scores`` and ``names``."""

    __slots__ = ()

    #: The parts of every pot, in the order of :meth:`scores` (the first takes odd chips).
    PARTS: ClassVar[tuple[str, ...]] = ()
    #: pokerkit's showdown: a hand that wins nothing is out before the pots are shared, so
    #: pots left with the same contestants are shared as one (only the odd chips can move).
    #: Razz keeps its pots as they are (as it always has).
    MERGE_AFTER_SHOWDOWN: ClassVar[bool] = False

    def scores(self, cards: list[Card]) -> tuple[int, ...]:
        """A hand's score for each of ``PARTS`` (larger is better; -1: does not qualify)."""
        raise NotImplementedError

    def names(self, score: tuple[int, ...]) -> dict[str, Any]:
        """The show event's names of a scored hand, by part ({"low": "8-6-4-2-A"})."""
        raise NotImplementedError

    def _split(self, chips: int, winners: list[int], part: str) -> dict[int, int]:
        """Share one part of a pot: equal shares, the odd chips to one winner (the class
        docstring: by suit, or the first from the dealer's left)."""
        if not self.ODD_CHIP_BY_SUIT or len(winners) < 2 or chips % len(winners) == 0:
            return split(chips, winners)
        if part == "low":  # the lowest card by suit, aces low
            first = min(
                winners, key=lambda p: min((c.low_rank, c.suit) for c in self.hole_cards(p))
            )
        else:  # the highest card by suit
            first = max(winners, key=lambda p: max(self.hole_cards(p)))
        share, odd = divmod(chips, len(winners))
        out = dict.fromkeys(sorted(winners), share)
        out[first] += odd
        return out

    def _award_uncontested(self, winner: int, out: list[Event]) -> None:
        """Everyone else folded: the last player takes the pot. Their bet nobody called
        went back first; with nothing else in (no antes, everyone folding to the bring-in)
        the pot is empty and no chip moves (issue 19 item 17: the hand ends all the same)."""
        amount = sum(self.contrib)
        seat = self.seat_ids[winner]
        self.stacks[winner] += amount
        self.contrib = [0] * self.n
        self.street = 8
        final = self._final_stacks()
        self.result = {
            "showdown": False,
            "pots": [{"amount": amount, "winners": [seat], "shares": {str(seat): amount}}],
            "shown": {},
            "mucked": [],
            "stacks": final,
        }
        out.append(
            _new(
                Event,
                (
                    "award",
                    {"pot": 0, "seat": seat, "amount": amount, "uncontested": True},
                    None,
                    (_new(ChipMove, (seat, -amount, "award")),) if amount else (),
                ),
            )
        )
        out.append(_new(Event, ("hand_over", {"stacks": final.copy()}, None, ())))

    def showdown_order(self) -> list[int]:
        """§4.9: the last 7th-street bettor/raiser shows first, else the 7th-street opener;
        then clockwise."""
        live = [p for p in range(self.n) if not self.folded[p]]
        first = self.last_aggressor
        if first is None:
            first = self.seventh_opener
        if first is None:
            first = min(live, key=lambda p: self.opening_key(self.up[p]))
        return sorted(live, key=lambda p: (p - first) % self.n)

    def _pot_parts(
        self, pot: Pot, scores: dict[int, tuple[int, ...]]
    ) -> list[tuple[str, int, list[int]]]:
        """(part, chips, winning positions) of one pot."""
        eligible = pot.eligible
        if len(self.PARTS) == 1:
            best = max(scores[p][0] for p in eligible)
            return [(self.PARTS[0], pot.amount, [p for p in eligible if scores[p][0] == best])]
        parts = [k for k in range(len(self.PARTS)) if any(scores[p][k] >= 0 for p in eligible)]
        # The first part (high) takes the odd chip of a split.
        low = pot.amount // len(parts)
        out = []
        for i, k in enumerate(parts):
            chips = pot.amount - low * (len(parts) - 1) if i == 0 else low
            best = max(scores[p][k] for p in eligible)
            out.append((self.PARTS[k], chips, [p for p in eligible if scores[p][k] == best]))
        return out

    def _showdown(self) -> list[Event]:
        out: list[Event] = []
        live = [p for p in range(self.n) if not self.folded[p]]
        order = self.showdown_order()
        extra = [self.community] if self.community is not None else []
        scores = {p: self.scores([*self.down[p], *self.up[p], *extra]) for p in live}
        pots = build_pots(self.contrib, [not f for f in self.folded])
        if self.MERGE_AFTER_SHOWDOWN and not self.POTS_APART:
            winning = {p for pot in pots for _, _, w in self._pot_parts(pot, scores) for p in w}
            pots = build_pots(self.contrib, [p in winning for p in range(self.n)])
        best_shown: dict[tuple[int, int], int] = {}
        shown: dict[str, Any] = {}
        mucked: list[int] = []
        reveal_all = self.rules.showdown_reveal == "all"
        phh_extra = (
            CODE[self.community]
            if self._phh_community_in_hole and self.community is not None
            else ""
        )
        for p in order:
            seat = self.seat_ids[p]
            score = scores[p]
            mine = [k for k, pot in enumerate(pots) if p in pot.eligible]
            could_win = any(
                s >= 0 and s >= best_shown.get((k, i), -1)
                for k in mine
                for i, s in enumerate(score)
            )
            if reveal_all or could_win:
                names = self.names(score)
                codes = [CODE[c] for c in self.hole_cards(p)]
                shown[str(seat)] = {"cards": codes, **names}
                for k in mine:
                    for i, s in enumerate(score):
                        best_shown[k, i] = max(best_shown.get((k, i), -1), s)
                data = {"seat": seat, "cards": codes[:], **names}
                out.append(_new(Event, ("show", data, None, ())))
                self.phh_actions.append(f"p{p + 1} sm {''.join(codes)}{phh_extra}")
            else:
                mucked.append(seat)
                out.append(_new(Event, ("muck", {"seat": seat}, None, ())))
                self.phh_actions.append(f"p{p + 1} sm")
        pot_results = []
        for k, pot in enumerate(pots):
            parts = self._pot_parts(pot, scores)
            shares: dict[int, int] = {}
            part_shares: list[dict[int, int]] = []
            for part, chips, winners in parts:
                got = self._split(chips, winners, part)
                part_shares.append(got)
                for p, amount in got.items():
                    shares[p] = shares.get(p, 0) + amount
            for p in sorted(shares):
                amount = shares[p]
                seat = self.seat_ids[p]
                self.stacks[p] += amount
                out.append(
                    _new(
                        Event,
                        (
                            "award",
                            {"pot": k, "seat": seat, "amount": amount},
                            None,
                            (_new(ChipMove, (seat, -amount, "award")),),
                        ),
                    )
                )
            entry: dict[str, Any] = {
                "amount": pot.amount,
                "winners": [self.seat_ids[p] for p in sorted(shares)],
                "shares": {str(self.seat_ids[p]): shares[p] for p in sorted(shares)},
            }
            if len(self.PARTS) > 1:
                entry["parts"] = [
                    {
                        "part": part,
                        "amount": chips,
                        "winners": [self.seat_ids[p] for p in w],
                        "shares": {str(self.seat_ids[p]): a for p, a in sorted(got.items())},
                    }
                    for (part, chips, w), got in zip(parts, part_shares, strict=True)
                ]
            pot_results.append(entry)
        self.contrib = [0] * self.n
        self.street = 8
        self.result = {
            "showdown": True,
            "pots": pot_results,
            "shown": shown,
            "mucked": mucked,
            "stacks": self._final_stacks(),
        }
        out.append(_new(Event, ("hand_over", {"stacks": self._final_stacks()}, None, ())))
        return out
