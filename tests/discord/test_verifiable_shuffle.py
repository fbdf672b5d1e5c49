"""Issue 18 item 10, "A shuffle players can check", through the fake Discord: at a table
opened with ``verifiable:on`` (Zoot, Stud, Hold'em, HORSE) the table message says from the
start that the seeds are published when the table closes and shows, before each hand, the
commitment (the SHA-256 of that hand's seed, 64 hex digits); while the table is open
``/history`` redacts as before and no seed reaches anyone; once it is closed ``/history``
gives each hand's seed and a **Verify** line, and ``python -m bot verify`` (run as a
process) accepts the files it attaches and refuses a copy with a changed card or seed."""

from __future__ import annotations

import asyncio
import hashlib
import io
import logging
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bot.app import HomeGameBot
from bot.config import DiscordSettings, Settings
from bot.ops.logs import PAYLOAD_LOGGERS, setup_logging
from bot.testing import FakeMessage, FakeUser
from tests.discord.conftest import World
from tests.discord.tablebot import (
    assert_all_acknowledged,
    eventually,
    field,
    footer_state,
    table_bot,
)
from tests.discord.test_mixed_tables import next_hand_started, play_hand, service, table_message
from tests.discord.test_razz_table import STAKES as RAZZ_STAKES
from tests.discord.test_razz_table import play_razz_hand

REPO = Path(__file__).resolve().parents[2]
HEX64 = re.compile(r"`([0-9a-f]{64})`")
FIELD = "Verifiable shuffle"
DEAL = re.compile(r"'d dh p(\d+) ((?:[2-9TJQKA][cdhs])+)")


async def fresh_table(world: World, bot: HomeGameBot, tid: int) -> FakeMessage:
    """The table message once it shows the table's committed state (polled: the bot edits
    it asynchronously; a loaded machine only makes it later)."""
    version = (await service(bot).view(tid)).version

    async def shown() -> FakeMessage | None:
        message = await table_message(world, bot, tid)
        return message if message.embeds and footer_state(message) >= version else None

    for _ in range(3000):
        found = await shown()
        if found is not None:
            return found
        await asyncio.sleep(0.02)
    raise AssertionError("the table message does not show the table's state")


def shown_commitment(table: FakeMessage) -> tuple[int, str]:
    """The hand number and commitment the table message shows now."""
    text = field(table, FIELD)
    assert text is not None, "the table message has no verifiable-shuffle field"
    assert "published in /history when the table closes" in text, text
    found = re.search(r"Hand (\d+) commitment", text)
    commit = HEX64.search(text)
    assert found and commit, text
    return int(found[1]), commit[1]


async def open_hand(
    world: World, user: FakeUser, hand_id: int
) -> tuple[dict[str, object], dict[str, str]]:
    """``/history``, then that hand in its menu: the replay's embed and the attached files."""
    fake = world.fake
    reply = await (await fake.invoke(user, world.channel, "history")).response()
    assert reply.ephemeral and reply.message is not None, reply.content
    (menu,) = reply.message.selects()
    assert str(hand_id) in [str(o["value"]) for o in menu["options"]]
    opened = await (
        await fake.select(user, reply.message, str(menu["custom_id"]), [str(hand_id)])
    ).response()
    assert opened.ephemeral and opened.message is not None, opened.content
    # the hand history (PHH, or the guts games' TOML); the PokerStars text beside it is an
    # export of the same hand
    files = {
        a.filename: a.data.decode("utf-8")
        for a in opened.message.attachments
        if not a.filename.endswith("-pokerstars.txt")
    }
    return opened.message.embeds[0], files


def everything_seen(world: World) -> str:
    """Every version of every message any user could see, attachments' contents too."""
    parts = []
    for user in (world.alice, world.bob, world.carol, world.dave, world.outsider):
        for v in world.fake.visible_to(user):
            parts.append(v.text)
            parts.extend(a.data.decode("utf-8", "replace") for a in v.attachments)
    return "\n".join(parts)


