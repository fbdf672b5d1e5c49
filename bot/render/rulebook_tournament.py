"""The rules of tournaments (issue 20): section 10 of the rule book, included by
:mod:`bot.render.rulebook` (docs/rules.md). The behaviour is :mod:`bot.tournament`'s; the
tables shown here (the presets, the standard payouts) are computed from it, so the book
cannot drift from the code. Where the issue is silent the choices follow the TDA rules
(Poker Tournament Directors Association) or, where TDA sets nothing, common practice.
"""

from __future__ import annotations

from bot.render.rulebook_parts import Part, Rule
from bot.tournament.payouts import STANDARD
from bot.tournament.presets import PRESETS, SHOWN_STACK, SPECS, preset
from bot.tournament.structure import Break

SECTION = "10"
HEADING = "Tournaments"
SHOWN_LEVELS = 12


def presets_table() -> str:
    """The first levels of each preset for a Hold'em no-limit tournament at
    :data:`SHOWN_STACK` chips (blinds, ``+ante`` for a big-blind ante), breaks marked."""
    columns: list[list[str]] = []
    for name in PRESETS:
        s = preset(name, "blinds", SHOWN_STACK)
        cells = [f"{name} ({SPECS[name].minutes} min)"]
        for number in range(1, SHOWN_LEVELS + 1):
            lv = s.level(number)
            cell = f"{lv.small_blind}/{lv.big_blind}" + (f" +{lv.ante}" if lv.ante else "")
            after = s.step_of_level(number) + 1
            if after < len(s.steps) and isinstance(s.steps[after], Break):
                cell += f", break {s.steps[after].seconds // 60}"
            cells.append(cell)
        columns.append(cells)
    widths = [max(map(len, cells)) + 2 for cells in columns]
    rows = []
    for i in range(SHOWN_LEVELS + 1):
        label = "level" if i == 0 else str(i)
        row = f"{label:<7}" + "".join(c[i].ljust(w) for c, w in zip(columns, widths, strict=True))
        rows.append(row.rstrip())
    return "\n".join(rows)


def payouts_table() -> str:
    """The standard payout table, as :data:`bot.tournament.payouts.STANDARD` holds it."""
    lines = ["entries  places  percent of the pool"]
    for low, high, percent in STANDARD:
        lines.append(f"{f'{low}-{high}':<9}{len(percent):<8}{' '.join(map(str, percent))}")
    lines.append("31+      15 %    place i in proportion to 1/(i + 1/2), at least 7 places")
    return "\n".join(lines)


CLOCK = Part(
    "The structure and the clock",
    (
        Rule(
            "10.1",
            "`/tournament create` takes `structure: turbo|regular|deep` or `levels`, a "
            "compact text: entries separated by commas, each `break LENGTH` or `STAKES "
            "LENGTH`, e.g. `10/20 15m, 15/30 15m, break 5m, 25/50/5 15m`. `STAKES` is "
            "small/big blind in Hold'em and Omaha no-limit and pot-limit; then `/5` is an "
            "ante of 5 for every player and `/bb50` a **big-blind ante** of 50 (the big blind "
            "posts one ante for the table; `/bb` alone: equal to the big blind). A length is "
            "`15m`, `1h`, `1h30m` or `90s`; a level without one lasts as long as the one "
            "before. Bad text is refused with the entry it is wrong in.",
        ),
        Rule(
            "10.2",
            "Limit games name their **limits**: `20/40` is a small bet of 20 and a big bet of "
            "40. Fixed-limit Hold'em and Omaha then blind half the small bet and the small bet "
            "(10/20). Stud, Stud Hi-Lo and Razz add the ante, `20/40/4`, and bring in half the "
            "small bet unless told `/bi5`. HORSE plays one set of stakes as at a cash table "
            "(9.3): `20/40/4`, the big bet twice the small bet, the ante for its stud games.",
        ),
        Rule(
            "10.3",
            "The presets fit the starting stack: level 1's big blind (small bet in limit "
            "games) is at most the stack / 50 (turbo), / 100 (regular) or / 200 (deep), on "
            "the ladder 1 2 3 4 5 6 8 10 15 20 25 30 40 50 60 80 100 150 ... (small blinds), "
            "one rung up each level; levels of 10, 15 or 20 minutes, a break each hour; a "
            "big-blind ante equal to the big blind from the level after the first break. Stud "
            "games ante a fifth of the small bet throughout; fixed-limit flop games have no "
            "ante. The table shows no-limit Hold'em at 10,000 chips (`+ante`: big-blind ante).",
        ),
        Rule(
            "10.4",
            "Levels change at **exact times**: the start plus the lengths of the steps before, "
            "plus the director's pauses (`/tournament pause`, `resume`). They are stored, so a "
            "restart loses no time and skips no level. After the last level the clock stays "
            "on it. The lobby message and every table message say the level, "
            'its stakes and the next change as a Discord **relative timestamp** ("in 12 '
            "minutes\", counted down by each reader's own Discord); no message is edited on "
            "a timer. A level change, a break or a pause edits each table message once and "
            "the lobby once, or rides on the edit a hand makes anyway.",
        ),
        Rule(
            "10.5",
            "A level change applies **from the next hand** (TDA): a hand keeps the stakes it "
            "began with. During a break or a pause no hand starts at any table; a hand under "
            "way is played to its end.",
        ),
    ),
    table=presets_table(),
)

