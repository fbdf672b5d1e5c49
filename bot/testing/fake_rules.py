"""What real Discord refuses, for the fake: the length and count limits of a message body
(400, code 50035), the bot's permissions in a channel (403, 50001 / 50013) and the cap on
edits to messages older than an hour (30046).

Each limit names its source: the API documentation (``discord/discord-api-docs``, files
under ``developers/``; read at commit c98d64bc, 2026-08-06) or the OpenAPI description
(``discord/discord-api-spec``, ``specs/openapi.json``). The error codes are from
``developers/topics/opcodes-and-status-codes.mdx``, "JSON Error Codes".
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from bot.testing.fake_model import (
    ADMINISTRATOR,
    ALL_PERMISSIONS,
    ATTACH_FILES,
    CREATE_PUBLIC_THREADS,
    EMBED_LINKS,
    READ_MESSAGE_HISTORY,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    VIEW_CHANNEL,
    FakeChannel,
    FakeMember,
    walk_components,
)

JSON = dict[str, Any]

# developers/resources/message.mdx, "Create Message" / "Edit Message" JSON params:
# "content: Message contents (up to 2000 characters)", "embeds: Up to 10 rich embeds
# (up to 6000 characters)".
MAX_CONTENT = 2000
MAX_EMBEDS = 10
# developers/resources/message.mdx, "Embed Limits" (inclusive; the 6,000 is summed over
# title, description, field names and values, footer text and author name of every embed).
MAX_EMBED_TITLE = 256
MAX_EMBED_DESCRIPTION = 4096
MAX_EMBED_FIELDS = 25
MAX_FIELD_NAME = 256
MAX_FIELD_VALUE = 1024
MAX_FOOTER = 2048
MAX_AUTHOR_NAME = 256
MAX_EMBED_TOTAL = 6000
# developers/components/reference.mdx: "Legacy messages allow up to 5 action rows as
# top-level components"; "Action Row": "Up to 5 interactive button components or a single
# select component"; "Button Structure": "label: max 80 characters"; "Custom ID": "a string
# of 1 to 100 characters", unique per message; "String Select Structure": "options: max 25";
# "Select Option Structure": label, value and description "max 100 characters".
MAX_ACTION_ROWS = 5
MAX_ROW_BUTTONS = 5
MAX_BUTTON_LABEL = 80
MAX_CUSTOM_ID = 100
MAX_SELECT_OPTIONS = 25
MAX_OPTION_TEXT = 100
# components/reference.mdx, "String Select Structure": "placeholder: Placeholder text if
# nothing is selected or default; max 150 characters".
MAX_SELECT_PLACEHOLDER = 150
# interactions/receiving-and-responding.mdx, "Modal": "title: Title of the popup modal,
# max 45 characters", "components: Between 1 and 5 (inclusive) components".
# components/reference.mdx, "Text Input Structure": "label: max 45 characters",
# "min_length: Minimum input length for a text input; min 0, max 4000", "max_length: ...
# min 1, max 4000", "required: Whether this component is required to be filled (defaults
# to true)", "placeholder: max 100 characters"; the client will not submit a value outside
# min_length..max_length, nor an empty required one.
MAX_MODAL_TITLE = 45
MAX_MODAL_COMPONENTS = 5
MAX_TEXT_INPUT_LABEL = 45
MAX_TEXT_INPUT_PLACEHOLDER = 100
MAX_TEXT_INPUT_LENGTH = 4000
# developers/components/reference.mdx: "Messages allow up to 40 total components" (v2).
MAX_V2_COMPONENTS = 40
# specs/openapi.json, MessageCreateRequest.attachments: "maxItems": 10.
MAX_ATTACHMENTS = 10

# opcodes-and-status-codes.mdx: "30046 Maximum number of edits to messages older than 1
# hour reached. Try again later". How many such edits Discord lets through is not
# published; the fake allows ``FakeDiscord.old_message_edits`` per message (0 by default:
# the strictest reading, so a bot that relies on editing old messages fails in tests).
OLD_MESSAGE_AGE = 3600.0

SELECT_TYPES = (3, 5, 6, 7, 8)


class ApiError(Exception):
    """A Discord JSON error answer (status, code, message)."""

    def __init__(self, status: int, code: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


def invalid_form(message: str) -> ApiError:
    return ApiError(400, 50035, f"Invalid Form Body: {message}")


def missing_access() -> ApiError:
    """50001: the bot cannot see the channel (no View Channel)."""
    return ApiError(403, 50001, "Missing Access")


def missing_permissions() -> ApiError:
    """50013: "You lack permissions to perform that action"."""
    return ApiError(403, 50013, "Missing Permissions")


def _text(value: Any) -> str:
    # the embed limits count characters after trimming (message.mdx, "Embed Limits")
    return str(value or "").strip()


def check_embeds(embeds: Sequence[Mapping[str, Any]]) -> None:
    """The "Embed Limits" of message.mdx, each embed and all of them together."""
    if len(embeds) > MAX_EMBEDS:
        raise invalid_form(f"embeds: must be {MAX_EMBEDS} or fewer in length")
    total = 0
    for n, embed in enumerate(embeds):
        where = f"embeds.{n}"
        title = _text(embed.get("title"))
        description = _text(embed.get("description"))
        footer = _text((embed.get("footer") or {}).get("text"))
        author = _text((embed.get("author") or {}).get("name"))
        for name, text, limit in (
            ("title", title, MAX_EMBED_TITLE),
            ("description", description, MAX_EMBED_DESCRIPTION),
            ("footer.text", footer, MAX_FOOTER),
            ("author.name", author, MAX_AUTHOR_NAME),
        ):
            if len(text) > limit:
                raise invalid_form(f"{where}.{name}: must be {limit} or fewer in length")
        total += len(title) + len(description) + len(footer) + len(author)
        fields = embed.get("fields") or []
        if len(fields) > MAX_EMBED_FIELDS:
            raise invalid_form(f"{where}.fields: must be {MAX_EMBED_FIELDS} or fewer in length")
        for i, fld in enumerate(fields):
            name, value = _text(fld.get("name")), _text(fld.get("value"))
            if len(name) > MAX_FIELD_NAME:
                raise invalid_form(f"{where}.fields.{i}.name: must be {MAX_FIELD_NAME} or fewer")
            if len(value) > MAX_FIELD_VALUE:
                raise invalid_form(
                    f"{where}.fields.{i}.value: must be {MAX_FIELD_VALUE} or fewer in length"
                )
            total += len(name) + len(value)
    if total > MAX_EMBED_TOTAL:
        raise invalid_form(f"embeds: {total} characters in all, more than {MAX_EMBED_TOTAL}")


def check_components(components: Sequence[Mapping[str, Any]], *, v2: bool) -> None:
    """Rows, buttons, selects and custom_ids of components/reference.mdx."""
    if v2:
        if sum(1 for _ in walk_components(components)) > MAX_V2_COMPONENTS:
            raise invalid_form(f"components: more than {MAX_V2_COMPONENTS} in all")
    else:
        if len(components) > MAX_ACTION_ROWS:
            raise invalid_form(f"components: must be {MAX_ACTION_ROWS} or fewer in length")
        for n, row in enumerate(components):
            if row.get("type") != 1:
                raise invalid_form(f"components.{n}: top level must be action rows")
            children = row.get("components") or []
            selects = [c for c in children if c.get("type") in SELECT_TYPES]
            if selects and len(children) > 1:
                raise invalid_form(f"components.{n}: a select fills its action row alone")
            if len(children) > MAX_ROW_BUTTONS:
                raise invalid_form(f"components.{n}: at most {MAX_ROW_BUTTONS} buttons a row")
    custom_ids: set[str] = set()
    for component in walk_components(components):
        custom_id = component.get("custom_id")
        if custom_id is not None:
            if not 1 <= len(custom_id) <= MAX_CUSTOM_ID:
                raise invalid_form(f"custom_id {custom_id[:20]!r}…: must be 1-100 characters")
            if custom_id in custom_ids:
                raise invalid_form(f"custom_id {custom_id!r} used twice in one message")
            custom_ids.add(custom_id)
        if component.get("type") == 2 and len(str(component.get("label") or "")) > 80:
            raise invalid_form(f"button label: must be {MAX_BUTTON_LABEL} or fewer in length")
        placeholder = component.get("placeholder")
        if component.get("type") in SELECT_TYPES and len(str(placeholder or "")) > (
            MAX_SELECT_PLACEHOLDER
        ):
            raise invalid_form(f"select placeholder: must be {MAX_SELECT_PLACEHOLDER} or fewer")
        options = component.get("options") or []
        if len(options) > MAX_SELECT_OPTIONS:
            raise invalid_form(f"select options: must be {MAX_SELECT_OPTIONS} or fewer")
        for option in options:
            for key in ("label", "value", "description"):
                if len(str(option.get(key) or "")) > MAX_OPTION_TEXT:
                    raise invalid_form(f"select option {key}: must be {MAX_OPTION_TEXT} or fewer")


def check_modal(body: Mapping[str, Any]) -> None:
    """A modal answer (callback type 9): its title, custom_id and text inputs."""
    title = str(body.get("title") or "")
    if not 1 <= len(title) <= MAX_MODAL_TITLE:
        raise invalid_form(f"modal title: must be 1-{MAX_MODAL_TITLE} characters")
    custom_id = str(body.get("custom_id") or "")
    if not 1 <= len(custom_id) <= MAX_CUSTOM_ID:
        raise invalid_form("modal custom_id: must be 1-100 characters")
    rows = body.get("components") or []
    if not 1 <= len(rows) <= MAX_MODAL_COMPONENTS:
        raise invalid_form(f"modal components: between 1 and {MAX_MODAL_COMPONENTS}")
    for component in walk_components(rows):
        if component.get("type") != 4:
            continue
        low = component.get("min_length", 0)
        high = component.get("max_length", MAX_TEXT_INPUT_LENGTH)
        if not (0 <= low <= MAX_TEXT_INPUT_LENGTH and 1 <= high <= MAX_TEXT_INPUT_LENGTH):
            raise invalid_form("text input: min_length 0-4000, max_length 1-4000")
        if len(str(component.get("label") or "")) > MAX_TEXT_INPUT_LABEL:
            raise invalid_form(f"text input label: must be {MAX_TEXT_INPUT_LABEL} or fewer")
        if len(str(component.get("placeholder") or "")) > MAX_TEXT_INPUT_PLACEHOLDER:
            raise invalid_form(
                f"text input placeholder: must be {MAX_TEXT_INPUT_PLACEHOLDER} or fewer"
            )


def text_input_refusal(component: Mapping[str, Any], value: str) -> str | None:
    """Why the Discord client would not submit ``value`` in this text input (None: it would)."""
    required = component.get("required", True)
    if not value:
        return "this field is required" if required else None
    low = component.get("min_length", 0)
    high = component.get("max_length", MAX_TEXT_INPUT_LENGTH)
    if not low <= len(value) <= high:
        return f"length must be {low}..{high}"
    return None


# developers/resources/message.mdx, "Allowed Mentions Object": "parse: An array of allowed
# mention types to parse from the content" (roles, users, everyone); "users: Array of
# user_ids to mention (Max size of 100)"; "The parse field is mutually exclusive with the
# other fields": {"parse": ["users"], "users": [...]} is refused (400). Without the object
# every mention in the content notifies ("the default behavior ... parses all mentions").
MENTION_TYPES = frozenset({"roles", "users", "everyone"})
MAX_MENTION_IDS = 100
_USER_MENTION = re.compile(r"<@!?(\d+)>")


def check_allowed_mentions(allowed: Any) -> None:
    """Refuse an allowed_mentions object Discord refuses (400, 50035)."""
    if allowed is None:
        return
    if not isinstance(allowed, Mapping):
        raise invalid_form("allowed_mentions: must be an object")
    parse = allowed.get("parse") or []
    if any(p not in MENTION_TYPES for p in parse):
        raise invalid_form(f"allowed_mentions.parse: unknown type in {parse!r}")
    for kind in ("users", "roles"):
        ids = allowed.get(kind) or []
        if len(ids) > MAX_MENTION_IDS:
            raise invalid_form(f"allowed_mentions.{kind}: must be {MAX_MENTION_IDS} or fewer")
        if ids and kind in parse:
            raise invalid_form(
                f"allowed_mentions: parse {kind!r} and {kind} are mutually exclusive"
            )


def notified_users(content: str, allowed: Mapping[str, Any] | None) -> frozenset[int]:
    """The users a message's content mentions AND notifies, given its allowed_mentions (a
    mention in an embed never notifies: only the content's are parsed)."""
    found = {int(m) for m in _USER_MENTION.findall(content or "")}
    if allowed is None:
        return frozenset(found)
    if "users" in (allowed.get("parse") or []):
        return frozenset(found)
    listed = {int(u) for u in allowed.get("users") or []}
    return frozenset(found & listed)


