"""``python -m bot check-config [PATH]``: validate the settings and print the effective ones.

Output (stdout) is TOML that ``load_settings`` would accept back, secrets shown as ``***``
and unset optional values as comments; ``--json`` prints the same data as JSON instead.
Exit status 0 when the settings are valid and the token is present; 2 otherwise, with one
line on stderr naming the setting and why (a missing token still prints the settings, so
the rest can be checked; ``--allow-missing-token`` accepts it, e.g. in a CI image build).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from bot.config import ConfigError, load_settings, resolve_config_path


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "check-config",
        help="validate the configuration and print the effective settings (token masked)",
        description=(
            "Validate the settings (config file, then HOMEGAME_* environment variables and "
            "DISCORD_TOKEN) and print the effective values as TOML, the token as ***."
        ),
    )
    parser.add_argument(
        "path",
        nargs="?",
        metavar="PATH",
        help="config file (default: $HOMEGAME_CONFIG, else ./config.toml if present)",
    )
    parser.add_argument("--config", dest="config", metavar="PATH", help="same as PATH")
    parser.add_argument("--json", action="store_true", help="print JSON instead of TOML")
    parser.add_argument(
        "--allow-missing-token",
        action="store_true",
        help="exit 0 even when no bot token is configured",
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if args.path and args.config and args.path != args.config:
        print("check-config: give the config file once (PATH or --config)", file=sys.stderr)
        return 2
    path: str | None = args.path or args.config
    try:
        config_path = resolve_config_path(path)
        settings = load_settings(config_path)
    except ConfigError as exc:
        print(exc.message, file=sys.stderr)
        return 2
    data = settings.masked()
    text = json.dumps(data, indent=2) if args.json else to_toml(data, source=config_path)
    try:
        print(text, flush=True)
    except BrokenPipeError:  # `check-config | head`: the reader left; not an error of ours
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - keeps the exit flush quiet
    if settings.discord.token is None and not args.allow_missing_token:
        try:
            settings.token_value()
        except ConfigError as exc:
            print(exc.message, file=sys.stderr)
        return 2
    return 0


def to_toml(data: dict[str, Any], *, source: Path | None = None) -> str:
    """The masked settings as TOML: one table per section, unset values commented out."""
    where = str(source.absolute()) if source is not None else "none (defaults and environment)"
    lines = [f"# effective settings; config file: {where}"]
    for section, values in data.items():
        lines.append("")
        lines.append(f"[{section}]")
        for key, value in values.items():
            if value is None:
                lines.append(f"# {key} = (not set)")
            else:
                lines.append(f"{key} = {_toml_value(value)}")
    return "\n".join(lines)


def _toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return str(value)
    # JSON string escapes are a subset of TOML basic-string escapes.
    return json.dumps(str(value), ensure_ascii=False)
