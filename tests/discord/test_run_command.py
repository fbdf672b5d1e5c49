"""``python -m bot run``: bad settings stop start-up with one clear line (exit 2), and
``run`` is the default sub-command."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.__main__ import main


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    for name in ("DISCORD_TOKEN", "HOMEGAME_CONFIG", "HOMEGAME_DISCORD__TOKEN"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_run_without_token_is_one_line_exit_2(
    clean_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([]) == 2  # no sub-command: run
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "discord.token: missing" in err
    assert "Traceback" not in err
    assert not (clean_env / "homegame.db").exists()  # nothing created before settings are ok


def test_run_with_bad_api_base_names_the_setting(
    clean_env: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    config = clean_env / "bot.toml"
    config.write_text('[discord]\ntoken = "abc"\napi_base = "ftp://example.com"\n')
    assert main(["run", "--config", str(config)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "discord.api_base" in err and "http(s) URL" in err
    assert "abc" not in err  # the token never shows


def test_run_with_missing_config_file_exit_2(
    clean_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["run", "--config", str(clean_env / "nope.toml")]) == 2
    assert "config file not found" in capsys.readouterr().err