def check_message(body: Mapping[str, Any], *, creating: bool, attachments: int) -> None:
    """Every length and count limit of a message body (create, edit, interaction answer);
    ``attachments``: how many the message would carry (new files and kept ones)."""
    check_allowed_mentions(body.get("allowed_mentions"))
    content = body.get("content")
    if content is not None and len(str(content)) > MAX_CONTENT:
        raise invalid_form(f"content: must be {MAX_CONTENT} or fewer in length")
    embeds = body.get("embeds") or []
    check_embeds(embeds)
    components = body.get("components") or []
    check_components(components, v2=bool((body.get("flags") or 0) & (1 << 15)))
    if attachments > MAX_ATTACHMENTS:
        raise invalid_form(f"attachments: must be {MAX_ATTACHMENTS} or fewer in length")
    if creating and not (content or embeds or components or attachments or body.get("poll")):
        raise ApiError(400, 50006, "Cannot send an empty message")


# ---------------------------------------------------------------------------- permissions


def bot_permissions(channel: FakeChannel, member: FakeMember | None) -> int:
    """The bot's permissions in ``channel``: its guild permissions, then the channel's
    overwrite for it (deny, then allow), as in developers/topics/permissions.mdx,
    "Permission Overwrites" (administrator overrides every overwrite)."""
    if channel.guild is None:
        return ALL_PERMISSIONS
    if channel.parent is not None:
        # a thread has no overwrites of its own: its parent channel's permissions apply
        # (developers/topics/threads.mdx, "Permissions")
        return bot_permissions(channel.parent, member)
    base = member.permissions if member is not None else 0
    if base & ADMINISTRATOR:
        return ALL_PERMISSIONS
    allow, deny = channel.overwrites.get(member.user.id, (0, 0)) if member else (0, 0)
    value = (base & ~deny) | allow
    if not value & VIEW_CHANNEL:
        return 0  # "implicit permissions": nothing in a channel one cannot view
    return value


