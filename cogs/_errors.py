"""The one place where errors of slash commands and components become replies.

Typed errors (:class:`~bot.engine.errors.HomeGameError` and its subclasses: not your turn,
stale button, illegal action, bad card…) become a short ephemeral reply with their
``message``; a failed check becomes its reason; anything else becomes a polite apology to
the user and a traceback in the log. Users never see a traceback.

Every refusal reads the same way (:func:`bot.render.text.refusal_text`): a sentence with a
capital letter and a full stop, then what changed ("It is not your turn. Nothing
changed."). The engines keep their short reasons; they are worded here, at the adapter.
"""

from __future__ import annotations

import logging

import discord
from discord import app_commands

from bot.engine.errors import HomeGameError, InvalidCard, InvalidConfig
from bot.render.text import refusal_text
from cogs._answer import send

log = logging.getLogger("homegame.errors")

APOLOGY = (
    "Sorry, something went wrong on our side. Check the table or setting before trying"
    " again: what was already saved stays saved."
)
REPLY_REFUSED = (
    "Sorry, Discord would not show my answer (code {code}). What you asked for may already"
    " be done: check it (e.g. `/league show`, the table message) before trying again."
)
"""Discord refused a reply: the command's change may be saved already (a store commit
comes before its reply), so never "nothing changed"."""


async def reply(interaction: discord.Interaction, text: str, *, ephemeral: bool = True) -> None:
    """Answer ``interaction`` whether or not it was already acknowledged (a command that
    deferred, or a click answered by an edit, gets a follow-up instead)."""
    await send(interaction, text, ephemeral=ephemeral)


async def refuse(interaction: discord.Interaction, reason: str) -> None:
    """Refuse what ``interaction`` asked, ephemerally, in the one style of refusals."""
    await reply(interaction, refusal_text(reason))


def user_message(error: BaseException) -> str | None:
    """The text to show for an expected error; None for an unexpected one (a bug)."""
    if isinstance(error, app_commands.CommandInvokeError | app_commands.TransformerError):
        inner = error.__cause__ if error.__cause__ is not None else error
        if isinstance(error, app_commands.CommandInvokeError):
            inner = error.original
        if inner is not error:
            return user_message(inner)
    if isinstance(error, InvalidConfig) and error.field and error.reason:
        # "razz_bring_in: must be less than…" reads as a sentence with the option after it
        return refusal_text(f"{error.reason.rstrip('.')} (`{error.field}`)")
    if isinstance(error, InvalidCard):
        # "'5x': unknown suit" reads as a sentence with what it is about first
        return refusal_text(f"Card {error.token!r}: {error.reason}")
    if isinstance(error, HomeGameError):
        return refusal_text(error.message)
    if isinstance(error, app_commands.MissingPermissions):
        return refusal_text("You need the Manage Server permission for that.")
    if isinstance(error, app_commands.CheckFailure):
        return refusal_text(str(error) or "You may not use this command here.")
    if isinstance(error, app_commands.CommandOnCooldown):
        return refusal_text(f"Slow down: try again in {error.retry_after:.0f} s.")
    return None


def refused_reply(error: BaseException) -> str | None:
    """The answer when Discord refused one of the command's own requests (its reply, most
    often, after the change was saved); None for any other error."""
    original = getattr(error, "original", error)
    if isinstance(original, discord.HTTPException):
        return REPLY_REFUSED.format(code=original.code or original.status)
    return None


async def handle_error(interaction: discord.Interaction, error: BaseException) -> None:
    """Answer ``error`` ephemerally; log the traceback of anything unexpected."""
    text = user_message(error)
    original = getattr(error, "original", error)
    if text is None and (refused := refused_reply(error)) is not None:
        log.warning(
            "Discord refused a request in %s (user %s): %s",
            interaction.command.qualified_name if interaction.command else "component",
            interaction.user.id,
            refused.split("(code ", 1)[1].split(")", 1)[0],
        )
        text = refused
    elif text is None:
        where = interaction.command.qualified_name if interaction.command else "component"
        log.error(
            "unexpected error in %s (user %s)",
            where,
            interaction.user.id,
            exc_info=(type(original), original, original.__traceback__),
        )
        text = APOLOGY
    try:
        await reply(interaction, text)
    except discord.HTTPException:
        # the interaction expired or was answered elsewhere: nothing more we can say
        log.warning("could not deliver an error reply to user %s", interaction.user.id)
