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

from bot.engine.errors import HomeGameError

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


class LeagueSettings(_Section):
    """Defaults for a server's league: it exists from its first table (DESIGN, League defaults)."""

    starting_chips: int = Field(default=1000, ge=1)
    """Chips a member gets the first time they sit down (a ledger entry)."""
    decision_seconds: int = Field(default=45, ge=5, le=600)
    """Length of a lay-down / discard window (RULES §1.4)."""
    razz_ante: int = Field(default=2, ge=0)
    razz_bring_in: int = Field(default=5, ge=1)
    razz_small_bet: int = Field(default=10, ge=1)
    razz_big_bet: int = Field(default=20, ge=1)
    """Razz stakes (RULES §4.2: 2 / 5 / 10 / 20 by default)."""

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
        return self


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
