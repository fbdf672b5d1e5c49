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
import re
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine.flop import BetOutOfRange
from bot.render.text import format_chips
from bot.tables.errors import StaleAction
from cogs._answer import send
from cogs._errors import handle_error, refuse, reply
from cogs._ids import BadCustomId, CustomId, parse_custom_id
from cogs._items import TableButton
from cogs._options import PACE_OPTION_HELP, PRACTICE_OPTION_HELP, REVEAL
from cogs._refusal import refusal

if TYPE_CHECKING:
    from bot.engine.actions import ActionOption

log = logging.getLogger("homegame.tables")

GAMES = ("holdem", "omaha")
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
    """A typed amount: digits, with thousands separators or spaces allowed ("1,250").

    >>> parse_amount(" 1,250 "), parse_amount("12k"), parse_amount("0"), parse_amount("²")
    (1250, None, 0, None)
    """
    cleaned = re.sub(r"[\s,._']", "", text)
    # isdecimal, not isdigit: "²" is a digit that int() refuses (it raised in the modal)
    return int(cleaned) if cleaned.isdecimal() and len(cleaned) <= 12 else None


def sizes_view(cid: CustomId, option: ActionOption) -> discord.ui.View:
    """The clicker's amount buttons: one per named size, then **Other amount…**."""
    ui = discord.ui.View(timeout=None)
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
    submit is handled by :meth:`FlopTables._amount_submitted`, not by this object)."""

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
        **PACE_OPTION_HELP,
        **PRACTICE_OPTION_HELP,
    )
    @app_commands.choices(betting=BETTING, showdown_reveal=REVEAL)
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
        **PACE_OPTION_HELP,
        **PRACTICE_OPTION_HELP,
    )
    @app_commands.choices(split=SPLIT, betting=BETTING, showdown_reveal=REVEAL)
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

    @commands.Cog.listener("on_interaction")
    async def _amount_submitted(self, interaction: discord.Interaction) -> None:
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
        amount = parse_amount(text)
        if amount is None:
            await reply(
                interaction,
                f"{text.strip()[:20]!r} is not a number of chips: type digits, e.g. 40."
                " Nothing changed.",
            )
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self._act_amount(interaction, cid, amount)

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
