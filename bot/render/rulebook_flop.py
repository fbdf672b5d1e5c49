"""The rules of the flop games, Texas Hold'em and Omaha (§6 of docs/rules.md): the parts
``/rules holdem`` and ``/rules omaha`` show, and the cardroom choices the bot makes where
the games' usual texts leave one (Robert's Rules of Poker; pokerkit's reading where even
those are silent). :mod:`bot.render.rulebook` includes them in the book.
"""

from __future__ import annotations

from bot.engine.flop.rules import FlopRules
from bot.render.rulebook_parts import Part, Rule

GAMES = ("holdem", "omaha")
TITLES = {"holdem": "Hold'em", "omaha": "Omaha"}

FLOP_PROCEDURE = Part(
    "Procedure",
    (
        Rule(
            "6.1",
            "One 52-card deck, 2 to 9 players. **Hold'em**: two cards down to each player; "
            "**Omaha**: four. Then five cards face up for all (the **board**): three on the "
            "**flop**, one on the **turn**, one on the **river**. A betting round before the "
            "flop and after each of them.",
        ),
        Rule(
            "6.2",
            "Hold'em plays the best five of your two cards and the board, in any mix. Omaha "
            "plays **exactly two** of your four cards with **exactly three** of the board.",
        ),
        Rule(
            "6.3",
            "The first **button** goes to the highest of one card dealt to each player (ace "
            "high; ties ♠ > ♥ > ♦ > ♣); from then on the blinds move by the dead-button "
            "rule (6.14). The first player left of the button posts the **small blind**, the "
            "next the **big blind** (5 and 10 by default). **Heads-up** the button posts the "
            "small blind and acts first before the flop, last after it.",
        ),
        Rule(
            "6.4",
            "Antes (`ante`, none by default) are paid by everyone before the blinds; with "
            "`bb_ante` the big blind alone posts one ante for the table, dead money in the "
            "main pot.",
        ),
        Rule(
            "6.5",
            "Before the flop the player left of the big blind acts first; after it, the "
            "first player still in left of the button. Each may fold (even when checking is "
            "free), check when nothing is owed, call, bet or raise.",
        ),
        Rule(
            "6.6",
            "**Betting** (`betting`): `no-limit` (Hold'em's default): any bet up to all your "
            "chips. `pot-limit` (Omaha's default): at most the pot after your call, added to "
            "the call. `fixed-limit`: bets and raises of the small bet (the big blind) before "
            "the turn and of the big bet (twice it) from the turn; **a bet and three raises** "
            "per round while three or more players not all-in contest it (before the flop "
            "the big blind is the bet: the blind and three raises). **Heads-up** (two players "
            "not all-in, before the cap is reached) the raising has no cap; a round capped "
            "three-handed stays capped when a fold leaves two. The smallest bet is the big "
            "blind; a raise is **at least the last full bet or raise of the round**. A big "
            "blind all in for less does not lower the price: the others still owe the full "
            "big blind, and the minimum raise counts from it.",
        ),
        Rule(
            "6.7",
            "**All-in**: nobody loses more than they have; the chips beyond what an all-in "
            "player could match make **side pots**, each contested by those who put it in. "
            "**Fixed limit: the half-bet rule**: an all-in of half a bet or more counts as a "
            "full bet or raise (it reopens the betting and counts toward the cap); a smaller "
            "one does **not reopen** the betting for a player who already acted and faces "
            "less than half a bet (they may only call or fold), and the next player may "
            "complete it: a raise goes one full bet over the last full bet or raise (an "
            "all-in bet of 4 at 10/20 is completed to 10). **No-limit and pot-limit: the "
            "full-raise rule**: an all-in smaller than a full raise does **not reopen** the "
            "betting for who already acted. Chips nobody called go back at the end of the "
            "round; a forced bet nobody calls goes back too (heads-up with `small_blind` 0, "
            "when the small blind folds the big blind takes its blind back, no chip changes "
            "hands, and the next hand is dealt).",
        ),
        Rule(
            "6.8",
            "When no more betting is possible (all but one player are all-in), the hands are "
            "shown and the board is dealt to the river.",
        ),
        Rule(
            "6.9",
            "**Showdown**: the last to bet or raise in the last round shows first (nobody "
            "bet: the first left of the button), then clockwise. House rule "
            "`showdown_reveal`: `all` (default) shows every hand, `winners` lets a hand that "
            "cannot win be mucked.",
        ),
        Rule(
            "6.10",
            "**Omaha Hi-Lo** (`split: hi-lo`, eight or better): each pot is split between "
            "the best high hand and the best **low**: five different ranks of 8 or lower, "
            "again two from the hand and three from the board, aces low, straights and "
            "flushes ignored (best low A-2-3-4-5). No qualifying low: the high hand **takes "
            "the whole pot (no low)**. One hand may win both halves.",
        ),
        Rule(
            "6.11",
            "Equal hands split a pot (two equal lows each take a quarter: a **quartered** "
            "pot). **Each pot is split on its own**, main and side, with its own odd chip, "
            "even when two pots have the same winners. Odd chips: a split pot's odd chip "
            "goes to the high half; within a half, to the first winner left of the button "
            "(Robert's Rules of Poker, Ties).",
        ),
        Rule(
            "6.12",
            "On a timeout the bot checks when nothing is owed, else folds; a hand where "
            "nobody acted at all pauses the table.",
        ),
    ),
)

