"""TableService views rendered as Discord embeds and components (no Discord calls here).

- the **table message** (public): game, house rules, seats, pot, whose turn, countdown,
  public cards and recent events, with **Join**, **Leave**, **Start**, **My hand** and, for
  the stud games (Razz, Stud, Stud Hi-Lo), the betting buttons enabled from
  ``TableView.public_actions``;
- the **hand view** (a DM, or the ephemeral answer to **My hand**): the user's cards, hand
  name and strength, and the private controls (**Lay down**, **Play on**, the discard menu);
- the **pictures** attached to them: the hand image of one PrivateView (its own user's cards
  only) and the showdown image of a hand's public events (what each shown hand held, the
  winners marked). Building a picture is cheap; rendering its PNG is CPU work for a thread.

It only ever reads what the view it is given contains: a TableView has no hidden cards, so
the table message cannot leak one.
"""

from __future__ import annotations

import dataclasses
import zlib
from typing import TYPE_CHECKING

import discord

from bot import games as registry
from bot.render.limits import FIELD_VALUE, fit_lines
from bot.render.text import (
    GAME_TITLES,
    cards_text,
    clip,
    display_width,
    format_chips,
    hand_name_text,
    plain_name,
    plural,
)
from bot.render.text import game_title as title_of
from cogs._house import HOUSE_LABELS, add_house_buttons, choice_line, house_lines
from cogs._ids import FLOP_ACTIONS, HOUSE_ACTIONS, RAZZ_ACTIONS
from cogs._items import DiscardSelect, RoutedView, TableButton
from cogs._mixed import add_game_select, mixed_lines
from cogs._mixed import title as mixed_title
from cogs._pace_render import (
    add_advance_buttons,
    add_sit_buttons,
    advance_line,
    bank_note,
    next_stakes_line,
    sit_line,
    to_act_tail,
)
from cogs._shuffle import add_shuffle_field

if TYPE_CHECKING:
    from bot.engine.actions import ActionOption
    from bot.tables.views import PrivateView, SeatView, TableView

FLOP_GAMES = registry.keys(family="flop")
"""Games with a board of community cards (Hold'em, Omaha)."""
GUTS_GAMES = registry.keys(family="guts")
"""The games a table plays as *games* (a pot that may carry over), not hands."""
STUD_GAMES = registry.keys(family="stud")
"""Games dealt down and up cards (Razz, Stud, Stud Hi-Lo)."""
ACTIONS_OF_FAMILY = {"stud": RAZZ_ACTIONS, "flop": FLOP_ACTIONS}
"""The betting families' buttons on the table message."""
TABLE_ACTIONS_OF = {
    g.key: ACTIONS_OF_FAMILY[g.family] for g in registry.games() if g.family in ACTIONS_OF_FAMILY
}
"""The games played with betting buttons on the table message, and their buttons."""


def game_title(view: TableView) -> str:
    """The game's name on the table message: a stud table says which split it plays."""
    return title_of(view.game, view.rules)


STATUS_WORDS = {
    "waiting": "waiting",
    "playing": "",
    "folded": "folded",
    "out": "out",
    "away": "away",
    "sitting_out": "sitting out",
    "all_in": "all in",
    "waits_for_big_blind": "waits for the big blind",
    "posts_big_blind": "posts the big blind next hand",
}
BUTTON_LABELS: dict[str, str] = {
    "join": "Join",
    "leave": "Leave",
    "start": "Start",
    "hand": "My hand",
    "resume": "Resume",
    "post_blind": "Post big blind",
    "wait_blind": "Wait for big blind",
    "lay_down": "Lay down",
    "play_on": "Play on",
    "bring_in": "Bring in",
    "complete": "Complete",
    "fold": "Fold",
    "check": "Check",
    "call": "Call",
    "bet": "Bet",
    "raise": "Raise",
    "big_bet": "Big bet",
    **HOUSE_LABELS,
    "sit_out": "Sit out next hand",
    "sit_in": "I'm back",
}
COLOURS = {
    "open": discord.Colour.blurple(),
    "running": discord.Colour.dark_green(),
    "paused": discord.Colour.orange(),
    "closed": discord.Colour.dark_grey(),
}