def verify(*files: Path) -> subprocess.CompletedProcess[str]:
    """``python -m bot verify FILE...`` as a user runs it."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("HOMEGAME_")}
    env["PYTHONPATH"] = str(REPO)
    return subprocess.run(
        [sys.executable, "-m", "bot", "verify", *map(str, files)],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        cwd=files[0].parent,
    )


def tamper_card(text: str) -> str:
    """The file with the first card of its first deal swapped for one the hand never saw."""
    dealt = set(re.findall(r"[2-9TJQKA][cdhs]", " ".join(m[1] for m in DEAL.finditer(text))))
    first = DEAL.search(text)
    assert first is not None
    unseen = next(
        r + s for r in "23456789TJQKA" for s in "cdhs" if r + s not in dealt and r + s not in text
    )
    start = first.start(2)
    return text[:start] + unseen + text[start + 2 :]


def tamper_seed(text: str) -> str:
    seed = re.search(r"^_seed = '([0-9a-f]{64})'$", text, re.M)
    assert seed is not None
    digit = "1" if seed[1][0] != "1" else "2"
    return text.replace(seed[1], digit + seed[1][1:])


async def play_verifiable_table(
    world: World,
    bot: HomeGameBot,
    command: str,
    options: dict[str, object],
    tmp_path: Path,
    *,
    hands: int = 2,
) -> list[Path]:
    """Open ``/command verifiable:on``, play ``hands`` hands checking the commitment shown
    before each, close the table; return the hand history files /history gave after."""
    fake = world.fake
    players = [world.alice, world.bob, world.carol]
    reply = await (
        await fake.invoke(world.alice, world.channel, command, {**options, "verifiable": "on"})
    ).response()
    table = reply.message
    assert table is not None and not reply.ephemeral, reply.content
    # from the start: the seeds come when the table closes; hand 1's commitment already
    number, first = shown_commitment(table)
    assert number == 1
    for user in players[1:]:
        assert (await (await fake.click_label(user, table, "Join")).response()).updated_message
    await (await fake.click_label(world.alice, table, "Start")).response()
    view = await service(bot).table_in_channel(world.channel.id)
    assert view is not None and view.hand_number == 1
    tid = view.table_id
    promised = {1: first}
    for n in range(1, hands + 1):
        message = await fresh_table(world, bot, tid)
        assert shown_commitment(message) == (n, promised[n])  # during the hand: the same
        await play_hand(world, bot, tid, players)
        # the hand is over; before the next one is dealt the table shows its commitment
        message = await fresh_table(world, bot, tid)
        number, commit = shown_commitment(message)
        assert number == n + 1 and commit not in promised.values()
        promised[n + 1] = commit
        if n < hands:
            assert await service(bot).tick(tid, force=True)  # deal the next hand now
            await next_hand_started(bot, tid, n)
    async with bot.store.read() as tx:
        stored = [h for h in await tx.hands(tid) if h.status == "finished"]
    assert len(stored) == hands
    # the store keeps each hand's seed; its SHA-256 is what the table showed before it
    for h in stored:
        assert (
            h.seed is not None
            and hashlib.sha256(bytes.fromhex(h.seed)).hexdigest() == (promised[h.number])
        )
        assert h.history is not None and f"_commitment = '{promised[h.number]}'" in h.history
        assert "_seed" not in h.history
    # while the table is open: /history redacts as before, and says the seed comes later
    embed, files = await open_hand(world, world.bob, stored[0].id)
    description = str(embed.get("description", ""))
    assert "**Verify**: not yet" in description, description
    assert "hidden cards: ??" in str(embed.get("footer", {}))
    (opened,) = files.values()
    assert "_seed" not in opened and f"_commitment = '{promised[1]}'" in opened
    seen = everything_seen(world)
    assert not [h.number for h in stored if h.seed in seen], "a seed was shown while open"
    # the host closes the table: the seeds are published
    reply = await (
        await fake.invoke(world.alice, world.channel, "table", subcommand="end")
    ).response()
    assert "is closed" in reply.content
    closed = await eventually(
        lambda: "now published" in (field(table, FIELD) or "") and table,
        what="closed table",
        timeout=30,
    )
    assert "/history" in (field(closed, FIELD) or "")
    paths: list[Path] = []
    for h in stored:
        embed, files = await open_hand(world, world.carol, h.id)
        description = str(embed.get("description", ""))
        assert h.seed is not None
        assert f"**Seed**: `{h.seed}`" in description, description
        assert "every card" in str(embed.get("footer", {}).get("text", ""))
        assert "**Verify**: matches" in description, description
        ((name, text),) = files.items()
        assert f"_seed = '{h.seed}'" in text and "??" not in text
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        paths.append(path)
    assert_all_acknowledged(world)
    return paths


def check_with_the_cli(paths: list[Path]) -> None:
    """``python -m bot verify`` accepts the files, refuses a changed card and seed (exit 1)."""
    done = verify(*paths)
    assert done.returncode == 0, (done.stdout, done.stderr)
    lines = done.stdout.strip().splitlines()
    assert len(lines) == len(paths) and all(": matches: " in line for line in lines), lines
    original = paths[0].read_text(encoding="utf-8")
    card = paths[0].with_name("card-" + paths[0].name)
    card.write_text(tamper_card(original), encoding="utf-8")
    seed = paths[0].with_name("seed-" + paths[0].name)
    seed.write_text(tamper_seed(original), encoding="utf-8")
    for bad, why in ((card, "the seed's deck deals"), (seed, "not the commitment")):
        done = verify(bad)
        assert done.returncode == 1, (done.stdout, done.stderr)
        assert "does not match" in done.stdout and why in done.stdout, done.stdout


@pytest.mark.parametrize(
    ("command", "options"),
    [
        ("zoot", {"ante": 10}),
        ("stud", {"ante": 1, "bring_in": 2, "small_bet": 4, "big_bet": 8}),
        ("holdem", {}),
    ],
)
async def test_verifiable_table_commitment_before_each_hand_and_the_cli_verifies_its_histories(
    world: World, tmp_path: Path, command: str, options: dict[str, object]
) -> None:
    async with table_bot(world, autostart_delay=30) as bot:
        paths = await play_verifiable_table(world, bot, command, options, tmp_path)
    check_with_the_cli(paths)


async def test_verifiable_horse_table_verifies_hands_of_its_games(
    world: World, tmp_path: Path
) -> None:
    async with table_bot(world, autostart_delay=30) as bot:
        paths = await play_verifiable_table(
            world, bot, "horse", {"small_bet": 4}, tmp_path, hands=1
        )
    check_with_the_cli(paths)


async def test_a_table_is_not_verifiable_unless_asked(world: World) -> None:
    """``verifiable`` is off by default (and ``off`` says so): no field, no seed stored."""
    fake = world.fake
    async with table_bot(world, autostart_delay=30) as bot:
        for options in ({}, {"verifiable": "off"}):
            reply = await (
                await fake.invoke(world.alice, world.channel, "razz", options)
            ).response()
            assert reply.message is not None
            assert field(reply.message, FIELD) is None
            await (
                await fake.invoke(world.alice, world.channel, "table", subcommand="end")
            ).response()
        async with bot.store.read() as tx:
            tables = [await tx.table(t) for t in (1, 2)]
        assert [t.verifiable for t in tables] == [False, False]


async def test_no_seed_in_the_logs_at_debug_level_while_the_table_is_open(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    """As no card reaches the logs (tests/discord/test_debug_logging.py), no seed does: at
    DEBUG, a verifiable Razz hand played to its end leaves neither its seed nor the next
    hand's in the bot's log or discord.py's request and gateway logs."""
    stream = io.StringIO()
    settings = Settings(discord=DiscordSettings(token=world.fake.token), log={"level": "DEBUG"})  # type: ignore[arg-type]
    handler = setup_logging(settings, stream=stream)
    caplog.set_level(logging.DEBUG)
    fake = world.fake
    players = [world.alice, world.bob, world.carol]
    try:
        async with table_bot(world, autostart_delay=30) as bot:
            opened = await fake.invoke(
                world.alice, world.channel, "razz", {**RAZZ_STAKES, "verifiable": "on"}
            )
            table = (await opened.response()).message
            assert table is not None
            for user in players[1:]:
                await (await fake.click_label(user, table, "Join")).response()
            await (await fake.click_label(world.alice, table, "Start")).response()
            view = await service(bot).table_in_channel(world.channel.id)
            assert view is not None
            await play_razz_hand(world, bot, table, view.table_id)
            async with bot.store.read() as tx:
                (hand,) = await tx.hands(view.table_id)
                snapshot = (await tx.table(view.table_id)).snapshot
            logging.getLogger("homegame.test").debug("debug is on")
    finally:
        logging.getLogger().removeHandler(handler)
        for name in PAYLOAD_LOGGERS:
            logging.getLogger(name).setLevel(logging.NOTSET)
    assert hand.status == "finished" and hand.seed is not None and snapshot is not None
    seeds = {hand.seed, str(snapshot["next_seed"])}
    text = stream.getvalue()
    assert "DEBUG homegame.test: debug is on" in text
    records = "\n".join(r.getMessage() for r in caplog.records)
    assert not [s for s in seeds if s in text or s in records]
    assert not [s for s in seeds if s in everything_seen(world)]


TABLE_COMMANDS = ("zoot", "wheelers", "razz", "stud", "holdem", "omaha", "horse", "dealers-choice")


async def test_every_table_command_has_the_verifiable_option_off_by_default(world: World) -> None:
    async with table_bot(world, autostart_delay=30):
        for name in TABLE_COMMANDS:
            options = {o["name"]: o for o in world.fake.command(name).get("options", [])}
            option = options["verifiable"]
            assert option["type"] == 3 and not option.get("required"), name
            assert [c["value"] for c in option["choices"]] == ["off", "on"], name
            assert "published when the table closes" in option["description"], name
            assert len(option["description"]) <= 100


async def test_a_verifiable_practice_table_is_refused_and_nothing_opens(world: World) -> None:
    fake = world.fake
    async with table_bot(world, autostart_delay=30) as bot:
        options = {"verifiable": "on", "practice": True}
        reply = await (await fake.invoke(world.alice, world.channel, "zoot", options)).response()
        assert reply.ephemeral and reply.content == (
            "A practice table keeps no hand in /history, so it could never publish its seeds:"
            " open it without verifiable:on. Nothing changed."
        )
        assert await service(bot).table_in_channel(world.channel.id) is None
