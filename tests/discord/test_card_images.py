"""Card images through the fake Discord (issue 7 item 3): the hand DM carries a PNG of its
owner's cards (replaced when the hand changes), the showdown result a PNG of every shown
hand with the winners marked; the league's ``images`` flag (``/league setup images:``) and
the host's ``ui.images`` each turn them off, and the text with the cards stays either way.

Privacy: every version of every hand DM is checked: its attachment's bytes are exactly
``render_hand`` of the cards that same version lists for its owner, so an image can never
carry another player's card; the recorder's audit of all text passes too."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.engine.cards import Card, parse_cards
from bot.render.images import (
    hand_image_size,
    render_hand,
    render_showdown,
    showdown_image_size,
)
from bot.testing import FakeMessage, FakeUser
from bot.testing.fake_model import MessageVersion, StoredAttachment
from tests.discord.conftest import World
from tests.discord.privacy import PrivacyRecorder, assert_private
from tests.discord.tablebot import eventually, field, hand_dm, table_bot
from tests.discord.test_guts_games import choose_all, discard_suggested, open_and_fill, window_open
from tests.discord.test_razz_table import open_razz, play_razz_hand

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def version_field(version: MessageVersion, name: str) -> str | None:
    for embed in version.embeds:
        for f in embed.get("fields", ()):
            if f.get("name") == name:
                return str(f.get("value"))
    return None


def opened_png(attachment: StoredAttachment) -> Image.Image:
    """The attachment is a real PNG Pillow opens, of a sensible size, and not blank."""
    assert attachment.data.startswith(PNG_SIGNATURE), attachment.filename
    assert attachment.content_type == "image/png"
    image = Image.open(io.BytesIO(attachment.data))
    image.load()
    assert image.format == "PNG"
    assert 200 <= image.width <= 2000 and 100 <= image.height <= 2000, image.size
    colours = image.convert("RGB").getcolors(maxcolors=1 << 16)
    assert colours is None or len(colours) > 16, "a blank image"
    return image


def expected_hand_png(game: str, version: MessageVersion) -> tuple[bytes, list[Card]]:
    """``render_hand`` of the cards this DM version shows its owner, with the label the
    bot gives them (Razz: down cards first, then up cards)."""
    if game == "razz":
        down = parse_cards(version_field(version, "Down (only you)") or "")
        up = parse_cards(version_field(version, "Up (everyone)") or "")
        label = f"Razz · first {len(down)} down (only you), then {len(up)} up (everyone)"
        cards = [*down, *up]
        # issue 19 item 13: the down cards are marked
        return render_hand(cards, label=label, down=range(len(down))), cards
    cards = parse_cards(version_field(version, "Cards") or "")
    hand = version_field(version, "Hand")
    label = f"{game.title()} · {hand}" if hand else game.title()
    return render_hand(cards, label=label), cards


def assert_dm_images_are_the_owners(world: World, game: str, users: list[FakeUser]) -> int:
    """Every DM version with an image shows exactly its owner's cards of that version;
    returns how many distinct hand images were sent."""
    sent: set[int] = set()
    for user in users:
        dm = hand_dm(world, user)
        for version in dm.versions:
            if not version.attachments:
                continue
            (attachment,) = version.attachments
            assert attachment.filename == "hand.png"
            expected, cards = expected_hand_png(game, version)
            assert attachment.data == expected, f"{user.name}'s DM image is not their hand"
            size = opened_png(attachment).size  # wider than the cards for a long hand name
            assert size[1] == hand_image_size(len(cards), label=True)[1]
            assert size[0] >= hand_image_size(len(cards), label=True)[0]
            sent.add(attachment.id)
    return len(sent)


def expected_showdown_png(
    content: str, order: list[FakeUser], *, stud: bool = False
) -> tuple[bytes, set[int]]:
    """``render_showdown`` of the result text's shown hands in seat (join) order, the rows
    of those the text says win chips marked (``stud``: the down cards too, dealt 2nd,
    1st and 7th); returns the PNG and the winner rows."""
    seat = {u.name: i for i, u in enumerate(order)}
    rows: list[tuple[str, list[Card], str]] = []
    winners: set[str] = set()
    for line in content.splitlines():
        if " wins " in line:
            winners.add(line.split(" wins ", 1)[0])
        elif " — " in line:
            who, rest = line.split(": ", 1)
            cards, hand = rest.split(" — ", 1)
            rows.append((who.removesuffix(" (challenger)"), parse_cards(cards), hand))
    rows.sort(key=lambda row: seat[row[0]])
    marked = {i for i, row in enumerate(rows) if row[0] in winners}
    down = {i: [k for k in range(len(row[1])) if k < 2 or k == 6] for i, row in enumerate(rows)}
    badges = {i: "WINNER · SPLIT" for i in marked} if len(marked) > 1 else {}
    return render_showdown(
        rows, winner_indexes=marked, badges=badges, down=down if stud else None
    ), marked


def result_messages(world: World, table: FakeMessage) -> list[FakeMessage]:
    return [
        m
        for m in world.fake.channel_messages(world.channel)
        if m is not table and (" wins " in m.content or " matches " in m.content)
    ]


@pytest.mark.parametrize("game", ["zoot", "wheelers"])
async def test_guts_dm_image_is_the_owners_hand_replaced_after_exchange_and_showdown_png(
    world: World, game: str
) -> None:
    fake = world.fake
    recorder = PrivacyRecorder(clock=fake.clock)
    async with table_bot(world, relay=recorder) as bot:
        assert bot.service is not None
        table = await open_and_fill(world, game)
        assert (
            await (await fake.click_label(world.alice, table, "Start")).response()
        ).updated_message
        # RULES 1.3: each DM gets its five cards and the picture of exactly those cards
        await eventually(
            lambda: all(hand_dm(world, u).attachments for u in world.players),
            what="the hand images",
        )
        first = {u.name: hand_dm(world, u).attachments[0].id for u in world.players}
        # 1.4/1.5: everyone plays on, discards one and draws one: the picture is replaced
        await choose_all(world, {})
        await discard_suggested(world)
        await eventually(
            lambda: all(
                window_open(hand_dm(world, u))
                and hand_dm(world, u).attachments[0].id != first[u.name]
                for u in world.players
            ),
            what="the second window with new hand images",
        )
        for user in world.players:
            dm = hand_dm(world, user)
            assert len(dm.attachments) == 1  # replaced, not added
            expected, _ = expected_hand_png(game, dm.latest)
            assert dm.attachments[0].data == expected
        # 1.7: one player lays down: the showdown result carries every shown hand
        await choose_all(world, {world.alice.name: "Lay down"})
        (result,) = await eventually(lambda: result_messages(world, table), what="the result")
        (picture,) = result.attachments
        assert picture.filename == "showdown.png"
        rows = [line for line in result.content.splitlines() if " — " in line]
        assert rows, result.content  # the text keeps the shown cards
        size = opened_png(picture).size  # at least the usual size; wider for long names
        assert size[1] == showdown_image_size(len(rows), 5)[1]
        assert size[0] >= showdown_image_size(len(rows), 5)[0]
        expected, _ = expected_showdown_png(result.content, world.players)
        assert picture.data == expected  # the shown hands, the winners (if any) marked
        assert all(parse_cards(line.split(": ", 1)[1].split(" — ")[0]) for line in rows)
    assert assert_dm_images_are_the_owners(world, game, world.players) >= 8
    assert_private(fake, recorder, [*world.players, world.outsider])


async def test_razz_dm_image_down_then_up_cards_and_showdown_png(world: World) -> None:
    fake = world.fake
    players = [world.alice, world.bob, world.carol]
    recorder = PrivacyRecorder(clock=fake.clock)
    async with table_bot(world, autostart_delay=30, relay=recorder) as bot:
        table, _ = await open_razz(world, players)
        view = await bot.service.table_in_channel(world.channel.id)  # type: ignore[union-attr]
        assert view is not None
        await (await fake.click_label(world.bob, table, "Start")).response()
        await eventually(
            lambda: all(hand_dm(world, u).attachments for u in players), what="the hand images"
        )
        await play_razz_hand(world, bot, table, view.table_id)
        (result,) = await eventually(lambda: result_messages(world, table), what="the result")
        rows = [line for line in result.content.splitlines() if " — " in line]
        if rows:  # a showdown (not everyone folded to one player)
            (picture,) = result.attachments
            assert picture.filename == "showdown.png"
            size = opened_png(picture).size  # at least the usual size; wider for long names
            assert size[1] == showdown_image_size(len(rows), 7)[1]
            assert size[0] >= showdown_image_size(len(rows), 7)[0]
            expected, winners = expected_showdown_png(result.content, players, stud=True)
            assert winners and picture.data == expected  # the winner's row is marked
    # The picture is replaced as streets are dealt; DM edits are coalesced (the newest state
    # wins), so a street may be skipped, but every player's last picture is the full hand.
    assert assert_dm_images_are_the_owners(world, "razz", players) >= 2 * len(players)
    for user in players:
        last = [v for v in hand_dm(world, user).versions if v.attachments][-1]
        assert len(expected_hand_png("razz", last)[1]) == 7, f"{user.name}: not all 7 cards"
    assert_private(fake, recorder, [*players, world.dave, world.outsider])


@pytest.mark.parametrize("switch", ["league", "host"])
async def test_images_off_no_attachments_but_the_text_keeps_the_cards(
    world: World, switch: str
) -> None:
    fake = world.fake
    players = [world.alice, world.bob, world.carol]
    async with table_bot(world, autostart_delay=30) as bot:
        if switch == "league":
            reply = await (
                await fake.invoke(
                    world.alice, world.channel, "league", {"images": False}, subcommand="setup"
                )
            ).response()
            assert "Card images: off" in reply.content, reply.content
        else:
            bot.settings = bot.settings.model_copy(
                update={"ui": bot.settings.ui.model_copy(update={"images": False})}
            )
        table, _ = await open_razz(world, players)
        view = await bot.service.table_in_channel(world.channel.id)  # type: ignore[union-attr]
        assert view is not None
        await (await fake.click_label(world.alice, table, "Start")).response()
        await eventually(
            lambda: all(
                (field(hand_dm(world, u), "Down (only you)") or "—") != "—" for u in players
            ),
            what="the down cards",
        )
        mine = await (await fake.click_label(world.bob, table, "My hand")).response()
        assert mine.ephemeral and not mine.attachments
        await play_razz_hand(world, bot, table, view.table_id)
        (result,) = await eventually(lambda: result_messages(world, table), what="the result")
        assert not result.attachments
        for user in players:
            dm = hand_dm(world, user)
            assert not any(v.attachments for v in dm.versions)
            assert len(parse_cards(field(dm, "Down (only you)") or "")) >= 2
    assert not [a for a in fake.attachments.values() if a.filename.endswith(".png")]


async def test_my_hand_ephemeral_carries_the_clickers_hand_image(world: World) -> None:
    fake = world.fake
    async with table_bot(world) as bot:
        assert bot.service is not None
        table = await open_and_fill(world, "zoot")
        await (await fake.click_label(world.alice, table, "Start")).response()
        await eventually(lambda: hand_dm(world, world.carol).attachments, what="carol's image")
        rec = await fake.click_label(world.carol, table, "My hand")
        reply = await rec.response()
        # acknowledged first ("thinking", ephemeral), then filled with the view and picture
        assert reply.callback_type == 5 and rec.followups == [reply.message]
        assert reply.ephemeral and reply.message is not None
        (attachment,) = reply.attachments
        expected, cards = expected_hand_png("zoot", reply.message.latest)
        assert attachment.data == expected and len(cards) == 5
        assert cards == parse_cards(field(hand_dm(world, world.carol), "Cards") or "")