def window_token(pv: PrivateView) -> str | None:
    """The private controls' custom_id argument, naming one decision of one player: the
    window's deadline (stored in whole seconds, so it survives a restart) and a checksum of
    the cards held (an exchange changes them). A button from an earlier window (an old
    ephemeral) is refused as stale, while other players' choices in the same window, which
    bump the table's version, do not make it stale."""
    if pv.deadline is None and not pv.cards:
        return None
    deadline = 0 if pv.deadline is None else int(pv.deadline)
    held = zlib.crc32(",".join(sorted(str(c) for c in pv.cards)).encode())
    return f"{deadline}_{held:08x}"


def countdown(deadline: float | None) -> str:
    """Discord renders ``<t:UNIX:R>`` as a live "in 40 seconds" in each user's client."""
    return "" if deadline is None else f"<t:{int(deadline)}:R>"


def _seat_status(seat: SeatView, view: TableView) -> str:
    """Markers, bet and the seat's public cards (the hand name goes on its own)."""
    parts = []
    if seat.seat == view.dealer_seat:
        parts.append("Ⓓ")
    if seat.to_act:
        parts.append("▶")
    word = STATUS_WORDS.get(seat.status, seat.status)
    if word:
        parts.append(word)
    if seat.bet:
        parts.append(f"bet {format_chips(seat.bet)}")
    if seat.shown is not None:
        parts.append(cards_text(seat.shown))
    elif seat.up_cards:
        parts.append(cards_text(seat.up_cards))
    if seat.is_computer:
        parts.append("🤖")
    return " ".join(parts)


SEAT_LINE_WIDTH = 40
"""Columns a seat line may take before its hand name wraps to a line of its own (a code
block in an embed wraps at about this width on a phone)."""


def seat_lines(view: TableView, *, width: int = SEAT_LINE_WIDTH, limit: int = 1024) -> str:
    """The seats as an aligned code block: name, chips, markers and public cards, then the
    hand name on the same line when it fits, else on the next line, indented. The hand's
    name is the one the DM and the pictures show, whole (never shortened or cut)."""
    names = [clip(_plain(plain_name(s.name)), 12) for s in view.seats]
    stacks = [format_chips(s.stack) for s in view.seats]
    nw = max(display_width(n) for n in names)
    sw = max(len(x) for x in stacks)
    indent = " " * (nw + 2 + sw + 2)
    blocks: list[str] = []
    for seat, name, stack in zip(view.seats, names, stacks, strict=True):
        head = f"{name}{' ' * (nw - display_width(name))}  {stack:>{sw}}"
        status = _plain(_seat_status(seat, view))
        line = f"{head}  {status}".rstrip()
        hand = _plain(hand_name_text(seat.hand_name)) if seat.hand_name else ""
        if hand and display_width(f"{line}  {hand}") <= width:
            line = f"{line}  {hand}"
        elif hand:
            line += "\n" + indent + hand
        blocks.append(line)
    budget = limit - len("```\n\n```")
    shown = list(blocks)
    while len("\n".join(shown)) > budget:
        shown.pop()
        more = f"… and {len(blocks) - len(shown)} more"
        if len("\n".join([*shown, more])) <= budget:
            shown.append(more)
            break
    return "```\n" + "\n".join(shown) + "\n```"


def _plain(text: str) -> str:
    """No backtick (a player cannot close the code block) and no line break."""
    return text.strip().replace("`", "ˋ").replace("\n", " ")


def _picking(view: TableView) -> bool:
    return view.mixed is not None and view.mixed.chooser is not None


def _choice_count(view: TableView) -> str | None:
    """Zoot/Wheelers: how many of the players in the hand have made this round's choice,
    never who chose what ("2 of 3 have chosen")."""
    if view.game in STUD_GAMES or view.status != "running":
        return None
    if view.phase.startswith("lay-down window"):
        done = "have chosen"
    elif view.phase.startswith("discard"):
        done = "have discarded"
    else:
        return None
    in_hand = [s for s in view.seats if s.status in ("playing", "all_in")]
    if not in_hand:
        return None
    waiting = sum(1 for s in in_hand if s.to_act)
    return f"{len(in_hand) - waiting} of {len(in_hand)} {done}"


