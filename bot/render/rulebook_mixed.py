"""The rules of the mixed tables, HORSE and dealer's choice (issue 13): section 9 of the rule
book, included by :mod:`bot.render.rulebook` (``/rules horse``, ``/rules dealers-choice``,
docs/rules.md). The behaviour is :mod:`bot.tables.mixed`'s."""

from __future__ import annotations

from bot import games as registry
from bot.render.rulebook_parts import Part, Rule

GAME_TITLES = {g.key: g.title for g in registry.games(mixed=True)}

MIXED_COMMON = Part(
    "Mixed tables",
    (
        Rule(
            "9.1",
            "A mixed table plays several games, one hand at a time, and changes game **only "
            "between hands**. Seats, chips and the ledger are the same for every game; each "
            "hand is recorded (and replayed by `/history`) as the game it was. The table "
            "message names the game being played and what comes next.",
        ),
        Rule(
            "9.2",
            "The deal moves one seat clockwise every hand, **across games**: the first hand of "
            "a new game is dealt by the player after the last hand's dealer. In the stud games "
            "(Razz, Stud, Stud Hi-Lo), where the bring-in opens the betting, the button is "
            "notional: it still moves each hand, to count the orbit and to say whose deal it "
            "is.",
        ),
        Rule(
            "9.3",
            "One set of stakes, `small_bet` **S** (default 10): fixed-limit games bet S on the "
            "early streets and 2S later; Hold'em and Omaha blinds are S/2 and S; the stud "
            "bring-in is S/2 and the stud ante `ante` (default S/5); Zoot and Wheelers ante S.",
        ),
        Rule(
            "9.4",
            "A Zoot or Wheelers pot that carries over (1.7) belongs to its game: the table "
            "plays that game again, with no change and no pick, until the pot is won.",
        ),
        Rule(
            "9.5",
            "A voided hand gives back every chip it moved and is dealt again by the same "
            "dealer in the same game; a table closed gives back its pot as in 1.10.",
        ),
    ),
)

HORSE = Part(
    "HORSE",
    (
        Rule(
            "9.6",
            "`/horse` plays, in this order and then again: fixed-limit **H**old'em, "
            "**O**maha Hi-Lo (fixed limit, eight or better), **R**azz, Seven-card **S**tud, "
            "Stud Hi-Lo (**E**ight or better).",
        ),
        Rule(
            "9.7",
            "Each game lasts **one orbit** of the button (cardroom practice): the table "
            "changes game when the deal would come back to a player who already dealt this "
            "game. A player who sits down during the orbit deals once too before it ends; one "
            "who leaves shortens it. The table message counts the hands left in the orbit.",
        ),
        Rule(
            "9.8",
            "The table seats the players every one of its games can deal to: at most 8 with "
            "the stud games.",
        ),
    ),
)

DEALERS_CHOICE = Part(
    "Dealer's choice",
    (
        Rule(
            "9.9",
            "`/dealers-choice` plays the games its `games` option allows (default: all eight, "
            "Zoot, Wheelers, Razz, Hold'em no-limit, Omaha pot-limit, Omaha Hi-Lo pot-limit, "
            "Stud, Stud Hi-Lo, as far as this bot deals them). The first hand is the first "
            "game listed.",
        ),
        Rule(
            "9.10",
            "After each hand the player who **deals next** picks the game of their deal from "
            "the menu on the table message, within `choice_seconds` (default 30). The pick is "
            "theirs alone: anyone else's is refused with the reason, and so is a second pick "
            "or a menu left from an earlier deal. The hand is dealt after the usual short "
            "pause.",
        ),
        Rule(
            "9.11",
            "Time runs out: the **game just played** is dealt again (the table goes on as it "
            "was; an absent dealer forces no change), and the table says so. A computer dealer "
            "picks at once: the game after the one just played, in the order listed.",
        ),
    ),
)

PARTS: dict[str, tuple[Part, ...]] = {
    "horse": (MIXED_COMMON, HORSE),
    "dealers-choice": (MIXED_COMMON, DEALERS_CHOICE),
}

SECTION = "9"
HEADING = "HORSE and dealer's choice"
SECTION_PARTS = (MIXED_COMMON, HORSE, DEALERS_CHOICE)

HOUSE_RULES: tuple[tuple[str, str, str], ...] = (
    ("small_bet", "10", "the stakes of every game (9.3)"),
    ("ante", "small_bet / 5", "the stud games' ante (9.3)"),
    ("decision_seconds", "each game's own", "seconds each player has to act"),
    ("choice_seconds", "30", "dealer's choice: seconds the next dealer has to pick (9.10)"),
    ("games", "all eight", "dealer's choice: the games allowed (9.9)"),
)


def house_rules(game: str) -> list[tuple[str, str, str]]:
    """The options of a mixed table (``games`` and ``choice_seconds``: dealer's choice)."""
    if game == "horse":
        return [r for r in HOUSE_RULES if r[0] not in ("games", "choice_seconds")]
    return list(HOUSE_RULES)
