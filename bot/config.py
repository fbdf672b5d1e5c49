"""Settings: the TOML file, the environment, and the defaults, in that order of weakness.

Sources, highest priority first:

1. environment variables ``HOMEGAME_<SECTION>__<KEY>`` (``HOMEGAME_DISCORD__TOKEN``,
   ``HOMEGAME_DATABASE__PATH``, ``HOMEGAME_BACKUP__KEEP`` …), case-insensitive;
2. the plain ``DISCORD_TOKEN``, an alias for ``discord.token`` (what most hosting guides
   tell people to set; ``HOMEGAME_DISCORD__TOKEN`` wins when both are set);
3. the TOML file: the explicit path (``--config``), else ``$HOMEGAME_CONFIG``, else
   ``./config.toml`` when it exists, else none;
4. the defaults below (``config.example.toml`` lists every one).

Nothing is read at import time: ``__main__`` calls :func:`load_settings` and injects the
result. Every problem becomes one :class:`ConfigError` line naming the setting, never a
traceback, and the token (a ``SecretStr``) never appears in output, logs or errors.
"""

from __future__ import annotations

import json
import logging
import os
import re
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar
from urllib.parse import urlsplit

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SecretStr,
    ValidationError,
    field_validator,
    model_validator,
)
from pydantic_settings import (
    BaseSettings,
    EnvSettingsSource,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)
from pydantic_settings.sources import DefaultSettingsSource

from bot import games as registry
from bot.engine.errors import HomeGameError, InvalidConfig
from bot.engine.flop.rules import FlopRules
from bot.engine.guts.rules import GutsRules
from bot.engine.razz.rules import RazzRules
from bot.engine.stud.rules import StudRules
from bot.store.models import LeagueDefaults

MIXED_SMALL_BET = 10
"""A HORSE or dealer's-choice table's small bet by default (bot/tables/mixed.py)."""
MIXED_CHOICE_SECONDS = 30
"""Seconds a dealer's-choice dealer has to pick, by default (bot/tables/mixed.py)."""

ENV_PREFIX = "HOMEGAME_"
ENV_DELIMITER = "__"
CONFIG_ENV = "HOMEGAME_CONFIG"
TOKEN_ALIAS_ENV = "DISCORD_TOKEN"
DEFAULT_CONFIG_FILE = "config.toml"
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
MASK = "***"


class ConfigError(HomeGameError, ValueError):
    """A setting that is missing, malformed or out of range; the message is one line."""


class _Section(BaseModel):
    # A typo in the file (``[databse]``, ``keeep = 3``) is an error, not a silent default.
    model_config = ConfigDict(extra="forbid", frozen=True)


class DiscordSettings(_Section):
    token: SecretStr | None = None
    """Bot token. Required to run the bot; ``check-config`` reports it when missing."""
    api_base: str = "https://discord.com/api/v10"
    """REST base URL: Discord itself, an HTTP proxy, or the project's local fake Discord."""
    dev_guild_id: int | None = Field(default=None, gt=0)
    """Sync slash commands to this one guild (instant) instead of globally (up to an hour)."""
    shard_count: int | None = Field(default=None, ge=1)
    """Fixed shard count; unset lets discord.py ask Discord for the recommended count."""

    @field_validator("token", mode="before")
    @classmethod
    def _strip_token(cls, value: object) -> object:
        # Tokens pasted from a file or a dashboard often carry a newline or spaces; an empty
        # token is the same as no token.
        if isinstance(value, SecretStr):
            value = value.get_secret_value()
        if isinstance(value, str):
            value = value.strip()
            return value or None
        return value

    @field_validator("api_base")
    @classmethod
    def _http_url(cls, value: str) -> str:
        parts = urlsplit(value.strip())
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise ValueError(f"must be an http(s) URL, got {value!r}")
        return value.strip().rstrip("/")


class DatabaseSettings(_Section):
    path: Path = Path("./homegame.db")
    """SQLite file (created on first start)."""


class BackupSettings(_Section):
    enabled: bool = True
    dir: Path = Path("./backups")
    keep: int = Field(default=7, ge=1, le=1000)
    """How many daily backups to keep; older ones are deleted."""
    hour_utc: int = Field(default=4, ge=0, le=23)
    """Hour of the day (UTC) at which the daily backup runs."""