_RULE_WORDS: dict[tuple[str, str], str] = {
    ("laydown_order", "simultaneous"): "Lay-down window: **everyone chooses at once, in secret**",
    ("laydown_order", "in turn"): "Lay-down window: **in turn, from the dealer's left**",
    ("excuse_matcher_ante", "on"): "Whoever matched the pot **skips** the next game's ante",
    ("excuse_matcher_ante", "off"): "Whoever matched the pot **antes as usual** next game",
    ("laydown_requires_cover", "on"): "Laying down needs **the pot** in your balance",
    ("laydown_requires_cover", "off"): "Laying down needs **no** chips in reserve",
    ("wheelers_wraparound", "on"): "Straights **may** turn the corner (K-A-2)",
    ("wheelers_wraparound", "off"): "Straights **do not** turn the corner (K-A-2)",
    ("showdown_reveal", "all"): "Showdown: **every hand is shown**",
    ("showdown_reveal", "winners"): "Showdown: **a losing hand may be mucked**",
    ("bb_ante", "on"): "The big blind posts **one ante for the table**",
    ("split", "high"): "Split: **high only**, the best high hand wins",
    ("split", "hi-lo"): "Split: **high-low**, eight or better for low",
    # what home games play (docs/rules.md 6.17-6.22)
    ("straddle", "under-the-gun"): "Straddle: **under the gun**, twice the big blind, acts last",
    ("straddle", "button"): "Straddle: **on the button** (Mississippi), acts last",
    ("run_it_twice", "ask"): "All in before the river: **run it twice** if everyone agrees",
    ("rabbit_hunt", "off"): "Rabbit hunt: **off**",
}
_RULE_LABELS: dict[str, str] = {
    "ante": "Ante",
    "bring_in": "Bring-in",
    "small_bet": "Small bet (3rd and 4th street)",
    "stakes": "Stakes (every game's small bet)",
    "big_bet": "Big bet (5th street on)",
    "decision_seconds": "Time to decide",
    "min_players": "Players needed to deal",
    "max_players": "Seats",
    "limits": "Fixed limits (small bet/big bet)",
    "min_bet": "Smallest bet and raise",
    "bomb_pot_every": "Bomb pot",
    "seven_deuce": "Seven-deuce (each player pays a shown 7-2 offsuit winner)",
    "time_bank": "Time bank",
    "sit_out_hands": "Seat kept while sitting out",
}


def house_rule_line(name: str, value: str) -> str:
    """One house rule as a player reads it, in plain words, not the option's name
    ("Whoever matched the pot **antes as usual** next game", not "excuse matcher ante: off").

    >>> house_rule_line("excuse_matcher_ante", "off")
    'Whoever matched the pot **antes as usual** next game'
    >>> house_rule_line("decision_seconds", "45")
    'Time to decide: **45 seconds**'
    """
    words = _RULE_WORDS.get((name, value))
    if words is not None:
        return words
    if name in ("decision_seconds", "time_bank") and value.isdigit():
        value = plural(int(value), "second") if value != "0" else "none"
    elif name == "sit_out_hands" and value.isdigit():
        value = plural(int(value), "hand")
    elif name in ("min_players", "max_players"):
        value = value.removesuffix(" players")
    label = _RULE_LABELS.get(name, name.replace("_", " ").capitalize())
    return f"{label}: **{value}**"


def rules_pointer(view: TableView) -> str:
    """Where a player reads the rules from Discord: the table's ``/rules`` page (a mixed
    table's, and the game being dealt's), and ``/help`` (plain text: it is the footer's,
    which shows no markdown)."""
    mixed = view.mixed
    if mixed is None:
        where = f"/rules {view.game}"
    else:
        page = next(g.page for g in registry.games(mixed=True) if g.mode == mixed.mode)
        where = f"/rules {page} (this hand: /rules {view.game})"
    return f"Rules: {where} · help: /help"


