"""The guts family's adapter (Zoot, Wheelers) behind :class:`~bot.tables.games.GameFamily`:
a table plays a sequence of *games* with a pot that may carry over (RULES §1).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from bot.engine.actions import Action, ActionOption
from bot.engine.cards import Card
from bot.engine.errors import IllegalAction, NotYourTurn
from bot.engine.events import Event
from bot.engine.guts import GutsGame, GutsRules, GutsSetup, NotEnoughPlayers, next_game
from bot.engine.guts import policy as guts_policy
from bot.engine.guts.history import to_history
from bot.engine.shuffle import SeededShuffle
from bot.render.text import format_chips as _c
from bot.render.text import hand_name_text
from bot.tables.games import (
    GameFamily,
    HandEnd,
    NameOf,
    SeatCards,
    SeatShow,
    _cards_text,
    _merge_settings,
    can_play,
)


class GutsFamily(GameFamily):
    """Zoot and Wheelers. Session: the next game's setup (dealer, carried pot by seat,
    excused, away, idle counts), from :func:`next_game`."""

    def __init__(self, rules: GutsRules) -> None:
        self.rules = rules
        self.game = rules.game
        self.engine: GutsGame | None = None
        self.next_setup: GutsSetup | None = None
        self.chosen: dict[int, str] = {}
        self.deal_after: int | None = None
        """A mixed table's last dealer before this game's first (see follow_deal)."""

    @classmethod
    def parse(
        cls, game: str, options: Mapping[str, Any], settings: Mapping[str, Any] | None = None
    ) -> GutsFamily:
        values = _merge_settings(settings, options)
        values["game"] = game
        return cls(GutsRules.parse(**values))

    @property
    def rules_json(self) -> dict[str, Any]:
        return self.rules.model_dump()

    def describe_rules(self) -> tuple[tuple[str, str, str], ...]:
        return tuple(self.rules.describe())

    @property
    def decision_seconds(self) -> int:
        return self.rules.decision_seconds

    @property
    def min_players(self) -> int:
        return max(2, self.rules.min_players)

    @property
    def max_players(self) -> int:
        return self.rules.max_players

    def session_json(self) -> dict[str, Any]:
        return {
            "engine": None if self.engine is None else self.engine.snapshot(),
            "next_setup": None if self.next_setup is None else self.next_setup.to_json(),
            "chosen": {str(s): c for s, c in self.chosen.items()},
            "deal_after": self.deal_after,
        }

    def load(self, raw: Mapping[str, Any]) -> None:
        eng = raw.get("engine")
        self.engine = None if eng is None else GutsGame.restore(eng)
        nxt = raw.get("next_setup")
        self.next_setup = None if nxt is None else GutsSetup.from_json(nxt)
        self.chosen = {int(s): str(c) for s, c in raw.get("chosen", {}).items()}
        self.deal_after = raw.get("deal_after")

    def follow_deal(self, last_dealer: int | None) -> None:
        self.next_setup = None
        self.deal_after = last_dealer

    @property
    def hand_over(self) -> bool:
        return self.engine is not None and self.engine.over

    def _setup(self, stacks: Mapping[int, int], away: frozenset[int]) -> GutsSetup:
        seats = tuple(sorted(stacks))
        prev = self.next_setup
        if prev is None:
            dealer = seats[-1]  # the first seat sits on the dealer's left
            if self.deal_after is not None:  # a mixed table's deal moves on clockwise
                later = [s for s in seats if s > self.deal_after]
                dealer = later[0] if later else seats[0]
            return GutsSetup(seats=seats, stacks=dict(stacks), dealer=dealer, away=away)
        if prev.dealer in seats:
            dealer = prev.dealer
        else:
            # the dealer button's seat left: the next seat clockwise deals
            later = [s for s in seats if s > prev.dealer]
            dealer = later[0] if later else seats[0]
        return GutsSetup(
            seats=seats,
            stacks=dict(stacks),
            dealer=dealer,
            pot=dict(prev.pot),
            excused=frozenset(s for s in prev.excused if s in stacks),
            away=away,
            idle={s: n for s, n in prev.idle.items() if s in stacks and s not in away},
        )

    def short_of_chips(self, chips: int) -> str | None:
        ante = self.rules.ante
        if chips <= 0:
            return "is out of chips"
        return (
            f"has {_c(chips)} chips, less than the {_c(ante)}-chip ante" if chips < ante else None
        )

    def start_reason(self, stacks: Mapping[int, int], away: frozenset[int]) -> str | None:
        if len(stacks) < self.min_players:
            return f"a game needs {self.min_players} players; {len(stacks)} seated"
        setup = self._setup(stacks, away)
        can = [
            s
            for s in setup.seats
            if s not in away and (s in setup.excused or stacks[s] >= self.rules.ante)
        ]
        if len(can) < self.min_players:
            short = f"cannot pay the {self.rules.ante}-chip ante"
            who = can_play(len(can), len(stacks), short=short)
            return f"{who}; a game needs {self.min_players}"
        return None

    def start_hand(
        self,
        stacks: Mapping[int, int],
        away: frozenset[int],
        rng: random.Random,
        *,
        seed: str | None = None,
        blinds: Mapping[int, str] | None = None,
    ) -> list[Event]:
        shuffler = rng if seed is None else SeededShuffle(seed)
        game = GutsGame(self.rules, self._setup(stacks, away), rng=shuffler)
        try:
            events = game.start()
        except NotEnoughPlayers as exc:
            raise IllegalAction(exc.message) from None
        self.engine = game
        self.chosen = {}
        self._track(events)
        return events

    def _game(self) -> GutsGame:
        if self.engine is None:
            raise NotYourTurn("no game is being played at this table")
        return self.engine

    def to_act(self) -> frozenset[int]:
        return frozenset() if self.engine is None else self.engine.to_act()

    def in_hand(self, seat: int) -> bool:
        return self.engine is not None and seat in self.engine.players

    def check(self, action: Action) -> None:
        game = self._game()
        if action.kind in ("lay_down", "play_on", "discard"):
            err = game.can(action)
            if err is not None:
                game.apply(action)  # raises the engine's typed refusal, changing nothing
            return
        raise IllegalAction(
            f"{action.kind!r} is not a guts action (use lay_down, play_on, discard)"
        )

    def _track(self, events: Sequence[Event]) -> None:
        for e in events:
            if e.kind in ("window_opened", "discard_opened", "game_started"):
                self.chosen = {}
            elif e.kind == "choice":
                self.chosen[int(e.data["seat"])] = str(e.data["choice"])
            elif e.kind == "discard":
                self.chosen[int(e.data["seat"])] = f"discard {e.data['card']}"

    def apply(self, action: Action) -> list[Event]:
        events = self._game().apply(action)
        self._track(events)
        return events

    def timeout(self) -> tuple[list[Event], list[tuple[int, str]]]:
        game = self._game()
        pending = sorted(game.to_act())
        what = "discards for them" if game.phase == "discard" else "plays on"
        events = game.timeout()
        self._track(events)
        return events, [(s, what) for s in pending]

    def default_action(self, seat: int) -> Action:
        return self._game().default_action(seat)

    def computer_action(self, seat: int, rng: random.Random) -> Action:
        return guts_policy.choose(self._game(), seat, rng)

    def options(self, seat: int) -> list[ActionOption]:
        if self.engine is None:
            return [
                ActionOption(k, False, "no game is being played")
                for k in ("lay_down", "play_on", "discard")
            ]
        return self.engine.legal_actions(seat)

    def public_options(self) -> tuple[ActionOption, ...]:
        return ()  # every guts choice is private (the DM's controls)

    def finish(self, names: NameOf) -> HandEnd:
        game = self._game()
        result = game.result
        nxt = next_game(game)
        self.next_setup = nxt.setup
        pause = nxt.pause_reason if nxt.pause and not game.last_round_acted else None
        detail = {
            s: {"cards": [str(c) for c in h.cards], "name": h.name} for s, h in result.hands.items()
        }
        return HandEnd(
            history=to_history(game),
            summary=result.to_json(),
            winners=frozenset(result.winners),
            newly_away=nxt.newly_away,
            pause_reason=pause,
            detail=detail,
        )

    def void(self) -> None:
        game = self._game()
        # the voided game's own chips go back; it restarts from the same setup
        self.next_setup = game.setup
        self.engine = None
        self.chosen = {}

    @property
    def pot(self) -> int:
        if self.engine is not None:
            return self.engine.pot
        return 0 if self.next_setup is None else self.next_setup.pot_total

    @property
    def dealer(self) -> int | None:
        if self.engine is not None:
            return self.engine.setup.dealer
        return None if self.next_setup is None else self.next_setup.dealer

    def stacks(self) -> dict[int, int]:
        return {} if self.engine is None else dict(self.engine.stacks)

    def seat_show(self, seat: int) -> SeatShow:
        game = self.engine
        if game is None or seat not in game.setup.seats:
            return SeatShow("waiting", None)
        stack = game.stacks.get(seat)
        if seat not in game.players:
            reason = game.sitting_out.get(seat, "")
            return SeatShow("away" if reason == "away" else "sitting_out", stack)
        shown = None
        name = None
        if game.over and seat in game.result.hands:
            h = game.result.hands[seat]
            shown, name = h.cards, h.name
        status = "out" if seat in game.dead else "playing"
        return SeatShow(status, stack, shown=shown, hand_name=name)

    def seat_cards(self, seat: int) -> SeatCards:
        game = self.engine
        if game is None or seat not in game.players:
            return SeatCards()
        hand = game.hand(seat)
        if len(hand) != 5:
            return SeatCards(cards=hand, down=hand, chosen=self.chosen.get(seat))
        return SeatCards(
            cards=hand,
            down=hand,
            hand_name=game.ranking.name(hand),
            strength=game.ranking.strength(hand),
            chosen=self.chosen.get(seat),
        )

    def community(self) -> tuple[Card, ...]:
        return ()

    def phase_text(self) -> str:
        game = self.engine
        if game is None:
            return "waiting for players"
        if game.phase == "window":
            how = "in turn" if self.rules.laydown_order == "in_turn" else "in secret"
            return f"lay-down window {game.round} ({how})"
        if game.phase == "discard":
            return f"discard (exchange {game.round})"
        if game.phase == "paused":
            return "paused: nobody acted in a whole round"
        if game.phase == "over":
            return "showdown"
        return "dealing"

    @property
    def paused(self) -> bool:
        return self.engine is not None and self.engine.paused

    def resume(self) -> list[Event]:
        events = self._game().resume()
        self._track(events)
        return events

    def new_turn(self, events: Sequence[Event]) -> bool:
        if self.rules.laydown_order == "in_turn":
            return any(e.kind in ("played_on", "window_opened", "discard_opened") for e in events)
        return any(e.kind in ("window_opened", "discard_opened") for e in events)

    def describe(self, event: Event, name: NameOf) -> str | None:
        d = event.data
        if not event.public:
            return None
        k = event.kind
        if k == "game_started":
            return f"New game: {name(d['dealer'])} deals, ante {_c(d['ante'])}, pot {_c(d['pot'])}"
        if k == "ante":
            return f"{name(d['seat'])} antes {_c(d['amount'])}"
        if k == "ante_excused":
            return f"{name(d['seat'])} is excused from the ante"
        if k == "laid_down":
            return f"{name(d['seat'])} lays down"
        if k == "played_on":
            return f"{name(d['seat'])} plays on"
        if k == "window_closed":
            if d["challenger"] is None:
                return "Nobody laid down"
            downs = ", ".join(name(s) for s in d["lay_downs"])
            return f"Laid down: {downs}; {name(d['challenger'])} is the challenger"
        if k == "out":
            return f"{name(d['seat'])} is out: {d['reason']}"
        if k == "exchanged":
            return "Everyone has drawn a card"
        if k == "refill":
            return f"The discards are shuffled into the stock ({d['count']} cards)"
        if k == "paused":
            return f"Table paused: {d['reason']}"
        if k == "resumed":
            return "Table resumed"
        if k == "award":
            return f"{name(d['seat'])} wins {_c(d['amount'])}"
        if k == "match":
            return f"{name(d['seat'])} matches the pot: {_c(d['amount'])} carries over"
        return None

    def result_text(self, events: Sequence[Event], name: NameOf) -> str | None:
        show = next((e for e in events if e.kind == "showdown"), None)
        over = next((e for e in events if e.kind == "game_over"), None)
        if over is None:
            return None
        lines: list[str] = []
        if show is not None:
            ch = int(show.data["challenger"])
            for s, h in show.data["hands"].items():
                mark = " (challenger)" if int(s) == ch else ""
                lines.append(
                    f"{name(int(s))}{mark}: {_cards_text(h['cards'])} — {hand_name_text(h['name'])}"
                )
        res = over.data["result"]
        for s, a in res["awards"].items():
            lines.append(f"{name(int(s))} wins {_c(a)}")
        if res["matched"]:
            lines.append(
                f"{name(int(res['challenger']))} matches {_c(res['matched'])}: it carries over"
            )
        return "\n".join(lines)

    def seat_left(self, seat: int) -> None:
        # its chips in a carried pot stay there (by the ledger); it just no longer plays
        return None

    # ---- pace: Play on / Lay down chosen in advance for the next window
    def advance_offers(self, seat: int) -> tuple[str, ...]:
        game = self.engine
        if game is None or game.over or game.paused or seat not in game.live:
            return ()
        if game.phase == "window" and seat in game.to_act():
            return ()  # the window is theirs now: its own buttons choose
        return ("lay_down", "play_on")

    def advance_action(self, seat: int, choice: str, amount: int | None) -> Action | bool:
        game = self.engine
        if game is None or game.phase != "window":
            return True  # a discard round: the choice waits for the next window
        action = Action(seat, choice)
        return action if game.can(action) is None else False
