"""The settle-up's other commands through the fake Discord (issue 21 items 2, 4, 5, 6):
``/pay handle:`` shown only in the settle-ups its member takes part in; ``/night end
force:`` booking what nobody accounted for; an expense shared by some, or refused;
**Paid** on a post older than an hour posts the settle-up anew (Discord caps edits of old
messages); the bank refused on a night of the bot's tables."""

from __future__ import annotations

from bot.testing import FakeUser, InteractionReply
from tests.discord.conftest import World
from tests.discord.nightbot import answer, db_audit, night_bot, refused

TRANSFERS = "Settle-up: who pays whom"


def field(reply: InteractionReply, name: str) -> str:
    return str(next(f["value"] for f in reply.embeds[0]["fields"] if f["name"] == name))


async def bank_night(world: World, rows: dict[FakeUser, tuple[str, str]]) -> None:
    await answer(world, world.alice, "night", {"kind": "bank"}, subcommand="start")
    for who, (inn, out) in rows.items():
        await answer(world, world.alice, "buyin", {"amount": inn, "member": who})
        if out != "0":
            await answer(world, world.alice, "cashout", {"amount": out, "member": who})


async def test_pay_handles_show_only_in_the_settle_ups_of_their_member(world: World) -> None:
    alice, bob, carol, dave = world.alice, world.bob, world.carol, world.dave
    async with night_bot(world):
        await answer(
            world, alice, "league", {"chip_value": "0.01", "currency": "EUR"}, subcommand="setup"
        )
        shown = await answer(world, bob, "pay")
        assert shown.ephemeral and "No payment handle" in shown.content
        saved = await answer(world, bob, "pay", {"handle": "IBAN DE89 3704 0044 0532 0130 00"})
        assert saved.ephemeral and "IBAN DE89 3704 0044 0532 0130 00" in saved.content
        refused(await answer(world, bob, "pay", {"handle": "x", "clear": True}), "not both")
        # night 1: bob is paid by carol, so his handle is on that transfer
        await bank_night(world, {bob: ("20", "30"), carol: ("20", "10")})
        end = await (
            await world.fake.invoke(alice, world.channel, "night", subcommand="end")
        ).response(timeout=20)
        plan = field(end, TRANSFERS)
        assert f"<@{carol.id}> pays <@{bob.id}>" in plan and "pay to: IBAN DE89" in plan
        # night 2: bob takes no part: nobody sees his handle
        await bank_night(world, {carol: ("20", "25"), dave: ("20", "15")})
        end2 = await (
            await world.fake.invoke(alice, world.channel, "night", subcommand="end")
        ).response(timeout=20)
        assert "IBAN" not in str(end2.embeds) and "IBAN" not in end2.content
        cleared = await answer(world, bob, "pay", {"clear": True})
        assert "removed" in cleared.content
        await db_audit(world)


async def test_a_forced_end_books_the_unaccounted_difference(world: World) -> None:
    alice, bob, carol = world.alice, world.bob, world.carol
    async with night_bot(world) as bot:
        await answer(
            world, alice, "league", {"chip_value": "0.01", "currency": "EUR"}, subcommand="setup"
        )
        await bank_night(world, {bob: ("20", "25"), carol: ("20", "0")})
        refused(await answer(world, alice, "night", subcommand="end"), "€15.00 missing")
        refused(
            await answer(world, bob, "night", {"force": True}, subcommand="end"),
            "Only the night's host",
        )
        ended = await (
            await world.fake.invoke(
                alice, world.channel, "night", {"force": True}, subcommand="end"
            )
        ).response(timeout=20)
        assert "Night #1 is over" in ended.content
        assert "Unaccounted: €15.00 missing" in field(ended, "Bank")
        async with bot.store.read() as tx:
            night = await tx.last_night(world.guild.id)
            assert night is not None
            (entry,) = [e for e in await tx.bank_entries(night) if e.kind == "unaccounted"]
            results = await tx.night_results(night)
        assert entry.chips == 1500 and entry.actor_id == alice.id
        # the €15 nobody accounted for, shared evenly: bob +5 + 7.50, carol -20 + 7.50
        assert {p.user_id: p.unaccounted for p in results.players} == {bob.id: 750, carol.id: 750}
        assert {p.user_id: p.total for p in results.players} == {bob.id: 1250, carol.id: -1250}
        assert f"<@{carol.id}> pays <@{bob.id}> **1,250** chips = **€12.50**" in field(
            ended, TRANSFERS
        )
        await db_audit(world)