def table_embed(view: TableView) -> discord.Embed:
    title = f"{mixed_title(view, game_title(view))} — table #{view.table_id}"
    if view.practice:
        title += " (practice)"
    head = f"**{view.phase}**"
    word = deal_word(view.game).capitalize()  # "Hand 3" at a betting table, as /history says
    if view.hand_number:
        head += f" · {word} {view.hand_number} · pot **{format_chips(view.pot)}**"
    elif view.pot:
        head += f" · pot **{format_chips(view.pot)}**"
    lines = [head, *mixed_lines(view, countdown(view.deadline))]
    if view.tournament is not None:
        # a tournament's table: its level, stakes and next change (cogs/_tournament_render.py)
        from cogs._tournament_render import tournament_lines

        lines[:0] = tournament_lines(view.tournament)
    chosen = _choice_count(view)
    if chosen:
        lines.append(chosen)
    if view.to_act_user_ids:
        who = ", ".join(f"<@{u}>" for u in sorted(view.to_act_user_ids))
        lines.append(f"▶ To act: {who}" + to_act_tail(view, countdown(view.deadline)))
    elif view.deadline and view.status == "running" and not _picking(view):
        lines.append(f"Next {word.lower()} {countdown(view.deadline)}")
    elif view.deadline:
        lines.append(f"Starts {countdown(view.deadline)}")
    house = house_lines(view)  # a straddle offered, a bomb pot next, two boards
    stakes = next_stakes_line(view)
    if stakes:
        lines.append(stakes)
    if view.community and not (view.house is not None and view.house.boards):
        what = "Board" if view.game in FLOP_GAMES else "Community card"
        lines.append(f"{what}: {cards_text(view.community)}")
    lines += house
    if view.practice:
        lines.append("Practice table: computer players, play chips; no league chips move.")
    if view.status == "closed":
        lines.append("This table is closed.")
    embed = discord.Embed(
        title=title, description="\n".join(lines), colour=COLOURS.get(view.status)
    )
    if view.seats:
        embed.add_field(name="Seats", value=seat_lines(view), inline=False)
    else:
        embed.add_field(name="Seats", value="nobody yet: press **Join**", inline=False)
    if view.rules:
        rules = [house_rule_line(name, value) for name, value, _ in view.rules if name != "game"]
        embed.add_field(name="House rules", value=fit_lines(rules, FIELD_VALUE), inline=False)
    add_shuffle_field(embed, view)  # a verifiable table's commitment (cogs/_shuffle.py)
    if view.recent:
        embed.add_field(name="Recent", value=fit_lines(view.recent[-5:], FIELD_VALUE), inline=False)
    # where the rules are (players cannot open docs/rules.md from Discord), on every table
    host = "the tournament's director" if view.tournament is not None else _host_name(view)
    embed.set_footer(text=f"{rules_pointer(view)} · host: {host} · state {view.version}")
    return embed


def _host_name(view: TableView) -> str:
    for s in view.seats:
        if s.user_id == view.host_id:
            return plain_name(s.name)  # a footer shows no markdown: no escapes
    return str(view.host_id)


def _button(
    view_version: int,
    table_id: int,
    action: str,
    *,
    style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    disabled: bool = False,
    row: int | None = None,
    arg: str | None = None,
) -> TableButton:
    return TableButton.make(
        table_id,
        view_version,
        action,
        arg=arg,
        label=BUTTON_LABELS[action],
        style=style,
        disabled=disabled,
        row=row,
    )


