"""Issue 20 through the fake Discord: what a tournament refuses. A second **Register**
(one after the other or both at once), a **Register** from a member whose wallet cannot
pay the buy-in, an **Unregister** from a member not registered or after the start,
``/tournament pause`` by a member who does not direct it, ``/tournament create`` with a
``levels`` text that is not one: each is answered with one clear sentence saying that
nothing changed, and nothing changed (no ledger row, no entry, the clock running on as
before: the level still changes at its stored time)."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.app import HomeGameBot
from bot.testing import FakeUser
from tests.discord.conftest import World
from tests.discord.tablebot import eventually, table_bot
from tests.discord.tournamentbot import MovedClock, create_tournament, ledger_count

LEVELS = "10/20 5m, 20/40 5m, 40/80 5m"


def one_line_refusal(answer: Any) -> str:
    """A refusal's text: ephemeral, one sentence or two on one line, saying nothing changed."""
    text = str(answer.content)
    assert answer.ephemeral, text
    assert "\n" not in text and text[0].isupper() and text.endswith("."), text
    assert "Nothing changed" in text or "nothing changed" in text, text
    assert "Traceback" not in text
    return text


async def opened(world: World, bot: HomeGameBot, **options: Any) -> tuple[int, int]:
    """A tournament alice hosts: its id and its lobby message's id."""
    created = await create_tournament(world, world.alice, game="holdem", **options)
    assert created.message is not None, created.content
    d = bot.tournaments
    assert d is not None
    (tid,) = d.live_ids()
    return tid, created.message.id


async def register(world: World, user: FakeUser, lobby: int) -> Any:
    fake = world.fake
    return await (await fake.click_label(user, fake.messages[lobby], "Register")).response()


async def balance(bot: HomeGameBot, world: World, user: FakeUser) -> int | None:
    """The member's league chips (equal to their ledger); None: no wallet yet."""
    async with bot.store.read() as tx:
        wallet = await tx.find_wallet(world.guild.id, user.id)
        if wallet is None:
            return None
        assert wallet.balance == await tx.ledger_balance(wallet.id)
        return wallet.balance


async def test_a_second_register_click_is_refused_and_the_buy_in_is_paid_once(
    world: World,
) -> None:
    fake = world.fake
    async with table_bot(world, autostart_delay=0) as bot:
        tid, lobby = await opened(world, bot, buy_in=100, bounty=20, levels=LEVELS)
        first = await register(world, world.bob, lobby)
        assert "120 league chips paid in" in first.content
        again = one_line_refusal(await register(world, world.bob, lobby))
        assert "already registered" in again
        # two clicks at once: one registers, the other is refused
        clicks = [
            await fake.click_label(world.carol, fake.messages[lobby], "Register") for _ in range(2)
        ]
        answers = [await c.response() for c in clicks]
        took = [a for a in answers if "paid in" in a.content]
        assert len(took) == 1, [a.content for a in answers]
        one_line_refusal(next(a for a in answers if a is not took[0]))
        assert await ledger_count(bot, "tournament_buy_in") == 2
        assert await balance(bot, world, world.bob) == 1000 - 120
        assert await balance(bot, world, world.carol) == 1000 - 120
        d = bot.tournaments
        assert d is not None
        assert sorted(e.player for e in d.live(tid).t.entries) == sorted(
            [world.bob.id, world.carol.id]
        )
        await eventually(
            lambda: "Field (2 of" in str(fake.messages[lobby].embeds), what="the lobby's field"
        )


async def test_a_register_click_from_a_member_who_cannot_pay_is_refused(world: World) -> None:
    async with table_bot(world, autostart_delay=0) as bot:
        tid, lobby = await opened(world, bot, buy_in=5000, levels=LEVELS)
        before = await balance(bot, world, world.dave)
        refused = one_line_refusal(await register(world, world.dave, lobby))
        assert "this takes 5,000" in refused, refused
        assert await balance(bot, world, world.dave) == before
        assert await ledger_count(bot, "tournament_buy_in") == 0
        d = bot.tournaments
        assert d is not None and d.live(tid).t.entries == ()
        # an Unregister from a member who never registered
        fake = world.fake
        click = await fake.click_label(world.outsider, fake.messages[lobby], "Unregister")
        assert "not registered" in one_line_refusal(await click.response())
        assert await ledger_count(bot, "tournament_refund") == 0


