"""Hold'em and Omaha in the tables cog: ``/holdem``, ``/omaha`` and the **Bet/Raise**
button of a no-limit or pot-limit table.

The mixin :class:`FlopTables` (the TablesCog inherits it) adds the two commands and the
amount flow. A fixed-limit Bet/Raise acts at once, as Razz's does. A no-limit or pot-limit
one answers the clicker alone with the named amounts (min, ½ pot, pot, all-in: each a
button carrying its amount, ``hg:<table>:<version>:raise:40``) and **Other amount…**, a
modal to type one. The engine validates every amount; a refused one is answered with the
legal range ("Raise to between 40 and 1,250") and changes nothing. Each amount button and
the modal carry the table's version: after any change they are stale and refused.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands

from bot import games as registry
from bot.engine.errors import HomeGameError
from bot.engine.flop import BetOutOfRange
from bot.render.text import format_chips
from bot.tables.errors import StaleAction
from cogs._amounts import UnreadableAmount, parse_chips
from cogs._answer import send
from cogs._errors import handle_error, refuse, reply
from cogs._ids import BadCustomId, CustomId, parse_custom_id
from cogs._items import RoutedView, TableButton
from cogs._options import PACE_OPTION_HELP, PRACTICE_OPTION_HELP, REVEAL
from cogs._refusal import refusal

if TYPE_CHECKING:
    from bot.engine.actions import ActionOption

log = logging.getLogger("homegame.tables")

GAMES = registry.keys(family="flop")
TYPED = "typed"
"""The argument of the **Other amount…** button (it opens the modal)."""
AMOUNT_INPUT = "amount"

FLOP_OPTION_HELP: dict[str, str] = {
    "small_blind": "small blind (default 5)",
    "big_blind": "big blind, also the smallest bet (default 10)",
    "ante": "ante per player (default none)",
    "bb_ante": "the big blind posts one ante for the whole table",
    "showdown_reveal": "which hands are shown at showdown",
    "decision_seconds": "seconds each player has to act",
}
BETTING = [
    app_commands.Choice(name="no-limit", value="no-limit"),
    app_commands.Choice(name="pot-limit", value="pot-limit"),
    app_commands.Choice(name="fixed-limit", value="fixed-limit"),
]
SPLIT = [
    app_commands.Choice(name="high", value="high"),
    app_commands.Choice(name="hi-lo", value="hi-lo"),
]
HOUSE_OPTION_HELP: dict[str, str] = {
    "straddle": "a Straddle button before the deal: twice the big blind, acting last (default off)",
    "run_it_twice": "ask: all in before the river, everyone still in may run the board twice",
    "bomb_pot_every": "every N-th hand is a bomb pot: all ante, the hand starts on the flop",
}
"""What home games play (issue 18 items 11-14), options of /holdem, /omaha and
/dealers-choice (Discord: at most 100 characters each)."""
SEVEN_DEUCE_HELP = "Hold'em: a pot won with 7-2 offsuit, shown, is paid this by each other player"
STRADDLE = [
    app_commands.Choice(name="off", value="off"),
    app_commands.Choice(name="under-the-gun", value="under-the-gun"),
    app_commands.Choice(name="button", value="button"),
]
RUN_IT_TWICE = [
    app_commands.Choice(name="off", value="off"),
    app_commands.Choice(name="ask", value="ask"),
]
SIZE_LABELS = {
    "min": "Min",
    "½ pot": "½ pot",
    "pot": "Pot",
    "pot (all-in)": "Pot",
    "all-in": "All-in",
}


def range_text(kind: str, low: int, high: int) -> str:
    """How a refusal states the legal amounts.

    >>> range_text("raise", 40, 1250)
    'Raise to between 40 and 1,250'
    >>> range_text("bet", 10, 10)
    'Bet exactly 10'
    """
    verb = "Raise to" if kind == "raise" else "Bet"
    if low == high:
        return f"{verb} exactly {format_chips(low)}"
    return f"{verb} between {format_chips(low)} and {format_chips(high)}"


def parse_amount(text: str) -> int | None:
    """An amount button's argument, or None if it is damaged (cogs/_amounts.py reads it, as
    every typed amount)."""
    try:
        return parse_chips(text)
    except UnreadableAmount:
        return None


def sizes_view(cid: CustomId, option: ActionOption) -> discord.ui.View:
    """The clicker's amount buttons: one per named size, then **Other amount…**."""
    ui = RoutedView(timeout=None)
    for name, to in option.sizes[:4]:
        label = f"{SIZE_LABELS.get(name, name)}: {format_chips(to)}"
        if name == "pot (all-in)":
            label += " (all-in)"
        ui.add_item(
            TableButton.make(
                cid.table_id,
                cid.version,
                cid.action,
                arg=str(to),
                label=label,
                style=discord.ButtonStyle.primary,
                row=0,
            )
        )
    ui.add_item(
        TableButton.make(
            cid.table_id,
            cid.version,
            cid.action,
            arg=TYPED,
            label="Other amount…",
            style=discord.ButtonStyle.secondary,
            row=0,
        )
    )
    return ui


