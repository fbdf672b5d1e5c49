"""Option help and choices of the table commands (Discord shows them under each option)."""

from __future__ import annotations

from discord import app_commands

#: Option descriptions shared by /zoot and /wheelers (Discord shows them under each option).
GUTS_OPTION_HELP: dict[str, str] = {
    "ante": "chips each player antes (default: the league's)",
    "laydown_order": "how players choose to lay down",
    "decision_seconds": "seconds for each lay-down or discard window",
    "excuse_matcher_ante": "a player who matched the pot skips the next first ante",
    "laydown_requires_cover": "laying down needs at least the pot in your balance",
}
PRACTICE_OPTION_HELP: dict[str, str] = {
    "practice": "a practice table: computer players fill the seats, play chips only",
    "computers": "computer players at the practice table (default: enough for 4 players)",
    # every table command has it too (issue 18 item 10; bot/engine/shuffle.py); Discord
    # allows 100 characters
    "verifiable": "on: each deck from a secret seed, its SHA-256 shown first; seeds published"
    " when the table closes",
}

PACE_OPTION_HELP: dict[str, str] = {
    "time_bank": "seconds of each player's time bank, after the clock (default 60; 0: none)",
    "sit_out_hands": "hands a player who sits out keeps the seat (default 10)",
}
"""The table's pace options (bot/tables/pace.py): the time bank at the betting games, the
seat kept while sitting out at every game."""
SIT_OUT_HELP = {"sit_out_hands": PACE_OPTION_HELP["sit_out_hands"]}


GUTS_ORDER = [
    app_commands.Choice(name="simultaneous (secret choices)", value="simultaneous"),
    app_commands.Choice(name="in turn from the dealer's left", value="in_turn"),
]
HAND_ACTIONS = [
    app_commands.Choice(name="show my cards", value="show"),
    app_commands.Choice(name="void the hand in progress (admins)", value="void"),
]
REVEAL = [
    app_commands.Choice(name="all hands are shown", value="all"),
    app_commands.Choice(name="losing hands may be mucked", value="winners"),
]