_GUTS = GutsRules.model_fields
_RAZZ = RazzRules.model_fields
_STUD = StudRules.model_fields
_FLOP = FlopRules.model_fields
DECISION_RANGE = (10, 600)
"""Seconds a player may be given to act, at every game (the table commands' range too)."""

LEAGUE_GAMES: dict[str, tuple[str, tuple[str, ...], tuple[str, ...]]] = {
    d.config: (d.key, d.stakes, d.times) for d in registry.league_settings()
}
"""Config prefix -> (the league's game settings key, its stake keys, its time keys): the
``[league]`` key ``<prefix>_<stake>`` is a new league's default of that stake. Read from the
registry of games (bot/games.py); the keys themselves are the fields of
:class:`LeagueSettings` below, a documented contract (a test checks each one is there)."""


def _engine_default(fields: dict[str, Any], name: str) -> int:
    value = fields[name].default
    assert isinstance(value, int)
    return value


def _stake(fields: dict[str, Any], name: str, *, least: int = 0) -> Any:
    return Field(default=_engine_default(fields, name), ge=least, le=1_000_000)


def _seconds() -> Any:
    # unset: the league's decision_seconds
    return Field(default=None, ge=DECISION_RANGE[0], le=DECISION_RANGE[1])


class LeagueSettings(_Section):
    """A new server league's defaults (DESIGN, League defaults): copied into the league when
    it is created, at its first table; ``/league setup`` changes them for that league."""

    starting_chips: int = Field(default=1000, ge=1)
    """Chips a member gets the first time they sit down in a season (a ledger entry)."""
    rebuy_amount: int = Field(default=1000, ge=0, le=1_000_000_000)
    """What a ``/rebuy`` tops a wallet up to (0: no rebuys)."""
    rebuy_cooldown_minutes: int = Field(default=1440, ge=0, le=525_600)
    """Minutes a member waits between two rebuys."""
    decision_seconds: int = Field(default=45, ge=DECISION_RANGE[0], le=DECISION_RANGE[1])
    """Seconds to act at every game (a lay-down or discard window, a bet) unless the game's
    own ``<game>_decision_seconds`` says otherwise."""
    zoot_ante: int = _stake(_GUTS, "ante", least=1)
    zoot_decision_seconds: int | None = _seconds()
    wheelers_ante: int = _stake(_GUTS, "ante", least=1)
    wheelers_decision_seconds: int | None = _seconds()
    razz_ante: int = _stake(_RAZZ, "ante")
    razz_bring_in: int = _stake(_RAZZ, "bring_in", least=1)
    razz_small_bet: int = _stake(_RAZZ, "small_bet", least=1)
    razz_big_bet: int = _stake(_RAZZ, "big_bet", least=1)
    """Razz stakes (RULES §4.2: 2 / 5 / 10 / 20 by default)."""
    razz_decision_seconds: int | None = _seconds()
    stud_ante: int = _stake(_STUD, "ante")
    stud_bring_in: int = _stake(_STUD, "bring_in", least=1)
    stud_small_bet: int = _stake(_STUD, "small_bet", least=1)
    stud_big_bet: int = _stake(_STUD, "big_bet", least=1)
    stud_decision_seconds: int | None = _seconds()
    stud_hi_lo_ante: int = _stake(_STUD, "ante")
    stud_hi_lo_bring_in: int = _stake(_STUD, "bring_in", least=1)
    stud_hi_lo_small_bet: int = _stake(_STUD, "small_bet", least=1)
    stud_hi_lo_big_bet: int = _stake(_STUD, "big_bet", least=1)
    stud_hi_lo_decision_seconds: int | None = _seconds()
    holdem_small_blind: int = _stake(_FLOP, "small_blind")
    holdem_big_blind: int = _stake(_FLOP, "big_blind", least=1)
    holdem_ante: int = _stake(_FLOP, "ante")
    holdem_decision_seconds: int | None = _seconds()
    omaha_small_blind: int = _stake(_FLOP, "small_blind")
    omaha_big_blind: int = _stake(_FLOP, "big_blind", least=1)
    omaha_ante: int = _stake(_FLOP, "ante")
    omaha_decision_seconds: int | None = _seconds()
    horse_small_bet: int = Field(default=MIXED_SMALL_BET, ge=2, le=1_000_000)
    horse_ante: int | None = Field(default=None, ge=0, le=1_000_000)
    """Unset: a fifth of the small bet at the stud games (RULES §9)."""
    horse_decision_seconds: int | None = _seconds()
    dealers_choice_small_bet: int = Field(default=MIXED_SMALL_BET, ge=2, le=1_000_000)
    dealers_choice_ante: int | None = Field(default=None, ge=0, le=1_000_000)
    dealers_choice_decision_seconds: int | None = _seconds()
    dealers_choice_choice_seconds: int = Field(default=MIXED_CHOICE_SECONDS, ge=10, le=300)

    @model_validator(mode="after")
    def _stakes_in_order(self) -> LeagueSettings:
        if self.razz_bring_in >= self.razz_small_bet:
            raise ValueError(
                f"razz_bring_in ({self.razz_bring_in}) must be less than razz_small_bet "
                f"({self.razz_small_bet}) (/rules razz §4.2)"
            )
        if self.razz_small_bet > self.razz_big_bet:
            raise ValueError(
                f"razz_small_bet ({self.razz_small_bet}) must not exceed razz_big_bet "
                f"({self.razz_big_bet})"
            )
        # every game's stakes as its table would take them: a combination the game refuses
        # (a small blind above the big blind...) is one line here, not a refused table later
        from bot.tables.games import check_league_settings

        settings = self.game_settings()
        fields = type(self).model_fields
        for prefix, (key, stakes, _) in LEAGUE_GAMES.items():
            if not any(f"{prefix}_{s}" in fields for s in stakes):
                continue  # no config keys: the engine's own defaults, which it checked
            try:
                check_league_settings(key, settings[key])
            except InvalidConfig as exc:
                name = f"{prefix}_{exc.field}"
                if name not in type(self).model_fields:
                    name = prefix
                raise ValueError(f"{name}: {exc.reason}") from None
        return self

    def game_settings(self) -> dict[str, dict[str, dict[str, int]]]:
        """Each game's stakes and times as a league stores them (``{"razz": {"stakes":
        {...}, "house_rules": {"decision_seconds": 45}}, ...}``). A game of the registry
        with no config keys of its own (none of the eight) takes its engine's stakes."""
        out: dict[str, dict[str, dict[str, int]]] = {}
        for prefix, (key, stakes, times) in LEAGUE_GAMES.items():
            values = {s: getattr(self, f"{prefix}_{s}", None) for s in stakes}
            rules = {t: getattr(self, f"{prefix}_{t}", None) for t in times}
            if rules.get("decision_seconds") is None:
                rules["decision_seconds"] = self.decision_seconds
            out[key] = {
                "stakes": {k: v for k, v in values.items() if v is not None},
                "house_rules": {k: v for k, v in rules.items() if v is not None},
            }
        return out

    def defaults(self) -> LeagueDefaults:
        """What a league created from now on starts with."""
        return LeagueDefaults(
            starting_chips=self.starting_chips,
            rebuy_amount=self.rebuy_amount,
            rebuy_cooldown_seconds=self.rebuy_cooldown_minutes * 60,
            game_settings=self.game_settings(),
        )