def table_components(view: TableView) -> discord.ui.View:
    """The table message's buttons (persistent: ``timeout=None``; routed by custom_id)."""
    ui = RoutedView(timeout=None)
    if view.status == "closed":
        return ui
    seated = len(view.seats)
    director = view.tournament is not None  # a tournament's director seats and deals
    if not director:
        ui.add_item(
            _button(view.version, view.table_id, "join", style=discord.ButtonStyle.primary, row=0)
        )
        ui.add_item(_button(view.version, view.table_id, "leave", disabled=seated == 0, row=0))
        ui.add_item(
            _button(
                view.version,
                view.table_id,
                "start",
                style=discord.ButtonStyle.success,
                disabled=view.status != "open",
                row=0,
            )
        )
    ui.add_item(_button(view.version, view.table_id, "hand", disabled=seated == 0, row=0))
    if view.status == "paused" and not director:
        # the idle rule or /table pause stopped the game: a seated player goes on with it
        ui.add_item(
            _button(view.version, view.table_id, "resume", style=discord.ButtonStyle.success, row=0)
        )
    kinds = TABLE_ACTIONS_OF.get(view.game)
    if kinds is not None and view.status == "running":
        options = {o.kind: o for o in view.public_actions}
        for i, kind in enumerate(kinds):
            option = options.get(kind)
            if kind == "big_bet" and option is None:
                continue  # only offered when a pair shows on 4th street (Stud)
            style = discord.ButtonStyle.danger if kind == "fold" else discord.ButtonStyle.primary
            ui.add_item(
                _button(
                    view.version,
                    view.table_id,
                    kind,
                    style=style,
                    disabled=option is None or not option.allowed,
                    row=1 + i // 5,  # Discord allows 5 buttons per row
                )
            )
    if any(s.blind is not None for s in view.seats):
        # rules 6.14: a player new to a Hold'em or Omaha table waits for the big blind or
        # posts one; the buttons are theirs (anyone else's click is refused with why)
        for action, style in (
            ("post_blind", discord.ButtonStyle.primary),
            ("wait_blind", discord.ButtonStyle.secondary),
        ):
            ui.add_item(_button(view.version, view.table_id, action, style=style, row=4))
    add_house_buttons(ui, view)  # Straddle / No straddle (cogs/_house.py)
    add_game_select(ui, view)  # a dealer's-choice table between hands
    return ui


def option_note(option: ActionOption) -> str:
    """An allowed action with what it costs ("Call 5", "Complete to 10", "Lay down (30)"),
    or a refused one with its reason."""
    label = BUTTON_LABELS.get(option.kind, option.kind.replace("_", " ").capitalize())
    if not option.allowed:
        return f"{label}: {option.reason or 'not now'}"
    if option.kind == "discard":
        return "Discard one card: pick it in the menu below"
    if option.kind in ("bet", "raise") and option.most and option.to and option.most > option.to:
        # no-limit, pot-limit: the button asks how much
        to = " to" if option.kind == "raise" else ""
        return f"{label}{to} {format_chips(option.to)} – {format_chips(option.most)}"
    if option.kind in ("complete", "raise", "big_bet") and option.to:
        return f"{label} to {format_chips(option.to)}"
    if option.kind in ("bring_in", "bet", "call") and option.amount:
        return f"{label} {format_chips(option.amount)}"
    return f"{label} ({format_chips(option.amount)})" if option.amount else label


_NOT_A_CHOICE = (
    # refusals that only say which other button fits (it is listed), not worth a line;
    # in a discard round the menu is the one choice (Lay down / Play on wait for the window)
    "now is the time to discard",
    "the bring-in is only on",
    "completing is only on",
    "on 3rd street the first bet",
    "there is already a bet",
    "there is no bet to",
    "there is a bet of",
    "nothing to call",
    "there is a bet:",
    "bet instead",
    "raise instead",
    "the bring-in must post",
)


def _worth_a_line(option: ActionOption) -> bool:
    """A refused option next to allowed ones: shown only when its reason helps the
    decision (the cover rule, a capped or closed betting), not when it merely names the
    street or which other button applies."""
    if option.allowed or option.kind == "discard":
        return False
    reason = option.reason or ""
    return bool(reason) and not reason.startswith(_NOT_A_CHOICE)


_OVER_REASONS = frozenset(
    {"no hand is being played right now", "the hand is over", "the game is over"}
)


def hand_over(pv: PrivateView) -> bool:
    """No hand is being played for this player now (between games, or before the first):
    what the DM shows of the last one is history, not a decision."""
    return bool(pv.options) and all(
        not o.allowed and (o.reason or "") in _OVER_REASONS for o in pv.options
    )


def deal_word(game: str) -> str:
    """What one deal is called at the game's table: a *game* of Zoot or Wheelers (its pot
    may carry over), a *hand* at the betting games (as ``/history`` calls both)."""
    return "game" if game in GUTS_GAMES else "hand"