class AmountModal(discord.ui.Modal):
    """Type the bet or raise "to" total; submitted, it acts as the amount buttons do (the
    submit is handled by :meth:`FlopTables.on_modal_submit`, not by this object)."""

    def __init__(self, cid: CustomId, option: ActionOption) -> None:
        kind = cid.action
        low, high = option.to or 0, option.most or 0
        super().__init__(
            title=f"{'Raise' if kind == 'raise' else 'Bet'}: how much?",
            timeout=None,
            custom_id=f"hg:{cid.table_id}:{cid.version}:{kind}:{AMOUNT_INPUT}",
        )
        self.amount: discord.ui.TextInput[AmountModal] = discord.ui.TextInput(
            label=range_text(kind, low, high)[:45],
            custom_id=AMOUNT_INPUT,
            placeholder=str(low),
            min_length=1,
            max_length=16,
        )
        self.add_item(self.amount)


def typed_value(data: Any, custom_id: str = AMOUNT_INPUT) -> str | None:
    """The text typed in input ``custom_id`` of a modal submit's raw data (inputs sit in
    action rows, or in a label's ``component``); None if it is not there."""
    stack = list((data or {}).get("components") or [])
    while stack:
        item = stack.pop()
        if not isinstance(item, dict):
            continue
        if item.get("type") == 4 and item.get("custom_id") == custom_id:
            return str(item.get("value") or "")
        stack.extend(item.get("components") or [])
        if item.get("component") is not None:
            stack.append(item["component"])
    return None


def amount_modal_id(interaction: discord.Interaction) -> CustomId | None:
    """The amount modal's custom_id (``hg:<table>:<version>:<bet|raise>:amount``) if this
    interaction submits one."""
    if interaction.type != discord.InteractionType.modal_submit:
        return None
    text = str((interaction.data or {}).get("custom_id") or "")
    try:
        cid = parse_custom_id(text)
    except BadCustomId:
        return None
    return cid if cid.action in ("bet", "raise") and cid.arg == AMOUNT_INPUT else None


