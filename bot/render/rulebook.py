"""The rules of the games, written once: ``/rules`` shows them and ``docs/rules.md``
is generated from them, so the two cannot drift apart.

Each game's rules are numbered parts (:class:`Part`); ``/rules zoot|wheelers|razz`` shows the
parts of that game (cogs/rules.py) and :func:`markdown` writes the whole book. The house
rules and their defaults come from the engines' rule models (``GutsRules.describe``,
``RazzRules.describe``), the same rows a table announces. Regenerate the document with
``python -m bot.render.rulebook`` (``--check`` exits 1 when docs/rules.md is stale); a test
fails when it is. Messages cite a rule as :func:`cite` writes it, by the ``/rules`` page
that shows it: "/rules razz §4.2" (players cannot open docs/rules.md from Discord).
"""

from __future__ import annotations

import sys
import textwrap
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

from bot import games as registry
from bot.engine.guts.rules import GutsRules
from bot.engine.razz.rules import RazzRules
from bot.render import (
    rulebook_flop,
    rulebook_glossary,
    rulebook_mixed,
    rulebook_stud,
    rulebook_tournament,
)
from bot.render.rulebook_pace import PACE
from bot.render.rulebook_parts import Part, Rule

__all__ = ["Part", "Rule"]  # the parts' types live in rulebook_parts (each game's module uses them)

DOC_PATH = "docs/rules.md"
GAMES = registry.keys(mixed=False)
"""The games whose hands rank (a mixed table's rank as the game being played)."""
GAME_TITLES = {g.page: g.name for g in registry.games()}
"""Each game's ``/rules`` page and the name the rule book gives it (bot/games.py)."""


def house_rules_of(section: str) -> tuple[str, ...]:
    """The games whose house rules the rule book lists in ``section`` (bot/games.py)."""
    return tuple(g.key for g in registry.games() if g.section == section)


def table_commands_text() -> str:
    """Every command that opens a table, for a message that says how to open one (one
    list: a game added to the rule book is named everywhere).

    >>> table_commands_text()
    '`/zoot`, `/wheelers`, `/razz`, `/stud`, `/holdem`, `/omaha`, `/horse` or `/dealers-choice`'
    """
    names = [f"`/{command}`" for command in registry.public_commands()]
    return ", ".join(names[:-1]) + " or " + names[-1]


def cite(number: str, game: str | None = None) -> str:
    """How a message names a rule: the ``/rules`` page that shows it and its number
    (``/rules razz §4.2``), since players cannot open docs/rules.md from Discord. ``game``:
    the table's game, whose page is named when it shows the rule (``/rules wheelers §1.10``
    at a Wheelers table); else the first page that does.

    >>> cite("4.2"), cite("1.10", "wheelers"), cite("1.10", "razz"), cite("5.2")
    ('/rules razz §4.2', '/rules wheelers §1.10', '/rules zoot §1.10', '/rules league §5.2')
    """
    pages = rule_pages().get(number, ())
    page = game if game in pages else (pages[0] if pages else None)
    return f"/rules {page} §{number}" if page else f"rules §{number} ({DOC_PATH})"


@lru_cache(maxsize=1)
def rule_pages() -> dict[str, tuple[str, ...]]:
    """Each rule's number (and each section's, "5") to the ``/rules`` pages showing it, in
    the order ``/rules`` lists them (the games', then :data:`TOPICS`)."""
    out: dict[str, list[str]] = {}
    pages = {**PARTS, **{key: parts for key, (_, _, parts) in TOPICS.items()}}
    for page, parts in pages.items():
        for part in parts:
            for rule in part.rules:
                for number in (rule.number, rule.number.split(".", 1)[0]):
                    if page not in out.setdefault(number, []):
                        out[number].append(page)
    return {n: tuple(p) for n, p in out.items()}


# ------------------------------------------------------------------ Zoot and Wheelers (§1)

