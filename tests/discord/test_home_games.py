"""What home games play through the fake Discord (issue 18 items 11-15, its Must-show
lines): the real bot, service and store, users clicking what they see.

- a straddled no-limit hand: the seat under the gun gets **Straddle** before the deal
  (anyone else's click is refused), straddles, acts last before the flop;
- a hand run twice: both all-in players press **Twice** in their DMs; both boards on the
  table message and in the showdown picture, each run's winner and half pot in the
  result;
- a double-board bomb pot called with ``/table bomb-pot ante: double_board:``;
- a seven-deuce payment: the uncontested winner presses **Show**; the ledger pays them;
- a rabbit hunt: **Rabbit** on a result shows the cards that would have come, and
  changes nothing;
- ``/table house`` by the host changes options from the next hand (others are refused).

After each: the wallets match the table and the ledger, and the audit holds; the hand's
history replays (``python -m bot replay``'s engine) to its stacks.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from bot.app import HomeGameBot
from bot.engine.flop.phh import replay_flop_phh_text
from bot.testing import FakeMessage, FakeUser
from tests.discord.conftest import World
from tests.discord.tablebot import eventually, field, footer_state, hand_dm, table_bot
from tests.discord.test_flop_games import amounts, open_table, wallets_match_the_table
from tests.discord.test_razz_table import enabled
from tests.tables.stacked import stacked_hands

# seats 0, 1, 2: Alice, Bob, Carol; Carol draws the button (Alice small blind, Bob big)
DRAW = "2s 3s As"
ALL_IN = "Ac Kc  2d 3d  Qh Qs  Kd 7s 2c 3h 4s  8d 7c 2h 3s 9c"
SEVEN_DEUCE = "Kd Qd  4s 4h  7c 2d  Jc Jh 5d 6s Tc"


async def _tid(bot: HomeGameBot, world: World) -> int:
    assert bot.service is not None
    view = await bot.service.table_in_channel(world.channel.id)
    assert view is not None
    return view.table_id


async def _click(world: World, user: FakeUser, message: FakeMessage, label: str) -> str:
    """Press ``label`` on ``message``; the ephemeral answer's text ('' when the click
    updated the message)."""
    reply = await (await world.fake.click_label(user, message, label)).response()
    return "" if reply.updated_message else reply.content


async def _act_until(
    world: World,
    bot: HomeGameBot,
    table: FakeMessage,
    tid: int,
    players: list[FakeUser],
    label_for: object,
    *,
    hand: int,
) -> list[str]:
    """Click the table message as the player to act (``label_for(user, labels)`` picks the
    label) while hand ``hand`` is in its betting; returns the labels clicked."""
    service = bot.service
    assert service is not None
    by_id = {u.id: u for u in players}
    clicked: list[str] = []

    async def dealt() -> bool:  # the committed view, which follows the live hand
        return (await service.view(tid)).hand_number >= hand

    await eventually(dealt, what=f"hand {hand} committed")
    while True:
        view = await service.view(tid)
        if view.hand_number != hand or not view.to_act_user_ids or not view.public_actions:
            return clicked
        (uid,) = view.to_act_user_ids
        await eventually(lambda v=view: footer_state(table) == v.version, what="table message")
        label = label_for(by_id[uid], enabled(table))  # type: ignore[operator]
        assert await _click(world, by_id[uid], table, label) == ""
        clicked.append(f"{by_id[uid].name}:{label}")
        assert len(clicked) < 60


async def _turn(bot: HomeGameBot, table: FakeMessage, tid: int, user: FakeUser) -> None:
    """Wait until ``user`` is to act and the table message shows that state."""
    service = bot.service
    assert service is not None
    view = await _until(
        lambda: service.view(tid), lambda v: user.id in v.to_act_user_ids, what=user.name
    )
    await eventually(lambda: footer_state(table) >= view.version, what="the table message")


def _passive(user: FakeUser, labels: list[str]) -> str:
    return "Check" if "Check" in labels else "Call"


def _fold(user: FakeUser, labels: list[str]) -> str:
    return "Fold" if "Call" in labels else "Check"


def _result(world: World, text: str) -> FakeMessage:
    found = [m for m in world.fake.channel_messages(world.channel) if text in m.content]
    assert found, text
    return found[-1]


async def _history_replays(bot: HomeGameBot, tid: int, number: int) -> str:
    async with bot.store.read() as tx:
        hand = next(h for h in await tx.hands(tid) if h.number == number)
    assert hand.history
    assert replay_flop_phh_text(hand.history).match is True
    return hand.history


# -------------------------------------------------------------------- the straddle


async def test_straddled_no_limit_hand_through_discord(world: World) -> None:
    players = world.players
    async with table_bot(world, autostart_delay=0.3) as bot:
        service = bot.service
        assert service is not None
        table = await open_table(world, "holdem", {"straddle": "under-the-gun"}, players)
        tid = await _tid(bot, world)
        rules = field(table, "House rules") or ""
        assert "Straddle: **under the gun**" in rules
        await _click(world, world.alice, table, "Start")
        await _act_until(world, bot, table, tid, players, _fold, hand=1)
        # before hand 2 is dealt: the seat under the gun gets the Straddle button
        view = await _until(lambda: service.view(tid), _offered, what="the straddle offer")
        info = view.house
        straddler = next(u for u in players if u.id == _user_of(view, info.straddle_seat))
        other = next(u for u in players if u is not straddler)
        await eventually(lambda: "Straddle" in enabled(table), what="the Straddle button")
        assert "may straddle the next hand under the gun (20)" in table.embeds[0]["description"]
        refused = await _click(world, other, table, "Straddle")
        assert refused.startswith("The straddle of the next hand is") and refused.endswith(
            "Nothing changed."
        )
        assert await _click(world, straddler, table, "Straddle") == ""
        playing = await eventually(
            lambda: _hand_of(service, tid, 2), what="hand 2 dealt with the straddle"
        )
        assert playing.seats_bet[straddler.id] == 20
        order = await _act_until(world, bot, table, tid, players, _passive, hand=2)
        preflop = order[:4]
        # everyone calls the straddle; the straddler acts last before the flop and checks
        assert preflop[-1] == f"{straddler.name}:Check", order
        assert all(x.endswith(":Call") for x in preflop[:3]), order
        await eventually(lambda: _result(world, "The pot"), what="hand 2's result")
        history = await _history_replays(bot, tid, 2)
        assert "blinds_or_straddles = [5, 10, 20" in history and "_straddle = 3" in history
        await wallets_match_the_table(bot, world, tid)


class _Playing:
    def __init__(self, seats_bet: dict[int, int]) -> None:
        self.seats_bet = seats_bet


def _user_of(view: Any, seat: int | None) -> int:
    return int(next(s.user_id for s in view.seats if s.seat == seat))


def _offered(view: Any) -> bool:
    return view.house is not None and view.house.straddle_seat is not None


async def _until(
    read: Callable[[], Awaitable[Any]], ok: Callable[[Any], bool], *, what: str
) -> Any:
    """Poll ``read()`` (the service's committed views) until ``ok`` holds for it (a hang
    guard, tablebot.HANG, not a time the bot must beat)."""

    async def check() -> Any:
        value = await read()
        return value if ok(value) else None

    return await eventually(check, what=what)


def _hand_of(service: object, tid: int, number: int) -> _Playing | None:
    live = service._tables.get(tid)  # type: ignore[attr-defined]
    if live is None or live.hand_number != number or not live.family.hand_running:
        return None
    hand = live.family.engine
    return _Playing({live.user(s): b for s, b in zip(hand.seat_ids, hand.bets, strict=True)})


def _committed_hand(service: Any, tid: int, number: int, phase: str) -> Any:
    """A check for :func:`eventually`: the table's committed view once hand ``number`` is
    in ``phase`` (what a player sees; :func:`_hand_of` reads the live hand, before its
    commit)."""

    async def check() -> Any:
        view = await service.view(tid)
        return view if view.hand_number == number and view.phase == phase else None

    return check


# ---------------------------------------------------------------- run it twice


async def test_hand_run_twice_both_boards_each_runs_winner_and_half_pot(world: World) -> None:
    players = [world.alice, world.bob, world.carol]
    factory = stacked_hands((ALL_IN, DRAW))
    async with table_bot(world, autostart_delay=30, rng_factory=factory) as bot:
        service = bot.service
        assert service is not None
        table = await open_table(world, "holdem", {"run_it_twice": "ask"}, players)
        tid = await _tid(bot, world)
        await _click(world, world.alice, table, "Start")
        await _turn(bot, table, tid, world.carol)
        menu = await amounts(world, world.carol, table, "Raise")
        shove = next(b["label"] for b in menu.buttons() if "All-in" in str(b["label"]))
        await _click(world, world.carol, menu, str(shove))
        await _turn(bot, table, tid, world.alice)
        assert await _click(world, world.alice, table, "Call") == ""
        await _turn(bot, table, tid, world.bob)
        assert await _click(world, world.bob, table, "Fold") == ""
        # the two players still in are asked in their DMs; the table says so
        for user in (world.alice, world.carol):
            await eventually(
                lambda u=user: "Twice" in [b["label"] for b in hand_dm(world, u).buttons()],
                what=f"{user.name}'s Once / Twice",
            )
        await eventually(
            lambda: "choose to run the board **Once** or **Twice**" in str(table.embeds[0]),
            what="the table's question",
        )
        assert "Run it twice" not in [b["label"] for b in hand_dm(world, world.bob).buttons()]
        for user in (world.carol, world.alice):
            reply = await (
                await world.fake.click_label(user, hand_dm(world, user), "Twice")
            ).response()
            assert reply.updated_message, reply.content
        result = await eventually(lambda: _result(world, "Run 2:"), what="the result")
        text = result.content
        assert "Run 1: K♦ 7♠ 2♣ 3♥ 4♠" in text and "Run 2: 8♦ 7♣ 2♥ 3♠ 9♣" in text
        assert "Half the pot (1,005): alice wins it" in text
        assert "Half the pot (1,005): carol wins it" in text
        # both boards on the table message and in the picture
        await eventually(lambda: "Run 2: 8♦ 7♣ 2♥ 3♠ 9♣" in str(table.embeds[0]), what="boards")
        assert "Run 1: K♦ 7♠ 2♣ 3♥ 4♠" in str(table.embeds[0])
        (picture,) = [a for a in result.attachments if a.filename == "showdown.png"]
        assert "Run 1 K♦ 7♠ 2♣ 3♥ 4♠" in str(picture.description)
        assert "Run 2 8♦ 7♣ 2♥ 3♠ 9♣" in str(picture.description)
        history = await _history_replays(bot, tid, 1)
        assert "runout_count = 2" in history
        async with bot.store.read() as tx:
            wallets = {u.name: (await tx.wallet(world.guild.id, u.id)).balance for u in players}
        assert wallets == {"alice": 1005, "bob": 990, "carol": 1005}
        await wallets_match_the_table(bot, world, tid)


# ------------------------------------------------------------------- the bomb pot


async def test_double_board_bomb_pot_called_by_the_host(world: World) -> None:
    players = [world.alice, world.bob, world.carol]
    async with table_bot(world, autostart_delay=0.3) as bot:
        service = bot.service
        assert service is not None
        table = await open_table(world, "holdem", {}, players)
        tid = await _tid(bot, world)
        await _click(world, world.alice, table, "Start")
        # only the host (or Manage Server) calls one
        refused = await (
            await world.fake.invoke(
                world.bob, world.channel, "table", {"ante": 20}, subcommand="bomb-pot"
            )
        ).response()
        assert refused.ephemeral and refused.content.endswith("Nothing changed.")
        called = await (
            await world.fake.invoke(
                world.alice,
                world.channel,
                "table",
                {"ante": 20, "double_board": True},
                subcommand="bomb-pot",
            )
        ).response()
        assert not called.ephemeral
        assert "The next hand is a bomb pot: everyone antes 20" in called.content
        assert "two boards" in called.content
        await _act_until(world, bot, table, tid, players, _fold, hand=1)
        # the committed view (the live hand runs ahead of its commit): the bomb pot
        # starts on the flop with everyone's ante in
        view = await eventually(
            _committed_hand(service, tid, 2, "the flop"), what="the bomb pot's flop"
        )
        assert view.pot == 60
        await eventually(lambda: "Board 2:" in str(table.embeds[0]), what="two boards")
        await _act_until(world, bot, table, tid, players, _passive, hand=2)
        result = await eventually(lambda: _result(world, "Board 2:"), what="the result")
        assert result.content.count("Half the pot") >= 2
        async with bot.store.read() as tx:
            hands = await tx.hands(tid)
            antes = await tx.entries(table_id=tid, kind="ante")
            blinds = await tx.entries(table_id=tid, kind="blind")
        bomb = hands[1].id
        assert sorted(e.amount for e in antes if e.hand_id == bomb) == [20, 20, 20]
        assert not [e for e in blinds if e.hand_id == bomb]
        history = await _history_replays(bot, tid, 2)
        assert "starting_board_count = 2" in history and "_bomb_pot = true" in history
        await wallets_match_the_table(bot, world, tid)


# ------------------------------------------------------------------ seven-deuce


async def test_seven_deuce_payment_in_the_ledger(world: World) -> None:
    players = [world.alice, world.bob, world.carol]
    factory = stacked_hands((SEVEN_DEUCE, DRAW))
    async with table_bot(world, autostart_delay=30, rng_factory=factory) as bot:
        service = bot.service
        assert service is not None
        table = await open_table(world, "holdem", {"seven_deuce": 25}, players)
        tid = await _tid(bot, world)
        await _click(world, world.alice, table, "Start")
        await _turn(bot, table, tid, world.carol)
        menu = await amounts(world, world.carol, table, "Raise")
        await _click(world, world.carol, menu, "Min: 20")
        for user in (world.alice, world.bob):
            await _turn(bot, table, tid, user)
            assert await _click(world, user, table, "Fold") == ""
        dm = await eventually(
            lambda: (
                hand_dm(world, world.carol)
                if "Show" in [b["label"] for b in hand_dm(world, world.carol).buttons()]
                else None
            ),
            what="Carol's Show / Muck",
        )
        reply = await (await world.fake.click_label(world.carol, dm, "Show")).response()
        assert reply.updated_message, reply.content
        result = await eventually(lambda: _result(world, "Seven-deuce:"), what="the result")
        assert "carol won with 7♣ 2♦ and is paid 50 (alice 25, bob 25)" in result.content
        assert "carol shows 7♣ 2♦" in result.content
        assert "The pot (25): carol wins it" in result.content
        async with bot.store.read() as tx:
            paid = await tx.entries(table_id=tid, kind="seven_deuce")
            ids = {(await tx.wallet(world.guild.id, u.id)).id: u.name for u in players}
        pot = next(e.to_account for e in paid if e.from_account in ids)
        moves = sorted(
            (ids.get(e.from_account, "pot"), ids.get(e.to_account, "pot"), e.amount) for e in paid
        )
        assert moves == [("alice", "pot", 25), ("bob", "pot", 25), ("pot", "carol", 50)]
        assert all(e.to_account == pot or e.from_account == pot for e in paid)
        await wallets_match_the_table(bot, world, tid)


# ------------------------------------------------------------------ rabbit hunt


async def test_rabbit_hunt_shows_the_cards_that_would_have_come_and_changes_nothing(
    world: World,
) -> None:
    players = [world.alice, world.bob, world.carol]
    factory = stacked_hands((SEVEN_DEUCE, DRAW))
    async with table_bot(world, autostart_delay=30, rng_factory=factory) as bot:
        service = bot.service
        assert service is not None
        table = await open_table(world, "holdem", {}, players)
        tid = await _tid(bot, world)
        await _click(world, world.alice, table, "Start")
        await _act_until(world, bot, table, tid, players, _fold, hand=1)
        result = await eventually(
            lambda: next(
                (
                    m
                    for m in world.fake.channel_messages(world.channel)
                    if any(b["label"] == "Rabbit" for b in m.buttons())
                ),
                None,
            ),
            what="the result's Rabbit button",
        )
        before = await service.view(tid)
        async with bot.store.read() as tx:
            ledger = await tx.entries(table_id=tid)
        # anyone at the table's server may hunt it; the result shows it, the button goes
        reply = await (await world.fake.click_label(world.outsider, result, "Rabbit")).response()
        assert reply.updated_message
        assert (
            "🐇 Rabbit hunt, hand 1: the flop would have been J♣ J♥ 5♦, the turn 6♠, the river 10♣"
            in result.content
        )
        assert not any(b["label"] == "Rabbit" for b in result.buttons())
        assert await service.view(tid) == before
        async with bot.store.read() as tx:
            assert await tx.entries(table_id=tid) == ledger
        await wallets_match_the_table(bot, world, tid)


# ------------------------------------------------------------------ /table house


async def test_table_house_by_the_host_changes_options_from_the_next_hand(world: World) -> None:
    players = [world.alice, world.bob, world.carol]
    async with table_bot(world, autostart_delay=0.3) as bot:
        service = bot.service
        assert service is not None
        table = await open_table(world, "holdem", {}, players)
        tid = await _tid(bot, world)
        refused = await (
            await world.fake.invoke(
                world.bob, world.channel, "table", {"seven_deuce": 10}, subcommand="house"
            )
        ).response()
        assert refused.ephemeral and refused.content.endswith("Nothing changed.")
        done = await (
            await world.fake.invoke(
                world.alice,
                world.channel,
                "table",
                {"straddle": "button", "run_it_twice": "ask", "seven_deuce": 10},
                subcommand="house",
            )
        ).response()
        assert not done.ephemeral
        assert "from the next hand: straddle: button, run it twice: ask" in done.content
        await eventually(
            lambda: "Straddle: **on the button**" in (field(table, "House rules") or ""),
            what="the table message's house rules",
        )
        rules = field(table, "House rules") or ""
        assert "Seven-deuce (each player pays a shown 7-2 offsuit winner): **10**" in rules
        again = await (
            await world.fake.invoke(
                world.alice, world.channel, "table", {"seven_deuce": 10}, subcommand="house"
            )
        ).response()
        assert again.ephemeral and "already" in again.content
        view = await service.view(tid)
        assert ("seven_deuce", "10") in [(n, v) for n, v, _ in view.rules]


async def test_straddle_buttons_in_the_straddlers_hand_dm_too(world: World) -> None:
    players = world.players
    async with table_bot(world, autostart_delay=0.3) as bot:
        service = bot.service
        assert service is not None
        table = await open_table(world, "holdem", {"straddle": "button"}, players)
        tid = await _tid(bot, world)
        await _click(world, world.alice, table, "Start")
        await _act_until(world, bot, table, tid, players, _fold, hand=1)
        view = await _until(lambda: service.view(tid), _offered, what="the straddle offer")
        straddler = next(u for u in players if u.id == _user_of(view, view.house.straddle_seat))
        dm = await eventually(
            lambda: (
                hand_dm(world, straddler)
                if "Straddle" in [b["label"] for b in hand_dm(world, straddler).buttons()]
                else None
            ),
            what="the Straddle button in the DM",
        )
        assert "Straddle the next hand" in str(dm.embeds[0])
        others = [u for u in players if u is not straddler]
        assert all(
            "Straddle" not in [b["label"] for b in hand_dm(world, u).buttons()] for u in others
        )
        reply = await (await world.fake.click_label(straddler, dm, "Straddle")).response()
        assert reply.updated_message, reply.content
        playing = await eventually(lambda: _hand_of(service, tid, 2), what="hand 2")
        assert playing.seats_bet[straddler.id] == 20
        await eventually(
            lambda: f"{straddler.name} straddles 20" in (field(table, "Recent") or ""),
            what="the straddle said",
        )
        await wallets_match_the_table(bot, world, tid)