class UiSettings(_Section):
    images: bool = True
    """Attach card and chart images; off sends text only (lighter for slow hosts)."""
    render_processes: int | None = Field(default=None, ge=0, le=8)
    """Worker processes that draw the images (bot.render.pool): unset, one when the machine
    has two or more cores, else none; 0 draws them in a thread of the bot's process."""


class LogSettings(_Section):
    level: str = "INFO"

    @field_validator("level", mode="before")
    @classmethod
    def _known_level(cls, value: object) -> object:
        if isinstance(value, str):
            upper = value.strip().upper()
            if upper not in LOG_LEVELS:
                raise ValueError(f"must be one of {', '.join(LOG_LEVELS)}, got {value!r}")
            return upper
        return value

    @property
    def level_number(self) -> int:
        number: int = logging.getLevelName(self.level)
        return number


class Settings(BaseSettings):
    """The bot's whole configuration. Build it with :func:`load_settings`."""

    model_config = SettingsConfigDict(
        env_prefix=ENV_PREFIX,
        env_nested_delimiter=ENV_DELIMITER,
        env_ignore_empty=True,
        case_sensitive=False,
        extra="forbid",
        frozen=True,
    )

    discord: DiscordSettings = DiscordSettings()
    database: DatabaseSettings = DatabaseSettings()
    backup: BackupSettings = BackupSettings()
    league: LeagueSettings = LeagueSettings()
    ui: UiSettings = UiSettings()
    log: LogSettings = LogSettings()

    SECRETS: ClassVar[tuple[tuple[str, str], ...]] = (("discord", "token"),)

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        # ``Settings()`` without load_settings: keyword arguments, then the same environment
        # rules as load_settings; no .env file and no secrets directory (one documented way).
        return (init_settings, env_settings, _TokenAliasSource(settings_cls, os.environ))

    def token_value(self) -> str:
        """The token, for the one place that logs in; raises ConfigError when missing."""
        if self.discord.token is None:
            raise ConfigError(f"discord.token: missing ({token_hint()})")
        return self.discord.token.get_secret_value()

    def masked(self) -> dict[str, Any]:
        """The settings as plain JSON-able data, secrets replaced by ``***`` (or None if unset)."""
        data: dict[str, Any] = self.model_dump(mode="json")
        for section, key in self.SECRETS:
            value = data[section].get(key)
            data[section][key] = None if value is None else MASK
        return data