GUTS_PROCEDURE = Part(
    "Procedure",
    (
        Rule("1.1", "One 52-card deck, no wild cards, 2 to 10 players."),
        Rule(
            "1.2",
            "A **game** begins with every seated player putting the ante in the pot. A player "
            "who cannot pay it sits the game out. House rule `excuse_matcher_ante` (off by "
            "default) lets the player who matched the pot last game skip this first ante.",
        ),
        Rule("1.3", "Everyone gets five cards face down, sent to them alone (by DM)."),
        Rule(
            "1.4",
            "**Lay-down window**: each player picks *Lay down* or *Play on*. By default "
            "(`laydown_order` simultaneous) everyone picks in secret at once and nothing is "
            "shown until the window closes; no pick means play on. The **challenger** is the "
            "player laying down nearest the dealer's left. With `in_turn`, players are asked "
            "one by one from the dealer's left; the first to lay down is the challenger.",
        ),
        Rule(
            "1.5",
            "Nobody lays down: everyone antes again, then each throws one card face down (all "
            "at once, in secret; on a timeout the bot throws the card whose loss hurts the "
            "hand least) and draws one. Back to 1.4. Who cannot pay this ante is out of the "
            "game; what they paid stays in the pot.",
        ),
        Rule(
            "1.6",
            "When the stock is shorter than the draws, the thrown cards are shuffled under it "
            "first (a thrown card may come back to someone).",
        ),
        Rule(
            "1.7",
            "**Showdown**: every live hand is compared with the challenger's. Best hand **or a "
            "tie for it**: the challenger takes the whole pot. Otherwise the best hand takes "
            "it (tied best hands split it, odd chips to the first of them from the dealer's "
            "left) and the challenger **matches**: pays in as much as the pot held, and that "
            "new pot carries to the next game. Only the challenger ever risks a match.",
        ),
        Rule(
            "1.8",
            "House rule `laydown_requires_cover` (on by default): you may lay down only with "
            "at least the pot in your balance. Off: a challenger short of it pays what they "
            "have.",
        ),
        Rule("1.9", "After a showdown the next game starts (1.2); the deal moves one seat left."),
        Rule(
            "1.10",
            "A table closed with chips in the pot gives each player back exactly what they "
            "paid into that pot.",
        ),
        Rule(
            "1.11",
            "A player who lets two windows in a row run out is marked *away* and sits out the "
            "next games until they come back by pressing **Join** on the table message. If a "
            "whole round passes with nobody acting, the table pauses instead of anteing again.",
        ),
    ),
)

GUTS_SILENT = Part(
    "Where the texts are silent",
    (
        Rule(
            "1.12",
            "**One or no live hand after an exchange's ante** (the others could not pay it): "
            "a single live hand takes the whole pot at once, with no showdown: no card is "
            "shown and nobody matches. With no live hand left, nobody wins: the pot stands and "
            "carries to the next game, still owed to whoever paid it in (1.10).",
        ),
        Rule(
            "1.13",
            "**A timed-out discard counts toward away**: the discard is a window like the "
            "lay-down choice, so letting a discard and the next lay-down window run out is "
            "two in a row (1.11). Making any choice yourself starts the count again.",
        ),
    ),
)

#: Issue 18 item 10: a table option of every game, explained in §1 in two sentences and
#: shown by ``/rules`` of every game (see PARTS).
SHUFFLE = Part(
    "The shuffle (every game)",
    (
        Rule(
            "1.14",
            "**Verifiable shuffle** (table option `verifiable:on`, off by default, every game): "
            "each hand's deck, and every reshuffle of its discards, comes from a secret seed "
            "drawn for that hand alone, and before the hand the table message shows the "
            "seed's SHA-256, its **commitment**. The seed shows every card, folded and mucked "
            "ones too, so it is published only when the table closes: then `/history` gives "
            "each hand's seed with a **Verify** line, and `python -m bot verify FILE` "
            "recomputes the deck (docs/hand-history.md) and says whether it matches.",
        ),
    ),
)

ZOOT_RANKING = Part(
    "Ranking",
    (
        Rule(
            "2.1", "A hand's first key is how many suits it holds: **fewer suits beat more suits**."
        ),
        Rule(
            "2.2",
            "Between hands with as many suits, standard poker order decides (A-2-3-4-5 is the "
            "five-high straight). The table shows what each number of suits allows.",
        ),
        Rule(
            "2.3",
            "`9♠ 8♠ 6♠ 3♠ 2♠` beats `K♥ K♦ K♣ 7♥ 7♦`: any one-suited hand beats four of a kind, "
            "a flush always beats a full house. Suits never break a tie.",
        ),
    ),
    table=(
        "suits  possible, highest first\n"
        "1      royal flush, straight flush, flush\n"
        "2      straight, two pair, one pair, high card\n"
        "3      full house, straight, trips, two pair, pair, high card\n"
        "4      quads, full house, straight, trips, two pair, pair, high"
    ),
)

