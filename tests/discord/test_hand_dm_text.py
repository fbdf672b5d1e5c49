"""What a player reads in the hand DM and on the table message (DESIGN "What each user
sees"): a player who cannot act gets one line saying why, never the list of every refused
action; a player who may act gets the allowed actions with their amounts; the table
message says how many chose in a secret window, never who chose what; seat lines are not
cut mid-word; a closed table's DM keeps the cards but no actions and no countdown."""

from __future__ import annotations

from bot.testing import FakeUser
from tests.discord.conftest import World
from tests.discord.tablebot import cog, eventually, field, hand_dm, table_bot
from tests.discord.test_guts_games import open_and_fill, window_open
from tests.discord.test_razz_table import open_razz, start_razz

REFUSALS = ("it is not your turn", "Bring in:", "Complete:", "Fold:", "Check:", "Call:")


def now(world: World, user: FakeUser) -> str:
    return field(hand_dm(world, user), "Now") or ""


async def test_razz_dm_of_a_player_who_cannot_act_has_one_line_not_the_refused_actions(
    world: World,
) -> None:
    fake = world.fake
    players = [world.alice, world.bob, world.carol]
    by_id = {u.id: u for u in players}
    async with table_bot(world, autostart_delay=30) as bot:
        service = bot.service
        assert service is not None
        table, _ = await open_razz(world, players)
        await (await fake.click_label(world.alice, table, "Start")).response()
        view = await service.table_in_channel(world.channel.id)
        assert view is not None
        (first_id,) = view.to_act_user_ids
        first = by_id[first_id]
        # RULES §4.5: the bring-in player chooses between the bring-in and completing
        await eventually(lambda: "Bring in" in now(world, first), what="the bring-in's options")
        text = now(world, first)
        assert "Bring in " in text, text
        assert "Complete to" in text and "Time runs out" in text, text
        assert not any(r in text for r in ("Fold:", "Check:", "Call:", "Bet:", "Raise:")), text
        for user in players:
            if user is first:
                continue
            await eventually(lambda u=user: now(world, u), what=f"{user.name}'s DM")
            text = now(world, user)
            assert "\n" not in text and not any(r in text for r in REFUSALS), text
            assert text.startswith("Not your turn") and "Time runs out" not in text
        # the table message: whose turn, the pot and the countdown, each seat's up card
        description = str(table.embeds[0].get("description"))
        assert f"<@{first_id}>" in description and "pot **" in description
        seats = field(table, "Seats") or ""
        for seat in view.seats:
            assert seat.name in seats and all(c.pretty in seats for c in seat.up_cards)


async def test_zoot_secret_window_counts_choices_and_the_chooser_just_waits(
    world: World,
) -> None:
    fake = world.fake
    async with table_bot(world) as _bot:
        table = await open_and_fill(world, "zoot")
        await (await fake.click_label(world.alice, table, "Start")).response()
        await eventually(lambda: all(window_open(hand_dm(world, u)) for u in world.players))
        n = len(world.players)
        assert f"0 of {n} have chosen" in str(table.embeds[0].get("description"))
        rec = await fake.click_label(world.bob, hand_dm(world, world.bob), "Play on")
        assert (await rec.response()).updated_message
        await eventually(
            lambda: f"1 of {n} have chosen" in str(table.embeds[0].get("description")),
            what="the count of choices",
        )
        # RULES 1.3: the choice stays secret; the table only counts it
        assert "play on" not in str(table.embeds[0]).lower()
        assert now(world, world.bob) == "Waiting for the others to choose."
        assert "play on" in (field(hand_dm(world, world.bob), "Your choice (secret)") or "")

        await (await fake.invoke(world.alice, world.channel, "table", subcommand="end")).response()
        for user in world.players:
            await eventually(lambda u=user: "closed" in hand_dm(world, u).content)
            dm = hand_dm(world, user)
            await eventually(lambda d=dm: field(d, "Now") is None, what="no actions left")
            # the game being played was voided by the close: its cards go (issue 12.8)
            assert field(dm, "Cards") is None and "voided" in dm.content and not dm.buttons()


async def test_razz_dm_of_a_player_who_folded_says_so_not_that_it_is_not_their_turn(
    world: World,
) -> None:
    fake = world.fake
    players = [world.alice, world.bob, world.carol]
    by_id = {u.id: u for u in players}
    async with table_bot(world, autostart_delay=30) as bot:
        service = bot.service
        assert service is not None
        table, view, first = await start_razz(world, bot, players)
        await (await fake.click_label(first, table, "Bring in")).response()
        (second_id,) = (await service.view(view.table_id)).to_act_user_ids
        folder = by_id[second_id]
        reply = await (await fake.click_label(folder, table, "Fold")).response()
        assert reply.updated_message, reply.content
        # a change that only takes away waits for the next one (DM_SETTLE): shown now
        await cog(bot).updates.idle()
        assert now(world, folder).startswith("You folded")
        assert "Time runs out" not in now(world, folder)
        seats = field(table, "Seats") or ""
        assert "folded" in seats.lower()
