"""Issue 21 through the fake Discord: a bank night for a game played at the kitchen table,
with six players. Buy-ins recorded by the host and asked for by members (Approve /
Refuse), two rebuys, one refused request, a correction, an expense; bad input refused with
nothing changed (negative and non-numeric amounts, a non-member's buy-in, approving one's
own, a second approval, an expense shared by nobody); ``/night end`` refused while the bank
does not balance, then ended; the settle-up with a ``settle_with:`` pair; transfers marked
**Paid**, one left open and carried into the next night. ``python -m bot db audit`` passes
after each step."""

from __future__ import annotations

import asyncio

from PIL import Image

from bot.testing import FakeMessage, FakeUser
from tests.discord.conftest import World
from tests.discord.nightbot import (
    answer,
    audit_subprocess,
    db_audit,
    night_bot,
    refused,
    six_players,
)


def mention(user: FakeUser) -> str:
    return f"<@{user.id}>"


async def click(world: World, user: FakeUser, message: FakeMessage, label: str) -> str:
    reply = await (await world.fake.click_label(user, message, label)).response()
    return reply.content


def paid_buttons(message: FakeMessage) -> list[dict[str, object]]:
    return [dict(b) for b in message.buttons() if b.get("label") == "Paid"]


async def test_a_bank_night_with_six_players_from_buy_in_to_the_next_night(world: World) -> None:
    fake = world.fake
    alice, bob, carol, dave, frank, gina = six_players(world)
    stranger = fake.add_user("stranger")  # not a member of the server
    async with night_bot(world) as bot:
        setup = await answer(
            world, alice, "league", {"chip_value": "0.01", "currency": "EUR"}, subcommand="setup"
        )
        assert "100 chips = €1.00" in setup.content
        # no night yet: the bank is closed
        refused(await answer(world, bob, "buyin", {"amount": "20"}), "No night is on")
        started = await answer(world, bob, "night", {"kind": "bank"}, subcommand="start")
        assert not started.ephemeral and "Night #1 starts" in started.content, started.content
        assert "/buyin" in started.content
        # bob started it: he is the host; the admin ends it with him
        await db_audit(world)

        # --- buy-ins: the host records them directly ---------------------------------
        for who in (alice, bob, dave, frank, gina):
            amount = "200" if who is dave else "20"  # dave's is a typo: corrected below
            rec = await answer(world, bob, "buyin", {"amount": amount, "member": who})
            assert not rec.ephemeral and "booked" in rec.content, rec.content
            assert f"{mention(who)}'s buy-in of **€{amount}.00" in rec.content
        await db_audit(world)

        # --- a member asks; the host approves, never the asker, once -----------------
        ask = await answer(world, carol, "buyin", {"amount": "€20"})
        assert not ask.ephemeral and "asks for a buy-in of **€20.00" in ask.content
        post = ask.message
        assert post is not None
        assert [b["label"] for b in post.buttons()] == ["Approve", "Refuse"]
        own = await (await fake.click_label(carol, post, "Approve")).response()
        refused(own, "your own buy-in")
        not_host = await (await fake.click_label(dave, post, "Approve")).response()
        refused(not_host, "Only the night's host")
        # a double click: both presses reach the bot; one approves, the other is refused
        approve = str(post.button("Approve")["custom_id"])
        first = await fake.click(bob, post, approve)
        second = await fake.click(alice, post, approve)
        replies = [await first.response(), await second.response()]
        done = [r for r in replies if not r.ephemeral]
        again = [r for r in replies if r.ephemeral]
        assert len(done) == 1 and "approved" in done[0].content
        assert len(again) == 1 and "already approved" in again[0].content
        assert post.buttons() == []  # the decided post keeps no buttons
        await db_audit(world)

        # --- bad input: a clear line and nothing changed -----------------------------
        async with bot.store.read() as tx:
            night = await tx.open_night(world.guild.id)
            assert night is not None
            before = len(await tx.bank_entries(night))
        refused(await answer(world, bob, "buyin", {"amount": "-20", "member": dave}), "more than 0")
        refused(await answer(world, bob, "buyin", {"amount": "twenty", "member": dave}))
        refused(
            await answer(world, bob, "buyin", {"amount": "20", "member": stranger}),
            "not a member",
        )
        refused(
            await answer(world, dave, "buyin", {"amount": "20", "member": frank}),
            "someone else",
        )
        refused(await answer(world, bob, "cashout", {"amount": "1,5.0", "member": dave}))
        refused(
            await answer(
                world,
                frank,
                "night",
                {"amount": "10", "what": "chips", "shared_by": "and"},
                subcommand="expense",
            ),
            "shared by nobody",
        )
        async with bot.store.read() as tx:
            assert len(await tx.bank_entries(night)) == before
            assert not (await tx.night_book(night)).pending

        # --- two rebuys: one asked and approved, one recorded --------------------------
        rebuy = await answer(world, frank, "buyin", {"amount": "20"})
        assert rebuy.message is not None
        assert "approved" in await click(world, bob, rebuy.message, "Approve")
        # the host's own rebuy, recorded by himself for himself (a public, attributed post)
        second_rebuy = await answer(world, bob, "buyin", {"amount": "20", "member": bob})
        assert "booked" in second_rebuy.content
        # one refused request
        greedy = await answer(world, gina, "buyin", {"amount": "500"})
        assert greedy.message is not None
        text = await click(world, bob, greedy.message, "Refuse")
        assert "refused" in text and "nothing was booked" in text
        await db_audit(world)

        # --- a correction: a new entry with a reason, never an edit --------------------
        async with bot.store.read() as tx:
            typo = next(
                e for e in await tx.bank_entries(night) if e.user_id == dave.id and e.chips == 20000
            )
        fixed = await answer(
            world,
            bob,
            "night",
            {"entry": typo.id, "amount": "20", "reason": "typed a zero too many"},
            subcommand="correct",
        )
        assert not fixed.ephemeral and "corrected entry" in fixed.content, fixed.content
        assert "typed a zero too many" in fixed.content
        refused(
            await answer(
                world,
                dave,
                "night",
                {"entry": typo.id, "amount": "0", "reason": "mine"},
                subcommand="correct",
            ),
            "Only the night's host",
        )
        async with bot.store.read() as tx:
            entries = await tx.bank_entries(night)
        assert any(
            e.corrects == typo.id and e.chips == -18000 and e.actor_id == bob.id for e in entries
        )
        assert all(e.actor_id in (alice.id, bob.id) for e in entries)
        await db_audit(world)

        # --- an expense, shared by everyone --------------------------------------------
        pizza = await answer(
            world, frank, "night", {"amount": "30", "what": "pizza"}, subcommand="expense"
        )
        assert not pizza.ephemeral and "pizza" in pizza.content and "€30.00" in pizza.content
        await db_audit(world)

        # --- cash-outs; the end refused while money in is not money out -----------------
        outs = {alice: "35", bob: "10", carol: "50", frank: "30"}
        for who, amount in outs.items():
            rec = await answer(world, bob, "cashout", {"amount": amount, "member": who})
            assert "booked" in rec.content, rec.content
        show = await answer(world, carol, "night", subcommand="show")
        (embed,) = show.embeds
        bank = next(f["value"] for f in embed["fields"] if f["name"] == "Bank")
        assert "Money in €160.00" in bank and "money out €125.00" in bank
        assert "€35.00 missing" in bank
        assert f"{mention(bob)} in €40.00 (2 buy-ins)" in embed["description"]
        early = await answer(world, bob, "night", subcommand="end")
        refused(early, "money in €160.00", "money out €125.00", "€35.00 missing")
        assert mention(dave) in early.content and mention(gina) in early.content
        async with bot.store.read() as tx:
            assert (await tx.open_night(world.guild.id)) is not None
        await db_audit(world)
        ask_out = await answer(world, gina, "cashout", {"amount": "35"})
        assert ask_out.message is not None
        assert "approved" in await click(world, bob, ask_out.message, "Approve")

        # --- the end: a settle_with pair that does not cancel, then one that does -------
        couple = await answer(
            world,
            bob,
            "night",
            {"settle_with": f"{mention(bob)} {mention(carol)}"},
            subcommand="end",
        )
        refused(couple, "cannot settle only among themselves", "-€10.00")
        end_record = await fake.invoke(
            bob,
            world.channel,
            "night",
            {"settle_with": f"{mention(carol)} {mention(dave)}"},
            subcommand="end",
        )
        end = await end_record.response(timeout=20)
        assert not end.ephemeral and "Night #1 is over" in end.content, end.content
        post = end.message
        assert post is not None
        (embed,) = post.embeds
        fields = {f["name"]: f["value"] for f in embed["fields"]}
        plan = fields["Settle-up: who pays whom"]
        assert f"{mention(dave)} pays {mention(carol)} **2,500** chips = **€25.00**" in plan
        assert f"{mention(bob)} pays" in plan
        assert "pizza: €30.00 paid by" in fields["Expenses"]
        assert "Money in €160.00 · money out €160.00" in fields["Bank"]
        assert "settle only among themselves" in fields["Notes"]
        (picture,) = [a for a in post.attachments if a.filename == "night.png"]
        import io

        assert Image.open(io.BytesIO(picture.data)).size[1] > 300  # nets, expenses, transfers
        buttons = paid_buttons(post)
        assert len(buttons) == 4 and all(not b.get("disabled") for b in buttons)
        async with bot.store.read() as tx:
            ended = await tx.last_night(world.guild.id)
            assert ended is not None and not ended.open
            results = await tx.night_results(ended)
        totals = {p.user_id: p.total for p in results.players}
        assert totals == {
            alice.id: 1000,
            bob.id: -3500,
            carol.id: 2500,
            dave.id: -2500,
            frank.id: 1500,
            gina.id: 1000,
        }
        settlement = results.settlement
        assert settlement is not None and len(settlement.rows) == 4
        await db_audit(world)

        # --- Paid: the payer or the payee marks it; anyone else is refused --------------
        rows = {(r.payer, r.payee): r for r in settlement.rows}
        by_id = {str(b["custom_id"]): b for b in buttons}
        dave_row = rows[(dave.id, carol.id)]
        refused(
            await (await fake.click(alice, post, f"hg:np:{dave_row.id}")).response(),
            "Only",
        )
        marked = await (await fake.click(dave, post, f"hg:np:{dave_row.id}")).response()
        assert marked.updated_message, marked.content
        assert f"hg:np:{dave_row.id}" in by_id
        assert next(b for b in post.buttons() if b.get("custom_id") == f"hg:np:{dave_row.id}").get(
            "disabled"
        )
        assert "✅ paid" in next(
            f["value"] for f in post.embeds[0]["fields"] if f["name"] == "Settle-up: who pays whom"
        )
        for payee in (alice, gina):
            row = rows[(bob.id, payee.id)]
            # the payee marks what they received
            await (await fake.click(payee, post, f"hg:np:{row.id}")).response()
        assert "Still open: 1 transfer" in post.embeds[0]["footer"]["text"]
        open_list = await answer(world, frank, "settle", {"period": "open"})
        assert open_list.ephemeral
        assert f"{mention(bob)} pays {mention(frank)} **1,500** chips = **€15.00**" in (
            open_list.content
        )
        assert [b["label"] for b in open_list.message.buttons()] == ["Paid"]  # type: ignore[union-attr]
        await db_audit(world)

        # --- the next night: the open transfer carried into its settle-up ---------------
        second_night = await answer(world, alice, "night", {"kind": "bank"}, subcommand="start")
        assert "Night #2 starts" in second_night.content
        for who, inn, out in ((bob, "20", "25"), (frank, "20", "15")):
            await answer(world, alice, "buyin", {"amount": inn, "member": who})
            await answer(world, alice, "cashout", {"amount": out, "member": who})
        carried = await (
            await fake.invoke(alice, world.channel, "night", {"carry_open": True}, subcommand="end")
        ).response(timeout=20)
        assert "Night #2 is over" in carried.content
        plan2 = next(
            f["value"]
            for f in carried.embeds[0]["fields"]
            if f["name"] == "Settle-up: who pays whom"
        )
        # bob owed frank €15 and won €5 from him tonight: one transfer of €10
        assert f"{mention(bob)} pays {mention(frank)} **1,000** chips = **€10.00**" in plan2
        assert plan2.count(" pays ") == 1
        async with bot.store.read() as tx:
            left = await tx.open_transfers(world.guild.id)
            old = await tx.settle_transfer(rows[(bob.id, frank.id)].id)
        assert [(t.payer, t.payee, t.chips) for t in left] == [(bob.id, frank.id, 1000)]
        assert old.carried_into is not None and not old.open
        # the carried transfer's old button now says why it cannot be paid there
        refused(
            await (await fake.click(frank, post, f"hg:np:{old.id}")).response(),
            "carried into settle-up",
        )
        await db_audit(world)
        await asyncio.sleep(0)
    await audit_subprocess(world)