WHEELERS_RANKING = Part(
    "Ranking",
    intro=(
        "Hands rank by the straights they hold. The Wheelers text fixes only ranks 4, 6 "
        "and 8; the table below is this bot's reading of the game's ranking."
    ),
    rules=(
        Rule(
            "3.1",
            "A straight is a run of consecutive ranks; each card belongs to one straight or is "
            "an odd card, and a hand is read the way that ranks it best.",
        ),
        Rule(
            "3.2",
            "An ace is high or low inside a straight (one role per ace); an odd ace counts high.",
        ),
        Rule(
            "3.3",
            "House rule `wheelers_wraparound` (off by default): straights may turn the corner "
            "(K-A-2, which is then two high). A-2-3-4-5 stays the Wheel.",
        ),
        Rule(
            "3.4",
            "Ties: straights by length, then top card; then the odd cards high to low. Two "
            "Wheels tie; suits never break a tie.",
        ),
    ),
    table=(
        "1  Wheel A-2-3-4-5                      A♠ 2♦ 3♣ 4♥ 5♠\n"
        "2  five-card straight                   9♣ 10♦ J♥ Q♠ K♣\n"
        "3  four-card straight + odd card        5♠ 6♦ 7♥ 8♣ K♦\n"
        "4  three-card + two-card straight       Q♦ K♥ A♣ 2♠ 3♦\n"
        "5  three-card straight + two odd        7♦ 8♥ 9♣ 2♠ K♦\n"
        "6  two two-card straights + odd card    4♠ 5♦ 9♥ 10♣ K♦\n"
        "7  one two-card straight + three odd    4♠ 5♦ 9♥ J♣ K♦\n"
        "8  high card (no two cards in sequence) 2♠ 4♦ 6♥ 9♣ J♦"
    ),
)

# ------------------------------------------------------------------------------ Razz (§4)

RAZZ_PROCEDURE = Part(
    "Procedure",
    (
        Rule("4.1", "Seven-card stud, 2 to 8 players."),
        Rule(
            "4.2",
            "Fixed limit. Stakes: ante, bring-in, small bet, big bet (2 / 5 / 10 / 20 by "
            "default; the bring-in must be less than the small bet). Small bet on 3rd and 4th "
            "street, big bet from 5th.",
        ),
        Rule(
            "4.3",
            "The lowest of one card dealt to each player deals first (ace low; ties ♣ < ♦ < ♥ "
            "< ♠); the deal then moves clockwise each hand.",
        ),
        Rule(
            "4.4",
            "3rd street: ante, two cards down and one up. The **highest** up card brings in "
            "(king highest, ace lowest; ties ♠ > ♥ > ♦ > ♣): it posts the bring-in or "
            "completes to the small bet, and may not fold or check. Play goes on to its left.",
        ),
        Rule(
            "4.5",
            "4th to 6th street one card up each, 7th one card down. From 4th street the "
            "**lowest** board acts first: an unpaired board beats a paired one; paired boards "
            "compare the pairs first, lowest best; exact ties go to the first from the "
            "dealer's left.",
        ),
        Rule(
            "4.6",
            "One bet and three raises per street (on 3rd street the completion is the bet; "
            "the bring-in does not count). **No heads-up exception**: Razz keeps the cap "
            "when two players are left (Stud and the flop games do not, 8.6, 6.6).",
        ),
        Rule(
            "4.7",
            "All-in and side pots as usual: nobody loses more than they have. **The half-bet "
            "rule** (fixed limit, Robert's Rules of Poker): an all-in of half a bet or more "
            "counts as a full completion, bet or raise (it reopens the betting and counts "
            "toward the cap); a smaller one does not reopen the betting for a player who "
            "already acted and faces less than half a bet, and the next player may complete "
            "it to a full bet (an all-in for 4 over a bring-in of 2 at 10/20 is completed "
            "to 10). A raise may stop at the most an opponent can still match.",
        ),
        Rule(
            "4.8",
            "If the deck runs short for a street, that card is dealt once, face up, shared by all.",
        ),
        Rule(
            "4.9",
            "Showdown: the last to bet or raise on 7th shows first, then clockwise. House rule "
            "`showdown_reveal`: `all` (default) shows every hand, `winners` lets a losing hand "
            "be mucked.",
        ),
        Rule(
            "4.10",
            "Equal hands split each pot, each pot on its own; odd chips go to the first of "
            "them from the dealer's left. On a timeout the bot posts the bring-in when due, "
            "else checks, else folds; a hand where nobody acted at all pauses the table.",
        ),
    ),
)

