"""Settings: sources and their order, one-line errors, the masked token, check-config."""

from __future__ import annotations

import argparse
import json
import os
import re
import tomllib
from pathlib import Path

import pytest

from bot.cli import check_config
from bot.config import ConfigError, Settings, load_settings

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "config.example.toml"
TOKEN = "MTIz.secret-token-value.XYZ"


@pytest.fixture(autouse=True)
def _clean_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    # Every test runs in an empty directory, so ./config.toml is whatever the test writes,
    # and without the developer's own HOMEGAME_* / DISCORD_TOKEN variables.
    monkeypatch.chdir(tmp_path)
    for name in list(os.environ):
        if name.upper().startswith("HOMEGAME_") or name.upper() == "DISCORD_TOKEN":
            monkeypatch.delenv(name)
    return tmp_path


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def run_check_config(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    check_config.register(parser.add_subparsers())
    args = parser.parse_args(["check-config", *argv])
    status: int = args.handler(args)
    return status


def test_defaults_without_file_or_environment() -> None:
    s = load_settings(env={})
    assert s.discord.token is None
    assert s.discord.api_base == "https://discord.com/api/v10"
    assert s.database.path == Path("homegame.db")
    assert (s.backup.dir, s.backup.keep, s.backup.hour_utc, s.backup.enabled) == (
        Path("backups"),
        7,
        4,
        True,
    )
    assert s.league.starting_chips == 1000
    assert (s.league.razz_ante, s.league.razz_bring_in) == (2, 5)
    assert (s.league.razz_small_bet, s.league.razz_big_bet) == (10, 20)
    assert s.league.decision_seconds == 45
    assert s.ui.images is True
    assert s.log.level == "INFO"


def test_example_file_loads_and_states_the_defaults() -> None:
    assert load_settings(EXAMPLE, env={}) == load_settings(env={})


def test_example_file_documents_every_setting_and_its_env_variable() -> None:
    text = EXAMPLE.read_text(encoding="utf-8")
    for section, model in Settings.model_fields.items():
        assert f"[{section}]" in text
        assert model.annotation is not None
        for key in model.annotation.model_fields:
            assert re.search(rf"^(# )?{key} = ", text, re.MULTILINE), f"{section}.{key}"
            assert f"HOMEGAME_{section.upper()}__{key.upper()}" in text, f"{section}.{key}"


def test_env_overrides_file() -> None:
    cfg = write(Path("my.toml"), '[backup]\nkeep = 3\nhour_utc = 2\n[log]\nlevel = "debug"\n')
    s = load_settings(cfg, env={"HOMEGAME_BACKUP__KEEP": "12", "homegame_log__level": "error"})
    assert s.backup.keep == 12  # environment wins
    assert s.backup.hour_utc == 2  # the file still sets what the environment does not
    assert s.log.level == "ERROR"


def test_injected_env_replaces_os_environ(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOMEGAME_BACKUP__KEEP", "99")
    assert load_settings(env={}).backup.keep == 7
    assert load_settings().backup.keep == 99


def test_discord_token_alias() -> None:
    s = load_settings(env={"DISCORD_TOKEN": f"  {TOKEN}\n"})
    assert s.token_value() == TOKEN


def test_prefixed_token_wins_over_alias_and_alias_over_file() -> None:
    cfg = write(Path("c.toml"), '[discord]\ntoken = "from-file"\n')
    assert load_settings(cfg, env={}).token_value() == "from-file"
    assert load_settings(cfg, env={"DISCORD_TOKEN": "alias"}).token_value() == "alias"
    both = {"DISCORD_TOKEN": "alias", "HOMEGAME_DISCORD__TOKEN": "prefixed"}
    assert load_settings(cfg, env=both).token_value() == "prefixed"


def test_missing_token_is_reported_only_when_needed() -> None:
    s = load_settings(env={})
    with pytest.raises(ConfigError, match=r"^discord\.token: missing .*DISCORD_TOKEN"):
        s.token_value()


def test_bad_env_value_named_by_dotted_name_and_variable() -> None:
    with pytest.raises(ConfigError) as err:
        load_settings(env={"HOMEGAME_DISCORD__API_BASE": "ftp://x"})
    assert err.value.message == (
        "discord.api_base: must be an http(s) URL, got 'ftp://x' (from HOMEGAME_DISCORD__API_BASE)"
    )


def test_bad_file_value_named_by_dotted_name_and_file() -> None:
    cfg = write(Path("c.toml"), '[backup]\nkeep = "seven"\n')
    with pytest.raises(ConfigError) as err:
        load_settings(cfg, env={})
    assert err.value.message.startswith("backup.keep: ")
    assert '"seven"' in err.value.message and "(in c.toml)" in err.value.message
    assert "\n" not in err.value.message


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("[backup]\nhour_utc = 24\n", r"^backup\.hour_utc: .*less than or equal to 23"),
        ("[discord]\nshard_count = 0\n", r"^discord\.shard_count: .*greater than or equal to 1"),
        ('[log]\nlevel = "loud"\n', r"^log\.level: must be one of DEBUG, INFO"),
        ("[league]\nrazz_bring_in = 10\n", r"^league: razz_bring_in \(10\) must be less than"),
        ("[databse]\npath = 'x.db'\n", r"^databse: unknown setting"),
        ("[backup]\nkeeep = 3\n", r"^backup\.keeep: unknown setting"),
        ("[database]\npath = 5\n", r"^database\.path: must be a path"),
    ],
)
def test_rule_every_bad_setting_is_one_line_naming_it(text: str, expected: str) -> None:
    cfg = write(Path("c.toml"), text)
    with pytest.raises(ConfigError, match=expected) as err:
        load_settings(cfg, env={})
    assert "\n" not in err.value.message


