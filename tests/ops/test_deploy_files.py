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