RAZZ_RANKING = Part(
    "Ranking",
    (
        Rule(
            "4.11",
            "Ace-to-five low: the best five of seven cards, aces low, straights and flushes "
            "don't count, pairs count against. Best hand A-2-3-4-5; hands compare from the "
            "highest card down (`2-3-6-8-J` beats `A-2-3-4-Q`).",
        ),
    ),
)

RAZZ_SILENT = Part(
    "Where the texts are silent",
    (
        Rule(
            "4.12",
            "Elsewhere the bot plays as pokerkit's fixed-limit Razz does, but for the "
            "half-bet rule (4.7) and folding when checking is free (4.14).",
        ),
        Rule(
            "4.13",
            "**The highest up card is all-in** (its ante took all its chips): the bring-in "
            "passes clockwise, to the next player on its left who still has chips, not to the "
            "next-highest up card. The all-in player stays in for the main pot.",
        ),
        Rule(
            "4.14",
            "A player may fold even when checking is free (not the bring-in). **A forced bet "
            "nobody calls goes back** to its player: with `ante` 0, when everyone folds to "
            "the bring-in, it takes its bring-in back, no chip changes hands, and the next "
            "hand is dealt.",
        ),
    ),
)

PARTS: dict[str, tuple[Part, ...]] = {
    "zoot": (GUTS_PROCEDURE, ZOOT_RANKING, GUTS_SILENT),
    "wheelers": (GUTS_PROCEDURE, WHEELERS_RANKING, GUTS_SILENT),
    "razz": (RAZZ_PROCEDURE, RAZZ_RANKING, RAZZ_SILENT),
    rulebook_stud.GAME: rulebook_stud.PARTS,
    **rulebook_flop.PARTS,
    **rulebook_mixed.PARTS,
}
# every game's /rules ends with the shuffle (1.14): the option is every table's
PARTS = {game: (*parts, SHUFFLE) for game, parts in PARTS.items()}

CHIPS = Part(
    "Chips",
    (
        Rule(
            "5.1",
            "Chips are whole numbers. Every chip that moves is a ledger entry (antes, "
            "bring-ins, bets, matches, awards, refunds, grants and corrections, with who and "
            "why); nothing else changes a balance.",
        ),
        Rule(
            "5.2",
            "At all times the balances plus the chips in pots equal every chip ever issued "
            "minus every chip removed. A hand never makes or loses a chip (`/audit` checks "
            "it).",
        ),
        Rule(
            "5.3",
            "**Rebuy**: `/rebuy` tops a member's wallet up to the league's rebuy amount "
            "(1,000 unless the league says otherwise; 0 turns rebuys off). It is for a member "
            "below that amount, a busted one (0 chips) included; at or above it the rebuy is "
            "refused and nothing changes. At most one rebuy per the league's cooldown (a day "
            "by default), and only between hands: a player dealt into a hand being played "
            "rebuys when it ends (table stakes). The ledger entry is the chips added; rebuys "
            "count against the member's net result.",
        ),
    ),
)

TIME = Part(
    "Time to act",
    (
        Rule(
            "5.4",
            "Each decision (a lay-down or discard window, a turn to bet) has "
            "`decision_seconds`: between 10 and 600 seconds, 45 by default. A league takes "
            "each game's time from the bot's config file when it starts (`[league]` "
            "`decision_seconds`, or a game's own `<game>_decision_seconds`); a table "
            "command's `decision_seconds` option sets it for that table. When it runs out, "
            "the game's default action is taken.",
        ),
    ),
)