ENTRIES = Part(
    "Registration, rebuys, the add-on and re-entry",
    (
        Rule(
            "10.6",
            "The **buy-in** (league chips) and the `bounty` on top are paid at registration; "
            "**Unregister** pays them back, before the start only. A tournament starts with "
            "at least 2 players, at `starts_at` or on the host's **Start**. `max_players` "
            "counts people: a re-entry takes no one's place.",
        ),
        Rule(
            "10.7",
            "**Late registration** (`late_registration_levels: N`) stays open through the end "
            "of level N; a late entry gets the full starting stack and a random seat (TDA).",
        ),
        Rule(
            "10.8",
            "**Rebuys** (`rebuys`: how many per entry) are open through the end of level "
            "`rebuy_until_level` (default: the level before the first break): for a busted "
            "player, or between hands for one with at most the starting stack. A player "
            "busted in a hand that began in the period has 120 seconds to rebuy even after it. "
            "A rebuy costs the buy-in for the starting stack unless set otherwise; a busted "
            "player pays a new bounty with it.",
        ),
        Rule(
            "10.9",
            "The **add-on** (`add_on`) is offered to every player still in, once, during the "
            "break that ends the rebuy period (the first break after `rebuy_until_level`; the "
            "structure must have one). It has no bounty.",
        ),
        Rule(
            "10.10",
            "A **re-entry** (`re_entry`: how many) is a new entry for a busted player while "
            "late registration is open: buy-in, bounty, starting stack, a random seat. The "
            "old entry keeps its place; every entry counts in the field.",
        ),
        Rule(
            "10.11",
            "The **prize pool** is the buy-ins + rebuys + add-ons; bounties are held apart. "
            "The tournament ends when one entry is left and no busted player can still come "
            "back. `/tournament cancel` pays back what the pool and the bounties still hold to "
            "whoever paid it in (a bounty already won stays won).",
        ),
    ),
)

TABLES = Part(
    "Tables",
    (
        Rule(
            "10.12",
            "Seats are drawn at random, the players spread so that no table has two more "
            "than another (`seats_per_table`: up to 9, 8 in the stud games and HORSE).",
        ),
        Rule(
            "10.13",
            "**Balancing** (TDA): when a table is two or more players shorter than another, "
            "the player **due the big blind next** at the longest table moves to the "
            "shortest table's **worst seat**, the empty seat that will post the big blind "
            "soonest (it may be the very next big blind; never the small blind), until no "
            "table is two shorter. In Stud, Stud Hi-Lo and Razz players move by position: the "
            "one in the seat number of the short table's open seat. Only a table between "
            "hands gives a player. Moves are told by DM and at both tables.",
        ),
        Rule(
            "10.14",
            "**Breaking** (TDA): as soon as the players fit in one table fewer, the "
            "highest-numbered table breaks once its hand is over; its players are drawn at "
            "random into the empty seats, each at a table with the fewest players, and may "
            "get any seat, the big blind or the button too. The last table is the final table.",
        ),
    ),
)

PAYOUTS = Part(
    "Places, payouts and bounties",
    (
        Rule(
            "10.15",
            "Places follow the bust order. Players busted in the same hand are placed by the "
            "chips they started it with, more chips a better place (TDA); equal stacks share "
            "the places, and split their prizes.",
        ),
        Rule(
            "10.16",
            "`payouts`: `standard` (the table below, by entries), `winner-takes-all`, or "
            "`top-3` (50/30/20; with 3 entries or fewer one place fewer than the entries). "
            "Each prize is its share rounded down to a whole chip, the chips left over go to "
            "1st place: the pool is paid exactly. Shared places add the prizes they cover "
            "and split them evenly, the odd chips one each from the button's left.",
        ),
        Rule(
            "10.17",
            "A knockout **bounty** goes to the player who wins the busted player's chips; "
            "when several do (a split pot, side pots) it is split in proportion to the chips "
            "each took, in whole chips by largest remainders. The winner takes back their own.",
        ),
    ),
    table=payouts_table(),
)

POINTS = Part(
    "League points",
    (
        Rule(
            "10.18",
            "Each league chooses its points at `/league setup points:`: `pokerstars` (the "
            "PokerStars Home Games formula 10 × √n / √k × (1 + log₁₀(b + 0.25)), n entries, k "
            "the place, b the buy-in in the league's currency, or in chips without a chip "
            "value), `fixed` (10 7 5 4 3 2 1 by default) or `prize` (the prize won, bounties "
            "apart). Points are rounded half up to the hundredth; a shared place scores the "
            "average of its places; a player with re-entries scores once, by the best. Only "
            "a tournament of 4 players or more scores points (as PokerStars' club standings "
            "count), and a practice tournament (`computers:`) none.",
        ),
        Rule(
            "10.19",
            "The season standings add each player's points; with `points_best_of: N` only "
            "their N best results count. Equal totals share a rank. `/leaderboard by:points` "
            "shows them; `/tournament results` posts a tournament's places, prizes, bounties "
            "and points with a picture, `/tournament show` lists the past tournaments. Every "
            "hand is in `/history` and its PHH file with its level; the ledger names each "
            "move `tournament buy-in`, `prize` or `bounty`.",
        ),
    ),
)

PARTS = (CLOCK, ENTRIES, TABLES, PAYOUTS, POINTS)
"""The section's parts, in order (a ``/rules`` page of its own can show the same)."""
