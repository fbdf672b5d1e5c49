"""The deployment files the README's "Running it for real" uses (issue 12, item 1):
``compose.yaml`` against the Compose Specification's JSON schema (no Docker engine needed)
and against the image (uid 10001, /data, the config file read-only), and the systemd unit
with ``systemd-analyze verify``."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
SCHEMA = Path(__file__).parent / "data" / "compose-spec.json"


def compose() -> dict[str, Any]:
    yaml = pytest.importorskip("yaml")  # a [test] dependency (pyproject.toml)
    loaded: dict[str, Any] = yaml.safe_load((REPO / "compose.yaml").read_text(encoding="utf-8"))
    return loaded


def test_item1_compose_yaml_is_valid_against_the_compose_spec_schema() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    validator = jsonschema.Draft7Validator(schema)
    doc = compose()
    errors = [f"{list(e.path)}: {e.message}" for e in validator.iter_errors(doc)]
    assert errors == []
    # the schema does catch a mistake (a misspelt key), so the check above means something
    bad = {**doc, "services": {"bot": {**doc["services"]["bot"], "restart_policy": "always"}}}
    assert list(validator.iter_errors(bad))


def test_item1_compose_yaml_runs_the_bot_with_a_volume_a_restart_policy_and_read_only_config() -> (
    None
):
    doc = compose()
    bot = doc["services"]["bot"]
    assert bot["restart"] == "unless-stopped"
    volumes = bot["volumes"]
    named = [v for v in volumes if v.split(":")[1] == "/data"]
    assert named == ["homegame-data:/data"] and "homegame-data" in doc["volumes"]
    (config,) = [v for v in volumes if v.startswith("./config.toml:")]
    _source, target, mode = config.split(":")
    assert mode == "ro" and bot["environment"]["HOMEGAME_CONFIG"] == target
    dockerfile = (REPO / "Dockerfile").read_text(encoding="utf-8")
    assert 'VOLUME ["/data"]' in dockerfile and "USER 10001:10001" in dockerfile
    assert "HOMEGAME_DATABASE__PATH=/data/homegame.db" in dockerfile


def test_item1_systemd_unit_passes_systemd_analyze_verify(tmp_path: Path) -> None:
    if shutil.which("systemd-analyze") is None:
        pytest.skip("systemd-analyze is not installed")
    script = Path(sys.executable).parent / "homegame"
    if not script.exists():
        pytest.skip("the homegame script is not installed here (pip install -e .)")
    unit = (REPO / "deploy" / "homegame.service").read_text(encoding="utf-8")
    assert "ExecStart=/opt/homegame/venv/bin/homegame run" in unit
    assert re.search(r"^RestartPreventExitStatus=2$", unit, re.MULTILINE)
    # verify checks that ExecStart exists: point it at this environment's installed script
    copy = tmp_path / "homegame.service"
    copy.write_text(unit.replace("/opt/homegame/venv/bin/homegame", str(script)))
    done = subprocess.run(
        ["systemd-analyze", "verify", str(copy)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == "", done.stderr


# ---- issue 19, item 14: the unit's sandbox and umask ------------------------------------

UNIT = REPO / "deploy" / "homegame.service"


def unit_settings() -> dict[str, list[str]]:
    """The [Service] section's settings, each key with its values in order (a key may
    repeat, as SystemCallFilter= does)."""
    settings: dict[str, list[str]] = {}
    section = ""
    for raw in UNIT.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            section = line
            continue
        if section == "[Service]":
            key, _, value = line.partition("=")
            settings.setdefault(key, []).append(value)
    return settings


def test_item14_systemd_unit_scores_at_most_4_5_in_systemd_analyze_security() -> None:
    if shutil.which("systemd-analyze") is None:
        pytest.skip("systemd-analyze is not installed (Debian package systemd)")
    # --offline: score the file itself, without a running systemd (CI containers have none)
    done = subprocess.run(
        ["systemd-analyze", "security", "--offline=true", str(UNIT)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    if "Unknown command verb" in done.stderr or "--offline" in done.stderr:
        pytest.skip("this systemd-analyze cannot score a unit file offline (systemd < 250)")
    found = re.search(r"Overall exposure level for \S+: (\d+\.\d+) (\w+)", done.stdout)
    assert found, done.stdout + done.stderr
    score = float(found.group(1))
    assert score <= 4.5, done.stdout
    # the score's own table: the database and backups are not world-readable
    assert "✗ UMask=" not in done.stdout


def test_item14_systemd_unit_makes_the_database_and_backups_private_to_the_service_user() -> None:
    settings = unit_settings()
    # every file the bot creates (database, -wal, -shm, backups) is rw------- for its user
    assert settings["UMask"] == ["0077"]
    # and the state folder itself is not listable by others
    assert settings["StateDirectoryMode"] == ["0700"]


def test_item14_systemd_sandbox_still_lets_the_bot_write_its_database_and_backups() -> None:
    settings = unit_settings()
    assert settings["ProtectSystem"] == ["strict"]  # everything read-only but what is listed
    (state,) = settings["StateDirectory"]
    writable = [Path("/var/lib") / state]
    for line in settings.get("ReadWritePaths", []):
        writable += [Path(p.lstrip("-")) for p in line.split()]
    env = dict(v.split("=", 1) for v in settings["Environment"])
    database = Path(env["HOMEGAME_DATABASE__PATH"])
    backups = Path(env["HOMEGAME_BACKUP__DIR"])
    for path in (database.parent, backups):
        assert any(path == w or w in path.parents for w in writable), (path, writable)
    assert Path(settings["WorkingDirectory"][0]) in writable
    # the network a Discord bot needs is there: Internet sockets, no private network
    families = settings["RestrictAddressFamilies"][0].split()
    assert {"AF_INET", "AF_INET6"} <= set(families)
    assert settings.get("PrivateNetwork", ["no"]) == ["no"]
    assert "IPAddressDeny" not in settings  # Discord's addresses are not ours to list


def test_item14_systemd_sandbox_lets_the_image_workers_start() -> None:
    """bot/render/pool.py starts its workers with multiprocessing's spawn: fork/exec and
    POSIX semaphores in /dev/shm, which the system-call filter and PrivateDevices= allow;
    nothing the service needs is in the groups it filters out."""
    settings = unit_settings()
    filters = settings["SystemCallFilter"]
    assert filters[0] == "@system-service"  # includes @process (fork, execve) and @ipc
    denied = {name for line in filters[1:] for name in line.lstrip("~").split()}
    assert not denied & {"@process", "@ipc", "@network-io", "@file-system", "@signal"}
    assert settings["SystemCallErrorNumber"] == ["EPERM"]  # a refused call fails, not kills