def dealt(pv: PrivateView) -> bool:
    return bool(pv.cards or pv.down_cards or pv.up_cards)


def not_dealt_line(pv: PrivateView) -> str:
    return f"Not dealt yet: your cards show here when the {deal_word(pv.game)} starts."


def waiting_line(pv: PrivateView) -> str:
    """One line for a player who cannot act now: why, or what happens next. It depends
    on the PrivateView only (a waiting player's DM is not edited while others act), so it
    never names whose turn it is: the table message does."""
    reason = next((o.reason or "" for o in pv.options), "")
    word = deal_word(pv.game)
    if reason == "the cards have not been dealt yet" or not dealt(pv):
        return not_dealt_line(pv)
    if hand_over(pv):
        return f"This {word} is over: your next cards show here."
    if pv.chosen or reason == "you have already chosen in this window":
        return "Waiting for the others to choose."
    if reason == "it is not your turn" or reason.endswith("turn to choose"):
        return "Not your turn: the table message shows who is to act."
    if reason == "you folded this hand":
        return f"You folded: your next cards show here when the next {word} starts."
    if reason == "you are all in this hand":
        return "You are all in: the rest of the hand is dealt without you acting."
    if reason == "the table is paused":
        return "The table is paused."
    if reason in ("you are not in this hand", "no game is being played") or reason.startswith(
        "seat "
    ):
        return f"You are not in this {word}: you are dealt in at the next one."
    return reason[:1].upper() + reason[1:] + "." if reason else "Nothing to do right now."


def _shown_deadline(pv: PrivateView) -> float | None:
    """The deadline as the hand view shows it: only while an option is allowed."""
    return pv.deadline if any(o.allowed for o in pv.options) else None


def same_hand_view(a: PrivateView, b: PrivateView) -> bool:
    """Whether ``a`` and ``b`` render the same hand view, but for the state number in the
    footer (an edit from one to the other would change nothing a player reads; the private
    controls are checked by their window, not by that number) and the price a **Call N**
    offered in advance shows: a waiting player's DM is not edited each time a price moves
    (Discord's rate limit), and a stale one is refused with the new price, redrawn."""
    return dataclasses.replace(
        a, version=0, deadline=_shown_deadline(a), advance=_kinds(a)
    ) == dataclasses.replace(b, version=0, deadline=_shown_deadline(b), advance=_kinds(b))


def _kinds(pv: PrivateView) -> tuple[tuple[str, int | None], ...]:
    return tuple((k, None) for k, _ in pv.advance)


def only_takes_away(shown: PrivateView, new: PrivateView) -> bool:
    """Whether going from the hand view ``shown`` to ``new`` only takes something away:
    the same cards (and hand name), no secret choice newly made, and nothing the player
    may do now (their turn ended, they folded, the hand is over). Such a change need not
    reach the player before anyone else moves; new cards and new options must."""
    return (
        shown.table_id == new.table_id
        and (shown.cards, shown.down_cards, shown.up_cards, shown.hand_name)
        == (new.cards, new.down_cards, new.up_cards, new.hand_name)
        and new.chosen in (None, shown.chosen)
        and not any(o.allowed for o in new.options)
        # a choice made in advance taken or cleared, sitting out or back: shown at once
        and (new.advance_chosen, new.sitting_out, new.sit_next)
        == (shown.advance_chosen, shown.sitting_out, shown.sit_next)
    )