async def test_unregister_after_the_start_is_refused_and_the_entry_stays(world: World) -> None:
    fake = world.fake
    clock = MovedClock(world)
    async with table_bot(world, clock=clock, sleep=clock.sleep, autostart_delay=0) as bot:
        tid, lobby = await opened(world, bot, buy_in=100, levels=LEVELS)
        for user in world.players:
            await register(world, user, lobby)
        # the lobby's edit is slow to reach Discord: bob still sees its Unregister
        cog: Any = bot.get_cog("Tournaments")
        edit_lobby, arrived = cog._update_lobby, asyncio.Event()

        async def slow_lobby_edit(tournament_id: int) -> None:
            await arrived.wait()
            await edit_lobby(tournament_id)

        cog._update_lobby = slow_lobby_edit
        await (await fake.click_label(world.alice, fake.messages[lobby], "Start")).response()
        d = bot.tournaments
        assert d is not None
        await eventually(lambda: d.live(tid).t.status == "running", what="the start")
        before = await balance(bot, world, world.bob)
        click = await fake.click_label(world.bob, fake.messages[lobby], "Unregister")
        refused = one_line_refusal(await click.response())
        assert "has started" in refused
        assert await balance(bot, world, world.bob) == before
        assert await ledger_count(bot, "tournament_refund") == 0
        entry = d.live(tid).t.latest_entry(world.bob.id)
        assert entry is not None and entry.alive
        arrived.set()
        await eventually(
            lambda: "Unregister" not in str(fake.messages[lobby].buttons()),
            what="the lobby without Unregister once it runs",
        )


async def test_pause_by_a_member_who_does_not_direct_it_is_refused_and_the_clock_runs_on(
    world: World,
) -> None:
    fake = world.fake
    clock = MovedClock(world)
    async with table_bot(world, clock=clock, sleep=clock.sleep, autostart_delay=0) as bot:
        tid, lobby = await opened(world, bot, buy_in=100, levels=LEVELS)
        for user in world.players:
            await register(world, user, lobby)
        await (await fake.click_label(world.alice, fake.messages[lobby], "Start")).response()
        d = bot.tournaments
        assert d is not None
        await eventually(lambda: d.lobby(tid).level == 1, what="level 1")
        change = d.lobby(tid).next_change
        assert change is not None
        paused = await (
            await fake.invoke(world.bob, world.channel, "tournament", subcommand="pause")
        ).response()
        assert "host or a league manager" in one_line_refusal(paused)
        assert not d.lobby(tid).paused and d.live(tid).t.pauses == ()
        async with bot.store.read() as tx:
            assert (await tx.tournament(tid)).deadline == change
        # the refusal left the clock as it was: level 2 comes at its stored time
        clock.move(change - clock.now)
        await eventually(lambda: d.lobby(tid).level == 2, what="level 2 at its time")


async def test_an_invalid_levels_text_is_refused_and_creates_no_tournament(world: World) -> None:
    fake = world.fake
    async with table_bot(world, autostart_delay=0) as bot:
        posts = len(fake.channel_messages(world.channel))
        for levels in ("10/20 15m, 15/3O 15m", "break 5m, 10/20", "10/20 15m,, 20/40"):
            answer = await create_tournament(world, world.alice, game="holdem", levels=levels)
            text = one_line_refusal(answer)
            assert "`levels`" in text, text
        both = await create_tournament(
            world, world.alice, game="holdem", levels="10/20 15m", structure="turbo"
        )
        assert "not both" in one_line_refusal(both)
        d = bot.tournaments
        assert d is not None and d.live_ids() == []
        async with bot.store.read() as tx:
            assert await tx.past_tournaments(world.guild.id, limit=5) == []
            rows = await tx._all("SELECT COUNT(*) AS n FROM tournaments", ())
        assert rows[0]["n"] == 0
        assert len(fake.channel_messages(world.channel)) == posts


async def test_a_tournament_table_keeps_its_players_in_and_its_stakes_are_the_directors(
    world: World,
) -> None:
    """At a tournament's table the players are dealt in until they bust and the level sets
    the stakes (TDA): the hand DM has no **Sit out next hand**, and ``/table stakes``,
    ``/table seat`` and ``/table bomb-pot`` in its thread are refused, changing nothing."""
    fake = world.fake
    clock = MovedClock(world)
    async with table_bot(world, clock=clock, sleep=clock.sleep, autostart_delay=0) as bot:
        _, lobby = await opened(world, bot, buy_in=100, levels=LEVELS)
        for user in (world.alice, world.bob, world.carol):
            await register(world, user, lobby)
        await (await fake.click_label(world.alice, fake.messages[lobby], "Start")).response()
        (thread,) = await eventually(lambda: fake.threads(world.channel), what="the table")
        service = bot.service
        assert service is not None
        view = await eventually(lambda: service.table_in_channel(thread.id), what="its table")
        await eventually(
            lambda: (
                [m for m in fake.dms(world.bob) if m.embeds and "state" in str(m.embeds)] or None
            ),
            what="bob's hand DM",
        )
        for user in (world.alice, world.bob, world.carol):
            for dm in fake.dms(user):
                labels = [str(b.get("label")) for b in dm.buttons()]
                assert "Sit out next hand" not in labels, labels
        before = await service.view(view.table_id)
        for options, subcommand in (
            ({"big_blind": 1000}, "stakes"),
            ({"member": world.dave}, "seat"),
            ({"ante": 50}, "bomb-pot"),
        ):
            answer = await (
                await fake.invoke(world.alice, thread, "table", options, subcommand=subcommand)
            ).response()
            one_line_refusal(answer)
        after = await service.view(view.table_id)
        assert after.rules == before.rules and not after.next_stakes
        assert world.dave.id not in {s.user_id for s in after.seats}
