"""The sandbox's users: how they click what the engine's policy chose (:mod:`bot.ops.sandbox`).

Every action is made the way a person makes it on Discord: a button of the table message
(the betting games) or of the hand DM (Zoot, Wheelers), the discard menu of the DM, and:

- a no-limit or pot-limit **Bet**/**Raise** (Hold'em, Omaha) answers the clicker alone with
  the named amounts (Min, ½ pot, Pot, All-in) and **Other amount…**: the user clicks the
  amount nearest to what the policy wants when one is near (:data:`NEAR`), else opens the
  modal and types the amount;
- Stud's **Big bet** (a pair showing on 4th street) is clicked whenever it is offered and
  the policy bets or raises: a person with the option to bet big takes it;
- at a dealer's-choice table the user who deals next picks a game in the menu of the table
  message (:func:`pick_game`), or lets the time run out.

What only the clicker sees (the amount menu, its answer) is printed as ``[only NAME] ...``.
Each function returns once the bot has settled (:func:`settle`).
"""

from __future__ import annotations

import asyncio
import contextvars
import random
from typing import Any, Protocol

from bot.engine.actions import Action
from bot.engine.errors import HomeGameError
from bot.testing import FakeDiscord, FakeMessage, FakeUser, InteractionRecord
from bot.testing.fake_records import InteractionReply
from cogs._pace import PING_MARK


class Printing(Protocol):
    """The sandbox's printer (:class:`bot.ops.sandbox.Printer`), as the users need it."""

    def note(self, tag: str, message: FakeMessage) -> None: ...

    def say(self, tag: str, text: str) -> None: ...


class _World(Protocol):
    """What the users click through and print to (the sandbox's world; a protocol, so
    this module does not import the one that imports it)."""

    @property
    def fake(self) -> FakeDiscord: ...

    @property
    def printer(self) -> Printing: ...


LABELS = {
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
}
OTHER_AMOUNT = "Other amount…"
AMOUNT_INPUT = "amount"
"""The custom_id of the amount modal's text input (cogs/_flop.py)."""
NEAR = 0.1
"""A named amount within this share of the policy's amount is near enough to click."""
TIMEOUT_SHARE = 0.25
"""How often a dealer's-choice dealer lets the time to pick run out."""


class SandboxError(HomeGameError):
    """The sandbox could not finish (the game stalled or was refused)."""


#: The names of the tasks in which discord.py runs the bot's answer to an interaction, and
#: of the tables cog's message updates: while one of them is pending, the bot is busy.
_BUSY_TASKS = (
    "CommandTree-invoker",
    "discord-ui-view-dispatch-",
    "discord-ui-dynamic-item-",
    "discord-ui-modal-dispatch-",
    "update-",
)


_UPDATES: contextvars.ContextVar[Any] = contextvars.ContextVar("sandbox_updates", default=None)
"""The tables cog's updater (:class:`cogs._coalesce.Coalescer`) of the sandbox's bot: an
edit it holds back to merge with a player's next change (up to 15 s of real time) is shown
at once when the sandbox waits for the bot to settle."""


SETTLE: contextvars.ContextVar[bool] = contextvars.ContextVar("sandbox_settle", default=True)
"""Whether each click waits for the bot to settle (the sandbox, for a repeatable
transcript); bench/requests.py clicks in real time instead (its edits may coalesce)."""


async def settle(timeout: float = 30.0) -> None:
    """Wait until the bot has done everything it started: every interaction answered to
    the end, every message edit and post sent. The sandbox acts only then, so each of its
    clicks (and each deadline it lets run out) is one burst of edits of its own, and the
    messages' versions are the same on every run (no edit coalesced with the next click's).
    Raises SandboxError if the bot is still busy after ``timeout`` seconds."""
    me = asyncio.current_task()
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    updates = _UPDATES.get()
    while True:
        if updates is not None:
            await updates.idle()  # what waits to merge with a later change: shown now
        busy = [
            t
            for t in asyncio.all_tasks()
            if t is not me and not t.done() and t.get_name().startswith(_BUSY_TASKS)
        ]
        if not busy:
            return
        remaining = end - loop.time()
        if remaining <= 0:
            names = ", ".join(sorted(t.get_name() for t in busy))
            raise SandboxError(f"the bot was still busy after {timeout:.0f} s: {names}")
        await asyncio.wait(busy, timeout=min(remaining, 0.05 if updates else remaining))


async def _reply(record: InteractionRecord) -> InteractionReply | None:
    """The bot's answer once it has settled; None if it never answered."""
    try:
        return await record.response()  # the fake's own wait: a loaded machine answers later
    except (TimeoutError, AssertionError):
        return None
    finally:
        if SETTLE.get():
            await settle()


async def _answer(record: InteractionRecord) -> bool:
    """True when the bot took the click (edited the message clicked); returns once the bot
    has settled (:func:`settle`)."""
    reply = await _reply(record)
    return reply is not None and reply.updated_message