FLOP_RANKING = Part(
    "Ranking",
    (
        Rule(
            "6.13",
            "Standard high poker, best first: straight flush (the royal flush its best), "
            "four of a kind, full house, flush, straight, three of a kind, two pair, one "
            "pair, high card. A-2-3-4-5 is the lowest straight; suits never break a tie.",
        ),
    ),
)

FLOP_SILENT = Part(
    "Where the texts are silent",
    (
        Rule(
            "6.14",
            "**The dead button** (Robert's Rules of Poker's rule; the bot follows it rather "
            "than the TDA's): the **big blind** moves to the next player on the left each "
            "hand; the **small blind** is last hand's big blind (gone: no small blind this "
            "hand, a dead small blind); the **button** goes to last hand's small blind's seat, "
            "even an empty one (a dead button). Heads-up the button posts the small blind; "
            "from heads-up to three players the button goes to the player before the small "
            "blind. So nobody posts the big blind twice in a row or skips it when a player "
            "busts, leaves or arrives. A player who sits down after the first hand **waits "
            "for the big blind** (dealt in when it reaches them) or presses **Post big "
            "blind** to play the next hand: the posted big blind is live (they act in turn "
            "and may check when nobody raised); one sitting between the button and the big "
            "blind waits a hand more. Back from sitting out: see 5.8. A voided hand is dealt "
            "again from the same blinds.",
        ),
        Rule(
            "6.15",
            "**Minimum raise**: the largest full bet or raise of the round (at least the big "
            "blind); short all-ins add up, and once together they make a full raise the "
            "betting reopens.",
        ),
        Rule(
            "6.16",
            "Elsewhere the bot plays as pokerkit's Hold'em and Omaha do: a player who can "
            "lose nothing more is not asked to act, antes above every other player's are "
            "partly returned. pokerkit 0.7.7 departs from Robert's Rules in the fixed-limit "
            "cap before the flop and heads-up, the short all-in big blind, the limit all-in "
            "rule, separate pots and folding when checking is free; the bot plays Robert's "
            "Rules (its hand histories replay in pokerkit but for those hands).",
        ),
    ),
)

PARTS: dict[str, tuple[Part, ...]] = {
    "holdem": (FLOP_PROCEDURE, FLOP_RANKING, FLOP_SILENT),
    "omaha": (FLOP_PROCEDURE, FLOP_RANKING, FLOP_SILENT),
}

SECTIONS: tuple[tuple[str, str, tuple[Part, ...], tuple[str, ...]], ...] = (
    ("6", "Hold'em and Omaha", (FLOP_PROCEDURE, FLOP_RANKING, FLOP_SILENT), GAMES),
)


UNSET_DEFAULTS = {
    "min_bet": "the big blind",
    "small_bet": "the big blind",
    "big_bet": "twice the small bet",
    "dead_antes": "a big-blind ante only",
}
"""What a house rule left unset means, in the words ``/rules`` shows for its default."""


def _default_words(name: str, value: str) -> str:
    """A default as a player reads it: ``off``/``on``, not Python's ``False``/``True``; an
    unset one says what it falls back to, never ``None``."""
    if value in ("False", "True"):
        return "on" if value == "True" else "off"
    if value == "None":
        return UNSET_DEFAULTS.get(name, "not set")
    return value


def house_rules(game: str) -> list[tuple[str, str, str]]:
    """(name, default, meaning) of each house rule of a flop game (Omaha's betting is
    pot-limit unless the table says otherwise). Hold'em has no ``split`` option (its
    command has none): only Omaha's row says it."""
    model = FlopRules(game="omaha", betting="pot-limit") if game == "omaha" else FlopRules()
    return [
        (name, _default_words(name, value), desc)
        for name, value, desc in model.describe()
        if name != "game" and not (name == "split" and game != "omaha")
    ]
