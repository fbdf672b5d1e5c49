"""``/night import file:`` through the fake Discord (issue 21 item 3): the PokerNow ledger CSV
attached to the command, downloaded by the bot from the fake's CDN, its players matched to
members with a member menu for the names it cannot match, booked as buy-ins and cash-outs
to the same nets as the file says; the next import knows the names. A file with a wrong
column, a second import of one file, and a non-host's import: one line, nothing changed."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.league.pokernow import parse_ledger
from bot.testing import FakeDiscordError
from bot.testing.fake_discord import ATTACHMENT_SIZE_LIMIT
from tests.discord.conftest import World
from tests.discord.nightbot import answer, db_audit, night_bot, refused

LEDGER = Path(__file__).parents[1] / "league" / "data" / "pokernow_ledger.csv"


async def test_a_pokernow_ledger_imports_to_the_nets_the_file_says(world: World) -> None:
    fake = world.fake
    alice, bob, carol, dave, eve = world.alice, world.bob, world.carol, world.dave, world.outsider
    data = LEDGER.read_bytes()
    async with night_bot(world) as bot:
        await answer(
            world, alice, "league", {"chip_value": "0.01", "currency": "EUR"}, subcommand="setup"
        )
        await answer(world, alice, "night", {"kind": "bank"}, subcommand="start")

        # a file with a wrong column: one line naming the row and column, nothing booked
        bad = data.replace(b"session_start_at", b"started", 1)
        refused(
            await answer(
                world,
                alice,
                "night",
                {"file": fake.upload("ledger.csv", bad), "units": "cents"},
                subcommand="import",
            ),
            "Row 1",
            "column 3 is `started`",
        )
        # only the host or an admin imports
        refused(
            await answer(
                world, bob, "night", {"file": fake.upload("l.csv", data)}, subcommand="import"
            ),
            "Only the night's host",
        )
        # a file bigger than a ledger: refused before it is read
        refused(
            await answer(
                world,
                alice,
                "night",
                {"file": fake.upload("huge.csv", b"x" * (2 * 1024 * 1024))},
                subcommand="import",
            ),
            "at most 1,048,576",
        )
        # past Discord's upload limit (10 MiB) the client sends nothing at all
        with pytest.raises(FakeDiscordError, match="upload limit"):
            await fake.invoke(
                alice,
                world.channel,
                "night",
                {"file": fake.upload("x.csv", b"x" * (ATTACHMENT_SIZE_LIMIT + 1))},
                subcommand="import",
            )
        async with bot.store.read() as tx:
            night = await tx.open_night(world.guild.id)
            assert night is not None
            assert await tx.bank_entries(night) == []

        reply = await answer(
            world,
            alice,
            "night",
            {"file": fake.upload("pokernow_ledger_game123.csv", data), "units": "cents"},
            subcommand="import",
        )
        assert not reply.ephemeral and "5 players" in reply.content, reply.content
        assert "money in €125.00, money out €125.00" in reply.content
        post = reply.message
        assert post is not None
        selects = post.selects()
        # nobody is known yet (the bot has no member list): a member menu per player
        assert [s["type"] for s in selects] == [5] * 5
        assert [s["placeholder"] for s in selects] == [
            "Who is AnnieK?",
            "Who is bobby?",
            "Who is carol_p?",
            "Who is D4ve?",
            "Who is eve?",
        ]
        members = [alice, bob, carol, dave, eve]
        # the same member twice is refused
        await (
            await fake.select_users(alice, post, str(selects[0]["custom_id"]), [alice])
        ).response()
        twice = await (
            await fake.select_users(alice, post, str(selects[1]["custom_id"]), [alice])
        ).response()
        refused(twice, "already `AnnieK`")
        for select, member in zip(selects[1:], members[1:], strict=True):
            reply = await (
                await fake.select_users(alice, post, str(select["custom_id"]), [member])
            ).response()
            assert reply.updated_message
        assert post.selects() == [] and "Booked" in post.content, post.content
        async with bot.store.read() as tx:
            results = await tx.night_results(night)
            entries = await tx.bank_entries(night)
        expected = {p.name: p.net for p in parse_ledger(data, units="cents", value=results.value)}
        names = dict(zip(["AnnieK", "bobby", "carol_p", "D4ve", "eve"], members, strict=True))
        assert {p.user_id: p.bank for p in results.players} == {
            names[n].id: net for n, net in expected.items()
        }
        assert all(e.import_id is not None and e.actor_id == alice.id for e in entries)
        await db_audit(world)

        # importing the same file again is refused
        refused(
            await answer(
                world,
                alice,
                "night",
                {"file": fake.upload("again.csv", data), "units": "cents"},
                subcommand="import",
            ),
            "already imported",
        )
        # a later file with the same players: matched by what the menu taught
        later = data.replace(b"2026-11-28", b"2026-11-29")
        again = await answer(
            world,
            alice,
            "night",
            {"file": fake.upload("next.csv", later), "units": "cents"},
            subcommand="import",
        )
        assert again.message is not None and again.message.selects() == []
        assert "Booked" in again.content and f"→ <@{carol.id}>" in again.content
        end = await (await fake.invoke(alice, world.channel, "night", subcommand="end")).response(
            timeout=20
        )
        assert "Night #1 is over" in end.content
        await db_audit(world)