def test_bad_token_value_is_never_echoed() -> None:
    cfg = write(Path("c.toml"), "[discord]\ntoken = 123456789\n")
    with pytest.raises(ConfigError, match=r"^discord\.token: ") as err:
        load_settings(cfg, env={})
    assert "123456789" not in err.value.message


def test_missing_explicit_file() -> None:
    with pytest.raises(ConfigError) as err:
        load_settings("nowhere/config.toml", env={})
    assert err.value.message == f"config file not found: {Path.cwd() / 'nowhere/config.toml'}"


def test_missing_file_named_by_homegame_config() -> None:
    with pytest.raises(ConfigError, match=r"^config file not found: /x/config\.toml$"):
        load_settings(env={"HOMEGAME_CONFIG": "/x/config.toml"})


def test_homegame_config_names_the_file_and_explicit_path_beats_it() -> None:
    a = write(Path("a.toml"), "[backup]\nkeep = 2\n")
    b = write(Path("b.toml"), "[backup]\nkeep = 3\n")
    assert load_settings(env={"HOMEGAME_CONFIG": str(a)}).backup.keep == 2
    assert load_settings(b, env={"HOMEGAME_CONFIG": str(a)}).backup.keep == 3


def test_config_toml_in_working_directory_is_read_when_present() -> None:
    assert load_settings(env={}).backup.keep == 7
    write(Path("config.toml"), "[backup]\nkeep = 5\n")
    assert load_settings(env={}).backup.keep == 5


def test_malformed_toml_reports_file_and_line() -> None:
    cfg = write(Path("config.toml"), '[discord]\napi_base = "http://x"\nthis is not toml\n')
    with pytest.raises(ConfigError) as err:
        load_settings(cfg, env={})
    assert re.fullmatch(r"config\.toml line 3: invalid TOML: .+ \(column \d+\)", err.value.message)


def test_env_section_as_json_is_a_clear_error() -> None:
    with pytest.raises(ConfigError, match=r"^HOMEGAME_DISCORD: not a JSON object"):
        load_settings(env={"HOMEGAME_DISCORD": "{broken"})


def test_api_base_accepts_local_http_server() -> None:
    s = load_settings(env={"HOMEGAME_DISCORD__API_BASE": "http://127.0.0.1:8765/api/v10/"})
    assert s.discord.api_base == "http://127.0.0.1:8765/api/v10"


def test_masked_shows_token_as_stars() -> None:
    s = load_settings(env={"DISCORD_TOKEN": TOKEN})
    data = s.masked()
    assert data["discord"]["token"] == "***"
    assert TOKEN not in json.dumps(data) and TOKEN not in repr(s) and TOKEN not in str(s)
    assert load_settings(env={}).masked()["discord"]["token"] is None


def test_check_config_prints_masked_toml(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    cfg = write(Path("c.toml"), f'[discord]\ntoken = "{TOKEN}"\n[backup]\nkeep = 9\n')
    monkeypatch.setenv("HOMEGAME_LOG__LEVEL", "warning")
    assert run_check_config([str(cfg)]) == 0
    out, err = capsys.readouterr()
    assert TOKEN not in out and TOKEN not in err and err == ""
    printed = tomllib.loads(out)  # the output is TOML load_settings accepts back
    assert printed["discord"]["token"] == "***"
    assert printed["backup"]["keep"] == 9
    assert printed["log"]["level"] == "WARNING"
    assert "# dev_guild_id = (not set)" in out


def test_check_config_json(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    assert run_check_config(["--json"]) == 0
    out = capsys.readouterr().out
    assert TOKEN not in out
    assert json.loads(out)["discord"]["token"] == "***"


def test_check_config_bad_setting_exits_2_with_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("HOMEGAME_DISCORD__API_BASE", "ftp://x")
    assert run_check_config([]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (
        "discord.api_base: must be an http(s) URL, got 'ftp://x'"
        " (from HOMEGAME_DISCORD__API_BASE)\n"
    )


def test_check_config_missing_file_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_check_config(["--config", "absent.toml"]) == 2
    assert capsys.readouterr().err == f"config file not found: {Path.cwd() / 'absent.toml'}\n"


def test_check_config_missing_token(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_check_config([]) == 2
    out, err = capsys.readouterr()
    assert "[discord]" in out and "# token = (not set)" in out
    assert err.startswith("discord.token: missing") and err.count("\n") == 1
    assert run_check_config(["--allow-missing-token"]) == 0


def test_check_config_is_a_registered_command(capsys: pytest.CaptureFixture[str]) -> None:
    from bot.__main__ import main

    cfg = write(Path("c.toml"), f'[discord]\ntoken = "{TOKEN}"\n')
    assert main(["check-config", str(cfg)]) == 0
    out = capsys.readouterr().out
    assert 'token = "***"' in out and TOKEN not in out