def check_post(
    perms: int, *, embeds: bool, files: int, reply: bool = False, thread: bool = False
) -> None:
    """Create Message (message.mdx): View Channel (else 50001), Send Messages (in a thread:
    Send Messages in Threads, permissions.mdx), Embed Links for embeds, Attach Files for
    files, Read Message History for a reply (else 50013)."""
    if not perms & VIEW_CHANNEL:
        raise missing_access()
    needed = SEND_MESSAGES_IN_THREADS if thread else SEND_MESSAGES
    if embeds:
        needed |= EMBED_LINKS
    if files:
        needed |= ATTACH_FILES
    if reply:
        needed |= READ_MESSAGE_HISTORY
    if perms & needed != needed:
        raise missing_permissions()


def check_edit(perms: int, *, embeds: bool, files: int) -> None:
    """Edit Message of one's own message: the channel must be visible (50001); new embeds
    and files need Embed Links and Attach Files as on a post (50013)."""
    if not perms & VIEW_CHANNEL:
        raise missing_access()
    needed = (EMBED_LINKS if embeds else 0) | (ATTACH_FILES if files else 0)
    if perms & needed != needed:
        raise missing_permissions()


def check_read(perms: int) -> None:
    """Get Channel Message(s): View Channel (50001) and Read Message History (50013)."""
    if not perms & VIEW_CHANNEL:
        raise missing_access()
    if not perms & READ_MESSAGE_HISTORY:
        raise missing_permissions()