def hand_dm(fake: FakeDiscord, user: FakeUser) -> FakeMessage | None:
    """The user's hand DM: their newest DM that is not a turn ping (cogs/_pace.py)."""
    return next((m for m in reversed(fake.dms(user)) if not m.content.startswith(PING_MARK)), None)


def _enabled_button(message: FakeMessage, label: str) -> str | None:
    for button in message.buttons():
        if button.get("label") == label and not button.get("disabled"):
            return str(button["custom_id"])
    return None


async def act(world: _World, user: FakeUser, table_msg: FakeMessage, action: Action) -> bool:
    """Make ``action`` as ``user`` by clicking; False if the control is not shown yet (the
    message is being updated) or the bot refused it (a stale button): try again later."""
    fake = world.fake
    if action.kind in ("lay_down", "play_on", "discard"):
        dm = hand_dm(fake, user)
        if dm is None:
            return False
        if action.kind == "discard":
            if action.card is None or not dm.selects():
                return False
            menu = dm.selects()[0]
            values = [str(o["value"]) for o in menu.get("options", ())]
            if str(action.card) not in values:
                return False
            return await _answer(await fake.select(user, dm, menu["custom_id"], [str(action.card)]))
        custom_id = _enabled_button(dm, LABELS[action.kind])
        if custom_id is None:
            return False
        return await _answer(await fake.click(user, dm, custom_id))
    if action.kind in ("bet", "raise"):
        big = _enabled_button(table_msg, LABELS["big_bet"])
        if big is not None:
            return await _answer(await fake.click(user, table_msg, big))
    custom_id = _enabled_button(table_msg, LABELS.get(action.kind, action.kind))
    if custom_id is None:
        return False
    reply = await _reply(await fake.click(user, table_msg, custom_id))
    if reply is None:
        return False
    if reply.updated_message:
        return True  # acted at once (every game's fixed-limit bet, a call, a fold…)
    if action.kind in ("bet", "raise") and reply.ephemeral and reply.message is not None:
        return await _choose_amount(world, user, reply.message, action)
    _only(world, user, reply.message, reply.content)  # a refusal: shown, then tried again
    return False


def _amount_buttons(menu: FakeMessage) -> list[tuple[int, str]]:
    """(amount, custom_id) of the menu's named amounts (``hg:<t>:<v>:raise:<to>``)."""
    found = []
    for button in menu.buttons():
        arg = str(button.get("custom_id", "")).rsplit(":", 1)[-1]
        if arg.isdigit() and not button.get("disabled"):
            found.append((int(arg), str(button["custom_id"])))
    return found


async def _choose_amount(world: _World, user: FakeUser, menu: FakeMessage, action: Action) -> bool:
    """The Bet/Raise menu the clicker alone sees: the named amount nearest to the policy's,
    if near; else **Other amount…** and the amount typed in the modal."""
    fake = world.fake
    _only(world, user, menu, None)
    sizes = _amount_buttons(menu)
    want = action.amount
    nearest = None
    if sizes:
        goal = want if want is not None else sizes[0][0]
        nearest = min(sizes, key=lambda s: (abs(s[0] - goal), s[0]))
    if nearest is not None and (want is None or abs(nearest[0] - want) <= want * NEAR):
        reply = await _reply(await fake.click(user, menu, nearest[1]))
    else:
        other = _enabled_button(menu, OTHER_AMOUNT)
        if other is None or want is None:
            return False
        opened = await fake.click(user, menu, other)
        shown = await _reply(opened)
        if shown is None or shown.modal is None:
            return False
        _only(world, user, None, f"({OTHER_AMOUNT}) types {want}")
        reply = await _reply(await fake.submit_modal(user, opened, {AMOUNT_INPUT: str(want)}))
    if reply is None:
        return False
    _only(world, user, None, reply.content)
    return reply.content.startswith("You ")


def _only(world: _World, user: FakeUser, message: FakeMessage | None, text: str | None) -> None:
    """Print what only ``user`` sees (an ephemeral answer), before the shared messages its
    click changed (those are printed once the sandbox looks at the table again)."""
    if message is not None and text is None:
        world.printer.note(f"[only {user.name}]", message)
    elif text:
        world.printer.say(f"[only {user.name}]", text)


async def pick_game(
    world: _World, user: FakeUser, table_msg: FakeMessage, rng: random.Random
) -> bool:
    """The next dealer's turn to pick the game of their deal: mostly a game of the menu
    (any allowed one, by ``rng``), sometimes nothing (the time then runs out: the caller
    lets the clock reach the deadline). True when a game was picked."""
    menus = table_msg.selects()
    if not menus:
        return False
    menu = menus[0]
    options = [(str(o["value"]), str(o["label"])) for o in menu.get("options", ())]
    if not options:
        return False
    if rng.random() < TIMEOUT_SHARE:
        world.printer.say("[sandbox]", f"{user.name} does not pick; the time will run out")
        return False
    key, label = rng.choice(options)
    world.printer.say("[sandbox]", f"{user.name} picks {label}")
    return await _answer(await world.fake.select(user, table_msg, str(menu["custom_id"]), [key]))