async def test_expenses_shared_by_some_and_refused_ones(world: World) -> None:
    alice, bob, carol, dave = world.alice, world.bob, world.carol, world.dave
    stranger = world.fake.add_user("stranger")
    async with night_bot(world) as bot:
        await answer(
            world, alice, "league", {"chip_value": "0.01", "currency": "EUR"}, subcommand="setup"
        )
        refused(
            await answer(
                world, bob, "night", {"amount": "5", "what": "beer"}, subcommand="expense"
            ),
            "No night is on",
        )
        await answer(world, alice, "night", subcommand="start")  # a night of the bot's tables
        refused(await answer(world, bob, "buyin", {"amount": "20"}), "not a bank night")
        refused(
            await answer(
                world,
                bob,
                "night",
                {"amount": "24", "what": "pizza", "paid_by": carol},
                subcommand="expense",
            ),
            "somebody else paid",
        )
        refused(
            await answer(
                world,
                bob,
                "night",
                {"amount": "24", "what": "pizza", "shared_by": f"<@{stranger.id}>"},
                subcommand="expense",
            ),
            "not a member",
        )
        refused(
            await answer(
                world,
                bob,
                "night",
                {"amount": "24", "what": "pizza", "shared_by": f"<@{carol.id}> dave"},
                subcommand="expense",
            ),
            "`dave`",
        )
        refused(
            await answer(
                world, bob, "night", {"amount": "24", "what": "pizza"}, subcommand="expense"
            ),
            "shared by nobody",
        )
        pizza = await answer(
            world,
            bob,
            "night",
            {
                "amount": "24",
                "what": "pizza",
                "shared_by": f"<@{bob.id}> <@{carol.id}> <@{dave.id}>",
            },
            subcommand="expense",
        )
        assert not pizza.ephemeral and "about €8.00 each" in pizza.content, pizza.content
        ended = await (
            await world.fake.invoke(alice, world.channel, "night", subcommand="end")
        ).response(timeout=20)
        plan = field(ended, TRANSFERS)
        assert f"<@{carol.id}> pays <@{bob.id}> **800** chips = **€8.00**" in plan
        assert f"<@{dave.id}> pays <@{bob.id}> **800** chips = **€8.00**" in plan
        async with bot.store.read() as tx:
            # an expense is money, never league chips
            assert await tx.entries(guild_id=world.guild.id, kind="settle") == []
        await db_audit(world)


async def test_paid_on_a_post_older_than_an_hour_posts_the_settle_up_anew(world: World) -> None:
    fake = world.fake
    alice, bob, carol, dave = world.alice, world.bob, world.carol, world.dave
    async with night_bot(world):
        none = await answer(world, bob, "settle", {"period": "open"})
        assert none.ephemeral
        await bank_night(world, {bob: ("20", "40"), carol: ("20", "10"), dave: ("20", "10")})
        end = await (await fake.invoke(alice, world.channel, "night", subcommand="end")).response(
            timeout=20
        )
        post = end.message
        assert post is not None
        ids = [str(b["custom_id"]) for b in post.buttons() if b.get("label") == "Paid"]
        assert len(ids) == 2
        fake.advance(2 * 3600)
        renewed = await (await fake.click(carol, post, ids[0])).response()
        assert not renewed.updated_message and not renewed.ephemeral
        assert "marked paid by" in renewed.content and "as it stands" in renewed.content
        fresh = renewed.message
        assert fresh is not None and fresh.id != post.id
        assert "✅ paid" in field(renewed, TRANSFERS)
        # the new post is kept up to date in place
        again = await (await fake.click(dave, fresh, ids[1])).response()
        assert again.updated_message
        assert "Every transfer is paid" in fresh.embeds[0]["footer"]["text"]
        listed = await answer(world, bob, "settle", {"period": "open"})
        assert "No transfer is open" in listed.content