class FlopTables:
    """Mixin of the TablesCog: ``/holdem``, ``/omaha`` and the amount flow."""

    service: Any
    _open: Any

    @app_commands.command(name="holdem", description="Open a Texas Hold'em table here")
    @app_commands.guild_only()
    @app_commands.describe(
        betting="no-limit (default), pot-limit or fixed-limit",
        **FLOP_OPTION_HELP,
        **HOUSE_OPTION_HELP,
        seven_deuce=SEVEN_DEUCE_HELP,
        **PACE_OPTION_HELP,
        **PRACTICE_OPTION_HELP,
    )
    @app_commands.choices(
        betting=BETTING, showdown_reveal=REVEAL, straddle=STRADDLE, run_it_twice=RUN_IT_TWICE
    )
    async def holdem(
        self,
        interaction: discord.Interaction,
        betting: str | None = None,
        small_blind: app_commands.Range[int, 0, 1_000_000] | None = None,
        big_blind: app_commands.Range[int, 1, 1_000_000] | None = None,
        ante: app_commands.Range[int, 0, 1_000_000] | None = None,
        bb_ante: bool | None = None,
        showdown_reveal: str | None = None,
        decision_seconds: app_commands.Range[int, 10, 600] | None = None,
        straddle: str | None = None,
        run_it_twice: str | None = None,
        bomb_pot_every: app_commands.Range[int, 0, 1000] | None = None,
        seven_deuce: app_commands.Range[int, 0, 1_000_000] | None = None,
        time_bank: app_commands.Range[int, 0, 600] | None = None,
        sit_out_hands: app_commands.Range[int, 1, 1000] | None = None,
        practice: bool | None = None,
        computers: app_commands.Range[int, 1, 8] | None = None,
        verifiable: Literal["off", "on"] | None = None,
    ) -> None:
        await self._open(
            interaction,
            "holdem",
            _given(
                betting=betting,
                small_blind=small_blind,
                big_blind=big_blind,
                ante=ante,
                bb_ante=bb_ante,
                showdown_reveal=showdown_reveal,
                decision_seconds=decision_seconds,
                straddle=straddle,
                run_it_twice=run_it_twice,
                bomb_pot_every=bomb_pot_every,
                seven_deuce=seven_deuce,
                time_bank=time_bank,
                sit_out_hands=sit_out_hands,
            ),
            practice=practice,
            computers=computers,
            verifiable=verifiable,
        )

    @app_commands.command(name="omaha", description="Open an Omaha table here (high or hi-lo)")
    @app_commands.guild_only()
    @app_commands.describe(
        split="high (default), or hi-lo: eight-or-better low takes half",
        betting="pot-limit (default) or fixed-limit; no-limit also",
        **FLOP_OPTION_HELP,
        **HOUSE_OPTION_HELP,
        **PACE_OPTION_HELP,
        **PRACTICE_OPTION_HELP,
    )
    @app_commands.choices(
        split=SPLIT,
        betting=BETTING,
        showdown_reveal=REVEAL,
        straddle=STRADDLE,
        run_it_twice=RUN_IT_TWICE,
    )
    async def omaha(
        self,
        interaction: discord.Interaction,
        split: str | None = None,
        betting: str | None = None,
        small_blind: app_commands.Range[int, 0, 1_000_000] | None = None,
        big_blind: app_commands.Range[int, 1, 1_000_000] | None = None,
        ante: app_commands.Range[int, 0, 1_000_000] | None = None,
        bb_ante: bool | None = None,
        showdown_reveal: str | None = None,
        decision_seconds: app_commands.Range[int, 10, 600] | None = None,
        straddle: str | None = None,
        run_it_twice: str | None = None,
        bomb_pot_every: app_commands.Range[int, 0, 1000] | None = None,
        time_bank: app_commands.Range[int, 0, 600] | None = None,
        sit_out_hands: app_commands.Range[int, 1, 1000] | None = None,
        practice: bool | None = None,
        computers: app_commands.Range[int, 1, 8] | None = None,
        verifiable: Literal["off", "on"] | None = None,
    ) -> None:
        await self._open(
            interaction,
            "omaha",
            _given(
                split=split,
                betting=betting,
                small_blind=small_blind,
                big_blind=big_blind,
                ante=ante,
                bb_ante=bb_ante,
                showdown_reveal=showdown_reveal,
                decision_seconds=decision_seconds,
                straddle=straddle,
                run_it_twice=run_it_twice,
                bomb_pot_every=bomb_pot_every,
                time_bank=time_bank,
                sit_out_hands=sit_out_hands,
            ),
            practice=practice,
            computers=computers,
            verifiable=verifiable,
        )

    # ------------------------------------------------------------------ Bet/Raise

    async def _flop_bet(self, interaction: discord.Interaction, cid: CustomId) -> bool:
        """Handle a Bet/Raise click of a Hold'em or Omaha table that needs an amount;
        False leaves it to the usual flow (another game, or fixed limit)."""
        view = await self.service.view(cid.table_id)
        if view.game not in GAMES:
            return False
        uid = interaction.user.id
        why = refusal(view, uid, cid.action)
        if why is not None:
            await refuse(interaction, why)
            return True
        if cid.version != view.version:
            raise StaleAction()  # refused at once; the service checks again under its lock
        option = next((o for o in view.public_actions if o.kind == cid.action), None)
        if option is None or not option.sizes:
            return False  # fixed limit: the one amount, as a plain click
        if cid.arg is None:
            kind = "Raise" if cid.action == "raise" else "Bet"
            low, high = option.to or 0, option.most or 0
            await send(
                interaction,
                f"{kind}: how much? {range_text(cid.action, low, high)} (your total this round).",
                view=sizes_view(cid, option),
                ephemeral=True,
            )
            return True
        if cid.arg == TYPED:
            modal = AmountModal(cid, option)
            await interaction.response.send_modal(modal)
            # The form is all state-free (its custom_id carries the table and version): its
            # submit is answered by on_interaction below, in this process or the next one
            # after a restart (an in-memory Modal would leave that submit unanswered).
            modal.stop()
            return True
        amount = parse_amount(cid.arg)
        if amount is None:
            await refuse(interaction, "That amount button is damaged.")
            return True
        await interaction.response.defer()
        await self._act_amount(interaction, cid, amount)
        return True

    async def on_modal_submit(self, interaction: discord.Interaction) -> None:
        """A modal submitted (routed here by :func:`cogs._items.route_component`): the
        amount form's, whichever process opened it; any other modal is not ours."""
        cid = amount_modal_id(interaction)
        if cid is None:
            return
        try:
            await self._typed_amount(interaction, cid, typed_value(interaction.data) or "")
        except Exception as exc:
            await handle_error(interaction, exc)

    async def _typed_amount(
        self, interaction: discord.Interaction, cid: CustomId, text: str
    ) -> None:
        try:
            amount = parse_chips(text)
        except UnreadableAmount as exc:
            # "2.5" is not 25 (issue 19, item 18): refused with the legal range, as an
            # amount out of range is; nothing is done, the turn's timer runs on
            legal = await self._legal_range(interaction.user.id, cid)
            before = f"{legal}: " if legal else ""
            await reply(interaction, f"{before}{exc.message}. Nothing changed.")
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self._act_amount(interaction, cid, amount)

    async def _legal_range(self, user_id: int, cid: CustomId) -> str | None:
        """``Raise to between 20 and 1,250`` for the user's turn the modal was opened for;
        None when that turn is over (the state moved on, or the user is not seated)."""
        try:
            pv = await self.service.private_view(cid.table_id, user_id)
        except HomeGameError:
            return None
        if pv.version != cid.version:
            return None
        option = next((o for o in pv.options if o.kind == cid.action and o.allowed), None)
        if option is None or option.to is None:
            return None
        return range_text(cid.action, option.to, option.most or option.to)

    async def _act_amount(
        self, interaction: discord.Interaction, cid: CustomId, amount: int
    ) -> None:
        """Bet or raise to ``amount``; the engine's refusal says the legal range."""
        try:
            await self.service.act(
                cid.table_id, interaction.user.id, cid.action, amount=amount, version=cid.version
            )
        except BetOutOfRange as exc:
            await reply(
                interaction,
                f"{range_text(cid.action, exc.minimum, exc.maximum)}:"
                f" {format_chips(amount)} is not allowed. Nothing changed.",
            )
            return
        verb = "raise to" if cid.action == "raise" else "bet"
        done = f"You {verb} {format_chips(amount)}."
        if interaction.type == discord.InteractionType.component:
            # the amount buttons' message: it now says what was done, buttons gone
            await interaction.edit_original_response(content=done, view=None)
        else:
            await interaction.followup.send(done, ephemeral=True)


def _given(**values: Any) -> dict[str, Any]:
    return {k: v for k, v in values.items() if v is not None}