NIGHT = Part(
    "The night and the settle-up",
    (
        Rule(
            "7.1",
            "A **night** brackets an evening's play in a server: `/night start` (a league "
            "admin or the host of a live table; a bank night, 7.6: any member, who is its "
            "host) and `/night end` (its host or an admin). One night at a time per server.",
        ),
        Rule(
            "7.2",
            "`/night end` posts each player's net for the night, their hands played, the "
            "biggest pot and a picture, then the **settle-up**: who pays whom. `/settle` "
            "shows the same for the current (or last) night or, with `period:season`, the "
            "season.",
        ),
        Rule(
            "7.3",
            "The settle-up uses the **fewest transfers**: exactly the minimum when at most "
            "15 players have a net, beyond that exact opposites first, then the largest debt "
            "to the largest credit (at most one transfer fewer than the players with a net).",
        ),
        Rule(
            "7.4",
            "With the league's `chip_value` (`/league setup chip_value: currency:`, for "
            "example 100 chips = 1.00 EUR) each transfer is also said in money. A transfer "
            "that is not a whole number of the currency's smallest unit is rounded half up "
            "to it, and the post **says so**.",
        ),
        Rule(
            "7.5",
            "A settle-up is a **payment**, not an undo. It is recorded in the ledger (kind "
            "`settle`): the chips won go back to the players who pay for them in money, so "
            "every wallet is where the night began and the audit (5.2) still holds; the "
            "season's results (`/leaderboard`, `/stats` and its chart) keep what was played. "
            "A night is settled once, and never while a hand of it is in play (even one "
            "whose pot is still empty).",
        ),
        Rule(
            "7.6",
            "A **bank night** (`/night start kind:bank`, or `both` beside the bot's tables) "
            "books the buy-ins and cash-outs of a game played anywhere, in money at the chip "
            "value (whole chips: exact to the cent) or in chips. A member asks for their own "
            "(`/buyin`, `/cashout`) and the host or an admin approves or refuses, once and "
            "never their own; the host or an admin records one directly for a member. A "
            "correction is a new entry with a reason, never an edit. Every entry names who "
            "made it.",
        ),
        Rule(
            "7.7",
            "A bank night ends only when money in equals money out (the refusal says by how "
            "much and who has not cashed out); the host may end it with `force`, which books "
            "the difference as **unaccounted** and shares it evenly by the night's players. "
            "Expenses (`/night expense`) are owed to who paid them by who shares them, split "
            "evenly in whole chips.",
        ),
        Rule(
            "7.8",
            "The settle-up settles each player's total (tables, bank, expenses) in the fewest "
            "transfers. Members listed in `settle_with` settle only among themselves (refused "
            "when their nets do not cancel). Each transfer is marked **Paid** by its payer or "
            "payee; one still open can be carried into the next night's settle-up "
            "(`carry_open`), the fewest transfers recomputed.",
        ),
    ),
)

TOPICS: dict[str, tuple[str, str, tuple[Part, ...]]] = {
    "league": (
        "The league",
        "The league: chips, the ledger, the night and the settle-up",
        (CHIPS, NIGHT),
    ),
    "tournament": (
        "Tournaments",
        "Tournaments: the clock, entries, tables, payouts and points",
        rulebook_tournament.PARTS,
    ),
    "glossary": (
        "Statistics",
        "Statistics: what /stats and /leaderboard by: count",
        rulebook_glossary.PARTS,
    ),
    "table": (
        "At the table",
        "At the table: time to act, time bank, acting in advance, turn pings, sitting out",
        (TIME, PACE),
    ),
}
"""``/rules`` pages that are not a game's: key, title, the command's description, parts."""


# ------------------------------------------------------------------------- rendering


def house_rules(game: str) -> list[tuple[str, str, str]]:
    """(name, default, meaning) of each house rule of ``game`` (the engines' own rows;
    ``game`` itself is the command chosen, not a house rule)."""
    if game == rulebook_stud.GAME:
        return rulebook_stud.house_rules()
    if game in rulebook_flop.GAMES:
        return rulebook_flop.house_rules(game)
    if game in rulebook_mixed.PARTS:
        return rulebook_mixed.house_rules(game)
    model = RazzRules() if game == "razz" else GutsRules(game=game)
    return [row for row in model.describe() if row[0] != "game"]


def part_text(part: Part) -> str:
    """A part as ``/rules`` shows it (one embed field, or several if long)."""
    lines = [part.intro] if part.intro else []
    lines += [f"**{r.number}** {r.text}" for r in part.rules]
    if part.table:
        lines.append(f"```\n{part.table}\n```")
    return "\n".join(lines)


def _part_markdown(part: Part) -> list[str]:
    lines: list[str] = []
    if part.intro:
        lines += [part.intro, ""]
    for rule in part.rules:
        lines += [f"**{rule.number}** {rule.text}", ""]
    if part.table:
        lines += ["```text", part.table, "```", ""]
    return lines


