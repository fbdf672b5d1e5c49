"""``/league setup chip_value currency`` through the fake Discord: a bad value or a
currency without a value is refused naming the option and changes nothing; ``off``
returns the settle-up to chips; ``/league show`` says the chip value."""

from __future__ import annotations

from bot.app import HomeGameBot
from bot.store import Store
from tests.league.conftest import World


async def _setup(world: World, options: dict[str, object]) -> tuple[bool, str]:
    rec = await world.fake.invoke(world.alice, world.channel, "league", options, subcommand="setup")
    reply = await rec.response()
    return reply.ephemeral, reply.content


async def _money(store: Store, world: World) -> tuple[str | None, str | None]:
    async with store.read() as tx:
        league = await tx.find_league(world.guild.id)
    return (None, None) if league is None else (league.chip_value, league.currency)


async def test_chip_value_setting_refuses_bad_input_and_changes_nothing(
    world: World, bot: HomeGameBot, store: Store
) -> None:
    _, text = await _setup(world, {"currency": "USD"})
    assert "currency" in text and "chip_value first" in text
    assert await _money(store, world) == (None, None)
    _, text = await _setup(world, {"chip_value": "0.25", "currency": "gbp"})
    assert "1 chip = 0.25 GBP (100 chips = £25.00)" in text
    for options, field in (
        ({"chip_value": "-1"}, "chip_value"),
        ({"chip_value": "0.0000001"}, "chip_value"),
        ({"chip_value": "0.01", "currency": "DOGE"}, "currency"),
        ({"chip_value": "off", "currency": "EUR"}, "currency"),
    ):
        ephemeral, text = await _setup(world, options)
        assert ephemeral and field in text, (options, text)
        assert await _money(store, world) == ("0.25", "GBP")
    _, text = await _setup(world, {"currency": "JPY"})
    assert await _money(store, world) == ("0.25", "JPY")
    _, text = await _setup(world, {"chip_value": "off"})
    assert "Chip value: none" in text
    assert await _money(store, world) == (None, None)
