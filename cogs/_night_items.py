"""The night's persistent components: a bank request's **Approve** / **Refuse**, a
settle-up transfer's **Paid**, an import's member menu, and an invitation's **In** /
**Maybe** / **Out**.

Their custom_ids carry all their state (so they work after a restart, as every Home Game
component: ``DynamicItem`` templates), under prefixes of their own, never a table id:

- ``hg:nb:<request_id>:<a|r>``: approve or refuse a buy-in or cash-out request;
- ``hg:np:<transfer_id>``: mark a settle-up transfer paid;
- ``hg:ni:<import_id>:<index>``: the member an imported player is (a user select);
- ``hg:nr:<schedule_id>:<in|maybe|out>``: answer an invitation.

Each callback goes to the night cog by name (this module is imported by the cogs, so it
imports none of them), and any error is answered by the one handler.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.engine.errors import HomeGameError
from cogs._errors import handle_error
from cogs._ids import MAX_CUSTOM_ID, BadCustomId

_ID = r"[1-9][0-9]{0,19}"
BANK_TEMPLATE = rf"hg:nb:(?P<request>{_ID}):(?P<choice>a|r)"
PAID_TEMPLATE = rf"hg:np:(?P<transfer>{_ID})"
IMPORT_TEMPLATE = rf"hg:ni:(?P<import_id>{_ID}):(?P<index>0|[1-9][0-9]{{0,3}})"
RSVP_TEMPLATE = rf"hg:nr:(?P<schedule>{_ID}):(?P<answer>in|maybe|out)"

RSVP_LABELS = {"in": "In", "maybe": "Maybe", "out": "Out"}
_RSVP_STYLES = {
    "in": discord.ButtonStyle.success,
    "maybe": discord.ButtonStyle.secondary,
    "out": discord.ButtonStyle.danger,
}


def _checked(text: str, template: str) -> str:
    if len(text) > MAX_CUSTOM_ID or not re.fullmatch(template, text):
        raise BadCustomId(f"not a night control: {text[:40]}")
    return text


def _night_cog(interaction: discord.Interaction) -> Any:
    cog: Any = interaction.client.get_cog("Night")  # type: ignore[attr-defined]
    if cog is None:
        raise HomeGameError("Nights are not available right now; try again in a moment.")
    return cog


class BankDecisionButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]], template=BANK_TEMPLATE
):
    """**Approve** / **Refuse** under a member's buy-in or cash-out request."""

    def __init__(self, request_id: int, approve: bool, item: discord.ui.Button[Any]) -> None:
        super().__init__(item)
        self.request_id = request_id
        self.approve = approve

    @classmethod
    def make(cls, request_id: int, *, approve: bool) -> BankDecisionButton:
        custom_id = _checked(f"hg:nb:{request_id}:{'a' if approve else 'r'}", BANK_TEMPLATE)
        button: discord.ui.Button[discord.ui.View] = discord.ui.Button(
            label="Approve" if approve else "Refuse",
            style=discord.ButtonStyle.success if approve else discord.ButtonStyle.danger,
            custom_id=custom_id,
        )
        return cls(request_id, approve, button)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> BankDecisionButton:
        assert isinstance(item, discord.ui.Button)
        return cls(int(match["request"]), match["choice"] == "a", item)

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await _night_cog(interaction).bank.decide(interaction, self.request_id, self.approve)
        except Exception as exc:
            await handle_error(interaction, exc)


class PaidButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]], template=PAID_TEMPLATE
):
    """**Paid** on one transfer of a settle-up (its payer or payee marks it)."""

    def __init__(self, transfer_id: int, item: discord.ui.Button[Any]) -> None:
        super().__init__(item)
        self.transfer_id = transfer_id

    @classmethod
    def make(cls, transfer_id: int, *, emoji: str, paid: bool) -> PaidButton:
        button: discord.ui.Button[discord.ui.View] = discord.ui.Button(
            label="Paid",
            emoji=emoji,
            style=discord.ButtonStyle.success if paid else discord.ButtonStyle.secondary,
            custom_id=_checked(f"hg:np:{transfer_id}", PAID_TEMPLATE),
            disabled=paid,
        )
        return cls(transfer_id, button)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PaidButton:
        assert isinstance(item, discord.ui.Button)
        return cls(int(match["transfer"]), item)

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await _night_cog(interaction).post.mark_paid(interaction, self.transfer_id)
        except Exception as exc:
            await handle_error(interaction, exc)


class ImportSelect(
    discord.ui.DynamicItem[discord.ui.UserSelect[discord.ui.View]], template=IMPORT_TEMPLATE
):
    """Which member an imported player is: a member select (any member of the server)."""

    def __init__(self, import_id: int, index: int, item: discord.ui.UserSelect[Any]) -> None:
        super().__init__(item)
        self.import_id = import_id
        self.index = index

    @classmethod
    def make(cls, import_id: int, index: int, *, name: str) -> ImportSelect:
        select: discord.ui.UserSelect[discord.ui.View] = discord.ui.UserSelect(
            custom_id=_checked(f"hg:ni:{import_id}:{index}", IMPORT_TEMPLATE),
            placeholder=f"Who is {name}?"[:150],
            min_values=1,
            max_values=1,
        )
        return cls(import_id, index, select)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ImportSelect:
        assert isinstance(item, discord.ui.UserSelect)
        return cls(int(match["import_id"]), int(match["index"]), item)

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            values = list(self.item.values)
            if len(values) != 1:
                raise HomeGameError("Choose one member. Nothing changed.")
            await _night_cog(interaction).bank.match(
                interaction, self.import_id, self.index, values[0]
            )
        except Exception as exc:
            await handle_error(interaction, exc)


class RsvpButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]], template=RSVP_TEMPLATE
):
    """**In** / **Maybe** / **Out** under an invitation."""

    def __init__(self, schedule_id: int, answer: str, item: discord.ui.Button[Any]) -> None:
        super().__init__(item)
        self.schedule_id = schedule_id
        self.answer = answer

    @classmethod
    def make(cls, schedule_id: int, answer: str) -> RsvpButton:
        button: discord.ui.Button[discord.ui.View] = discord.ui.Button(
            label=RSVP_LABELS[answer],
            style=_RSVP_STYLES[answer],
            custom_id=_checked(f"hg:nr:{schedule_id}:{answer}", RSVP_TEMPLATE),
        )
        return cls(schedule_id, answer, button)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> RsvpButton:
        assert isinstance(item, discord.ui.Button)
        return cls(int(match["schedule"]), match["answer"], item)

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await _night_cog(interaction).schedule.answer(
                interaction, self.schedule_id, self.answer
            )
        except Exception as exc:
            await handle_error(interaction, exc)


NIGHT_ITEMS = (BankDecisionButton, PaidButton, ImportSelect, RsvpButton)
"""Registered with ``bot.add_dynamic_items`` when the night cog loads."""