def token_hint() -> str:
    return (
        f"set {ENV_PREFIX}DISCORD{ENV_DELIMITER}TOKEN or {TOKEN_ALIAS_ENV}, "
        "or token in the [discord] section of the config file"
    )


class _MappingEnvSource(EnvSettingsSource):
    """The ``HOMEGAME_*`` variables read from an injected mapping instead of ``os.environ``."""

    def __init__(self, settings_cls: type[BaseSettings], environ: Mapping[str, str]) -> None:
        self._environ = environ
        super().__init__(settings_cls)

    def _load_env_vars(self) -> Mapping[str, str | None]:
        # Keys are matched case-insensitively (Settings.model_config), as EnvSettingsSource
        # does for os.environ.
        return {k.lower(): v for k, v in self._environ.items() if v != ""}


class _TokenAliasSource(PydanticBaseSettingsSource):
    """``DISCORD_TOKEN`` as ``discord.token``."""

    def __init__(self, settings_cls: type[BaseSettings], environ: Mapping[str, str]) -> None:
        super().__init__(settings_cls)
        self._token = environ.get(TOKEN_ALIAS_ENV, "")

    def get_field_value(self, field: Any, field_name: str) -> tuple[Any, str, bool]:
        return None, field_name, False

    def __call__(self) -> dict[str, Any]:
        return {"discord": {"token": self._token}} if self._token.strip() else {}


def resolve_config_path(
    path: str | Path | None = None, *, env: Mapping[str, str] | None = None
) -> Path | None:
    """The config file to read: ``path``, else ``$HOMEGAME_CONFIG``, else ``./config.toml``
    if it exists, else None. An explicitly named file that does not exist is a ConfigError.
    """
    environ = os.environ if env is None else env
    named = path if path is not None else (environ.get(CONFIG_ENV) or None)
    if named is not None:
        resolved = Path(named).expanduser()
        if not resolved.is_file():
            why = "is not a file" if resolved.exists() else "not found"
            raise ConfigError(f"config file {why}: {resolved.absolute()}")
        return resolved
    default = Path(DEFAULT_CONFIG_FILE)
    return default if default.is_file() else None


_TOML_POSITION = re.compile(r"\s*\(at line (\d+), column (\d+)\)\s*$")


def load_settings(
    path: str | Path | None = None, *, env: Mapping[str, str] | None = None
) -> Settings:
    """Load and validate the settings (see the module docstring for the sources).

    ``env`` replaces ``os.environ`` (tests, and callers that build the environment).
    Raises :class:`ConfigError` with one line naming the bad setting and why.
    """
    environ: Mapping[str, str] = os.environ if env is None else env
    config_path = resolve_config_path(path, env=environ)

    try:
        toml_source = TomlConfigSettingsSource(Settings, toml_file=config_path)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(_toml_error_line(config_path, exc)) from None
    except UnicodeDecodeError:
        raise ConfigError(f"{config_path}: invalid TOML: the file is not UTF-8 text") from None
    except OSError as exc:
        raise ConfigError(f"config file unreadable: {config_path}: {exc.strerror}") from None

    env_source = _MappingEnvSource(Settings, environ)
    alias_source = _TokenAliasSource(Settings, environ)
    sources: tuple[PydanticBaseSettingsSource, ...] = (
        env_source,
        alias_source,
        toml_source,
        DefaultSettingsSource(Settings),
    )
    try:
        # ``_build_sources`` is pydantic-settings' documented way to hand __init__ the sources
        # already built: here, an injected environment and the file chosen above.
        return Settings(_build_sources=(sources, {}))
    except ValidationError as exc:
        line = _validation_error_line(exc, env_source=env_source, config_path=config_path)
        raise ConfigError(_mask_tokens(line, environ)) from None
    except ValueError as exc:
        # The env source could not decode a whole section given as JSON (HOMEGAME_DISCORD=…).
        match = re.search(r'field "(\w+)"', str(exc))
        section = match.group(1) if match else "<section>"
        raise ConfigError(
            f"{ENV_PREFIX}{section.upper()}: not a JSON object; set one key at a time with "
            f"{ENV_PREFIX}{section.upper()}{ENV_DELIMITER}<KEY>"
        ) from None


_TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{20,}")
"""A Discord bot token: the bot's id in base64, a timestamp, an HMAC, joined by dots."""


def _mask_tokens(line: str, environ: Mapping[str, str]) -> str:
    """``line`` with anything that is, or looks like, a bot token replaced by ``***``: a
    token pasted into the wrong setting (``api_base = "MTIz..."``) must not be echoed back
    in the error that names that setting."""
    known = [
        environ.get(name, "").strip()
        for name in (f"{ENV_PREFIX}DISCORD{ENV_DELIMITER}TOKEN", TOKEN_ALIAS_ENV)
    ]
    for value in sorted((v for v in known if len(v) >= 8), key=len, reverse=True):
        line = line.replace(value, MASK)
    return _TOKEN_SHAPE.sub(MASK, line)


def _toml_error_line(config_path: Path | None, exc: tomllib.TOMLDecodeError) -> str:
    message = str(exc)
    match = _TOML_POSITION.search(message)
    if match is None:
        return f"{config_path}: invalid TOML: {message}"
    reason = message[: match.start()]
    return f"{config_path} line {match.group(1)}: invalid TOML: {reason} (column {match.group(2)})"


def _validation_error_line(
    exc: ValidationError, *, env_source: EnvSettingsSource, config_path: Path | None
) -> str:
    errors = exc.errors(include_url=False)
    first = errors[0]
    loc = tuple(str(part) for part in first["loc"])
    dotted = ".".join(loc) or "settings"
    message = first["msg"]
    for prefix in ("Value error, ", "Assertion failed, "):
        if message.startswith(prefix):
            message = message[len(prefix) :]
    if first["type"] == "extra_forbidden":
        message = "unknown setting (check the spelling against config.example.toml)"
    elif first["type"] == "path_type":
        message = "must be a path (a string)"
    named = re.match(r"^(\w+): ", message)
    if len(loc) == 1 and named is not None and named.group(1) in _section_keys(loc[0]):
        # a section's check that names its key ("holdem_small_blind: must be at most…"):
        # the key as the dotted name, and where that key came from
        loc = (*loc, named.group(1))
        dotted = ".".join(loc)
        message = message[named.end() :]
    secret = any(loc[: len(s)] == s for s in Settings.SECRETS)
    value = first.get("input")
    if (
        not secret
        and first["type"] not in ("value_error", "extra_forbidden")
        and isinstance(value, str | int | float | bool)
    ):
        message += f", got {json.dumps(value)}"
    origin = _origin(loc, env_source=env_source, config_path=config_path)
    line = f"{dotted}: {message}{origin}"
    if len(errors) > 1:
        line += f" (and {len(errors) - 1} more)"
    return line


def _section_keys(section: str) -> set[str]:
    field = Settings.model_fields.get(section)
    model = field.annotation if field is not None else None
    if isinstance(model, type) and issubclass(model, BaseModel):
        return set(model.model_fields)
    return set()


def _origin(
    loc: tuple[str, ...], *, env_source: EnvSettingsSource, config_path: Path | None
) -> str:
    """Where the bad value came from, so the user knows which one to fix."""
    if len(loc) >= 2:
        env_name = f"{ENV_PREFIX}{loc[0]}{ENV_DELIMITER}{loc[1]}".upper()
        if env_name.lower() in env_source.env_vars:
            return f" (from {env_name})"
        if loc[:2] == ("discord", "token") and TOKEN_ALIAS_ENV.lower() in {
            k.lower() for k in env_source.env_vars
        }:
            return f" (from {TOKEN_ALIAS_ENV})"
    if config_path is not None:
        return f" (in {config_path})"
    return ""