# ---------------------------------------------------------------------------- threads

# developers/resources/channel.mdx, "Start Thread without Message": POST
# /channels/{channel.id}/threads, "Creates a new thread that is not connected to an
# existing message ... Fires a Thread Create Gateway event"; JSON params "name: 1-100
# character channel name", "auto_archive_duration: the thread will stop showing in the
# channel list after auto_archive_duration minutes of inactivity, can be set to: 60, 1440,
# 4320, 10080", "type: the type of thread to create" (11 public, 12 private),
# "rate_limit_per_user: ... 0-21600". A public thread needs Create Public Threads in the
# parent (permissions.mdx); threads are made in text channels (type 0) only here, else
# 50024 "Cannot execute action on this channel type". opcodes-and-status-codes.mdx:
# "160006 Maximum number of active threads reached" (topics/threads.mdx: a guild has at
# most 1,000 active threads).
THREAD_NAME = (1, 100)
ARCHIVE_DURATIONS = (60, 1440, 4320, 10080)
MAX_ACTIVE_THREADS = 1000
MAX_SLOWMODE = 21600


def check_thread(body: Mapping[str, Any], parent: FakeChannel, perms: int, active: int) -> None:
    """What Start Thread without Message refuses (see the comment above)."""
    if not perms & VIEW_CHANNEL:
        raise missing_access()
    if parent.guild is None or parent.parent is not None:
        raise ApiError(400, 50024, "Cannot execute action on this channel type")
    name = body.get("name")
    if not isinstance(name, str) or not THREAD_NAME[0] <= len(name.strip()) <= THREAD_NAME[1]:
        raise invalid_form("name: must be between 1 and 100 in length")
    duration = body.get("auto_archive_duration", 4320)
    if duration not in ARCHIVE_DURATIONS:
        raise invalid_form(f"auto_archive_duration: must be one of {ARCHIVE_DURATIONS}")
    kind = body.get("type", 12)
    if kind not in (11, 12):
        raise invalid_form("type: a thread without a message is of type 11 or 12")
    slow = body.get("rate_limit_per_user")
    if slow is not None and (type(slow) is not int or not 0 <= slow <= MAX_SLOWMODE):
        raise invalid_form(f"rate_limit_per_user: from 0 to {MAX_SLOWMODE}")
    if kind == 11 and not perms & CREATE_PUBLIC_THREADS:
        raise missing_permissions()
    if kind == 12:
        raise ApiError(400, 50024, "Cannot execute action on this channel type")
    if active >= MAX_ACTIVE_THREADS:
        raise ApiError(400, 160006, "Maximum number of active threads reached")
