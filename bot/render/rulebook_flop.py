"""The rules of the flop games, Texas Hold'em and Omaha (§6 of docs/rules.md): the parts
``/rules holdem`` and ``/rules omaha`` show, and the cardroom choices the bot makes where
the games' usual texts leave one (Robert's Rules of Poker; pokerkit's reading where even
those are silent). :mod:`bot.render.rulebook` includes them in the book.
"""

from __future__ import annotations

from bot import games as registry
from bot.engine.flop.rules import FlopRules
from bot.render.rulebook_parts import Part, Rule

GAMES = registry.keys(family="flop")
TITLES = {game: registry.title(game) for game in GAMES}

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

FLOP_HOUSE = Part(
    "What home games play",
    (
        Rule(
            "6.17",
            "**House options** of `/holdem`, `/omaha` and `/dealers-choice` (its Hold'em and "
            "Omaha games): `straddle`, `run_it_twice`, `bomb_pot_every` (with "
            "`bomb_pot_ante` and `bomb_pot_double_board`), `seven_deuce` (Hold'em) and "
            "`rabbit_hunt`. The host (or Manage Server) changes them between hands with "
            "`/table house`: announced at once, played from the next hand (the hand being "
            "played keeps its own).",
        ),
        Rule(
            "6.18",
            "**Straddle** (`straddle`: `under-the-gun`, the player after the big blind, or "
            "`button`): before the deal that player gets **Straddle** / **No straddle** in "
            "their hand DM and on the table message (10 seconds; no straddle when the time "
            "runs out, a choice deals at once). A straddle is a live blind raise of **twice "
            "the big blind**: the straddler acts **last before the flop**, the price is the "
            "straddle and the "
            "smallest raise is one straddle more (no-limit, pot-limit); in fixed limit it "
            "is the round's first raise and counts toward the cap. Under the gun, the "
            "player after the straddle opens. On the button (the **Mississippi "
            "straddle**): the player under the gun still opens, the action goes round to "
            "the cutoff, then the blinds, and the button acts last. "
            "No straddle heads-up, on a table's first hand (its button is drawn at the "
            "deal), in a bomb pot, for a player posting a big blind to come in, or for one "
            "without more chips than the straddle. Computer players do not straddle.",
        ),
        Rule(
            "6.19",
            "**Run it twice** (`run_it_twice: ask`): when no more betting is possible "
            "before the river, the hands are shown and each player still in gets **Once** / "
            "**Twice** in their hand DM (15 seconds; **Once** when the time runs out). If "
            "all choose Twice, the rest of the board is dealt **twice** from the same deck "
            "(run 1 to the river, then run 2; the cards already out count in both) and "
            "**each pot is split between the runs**, main and side alike, the odd chip to "
            "run 1; each run's half is won on that run's board as 6.9-6.11 say (Omaha Hi-Lo "
            "splits each half high and low). One Once: the board is dealt once. A "
            "double-board hand is not run twice. Computer players choose Twice.",
        ),
        Rule(
            "6.20",
            "**Bomb pot**: `/table bomb-pot ante: double_board:` (host or Manage Server) "
            "makes the next hand one; `bomb_pot_every: N` makes every N-th hand one (the "
            "ante `bomb_pot_ante`, twice the big blind by default; two boards with "
            "`bomb_pot_double_board`). Every player the hand deals **antes** (all in for "
            "less when short), no blinds, **no betting before the flop**: the hand starts on "
            "the flop, the first player left of the button first; the smallest bet is the "
            "big blind. The button and the blinds move on as after any hand (nobody posts "
            "them in the bomb pot); a newcomer waiting for the big blind waits on, one who "
            "chose to post plays it without posting. **Double board** (`double_board: "
            "true`): each street is dealt on two boards, board 1 then board 2, and **each "
            "pot is split between the boards**, the odd chip to board 1, each half won on "
            "its board. At a dealer's-choice table the bomb pot is its next Hold'em or "
            "Omaha hand.",
        ),
        Rule(
            "6.21",
            "**Seven-deuce** (`seven_deuce: N`, Hold'em): whoever wins a pot, or part of "
            "one, with **7-2 offsuit** and shows it is paid **N by every other player dealt "
            "in** (folded ones too) from what they have left after the pots; a player with "
            "less pays what they have. The ledger books it (kind `seven_deuce`). At a "
            "showdown the winning hand is shown; when everyone else folds, the winner gets "
            "**Show** / **Muck** in their hand DM (10 seconds, Muck when the time runs out). "
            "Every uncontested winner at such a table is asked, whatever they hold, so the "
            "question says nothing of their cards. 7-2 suited is no seven-deuce. Computer "
            "players show a 7-2 offsuit and muck anything else.",
        ),
        Rule(
            "6.22",
            "**Rabbit hunt** (`rabbit_hunt`, on by default): after a hand that ended before "
            "the river, its result carries a **Rabbit** button; pressed, the result shows "
            "the cards the board would have had: the next cards of that hand's deck, in the "
            "order they would have been dealt (two boards: each street board 1 then board "
            "2; a verifiable table: the seed's deck, as `python -m bot verify` computes "
            "it), never a card anyone was dealt. It changes no chip and no hand; the table "
            "keeps the last 10 hands' rabbits. **Off in tournaments** (their tables play "
            "with `rabbit_hunt` off).",
        ),
    ),
)

PARTS: dict[str, tuple[Part, ...]] = {
    "holdem": (FLOP_PROCEDURE, FLOP_RANKING, FLOP_SILENT, FLOP_HOUSE),
    "omaha": (FLOP_PROCEDURE, FLOP_RANKING, FLOP_SILENT, FLOP_HOUSE),
}

SECTIONS: tuple[tuple[str, str, tuple[Part, ...], tuple[str, ...]], ...] = (
    ("6", "Hold'em and Omaha", (FLOP_PROCEDURE, FLOP_RANKING, FLOP_SILENT, FLOP_HOUSE), GAMES),
)


UNSET_DEFAULTS = {
    "min_bet": "the big blind",
    "small_bet": "the big blind",
    "big_bet": "twice the small bet",
    "dead_antes": "a big-blind ante only",
    "bomb_pot_ante": "twice the big blind",
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
        if name != "game"
        and not (name == "split" and game != "omaha")
        and not (name == "seven_deuce" and game != "holdem")
    ]