def _house_rules_markdown(game: str) -> list[str]:
    lines = ["| house rule | default | meaning |", "|---|---|---|"]
    lines += [f"| `{name}` | {value} | {desc} |" for name, value, desc in house_rules(game)]
    return [*lines, ""]


SECTIONS: tuple[tuple[str, str, Sequence[Part], Sequence[str]], ...] = (
    (
        "1",
        "Zoot and Wheelers: how a game goes",
        (GUTS_PROCEDURE, GUTS_SILENT, SHUFFLE),
        house_rules_of("1"),
    ),
    ("2", "Zoot: the ranking", (ZOOT_RANKING,), house_rules_of("2")),
    ("3", "Wheelers: the ranking", (WHEELERS_RANKING,), house_rules_of("3")),
    ("4", "Razz", (RAZZ_PROCEDURE, RAZZ_RANKING, RAZZ_SILENT), house_rules_of("4")),
    ("5", "Chips", (CHIPS, TIME, PACE), ()),
    *rulebook_flop.SECTIONS,
    ("7", "The night and the settle-up", (NIGHT,), ()),
    (
        rulebook_stud.SECTION,
        rulebook_stud.HEADING,
        rulebook_stud.PARTS,
        house_rules_of(rulebook_stud.SECTION),
    ),
    (
        rulebook_mixed.SECTION,
        rulebook_mixed.HEADING,
        rulebook_mixed.SECTION_PARTS,
        house_rules_of(rulebook_mixed.SECTION),
    ),
    (rulebook_tournament.SECTION, rulebook_tournament.HEADING, rulebook_tournament.PARTS, ()),
    (rulebook_glossary.SECTION, rulebook_glossary.HEADING, rulebook_glossary.PARTS, ()),
)
"""The book's sections: number, title, parts, and the games whose house rules it lists
(each game's rule-book section in bot/games.py)."""


def markdown() -> str:
    """The whole rule book, as docs/rules.md holds it."""
    out = [
        "# The rules of Home Game",
        "",
        "<!-- Generated by `python -m bot.render.rulebook` from bot/render/rulebook.py, the",
        "     same text `/rules` shows. Edit that file, not this one; a test fails when this",
        "     one is stale. -->",
        "",
        "How this bot plays Zoot, Wheelers and Razz, and beside them Seven-card Stud and Stud",
        "Hi-Lo, Hold'em and Omaha, and the mixed tables (HORSE, dealer's choice): the games'",
        "own texts where they speak, cardroom practice where they do not, and its defaults and",
        *textwrap.wrap(
            "**house rules** where they leave the choice to the dealer. A table announces its"
            " house rules when it opens; `/rules GAME` ("
            + ", ".join(f"`{g.page}`" for g in registry.games())
            + ") shows the rules of each game in Discord, `/rules league` the chips and the"
            " night, `/rules tournament` how tournaments are run (§10) and `/rules glossary`"
            " what the statistics count (§11). Messages cite a rule by the page that shows"
            f' it, as "{cite("4.2")}".',
            width=86,
            break_long_words=False,
            break_on_hyphens=False,
        ),
        "",
        "Cards are written `A K Q J 10 9 … 2` with suits `♠ ♥ ♦ ♣` (commands also take `T`",
        "for ten and the letters `s h d c`). Suits never break a tie.",
        "",
    ]
    for number, title, parts, house in SECTIONS:
        out += [f"## {number}. {title}", ""]
        for part in parts:
            out += [f"### {part.title}", ""]
            out += _part_markdown(part)
        for game in house:
            out += [f"### House rules and defaults ({GAME_TITLES[game]})", ""]
            out += _house_rules_markdown(game)
    while out and out[-1] == "":
        out.pop()
    return "\n".join(out) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m bot.render.rulebook [--check] [PATH]``: write docs/rules.md (or check)."""
    import argparse

    parser = argparse.ArgumentParser(
        prog="python -m bot.render.rulebook",
        description="Write the rule book (docs/rules.md), or check that it is current.",
    )
    parser.add_argument("path", nargs="?", default=DOC_PATH, help=f"default {DOC_PATH}")
    parser.add_argument("--check", action="store_true", help="exit 1 if PATH is stale")
    args = parser.parse_args(argv)
    path = Path(args.path)
    text = markdown()
    if args.check:
        current = path.read_text(encoding="utf-8") if path.exists() else ""
        if current != text:
            print(f"{path} is stale: run python -m bot.render.rulebook", file=sys.stderr)
            return 1
        return 0
    path.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
