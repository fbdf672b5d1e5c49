"""The rules of Seven-card Stud and Stud Hi-Lo (section 8 of the rule book): ``/rules
stud`` shows them and docs/rules.md includes them (:mod:`bot.render.rulebook`).

Stud is Razz's procedure (section 4) with the other bring-in, opener and showdown, so the
text says what differs and points at section 4 for the rest. The house rules and their
defaults come from the engine's rules model (``StudRules.describe``) and the table's
``split`` option, the rows a table announces (:meth:`bot.tables.stud.StudFamily.describe_rules`).
"""

from __future__ import annotations

from bot.engine.stud.rules import StudRules
from bot.render.rulebook_parts import Part, Rule

GAME = "stud"
TITLE = "Seven-card Stud"
SECTION = "8"
HEADING = "Seven-card Stud and Stud Hi-Lo"

SPLIT_ROW = (
    "split",
    "high",
    "'high': the best high hand wins; 'hi-lo': split high and eight-or-better low",
)

STUD_PROCEDURE = Part(
    "Procedure",
    (
        Rule(
            "8.1",
            "Seven-card stud, 2 to 8 players. `/stud split:high` (the default) plays "
            "**Seven-card Stud**: the best five-card high hand wins. `split:hi-lo` plays "
            "**Stud Hi-Lo, eight or better**: each pot is shared between the best high hand "
            "and the best low (8.8).",
        ),
        Rule(
            "8.2",
            "Fixed limit, with Razz's stakes (ante, bring-in, small bet, big bet: 2 / 5 / 10 "
            "/ 20 by default): small bet on 3rd and 4th street, big bet from 5th. In Stud "
            "(high), **a pair showing on 4th street** (cardroom rule): any player may then "
            "bet or raise the big bet on 4th street instead of the small one, and once the "
            "big bet is made every later raise on 4th street is big. In Stud Hi-Lo an open "
            "pair does not change the limit (cardroom rule, as Robert's Rules of Poker).",
        ),
        Rule(
            "8.3",
            "The first dealer, the deal (two down and one up on 3rd street, one up on each of "
            "4th to 6th, one down on 7th) and the deal moving clockwise each hand are as in "
            "Razz (4.3, 4.5).",
        ),
        Rule(
            "8.4",
            "3rd street: the **lowest** up card brings in (deuce lowest, ace highest); equal "
            "ranks are broken by suit, ♣ < ♦ < ♥ < ♠ (2♣ brings in before 2♦). The bring-in "
            "posts the bring-in or completes to the small bet, and may not fold or check. "
            "Play goes on to its left.",
        ),
        Rule(
            "8.5",
            "From 4th street the **highest** showing hand acts first: four of a kind, then "
            "three of a kind, two pair, one pair, high cards; the higher group first, then "
            "the other cards from the highest down, the ace high. Straights and flushes do "
            "not count on the board; suits never matter; exact ties go to the first from "
            "the dealer's left.",
        ),
        Rule(
            "8.6",
            "The cap, all-ins and side pots (the half-bet rule), the community card when the "
            "deck runs short, the showdown order, `showdown_reveal`, timeouts, folding and an "
            "uncalled bring-in are as in Razz (4.6 to 4.10, 4.14), but for one rule: "
            "**heads-up there is no cap** (Robert's Rules of Poker: unlimited raising while "
            "two players not all-in contest the street, when they are heads-up before the "
            "cap is reached; a street capped three-handed stays capped).",
        ),
    ),
)

STUD_RANKING = Part(
    "Ranking",
    (
        Rule(
            "8.7",
            "**High**: the best five of seven cards, standard poker: straight flush, four of "
            "a kind, full house, flush, straight, three of a kind, two pair, one pair, high "
            "card. The ace is high, or low in A-2-3-4-5 (the lowest straight). Suits never "
            "break a tie: equal hands split the pot.",
        ),
        Rule(
            "8.8",
            "**Low** (Hi-Lo): five cards of different ranks, **eight or lower**, ace low; "
            "straights and flushes do not count against it. Lows compare from the highest "
            "card down (`7-5-3-2-A` beats `8-4-3-2-A`); the best is `5-4-3-2-A`. A player "
            "may win both halves, with different cards for each.",
        ),
    ),
)

STUD_SILENT = Part(
    "Splitting the pot and where the texts are silent",
    (
        Rule(
            "8.9",
            "Hi-Lo: each pot, main and side, is split in half between its best high hand "
            "and its best low. A pot in which nobody has a low goes whole to the high hand "
            "(it **takes the whole pot (no low)**); this is decided pot by pot, among the "
            "players in that pot (cardroom practice).",
        ),
        Rule(
            "8.10",
            "Odd chips (Robert's Rules of Poker, Ties): **each pot is split on its own**, "
            "main and side, with its own odd chip. When a pot is split high and low, the odd "
            "chip goes to the high half. Equal hands share their half; the odd chip goes to "
            "the hand with the **highest card by suit** (every card the player holds counts; "
            "♠ > ♥ > ♦ > ♣), in a low half to the **lowest card by suit** (aces low). Two "
            "equal lows each get a quarter of the pot (a *quartered* pot). Razz keeps its "
            "own rule (4.10).",
        ),
        Rule(
            "8.11",
            "Elsewhere the bot plays as pokerkit's fixed-limit Seven-card Stud and Stud "
            "Hi-Lo do, except 8.2's big bet on 4th street (a hand with one replays in this "
            "bot, not in pokerkit), 8.9 (pokerkit gives a pot wholly to the high hand only "
            "when no hand shown has a low) and Robert's Rules where pokerkit 0.7.7 departs "
            "from them (8.6's heads-up raising, the half-bet rule, free folds, 8.10's odd "
            "chips). Hand histories use pokerkit's codes `F7S` and `F7S/8`.",
        ),
    ),
)

PARTS: tuple[Part, ...] = (STUD_PROCEDURE, STUD_RANKING, STUD_SILENT)


def house_rules() -> list[tuple[str, str, str]]:
    """(name, default, meaning) of each house rule of a Stud table: the split, then the
    stakes and rules of :class:`~bot.engine.stud.rules.StudRules`."""
    return [SPLIT_ROW, *StudRules().describe()]
