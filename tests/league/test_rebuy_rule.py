"""Issue 19, item 6: ``/rebuy`` at a full stack (1,000 -> 2,000) was allowed. The rule now
(rules §5.3 in docs/rules.md): a rebuy is for a member below the league's rebuy amount, a
busted one included, and tops the wallet up to that amount; at or above it, refused with
nothing changed; and only between hands (table stakes), never while the member is dealt
into a hand being played. Through the fake Discord with the real table service."""

from __future__ import annotations

from pathlib import Path

from bot.app import HomeGameBot
from tests.discord.conftest import World
from tests.discord.tablebot import table_bot
from tests.discord.test_razz_table import short_stack, start_razz
from tests.league.conftest import ledger_count

REPO = Path(__file__).resolve().parents[2]


async def balance(bot: HomeGameBot, world: World, user_id: int) -> int:
    async with bot.store.read() as tx:
        wallet = await tx.find_wallet(world.guild.id, user_id)
        assert wallet is not None
        assert wallet.balance == await tx.ledger_balance(wallet.id)
        return wallet.balance


async def test_issue19_item6_rebuy_at_a_full_stack_is_refused_and_changes_nothing(
    world: World,
) -> None:
    async with table_bot(world) as bot:
        async with bot.store.transaction() as tx:
            await tx.wallet(world.guild.id, world.bob.id)  # the starting 1,000
        before = await ledger_count(bot.store)
        reply = await (await world.fake.invoke(world.bob, world.channel, "rebuy")).response()
        assert reply.ephemeral
        assert reply.content == (
            "You have 1,000 chips: a rebuy is for a member below 1,000, and tops them up to"
            " 1,000. Nothing changed."
        )
        assert await ledger_count(bot.store) == before
        assert await balance(bot, world, world.bob.id) == 1000


async def test_issue19_item6_rebuy_tops_a_short_or_busted_wallet_up_to_the_amount(
    world: World,
) -> None:
    async with table_bot(world) as bot:
        await short_stack(bot, world, world.bob, 300)
        reply = await (await world.fake.invoke(world.bob, world.channel, "rebuy")).response()
        assert "rebuys **700** chips (balance 1,000" in reply.content
        assert await balance(bot, world, world.bob.id) == 1000
        async with bot.store.read() as tx:
            (entry,) = await tx.entries(guild_id=world.guild.id, kind="rebuy")
        assert (entry.amount, entry.actor_id) == (700, world.bob.id)
        # busted: from 0 to the amount (another member; bob waits out his cooldown)
        await short_stack(bot, world, world.carol, 0)
        reply = await (await world.fake.invoke(world.carol, world.channel, "rebuy")).response()
        assert "rebuys **1,000** chips (balance 1,000" in reply.content
        assert (await bot.store.audit(world.guild.id)).ok


async def test_issue19_item6_no_rebuy_while_dealt_into_a_hand_then_between_hands_it_is(
    world: World,
) -> None:
    players = [world.alice, world.bob, world.carol]
    async with table_bot(world, autostart_delay=60) as bot:
        await short_stack(bot, world, world.bob, 500)
        _, view, _ = await start_razz(world, bot, players)
        behind = await balance(bot, world, world.bob.id)
        assert behind < 500  # the ante (and maybe the bring-in) went in
        before = await ledger_count(bot.store)
        reply = await (await world.fake.invoke(world.bob, world.channel, "rebuy")).response()
        assert reply.ephemeral
        assert reply.content == (
            f"You play hand 1 at table #{view.table_id} in <#{world.channel.id}>: a rebuy is"
            " between hands, so ask again when it ends. Nothing changed."
        )
        assert await ledger_count(bot.store) == before
        assert await balance(bot, world, world.bob.id) == behind
        # the hand goes on exactly as before: bob is still to be asked in turn
        assert bot.service is not None
        assert (await bot.service.view(view.table_id)).hand_number == 1
        # the hand ends (voided here): between hands the rebuy tops him up
        await (
            await world.fake.invoke(world.alice, world.channel, "league", subcommand="void")
        ).response()
        reply = await (await world.fake.invoke(world.bob, world.channel, "rebuy")).response()
        assert "rebuys **500** chips (balance 1,000" in reply.content
        assert await balance(bot, world, world.bob.id) == 1000
        assert (await bot.store.audit(world.guild.id)).ok


def test_issue19_item6_the_rule_book_states_the_rebuy_rule() -> None:
    rules = (REPO / "docs" / "rules.md").read_text(encoding="utf-8")
    (rule,) = [line for line in rules.splitlines() if line.startswith("**5.3**")]
    assert "tops a member's wallet up to the league's rebuy amount" in rule
    assert "busted one (0 chips) included" in rule and "only between hands" in rule