def private_embed(pv: PrivateView, *, closed: bool = False) -> discord.Embed:
    """The hand DM / ephemeral. ``closed``: the table has closed; the last cards stay,
    the actions and the countdown go."""
    name = pv.title or GAME_TITLES.get(pv.game, pv.game)  # a Stud Hi-Lo table's, not "Stud"
    title = f"Your hand — {name} table #{pv.table_id}"
    colour = discord.Colour.dark_grey() if closed else discord.Colour.dark_teal()
    embed = discord.Embed(title=title, colour=colour)
    # no cards yet: the one line that says so (not also in the "Now" field)
    waiting = not_dealt_line(pv) if not dealt(pv) else None
    if pv.game in STUD_GAMES:
        embed.add_field(name="Down (only you)", value=cards_text(pv.down_cards) or "—")
        embed.add_field(name="Up (everyone)", value=cards_text(pv.up_cards) or "—")
    elif pv.game in FLOP_GAMES:
        embed.add_field(name="Cards", value=cards_text(pv.cards) or "not dealt yet")
        embed.add_field(name="Board", value=cards_text(pv.up_cards) or "—")
    else:
        embed.add_field(name="Cards", value=cards_text(pv.cards) or "not dealt yet", inline=False)
    if pv.hand_name:
        embed.add_field(name="Hand", value=hand_name_text(pv.hand_name), inline=False)
    if pv.strength is not None:
        embed.add_field(
            name="Strength", value=f"beats {pv.strength:.2%} of all hands", inline=False
        )
    if pv.chosen and not closed and not hand_over(pv):
        embed.add_field(
            name="Your choice (secret)", value=pv.chosen.replace("_", " "), inline=False
        )
    if closed:
        pass  # the message's content says the table closed; nothing is left to do
    elif any(o.allowed for o in pv.options):
        why = choice_line({o.kind for o in pv.options if o.allowed})
        if why is not None:
            notes = [why]  # Once / Twice, Show / Muck: the buttons below say the rest
        else:
            notes = [option_note(o) for o in pv.options if o.allowed]
            notes += [option_note(o) for o in pv.options if _worth_a_line(o)]
        if pv.deadline is not None:
            # only to a player who may act now: the others' DMs are not edited on each
            # action (only changed private views are), so their countdown would go stale;
            # the table message shows the table's countdown to everyone
            notes.append(f"Time runs out {countdown(pv.deadline)}")
            bank = bank_note(pv)
            if bank:
                notes.append(bank)
        embed.add_field(name="Now", value=fit_lines(notes, FIELD_VALUE), inline=False)
    elif pv.options or pv.chosen:
        line = waiting_line(pv)
        if waiting is not None and pv.game not in STUD_GAMES:
            # "Cards: not dealt yet" said it: the line says only what comes next
            line = line.split(": ", 1)[1][:1].upper() + line.split(": ", 1)[1][1:]
        embed.add_field(name="Now", value=line, inline=False)
    if not closed:
        extra = [x for x in (advance_line(pv), sit_line(pv)) if x]
        if extra:
            embed.add_field(name="Your table", value="\n".join(extra), inline=False)
    embed.set_footer(text=f"state {pv.version}")
    return embed


def private_components(pv: PrivateView) -> discord.ui.View:
    """Lay down / Play on / discard menu, for Zoot and Wheelers (the betting games act on
    the table); the choices made in advance and Sit out next hand / I'm back (cogs/
    _pace_render.py)."""
    ui = RoutedView(timeout=None)
    options = {o.kind: o for o in pv.options}
    if pv.advance:
        add_advance_buttons(ui, pv)  # for the next window (guts), or the next turn
    # while a choice is made in advance, the window's own Lay down / Play on are not shown
    window = ("lay_down", "play_on") if not pv.advance else ()
    for kind in (*window, *HOUSE_ACTIONS, "straddle", "no_straddle"):
        option = options.get(kind)
        if option is None:
            continue
        style = (
            discord.ButtonStyle.danger
            if kind in ("lay_down", "muck", "once", "no_straddle")
            else discord.ButtonStyle.success
        )
        # the straddle's buttons are the next hand's, not a window's: no token
        arg = None if kind in ("straddle", "no_straddle") else window_token(pv)
        ui.add_item(
            _button(
                pv.version,
                pv.table_id,
                kind,
                style=style,
                disabled=not option.allowed,
                row=0,
                arg=arg,
            )
        )
    discard = options.get("discard")
    if discard is not None and discard.allowed and discard.cards:
        ui.add_item(
            DiscardSelect.make(
                pv.table_id,
                pv.version,
                discard.cards,
                discard.suggested,
                arg=window_token(pv),
            )
        )
    if pv.may_sit_out:
        add_sit_buttons(ui, pv)  # not at a tournament's table
    return ui
